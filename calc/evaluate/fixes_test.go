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
// they fit. TP 2 halves them too: 28.5 GiB per GPU fits. Of the larger
// NVIDIA parts, the request states no latency budget and no load, so every
// one that holds the weights meets it and the cheapest is offered, among
// those priced as the L40S is (a rented GPU-hour, hardware/prices.go: a
// Jetson AGX Thor's $3,499 spread over 4 years, $0.117/h, is a purchase and
// no rival): the cheapest rented NVIDIA part over 48 GB is the 96 GB RTX
// PRO 6000 Server at $1.57/h (RunPod; an A100 80GB $1.59), whose 0.9 *
// 96 GB holds the 61 GB. Ranked by price: fp8 on one L40S ($1.40/h), the
// RTX PRO 6000 ($1.57), TP 2 (2 x $1.40).
func TestFixesWhenTheWeightsDoNotFit(t *testing.T) {
	r, err := Evaluate(spec.Request{Model: "Qwen/Qwen3-30B-A3B", Hardware: spec.HardwareRef{ID: "l40s"}, MaxModelLen: spec.Int(8192)})
	require.NoError(t, err)
	require.False(t, r.Fits)
	require.Len(t, r.Fixes, 3)
	assert.Equal(t, spec.Fix{Field: "quantization", Value: "fp8", Summary: "fits with fp8 weights"}, r.Fixes[0])
	assert.Equal(t, "hardware", r.Fixes[1].Field)
	assert.Equal(t, "rtx-pro-6000-server", r.Fixes[1].Value)
	assert.Equal(t, spec.Fix{Field: "tensor_parallel_size", Value: "2", Summary: "fits with TP 2"}, r.Fixes[2])
	fixed, err := Evaluate(spec.Request{Model: "Qwen/Qwen3-30B-A3B", Hardware: spec.HardwareRef{ID: r.Fixes[1].Value}, MaxModelLen: spec.Int(8192)})
	require.NoError(t, err)
	assert.True(t, fixed.Fits)
}

// Llama 3.1 70B in fp8 on one H100 SXM under TPOT <= 50 ms, TTFT <= 1 s,
// at vLLM's default max_model_len of 131,072: 70.6 GB of weights (about 2
// GB more for the bf16 embeddings and head) and one 131,072-token
// sequence of 80 layers x 8 KV heads x 128 x 2 (K, V) x 2 B = 327,680 B
// per token = 42.9 GB need about 115 GB; 0.9 of 79.2 GiB is 76.6 GB. The
// fixes: a max_model_len the pool holds, TP 2, and a larger part. A GB10
// (128 GB) holds it, but its decode step is at least the weights over its
// bandwidth, 70.6e9 / 273e9 B/s = 259 ms, five times the TPOT budget; an
// H200 or a GH200 144GB (4.8 and 4.9 TB/s) read them in 14.7 and 14.4
// ms, and the cheapest part that meets the budget is the GH200 144GB at
// $2.29/h (Lambda; the H200 $4.59). A 96 GB part holds 86 GB at 0.9, not
// 115. Ranked by price, all meeting the budget (one H100 reads the
// weights in 70.6e9 / 3.35e12 = 21 ms, under 50 ms at batch 1): the GH200
// ($2.29), max_model_len on the one H100 ($3.49), TP 2 (2 x $3.49).
func TestFixesRankByTheBudgetThenThePrice(t *testing.T) {
	req := spec.Request{Model: "llama-3.1-70b", Quantization: "fp8", Hardware: spec.HardwareRef{ID: "h100-sxm-80gb"},
		Workload: &spec.Workload{InputTokens: spec.Int(1024), OutputTokens: spec.Int(256)}, SLO: &spec.SLO{TPOTMs: spec.Float(50), TTFTMs: spec.Float(1000)}}
	r, err := Evaluate(req)
	require.NoError(t, err)
	require.False(t, r.Fits)
	fields := []string{}
	for _, f := range r.Fixes {
		fields = append(fields, f.Field+"="+f.Value)
		assert.NotEqual(t, "gb10", f.Value)
	}
	require.Len(t, fields, 3)
	assert.Equal(t, "hardware=gh200-144gb", fields[0])
	assert.Contains(t, fields[1], "max_model_len=")
	assert.Equal(t, "tensor_parallel_size=2", fields[2])

	// The GB10 misses the budget by the bandwidth bound above.
	spark := req
	spark.Hardware = spec.HardwareRef{ID: "gb10"}
	g, err := Evaluate(spark)
	require.NoError(t, err)
	require.NotNil(t, g.Best)
	assert.False(t, g.Best.Feasible)
	assert.GreaterOrEqual(t, g.Best.StepTimeMs, 70.6e9/273e9*1000)
}

// Llama 3.1 70B in bf16 on one H100 under TPOT <= 5 ms: no fix meets
// it, since even 8 TB/s (a B300) read 141 GB of weights in 17.6 ms and TP
// 4 on H100s reads 35 GB per GPU at 3.35 TB/s in 10.5 ms. Each fix says so,
// and the cheaper per hour comes first: one B300-class part at $7.89/h
// (RunPod) before 4 x $3.49 = $13.96/h of H100s.
func TestFixesThatMissTheBudgetSaySo(t *testing.T) {
	r, err := Evaluate(spec.Request{Model: "llama-3.1-70b", Hardware: spec.HardwareRef{ID: "h100-sxm-80gb"},
		Workload: &spec.Workload{InputTokens: spec.Int(1024), OutputTokens: spec.Int(256)}, SLO: &spec.SLO{TPOTMs: spec.Float(5)}})
	require.NoError(t, err)
	require.Len(t, r.Fixes, 2)
	assert.Equal(t, "hardware", r.Fixes[0].Field)
	assert.Equal(t, spec.Fix{Field: "tensor_parallel_size", Value: "4", Summary: "fits with TP 4, but misses the latency budget"}, r.Fixes[1])
	assert.Contains(t, r.Fixes[0].Summary, ", but misses the latency budget")
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
