package validation

import (
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/calc/bands"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/hardware"
)

// Kinds of measurement a case with a "kind" field holds (the public cases of
// testdata/public-cases.json). Each names exactly what was timed, so the
// case maps to one modelled figure without guessing from the engine name:
//
//   - KindStaticBatch: one generate() call of batch_size prompts of
//     input_len tokens, each decoding output_len tokens (EOS ignored); the
//     measured figure is the wall time of the whole batch
//     (measured.batch_latency_s). The engine replays it as a burst of
//     batch_size requests in its simulator and compares the time until the
//     last one finishes.
//   - KindDecodeStep: the time per output token (measured.tpot_ms, or
//     measured.step_time_ms) at a fixed batch or concurrency with known
//     lengths; compared with one decode step at the workload's mean context.
//   - KindOutputThroughput: output tokens/s of a serving benchmark at fixed
//     concurrency and lengths (measured.output_tokens_per_s), replayed as a
//     closed loop of that many users.
//   - KindTTFT: time to first token of a prompt of input_len on an idle
//     server (measured.ttft_ms, concurrency 1).
//   - KindLlamaBenchTG: llama-bench tgN, single-stream decode from an empty
//     context (measured.decode_tok_s); compared as a step time.
//   - KindStartupKV: a vLLM start-up log's "GPU KV cache size: N tokens"
//     (measured.gpu_kv_cache_size_tokens), or, where the log gives no
//     token count, its "Available KV cache memory: X GiB"
//     (measured.available_kv_cache_memory_gib, per GPU), as group A.
//   - KindServing: a serving benchmark (vllm bench serve, sglang.bench_serving)
//     replayed in the simulator with the case's arrival ("burst" for an
//     infinite request rate, "poisson" at request_rate, "closed_loop" at
//     concurrency), num_prompts requests and lengths (constant, or uniform
//     from input_len_min/output_len_min to input_len/output_len); the case's
//     "compare" names the figure: output_tokens_per_s (measured
//     output_tokens_per_s), ttft_p50_ms or itl_p50_ms (compared with the
//     simulated ITL p50: the median of every gap between consecutive
//     tokens over all requests, as the benchmarks compute it, not the
//     median of the requests' mean gaps, TPOT), or the benchmarks' TPOT
//     and TTFT summaries: tpot_mean_ms and tpot_p50_ms (the mean and
//     median over requests of (e2e - ttft) / (output tokens - 1)) and
//     ttft_mean_ms, compared with the simulator's same statistics.
const (
	KindStaticBatch      = "static_batch_latency"
	KindDecodeStep       = "decode_step"
	KindOutputThroughput = "output_throughput"
	KindTTFT             = "ttft"
	KindLlamaBenchTG     = "llama_bench_tg"
	KindStartupKV        = "startup_kv"
	KindServing          = "serving_benchmark"
)

// Kinds lists every kind a public case may have.
var Kinds = []string{KindStaticBatch, KindDecodeStep, KindOutputThroughput, KindTTFT, KindLlamaBenchTG, KindStartupKV, KindServing}

// ServingCompares lists what a KindServing case may compare.
var ServingCompares = []string{"output_tokens_per_s", "ttft_p50_ms", "itl_p50_ms", "tpot_mean_ms", "tpot_p50_ms", "ttft_mean_ms"}

// EngineProfile maps a case's engine text to the engine profile that
// models it ("" when none does).
func EngineProfile(engine string) string {
	e := strings.ToLower(engine)
	switch {
	case strings.HasPrefix(e, "vllm"):
		return "vllm"
	case strings.HasPrefix(e, "sglang"):
		return "sglang"
	case strings.HasPrefix(e, "tensorrt"), strings.HasPrefix(e, "trt"):
		return "trtllm"
	case strings.HasPrefix(e, "llama.cpp"), strings.HasPrefix(e, "llamacpp"):
		return "llamacpp"
	case strings.HasPrefix(e, "lmdeploy"):
		return "lmdeploy"
	}
	return ""
}

