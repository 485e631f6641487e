package deploy

import (
	"math"
	"reflect"
	"testing"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func eval(t *testing.T, req spec.Request) spec.Report {
	t.Helper()
	rep, err := Evaluate(req)
	require.NoError(t, err)
	assertFinite(t, reflect.ValueOf(rep), "report")
	return rep
}

// assertFinite walks a report and fails on any NaN or Inf.
func assertFinite(t *testing.T, v reflect.Value, path string) {
	t.Helper()
	switch v.Kind() {
	case reflect.Float64, reflect.Float32:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			t.Errorf("%s is %v", path, f)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			assertFinite(t, v.Elem(), path)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				assertFinite(t, v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			assertFinite(t, v.Index(i), path)
		}
	}
}

// KV bytes per token derived by hand for eight architectures. bytes_per_token
// covers every layer and every tensor rank; per GPU divides by the ranks
// holding distinct heads.
func TestKVBytesPerTokenByArchitecture(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		req          spec.Request
		perToken     float64
		perGPU       float64
		statePerSeq  float64
		groups       int
		architecture string
	}{
		// MHA, Llama-2-7B: 32 layers * 2 (K,V) * 32 heads * 128 * 2 B.
		{"MHA", spec.Request{Model: "meta-llama/Llama-2-7b-hf"}, 32 * 2 * 32 * 128 * 2, 32 * 2 * 32 * 128 * 2, 0, 1, "dense"},
		// GQA, Llama-3.1-8B: 32 * 2 * 8 * 128 * 2 = 131,072.
		{"GQA", spec.Request{Model: "llama-3.1-8b"}, 131072, 131072, 0, 1, "dense"},
		// GQA at tp=4, Llama-3.1-70B: 80 * 2 * (8/4) * 128 * 2 = 81,920 per
		// GPU, 327,680 for the group.
		{"GQA tp4", spec.Request{Model: "meta-llama/Llama-3.1-70B-Instruct", TensorParallelSize: spec.Int(4)}, 327680, 81920, 0, 1, "dense"},
		// MLA, DeepSeek-V2-Lite: 27 layers * (512 + 64) * 2 B, one latent.
		{"MLA", spec.Request{Model: "deepseek-ai/DeepSeek-V2-Lite-Chat"}, 27 * 576 * 2, 27 * 576 * 2, 0, 1, "moe+mla"},
		// Sliding window, Mistral-7B-v0.1: 32 * 2 * 8 * 128 * 2 per token,
		// capped at the 4096-token window per sequence (tested below).
		{"sliding window", spec.Request{Model: "mistralai/Mistral-7B-v0.1"}, 131072, 131072, 0, 1, "dense+sliding_window"},
		// Interleaved local/global, Gemma-2-9B: 42 * 2 * 8 * 256 * 2 B in
		// two groups of 21 layers.
		{"interleaved", spec.Request{Model: "google/gemma-2-9b-it"}, 42 * 2 * 8 * 256 * 2, 42 * 2 * 8 * 256 * 2, 0, 2, "dense+sliding_window"},
		// MoE, Mixtral-8x7B: experts do not touch the cache: 32*2*8*128*2.
		{"MoE", spec.Request{Model: "mistralai/Mixtral-8x7B-v0.1"}, 131072, 131072, 0, 1, "moe"},
		// Hybrid, Qwen3-Next-80B-A3B: 12 full layers * 2 * 2 heads * 256 *
		// 2 B per token; 36 gated-delta-net layers hold a constant state of
		// conv (2*16*128 + 32*128) * 3 + recurrent 32*128*128 = 548,864
		// elements * 2 B each.
		{"hybrid", spec.Request{Model: "Qwen/Qwen3-Next-80B-A3B-Thinking", TensorParallelSize: spec.Int(2)}, 12 * 2 * 2 * 256 * 2, 12 * 2 * 1 * 256 * 2, 36 * 548864 * 2, 0, "hybrid+moe"},
		// fp8 KV halves GQA: 32 * 2 * 8 * 128 * 1.
		{"fp8 KV", spec.Request{Model: "llama-3.1-8b", KVCacheDtype: "fp8"}, 65536, 65536, 0, 1, "dense"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := tc.req
			req.Hardware = spec.HardwareRef{ID: "h200"}
			req.MaxModelLen = spec.Int(4096)
			rep := eval(t, req)
			assert.InDelta(t, tc.perToken, rep.KVCache.BytesPerToken, 1e-6)
			assert.InDelta(t, tc.perGPU, rep.KVCache.BytesPerTokenPerGPU, 1e-6)
			assert.InDelta(t, tc.statePerSeq, rep.KVCache.StateBytesPerSequence, 1e-6)
			if tc.groups > 0 {
				assert.Len(t, rep.KVCache.Groups, tc.groups)
			}
			assert.Equal(t, tc.architecture, rep.Model.Architecture)
		})
	}
}

