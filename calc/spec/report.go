package spec

import "github.com/modelrefs/throughput/calc/release"

// Report is the answer to a Request. Every throughput figure carries the
// batch size and context length it holds for, and the latency beside it.
// Sizes are bytes, times milliseconds, rates tokens (or requests) per
// second; memory figures are per GPU unless the name says otherwise.
type Report struct {
	_ noCompare
	// Version is the engine version that computed the report.
	Version string `json:"version"`
	// Fits is false when the weights (plus the engine's fixed overheads)
	// leave no room for a KV cache that can hold one max_model_len
	// sequence; most sections are then omitted and Warnings say why.
	Fits     bool          `json:"fits"`
	Model    ModelInfo     `json:"model"`
	Hardware HardwareInfo  `json:"hardware"`
	Config   Config        `json:"config"`
	Memory   MemoryReport  `json:"memory"`
	KVCache  KVCacheReport `json:"kv_cache"`
	// Decode is one pure decode step (no prompt in it) at the workload's
	// batch and mean context; serving is the steady state a benchmark
	// measures, prompts and decodes sharing the steps.
	Decode *DecodeReport `json:"decode,omitempty"`
	// Prefill is the prompt of the workload, alone on the server.
	Prefill *PrefillReport `json:"prefill,omitempty"`
	// Serving is the workload's steady state under continuous batching:
	// the latencies and rates a benchmark client measures at the
	// workload's concurrency or request rate (docs/MODEL.md section 5b).
	Serving *ServingReport `json:"serving,omitempty"`
	// BatchCeiling is the largest batch that can run and what limits it.
	BatchCeiling BatchCeiling `json:"batch_ceiling"`
	// Preemption is when KV demand outgrows the pool under the workload.
	Preemption *PreemptionReport `json:"preemption,omitempty"`
	// Best is the batch with the highest throughput within the SLO.
	Best *BestReport `json:"best,omitempty"`
	// Sweep is throughput and latency against batch size.
	Sweep []SweepPoint `json:"sweep,omitempty"`
	// Cost is the price per million output tokens.
	Cost *CostReport `json:"cost,omitempty"`
	// Energy is the GPUs' power and the energy per output token at the
	// cost section's operating point (docs/MODEL.md section 5c).
	Energy *EnergyReport `json:"energy,omitempty"`
	// Features shows what the request's serving features changed.
	Features *FeaturesReport `json:"features,omitempty"`
	// Sessions is a session workload's analytic steady state
	// (workload.sessions).
	Sessions *SessionsReport `json:"sessions,omitempty"`
	// Simulation is the step-by-step simulation, when asked for.
	Simulation *SimulationReport `json:"simulation,omitempty"`
	// Fixes are the nearest changes that make a deployment that does not
	// fit, does not start or is overloaded work, each checked by the
	// engine; those that make it start are ranked by what meets the
	// workload (the latency budget, the request rate), then the price per
	// hour; omitted when nothing fails.
	Fixes []Fix `json:"fixes,omitempty"`
	// StartupLog sets the figures of the request's startup_log beside the
	// engine's, when one is given.
	StartupLog *StartupLogReport `json:"startup_log,omitempty"`
	// Bands are the 80 % prediction intervals of the headline figures,
	// one per figure that has one (docs/MODEL.md section 7).
	Bands []Band `json:"bands,omitempty"`
	// Calibration is the fit to the request's calibration, when one is
	// given.
	Calibration *CalibrationReport `json:"calibration,omitempty"`
	// Warnings are conditions the user should know about, as text.
	Warnings []Warning `json:"warnings"`
}

// Warning is a non-fatal note with a stable code.
type Warning struct {
	_       noCompare
	Code    string `json:"code"`
	Message string `json:"message"`
}

