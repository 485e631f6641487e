// Package validation compares the engine with the published measurements in
// ../shared/validation/cases.json. It maps each case to a calc.Request,
// evaluates it and returns the relative error of the quantity the case
// measured. The calibration tool prints the table; calc's validation test
// asserts the aims on it.
package validation

import (
	"github.com/modelrefs/throughput/calc/bands"
	// Serving cases are predicted by simulation: link the simulator in.
	_ "github.com/modelrefs/throughput/calc/simulate"

	"encoding/json"
	"errors"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/hardware"
)

// Result is one case's comparison.
type Result struct {
	ID     string
	Group  string // "A", "A-v0", "B", "C"
	Engine string // engine profile used
	// Metric names what was compared: "capacity_tokens", "num_blocks",
	// "kv_cache_gib", "step_time_ms", "tpot_ms" (a serving run's median
	// TPOT), "output_tokens_per_s", "batch_latency_s", "e2e_latency_ms" (a
	// serving run's median end-to-end latency), "ttft_ms" (MetricClass
	// groups them).
	Metric    string
	Measured  float64
	Predicted float64
	// Comparable is false when the case cannot be compared with a modelled
	// figure; Reason says why.
	Comparable bool
	Reason     string
	Desc       string
	// Kind is a public case's kind (see KindStaticBatch); "" for the
	// cases of ../shared/validation/cases.json.
	Kind string
	// TP, GPU and Batch are the case's tensor-parallel size, GPU (catalog
	// id where the case gives one) and batch or concurrency (0 when not
	// fixed), for the tables by engine, TP, GPU and batch bucket.
	TP    int
	GPU   string
	Batch int
	// Version is the engine release profile the case ran under (vLLM's
	// engine_version; "" for the default).
	Version string
	// Source names the document the case was read from, as SourceKey
	// normalises it: the unit a leave-one-source-out check holds out.
	Source string
	// Model is the case's checkpoint (its Hugging Face id), a unit a
	// leave-one-group-out check can hold out.
	Model string
	// Naive is, for group A, the capacity the formula other calculators
	// use predicts: total * gpu_memory_utilization - weights, ignoring the
	// activation peak and non-torch memory.
	Naive float64
	// Key is the band regime the case's residual is filed under (an empty
	// Family: none).
	Key BandKey
	// Replay marks a figure of a serving benchmark replayed in the
	// simulator with a modelled workload (ShareGPT lengths drawn from a
	// distribution, sharegpt.go): the fits leave these out.
	Replay bool
}

// RelErr returns predicted/measured - 1.
func (r Result) RelErr() float64 { return r.Predicted/r.Measured - 1 }

type rawCase struct {
	ID                   string         `json:"id"`
	Group                string         `json:"group"`
	Engine               string         `json:"engine"`
	EngineVersion        string         `json:"engine_version"`
	Model                string         `json:"model"`
	GPU                  string         `json:"gpu"`
	GPUTotalGiB          float64        `json:"gpu_memory_total_gib_reported"`
	TP                   int            `json:"tensor_parallel_size"`
	PP                   int            `json:"pipeline_parallel_size"`
	Dtype                string         `json:"dtype"`
	WeightQuantization   any            `json:"weight_quantization"`
	Quantization         string         `json:"quantization"`
	Precision            string         `json:"precision"`
	KVCacheDtype         string         `json:"kv_cache_dtype"`
	GPUMemoryUtilization any            `json:"gpu_memory_utilization"`
	MaxModelLen          any            `json:"max_model_len"`
	BlockSize            any            `json:"block_size"`
	BatchSize            any            `json:"batch_size"`
	Concurrency          any            `json:"concurrency"`
	InputLen             any            `json:"input_len"`
	OutputLen            any            `json:"output_len"`
	Scenario             string         `json:"scenario"`
	Measured             map[string]any `json:"measured"`
	// Fields of the public cases (testdata/public-cases.json).
	Kind                string `json:"kind"`
	GPUID               string `json:"gpu_id"`
	NumGPUs             int    `json:"num_gpus"`
	MaxNumSeqs          any    `json:"max_num_seqs"`
	MaxNumBatchedTokens any    `json:"max_num_batched_tokens"`
	NumPrompts          any    `json:"num_prompts"`
	Arrival             string `json:"arrival"`
	RequestRate         any    `json:"request_rate"`
	InputLenMin         any    `json:"input_len_min"`
	OutputLenMin        any    `json:"output_len_min"`
	Compare             string `json:"compare"`
	// DataParallelSize and EnableExpertParallel describe a deployment of
	// data-parallel replicas (TensorRT-LLM's attention DP, vLLM's
	// --data-parallel-size), each with its own scheduler and batch, with
	// the MoE experts spread over them when EnableExpertParallel is set.
	DataParallelSize     any  `json:"data_parallel_size"`
	EnableExpertParallel bool `json:"enable_expert_parallel"`
	// P2P is false for a deployment whose GPUs lack peer-to-peer access
	// (the server log's "Custom allreduce is disabled because your
	// platform lacks GPU P2P capability or P2P test failed"): the
	// request's p2p.
	P2P *bool `json:"p2p"`
	// FlashInferSampler: the source's start-up log says "Using FlashInfer
	// for top-p & top-k sampling." (the request's flashinfer_sampler).
	FlashInferSampler bool           `json:"flashinfer_sampler"`
	Source            map[string]any `json:"source"`
}

