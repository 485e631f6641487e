package planner

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/modelrefs/throughput/calc/evaluate"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/jsonx"
)

const llama8B = "meta-llama/Llama-3.1-8B-Instruct"

// narrow is a search of one layout per accelerator: published weights,
// auto KV, vLLM, one scheduler setting, aggregated.
func narrow(gpus ...int) *spec.PlanSearch {
	f := false
	return &spec.PlanSearch{GPUsPerReplica: gpus, Precisions: []string{"published"}, KVCacheDtypes: []string{"auto"},
		MaxNumSeqs: []int{256}, MaxNumBatchedTokens: []int{8192}, Disaggregated: &f}
}

// Hand case 1: the weights decide. Llama 3.1 8B holds 8,030,261,248
// parameters (the catalog's params_total), in bfloat16 2 bytes each:
// 16,060,522,496 bytes = 14.96 GiB on one GPU. A T4 reports 14.58 GiB to
// vLLM; at gpu_memory_utilization 0.9 vLLM may use 0.9 * 14.58 = 13.12
// GiB, less than the weights: it cannot serve the model on one GPU,
// however cheap (the newest vLLM's default 0.92 of its reported 14.58 GiB
// is 13.4 GiB). An A10 reports 22.18 GiB: 0.92 * 22.18 = 20.41 GiB holds
// 14.96 GiB of weights with 5.4 GiB to spare, and one user at batch 1 needs
// one replica, so the plan is one A10 even though the T4 is priced at a
// hundredth of it.
func TestPlanHandWeightsDecide(t *testing.T) {
	r, err := Plan(spec.PlanRequest{
		Model: llama8B, Workload: spec.PlanWorkload{Concurrency: spec.Int(1)}, SLO: spec.PlanSLO{TPOTMs: spec.Float(1000)},
		Constraints: &spec.PlanConstraints{Accelerators: []string{"t4", "a10"}, Engines: []string{"vllm"},
			Prices: map[string]float64{"t4": 0.01, "a10": 1}},
		Search: narrow(1),
	})
	require.NoError(t, err)
	require.True(t, r.Feasible)
	w := r.Deployments[r.Cheapest]
	assert.Equal(t, "a10", w.Accelerator)
	assert.Equal(t, 1, w.GPUs)
	require.Len(t, r.Rejections, 1)
	assert.Equal(t, "t4", r.Rejections[0].Accelerator)
	assert.Equal(t, "weights_do_not_fit", r.Rejections[0].Reason)
	assert.Contains(t, r.Rejections[0].Message, "weights do not fit (15.0 GiB > 13.4 GiB per GPU")
}

// Hand case 2: the price decides. One user of Llama 3.1 8B under a loose
// budget (TPOT <= 100 ms) needs one GPU on an H100 SXM or an A100 SXM
// 80GB: the weights (14.96 GiB) fit either, and a decode step at batch 1
// reads about the weights, 15.0e9 bytes (all but the embedding table):
// 1.15 ms + 15.0e9 / (3.35e12 * 0.85) = 6.4 ms on the H100,
// 1.15 ms + 15.0e9 / (2.039e12 * 0.85) = 9.8 ms on the A100, both within
// 100 ms. With one user the tokens/s are about 1/step (prefill adds a
// little to both), so $/M tokens = price / 3600 / tokens/s * 1e6 is
// about 100 * 6.4e-3 / 3600 * 1e6 = $178 on an H100 priced at $100/h and
// 1 * 9.8e-3 / 3600 * 1e6 = $2.7 on an A100 at $1/h: the A100 wins by
// far more than any rounding of the step times.
func TestPlanHandPriceDecides(t *testing.T) {
	r, err := Plan(spec.PlanRequest{
		Model: llama8B, Workload: spec.PlanWorkload{Concurrency: spec.Int(1)}, SLO: spec.PlanSLO{TPOTMs: spec.Float(100)},
		Constraints: &spec.PlanConstraints{Accelerators: []string{"h100-sxm-80gb", "a100-sxm-80gb"}, Engines: []string{"vllm"},
			Prices: map[string]float64{"h100-sxm-80gb": 100, "a100-sxm-80gb": 1}},
		Search: narrow(1),
	})
	require.NoError(t, err)
	require.Len(t, r.Deployments, 2)
	a100, h100 := r.Deployments[0], r.Deployments[1]
	assert.Equal(t, "a100-sxm-80gb", a100.Accelerator)
	assert.Equal(t, "h100-sxm-80gb", h100.Accelerator)
	assert.InDelta(t, 9.8, a100.TPOTMs, 0.3)
	assert.InDelta(t, 6.4, h100.TPOTMs, 0.2)
	assert.InDelta(t, 2.7, a100.USDPerMillionOutputTokens, 0.3)
	assert.InDelta(t, 178, h100.USDPerMillionOutputTokens, 10)
	// The lowest latency is the H100 all the same.
	assert.Equal(t, "h100-sxm-80gb", r.Deployments[r.LowestLatency].Accelerator)
}