// ModelInfo summarises the resolved model.
type ModelInfo struct {
	_    noCompare
	ID   string `json:"id"`
	Name string `json:"name"`
	// Architecture is "dense", "moe", "mla", "moe+mla", "hybrid", each
	// with "+sliding_window" when some layers slide.
	Architecture string `json:"architecture"`
	Layers       int    `json:"num_hidden_layers"`
	ParamsTotal  int64  `json:"params_total"`
	ParamsActive int64  `json:"params_active_per_token"`
	// WeightDtype and WeightBits describe how the weights are stored.
	WeightFormat string  `json:"weight_format"`
	Quantization string  `json:"quantization"`
	WeightBits   float64 `json:"bits_per_quantized_weight,omitempty"`
	MaxContext   int     `json:"max_position_embeddings"`
}

// HardwareInfo summarises the resolved accelerator.
type HardwareInfo struct {
	_                   noCompare
	ID                  string `json:"id"`
	Name                string `json:"name"`
	MemoryBytes         int64  `json:"memory_bytes"`
	MemoryReportedBytes int64  `json:"memory_reported_bytes"`
	// UnifiedMemory is true when the accelerator's memory is system memory
	// shared with the OS (memory.free_at_start_bytes is then below the total).
	UnifiedMemory            bool    `json:"unified_memory"`
	MemoryBandwidthBytesPerS float64 `json:"memory_bandwidth_bytes_per_s"`
	// PeakFLOPSPerS is the dense peak at the precision the matmuls run in.
	PeakFLOPSPerS float64 `json:"peak_flops_per_s"`
	Precision     string  `json:"compute_precision"`
}

// Config is the resolved setting every figure of the report holds for.
type Config struct {
	_      noCompare
	Engine string `json:"engine"`
	// EngineVersion is the engine release the figures model (the request's
	// engine_version, resolved; empty for an engine without releases).
	EngineVersion        string `json:"engine_version,omitempty"`
	TensorParallelSize   int    `json:"tensor_parallel_size"`
	PipelineParallelSize int    `json:"pipeline_parallel_size"`
	GPUs                 int    `json:"num_gpus"`
	// P2P is false when the request says the GPUs lack peer-to-peer
	// access (its p2p: false): the all-reduces are staged through host
	// memory. Omitted otherwise.
	P2P *bool `json:"p2p,omitempty"`
	// FlashInferSampler is true when the request says vLLM samples with
	// FlashInfer (its flashinfer_sampler): no sorted vocabulary in the
	// profile run. Omitted otherwise.
	FlashInferSampler    *bool   `json:"flashinfer_sampler,omitempty"`
	Dtype                string  `json:"dtype"`
	KVCacheDtype         string  `json:"kv_cache_dtype"`
	GPUMemoryUtilization float64 `json:"gpu_memory_utilization"`
	BlockSize            int     `json:"block_size"`
	MaxModelLen          int     `json:"max_model_len"`
	MaxNumSeqs           int     `json:"max_num_seqs"`
	MaxNumBatchedTokens  int     `json:"max_num_batched_tokens"`
	InputTokens          int     `json:"input_tokens"`
	OutputTokens         int     `json:"output_tokens"`
	Concurrency          int     `json:"concurrency,omitempty"`
	RequestRate          float64 `json:"request_rate,omitempty"`
	// TTFTBudgetMs and TPOTBudgetMs are the request's latency budget
	// (slo.ttft_ms, slo.tpot_ms), when it gives one.
	TTFTBudgetMs float64 `json:"ttft_budget_ms,omitempty"`
	TPOTBudgetMs float64 `json:"tpot_budget_ms,omitempty"`
	// Efficiencies are the engine profile's fitted parameters used.
	Efficiencies Efficiencies `json:"efficiencies"`
}

// Efficiencies are an engine profile's fitted step-model terms (package
// calc/release defines them beside the profiles).
type Efficiencies = release.Efficiencies