// Case is one published measurement as read from a cases file.
type Case struct{ raw rawCase }

// ID returns the case's id.
func (c Case) ID() string { return c.raw.ID }

// Profile returns the engine profile the case runs under
// (EngineProfile of its engine).
func (c Case) Profile() string { return EngineProfile(c.raw.Engine) }

// Comparing returns the case compared on another of its measured figures
// (a serving benchmark's "ttft_mean_ms", say), and whether it has one:
// to score a figure across cases that were entered to compare another.
func (c Case) Comparing(metric string) (Case, bool) {
	if _, ok := c.raw.Measured[metric]; !ok || c.raw.Kind != "serving_benchmark" {
		return c, false
	}
	c.raw.Compare = metric
	return c, true
}

// Eval evaluates the case with the engine profiles as they are now and
// returns its first figure (EvalAll: every one).
func (c Case) Eval() (Result, error) {
	rs, err := c.EvalAll()
	if err != nil {
		return Result{ID: c.raw.ID}, err
	}
	return rs[0], nil
}

// EvalAll evaluates the case and returns one result per figure it
// compares: one for most cases, one per reported median for a replayed
// ShareGPT serving benchmark (sharegpt.go).
func (c Case) EvalAll() ([]Result, error) {
	rs, err := evaluateAll(c.raw)
	if err != nil {
		return nil, errors.New(c.raw.ID + ": " + err.Error())
	}
	for i := range rs {
		rs[i].Source, rs[i].Model = sourceKey(c.raw.Source), modelID(c.raw.Model)
	}
	return rs, nil
}

// ReadCases reads the cases of every file named (each a JSON array); a
// file that does not exist is skipped and named in missing.
func ReadCases(paths ...string) (cs []Case, missing []string, err error) {
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			missing = append(missing, p)
			continue
		}
		if err != nil {
			return nil, missing, err
		}
		var raw []rawCase
		if err := json.Unmarshal(b, &raw); err != nil {
			return nil, missing, errors.New(p + ": " + err.Error())
		}
		for _, c := range raw {
			cs = append(cs, Case{c})
		}
	}
	return cs, missing, nil
}

// Load reads and evaluates every case of the file at path.
func Load(path string) ([]Result, error) { return LoadEngine(path, "") }

// LoadEngine reads the file at path and evaluates the cases of one engine
// profile ("vllm", "sglang", "trtllm", "llamacpp", "lmdeploy"; "" for
// all), so a fit of one engine's parameters does not replay the others'
// simulations at every step.
func LoadEngine(path, engine string) ([]Result, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cases []rawCase
	if err := json.Unmarshal(b, &cases); err != nil {
		return nil, err
	}
	out := make([]Result, 0, len(cases))
	for _, c := range cases {
		if engine != "" && EngineProfile(c.Engine) != engine {
			continue
		}
		rs, err := Case{c}.EvalAll()
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
	return out, nil
}

// LoadAll loads every file of paths in turn; a file that does not exist is
// skipped and named in missing.
func LoadAll(paths []string) (rs []Result, missing []string, err error) {
	return LoadAllEngine(paths, "")
}

// LoadAllEngine is LoadAll for the cases of one engine profile ("" for
// all).
func LoadAllEngine(paths []string, engine string) (rs []Result, missing []string, err error) {
	for _, p := range paths {
		if _, e := os.Stat(p); errors.Is(e, os.ErrNotExist) {
			missing = append(missing, p)
			continue
		}
		r, e := LoadEngine(p, engine)
		if e != nil {
			return nil, missing, errors.New(p + ": " + e.Error())
		}
		rs = append(rs, r...)
	}
	return rs, missing, nil
}

func num(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(strings.Fields(x + " ")[0], 64)
		return f, err == nil
	}
	return 0, false
}