// Hand case 3: an impossible budget is an answer. A decode step of Llama
// 3.1 8B at batch 1 on one H100 SXM reads the weights but the embedding
// table, 16,060,522,496 - 128,256 * 4,096 * 2 = 15,009,906,688 bytes, and
// the KV cache of 1,152 tokens (1,024 in + 256/2 out, the mean context) at
// 131,072 bytes a token, 150,994,944 bytes: 15,160,901,632 bytes at
// 3.35e12 * 0.85 = 2.8475e12 bytes/s is 5.324 ms, plus the 1.15 ms step
// overhead: 6.47 ms. No setting of one H100 meets TPOT <= 2 ms, and the
// answer names the fastest, 6.5 ms.
func TestPlanHandImpossibleBudget(t *testing.T) {
	r, err := Plan(spec.PlanRequest{
		Model: llama8B, Workload: spec.PlanWorkload{RequestRate: spec.Float(1)}, SLO: spec.PlanSLO{TPOTMs: spec.Float(2)},
		Constraints: &spec.PlanConstraints{Accelerators: []string{"h100-sxm-80gb"}, Engines: []string{"vllm"}},
		Search:      narrow(1),
	})
	require.NoError(t, err)
	assert.False(t, r.Feasible)
	assert.Empty(t, r.Deployments)
	assert.True(t, strings.HasPrefix(r.Answer, "no deployment meets TPOT <= 2.0 ms; the fastest is 6.5 ms on NVIDIA H100"), r.Answer)
	require.Len(t, r.Rejections, 1)
	assert.Equal(t, "tpot", r.Rejections[0].Reason)
	assert.Contains(t, r.Rejections[0].Message, "TPOT 6.5 ms > 2.0 ms even at batch 1")
}

// Hand case 4: too many GPUs. At TPOT <= 30 ms an H100 replica of Llama
// 3.1 8B carries a bounded rate (below 40 requests/s of 1024+256 tokens:
// 256 sequences at 30 ms a step make 8,533 tokens/s, 33 requests/s);
// 400 requests/s need more than 10 replicas, so with max_gpus 8 the
// plan is refused with the GPU count it would need.
func TestPlanHandTooManyGPUs(t *testing.T) {
	r, err := Plan(spec.PlanRequest{
		Model: llama8B, Workload: spec.PlanWorkload{RequestRate: spec.Float(400)}, SLO: spec.PlanSLO{TPOTMs: spec.Float(30)},
		Constraints: &spec.PlanConstraints{Accelerators: []string{"h100-sxm-80gb"}, Engines: []string{"vllm"}, MaxGPUs: spec.Int(8)},
		Search:      narrow(1),
	})
	require.NoError(t, err)
	assert.False(t, r.Feasible)
	require.Len(t, r.Rejections, 1)
	assert.Equal(t, "max_gpus", r.Rejections[0].Reason)
	assert.Regexp(t, `^needs (1[1-9]|[2-9][0-9]) GPUs > 8`, r.Rejections[0].Message)
}

func TestPlanTooLargeSearchIsRefused(t *testing.T) {
	seqs := make([]int, 64)
	for i := range seqs {
		seqs[i] = i + 1
	}
	_, err := Plan(spec.PlanRequest{Model: llama8B, Workload: spec.PlanWorkload{RequestRate: spec.Float(1)}, SLO: spec.PlanSLO{TPOTMs: spec.Float(50)},
		Search: &spec.PlanSearch{MaxNumSeqs: seqs}})
	var errs spec.Errors
	require.ErrorAs(t, err, &errs)
	assert.Equal(t, "search", errs[0].Field)
	assert.Contains(t, errs[0].Message, "above the limit of 32,000")
}

// planAll is Plan keeping every candidate, for the invariants.
func planAll(t *testing.T, req spec.PlanRequest) (spec.PlanReport, *planner) {
	s, err := resolvePlanRequest(req)
	require.NoError(t, err)
	p := newPlanner(s)
	p.keepAll = true
	return p.run(), p
}

func near(t *testing.T, want, got float64, what string) {
	t.Helper()
	assert.InDelta(t, want, got, 1e-9*math.Max(1, math.Abs(want)), what)
}

// randomPlan draws a workload and budget over a few models and
// accelerators.
func randomPlan(rng *rand.Rand) spec.PlanRequest {
	models := []string{llama8B, "Qwen/Qwen3-30B-A3B", "meta-llama/Llama-3.1-70B-Instruct", "mistralai/Mistral-7B-Instruct-v0.3"}
	in := []int{128, 512, 2048, 8000}[rng.IntN(4)]
	out := []int{64, 256, 1000}[rng.IntN(3)]
	req := spec.PlanRequest{
		Model:    models[rng.IntN(len(models))],
		Workload: spec.PlanWorkload{InputTokens: spec.Int(in), OutputTokens: spec.Int(out)},
		SLO:      spec.PlanSLO{TPOTMs: spec.Float([]float64{15, 30, 60, 120}[rng.IntN(4)])},
		Constraints: &spec.PlanConstraints{Accelerators: []string{"h100-sxm-80gb", "l40s", "a100-sxm-80gb", "mi300x", "rtx-4090"},
			MaxGPUs: spec.Int([]int{8, 32, 256}[rng.IntN(3)])},
		Search: &spec.PlanSearch{MaxNumSeqs: []int{64, 256}},
	}
	if rng.IntN(2) == 0 {
		req.SLO.TTFTMs = spec.Float([]float64{200, 1000, 5000}[rng.IntN(3)])
	}
	if rng.IntN(3) == 0 {
		req.Workload.Concurrency = spec.Int(1 + rng.IntN(500))
	} else {
		req.Workload.RequestRate = spec.Float(0.5 + rng.Float64()*60)
	}
	return req
}