func TestSlidingWindowCapsBlocks(t *testing.T) {
	t.Parallel()
	d, err := Resolve(spec.Request{Model: "mistralai/Mistral-7B-v0.1", Hardware: spec.HardwareRef{ID: "h100-sxm"}, MaxModelLen: spec.Int(32768)})
	require.NoError(t, err)
	// 10,000 tokens would need ceil(10000/16) = 625 blocks; the 4096
	// window keeps ceil((4096-1+1)/16) + 1 = 257.
	assert.Equal(t, int64(257), d.Pool().BlocksPerSeq(10000))
	assert.Equal(t, int64(63), d.Pool().BlocksPerSeq(1000))
}

// Physics 1-3: one read of the weights serves the whole batch, so the step
// stays nearly flat while memory-bound and aggregate throughput rises almost
// linearly; once compute binds, the step grows with the batch.
func TestDecodeStepFlatThenComputeBound(t *testing.T) {
	t.Parallel()
	d, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}})
	require.NoError(t, err)
	s1 := d.DecodeStep(1, 128)
	s8 := d.DecodeStep(8, 128)
	// Batch 8 at a short context reads the same 16 GB of weights plus
	// 8*128*128 KiB = 134 MB of KV: under 2 % more time.
	assert.Less(t, s8.TimeS/s1.TimeS, 1.02)
	assert.False(t, s8.ComputeBound)
	// Aggregate throughput is batch / step: nearly 8x.
	assert.Greater(t, (8/s8.TimeS)/(1/s1.TimeS), 7.8)
	// Weights read = 16.06 GB minus the gathered embedding table (1.05 GB).
	assert.InDelta(t, 2*(8_030_261_248-525_336_576), s1.WeightsReadBytes, 1e6)
	// At 2048 sequences the matmuls dominate: 2 * 7.5e9 weights * 2048
	// tokens = 30.8 TFLOP against ~16 GB of reads.
	big := d.DecodeStep(2048, 128)
	assert.True(t, big.ComputeBound)
	assert.Greater(t, big.TimeS, 3*s1.TimeS)
	// The memory term is the weights over the GEMMs' achieved bandwidth
	// plus the KV read over the attention's, by hand.
	e := d.Eff
	wantW := s1.WeightsReadBytes / (3.35e12 * e.BandwidthEfficiency)
	wantKV := s1.KVReadBytes / (3.35e12 * e.AttentionBandwidthEfficiency)
	assert.InDelta(t, wantW+wantKV, s1.MemoryS, 1e-12)
	// At batch 1 both kernels are memory-bound, so the step is the
	// overhead (per step, per layer of 32, per sequence) plus those reads.
	over := e.StepOverheadMs/1000 + 32*e.LayerOverheadUs/1e6 + e.SequenceOverheadUs/1e6
	assert.InDelta(t, over+wantW+wantKV, s1.TimeS, 1e-12)
}