func measured(c rawCase, key string) (float64, bool) {
	v, ok := c.Measured[key]
	if !ok || v == nil {
		return 0, false
	}
	return num(v)
}

// modelID strips the notes some cases append to the model id.
func modelID(s string) string { return strings.Fields(s)[0] }

// evaluateAll evaluates a case into one result per figure it compares
// (at least one).
func evaluateAll(c rawCase) ([]Result, error) {
	if c.Kind == "" && c.Group == "B" && isShareGPT(c) {
		r, req := sharedBase(c)
		rs, err := evalShareGPT(c, r, req)
		if err != nil || len(rs) > 0 {
			return rs, err
		}
	}
	r, err := evaluate(c)
	if err != nil || c.Kind != "" || c.Group != "C" {
		return []Result{r}, err
	}
	if pp, ok := measured(c, "prefill_tok_s_pp512"); ok && pp > 0 {
		p, req := sharedBase(c)
		p, err = evalCPrefill(c, p, req, pp)
		return []Result{r, p}, err
	}
	return []Result{r}, nil
}

func evaluate(c rawCase) (Result, error) {
	r := Result{ID: c.ID, Group: c.Group, Comparable: true}
	if c.Kind != "" {
		res, err := evalKind(c, r)
		if err == nil && res.Comparable {
			res.Key = publicKey(res)
		}
		return res, err
	}
	r, req := sharedBase(c)
	switch c.Group {
	case "A":
		return evalA(c, r, req)
	case "B":
		return evalB(c, r, req)
	case "C":
		return evalC(c, r, req)
	}
	r.Comparable, r.Reason = false, "unknown group"
	return r, nil
}

// startupLogFor, when set (by the start-up log calibration's test), gives
// the startup_log pasted into a group A case's request.
var startupLogFor func(c rawCase) string

// sharedBase is a shared case's result before comparison (its id,
// group, TP, GPU and batch) and its request: model, GPU (an unnamed
// 80 GB-class one as an H100 with the logged total), TP, PP and dtype.
func sharedBase(c rawCase) (Result, calc.Request) {
	r := Result{ID: c.ID, Group: c.Group, Comparable: true}
	r.TP, r.GPU = max(c.TP, 1), c.GPU
	if a, err := hardware.Lookup(c.GPU); err == nil {
		r.GPU = a.ID
	}
	if b, ok := num(c.BatchSize); ok {
		r.Batch = int(b)
	} else if b, ok := num(c.Concurrency); ok {
		r.Batch = int(b)
	}
	req := calc.Request{Model: modelID(c.Model), Hardware: calc.HardwareRef{ID: c.GPU}}
	if _, err := hardware.Lookup(c.GPU); err != nil && c.GPUTotalGiB > 0 {
		// An unnamed 80 GB-class GPU: H100 figures with the logged total.
		a, _ := hardware.Lookup("h100-sxm-80gb")
		a.ID, a.Name = "custom", c.GPU
		a.MemoryReportedBytes = hardware.Bytes(c.GPUTotalGiB) * hardware.GiB
		req.Hardware = calc.HardwareRef{Custom: &a}
	}
	if c.TP > 1 {
		req.TensorParallelSize = calc.Int(c.TP)
	}
	if c.PP > 1 {
		req.PipelineParallelSize = calc.Int(c.PP)
	}
	switch {
	case strings.HasPrefix(c.Dtype, "float32"):
		req.Dtype = "float32"
	case c.Dtype == "float16" || strings.HasPrefix(c.Dtype, "fp16"):
		req.Dtype = "float16"
	}
	return r, req
}

