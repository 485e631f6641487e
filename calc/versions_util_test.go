package calc_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// TestReleaseDefaultUtilization: vLLM's --gpu-memory-utilization default is
// 0.9 up to 0.20 and 0.92 from 0.21 (PR #38284, vllm/config/cache.py
// Field(default=0.92)); a request without engine_version gets the newest
// release's, and the report's config says which it used. SGLang 0.4 takes
// 0.88 at TP 1; 0.5 leaves reserved_mem free on the H100's 81,090 MiB:
// 512 + 1.5 x 8192 + 2 x 256 + 1024 / 8 = 13,440 MiB, so (81,090 -
// 13,440) / 81,090 = 0.834 (sglangDefaults).
func TestReleaseDefaultUtilization(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		engine, version string
		want            float64
	}{
		{"vllm", "0.6", 0.9}, {"vllm", "0.10", 0.9}, {"vllm", "0.19", 0.9}, {"vllm", "0.20", 0.9},
		{"vllm", "0.21", 0.92}, {"vllm", "0.31", 0.92}, {"vllm", "", 0.92}, {"sglang", "0.4", 0.88}, {"sglang", "", 0.834},
	} {
		rep, err := calc.Evaluate(calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{ID: "h100-sxm"},
			Engine: c.engine, EngineVersion: c.version, MaxModelLen: calc.Int(8192)})
		require.NoError(t, err, c)
		assert.InDelta(t, c.want, rep.Config.GPUMemoryUtilization, 1e-12, c)
	}
}

// TestUtilizationDefaultMovesThePool: on the newest release (0.33) the
// 0.92 default requests 0.02 x the H100's reported 79.19 GiB more than an
// explicit 0.9, and every other term (weights, activation, non-torch,
// CUDA-graph estimate) is the same, so the KV pool grows by exactly that:
// 0.02 x 79.19 GiB = 1.5838 GiB = 1,700,585,816 bytes (to the byte,
// 0.02 x 79.19 x 2^30 = 1,700,585,815.6). Llama 3.1 8B's bfloat16 block
// of 16 tokens is 16 x 2 x 32 layers x 8 KV heads x 128 x 2 B = 2 MiB,
// so about 1.5838 GiB / 2 MiB = 810.9 blocks more (810 or 811 with the
// floor). An explicit value still wins over the release's default.
func TestUtilizationDefaultMovesThePool(t *testing.T) {
	t.Parallel()
	req := func(u *float64) calc.Request {
		return calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{ID: "h100-sxm"},
			EngineVersion: "0.31", MaxModelLen: calc.Int(8192), GPUMemoryUtilization: u}
	}
	def, err := calc.Evaluate(req(nil))
	require.NoError(t, err)
	old, err := calc.Evaluate(req(calc.Float(0.9)))
	require.NoError(t, err)
	assert.InDelta(t, 0.9, old.Config.GPUMemoryUtilization, 1e-12, "an explicit value wins")
	assert.InDelta(t, 0.92, def.Config.GPUMemoryUtilization, 1e-12)

	const gib = 1 << 30
	wantDelta := 0.02 * 79.19 * gib
	assert.InDelta(t, wantDelta, float64(def.Memory.RequestedBytes-old.Memory.RequestedBytes), 2)
	assert.Equal(t, old.Memory.CUDAGraphBytes, def.Memory.CUDAGraphBytes)
	assert.Equal(t, old.Memory.ActivationBytes, def.Memory.ActivationBytes)
	assert.InDelta(t, wantDelta, float64(def.Memory.KVCacheBytes-old.Memory.KVCacheBytes), 2)
	blocks := def.KVCache.NumBlocks - old.KVCache.NumBlocks
	assert.GreaterOrEqual(t, blocks, int64(810))
	assert.LessOrEqual(t, blocks, int64(811))

	// On 0.19 the release's default is 0.9 itself: leaving it out or
	// giving 0.9 is the same deployment.
	req19 := func(u *float64) calc.Request { r := req(u); r.EngineVersion = "0.19"; return r }
	a, err := calc.Evaluate(req19(nil))
	require.NoError(t, err)
	b, err := calc.Evaluate(req19(calc.Float(0.9)))
	require.NoError(t, err)
	assert.Equal(t, a.KVCache.NumBlocks, b.KVCache.NumBlocks)
	// and an explicit 0.92 there gives 0.31's default budget.
	c, err := calc.Evaluate(req19(calc.Float(0.92)))
	require.NoError(t, err)
	assert.Equal(t, def.Memory.RequestedBytes, c.Memory.RequestedBytes)
}
