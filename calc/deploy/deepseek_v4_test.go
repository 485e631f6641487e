package deploy

import (
	"math"
	"testing"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// DeepSeek-V4-Flash end to end on one B300 (tensor_parallel_size 1).
//
// Weights, by hand from the parameter breakdown (models
// TestDeepSeekV4FlashParams): routed experts 277,025,390,592 in MXFP4
// (4.25 bits) = 147,169,738,752 B; attention 5,086,317,888 and shared
// experts 1,082,130,432 in block fp8 (8 + 32/16,384 bits) =
// 6,169,954,330 B; router, norms and hyper-connections 81,666,839 and the
// embedding and head 1,059,061,760 in bf16 = 2,281,457,198 B; total
// 155,621,150,280 B (the engine files the final norm apart, which moves
// it by under 2 MB).
//
// The cache (kvcache TestDeepSeekV4FlashLayout): 256-token blocks of
// 1,002,240 B, five groups, 3,850.25 B per token of compressed streams and
// 15,420,416 B of windows and states per sequence. num_blocks =
// floor(pool / 1,002,240), and a max_model_len request of 65,536 tokens
// holds 256 full blocks plus its windows' blocks.
func TestDeepSeekV4FlashEndToEnd(t *testing.T) {
	t.Parallel()
	rep := eval(t, spec.Request{Model: "deepseek-v4-flash", Hardware: spec.HardwareRef{ID: "b300"}, MaxModelLen: spec.Int(65536)})
	assert.InEpsilon(t, 155_621_150_280, float64(rep.Memory.WeightsBytes), 1e-4)
	k := rep.KVCache
	assert.Equal(t, 256, k.BlockSize)
	assert.InDelta(t, 3850.25, k.BytesPerToken, 1e-9)
	assert.InDelta(t, 15_420_416, k.StateBytesPerSequence, 0)
	require.Len(t, k.Groups, 5)
	assert.Equal(t, spec.KVGroup{Kind: "mla", Layers: 41}, k.Groups[0])
	assert.Equal(t, spec.KVGroup{Kind: "sliding_attention", Layers: 21, Window: 8}, k.Groups[3])
	assert.Equal(t, int64(math.Floor(float64(rep.Memory.KVCacheBytes)/1_002_240)), k.NumBlocks)

	b := int64(rep.Config.MaxNumBatchedTokens)
	cdiv := func(a, d int64) int64 { return (a + d - 1) / d }
	perReq := 65536/256 + 2*(cdiv(min(127+b, 65536), 64)+1) + cdiv(min(7+b, 65536), 4) + 1 + cdiv(min(127+b, 65536), 8) + 1
	assert.InDelta(t, float64(k.NumBlocks)/float64(perReq), k.MaxConcurrency, 1e-9)
	// vLLM after 0.19 logs int(max_concurrency * max_model_len).
	assert.Equal(t, int64(k.MaxConcurrency*65536), k.CapacityTokens)
	assert.Equal(t, "moe+mla", rep.Model.Architecture)
	assert.True(t, rep.Fits)
}

// A pool too small for vLLM's start-up check is refused although the
// packed blocks would hold one request: the check prices a block at
// 1,051,776 B, above its 1,002,240 B width (kvcache
// TestDeepSeekV4StartupCheckMatchesPublishedLog). The pool is shrunk to
// about 7 GB with gpu_memory_utilization (it falls by the GPU's memory
// times the change), and max_model_len is the first multiple of 256 whose
// request fits the packed blocks but not the check.
func TestDeepSeekV4StartupCheckRefuses(t *testing.T) {
	t.Parallel()
	base := eval(t, spec.Request{Model: "deepseek-v4-flash", Hardware: spec.HardwareRef{ID: "b300"}, MaxModelLen: spec.Int(65536), GPUMemoryUtilization: spec.Float(0.9)})
	u := 0.9 - (float64(base.Memory.KVCacheBytes)-7e9)/float64(base.Memory.TotalBytes)
	probe := eval(t, spec.Request{Model: "deepseek-v4-flash", Hardware: spec.HardwareRef{ID: "b300"}, MaxModelLen: spec.Int(65536), GPUMemoryUtilization: spec.Float(u)})
	pool := float64(probe.Memory.KVCacheBytes)
	require.InDelta(t, 7e9, pool, 0.2e9)
	b := int64(probe.Config.MaxNumBatchedTokens)
	cdiv := func(a, d int64) int64 { return (a + d - 1) / d }
	perReq := func(l int64) int64 {
		return cdiv(l, 256) + 2*(cdiv(min(127+b, l), 64)+1) + cdiv(min(7+b, l), 4) + 1 + cdiv(min(127+b, l), 8) + 1
	}
	var l int64
	for c := int64(256); c <= 1048576; c += 256 {
		if float64(perReq(c))*1_051_776 > pool {
			l = c
			break
		}
	}
	require.NotZero(t, l)
	numBlocks := int64(pool / 1_002_240)
	require.GreaterOrEqual(t, numBlocks, perReq(l), "the packed pool holds one request of %d tokens", l)
	rep := eval(t, spec.Request{Model: "deepseek-v4-flash", Hardware: spec.HardwareRef{ID: "b300"}, MaxModelLen: spec.Int(int(l)), GPUMemoryUtilization: spec.Float(u)})
	assert.GreaterOrEqual(t, rep.KVCache.MaxConcurrency, 1.0)
	assert.False(t, rep.Fits)
	codes := map[string]bool{}
	for _, w := range rep.Warnings {
		codes[w.Code] = true
	}
	assert.True(t, codes["max_model_len_too_large"])
	// One block of 256 tokens less passes.
	ok := eval(t, spec.Request{Model: "deepseek-v4-flash", Hardware: spec.HardwareRef{ID: "b300"}, MaxModelLen: spec.Int(int(l - 256)), GPUMemoryUtilization: spec.Float(u)})
	assert.True(t, ok.Fits)
}