func evalA(c rawCase, r Result, req calc.Request) (Result, error) {
	r.Engine = "vllm"
	req.EngineVersion = CaseVersion(c.EngineVersion)
	if req.EngineVersion != "0.19" {
		r.Group = "A-v0"
	}
	if q, ok := c.WeightQuantization.(string); ok && q == "fp8" {
		req.Quantization = "fp8"
	}
	// A "default" max_model_len is the model's own, as in vLLM (Llama 2:
	// 4096, Llama 3: 8192), which V0 profiled at.
	applyMemory(c, &req)
	req.Workload = &calc.Workload{InputTokens: calc.Int(512), OutputTokens: calc.Int(128)}
	r.Desc = modelID(c.Model) + " tp" + strconv.Itoa(max(c.TP, 1)) + " pp" + strconv.Itoa(max(c.PP, 1))
	if startupLogFor != nil {
		req.StartupLog = startupLogFor(c)
	}
	rep, err := calc.Evaluate(req)
	if err != nil {
		return r, err
	}
	switch {
	case has(c, "gpu_kv_cache_size_tokens"):
		r.Metric = "capacity_tokens"
		r.Measured, _ = measured(c, "gpu_kv_cache_size_tokens")
		r.Predicted = float64(rep.KVCache.CapacityTokens)
		if m := rep.Memory; m.KVCacheBytes > 0 {
			r.Naive = r.Predicted * float64(m.RequestedBytes-m.WeightsBytes) / float64(m.KVCacheBytes)
		}
	case has(c, "num_gpu_blocks_after_fix") || has(c, "num_gpu_blocks"):
		r.Metric = "num_blocks"
		if v, ok := measured(c, "num_gpu_blocks_after_fix"); ok {
			r.Measured = v
		} else {
			r.Measured, _ = measured(c, "num_gpu_blocks")
		}
		r.Predicted = float64(rep.KVCache.NumBlocks)
	case has(c, "available_kv_cache_memory_gib"):
		r.Metric = "kv_cache_gib"
		r.Measured, _ = measured(c, "available_kv_cache_memory_gib")
		r.Predicted = float64(rep.Memory.KVCacheBytes) / (1 << 30)
	default:
		r.Comparable, r.Reason = false, "no KV figure in the source"
	}
	r.Key = keyOf(&rep, bands.KV, 0)
	return r, nil
}

// CaseVersion maps a case's engine_version text to the release profile:
// "0.19.0 (...)" and "v0.11.0 (...)" to their minor, a main branch of
// December 2023 (PR #2031's profiler) to "0.2", another V0-engine log (the
// text says "V0") to "0.6".
func CaseVersion(s string) string {
	f := strings.TrimPrefix(strings.Fields(s + " ")[0], "v")
	if p := strings.Split(f, "."); len(p) >= 2 && p[0] == "0" {
		if _, err := strconv.Atoi(p[1]); err == nil {
			return p[0] + "." + p[1]
		}
	}
	if strings.Contains(s, "2023") {
		return "0.2"
	}
	if strings.Contains(s, "V0") {
		// "V0 engine of vLLM 0.7.3 (...)": V0 as the 0.7 releases ran it.
		if m := reV0Release.FindStringSubmatch(s); m != nil && m[1] == "7" {
			return "0.7"
		}
		return "0.6"
	}
	return ""
}

// SGLangCaseVersion maps an SGLang case's engine_version text to the
// release profile: the first "0.N" it names ("0.3.0", "lmsysorg/sglang:
// latest Docker image of December 2024 (0.4-era; ...)") where the engine
// models that release, else "" (the newest).
func SGLangCaseVersion(s string) string {
	for _, m := range reMinor.FindAllStringSubmatch(s, -1) {
		if v := "0." + m[1]; v == calc.SGLangV03 || v == calc.SGLangV04 || v == calc.SGLangVersion {
			return v
		}
	}
	return ""
}

var reMinor = regexp.MustCompile(`\b0\.(\d+)`)

// TRTLLMCaseVersion maps a TensorRT-LLM case's engine_version text to the
// release profile: "0.5.0 (...)", "0.6.1 (...)" and "1.0 (doc)" to their
// minor, a pre-release "0.7a (...)" to 0.7; a commit or a document without
// a release ("commit b626...", "doc at 01c4ece") to "" (the newest).
func TRTLLMCaseVersion(s string) string {
	p := strings.Split(strings.TrimPrefix(strings.Fields(s + " ")[0], "v"), ".")
	if len(p) < 2 || (p[0] != "0" && p[0] != "1") {
		return ""
	}
	minor := strings.TrimRightFunc(p[1], func(r rune) bool { return r < '0' || r > '9' })
	if _, err := strconv.Atoi(minor); err != nil {
		return ""
	}
	return p[0] + "." + minor
}

