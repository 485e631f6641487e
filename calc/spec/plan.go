package spec

// PlanRequest asks the opposite question of Request: for a model, a
// workload and a latency budget, what to deploy. Plan searches
// accelerators, GPUs per replica, tensor/pipeline splits (and, for an MoE
// model, data-parallel attention with expert parallelism), weight
// precisions, KV-cache dtypes, engines, a small scheduler grid, replicas
// and aggregated against disaggregated serving (docs/MODEL.md section
// "The deployment planner").
type PlanRequest struct {
	_ noCompare
	// Model is a catalog id (Hugging Face id, case-insensitive) or alias.
	// Exactly one of Model and ModelConfig is required.
	Model string `json:"model,omitempty"`
	// ModelConfig is a Hugging Face config.json object, as published.
	ModelConfig map[string]any `json:"model_config,omitempty"`
	// Workload is the traffic to carry: a request rate or a number of
	// concurrent users (exactly one), and the request lengths.
	Workload PlanWorkload `json:"workload"`
	// SLO is the latency budget every returned deployment meets.
	SLO PlanSLO `json:"slo"`
	// Constraints narrow the search.
	Constraints *PlanConstraints `json:"constraints,omitempty"`
	// Search overrides the search grid.
	Search *PlanSearch `json:"search,omitempty"`
	// Verify replays the top deployments in the simulator.
	Verify *PlanVerify `json:"verify,omitempty"`
	// Limit is how many deployments the report lists (default 10).
	Limit *int `json:"limit,omitempty"`
	// SpeculativeConfig runs every candidate with speculative decoding,
	// as the evaluate request's does (its TPOT is a step over the tokens
	// the step yields; the draft's weights and cache come out of the KV
	// budget).
	SpeculativeConfig *SpeculativeConfig `json:"speculative_config,omitempty"`
}

// PlanWorkload is the traffic a plan must carry.
type PlanWorkload struct {
	_ noCompare
	// RequestRate is the arrival rate in requests per second (Poisson).
	RequestRate *float64 `json:"request_rate,omitempty"`
	// Concurrency is the number of users, each sending its next request
	// when the last one finishes (closed loop).
	Concurrency *int `json:"concurrency,omitempty"`
	// Burst is a finite batch of requests sent at once, as a benchmark
	// with an infinite request rate and no concurrency limit sends them
	// (vllm bench serve --request-rate inf --num-prompts N): judged by
	// its first wave, the prompts waiting for each other's prefill
	// (serving.first_wave_ttft_ms), served aggregated.
	Burst *int `json:"burst,omitempty"`
	// InputTokens is the prompt length of each request (default 1024).
	InputTokens *int `json:"input_tokens,omitempty"`
	// OutputTokens is the generated length of each request (default 256).
	OutputTokens *int `json:"output_tokens,omitempty"`
	// InputDistribution and OutputDistribution make the lengths vary, as
	// the simulator accepts them; the analytic search uses their means
	// (default input_tokens and output_tokens) and the simulator the
	// distributions.
	InputDistribution  *LengthDistribution `json:"input_distribution,omitempty"`
	OutputDistribution *LengthDistribution `json:"output_distribution,omitempty"`
	// SharedPrefixTokens, PrefixHitRate and NumPrefixes state a shared
	// prefix as the evaluate request's workload does (prefix caching):
	// every candidate's figures, and its evaluate request, include it.
	SharedPrefixTokens *int     `json:"shared_prefix_tokens,omitempty"`
	PrefixHitRate      *float64 `json:"prefix_hit_rate,omitempty"`
	NumPrefixes        *int     `json:"num_prefixes,omitempty"`
}

