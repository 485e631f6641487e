package calc_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// TestBudget160GiBFrom0_28: vLLM PR #51726 (commit 4988df2e, first in
// v0.28.0) gives `vllm serve` on a GPU that reports 160 GiB or more a
// 16,384-token max_num_batched_tokens where the 70 GiB tier gives 8192
// (vllm/engine/arg_utils.py EngineArgs.get_batch_defaults); max_num_seqs
// stays 1024. A B200 reports 178.36 GiB, so it moves from 0.28; an H100
// (79.19 GiB) and an H200 (139.80 GiB) stay in the 70 GiB tier.
//
// Llama 3.1 8B (hidden 4096, intermediate 14336, vocabulary 128,256,
// bfloat16, tp 1) on one B200, 0.27 against 0.28. The activation model
// (docs/MODEL.md section 3), S = min(1024, T) = 1024 both times, 3.601
// sampler tensors (both releases are after the Triton sampler):
//
//	activation(T) = 1.031 x T x 4096 x 2 + 0.540 x T x 14336 x 2 + 3.601 x 1024 x 128256 x 4
//	              = T x (8445.952 + 15482.88) + 1,891,737,010.2
//	              = T x 23,928.832 + 1,891,737,010.2
//	T = 8192:    196,024,991.7 + 1,891,737,010.2 = 2,087,762,001.9 B (1.944 GiB)
//	T = 16384:   392,049,983.5 + 1,891,737,010.2 = 2,283,786,993.7 B (2.127 GiB)
//
// The request, the weights, the non-torch memory and the CUDA-graph
// estimate (a function of max_num_seqs, 1024 both times) do not move, so
// the pool loses the 196,024,991.7 B the activation gains: at 2 MiB a
// block (16 tokens x 32 layers x 2 x 8 KV heads x 128 x 2 B) 93.47
// blocks, 93 or 94 with the floors.
//
// The prefill step: a 12,000-token prompt on an idle server takes
// ceil(12000 / 8192) = 2 chunks under 0.27 and ceil(12000 / 16384) = 1
// under 0.28.
func TestBudget160GiBFrom0_28(t *testing.T) {
	t.Parallel()
	eval := func(hw, version string, batched *int) calc.Report {
		t.Helper()
		rep, err := calc.Evaluate(calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{ID: hw},
			EngineVersion: version, MaxModelLen: calc.Int(16384), MaxNumBatchedTokens: batched,
			Workload: &calc.Workload{InputTokens: calc.Int(12000), OutputTokens: calc.Int(256)}})
		require.NoError(t, err, hw, version)
		return rep
	}
	before, after := eval("b200", "0.27", nil), eval("b200", "0.28", nil)
	assert.Equal(t, []int{1024, 8192}, []int{before.Config.MaxNumSeqs, before.Config.MaxNumBatchedTokens})
	assert.Equal(t, []int{1024, 16384}, []int{after.Config.MaxNumSeqs, after.Config.MaxNumBatchedTokens})
	assert.InDelta(t, 2_087_762_001.9, float64(before.Memory.ActivationBytes), 2)
	assert.InDelta(t, 2_283_786_993.7, float64(after.Memory.ActivationBytes), 2)
	assert.Equal(t, before.Memory.RequestedBytes, after.Memory.RequestedBytes)
	assert.Equal(t, before.Memory.WeightsBytes, after.Memory.WeightsBytes)
	assert.Equal(t, before.Memory.NonTorchBytes, after.Memory.NonTorchBytes)
	assert.Equal(t, before.Memory.CUDAGraphBytes, after.Memory.CUDAGraphBytes)
	assert.InDelta(t, -196_024_991.7, float64(after.Memory.KVCacheBytes-before.Memory.KVCacheBytes), 2)
	lost := before.KVCache.NumBlocks - after.KVCache.NumBlocks
	assert.GreaterOrEqual(t, lost, int64(93))
	assert.LessOrEqual(t, lost, int64(94))
	require.NotNil(t, before.Prefill)
	require.NotNil(t, after.Prefill)
	assert.Equal(t, 2, before.Prefill.Chunks)
	assert.Equal(t, 1, after.Prefill.Chunks)

	// The newest release (the default) is after the change; a request's
	// own budget still wins.
	def := eval("b200", "", nil)
	assert.Equal(t, 16384, def.Config.MaxNumBatchedTokens)
	assert.Equal(t, after.Memory.ActivationBytes, def.Memory.ActivationBytes)
	own := eval("b200", "", calc.Int(8192))
	assert.Equal(t, 8192, own.Config.MaxNumBatchedTokens)
	assert.Equal(t, before.Memory.ActivationBytes, own.Memory.ActivationBytes)

	// Under the 160 GiB tier nothing moves: an H100 and an H200 profile
	// 8192 tokens under 0.28 as under 0.27, to the byte.
	for _, hw := range []string{"h100-sxm", "h200-sxm-141gb"} {
		a, b := eval(hw, "0.27", nil), eval(hw, "0.28", nil)
		assert.Equal(t, 8192, b.Config.MaxNumBatchedTokens, hw)
		assert.Equal(t, a.Memory.ActivationBytes, b.Memory.ActivationBytes, hw)
		assert.Equal(t, a.KVCache.NumBlocks, b.KVCache.NumBlocks, hw)
		// On the H100 the 8192-token figure is the one derived above.
		if hw == "h100-sxm" {
			assert.InDelta(t, 2_087_762_001.9, float64(b.Memory.ActivationBytes), 2)
		}
	}
}