// Every returned deployment re-evaluates through Evaluate to the same
// figures; its cost is the hand formula; the frontier is non-dominated;
// no rejected candidate that meets the budget and the GPU limit is
// cheaper than the winner.
func TestPlanInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 17))
	for k := 0; k < 12; k++ {
		req := randomPlan(rng)
		req.Limit = spec.Int(spec.MaxPlanLimit)
		r, p := planAll(t, req)
		for _, d := range r.Deployments {
			checkDeployment(t, req, d)
		}
		for i, a := range r.Frontier {
			for j, b := range r.Frontier {
				if i != j {
					assert.False(t, b.TokensPerSPerGPU >= a.TokensPerSPerGPU && b.TokensPerSPerUser >= a.TokensPerSPerUser,
						"frontier point %d is dominated by %d", i, j)
				}
			}
		}
		for _, d := range r.Deployments {
			dominated := false
			for _, f := range r.Frontier {
				dominated = dominated || (f.TokensPerSPerGPU >= d.TokensPerSPerGPU && f.TokensPerSPerUser >= d.TokensPerSPerUser)
			}
			assert.True(t, dominated, "a deployment lies beyond the frontier")
		}
		if r.Feasible {
			win := r.Deployments[0].USDPerMillionOutputTokens
			for _, c := range p.all {
				if c.why == "" || c.rank < rankLatency {
					continue
				}
				meets := c.dep.GPUs <= p.s.maxGPUs && c.dep.TPOTMs > 0 && c.dep.TPOTMs <= *req.SLO.TPOTMs &&
					(req.SLO.TTFTMs == nil || c.dep.TTFTMs <= *req.SLO.TTFTMs)
				assert.False(t, meets && c.dep.USDPerMillionOutputTokens < win, "a rejected candidate is cheaper and meets the budget: %s", c.why)
			}
		}
	}
}

// checkDeployment re-evaluates one deployment through Evaluate.
func checkDeployment(t *testing.T, req spec.PlanRequest, d spec.PlanDeployment) {
	t.Helper()
	rep, err := evaluate.Evaluate(d.Evaluate)
	require.NoError(t, err)
	require.NotNil(t, rep.Decode)
	// TPOT is the step over the tokens it yields per sequence (the step
	// itself without speculation).
	// TPOT and TTFT are Evaluate's steady state at the row's load (its
	// serving section), and what a user sees is 1 / TPOT.
	// A disaggregated row's decode pool admits no prompts: its TPOT is
	// the pure decode step.
	require.NotNil(t, rep.Serving)
	if d.Mode == "aggregated" {
		near(t, rep.Serving.TPOTMs, d.TPOTMs, "tpot")
		near(t, rep.Serving.TTFTMs, d.TTFTMs, "ttft")
	} else {
		near(t, 1000/rep.Decode.TokensPerSPerSequence, d.TPOTMs, "tpot")
	}
	near(t, 1000/d.TPOTMs, d.TokensPerSPerUser, "tokens/s per user")
	// The steady state's step carries prompts beside the decodes: never
	// shorter than the pure decode step.
	if d.Evaluate.SpeculativeConfig == nil {
		assert.GreaterOrEqual(t, d.TPOTMs, rep.Serving.DecodeStepMs*(1-1e-9))
	}
	assert.Equal(t, rep.Decode.BatchSize, d.BatchSize)
	// A replica is tp x pp x dp GPUs; each of its dp ranks serves the
	// evaluate request's workload.
	ranks := d.Replicas * d.DataParallelSize
	assert.Equal(t, d.GPUs, ranks*rep.Config.GPUs)
	if d.DataParallelSize > 1 {
		require.NotNil(t, rep.Features)
		require.NotNil(t, rep.Features.Parallel)
		assert.Equal(t, d.GPUs, d.Replicas*rep.Features.Parallel.GPUs)
	}
	assert.LessOrEqual(t, d.TPOTMs, *req.SLO.TPOTMs)
	if req.SLO.TTFTMs != nil {
		assert.LessOrEqual(t, d.TTFTMs, *req.SLO.TTFTMs)
	}
	// $/M = GPUs * $/h / 3600 / (rate * output tokens) * 1e6.
	out := float64(*req.Workload.OutputTokens)
	near(t, float64(d.GPUs)*d.GPUHourUSD/3600/(d.RequestRate*out)*1e6, d.USDPerMillionOutputTokens, "$/M")
	near(t, d.RequestRate*out/float64(d.GPUs), d.TokensPerSPerGPU, "tokens/s per GPU")
	if d.Mode == "aggregated" {
		require.NotNil(t, rep.Best)
		assert.True(t, rep.Best.Feasible)
		assert.LessOrEqual(t, d.BatchSize, rep.Best.BatchSize)
		// TTFT at the load is at least the idle server's.
		assert.GreaterOrEqual(t, d.TTFTMs, rep.Prefill.TTFTMs*(1-1e-9))
		if d.Limiter == "preemption_onset" {
			near(t, float64(ranks)*rep.Preemption.SaturationRequestRate, d.SaturationRequestRate, "saturation")
		}
		if rep.Preemption.Reachable {
			near(t, float64(ranks)*rep.Preemption.OnsetRequestRate, d.PreemptionOnsetRequestRate, "onset rate")
		}
		if req.Workload.RequestRate != nil {
			near(t, *req.Workload.RequestRate/float64(ranks), rep.Config.RequestRate, "rate per rank")
		}
	} else {
		require.NotNil(t, d.PrefillEvaluate)
		pre, err := evaluate.Evaluate(*d.PrefillEvaluate)
		require.NoError(t, err)
		// TTFT = queue wait + prefill + transfer + one decode step.
		assert.GreaterOrEqual(t, d.TTFTMs, pre.Prefill.TimeMs+d.KVTransferMs+d.TPOTMs-1e-9)
		assert.Equal(t, d.Replicas, d.PrefillReplicas+d.DecodeReplicas)
	}
	assert.GreaterOrEqual(t, d.Headroom, 1-1e-9, "%s %s %s", d.Accelerator, d.Engine, d.Mode)
}