// hardwareRef resolves a case's GPU: its catalog id when it gives one, else
// its name.
func hardwareRef(c rawCase) (calc.HardwareRef, error) {
	name := c.GPU
	if c.GPUID != "" {
		name = c.GPUID
	}
	if _, err := hardware.Lookup(name); err != nil {
		return calc.HardwareRef{}, err
	}
	return calc.HardwareRef{ID: name}, nil
}

func evalKind(c rawCase, r Result) (Result, error) {
	r.Engine = EngineProfile(c.Engine)
	r.Kind = c.Kind
	// Public cases report apart from ../shared/validation's: "B-public".
	r.Group = c.Group + "-public"
	r.TP = max(c.TP, 1)
	r.GPU = c.GPUID
	if r.GPU == "" {
		r.GPU = c.GPU
	}
	b, _ := num(c.BatchSize)
	if conc, ok := num(c.Concurrency); ok {
		b = conc
	}
	r.Batch = int(b)
	hw, err := hardwareRef(c)
	if err != nil {
		return r, err
	}
	req := calc.Request{Model: modelID(c.Model), Hardware: hw, Engine: r.Engine}
	switch r.Engine {
	case "vllm":
		req.EngineVersion = CaseVersion(c.EngineVersion)
		r.Version = req.EngineVersion
	case "trtllm":
		req.EngineVersion = TRTLLMCaseVersion(c.EngineVersion)
		r.Version = req.EngineVersion
	case "sglang":
		req.EngineVersion = SGLangCaseVersion(c.EngineVersion)
		r.Version = req.EngineVersion
	}
	if c.TP > 1 {
		req.TensorParallelSize = calc.Int(c.TP)
	}
	if c.PP > 1 {
		req.PipelineParallelSize = calc.Int(c.PP)
	}
	if c.P2P != nil && !*c.P2P {
		no := false
		req.P2P = &no
	}
	if c.FlashInferSampler {
		yes := true
		req.FlashInferSampler = &yes
	}
	switch c.Dtype {
	case "float16", "fp16":
		req.Dtype = "float16"
	}
	if c.Quantization != "" {
		req.Quantization = strings.ToLower(c.Quantization)
	}
	applyMemory(c, &req)
	if n, ok := num(c.MaxNumSeqs); ok {
		req.MaxNumSeqs = calc.Int(int(n))
	}
	if n, ok := num(c.MaxNumBatchedTokens); ok {
		req.MaxNumBatchedTokens = calc.Int(int(n))
	}
	in, _ := num(c.InputLen)
	out, _ := num(c.OutputLen)
	r.Desc = modelID(c.Model) + " " + r.GPU + " tp" + strconv.Itoa(r.TP) + " b" + strconv.Itoa(r.Batch) +
		" in" + strconv.Itoa(int(in)) + " out" + strconv.Itoa(int(out))
	switch c.Kind {
	case KindStaticBatch:
		return evalStaticBatch(c, r, req, int(b), int(in), int(out))
	case KindDecodeStep:
		r.Metric = "step_time_ms"
		if v, ok := measured(c, "tpot_ms"); ok {
			r.Measured = v
		} else {
			r.Measured, _ = measured(c, "step_time_ms")
		}
		req.Workload = &calc.Workload{InputTokens: calc.Int(int(in)), OutputTokens: calc.Int(int(out)), Concurrency: calc.Int(int(b))}
		return withDecode(r, req)
	case KindOutputThroughput:
		return evalOutputThroughput(c, r, req, int(b), int(in), int(out))
	case KindTTFT:
		r.Metric = "ttft_ms"
		r.Measured, _ = measured(c, "ttft_ms")
		req.Workload = &calc.Workload{InputTokens: calc.Int(int(in)), OutputTokens: calc.Int(max(int(out), 1)), Concurrency: calc.Int(1)}
		return withTTFT(r, req)
	case KindLlamaBenchTG:
		r.Metric = "step_time_ms"
		tps, _ := measured(c, "decode_tok_s")
		r.Measured = 1000 / tps
		if req.MaxModelLen == nil {
			req.MaxModelLen = calc.Int(4096)
		}
		// tgN starts from an empty context: the mean context is N/2.
		req.Workload = &calc.Workload{InputTokens: calc.Int(1), OutputTokens: calc.Int(int(out)), Concurrency: calc.Int(1)}
		return withDecode(r, req)
	case KindServing:
		return evalServing(c, r, req, int(in), int(out))
	case KindStartupKV:
		return evalStartupKV(c, r, req)
	}
	r.Comparable, r.Reason = false, "unknown kind "+c.Kind
	return r, nil
}

