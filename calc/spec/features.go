package spec

// SpeculativeConfig is speculative decoding (vLLM's --speculative-config):
// a cheap proposer drafts num_speculative_tokens tokens per sequence and
// the model verifies them, with its own next token, in one step.
type SpeculativeConfig struct {
	_ noCompare
	// Method is the proposer: "eagle" (an EAGLE-1/2 head: one decoder
	// layer on the model's features, sharing its embedding and LM head),
	// "eagle3" (an EAGLE-3 head, with its own LM head over a 32,000-token
	// draft vocabulary), "mtp" (the model's own multi-token-prediction
	// module, DeepSeek-V3 style: one decoder layer of the model's), "ngram"
	// (prompt lookup, no draft model) or "draft_model" (a smaller model,
	// given by model). Default: draft_model when model is given, else
	// eagle.
	Method string `json:"method,omitempty"`
	// Model is the draft model's catalog id, for method draft_model.
	Model string `json:"model,omitempty"`
	// NumSpeculativeTokens is k, the drafted tokens per step.
	NumSpeculativeTokens *int `json:"num_speculative_tokens,omitempty"`
	// AcceptanceRate is the probability that one drafted token is
	// accepted, given the ones before it were. Give it or
	// mean_acceptance_length.
	AcceptanceRate *float64 `json:"acceptance_rate,omitempty"`
	// MeanAcceptanceLength is the mean tokens one step yields per
	// sequence, accepted drafts plus the model's own (what vLLM and SGLang
	// log as the mean acceptance length), between 1 and k+1.
	MeanAcceptanceLength *float64 `json:"mean_acceptance_length,omitempty"`
}

// LoRAConfig serves LoRA adapters (vLLM's --enable-lora).
type LoRAConfig struct {
	_ noCompare
	// MaxLoRAs is the adapters resident on the GPU at once (vLLM's
	// --max-loras, default 1).
	MaxLoRAs *int `json:"max_loras,omitempty"`
	// MaxLoRARank is the largest adapter rank (--max-lora-rank, default
	// 16): every slot is allocated at this rank.
	MaxLoRARank *int `json:"max_lora_rank,omitempty"`
	// TargetModules are the projections with adapters: any of q_proj,
	// k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj (default all:
	// vLLM wraps every supported linear layer).
	TargetModules []string `json:"target_modules,omitempty"`
}

// KVOffload is a CPU tier for the KV cache (vLLM's native offloading,
// --kv-offloading-size, or LMCache): KV blocks are copied to host memory
// and loaded back over the host link instead of being recomputed.
type KVOffload struct {
	_ noCompare
	// CPUBytes is the host memory of the tier for the whole tensor-parallel
	// group, in bytes (vLLM: summed across its ranks).
	CPUBytes *float64 `json:"cpu_bytes,omitempty"`
	// BandwidthBytesPerS is the host-to-GPU bandwidth of one GPU (default
	// 63e9: PCIe 5.0 x16, 32 GT/s x 16 lanes x 128/130 / 8).
	BandwidthBytesPerS *float64 `json:"bandwidth_bytes_per_s,omitempty"`
	// AsyncLoad is whether blocks load back while the running batch
	// computes (default true: vLLM's native offloading connector reports
	// its loads as async, load_kv_async, and copies on its own CUDA
	// stream); false: the connector loads them before the forward, which
	// waits (LMCache's non-async retrieve).
	AsyncLoad *bool `json:"async_load,omitempty"`
}

// Speculative methods (vLLM SpeculativeConfig.method names).
var SpecMethods = []string{"draft_model", "eagle", "eagle3", "mtp", "ngram"}

// LoRAModules are the projections LoRA adapters can target, by the names
// of vLLM's modules: standard attention (q, k, v, o), MLA's (q_a, q_b,
// kv_a_proj_with_mqa, kv_b, o), a Mamba-2 mixer's (in_proj, out_proj) and
// the MLP's, routed experts included (gate, up, down). A module a layer
// does not have adds nothing there.
var LoRAModules = []string{"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj",
	"q_a_proj", "q_b_proj", "kv_a_proj_with_mqa", "kv_b_proj", "in_proj", "out_proj"}

const MaxSpecTokens = 32

// SpecRequired is the field table's word on num_speculative_tokens's
// default: it has none.
const SpecRequired = "none: required, as in vLLM"