// Raising the rate never lowers the fewest GPUs; loosening the budget
// never raises the cheapest cost.
func TestPlanMonotone(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for k := 0; k < 10; k++ {
		req := randomPlan(rng)
		req.Workload.Concurrency = nil
		req.Workload.RequestRate = spec.Float(1 + rng.Float64()*20)
		base, err := Plan(req)
		require.NoError(t, err)

		more := req
		more.Workload.RequestRate = spec.Float(*req.Workload.RequestRate * 1.7)
		hi, err := Plan(more)
		require.NoError(t, err)
		if base.Feasible && hi.Feasible {
			assert.GreaterOrEqual(t, hi.Deployments[hi.FewestGPUs].GPUs, base.Deployments[base.FewestGPUs].GPUs, "rate up, GPUs down")
		}
		assert.False(t, hi.Feasible && !base.Feasible, "a higher rate became feasible")

		loose := req
		loose.SLO.TPOTMs = spec.Float(*req.SLO.TPOTMs * 2)
		if req.SLO.TTFTMs != nil {
			loose.SLO.TTFTMs = spec.Float(*req.SLO.TTFTMs * 2)
		}
		lo, err := Plan(loose)
		require.NoError(t, err)
		if base.Feasible {
			require.True(t, lo.Feasible, "a looser budget became infeasible")
			assert.LessOrEqual(t, lo.Deployments[0].USDPerMillionOutputTokens, base.Deployments[0].USDPerMillionOutputTokens*(1+1e-12), "budget loosened, cost up")
		}
	}
}

func TestPlanPicksAndLaunch(t *testing.T) {
	r, err := Plan(planBenchRequest())
	require.NoError(t, err)
	require.True(t, r.Feasible)
	assert.GreaterOrEqual(t, r.Candidates, 2000)
	c, f, l := r.Deployments[r.Cheapest], r.Deployments[r.FewestGPUs], r.Deployments[r.LowestLatency]
	for _, d := range r.Deployments {
		assert.GreaterOrEqual(t, d.USDPerMillionOutputTokens, c.USDPerMillionOutputTokens)
		assert.GreaterOrEqual(t, d.GPUs, f.GPUs)
		assert.GreaterOrEqual(t, d.TPOTMs, l.TPOTMs)
		// 2048 + 500 tokens round up to a max_model_len of 3072.
		if d.Engine == "vllm" {
			assert.True(t, strings.HasPrefix(d.Launch, "vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size "+itoa(d.TensorParallelSize)), d.Launch)
			assert.Contains(t, d.Launch, "--max-model-len 3072")
		} else {
			assert.True(t, strings.HasPrefix(d.Launch, "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size "), d.Launch)
			assert.Contains(t, d.Launch, "--context-length 3072")
		}
	}
	// A part priced only by purchase is left out of a whole-catalog plan
	// saying so: Gaudi 2 at $65,000 / 8 over 4 x 8,760 h plus 0.6 kW x
	// $0.1282/kWh = $0.309 per GPU-hour (hardware.TestGaudi2PriceByHand).
	found := false
	for _, j := range r.Rejections {
		if j.Accelerator == "gaudi-2" {
			found = true
			assert.Equal(t, "purchase_priced", j.Reason)
			assert.Equal(t, "priced only by purchase (amortised over 4 years plus power, $0.309 per GPU-hour), not rented on demand: a whole-catalog search compares rented parts; name it in constraints.accelerators or price it in constraints.prices", j.Message)
		}
	}
	assert.True(t, found)
}