// evalOutputThroughput replays a closed loop of concurrency users (the
// case's batch_size or concurrency) issuing num_prompts requests (8 x
// concurrency when not given) of input_len and output_len tokens, and
// compares the simulated output tokens/s with measured.output_tokens_per_s,
// or with measured.output_tokens_per_s_per_gpu (the figure over every GPU
// of the deployment, as trtllm-bench's "Per GPU Output Throughput"
// reports it).
//
// With data_parallel_size d > 1 the concurrency and num_prompts are the
// whole deployment's, as trtllm-bench's --concurrency and --num_requests
// are: each replica has its own scheduler, so one replica is simulated
// with concurrency / d users and num_prompts / d requests, and its
// tokens/s over its tensor_parallel_size x pipeline_parallel_size GPUs is
// the per-GPU figure (the replicas are alike; attention-DP load imbalance
// is not modelled).
// replayWaves is the most waves of a closed loop that evalOutputThroughput
// replays, and replayBudget its work budget (sequence-steps; four waves of
// 896 sequences of 2,048 tokens are 7.3e6).
const (
	replayWaves  = 4
	replayBudget = 4 * calc.DefaultWorkBudget
)

func evalOutputThroughput(c rawCase, r Result, req calc.Request, b, in, out int) (Result, error) {
	r.Metric = "output_tokens_per_s"
	perGPU := 1.0
	if v, ok := measured(c, "output_tokens_per_s_per_gpu"); ok {
		r.Measured = v
		perGPU = float64(max(c.TP, 1) * max(c.PP, 1))
	} else {
		r.Measured, _ = measured(c, "output_tokens_per_s")
	}
	dp := 1
	if d, ok := num(c.DataParallelSize); ok && d > 1 {
		dp = int(d)
		req.DataParallelSize = calc.Int(dp)
	}
	if c.EnableExpertParallel {
		ep := true
		req.EnableExpertParallel = &ep
	}
	n := 8 * b
	if p, ok := num(c.NumPrompts); ok {
		n = int(p)
	}
	b, n = max(b/dp, 1), max(n/dp, 1)
	// A closed loop of constant lengths settles after its first wave of
	// b requests; four waves stand for the source's longer run (a
	// trtllm-bench run of 49,152 requests is 16 waves of its 3,072).
	n = min(n, replayWaves*b)
	r.Batch = b
	if req.MaxModelLen == nil {
		req.MaxModelLen = calc.Int(in + out)
	}
	if dp > 1 {
		r.Desc += " dp" + strconv.Itoa(dp)
	}
	req.Workload = &calc.Workload{InputTokens: calc.Int(in), OutputTokens: calc.Int(out), Concurrency: calc.Int(b)}
	req.Simulate = &calc.SimulateOptions{NumRequests: calc.Int(n), Arrival: "closed_loop", Concurrency: calc.Int(b), TimelinePoints: calc.Int(0)}
	// The replay is offline tooling: four waves of several hundred
	// 2,048-token sequences exceed the HTTP work budget.
	rep, err := calc.EvaluateWithBudget(req, replayBudget)
	if err != nil {
		return r, err
	}
	if rep.Simulation == nil || rep.Simulation.CompletedRequests == 0 {
		r.Comparable, r.Reason = false, "does not fit"
		return r, nil
	}
	r.Predicted = rep.Simulation.OutputTokensPerS / perGPU
	return r, nil
}

// withTTFT predicts the request's time to first token at concurrency 1
// (its band key the TTFT family's at batch 1).
func withTTFT(r Result, req calc.Request) (Result, error) {
	rep, err := calc.Evaluate(req)
	if err != nil {
		return r, err
	}
	if rep.Prefill == nil {
		r.Comparable, r.Reason = false, "does not fit"
		return r, nil
	}
	r.Predicted = rep.Prefill.TTFTMs
	r.Key = keyOf(&rep, bands.TTFT, 1)
	return r, nil
}