// reV0Release finds the release a V0 case's engine_version text names.
var reV0Release = regexp.MustCompile(`vLLM v?0\.(\d+)`)

// applyMemory sets the request's KV dtype, gpu_memory_utilization,
// max_model_len and block size from the case, where it gives them.
func applyMemory(c rawCase, req *calc.Request) {
	if c.KVCacheDtype == "fp8" {
		req.KVCacheDtype = "fp8"
	}
	if u, ok := num(c.GPUMemoryUtilization); ok {
		req.GPUMemoryUtilization = calc.Float(u)
	}
	if l, ok := num(c.MaxModelLen); ok {
		req.MaxModelLen = calc.Int(int(l))
	}
	if bs, ok := num(c.BlockSize); ok {
		req.BlockSize = calc.Int(int(bs))
	}
}

func has(c rawCase, key string) bool { _, ok := measured(c, key); return ok }

func evalB(c rawCase, r Result, req calc.Request) (Result, error) {
	in, okIn := num(c.InputLen)
	out, okOut := num(c.OutputLen)
	switch {
	case strings.HasPrefix(c.Engine, "LMDeploy"):
		r.Engine = "lmdeploy"
		b, _ := num(c.BatchSize)
		req.Engine, r.Metric = "lmdeploy", "step_time_ms"
		p50, _ := num(c.Measured["per_token_latency_s"].(map[string]any)["p50"])
		r.Measured = p50 * 1000
		in = max(in, 1)
		req.Workload = &calc.Workload{InputTokens: calc.Int(int(in)), OutputTokens: calc.Int(int(out)), Concurrency: calc.Int(int(b))}
		req.MaxModelLen = calc.Int(4096)
		req.MaxNumSeqs = calc.Int(max(int(b), 1))
		r.Desc = modelID(c.Model) + " b" + strconv.Itoa(int(b)) + " in" + strconv.Itoa(int(in)) + " out" + strconv.Itoa(int(out))
		rep, err := calc.Evaluate(req)
		if err != nil {
			return r, err
		}
		if rep.Decode == nil {
			r.Comparable, r.Reason = false, "does not fit"
			return r, nil
		}
		// A static batch holds every sequence to its last token: when they
		// do not all fit, the engine runs a smaller batch.
		if rep.Preemption != nil && int(b) > rep.Preemption.OnsetConcurrencyLockstep {
			r.Comparable = false
			r.Reason = "batch " + strconv.Itoa(int(b)) + " exceeds the KV capacity (" + strconv.Itoa(rep.Preemption.OnsetConcurrencyLockstep) + " sequences of " + strconv.Itoa(int(in+out)) + " tokens)"
		}
		// p50 of per-token latency is read to 1 ms resolution in the source.
		r.Predicted = rep.Decode.StepTimeMs
		r.Key = keyOf(&rep, bands.Step, rep.Decode.BatchSize)
		return r, nil
	case strings.HasPrefix(c.Engine, "TensorRT"):
		r.Engine = "trtllm"
		req.Engine, r.Metric = "trtllm", "output_tokens_per_s"
		r.Measured, _ = measured(c, "output_throughput_tok_s_total")
		if strings.Contains(c.Precision, "FP8") {
			// NVIDIA's FP8 ModelOpt checkpoints quantize the KV cache to
			// FP8 too (hf_quant_config.json kv_cache_quant_algo), which
			// TensorRT-LLM uses by default.
			req.KVCacheDtype = "fp8"
		}
		req.Workload = &calc.Workload{InputTokens: calc.Int(int(in)), OutputTokens: calc.Int(int(out))}
		req.MaxModelLen = calc.Int(int(in + out))
		req.MaxNumSeqs = calc.Int(2048)
		req.MaxNumBatchedTokens = calc.Int(8192)
		req.GPUHourUSD = calc.Float(1)
		r.Desc = modelID(c.Model) + " tp" + strconv.Itoa(max(c.TP, 1)) + " in" + strconv.Itoa(int(in)) + " out" + strconv.Itoa(int(out))
		rep, err := calc.Evaluate(req)
		if err != nil {
			return r, err
		}
		if rep.Cost == nil {
			r.Comparable, r.Reason = false, "does not fit"
			return r, nil
		}
		r.Predicted = rep.Cost.TokensPerS
		r.Key = keyOf(&rep, bands.Step, rep.Cost.BatchSize)
		return r, nil
	case c.Engine == "vLLM" && c.Concurrency != nil:
		r.Engine = "vllm"
		conc, _ := num(c.Concurrency)
		r.Metric = "step_time_ms"
		r.Measured, _ = measured(c, "tpot_p50_ms")
		r.Desc = modelID(c.Model) + " conc" + strconv.Itoa(int(conc))
		if conc > 4 {
			// The workload (InferenceBench llm.inference.chatbot-short,
			// yobitelcomm/bench plugins/llm-inference datasets.py) sends
			// ten one-line built-in questions and lets each answer run
			// to the model's end of text, whose length the source does
			// not record: neither the decode context nor the prefills
			// interleaved at this concurrency can be stated.
			r.Comparable, r.Reason = false, "TPOT at concurrency above 4 includes interleaved prefills, and the answers' lengths (the model's own, no ignore_eos) were not recorded"
		}
		// Lengths were not captured: a chat-like 1024-token context is
		// assumed; at concurrency <= 4 the KV read is under 1 % of the step.
		req.Workload = &calc.Workload{InputTokens: calc.Int(1024), OutputTokens: calc.Int(256), Concurrency: calc.Int(int(conc))}
		rep, err := calc.Evaluate(req)
		if err != nil {
			return r, err
		}
		r.Predicted = rep.Decode.StepTimeMs
		r.Key = keyOf(&rep, bands.Step, rep.Decode.BatchSize)
		return r, nil
	}
	r.Engine = strings.ToLower(strings.Fields(c.Engine)[0])
	r.Comparable = false
	r.Reason = "a serving benchmark whose lengths the case does not state (ShareGPT runs are replayed, sharegpt.go)"
	if !okIn || !okOut {
		r.Desc = modelID(c.Model)
	}
	return r, nil
}