// MemoryReport is the memory budget of one GPU (the tightest pipeline
// stage), the way vLLM sizes it: requested = total * gpu_memory_utilization,
// kv_cache = requested - weights - activation - non_torch.
type MemoryReport struct {
	_          noCompare
	TotalBytes int64 `json:"total_bytes"`
	// FreeAtStartBytes is the memory free to the engine when it starts: the total
	// on a discrete GPU, less what the OS holds on a unified-memory machine
	// (hardware.Accelerator.FreeMemory). vLLM refuses to start when
	// requested_bytes exceeds it; engines that size their pool from free
	// memory (LMDeploy, TensorRT-LLM, llama.cpp) start from it.
	FreeAtStartBytes int64 `json:"free_at_start_bytes"`
	RequestedBytes   int64 `json:"requested_bytes"`
	WeightsBytes     int64 `json:"weights_bytes"`
	ActivationBytes  int64 `json:"activation_bytes"`
	NonTorchBytes    int64 `json:"non_torch_bytes"`
	KVCacheBytes     int64 `json:"kv_cache_bytes"`
	// CUDAGraphBytes is the profiler's CUDA-graph estimate, taken from the
	// pool by the vLLM releases that subtract it (0.21 on; 0 otherwise).
	CUDAGraphBytes int64 `json:"cuda_graph_bytes,omitempty"`
	// FeatureBytes is the speculative draft's weights and the LoRA slots,
	// also taken from the pool (0 without them).
	FeatureBytes int64 `json:"feature_bytes,omitempty"`
	// Sources says, when the request has a startup_log that the engine
	// applies, which of these figures are the log's and which the
	// engine's own (absent without one: every figure is modelled).
	Sources *MemorySources `json:"sources,omitempty"`
}

// MemorySources labels each memory figure of a deployment calibrated by
// its start-up log (docs/MODEL.md section 3, "Calibrating from a start-up
// log"). Each is one of:
//   - "measured": the log's figure, unchanged;
//   - "derived": computed from the log's figures: moved from the log's
//     settings to the request's as vLLM's profiler would (another
//     gpu_memory_utilization, max_num_seqs, max_num_batched_tokens or,
//     under V0, max_model_len), or the share of what the logged figures
//     leave that falls to a term the log does not state;
//   - "modelled": the engine's own figure.
type MemorySources struct {
	_          noCompare
	Requested  string `json:"requested"`
	Weights    string `json:"weights"`
	Activation string `json:"activation"`
	NonTorch   string `json:"non_torch"`
	CUDAGraph  string `json:"cuda_graph"`
	KVCache    string `json:"kv_cache"`
}

// KVCacheReport is the paged cache and its capacity.
type KVCacheReport struct {
	_ noCompare
	// BytesPerToken is one token's cache over all layers and all tensor
	// ranks, unpaged (what a token costs the deployment).
	BytesPerToken float64 `json:"bytes_per_token"`
	// BytesPerTokenPerGPU is the same on one GPU of the tightest stage.
	BytesPerTokenPerGPU float64 `json:"bytes_per_token_per_gpu"`
	// StateBytesPerSequence is the constant Mamba/linear-attention state
	// of one sequence over all layers and ranks.
	StateBytesPerSequence float64 `json:"state_bytes_per_sequence,omitempty"`
	BlockSize             int     `json:"block_size"`
	NumBlocks             int64   `json:"num_blocks"`
	// CapacityTokens is vLLM's "GPU KV cache size" for the whole
	// tensor-parallel group.
	CapacityTokens int64 `json:"capacity_tokens"`
	// MaxConcurrency is vLLM's "Maximum concurrency for max_model_len
	// tokens per request".
	MaxConcurrency float64   `json:"max_concurrency"`
	MaxModelLen    int       `json:"max_model_len"`
	Groups         []KVGroup `json:"groups"`
}

// KVGroup is one layer group of the paged cache.
type KVGroup struct {
	_      noCompare
	Kind   string `json:"kind"`
	Layers int    `json:"layers"`
	Window int    `json:"window,omitempty"`
}

