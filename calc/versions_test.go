package calc_test

import (
	"errors"
	"math"
	"os"
	"testing"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/validation"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func l8Version(v string) calc.Request {
	return calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{ID: "h100-sxm"}, EngineVersion: v, MaxModelLen: calc.Int(8192)}
}

// vLLM's default capture sizes, counted by hand: 1, 2, 4 (3), 8..248 by 8
// (31), 256..512 by 16 (17). Piecewise graphs go up to min(2 x
// max_num_seqs, 512), full decode graphs up to max_num_seqs.
func TestCUDAGraphCapturesCountsBothModes(t *testing.T) {
	assert.Equal(t, 51+51, calc.CUDAGraphCaptures(1024)) // every size, both modes
	assert.Equal(t, 51+35, calc.CUDAGraphCaptures(256))  // full graphs: 3 + 31 + 256
	assert.Equal(t, 5+4, calc.CUDAGraphCaptures(8))      // piecewise 1,2,4,8,16; full 1,2,4,8
	assert.Equal(t, 2+1, calc.CUDAGraphCaptures(1))      // piecewise 1,2; full 1
}

// The same deployment under 0.19 and 0.21: the pool differs by exactly the
// CUDA-graph estimate, 102 graphs x (4.133 MiB + 32 layers x 0.166 MiB)
// = 963.41 MiB for Llama 3.1 8B on an H100 at vLLM's default max_num_seqs
// there, 1024 (every capture size in both modes).
func TestCUDAGraphEstimateIsTakenFromThePoolFrom0_21(t *testing.T) {
	want := 102 * (4.133 + 32*0.166) * (1 << 20)
	old, err := calc.Evaluate(l8Version("0.19"))
	require.NoError(t, err)
	cur, err := calc.Evaluate(l8Version("0.21"))
	require.NoError(t, err)
	assert.Zero(t, old.Memory.CUDAGraphBytes, "0.19 logs the estimate but does not subtract it")
	assert.InDelta(t, want, float64(cur.Memory.CUDAGraphBytes), 1)
	assert.InDelta(t, want, float64(old.Memory.KVCacheBytes-cur.Memory.KVCacheBytes), 1)
	assert.Equal(t, old.Memory.ActivationBytes, cur.Memory.ActivationBytes)
	assert.Equal(t, old.Memory.NonTorchBytes, cur.Memory.NonTorchBytes)

	// 0.20 sizes memory as 0.19; the newest as 0.21.
	r20, err := calc.Evaluate(l8Version("0.20"))
	require.NoError(t, err)
	assert.Equal(t, old.Memory.KVCacheBytes, r20.Memory.KVCacheBytes)
	def, err := calc.Evaluate(l8Version(""))
	require.NoError(t, err)
	assert.Equal(t, cur.Memory.KVCacheBytes, def.Memory.KVCacheBytes)
}

// The estimate is per pipeline stage: two stages of 16 layers each hold
// 102 x (4.133 + 16 x 0.166) MiB.
func TestCUDAGraphEstimateFollowsTheStage(t *testing.T) {
	req := l8Version("0.31")
	req.PipelineParallelSize = calc.Int(2)
	r, err := calc.Evaluate(req)
	require.NoError(t, err)
	assert.InDelta(t, 102*(4.133+16*0.166)*(1<<20), float64(r.Memory.CUDAGraphBytes), 1)
}

func TestEngineVersionIsEchoedResolved(t *testing.T) {
	for in, want := range map[string]string{"": calc.DefaultEngineVersion, "0.19": "0.19", "v0.19.1": "0.19", "0.6": "0.6"} {
		r, err := calc.Evaluate(l8Version(in))
		require.NoError(t, err, in)
		assert.Equal(t, want, r.Config.EngineVersion, in)
	}
	assert.Equal(t, "0.31", calc.DefaultEngineVersion)
	r, err := calc.Evaluate(calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{ID: "h100-sxm"}, Engine: "sglang"})
	require.NoError(t, err)
	assert.Equal(t, "", r.Config.EngineVersion)
}

// V0 without chunked prefill batches (and profiles) max(max_model_len,
// 2048) tokens; V1 releases keep the 8192-token default.
func TestV0ProfilesAtMaxModelLen(t *testing.T) {
	for mml, want := range map[int]int{20000: 20000, 1536: 2048, 8192: 8192} {
		req := l8Version("0.6")
		req.MaxModelLen = calc.Int(mml)
		r, err := calc.Evaluate(req)
		require.NoError(t, err)
		assert.Equal(t, want, r.Config.MaxNumBatchedTokens, mml)
	}
	req := l8Version("0.19")
	req.MaxModelLen = calc.Int(20000)
	r, err := calc.Evaluate(req)
	require.NoError(t, err)
	assert.Equal(t, 8192, r.Config.MaxNumBatchedTokens)
	req.EngineVersion, req.MaxNumBatchedTokens = "0.6", calc.Int(4096)
	r, err = calc.Evaluate(req)
	require.NoError(t, err)
	assert.Equal(t, 4096, r.Config.MaxNumBatchedTokens, "a given budget is kept")
}