// featureFields are the features' entries of calc.Fields.
var featureFields = [...]struct {
	key  string
	spec FieldSpec
}{
	{"Request.enable_prefix_caching", FieldSpec{DefaultText: "on when the workload states a shared prefix or hit rate, else off"}},
	{"Request.data_parallel_size", FieldSpec{Min: 1, Max: MaxParallel, HasMin: true, HasMax: true, Default: 1, Unit: "GPUs"}},
	{"Request.enable_expert_parallel", FieldSpec{Default: false}},
	{"Request.num_redundant_experts", FieldSpec{Max: 1 << 16, HasMin: true, HasMax: true, Default: 0, Unit: "experts"}},
	{"Workload.shared_prefix_tokens", FieldSpec{Max: MaxTokens, HasMin: true, HasMax: true, Default: 0, Unit: "tokens"}},
	{"Workload.num_prefixes", FieldSpec{Min: 1, Max: MaxSeqs, HasMin: true, HasMax: true, Default: 1, Unit: "prefixes"}},
	{"Workload.prefix_hit_rate", FieldSpec{Min: 0, Max: 1, HasMin: true, HasMax: true, Unit: "fraction of prompt tokens"}},
	{"SpeculativeConfig.method", FieldSpec{Enum: SpecMethods, DefaultText: "draft_model when model is given, else eagle"}},
	// k has no default: vLLM requires it (vllm/config/speculative.py
	// SpeculativeConfig.__post_init__ raises "A speculative model was
	// provided, but `num_speculative_tokens` was not provided" unless the
	// draft checkpoint's config names n_predict, which no method here
	// reads), and so does the engine (resolveSpec), the page and the widget.
	{"SpeculativeConfig.num_speculative_tokens", FieldSpec{Min: 1, Max: MaxSpecTokens, HasMin: true, HasMax: true, DefaultText: SpecRequired, Unit: "tokens"}},
	{"SpeculativeConfig.acceptance_rate", FieldSpec{Min: 0, Max: 1, HasMin: true, HasMax: true, DefaultText: "none: required, or mean_acceptance_length", Unit: "probability"}},
	{"SpeculativeConfig.mean_acceptance_length", FieldSpec{Min: 1, Max: MaxSpecTokens + 1, HasMin: true, HasMax: true, Unit: "tokens per step"}},
	{"LoRAConfig.max_loras", FieldSpec{Min: 1, Max: 1024, HasMin: true, HasMax: true, Default: 1, Unit: "adapters"}},
	{"LoRAConfig.max_lora_rank", FieldSpec{Min: 1, Max: 1024, HasMin: true, HasMax: true, Default: 16, Unit: "rank"}},
	{"LoRAConfig.target_modules", FieldSpec{Enum: LoRAModules, DefaultText: "every one the model has"}},
	{"KVOffload.cpu_bytes", FieldSpec{Max: 1 << 50, HasMin: true, HasMax: true, ExclusiveMin: true, Unit: "bytes"}},
	{"KVOffload.bandwidth_bytes_per_s", FieldSpec{Min: 1e6, Max: 1e15, HasMin: true, HasMax: true, Default: DefaultOffloadBandwidth, Unit: "bytes/s"}},
	{"KVOffload.async_load", FieldSpec{Default: true}},
}

// FeaturesReport shows what the request's features changed, each beside
// the plain server's figure.
type FeaturesReport struct {
	_             noCompare
	PrefixCaching *PrefixCachingReport `json:"prefix_caching,omitempty"`
	Speculative   *SpeculativeReport   `json:"speculative,omitempty"`
	LoRA          *LoRAReport          `json:"lora,omitempty"`
	KVOffload     *KVOffloadReport     `json:"kv_offload,omitempty"`
	Parallel      *ParallelReport      `json:"parallel,omitempty"`
}

// PrefixCachingReport is the capacity and TTFT the shared prefix gains.
type PrefixCachingReport struct {
	_ noCompare
	// CachedTokensPerRequest is the prompt tokens each request finds in
	// the cache (whole blocks, at most input_tokens - 1).
	CachedTokensPerRequest int `json:"cached_tokens_per_request"`
	// SharedBlocks is the blocks of one prefix, held once in the pool.
	SharedBlocks int64 `json:"shared_blocks"`
	NumPrefixes  int   `json:"num_prefixes"`
	// TTFTMs and TTFTMsWithout are the idle-server time to first token
	// with and without the cache.
	TTFTMs        float64 `json:"ttft_ms"`
	TTFTMsWithout float64 `json:"ttft_ms_without"`
	// KVCeiling and KVCeilingWithout are the sequences that fit at the
	// final context with and without sharing; OnsetConcurrency(Without)
	// the preemption onset.
	KVCeiling               int `json:"kv_ceiling"`
	KVCeilingWithout        int `json:"kv_ceiling_without"`
	OnsetConcurrency        int `json:"onset_concurrency"`
	OnsetConcurrencyWithout int `json:"onset_concurrency_without"`
}