// DecodeReport is one decode step.
type DecodeReport struct {
	_             noCompare
	BatchSize     int     `json:"batch_size"`
	ContextTokens int     `json:"context_tokens"`
	StepTimeMs    float64 `json:"step_time_ms"`
	// TokensPerS is the aggregate output rate: batch / step time.
	TokensPerS float64 `json:"tokens_per_s"`
	// TokensPerSPerSequence is what one user sees: 1 / step time.
	TokensPerSPerSequence float64 `json:"tokens_per_s_per_sequence"`
	// Bound is "memory" or "compute": which term of the roofline binds.
	Bound               string  `json:"bound"`
	MemoryTimeMs        float64 `json:"memory_time_ms"`
	ComputeTimeMs       float64 `json:"compute_time_ms"`
	CommunicationTimeMs float64 `json:"communication_time_ms"`
	OverheadMs          float64 `json:"overhead_ms"`
	// WeightsReadBytes and KVReadBytes are what one GPU reads per step.
	WeightsReadBytes int64 `json:"weights_read_bytes"`
	KVReadBytes      int64 `json:"kv_read_bytes"`
	// FLOPs is the work of one GPU per step.
	FLOPs float64 `json:"flops"`
	// KVCacheUsage is the fraction of the block pool the batch holds.
	KVCacheUsage float64 `json:"kv_cache_usage"`
}

// ServingReport is a server's steady state under the workload: requests
// arriving (a request rate) or resubmitted (a concurrency) forever, each
// of input_tokens then output_tokens, under continuous batching. Its
// latencies are means over requests, as `vllm bench serve` and SGLang's
// bench_serving report them; its step mixes the running decodes with the
// prompts admitted beside them, so its TPOT is longer than decode's pure
// decode step (docs/MODEL.md section 5b). Present when the workload gives
// a concurrency or a request_rate.
type ServingReport struct {
	_ noCompare
	// Concurrency is the closed loop's requests in flight (the workload's
	// concurrency), or the mean number in flight a request rate sustains
	// (Little's law: requests_per_s x e2e_ms / 1000), in requests per
	// data-parallel rank.
	Concurrency float64 `json:"concurrency"`
	// RequestRate is the open loop's arrival rate (the workload's
	// request_rate), in requests per second per data-parallel rank;
	// absent for a closed loop.
	RequestRate float64 `json:"request_rate,omitempty"`
	// InputTokens is each request's prompt length, in tokens.
	InputTokens int `json:"input_tokens"`
	// OutputTokens is each request's output length, in tokens.
	OutputTokens int `json:"output_tokens"`
	// DecodeBatch is the mean number of sequences decoding in a step, as
	// a decoding request sees it (itself included), in sequences.
	DecodeBatch float64 `json:"decode_batch"`
	// PrefillTokensPerStep is the mean number of prompt tokens a step
	// computes beside the decodes (prompts admitted in steady state), in
	// tokens per step.
	PrefillTokensPerStep float64 `json:"prefill_tokens_per_step"`
	// Order is how prompts share the steps with decodes: "mixed" (vLLM's
	// chunked prefill: one step carries both) or "prefill_first"
	// (SGLang, vLLM V0: a prompt's step runs alone and the decodes wait).
	Order string `json:"order"`
	// DecodeStepMs is the pure decode step at decode_batch, in
	// milliseconds: no prompt in it (decode's figure at this batch).
	DecodeStepMs float64 `json:"decode_step_ms"`
	// TPOTMs is the mean time per output token after the first, in
	// milliseconds: (e2e_ms - ttft_ms) / (output_tokens - 1).
	TPOTMs float64 `json:"tpot_ms"`
	// ITLMs is the median gap between two streamed chunks of a request,
	// in milliseconds: the pure decode step (times the tokens per step
	// under speculative decoding) when fewer than half the steps carry a
	// prompt, else the mixed step.
	ITLMs float64 `json:"itl_ms"`
	// TTFTMs is the mean time to first token, in milliseconds:
	// front end + the wait for the running step + queue_ms + the
	// prompt's own prefill step(s).
	TTFTMs float64 `json:"ttft_ms"`
	// QueueMs is the part of ttft_ms spent waiting for a free slot
	// (max_num_seqs, the KV cache or max_num_batched_tokens full), in
	// milliseconds.
	QueueMs float64 `json:"queue_ms"`
	// E2EMs is the mean request latency, in milliseconds: ttft_ms +
	// (output_tokens - 1) x tpot_ms.
	E2EMs float64 `json:"e2e_ms"`
	// FirstWaveTTFTMs is a closed loop's first requests' mean time to
	// first token, in milliseconds: every user sends at once to an idle
	// server, so their prompts wait for each other's prefill. A benchmark
	// of N requests at concurrency c (vllm bench serve, SGLang's
	// bench_serving) averages c of these and N - c of ttft_ms. 0 for a
	// request rate.
	FirstWaveTTFTMs float64 `json:"first_wave_ttft_ms,omitempty"`
	// RequestsPerS is the deployment's completion rate, in requests per
	// second: every data-parallel rank's, each rank serving the workload
	// (concurrency and request_rate are a rank's). A closed loop's is
	// concurrency / the server's request latency (e2e_ms less the front
	// end) times the ranks; an open loop's is its arrival rate, or its
	// capacity when saturated.
	RequestsPerS float64 `json:"requests_per_s"`
	// OutputTokensPerS is requests_per_s x output_tokens, in output
	// tokens per second (every data-parallel rank's).
	OutputTokensPerS float64 `json:"output_tokens_per_s"`
	// TotalTokensPerS is requests_per_s x (input_tokens + output_tokens),
	// in tokens per second (every data-parallel rank's).
	TotalTokensPerS float64 `json:"total_tokens_per_s"`
	// Saturated is true when the workload asks more than the server
	// completes: a request rate above its capacity (requests_per_s is
	// then the capacity, and ttft_ms leaves out the queue, which grows
	// without bound) or a concurrency above the requests it can run at
	// once (the rest wait: queue_ms).
	Saturated bool `json:"saturated,omitempty"`
	// LimitedBy names what bounds the running batch when saturated:
	// "max_num_seqs", "kv_cache" or "max_num_batched_tokens".
	LimitedBy string `json:"limited_by,omitempty"`
}