// PlanSLO is a latency budget: each bound applies to the mean or to a
// percentile of its latency.
type PlanSLO struct {
	_ noCompare
	// TTFTMs bounds the time to first token, in milliseconds.
	TTFTMs *float64 `json:"ttft_ms,omitempty"`
	// TPOTMs bounds the time per output token, in milliseconds.
	TPOTMs *float64 `json:"tpot_ms,omitempty"`
	// TTFTStat and TPOTStat say which statistic a bound holds for:
	// "mean" (default), "p50", "p90" or "p99". The analytic search holds
	// the modelled steady-state figure to the bound; a percentile is
	// checked by the simulator when verify is given.
	TTFTStat string `json:"ttft_stat,omitempty"`
	TPOTStat string `json:"tpot_stat,omitempty"`
}

// PlanConstraints narrow the search; all are optional.
type PlanConstraints struct {
	_ noCompare
	// Accelerators lists the catalog ids allowed (default: every
	// accelerator in the catalog).
	Accelerators []string `json:"accelerators,omitempty"`
	// Engines lists the engines allowed (default "vllm" and "sglang").
	Engines []string `json:"engines,omitempty"`
	// MaxGPUs bounds the GPUs of the whole deployment.
	MaxGPUs *int `json:"max_gpus,omitempty"`
	// NumGPUs holds every deployment to exactly this many GPUs (the best
	// deployment on G GPUs): a layout of g GPUs a replica runs G / g
	// replicas (or prefill plus decode instances), and a layout whose g
	// does not divide G is not searched.
	NumGPUs *int `json:"num_gpus,omitempty"`
	// MaxPowerKW bounds the whole deployment's GPU power in kW at the
	// workload's load (plan deployment_kw: every GPU's power from the
	// energy section's model, docs/MODEL.md section 5c; no host power). A
	// part without a rated power (hardware.DefaultBoardPower) is rejected
	// (max_power_kw) when it is given.
	MaxPowerKW *float64 `json:"max_power_kw,omitempty"`
	// Prices sets the price of one GPU-hour in US dollars per
	// accelerator id, overriding the default price table
	// (hardware.DefaultPrice, docs/MODEL.md section 12) that the
	// calculator's cost section reads too; an accelerator the table does
	// not price is rejected (no_price) unless it is given here. Without
	// accelerators, the search covers the parts rented on demand (a cloud
	// list price) and those priced here; a part the table prices only by
	// its purchase (amortised) is left out (purchase_priced) unless it is
	// named in accelerators or priced here, so that rented and bought
	// parts are not ranked on unlike prices.
	Prices map[string]float64 `json:"prices,omitempty"`
}

// PlanSearch overrides the search grid.
type PlanSearch struct {
	_ noCompare
	// GPUsPerReplica lists the GPUs one replica may span: 1, 2, 4 or 8
	// within one node's interconnect, 16, 32 or 64 within a rack-scale
	// NVLink domain (default 1, 2, 4, 8, and 16, 32, 64 on an NVL72
	// part).
	GPUsPerReplica []int `json:"gpus_per_replica,omitempty"`
	// Precisions lists the weight precisions tried: "published" (the
	// checkpoint's own), "fp8", "int8", "int4", "nvfp4" (NVIDIA's FP4
	// tensor cores), "mxfp4" (MXFP4 expert weights of an MoE model)
	// (default all, each where the chip and engine support it).
	Precisions []string `json:"precisions,omitempty"`
	// KVCacheDtypes lists the KV-cache dtypes tried (default "auto",
	// "fp8").
	KVCacheDtypes []string `json:"kv_cache_dtypes,omitempty"`
	// MaxNumSeqs lists the max_num_seqs values tried (default 128 and
	// 512, either side of vLLM's 256).
	MaxNumSeqs []int `json:"max_num_seqs,omitempty"`
	// MaxNumBatchedTokens lists the max_num_batched_tokens values tried
	// (default 8192).
	MaxNumBatchedTokens []int `json:"max_num_batched_tokens,omitempty"`
	// Disaggregated also tries separate prefill and decode pools (default
	// true), under a request rate or a closed loop of users.
	Disaggregated *bool `json:"disaggregated,omitempty"`
	// DisaggregatedSplits holds the disaggregated deployments to xPyD
	// splits, each "xPyD": x prefill instances for every y decode
	// instances (1 to 16 each, e.g. "1P1D", "2P1D", "1P3D"), at most 8;
	// each deployment is the fewest whole units of its split that carry
	// the load. Default: one free split, the fewest prefill and decode
	// instances each sized to the load.
	DisaggregatedSplits []string `json:"disaggregated_splits,omitempty"`
	// ExpertParallel also tries, for an MoE model under vLLM or SGLang,
	// replicas of data-parallel attention ranks with the experts spread
	// over all their GPUs (default true; aggregated serving).
	ExpertParallel *bool `json:"expert_parallel,omitempty"`
}