// MoE: a step reads the expected number of distinct experts its tokens
// route to, E*(1-(1-k/E)^B), not all of them and not only top-k.
func TestMoEDistinctExperts(t *testing.T) {
	t.Parallel()
	assert.InDelta(t, 2.0, distinctExperts(8, 2, 1), 1e-12)
	// 8 experts, top-2, 4 tokens: 8*(1-(3/4)^4) = 5.46875.
	assert.InDelta(t, 5.46875, distinctExperts(8, 2, 4), 1e-12)
	assert.InDelta(t, 8.0, distinctExperts(8, 2, 1000), 1e-9)
	assert.Equal(t, 0.0, distinctExperts(8, 2, 0))

	d, err := Resolve(spec.Request{Model: "mistralai/Mixtral-8x7B-v0.1", Hardware: spec.HardwareRef{ID: "h200"}})
	require.NoError(t, err)
	one := d.DecodeStep(1, 100).WeightsReadBytes
	many := d.DecodeStep(256, 100).WeightsReadBytes
	expert := 2 * 176_160_768.0 // bytes of one expert of one layer (bf16)
	// From 2 experts per layer to all 8: 32 layers * 6 experts more.
	assert.InDelta(t, 32*6*expert, many-one, 32*0.01*expert)
}

func TestTensorParallelSplitsWeightsAndAddsAllReduce(t *testing.T) {
	t.Parallel()
	base := spec.Request{Model: "meta-llama/Llama-3.1-70B-Instruct", Hardware: spec.HardwareRef{ID: "h100-sxm"}, MaxModelLen: spec.Int(8192)}
	r1 := eval(t, base)
	base.TensorParallelSize = spec.Int(4)
	r4 := eval(t, base)
	assert.False(t, r1.Fits, "141 GB of bf16 weights do not fit one 80 GB GPU")
	assert.Equal(t, "weights_do_not_fit", r1.BatchCeiling.LimitedBy)
	assert.Nil(t, r1.Decode)
	require.True(t, r4.Fits)
	// 70.55e9 weights * 2 B / 4 ranks, plus the replicated norms.
	assert.InDelta(t, 70.554e9*2/4, r4.Memory.WeightsBytes, 0.005*70.554e9*2/4)
	assert.Positive(t, r4.Decode.CommunicationTimeMs)
	// 80 layers * 2 all-reduces * ~8 us NVLink latency at least.
	assert.Greater(t, r4.Decode.CommunicationTimeMs, 80*2*0.005)
}

func TestBatchCeilingReasons(t *testing.T) {
	t.Parallel()
	// Short sequences on a big GPU: max_num_seqs binds, vLLM's 1024 on an
	// H100 (79.19 GiB reported, not an A100; get_batch_defaults).
	r := eval(t, spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, Workload: &spec.Workload{InputTokens: spec.Int(128), OutputTokens: spec.Int(128)}})
	assert.Equal(t, "max_num_seqs", r.BatchCeiling.LimitedBy)
	assert.Equal(t, 1024, r.BatchCeiling.BatchSize)
	// Long sequences: the KV cache binds at floor(blocks / blocks per seq).
	r = eval(t, spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, MaxModelLen: spec.Int(32768), Workload: &spec.Workload{InputTokens: spec.Int(16000), OutputTokens: spec.Int(2000)}})
	assert.Equal(t, "kv_cache", r.BatchCeiling.LimitedBy)
	perSeq := int64(math.Ceil(18000.0 / 16))
	assert.Equal(t, int(r.KVCache.NumBlocks/perSeq), r.BatchCeiling.BatchSize)
	// max_num_batched_tokens below max_num_seqs binds decode batches.
	r = eval(t, spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, MaxNumBatchedTokens: spec.Int(64), Workload: &spec.Workload{InputTokens: spec.Int(100), OutputTokens: spec.Int(100)}})
	assert.Equal(t, "max_num_batched_tokens", r.BatchCeiling.LimitedBy)
	assert.Equal(t, 64, r.BatchCeiling.BatchSize)
	// A tight TPOT budget binds before memory.
	r = eval(t, spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, SLO: &spec.SLO{TPOTMs: spec.Float(7)}})
	assert.Equal(t, "latency_budget", r.BatchCeiling.LimitedBy)
	assert.LessOrEqual(t, r.BatchCeiling.StepTimeMs, 7.0)
}