// SpeculativeReport is speculative decoding at the decode point and where
// it stops paying.
type SpeculativeReport struct {
	_                    noCompare
	Method               string  `json:"method"`
	NumSpeculativeTokens int     `json:"num_speculative_tokens"`
	AcceptanceRate       float64 `json:"acceptance_rate"`
	// TokensPerStep is (1 - a^(k+1)) / (1 - a), the mean tokens a step
	// yields per sequence.
	TokensPerStep float64 `json:"tokens_per_step"`
	// DraftWeightsBytes is the draft's weights on one GPU; DraftTimeMs
	// its k passes at the decode point.
	DraftWeightsBytes int64   `json:"draft_weights_bytes"`
	DraftTimeMs       float64 `json:"draft_time_ms"`
	// TPOTMs is step time / tokens per step at the decode point;
	// TPOTMsWithout the plain server's step there.
	TPOTMs        float64 `json:"tpot_ms"`
	TPOTMsWithout float64 `json:"tpot_ms_without"`
	// TokensPerS(Without) are the decode point's output rates; Speedup
	// their ratio.
	TokensPerS        float64 `json:"tokens_per_s"`
	TokensPerSWithout float64 `json:"tokens_per_s_without"`
	Speedup           float64 `json:"speedup"`
	// Batch1Speedup is the speedup of one sequence alone.
	Batch1Speedup float64 `json:"batch1_speedup"`
	// CrossoverBatchSize is the smallest batch at which speculation no
	// longer raises the output rate (0: it pays up to the batch ceiling).
	CrossoverBatchSize int `json:"crossover_batch_size"`
}

// LoRAReport is the adapters' memory and their cost per step.
type LoRAReport struct {
	_           noCompare
	MaxLoRAs    int `json:"max_loras"`
	MaxLoRARank int `json:"max_lora_rank"`
	// Bytes is all slots on one GPU, taken from the KV cache.
	Bytes int64 `json:"bytes"`
	// KVCacheBytesWithout is the pool without the adapters.
	KVCacheBytesWithout int64 `json:"kv_cache_bytes_without"`
	// FLOPsPerStep, ReadBytesPerStep and ExtraStepTimeMs are the adapters'
	// GEMMs at the decode point (every slot in use once the batch holds
	// max_loras sequences).
	FLOPsPerStep     float64 `json:"flops_per_step"`
	ReadBytesPerStep int64   `json:"read_bytes_per_step"`
	ExtraStepTimeMs  float64 `json:"extra_step_time_ms"`
}

// KVOffloadReport is the CPU tier.
type KVOffloadReport struct {
	_ noCompare
	// CPUBlocks is the tier in blocks; CapacityTokens in tokens (whole
	// tensor-parallel group).
	CPUBlocks      int64 `json:"cpu_blocks"`
	CapacityTokens int64 `json:"capacity_tokens"`
	// RecomputeOnsetConcurrency is where preempted sequences no longer
	// fit in the tier and must be recomputed: vLLM still preempts at
	// preemption.onset_concurrency, but below this a preempted
	// sequence's blocks are loaded back instead of recomputed.
	RecomputeOnsetConcurrency int `json:"recompute_onset_concurrency"`
	// ReloadMsPerSequence is one mean sequence's blocks over the host link;
	// RecomputeMsPerSequence its prefill again, for comparison.
	ReloadMsPerSequence    float64 `json:"reload_ms_per_sequence"`
	RecomputeMsPerSequence float64 `json:"recompute_ms_per_sequence"`
}

// ParallelReport is expert and data parallelism for MoE.
type ParallelReport struct {
	_                noCompare
	DataParallelSize int  `json:"data_parallel_size"`
	ExpertParallel   bool `json:"expert_parallel"`
	// ExpertParallelSize is the ranks the experts are spread over
	// (tensor_parallel_size x data_parallel_size).
	ExpertParallelSize int `json:"expert_parallel_size"`
	// ExpertsPerRank is the routed experts one GPU holds (whole experts
	// under EP; shards of all of them otherwise, reported as E/EP).
	ExpertsPerRank float64 `json:"experts_per_rank"`
	// ExpertsTouchedPerRank is the expected distinct local experts the
	// decode step's tokens (over all data-parallel ranks) route to.
	ExpertsTouchedPerRank float64 `json:"experts_touched_per_rank"`
	// LoadImbalance is the busiest rank's expert tokens over the mean.
	LoadImbalance float64 `json:"load_imbalance"`
	// AllToAllMs is the dispatch and combine time of one decode step.
	AllToAllMs float64 `json:"all_to_all_ms"`
	// TokensPerSTotal is the decode point's output rate over all
	// data-parallel ranks.
	TokensPerSTotal float64 `json:"tokens_per_s_total"`
	GPUs            int     `json:"num_gpus"`
}

// DefaultOffloadBandwidth is kv_offload.bandwidth_bytes_per_s's default:
// PCIe 5.0 x16 in one direction, bytes/s: 32 GT/s x 16
// lanes x 128/130 encoding / 8 bits (PCI-SIG PCIe 5.0 base spec).
const DefaultOffloadBandwidth = 32e9 * 16 * 128 / 130 / 8