// PlanVerify replays the top deployments in the simulator at their load.
// A plan verifies by default (verify absent: the top 5 with 200 requests
// each, fewer requests when that would exceed the work budget); a
// deployment the simulator finds to miss the budget is ranked after those
// that do not, so the headline pick is never one it refutes.
type PlanVerify struct {
	_ noCompare
	// Top is how many of the ranked aggregated deployments are simulated
	// (default 5; 0: none, the analytic ranking alone).
	Top *int `json:"top,omitempty"`
	// NumRequests is the requests simulated per deployment (default 200;
	// given, the runs must fit the work budget or the plan is refused
	// naming it).
	NumRequests *int `json:"num_requests,omitempty"`
	// Seed makes the simulated workload reproducible (default 0).
	Seed *int64 `json:"seed,omitempty"`
}

// PlanReport is the answer to a PlanRequest.
type PlanReport struct {
	_ noCompare
	// Version is the engine version that computed the report.
	Version string `json:"version"`
	// Model is the resolved model.
	Model ModelInfo `json:"model"`
	// Feasible is false when no deployment meets the budget; Answer then
	// says why and what comes closest.
	Feasible bool `json:"feasible"`
	// Answer is the plan in one sentence.
	Answer string `json:"answer"`
	// Candidates is the number of candidate deployments searched.
	Candidates int `json:"candidates"`
	// Deployments are those that meet the budget, cheapest per million
	// output tokens first, at most limit of them.
	Deployments []PlanDeployment `json:"deployments"`
	// Cheapest, FewestGPUs and LowestLatency index Deployments (-1 when
	// none): the lowest $/M tokens, the fewest GPUs (then cheapest) and
	// the lowest TPOT (then TTFT) among all that meet the budget.
	Cheapest      int `json:"cheapest"`
	FewestGPUs    int `json:"fewest_gpus"`
	LowestLatency int `json:"lowest_latency"`
	// Frontier is the Pareto frontier of tokens/s per GPU against
	// tokens/s per user among the deployments that meet the budget, by
	// rising tokens/s per user.
	Frontier []PlanPoint `json:"frontier"`
	// Rejections says, per accelerator, why none of its candidates made
	// the list.
	Rejections []PlanRejection `json:"rejections"`
	// Warnings are conditions the user should know about.
	Warnings []Warning `json:"warnings"`
}