// PrefillReport is one prompt's prefill.
type PrefillReport struct {
	_           noCompare
	InputTokens int `json:"input_tokens"`
	// TimeMs is the prompt's prefill step(s) on an idle server, in
	// milliseconds, without the front end.
	TimeMs float64 `json:"time_ms"`
	// TTFTMs is the time to first token of a request arriving at an idle
	// server, in milliseconds: the front end (API server, tokenisation,
	// context phase) and the prefill step(s), whose last samples the
	// first token.
	TTFTMs float64 `json:"ttft_ms"`
	// TokensPerS is the prompt's tokens over time_ms.
	TokensPerS float64 `json:"tokens_per_s"`
	Bound      string  `json:"bound"`
	// Chunks is the number of scheduler steps the prompt takes at
	// max_num_batched_tokens per step.
	Chunks int `json:"chunks"`
}

// BatchCeiling is the largest batch that can run at the workload's final
// context (input + output tokens per sequence).
type BatchCeiling struct {
	_             noCompare
	BatchSize     int `json:"batch_size"`
	ContextTokens int `json:"context_tokens"`
	// LimitedBy is "kv_cache", "max_num_seqs", "max_num_batched_tokens",
	// "latency_budget" or "weights_do_not_fit".
	LimitedBy  string  `json:"limited_by"`
	StepTimeMs float64 `json:"step_time_ms"`
	TokensPerS float64 `json:"tokens_per_s"`
	// TokensPerSPerSequence is what each user sees at the ceiling.
	TokensPerSPerSequence float64 `json:"tokens_per_s_per_sequence"`
	// BatchSizeWithoutBudget is the ceiling without the TPOT budget: the
	// smaller of the KV cache's and the scheduler's limits. It equals
	// BatchSize unless LimitedBy is "latency_budget".
	BatchSizeWithoutBudget int `json:"batch_size_without_budget"`
	// LimitedByWithoutBudget is what limits BatchSizeWithoutBudget:
	// "kv_cache", "max_num_seqs" or "max_num_batched_tokens".
	LimitedByWithoutBudget string `json:"limited_by_without_budget,omitempty"`
}