func withDecode(r Result, req calc.Request) (Result, error) {
	rep, err := calc.Evaluate(req)
	if err != nil {
		return r, err
	}
	if rep.Decode == nil {
		r.Comparable, r.Reason = false, "does not fit"
		return r, nil
	}
	r.Predicted = rep.Decode.StepTimeMs
	return r, nil
}

// evalStaticBatch replays a static batch as a burst of b requests with
// every sequence admitted at once (max_num_seqs >= b) and compares the
// simulated time until the last request finishes with the measured wall
// time of the generate() call (measured.batch_latency_s), or the batch's
// output tokens over that time with the measured output tokens/s
// (measured.output_tokens_per_s, or output_tokens_per_s_per_gpu, which is
// that over the TP group's GPUs).
func evalStaticBatch(c rawCase, r Result, req calc.Request, b, in, out int) (Result, error) {
	perGPU := 1.0
	switch {
	case has(c, "batch_latency_s"):
		r.Metric = "batch_latency_s"
		r.Measured, _ = measured(c, "batch_latency_s")
	case has(c, "output_tokens_per_s_per_gpu"):
		r.Metric = "output_tokens_per_s"
		r.Measured, _ = measured(c, "output_tokens_per_s_per_gpu")
		perGPU = float64(max(c.TP, 1) * max(c.PP, 1))
	default:
		r.Metric = "output_tokens_per_s"
		r.Measured, _ = measured(c, "output_tokens_per_s")
	}
	if req.MaxNumSeqs == nil {
		req.MaxNumSeqs = calc.Int(max(b, 256))
	}
	if req.MaxModelLen == nil {
		req.MaxModelLen = calc.Int(in + out)
	}
	if r.Engine == "trtllm" && req.MaxNumBatchedTokens == nil {
		// TensorRT-LLM's static batching (gptSessionBenchmark, the
		// pre-in-flight-batching runtime) runs every sequence's context
		// phase in one step.
		req.MaxNumBatchedTokens = calc.Int(max(b*in, 8192))
	}
	req.Workload = &calc.Workload{InputTokens: calc.Int(in), OutputTokens: calc.Int(out), Concurrency: calc.Int(b)}
	req.Simulate = &calc.SimulateOptions{NumRequests: calc.Int(b), Arrival: "burst", TimelinePoints: calc.Int(0)}
	rep, err := calc.Evaluate(req)
	if err != nil {
		return r, err
	}
	s := rep.Simulation
	if s == nil || s.CompletedRequests < b {
		r.Comparable, r.Reason = false, "the batch does not fit"
		return r, nil
	}
	if s.Preemptions > 0 {
		r.Comparable, r.Reason = false, "the batch does not fit the modelled KV pool at once (preempts)"
	}
	if r.Metric == "batch_latency_s" {
		r.Predicted = s.DurationS
	} else if s.DurationS > 0 {
		r.Predicted = float64(b*out) / s.DurationS / perGPU
	}
	return r, nil
}

// lengthDist is a constant length, or a uniform one from lo when lo is
// given and below hi.
func lengthDist(lo any, hi int) *calc.LengthDistribution {
	if l, ok := num(lo); ok && int(l) < hi {
		return &calc.LengthDistribution{Distribution: "uniform", Min: calc.Int(max(int(l), 1)), Max: calc.Int(hi)}
	}
	return &calc.LengthDistribution{Distribution: "constant", Mean: calc.Float(float64(hi))}
}