// PlanDeployment is one deployment that meets the budget.
type PlanDeployment struct {
	_ noCompare
	// Rank is the position by cost, from 1.
	Rank int `json:"rank"`
	// Accelerator is the catalog id; Engine the serving engine.
	Accelerator     string `json:"accelerator"`
	AcceleratorName string `json:"accelerator_name"`
	Engine          string `json:"engine"`
	// Mode is "aggregated" (every replica prefills and decodes) or
	// "disaggregated" (separate prefill and decode pools, xPyD).
	Mode string `json:"mode"`
	// TensorParallelSize and PipelineParallelSize split one replica;
	// DataParallelSize is its data-parallel attention ranks (1 without),
	// and ExpertParallel whether its routed experts sit whole on each of
	// its GPUs (vLLM --enable-expert-parallel). A replica has tp x pp x dp
	// GPUs.
	TensorParallelSize   int  `json:"tensor_parallel_size"`
	PipelineParallelSize int  `json:"pipeline_parallel_size"`
	DataParallelSize     int  `json:"data_parallel_size"`
	ExpertParallel       bool `json:"expert_parallel"`
	// Quantization is the weight precision ("published" for the
	// checkpoint's own); KVCacheDtype the cache's.
	Quantization string `json:"quantization"`
	KVCacheDtype string `json:"kv_cache_dtype"`
	MaxNumSeqs   int    `json:"max_num_seqs"`
	// MaxNumBatchedTokens is the scheduler's token budget per step.
	MaxNumBatchedTokens int `json:"max_num_batched_tokens"`
	MaxModelLen         int `json:"max_model_len"`
	// Replicas is the number of replicas (aggregated), or of prefill plus
	// decode instances (disaggregated: PrefillReplicas + DecodeReplicas).
	Replicas        int `json:"replicas"`
	PrefillReplicas int `json:"prefill_replicas,omitempty"`
	DecodeReplicas  int `json:"decode_replicas,omitempty"`
	// Split is the xPyD split a disaggregated deployment was held to
	// (search.disaggregated_splits; its instances are whole units of it),
	// "" for a free split.
	Split string `json:"split,omitempty"`
	// GPUs is the whole deployment's GPU count.
	GPUs int `json:"num_gpus"`
	// DeploymentKW is every GPU's power together at the load, in kW
	// (docs/MODEL.md section 5c); absent for a part without a rated power.
	DeploymentKW float64 `json:"deployment_kw,omitempty"`
	// GPUHourUSD is the price of one GPU-hour used; USDPerHour the
	// deployment's; USDPerMillionOutputTokens at the workload's load.
	GPUHourUSD float64 `json:"gpu_hour_usd"`
	// PriceKind and PriceSource say where GPUHourUSD comes from, as the
	// cost section's do: "user" (constraints.prices), "cloud_on_demand"
	// or "purchase_amortised" (the default table, hardware.DefaultPrice).
	PriceKind                 string  `json:"price_kind"`
	PriceSource               string  `json:"price_source,omitempty"`
	USDPerHour                float64 `json:"usd_per_hour"`
	USDPerMillionOutputTokens float64 `json:"usd_per_million_output_tokens"`
	// TokensPerSPerGPU is the delivered output rate per GPU;
	// TokensPerSPerUser what one request sees (1000 / TPOT).
	TokensPerSPerGPU  float64 `json:"tokens_per_s_per_gpu"`
	TokensPerSPerUser float64 `json:"tokens_per_s_per_user"`
	// TTFTMs is the time to first token at the load: a prompt's chunked
	// prefill while the replica's batch decodes alongside (aggregated), or
	// the prefill queue, the prefill and the KV transfer (disaggregated).
	TTFTMs float64 `json:"ttft_ms"`
	// TPOTMs is one decode step at the batch the load keeps in flight.
	TPOTMs float64 `json:"tpot_ms"`
	// KVTransferMs is the prefill-to-decode KV transfer (disaggregated).
	KVTransferMs float64 `json:"kv_transfer_ms,omitempty"`
	// BatchSize is the batch one (decode) replica runs at the load.
	BatchSize int `json:"batch_size"`
	// RequestRate is the request rate the whole deployment carries.
	RequestRate float64 `json:"request_rate"`
	// SaturationRequestRate is the rate at which the deployment stops
	// meeting the budget (or starts to preempt); Headroom is it over the
	// workload's rate.
	SaturationRequestRate float64 `json:"saturation_request_rate"`
	Headroom              float64 `json:"headroom"`
	// PreemptionOnsetRequestRate is the rate at which the replicas' KV
	// caches start to preempt (0 when their scheduler cap binds first).
	PreemptionOnsetRequestRate float64 `json:"preemption_onset_request_rate"`
	// Limiter is what caps a replica's load: "tpot", "ttft", "kv_cache"
	// (the pool at the final context), "preemption_onset",
	// "max_num_seqs", "max_num_batched_tokens", or "prefill" (the prefill
	// pool, disaggregated).
	Limiter string `json:"limiter"`
	// Launch is the engine's command line for one replica (for a
	// disaggregated deployment, the decode instance; the prefill instance
	// runs the same model with the same flags).
	Launch string `json:"launch"`
	// Notes are what the command needs besides (a pre-quantized
	// checkpoint, a KV connector).
	Notes []string `json:"notes"`
	// Evaluate is the evaluate request that reproduces a replica's
	// figures (the decode instance, disaggregated); PrefillEvaluate the
	// prefill instance's.
	Evaluate        Request  `json:"evaluate"`
	PrefillEvaluate *Request `json:"prefill_evaluate,omitempty"`
	// Simulated is the simulator's replay of one replica at its load,
	// when verify asked for it.
	Simulated *PlanSimulated `json:"simulated,omitempty"`
}