func TestPlanVerify(t *testing.T) {
	req := planBenchRequest()
	req.Constraints = &spec.PlanConstraints{Accelerators: []string{"h100-sxm-80gb", "l40s"}}
	req.Verify = &spec.PlanVerify{Top: spec.Int(2), NumRequests: spec.Int(200)}
	r, err := Plan(req)
	require.NoError(t, err)
	n := 0
	for _, d := range r.Deployments {
		if d.Simulated != nil {
			n++
			assert.Equal(t, 200, d.Simulated.NumRequests)
			assert.Greater(t, d.Simulated.TPOTMs.P50, 0.0)
			assert.LessOrEqual(t, d.Simulated.TPOTMs.P50, d.Simulated.TPOTMs.P99)
		}
	}
	assert.Equal(t, 2, n)

	req.Verify = &spec.PlanVerify{Top: spec.Int(20), NumRequests: spec.Int(100000)}
	_, err = Plan(req)
	var errs spec.Errors
	require.ErrorAs(t, err, &errs)
	assert.Equal(t, "verify.num_requests", errs[0].Field)
}

func TestPlanBadFieldsNameThemselves(t *testing.T) {
	_, err := Plan(spec.PlanRequest{Model: llama8B, Workload: spec.PlanWorkload{RequestRate: spec.Float(-1)}, SLO: spec.PlanSLO{TPOTStat: "p42"},
		Constraints: &spec.PlanConstraints{Accelerators: []string{"nonesuch-gpu"}, Engines: []string{"tgi"}, Prices: map[string]float64{"h100-sxm-80gb": -2}},
		Search:      &spec.PlanSearch{GPUsPerReplica: []int{3}, Precisions: []string{"fp6"}}})
	var errs spec.Errors
	require.ErrorAs(t, err, &errs)
	fields := map[string]bool{}
	for _, e := range errs {
		fields[e.Field] = true
	}
	for _, f := range []string{"workload.request_rate", "slo", "slo.tpot_stat", "constraints.accelerators[0]", "constraints.engines[0]",
		"constraints.prices.h100-sxm-80gb", "search.gpus_per_replica[0]", "search.precisions[0]"} {
		assert.True(t, fields[f], "no error names %s: %v", f, errs)
	}
}

// Hand case: expert parallelism is required. Qwen3-30B-A3B (an MoE of 128
// routed experts) for 512 users of 512+256 tokens under a loose budget
// (TPOT <= 1 s) on H200s, replicas of 8 GPUs, max_num_seqs 64, at most 8
// GPUs in all. The scheduler caps each engine instance at 64 running
// sequences (max_num_batched_tokens 8192 >= 64 leaves max_num_seqs the
// cap); the KV cache holds far more (a sequence of 768 tokens at 48
// layers x 4 KV heads x 128 x 2 (K, V) x 2 bytes = 98,304 bytes per
// token is 75.5 MB, against over 100 GB free per GPU). So:
//
//   - TP 8 (or TP 4 x PP 2): one instance per 8 GPUs runs 64 sequences;
//     512 users need ceil(512 / 64) = 8 replicas = 64 GPUs > 8;
//   - TP 1 x DP 8 with EP 8: 8 data-parallel attention ranks, each its
//     own scheduler of 64, so one replica of 8 GPUs runs 8 x 64 = 512
//     sequences, 64 per rank; 128 experts divide over 8 ranks (16 each).
//
// The search is 3 candidates (the three shapes of 8 GPUs) with EP and 2
// without; without it no deployment meets the limit.
func TestPlanHandExpertParallelRequired(t *testing.T) {
	req := spec.PlanRequest{
		Model:    "Qwen/Qwen3-30B-A3B",
		Workload: spec.PlanWorkload{Concurrency: spec.Int(512), InputTokens: spec.Int(512), OutputTokens: spec.Int(256)},
		SLO:      spec.PlanSLO{TPOTMs: spec.Float(1000)},
		Constraints: &spec.PlanConstraints{Accelerators: []string{"h200-sxm-141gb"}, Engines: []string{"vllm"},
			MaxGPUs: spec.Int(8)},
		Search: narrow(8),
	}
	req.Search.MaxNumSeqs = []int{64}
	r, err := Plan(req)
	require.NoError(t, err)
	assert.Equal(t, 3, r.Candidates)
	require.True(t, r.Feasible, r.Answer)
	w := r.Deployments[r.Cheapest]
	assert.Equal(t, 1, w.TensorParallelSize)
	assert.Equal(t, 8, w.DataParallelSize)
	assert.True(t, w.ExpertParallel)
	assert.Equal(t, 1, w.Replicas)
	assert.Equal(t, 8, w.GPUs)
	assert.Equal(t, 64, w.BatchSize) // 512 users / 8 ranks
	assert.Equal(t, "max_num_seqs", w.Limiter)
	assert.Contains(t, w.Launch, "vllm serve Qwen/Qwen3-30B-A3B --tensor-parallel-size 1 --data-parallel-size 8 --enable-expert-parallel ")
	assert.Contains(t, r.Answer, "TP 1, DP 8, EP 8")
	checkDeployment(t, req, w)
	// The evaluate request states the shape.
	require.NotNil(t, w.Evaluate.DataParallelSize)
	assert.Equal(t, 8, *w.Evaluate.DataParallelSize)
	require.NotNil(t, w.Evaluate.EnableExpertParallel)
	assert.True(t, *w.Evaluate.EnableExpertParallel)
	assert.Equal(t, 64, *w.Evaluate.Workload.Concurrency)

	off := false
	req.Search.ExpertParallel = &off
	r, err = Plan(req)
	require.NoError(t, err)
	assert.Equal(t, 2, r.Candidates)
	assert.False(t, r.Feasible)
	require.Len(t, r.Rejections, 1)
	assert.Equal(t, "max_gpus", r.Rejections[0].Reason)
	assert.True(t, strings.HasPrefix(r.Rejections[0].Message, "needs 64 GPUs > 8 on "), r.Rejections[0].Message)

	// SGLang states the same shape its way: --tp-size counts all 8 GPUs.
	on := true
	req.Search.ExpertParallel = &on
	req.Constraints.Engines = []string{"sglang"}
	r, err = Plan(req)
	require.NoError(t, err)
	require.True(t, r.Feasible)
	assert.Contains(t, r.Deployments[0].Launch, "--tp-size 8 --dp-size 8 --enable-dp-attention --ep-size 8")

	// TensorRT-LLM's DEP: tp_size and ep_size count all 8 GPUs, and the
	// LLM API's enable_attention_dp runs the attention data parallel.
	req.Constraints.Engines = []string{"trtllm"}
	r, err = Plan(req)
	require.NoError(t, err)
	require.True(t, r.Feasible)
	w = r.Deployments[r.Cheapest]
	assert.Equal(t, [3]any{1, 8, true}, [3]any{w.TensorParallelSize, w.DataParallelSize, w.ExpertParallel})
	assert.Contains(t, w.Launch, "trtllm-serve Qwen/Qwen3-30B-A3B --tp_size 8 --pp_size 1 ")
	assert.Contains(t, w.Launch, " --ep_size 8 --extra_llm_api_options extra_llm_api_options.yaml")
	assert.Contains(t, w.Notes, "extra_llm_api_options.yaml holds enable_attention_dp: true (attention data parallel over the 8 ranks)")
}