// evalServing replays a serving benchmark in the simulator (seed 0) and
// compares the figure the case names.
func evalServing(c rawCase, r Result, req calc.Request, in, out int) (Result, error) {
	n, _ := num(c.NumPrompts)
	sim := &calc.SimulateOptions{NumRequests: calc.Int(int(n)), Arrival: c.Arrival, TimelinePoints: calc.Int(0),
		InputTokens: lengthDist(c.InputLenMin, in), OutputTokens: lengthDist(c.OutputLenMin, out)}
	req.Workload = &calc.Workload{InputTokens: calc.Int(in), OutputTokens: calc.Int(out)}
	switch c.Arrival {
	case "poisson":
		rate, _ := num(c.RequestRate)
		sim.RequestRate = calc.Float(rate)
	case "closed_loop":
		sim.Concurrency = calc.Int(r.Batch)
	}
	if req.MaxModelLen == nil {
		req.MaxModelLen = calc.Int(in + out)
	}
	req.Simulate = sim
	load := c.Arrival
	if c.Arrival == "poisson" {
		load = "rate " + strconv.FormatFloat(*sim.RequestRate, 'g', -1, 64)
	}
	r.Desc = modelID(c.Model) + " " + r.GPU + " tp" + strconv.Itoa(r.TP) + " " + load + " in<=" + strconv.Itoa(in) + " out<=" + strconv.Itoa(out) + " (" + c.Compare + ")"
	r.Metric = c.Compare
	switch c.Compare {
	case "output_tokens_per_s":
		r.Measured, _ = measured(c, "output_tokens_per_s")
	case "ttft_p50_ms":
		r.Measured, _ = measured(c, "ttft_p50_ms")
		r.Metric = "ttft_ms"
	case "itl_p50_ms", "tpot_mean_ms", "tpot_p50_ms":
		r.Measured, _ = measured(c, c.Compare)
		r.Metric = "step_time_ms"
	case "ttft_mean_ms":
		r.Measured, _ = measured(c, "ttft_mean_ms")
		r.Metric = "ttft_ms"
	default:
		r.Comparable, r.Reason = false, "unknown compare "+c.Compare
		return r, nil
	}
	rep, err := calc.Evaluate(req)
	if err != nil {
		return r, err
	}
	s := rep.Simulation
	if s == nil || s.CompletedRequests == 0 {
		r.Comparable, r.Reason = false, "does not fit"
		return r, nil
	}
	switch c.Compare {
	case "output_tokens_per_s":
		r.Predicted = s.OutputTokensPerS
	case "ttft_p50_ms":
		r.Predicted = s.TTFTMs.P50
	case "itl_p50_ms":
		r.Predicted = s.ITLMs.P50
	case "tpot_mean_ms":
		r.Predicted = s.TPOTMs.Mean
	case "tpot_p50_ms":
		r.Predicted = s.TPOTMs.P50
	case "ttft_mean_ms":
		r.Predicted = s.TTFTMs.Mean
	}
	return r, nil
}

// publicKey is the band regime a public case's residual is filed under:
// its engine, its family (the KV capacity of a start-up log, a TTFT, and
// every other timed figure under the step time, whose inverse a
// throughput is), its TP bucket, its GPU's class and its batch bucket (the
// release class for the KV family), as keyOf files the shared cases.
func publicKey(r Result) BandKey {
	family := bands.Step
	switch r.Metric {
	case "ttft_ms":
		family = bands.TTFT
	case "capacity_tokens", "kv_cache_gib":
		family = bands.KV
	}
	return bandKey(r.Engine, r.Version, r.GPU, family, r.TP, max(r.Batch, 1))
}

// evalStartupKV compares a start-up log's KV capacity: its token count
// (the release's "GPU KV cache size" formula) or, without one, the KV
// pool per GPU in GiB ("Available KV cache memory").
func evalStartupKV(c rawCase, r Result, req calc.Request) (Result, error) {
	r.Desc = modelID(c.Model) + " " + r.GPU + " tp" + strconv.Itoa(r.TP)
	req.Workload = &calc.Workload{InputTokens: calc.Int(512), OutputTokens: calc.Int(128)}
	if startupLogFor != nil {
		req.StartupLog = startupLogFor(c)
	}
	rep, err := calc.Evaluate(req)
	if err != nil {
		return r, err
	}
	if v, ok := measured(c, "gpu_kv_cache_size_tokens"); ok {
		r.Metric, r.Measured = "capacity_tokens", v
		r.Predicted = float64(rep.KVCache.CapacityTokens)
		return r, nil
	}
	r.Metric = "kv_cache_gib"
	r.Measured, _ = measured(c, "available_kv_cache_memory_gib")
	r.Predicted = float64(rep.Memory.KVCacheBytes) / (1 << 30)
	return r, nil
}