// Physics 5-6: past the preemption onset the server recomputes evicted
// prefills, so it does strictly more work per delivered token.
func TestPreemptionMoreWorkPastOnset(t *testing.T) {
	t.Parallel()
	base := spec.Request{
		Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "l4"}, MaxModelLen: spec.Int(8192),
	}
	base.Workload = &spec.Workload{InputTokens: spec.Int(2048), OutputTokens: spec.Int(1024), Concurrency: spec.Int(1)}
	low := eval(t, base)
	require.NotNil(t, low.Preemption)
	onset := low.Preemption.OnsetConcurrency
	require.Greater(t, onset, 1)
	assert.True(t, low.Preemption.Reachable)
	// Steady-state onset (sequences spread over their output) is above the
	// lockstep one (all at their last token).
	assert.GreaterOrEqual(t, onset, low.Preemption.OnsetConcurrencyLockstep)
	// Work per output token below the onset: (2048 + 1024 - 1) / 1024 (the
	// last sampled token is never fed back).
	assert.InDelta(t, 3071.0/1024, low.Preemption.WorkPerOutputToken, 1e-12)
	assert.Zero(t, low.Preemption.RecomputeOverhead)

	base.Workload.Concurrency = spec.Int(2 * onset)
	high := eval(t, base)
	assert.Greater(t, high.Preemption.RecomputeOverhead, 0.0)
	assert.Greater(t, high.Preemption.WorkPerOutputToken, 3071.0/1024)
	assert.LessOrEqual(t, high.Decode.BatchSize, onset)
	codes := map[string]bool{}
	for _, w := range high.Warnings {
		codes[w.Code] = true
	}
	assert.True(t, codes["preemption"])
	// Random arrivals reach the onset before the mean does: the onset rate
	// keeps c + 2*sqrt(c) = onset in flight, below the saturation rate.
	pre := high.Preemption
	assert.Positive(t, pre.OnsetRequestRate)
	assert.Less(t, pre.OnsetRequestRate, pre.SaturationRequestRate)
	c := MeanInFlightForPeak(float64(onset))
	assert.InDelta(t, float64(onset), c+2*math.Sqrt(c), 1e-9)
}

func TestBestUnderSLO(t *testing.T) {
	t.Parallel()
	r := eval(t, spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, SLO: &spec.SLO{TPOTMs: spec.Float(10), TTFTMs: spec.Float(500)}})
	require.NotNil(t, r.Best)
	assert.True(t, r.Best.Feasible)
	assert.LessOrEqual(t, r.Best.StepTimeMs, 10.0)
	assert.LessOrEqual(t, r.Best.TTFTMs, 500.0)
	d, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}})
	require.NoError(t, err)
	// One more sequence would break the TPOT budget (or the ceiling binds).
	if r.Best.LimitedBy == "tpot" {
		assert.Greater(t, d.DecodeStep(r.Best.BatchSize+1, float64(r.Best.ContextTokens)).TimeS*1000, 10.0)
	}
	// An impossible budget is reported as infeasible, not as an error.
	r = eval(t, spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, SLO: &spec.SLO{TPOTMs: spec.Float(0.5)}})
	assert.False(t, r.Best.Feasible)
	assert.Equal(t, "latency_budget", r.Best.LimitedBy)
}

