package evaluate

import (
	"testing"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Qwen3-30B-A3B in bf16 holds 30.5e9 parameters, 61 GB = 56.9 GiB; an
// L40S lets vLLM use 0.9 * 44.40 = 39.96 GiB. fp8 halves the weights to
// about 28.5 GiB (the embeddings and head stay bf16, 1.2 GiB more):
// they fit. TP 2 halves them too: 28.5 GiB per GPU fits. The smallest
// NVIDIA accelerator above 48 GB that holds 56.9 GiB at 0.9 of its
// memory: 80 GB parts give 71 GiB, the smallest of them is first.
func TestFixesWhenTheWeightsDoNotFit(t *testing.T) {
	r, err := Evaluate(spec.Request{Model: "Qwen/Qwen3-30B-A3B", Hardware: spec.HardwareRef{ID: "l40s"}, MaxModelLen: spec.Int(8192)})
	require.NoError(t, err)
	require.False(t, r.Fits)
	require.Len(t, r.Fixes, 3)
	assert.Equal(t, spec.Fix{Field: "quantization", Value: "fp8", Summary: "fits with fp8 weights"}, r.Fixes[0])
	assert.Equal(t, spec.Fix{Field: "tensor_parallel_size", Value: "2", Summary: "fits with TP 2"}, r.Fixes[1])
	assert.Equal(t, "hardware", r.Fixes[2].Field)
	fixed, err := Evaluate(spec.Request{Model: "Qwen/Qwen3-30B-A3B", Hardware: spec.HardwareRef{ID: r.Fixes[2].Value}, MaxModelLen: spec.Int(8192)})
	require.NoError(t, err)
	assert.True(t, fixed.Fits)
	assert.Equal(t, int64(80)<<30, fixed.Hardware.MemoryBytes)
}

// 20 requests/s of 1024+256 tokens on one A10 with Llama 3.1 8B: the
// report's saturation rate s is what one replica carries; the fix asks
// for ceil(20 / s) replicas at 20 / ceil(20 / s) requests/s each, which
// then is within s.
func TestFixesWhenOverloaded(t *testing.T) {
	r, err := Evaluate(spec.Request{Model: "meta-llama/Llama-3.1-8B-Instruct", Hardware: spec.HardwareRef{ID: "a10"}, MaxModelLen: spec.Int(4096),
		Workload: &spec.Workload{RequestRate: spec.Float(20)}})
	require.NoError(t, err)
	require.True(t, r.Fits)
	s := r.Preemption.SaturationRequestRate
	require.Less(t, s, 20.0)
	require.Len(t, r.Fixes, 1)
	n := 1
	for float64(n)*s < 20 {
		n++
	}
	assert.Equal(t, "workload.request_rate", r.Fixes[0].Field)
	assert.Contains(t, r.Fixes[0].Summary, "needs "+itoa(n)+" replicas")
	each := 20 / float64(n)
	assert.LessOrEqual(t, each, s)
}

func TestNoFixesWhenItWorks(t *testing.T) {
	r, err := Evaluate(spec.Request{Model: "meta-llama/Llama-3.1-8B-Instruct", Hardware: spec.HardwareRef{ID: "h100-sxm-80gb"}})
	require.NoError(t, err)
	assert.Nil(t, r.Fixes)
}

// Llama 3.1 70B on 2xH100 at 0.9 (0.19's default; 0.31's is 0.92) under vLLM 0.31 with 512
// sequences (at vLLM's H100 default of 1024 the sampler's profile tensors
// and the CUDA-graph estimate take the whole pool): 35.3 GB of
// bf16 weights per GPU, activation, non-torch and the CUDA-graph estimate
// (about 1.7 GiB) leave the KV pool 4,048 tokens, short of one 8,192-token
// sequence, so vLLM refuses to start. Each fix the report names, applied
// to the request, must start (one max_model_len sequence fits); raising
// gpu_memory_utilization to 0.95 adds 0.05 * 79.19 = 3.96 GiB to the pool,
// 3.96 GiB / 160 KiB per token (80 layers * 8 KV heads / 2 ranks * 128 *
// 2 * 2 B) = about 26,000 tokens.
func TestFixesWhenThePoolHoldsNoSequence(t *testing.T) {
	req := spec.Request{Model: "llama-3.1-70b", Hardware: spec.HardwareRef{ID: "h100-sxm-80gb"}, TensorParallelSize: spec.Int(2), MaxModelLen: spec.Int(8192), MaxNumSeqs: spec.Int(512), GPUMemoryUtilization: spec.Float(0.9)}
	r, err := Evaluate(req)
	require.NoError(t, err)
	require.False(t, r.Fits)
	require.Less(t, r.KVCache.CapacityTokens, int64(8192))
	byField := map[string]spec.Fix{}
	for _, f := range r.Fixes {
		byField[f.Field] = f
	}
	require.Contains(t, byField, "gpu_memory_utilization")
	require.Contains(t, byField, "tensor_parallel_size")
	assert.Equal(t, "0.95", byField["gpu_memory_utilization"].Value)
	assert.Equal(t, "4", byField["tensor_parallel_size"].Value)

	hi := req
	hi.GPUMemoryUtilization = spec.Float(0.95)
	fixed, err := Evaluate(hi)
	require.NoError(t, err)
	assert.True(t, fixed.Fits)
	gain := fixed.KVCache.CapacityTokens - r.KVCache.CapacityTokens
	perToken := float64(80 * 8 / 2 * 128 * 2 * 2)
	assert.InDelta(t, 0.05*float64(fixed.Memory.TotalBytes)/perToken, float64(gain), 16) // whole blocks of 16 tokens
	tp4 := req
	tp4.TensorParallelSize = spec.Int(4)
	fixed, err = Evaluate(tp4)
	require.NoError(t, err)
	assert.True(t, fixed.Fits)
}