// A dense model gets no EP/DP shapes; nor does an engine other than vLLM,
// SGLang and TensorRT-LLM (LMDeploy): one accelerator, 8-GPU replicas, one
// setting each is TP 8 and TP 4 x PP 2 only; an MoE model under the three
// adds DP 8 x EP 8.
func TestPlanExpertParallelOnlyForMoE(t *testing.T) {
	for _, tc := range []struct {
		model, engine string
		want          int
	}{{llama8B, "vllm", 2}, {"Qwen/Qwen3-30B-A3B", "lmdeploy", 2}, {"Qwen/Qwen3-30B-A3B", "trtllm", 3}, {"Qwen/Qwen3-30B-A3B", "sglang", 3}} {
		r, err := Plan(spec.PlanRequest{Model: tc.model, Workload: spec.PlanWorkload{Concurrency: spec.Int(8)}, SLO: spec.PlanSLO{TPOTMs: spec.Float(100)},
			Constraints: &spec.PlanConstraints{Accelerators: []string{"h100-sxm-80gb"}, Engines: []string{tc.engine}}, Search: narrow(8)})
		require.NoError(t, err)
		assert.Equal(t, tc.want, r.Candidates, tc.model+" "+tc.engine)
	}
}

// Hand case: prefix caching lowers the GPUs, the cost and the TTFT. 64
// users of Llama 3.1 8B with 16,000-token prompts and 384-token answers
// on L40S GPUs (one per replica, max_num_seqs 256, TPOT <= 1 s). A
// sequence at its final 16,384 tokens holds ceil(16,384 / 16) = 1,024
// blocks of 16 tokens. With N blocks in the pool (N - 1 usable: block 0
// is the null block), a replica runs floor((N - 1) / 1,024) sequences at
// once without a shared prefix. With a 15,360-token system prompt shared
// by every prompt (960 whole blocks, counted once in the pool), each
// further sequence holds 1,024 - 960 = 64 blocks of its own, so
// floor((N - 1 - 960) / 64) fit (vLLM's prefix cache: the blocks of one
// prefix are one set of blocks). The prompt's cached 15,360 tokens are not
// prefilled: 640 tokens, 4 % of the linear FLOPs of 16,000, and an
// attention span of 640 * (15,360 + 641/2) = 10.0M token pairs against
// 16,000 * 16,001/2 = 128M (7.8 %), so its TTFT falls well below the
// plain one's.
func TestPlanHandPrefixCaching(t *testing.T) {
	req := spec.PlanRequest{
		Model:       llama8B,
		Workload:    spec.PlanWorkload{Concurrency: spec.Int(64), InputTokens: spec.Int(16000), OutputTokens: spec.Int(384)},
		SLO:         spec.PlanSLO{TPOTMs: spec.Float(1000)},
		Constraints: &spec.PlanConstraints{Accelerators: []string{"l40s"}, Engines: []string{"vllm"}},
		Search:      narrow(1),
	}
	plain, err := Plan(req)
	require.NoError(t, err)
	require.True(t, plain.Feasible)
	p := plain.Deployments[0]
	rep, err := evaluate.Evaluate(p.Evaluate)
	require.NoError(t, err)
	usable := int(rep.KVCache.NumBlocks) - 1
	perReplica := usable / 1024
	require.Less(t, perReplica, 64, "the pool must bind for the case to mean anything")
	assert.Equal(t, (64+perReplica-1)/perReplica, p.Replicas)
	assert.Equal(t, "kv_cache", p.Limiter)

	req.Workload.SharedPrefixTokens = spec.Int(15360)
	cached, err := Plan(req)
	require.NoError(t, err)
	require.True(t, cached.Feasible)
	c := cached.Deployments[0]
	require.GreaterOrEqual(t, (usable-960)/64, 64)
	assert.Equal(t, 1, c.Replicas)
	assert.Equal(t, 64, c.BatchSize)
	assert.Less(t, c.USDPerMillionOutputTokens, p.USDPerMillionOutputTokens)
	// One prompt alone prefills 640 tokens, not 16,000: its idle TTFT
	// falls well below a fifth; at the load (64 users' waves of prompts,
	// 64 x 640 = 40,960 tokens a wave against each plain replica's
	// 16,000 x its users) the steady TTFT falls too.
	crep, err := evaluate.Evaluate(c.Evaluate)
	require.NoError(t, err)
	assert.Less(t, crep.Prefill.TTFTMs, rep.Prefill.TTFTMs/5)
	assert.Less(t, c.TTFTMs, p.TTFTMs)
	// The evaluate request carries the prefix, and reproduces the figures.
	require.NotNil(t, c.Evaluate.Workload.SharedPrefixTokens)
	assert.Equal(t, 15360, *c.Evaluate.Workload.SharedPrefixTokens)
	checkDeployment(t, req, c)
}