func evalC(c rawCase, r Result, req calc.Request) (Result, error) {
	r.Engine = "llamacpp"
	req.Engine = "llamacpp"
	req.Quantization = strings.ToLower(c.Quantization)
	req.MaxModelLen = calc.Int(4096)
	// tg512 starts from an empty context: the mean context is 256 tokens.
	req.Workload = &calc.Workload{InputTokens: calc.Int(1), OutputTokens: calc.Int(512), Concurrency: calc.Int(1)}
	r.Metric = "step_time_ms"
	tps, _ := measured(c, "decode_tok_s_tg512")
	r.Measured = 1000 / tps
	r.Desc = c.GPU + " " + c.Quantization
	rep, err := calc.Evaluate(req)
	if err != nil {
		return r, err
	}
	if rep.Decode == nil {
		r.Comparable, r.Reason = false, "does not fit"
		return r, nil
	}
	r.Predicted = rep.Decode.StepTimeMs
	r.Key = keyOf(&rep, bands.Step, rep.Decode.BatchSize)
	return r, nil
}

// evalCPrefill compares a group C case's llama-bench pp512 (prompt
// tokens per second over one 512-token prompt, one ubatch) as the time to
// first token of a 512-token prompt at concurrency 1: 512 / pp512 seconds.
func evalCPrefill(c rawCase, r Result, req calc.Request, pp float64) (Result, error) {
	const prompt = 512
	r.Engine = "llamacpp"
	req.Engine = "llamacpp"
	req.Quantization = strings.ToLower(c.Quantization)
	req.MaxModelLen = calc.Int(4096)
	req.Workload = &calc.Workload{InputTokens: calc.Int(prompt), OutputTokens: calc.Int(1), Concurrency: calc.Int(1)}
	r.Metric = "ttft_ms"
	r.Measured = prompt / pp * 1000
	r.Desc = c.GPU + " " + c.Quantization + " pp512"
	return withTTFT(r, req)
}

// Summary aggregates comparable results of one group and engine.
type Summary struct {
	Group, Engine, Metric string
	N                     int
	MedianAbsErr          float64
	// MedianErr is the median signed error (predicted/measured - 1):
	// negative when the engine is optimistic about a time.
	MedianErr                   float64
	Within5, Within15, Within20 float64 // fractions of cases
}

// Summarise groups comparable results by group, engine and metric.
func Summarise(rs []Result) []Summary {
	return Breakdown(rs, func(r Result) string { return "" })
}