func TestCostPerMillionTokens(t *testing.T) {
	t.Parallel()
	r := eval(t, spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, GPUHourUSD: spec.Float(3.6)})
	require.NotNil(t, r.Cost)
	// $3.60/h = $0.001/s; $/Mtok = 0.001 / tokens_per_s * 1e6.
	assert.InDelta(t, 1000/r.Cost.TokensPerS, r.Cost.UsdPerMillionOutputTokens, 1e-9)
	// Serving throughput counts prefill, so it is below the decode-only rate.
	assert.Less(t, r.Cost.TokensPerS, r.BatchCeiling.TokensPerS)
	assert.Equal(t, [3]string{"user", "", ""}, [3]string{r.Cost.PriceKind, r.Cost.PriceSource, r.Cost.PriceDate})
	// Without gpu_hour_usd the accelerator's default price (hardware's
	// table: RunPod's $3.49 for an H100 SXM) is used and named; the rate
	// is the same request's, so the cost scales by 3.49 / 3.6.
	withPrice := r.Cost.UsdPerMillionOutputTokens
	r = eval(t, spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}})
	require.NotNil(t, r.Cost)
	assert.Equal(t, [2]any{3.49, "cloud_on_demand"}, [2]any{r.Cost.GPUHourUSD, r.Cost.PriceKind})
	assert.Contains(t, r.Cost.PriceSource, "runpod.io")
	assert.InDelta(t, withPrice*3.49/3.6, r.Cost.UsdPerMillionOutputTokens, 1e-9)
}

func TestSweepShape(t *testing.T) {
	t.Parallel()
	r := eval(t, spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, Sweep: &spec.SweepOptions{Points: spec.Int(64)}})
	require.Len(t, r.Sweep, 64)
	assert.Equal(t, 1, r.Sweep[0].BatchSize)
	assert.Equal(t, int(math.Ceil(1.25*float64(r.BatchCeiling.BatchSize))), r.Sweep[63].BatchSize)
	for i := 1; i < len(r.Sweep); i++ {
		p, q := r.Sweep[i-1], r.Sweep[i]
		assert.Greater(t, q.BatchSize, p.BatchSize)
		assert.GreaterOrEqual(t, q.StepTimeMs, p.StepTimeMs)
		assert.Greater(t, q.TokensPerS, p.TokensPerS)
		assert.LessOrEqual(t, q.TokensPerSPerSequence, p.TokensPerSPerSequence)
		assert.InDelta(t, float64(q.BatchSize)/q.StepTimeMs*1000, q.TokensPerS, 1e-6)
	}
	r = eval(t, spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, Sweep: &spec.SweepOptions{Points: spec.Int(5), MaxBatchSize: spec.Int(3)}})
	assert.Len(t, r.Sweep, 3)
}

func TestRequestRateSetsConcurrency(t *testing.T) {
	t.Parallel()
	r := eval(t, spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, Workload: &spec.Workload{RequestRate: spec.Float(5)}})
	d, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}})
	require.NoError(t, err)
	c := r.Preemption.Concurrency
	rate, _ := Analyse(d, nil).ServingRate(c, spec.DefaultInputTokens, spec.DefaultOutputTokens)
	assert.GreaterOrEqual(t, rate, 5.0)
	if c > 1 {
		prev, _ := Analyse(d, nil).ServingRate(c-1, spec.DefaultInputTokens, spec.DefaultOutputTokens)
		assert.Less(t, prev, 5.0)
	}
}

func TestPipelineParallelStages(t *testing.T) {
	t.Parallel()
	assert.Equal(t, []int{0, 16, 32}, layerSplit(32, 2))
	assert.Equal(t, []int{0, 6, 13, 20}, layerSplit(20, 3))
	r := eval(t, spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, PipelineParallelSize: spec.Int(4), MaxModelLen: spec.Int(8192)})
	// The tightest of 4 stages holds 8 layers plus the embedding or head:
	// 8 * 218,112,000 + 525,336,576 weights * 2 B = 4.54 GB (vLLM logged
	// 4.26 GiB = 4.57 GB, cases.json A026).
	assert.InDelta(t, 4.26*(1<<30), r.Memory.WeightsBytes, 0.02*4.26*(1<<30))
	assert.Equal(t, 4, r.Config.GPUs)
}