// Speculative decoding passes through to every candidate: TPOT is the
// step over the tokens it yields, E = (1 - 0.7^4) / (1 - 0.7) = 2.533
// for k = 3 at acceptance 0.7, and the deployment re-evaluates to it.
func TestPlanSpeculationPassesThrough(t *testing.T) {
	req := spec.PlanRequest{Model: llama8B, Workload: spec.PlanWorkload{Concurrency: spec.Int(4), InputTokens: spec.Int(1024), OutputTokens: spec.Int(256)}, SLO: spec.PlanSLO{TPOTMs: spec.Float(50)},
		Constraints:       &spec.PlanConstraints{Accelerators: []string{"h100-sxm-80gb"}, Engines: []string{"vllm"}},
		Search:            narrow(1),
		SpeculativeConfig: &spec.SpeculativeConfig{NumSpeculativeTokens: spec.Int(3), AcceptanceRate: spec.Float(0.7)}}
	r, err := Plan(req)
	require.NoError(t, err)
	require.True(t, r.Feasible)
	d := r.Deployments[0]
	require.NotNil(t, d.Evaluate.SpeculativeConfig)
	checkDeployment(t, req, d)
	rep, err := evaluate.Evaluate(d.Evaluate)
	require.NoError(t, err)
	e := (1 - math.Pow(0.7, 4)) / (1 - 0.7)
	near(t, rep.Decode.StepTimeMs/e, d.TPOTMs, "tpot = step / E")
}

// Under TensorRT-LLM, nvidia/Qwen3-30B-A3B-NVFP4's "auto" cache is the
// checkpoint's fp8 (kv_cache_quant_algo FP8), so the default search's
// "auto" and "fp8" are one layout: every deployment says fp8 and none is
// listed twice. Its vLLM search keeps both: "auto" is bf16 there (98,304 B
// per token against fp8's 49,152).
func TestPlanTriesEachResolvedKVDtypeOnce(t *testing.T) {
	t.Parallel()
	req := spec.PlanRequest{Model: "nvidia/Qwen3-30B-A3B-NVFP4",
		Workload:    spec.PlanWorkload{InputTokens: spec.Int(1024), OutputTokens: spec.Int(256), RequestRate: spec.Float(5)},
		SLO:         spec.PlanSLO{TPOTMs: spec.Float(100)},
		Constraints: &spec.PlanConstraints{Accelerators: []string{"b200"}, Engines: []string{"trtllm"}, Prices: map[string]float64{"b200": 5}},
		Limit:       spec.Int(100)}
	r, err := Plan(req)
	require.NoError(t, err)
	require.NotEmpty(t, r.Deployments)
	seen := map[string]bool{}
	for _, d := range r.Deployments {
		assert.Equal(t, "fp8", d.KVCacheDtype)
		b, err := jsonx.Marshal(d) // the whole deployment: two alike are one listed twice
		require.NoError(t, err)
		assert.False(t, seen[string(b)], "deployment listed twice: %s", b)
		seen[string(b)] = true
	}

	req.Constraints.Engines = []string{"vllm"}
	r, err = Plan(req)
	require.NoError(t, err)
	kvs := map[string]bool{}
	for _, d := range r.Deployments {
		kvs[d.KVCacheDtype] = true
	}
	assert.True(t, kvs["auto"] && kvs["fp8"], "vLLM keeps both: %v", kvs)
}