// PlanSimulated is one replica replayed by the simulator at its share of
// the load.
type PlanSimulated struct {
	_           noCompare
	NumRequests int            `json:"num_requests"`
	TTFTMs      LatencySummary `json:"ttft_ms"`
	TPOTMs      LatencySummary `json:"tpot_ms"`
	// MeetsBudget is whether the simulated statistics the budget names
	// (ttft_stat, tpot_stat) are within it.
	MeetsBudget bool `json:"meets_budget"`
	Preemptions int  `json:"preemptions"`
}

// PlanPoint is one frontier deployment.
type PlanPoint struct {
	_ noCompare
	// Index is its position in Deployments, -1 when it ranked below the
	// limit.
	Index             int     `json:"index"`
	Accelerator       string  `json:"accelerator"`
	GPUs              int     `json:"num_gpus"`
	TokensPerSPerGPU  float64 `json:"tokens_per_s_per_gpu"`
	TokensPerSPerUser float64 `json:"tokens_per_s_per_user"`
	// USDPerMillionOutputTokens is its cost.
	USDPerMillionOutputTokens float64 `json:"usd_per_million_output_tokens"`
	// Label names it ("H100 SXM x2, TP 2, fp8").
	Label string `json:"label"`
}

// PlanRejection is why no candidate on one accelerator made the list.
type PlanRejection struct {
	_           noCompare
	Accelerator string `json:"accelerator"`
	// Reason is the stable code: "no_price", "purchase_priced", "engine", "weights_do_not_fit",
	// "max_model_len", "tpot", "ttft", "max_gpus", "max_power_kw"; Message the text.
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// Planner limits and defaults.
const (
	// MaxPlanCandidates is the largest search Plan runs: the whole
	// catalog's parts rented on demand (hardware.DefaultPrice, kind
	// cloud_on_demand) under the default grid are 11,088 candidates for
	// Llama 3.1 8B at a request rate and 17,128 for Qwen3-30B-A3B (its
	// EP/DP shapes and MXFP4 experts) (BenchmarkPlan: about 54 ms of
	// native CPU for the 8B's, on a loaded 2-core machine), below it; naming every part in
	// constraints.accelerators is about 28,000. A larger search is refused
	// naming it.
	MaxPlanCandidates = 32000
	// DefaultPlanLimit is how many deployments a plan lists.
	DefaultPlanLimit = 10
	// MaxPlanLimit bounds limit.
	MaxPlanLimit = 100
	// DefaultVerifyTop and DefaultVerifyRequests are verify's defaults.
	DefaultVerifyTop      = 5
	DefaultVerifyRequests = 200
	// MaxVerifyTop bounds verify.top.
	MaxVerifyTop = 20
)

// PlanPrecisions are the weight precisions the planner tries (each where
// the chip and the engine run it: calc/planner quantFor).
var PlanPrecisions = []string{"published", "fp8", "int8", "int4", "nvfp4", "mxfp4"}

// PlanStats are the values of ttft_stat and tpot_stat.
var PlanStats = []string{"mean", "p50", "p90", "p99"}

var PlanKVDtypes = []string{"auto", "fp8"}