// PreemptionReport says when the scheduler starts to preempt.
type PreemptionReport struct {
	_ noCompare
	// OnsetConcurrency is the largest number of sequences that can all
	// run to their last output token without exhausting the block pool;
	// one more and vLLM preempts.
	OnsetConcurrency int `json:"onset_concurrency"`
	// OnsetConcurrencyLockstep is the onset when all sequences start
	// together (a burst) and reach their last token at once: the KV
	// ceiling at input+output tokens.
	OnsetConcurrencyLockstep int `json:"onset_concurrency_lockstep"`
	// Reachable is false when the scheduler's cap (max_num_seqs or
	// max_num_batched_tokens) binds before the KV cache fills, so the
	// scheduler never preempts for memory.
	Reachable bool `json:"reachable"`
	// OnsetRequestRate is the Poisson arrival rate (requests/s) at which
	// the requests in flight, fluctuating around their mean c (Little's
	// law), first reach the onset: c + 2*sqrt(c) = onset_concurrency.
	OnsetRequestRate float64 `json:"onset_request_rate"`
	// SaturationRequestRate is the serving rate at the largest batch the
	// server runs (the onset concurrency, or the scheduler's cap when that
	// binds first): where output throughput levels off; arrivals above it
	// queue.
	SaturationRequestRate float64 `json:"saturation_request_rate"`
	// Utilization is a request-rate workload's arrival rate over
	// SaturationRequestRate; above 1 the server is overloaded (absent for
	// other workloads).
	Utilization float64 `json:"utilization,omitempty"`
	// RecomputeOverhead is the extra prefill tokens per delivered output
	// token at the workload's concurrency (0 below the onset).
	RecomputeOverhead float64 `json:"recompute_overhead"`
	// WorkPerOutputToken is total tokens processed (prompt, recomputed
	// and output) per delivered output token at the workload's
	// concurrency; it grows past the onset.
	WorkPerOutputToken float64 `json:"work_per_output_token"`
	ContextTokens      int     `json:"context_tokens"`
	Concurrency        int     `json:"concurrency"`
}

// BestReport is the best batch under the latency budget.
type BestReport struct {
	_             noCompare
	BatchSize     int     `json:"batch_size"`
	ContextTokens int     `json:"context_tokens"`
	StepTimeMs    float64 `json:"step_time_ms"`
	TTFTMs        float64 `json:"ttft_ms"`
	TokensPerS    float64 `json:"tokens_per_s"`
	// TokensPerSPerSequence is what each user sees at that batch.
	TokensPerSPerSequence float64 `json:"tokens_per_s_per_sequence"`
	// LimitedBy is what stops a larger batch: "tpot", "ttft", or the
	// batch ceiling's reason.
	LimitedBy string `json:"limited_by"`
	// Feasible is false when even batch 1 misses the budget.
	Feasible bool `json:"feasible"`
}

// SweepPoint is one batch size of the sweep at the workload's mean context.
type SweepPoint struct {
	_                     noCompare
	BatchSize             int     `json:"batch_size"`
	ContextTokens         int     `json:"context_tokens"`
	StepTimeMs            float64 `json:"step_time_ms"`
	TokensPerS            float64 `json:"tokens_per_s"`
	TokensPerSPerSequence float64 `json:"tokens_per_s_per_sequence"`
	// KVCacheUsage is the fraction of the block pool the batch needs; above
	// 1 the batch cannot run without preemption.
	KVCacheUsage float64 `json:"kv_cache_usage"`
	Bound        string  `json:"bound"`
	// TokensPerSWithoutSpeculation is the same batch's rate without
	// speculative decoding (only when it is on): where it passes
	// tokens_per_s, speculation stops paying.
	TokensPerSWithoutSpeculation float64 `json:"tokens_per_s_without_speculation,omitempty"`
}