// A plan verifies its top deployments in the simulator by default and
// never headlines one the simulator refutes. Llama 3.1 70B at 5 requests/s
// of 4096 + 256 tokens under TTFT <= 500 ms and TPOT <= 30 ms (means) on
// MI325X and MI300X, aggregated: the analytic steady state puts MI325X
// rows first (TP 2 x 2 and TP 4 at 28-30 ms TPOT, just inside the budget),
// and the simulator's replay of 200 Poisson arrivals, whose bursts run
// larger batches than the steady state's mean, gives them a mean TPOT
// about a tenth higher, over 30 ms; they move after the rows it does not
// refute.
func TestPlanRerankedByTheSimulator(t *testing.T) {
	req := spec.PlanRequest{Model: "meta-llama/Llama-3.1-70B-Instruct",
		Workload:    spec.PlanWorkload{RequestRate: spec.Float(5), InputTokens: spec.Int(4096), OutputTokens: spec.Int(256)},
		SLO:         spec.PlanSLO{TTFTMs: spec.Float(500), TPOTMs: spec.Float(30)},
		Constraints: &spec.PlanConstraints{Accelerators: []string{"mi325x", "mi300x"}},
		Search:      &spec.PlanSearch{Disaggregated: new(bool)}}
	r, err := Plan(req)
	require.NoError(t, err)
	require.NotEmpty(t, r.Deployments)
	var refutedCost []float64
	seenRefuted := false
	for i, d := range r.Deployments {
		assert.Equal(t, i+1, d.Rank)
		if d.Simulated == nil {
			continue
		}
		// The verdict is the simulated means against the budget.
		meets := d.Simulated.TTFTMs.Mean <= 500 && d.Simulated.TPOTMs.Mean <= 30
		assert.Equal(t, meets, d.Simulated.MeetsBudget, "row %d", i)
		if !meets {
			seenRefuted = true
			refutedCost = append(refutedCost, d.USDPerMillionOutputTokens)
		} else {
			assert.False(t, seenRefuted, "row %d, which the simulator does not refute, ranks after a refuted one", i)
		}
	}
	require.NotEmpty(t, refutedCost, "the planted workload has rows the simulator refutes")
	head := r.Deployments[0]
	require.NotNil(t, head.Simulated, "the headline was replayed")
	assert.True(t, head.Simulated.MeetsBudget)
	// A refuted row was cheaper: the analytic ranking would have headlined it.
	assert.LessOrEqual(t, refutedCost[0], head.USDPerMillionOutputTokens)
	assert.Contains(t, warningCodes(r.Warnings), "verify_reranked")
	assert.Contains(t, r.Answer, "(simulated: TTFT mean ")
	assert.Equal(t, 0, r.Cheapest)

	// verify.top 0: the analytic ranking alone, no replay, no re-ranking.
	req.Verify = &spec.PlanVerify{Top: spec.Int(0)}
	a, err := Plan(req)
	require.NoError(t, err)
	for _, d := range a.Deployments {
		assert.Nil(t, d.Simulated)
	}
	assert.NotContains(t, warningCodes(a.Warnings), "verify_reranked")
	assert.InDelta(t, refutedCost[0], a.Deployments[0].USDPerMillionOutputTokens, 1e-9, "analytically, a refuted row heads the plan")
}

// warningCodes lists the warnings' codes.
func warningCodes(ws []spec.Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Code)
	}
	return out
}

// The power cap (constraints.max_power_kw): 40 requests/s of Llama 3.1 8B
// on H100s need at least two 700 W GPUs, which draw at least their idle
// 2 x 0.15 x 700 W = 0.21 kW (docs/MODEL.md section 5c): a 0.1 kW cap
// refuses every candidate, naming the power it would draw; without a cap
// every deployment states its kW, and a cap at the cheapest plan's kW keeps
// only deployments within it.
func TestPlanPowerCap(t *testing.T) {
	ask := func(kw *float64) *spec.PlanReport {
		r, err := Plan(spec.PlanRequest{
			Model: llama8B, Workload: spec.PlanWorkload{RequestRate: spec.Float(40)}, SLO: spec.PlanSLO{TPOTMs: spec.Float(30)},
			Constraints: &spec.PlanConstraints{Accelerators: []string{"h100-sxm-80gb"}, Engines: []string{"vllm"}, MaxPowerKW: kw},
			Search:      narrow(1),
		})
		require.NoError(t, err)
		return &r
	}
	free := ask(nil)
	require.True(t, free.Feasible)
	for _, d := range free.Deployments {
		assert.GreaterOrEqual(t, d.DeploymentKW, float64(d.GPUs)*0.15*0.7-1e-9, d.Accelerator)
		assert.LessOrEqual(t, d.DeploymentKW, float64(d.GPUs)*0.7+1e-9, d.Accelerator)
	}
	none := ask(spec.Float(0.1))
	assert.False(t, none.Feasible)
	require.NotEmpty(t, none.Rejections)
	assert.Equal(t, "max_power_kw", none.Rejections[0].Reason)
	assert.Regexp(t, `^draws [0-9.]+ kW > 0\.1 kW on `, none.Rejections[0].Message)

	kw := free.Deployments[free.Cheapest].DeploymentKW
	capped := ask(spec.Float(kw))
	require.True(t, capped.Feasible)
	for _, d := range capped.Deployments {
		assert.LessOrEqual(t, d.DeploymentKW, kw, d.Accelerator)
	}
}