// Breakdown groups comparable results by group, engine, metric and the
// label by returns (a TP size, a GPU, a batch bucket); the label is put in
// Group after the group, separated by a space.
func Breakdown(rs []Result, by func(Result) string) []Summary {
	type key struct{ g, e, m string }
	abs := map[key][]float64{}
	signed := map[key][]float64{}
	for _, r := range rs {
		if !r.Comparable {
			continue
		}
		g := r.Group
		if l := by(r); l != "" {
			g += " " + l
		}
		k := key{g, r.Engine, r.Metric}
		abs[k] = append(abs[k], math.Abs(r.RelErr()))
		signed[k] = append(signed[k], r.RelErr())
	}
	var out []Summary
	for k, errs := range abs {
		sort.Float64s(errs)
		sg := signed[k]
		sort.Float64s(sg)
		s := Summary{Group: k.g, Engine: k.e, Metric: k.m, N: len(errs), MedianAbsErr: Median(errs), MedianErr: Median(sg)}
		for _, e := range errs {
			if e <= 0.05 {
				s.Within5++
			}
			if e <= 0.15 {
				s.Within15++
			}
			if e <= 0.20 {
				s.Within20++
			}
		}
		n := float64(len(errs))
		s.Within5, s.Within15, s.Within20 = s.Within5/n, s.Within15/n, s.Within20/n
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Engine != b.Engine {
			return a.Engine < b.Engine
		}
		if a.Metric != b.Metric {
			return a.Metric < b.Metric
		}
		return labelLess(a.Group, b.Group)
	})
	return out
}

// labelLess orders labels by their text, numbers within them by value
// ("A tp2" before "A tp16", "B b1-4" before "B b17-64").
func labelLess(a, b string) bool {
	if x, y := numPrefixSplit(a), numPrefixSplit(b); x.head == y.head && x.ok && y.ok && x.n != y.n {
		return x.n < y.n
	}
	return a < b
}

type split struct {
	head string
	n    int
	ok   bool
}

// numPrefixSplit splits "B tp16" into ("B tp", 16) at its first digit run.
func numPrefixSplit(s string) split {
	i := strings.IndexAny(s, "0123456789")
	if i < 0 {
		return split{head: s}
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(s[i:j])
	return split{head: s[:i], n: n, ok: err == nil}
}

// MetricClass is the quantity a metric measures, as the aims of issue 12
// state them: "kv_capacity" (tokens, blocks, GiB), "decode_step" (time per
// output token: a step, or a serving run's median TPOT), "throughput"
// (output tokens/s, or a wall time that is output tokens over a token
// rate: a static batch's, or a serving run's median end-to-end latency)
// and "ttft".
func MetricClass(metric string) string {
	switch metric {
	case "capacity_tokens", "num_blocks", "kv_cache_gib":
		return "kv_capacity"
	case "step_time_ms", "tpot_ms":
		return "decode_step"
	case "output_tokens_per_s", "batch_latency_s", "e2e_latency_ms":
		return "throughput"
	case "ttft_ms":
		return "ttft"
	}
	return metric
}

// BatchBucket labels a batch or concurrency: "b1", "b2-4", "b5-16",
// "b17-64", "b65-256", "b257+", or "b?" when the case fixes none.
func BatchBucket(b int) string {
	switch {
	case b <= 0:
		return "b?"
	case b == 1:
		return "b1"
	case b <= 4:
		return "b2-4"
	case b <= 16:
		return "b5-16"
	case b <= 64:
		return "b17-64"
	case b <= 256:
		return "b65-256"
	}
	return "b257+"
}

// MedianOf returns the median of xs, which it sorts (0 for none).
func MedianOf(xs []float64) float64 {
	sort.Float64s(xs)
	return Median(xs)
}

// Median returns the median of sorted xs (0 for none).
func Median(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// Objective returns the mean squared log error of the comparable results
// of one engine (the quantity the calibration minimises).
func Objective(rs []Result, engine string) (float64, int) {
	var sum float64
	n := 0
	for _, r := range rs {
		if !r.Comparable || r.Engine != engine || r.Measured <= 0 || r.Predicted <= 0 {
			continue
		}
		l := math.Log(r.Predicted / r.Measured)
		sum += l * l
		n++
	}
	if n == 0 {
		return 0, 0
	}
	return sum / float64(n), n
}

// LoadFiles reads and evaluates the cases of every file, in order.
func LoadFiles(paths []string) ([]Result, error) {
	var out []Result
	for _, p := range paths {
		rs, err := Load(p)
		if err != nil {
			return nil, errors.New(p + ": " + err.Error())
		}
		out = append(out, rs...)
	}
	return out, nil
}