// CostReport is the price of output tokens.
type CostReport struct {
	_ noCompare
	// GPUHourUSD is the price of one GPU-hour used: the request's
	// gpu_hour_usd, else the accelerator's default (hardware.DefaultPrice,
	// docs/MODEL.md section 12).
	GPUHourUSD float64 `json:"gpu_hour_usd"`
	// PriceKind says where GPUHourUSD comes from: "user" (the request's
	// gpu_hour_usd), "cloud_on_demand" (an on-demand cloud list price) or
	// "purchase_amortised" (a purchase price over 4 years plus power);
	// PriceSource names the list or page and PriceDate when it states the
	// price (both empty for "user").
	PriceKind   string `json:"price_kind"`
	PriceSource string `json:"price_source,omitempty"`
	PriceDate   string `json:"price_date,omitempty"`
	GPUs        int    `json:"num_gpus"`
	// UsdPerMillionOutputTokens is at the workload's steady state (the
	// serving section's output tokens/s, its decode batch below) when the
	// workload gives a concurrency or a request rate; else at the batch
	// below (the best batch under the SLO when one is given, else the
	// batch ceiling), counting prefill time.
	UsdPerMillionOutputTokens float64 `json:"usd_per_million_output_tokens"`
	BatchSize                 int     `json:"batch_size"`
	ContextTokens             int     `json:"context_tokens"`
	TokensPerS                float64 `json:"tokens_per_s"`
	// USDPerKWh is the electricity price the power's cost is at: the
	// request's usd_per_kwh, else 0.1282 (EIA, hardware.USDPerKWh).
	// PowerUSDPerMillionOutputTokens is the GPUs' electricity per million
	// output tokens at that price (energy.joules_per_output_token), a part
	// of what a rented GPU-hour already includes, shown apart. Both absent
	// without an energy section.
	USDPerKWh                      float64 `json:"usd_per_kwh,omitempty"`
	PowerUSDPerMillionOutputTokens float64 `json:"power_usd_per_million_output_tokens,omitempty"`
}

// EnergyReport is the GPUs' power and energy at the operating point of
// the cost section (the workload's steady state, else the best batch or
// the ceiling): docs/MODEL.md section 5c. Only the accelerators' own
// power is counted (no host, network or cooling).
type EnergyReport struct {
	_ noCompare
	// RatedPowerW is one GPU's rated power (the request's gpu_power_w,
	// else the datasheet's TDP, hardware.DefaultBoardPower); PowerSource
	// names the datasheet ("user" for gpu_power_w).
	RatedPowerW float64 `json:"rated_power_w"`
	PowerSource string  `json:"power_source"`
	// MemoryShare and ComputeShare are the fractions of the step's time
	// that its memory traffic and its arithmetic each take at the model's
	// rates (the step's memory_s and compute_s over its duration, each at
	// most 1): the utilisations the power follows.
	MemoryShare  float64 `json:"memory_share"`
	ComputeShare float64 `json:"compute_share"`
	// GPUPowerW is one GPU's mean power while it serves, in watts:
	// rated x (idle + (memory - idle) x memory_share + (1 - memory) x
	// compute_share), the fractions idle 0.15 and memory-bound 0.40 of the
	// rated power (docs/MODEL.md section 5c).
	GPUPowerW float64 `json:"gpu_power_w"`
	GPUs      int     `json:"num_gpus"`
	// DeploymentKW is every GPU's power together, in kW.
	DeploymentKW float64 `json:"deployment_kw"`
	// JoulesPerOutputToken is the GPUs' energy per output token (prompt
	// processing included): deployment power over output tokens/s.
	JoulesPerOutputToken float64 `json:"joules_per_output_token"`
	// OutputTokensPerSPerKW is output tokens/s per kW of GPU power.
	OutputTokensPerSPerKW float64 `json:"output_tokens_per_s_per_kw"`
	// BatchSize and TokensPerS are the operating point (the cost
	// section's).
	BatchSize  int     `json:"batch_size"`
	TokensPerS float64 `json:"tokens_per_s"`
}

// Engine is a serving engine's profile, EngineVersion one of its releases
// and EngineDefaults the engine settings' defaults under it (package
// calc/release).
type (
	Engine         = release.Engine
	EngineVersion  = release.EngineVersion
	EngineDefaults = release.EngineDefaults
)

// Warn adds a warning to the report: code names the condition
// (Warning.Code), msg says it to a reader.
func (r *Report) Warn(code, msg string) {
	r.Warnings = append(r.Warnings, Warning{Code: code, Message: msg})
}

// noCompare makes a report type incomparable, so that the compiler
// generates no equality function for it (the browser engine's size
// budget: a report is never compared, only written).
type noCompare [0]func()