// The TPOT budget lowers the batch ceiling, and the report keeps the
// ceiling without it beside: the same request without the budget.
func TestBatchCeilingWithoutBudget(t *testing.T) {
	t.Parallel()
	base := spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "l4"}, TensorParallelSize: spec.Int(2)}
	free := eval(t, base)
	base.SLO = &spec.SLO{TPOTMs: spec.Float(50)}
	tight := eval(t, base)
	require.Equal(t, "latency_budget", tight.BatchCeiling.LimitedBy)
	assert.Less(t, tight.BatchCeiling.BatchSize, free.BatchCeiling.BatchSize)
	assert.Equal(t, free.BatchCeiling.BatchSize, tight.BatchCeiling.BatchSizeWithoutBudget)
	assert.Equal(t, free.BatchCeiling.LimitedBy, tight.BatchCeiling.LimitedByWithoutBudget)
	// Without a budget the two are the same figure.
	assert.Equal(t, free.BatchCeiling.BatchSize, free.BatchCeiling.BatchSizeWithoutBudget)
	// On two L4s the KV cache binds (its ceiling at input + output tokens
	// is the lockstep onset), not max_num_seqs 256.
	assert.Equal(t, "kv_cache", free.BatchCeiling.LimitedBy)
	assert.Equal(t, free.Preemption.OnsetConcurrencyLockstep, free.BatchCeiling.BatchSize)
}

// A server whose scheduler cap binds before the KV cache fills saturates
// at the cap: its closed-loop serving rate there is the cost section's
// (prefill counted) tokens/s over the output tokens. A request rate above
// it is reported as overloaded, in requests per second.
func TestSaturationAtTheSchedulerCapAndOverload(t *testing.T) {
	t.Parallel()
	req := spec.Request{Model: "mistral-7b", Hardware: spec.HardwareRef{ID: "a100-sxm-80gb"}, GPUHourUSD: spec.Float(1),
		Workload: &spec.Workload{InputTokens: spec.Int(1024), OutputTokens: spec.Int(256), RequestRate: spec.Float(20)}}
	r := eval(t, req)
	pre := r.Preemption
	require.NotNil(t, pre)
	require.False(t, pre.Reachable)
	require.Equal(t, "max_num_seqs", r.BatchCeiling.LimitedBy)
	// The workload's steady state is saturated: it serves its capacity,
	// and the cost card prices what it delivers there. Its capacity (the
	// mixed steps at 256 running) and the preemption section's
	// first-order one (out decode steps at 256 plus 256 prompts' compute
	// per cycle) are two forms of one figure.
	sv := r.Serving
	require.NotNil(t, sv)
	assert.True(t, sv.Saturated)
	assert.Equal(t, "max_num_seqs", sv.LimitedBy)
	assert.InDelta(t, sv.OutputTokensPerS, r.Cost.TokensPerS, 1e-9)
	assert.InDelta(t, pre.SaturationRequestRate, sv.RequestsPerS, 0.15*pre.SaturationRequestRate)
	assert.InDelta(t, 20/pre.SaturationRequestRate, pre.Utilization, 1e-12)
	assert.Greater(t, pre.Utilization, 1.0)
	var msg string
	for _, w := range r.Warnings {
		if w.Code == "overloaded" {
			msg = w.Message
		}
	}
	assert.Contains(t, msg, "20 req/s is ")
	assert.NotContains(t, msg, "concurrency")
	// Below saturation: utilization is the fraction, no warning.
	req.Workload.RequestRate = spec.Float(pre.SaturationRequestRate / 2)
	r = eval(t, req)
	assert.InDelta(t, 0.5, r.Preemption.Utilization, 1e-9)
	for _, w := range r.Warnings {
		assert.NotEqual(t, "overloaded", w.Code)
	}
	// A concurrency workload has no utilization.
	req.Workload.RequestRate, req.Workload.Concurrency = nil, spec.Int(8)
	assert.Zero(t, eval(t, req).Preemption.Utilization)
}