// "GPU KV cache size": blocks x 16 up to 0.19, int(max_concurrency x
// max_model_len) after. With max_model_len 10001 a request holds
// ceil(10001/16) = 626 blocks, so the newer figure is
// floor(B x 10001 / 626), below B x 16.
func TestCapacityFormulaChangesAfter0_19(t *testing.T) {
	req := l8Version("0.19")
	req.MaxModelLen = calc.Int(10001)
	old, err := calc.Evaluate(req)
	require.NoError(t, err)
	assert.Equal(t, old.KVCache.NumBlocks*16, old.KVCache.CapacityTokens)
	req.EngineVersion = "0.20"
	cur, err := calc.Evaluate(req)
	require.NoError(t, err)
	b := cur.KVCache.NumBlocks
	assert.Equal(t, old.KVCache.NumBlocks, b)
	assert.InDelta(t, math.Floor(float64(b)*10001/626), float64(cur.KVCache.CapacityTokens), 1)
	assert.Less(t, cur.KVCache.CapacityTokens, b*16)
}

// The logs of other releases than 0.19 in group A, evaluated under their
// own release: the V0 logs of issue #10517 (RTX 3090, max_model_len 20000
// and 29000: 1952 and 1478 blocks), PR #2031 (Llama 2 7B on an A100: 7351
// blocks), PR #10511's V0 log (53.29 GiB) and the v0.11.0 log (51.38 GiB).
// Under the 0.19 profile the two RTX 3090 cases were 6.9 % and 41 % high.
// The activation peaks of A068, A074 and A075 are what the V0 activation
// was fitted on, so only A070 (and A063, V1) are independent checks.
func TestOtherReleasesAgainstTheirLogs(t *testing.T) {
	if _, err := os.Stat(casesPath); errors.Is(err, os.ErrNotExist) {
		t.Skip("../shared/validation/cases.json not present")
	}
	rs, err := validation.Load(casesPath)
	require.NoError(t, err)
	tol := map[string]float64{"A074": 0.01, "A075": 0.08, "A070": 0.01, "A068": 0.03, "A063": 0.06}
	seen := 0
	for _, r := range rs {
		if want, ok := tol[r.ID]; ok {
			seen++
			assert.LessOrEqual(t, math.Abs(r.RelErr()), want, r.ID)
		}
	}
	assert.Equal(t, len(tol), seen)
}

// vLLM's OpenAI-server batch defaults by accelerator (PR #17885,
// vllm/engine/arg_utils.py get_batch_defaults): 1024 sequences and 8192
// tokens on an H100 (79.19 GiB reported) or an MI300X (192 GB), 256 and
// 2048 on an A100 80GB (excluded by name: a large token budget slows it)
// and on an L4 (24 GB, under 70 GiB); a TPU v6e keeps 256 sequences and a
// 1024-token budget. V0 and other engines keep their own; a request's
// own values win.
func TestVLLMBatchDefaultsFollowTheGPU(t *testing.T) {
	for _, c := range []struct {
		hw, engine, version string
		seqs, tokens        int
	}{
		{"h100-sxm", "vllm", "", 1024, 8192},
		{"mi300x", "vllm", "0.10", 1024, 8192},
		{"a100-sxm-80gb", "vllm", "0.19", 256, 2048},
		{"l4", "vllm", "0.31", 256, 2048},
		{"tpu-v6e", "vllm", "", 256, 1024},
		{"h100-sxm", "sglang", "", calc.DefaultMaxNumSeqs, calc.DefaultMaxNumBatchedTokens},
	} {
		d, err := calc.Resolve(calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{ID: c.hw}, Engine: c.engine, EngineVersion: c.version, MaxModelLen: calc.Int(8192)})
		require.NoError(t, err, c.hw)
		assert.Equal(t, []int{c.seqs, c.tokens}, []int{d.MaxNumSeqs, d.MaxBatched}, "%s %s %s", c.hw, c.engine, c.version)
	}
	d, err := calc.Resolve(calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{ID: "l4"}, MaxNumSeqs: calc.Int(64), MaxNumBatchedTokens: calc.Int(4096)})
	require.NoError(t, err)
	assert.Equal(t, []int{64, 4096}, []int{d.MaxNumSeqs, d.MaxBatched})
	// V0: max(max_model_len, 2048) tokens, its own rule.
	d, err = calc.Resolve(calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{ID: "l4"}, EngineVersion: "0.6", MaxModelLen: calc.Int(8192)})
	require.NoError(t, err)
	assert.Equal(t, []int{calc.DefaultMaxNumSeqs, 8192}, []int{d.MaxNumSeqs, d.MaxBatched})
}
