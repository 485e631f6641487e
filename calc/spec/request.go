package spec

import (
	"strings"

	"github.com/modelrefs/throughput/calc/release"
	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/jsonx"
)

// Defaults, named after the vLLM engine arguments they stand for: the
// engine settings' defaults are the release profiles' (package
// calc/release, where they are cited).
const (
	DefaultGPUMemoryUtilization = release.DefaultGPUMemoryUtilization
	DefaultBlockSize            = release.DefaultBlockSize
	DefaultMaxNumSeqs           = release.DefaultMaxNumSeqs
	DefaultMaxNumBatchedTokens  = release.DefaultMaxNumBatchedTokens
	// DefaultSweepPoints is the number of batch sizes a sweep evaluates.
	DefaultSweepPoints = 64
	// MaxSweepPoints bounds a sweep so one request stays cheap.
	MaxSweepPoints = 1024
)

// Request is one capacity question: a model on some hardware under an
// engine's settings, optionally with a workload, a latency budget and a
// price. Field names follow vLLM's engine arguments. Optional numbers are
// pointers: nil means the default, while an explicit zero is validated
// (and usually rejected) like any other value.
type Request struct {
	_ noCompare
	// Model is a catalog id (Hugging Face id, case-insensitive) or alias.
	// Exactly one of Model and ModelConfig is required.
	Model string `json:"model,omitempty"`
	// ModelConfig is a Hugging Face config.json object, as published.
	ModelConfig map[string]any `json:"model_config,omitempty"`
	// Hardware is a catalog id or a custom accelerator given by figures.
	Hardware HardwareRef `json:"hardware"`
	// Engine selects the serving engine's profile: "vllm" (default),
	// "sglang", "lmdeploy", "trtllm" or "llamacpp".
	Engine string `json:"engine,omitempty"`
	// EngineVersion is the engine's release ("0.19"; "v0.19.1" reads as
	// "0.19"): vLLM's V0 ("0.6" or "0.7"; December 2023's "0.2") or a V1
	// release from 0.10 to the newest modelled (the default), SGLang's
	// ("0.5", its default; "0.4" for 0.4.x; "0.3" for 0.3.x), or
	// TensorRT-LLM's 0.5 to 0.21 and 1.0 to 1.2 (the default).
	// Releases differ in the memory profiler (the CUDA-graph estimate),
	// admission and the capacity they log, vLLM 0.6 on ROCm in its step
	// terms, SGLang's in the overlap scheduler and their memory, chunked
	// prefill and CUDA-graph defaults, and TensorRT-LLM before 0.7
	// in its decode attention (it reads a GQA cache once per query head);
	// docs/MODEL.md section 11 lists them.
	EngineVersion string `json:"engine_version,omitempty"`
	// StartupLog is a pasted vLLM (V0 or V1), SGLang or TensorRT-LLM
	// start-up log, at most 1 MiB. The memory figures it states (weights,
	// activation peak, non-torch and CUDA-graph memory, the KV cache GiB,
	// blocks or tokens) replace the engine's for a deployment of one
	// pipeline stage, moved to the request's settings where they differ
	// from the log's (gpu_memory_utilization, max_num_seqs,
	// max_num_batched_tokens, kv_cache_dtype; max_model_len under V0) as
	// vLLM's profiler (or SGLang's and TensorRT-LLM's pool sizing) would;
	// memory.sources says which figures are the log's. The report's
	// startup_log sets each logged figure beside the engine's own.
	StartupLog string `json:"startup_log,omitempty"`
	// Calibration is what was measured on the user's own server (vllm
	// bench serve results, or batch and TPOT pairs); the deployment's
	// bandwidth efficiency and step overhead are fitted to it and drive
	// every figure.
	Calibration *Calibration `json:"calibration,omitempty"`

	TensorParallelSize   *int `json:"tensor_parallel_size,omitempty"`
	PipelineParallelSize *int `json:"pipeline_parallel_size,omitempty"`
	// P2P says whether the tensor- and pipeline-parallel GPUs can reach
	// each other's memory directly (CUDA peer-to-peer). Default true.
	// false models a PCIe machine without it (ACS or an IOMMU in the way,
	// a virtual machine, cards whose driver refuses it; vLLM logs "Custom
	// allreduce is disabled because your platform lacks GPU P2P capability
	// or P2P test failed"): every all-reduce goes through NCCL's SHM
	// transport, staged in host memory, at a quarter of the PCIe line rate
	// (docs/MODEL.md section 4). Applies to PCIe-linked GPUs only.
	P2P *bool `json:"p2p,omitempty"`
	// Dtype is the activation and unquantized-weight dtype: "auto" (the
	// checkpoint's; float32 checkpoints run in bfloat16 as vLLM does),
	// "bfloat16", "float16" or "float32".
	Dtype string `json:"dtype,omitempty"`
	// Quantization applies online weight quantization to an unquantized
	// checkpoint ("fp8", "int8", "awq", ...; GGUF types "q4_k_m", "q8_0",
	// ... for llama.cpp). A pre-quantized checkpoint keeps its own.
	Quantization string `json:"quantization,omitempty"`
	// KVCacheDtype is "auto" (the model dtype), "fp8", "fp8_e4m3",
	// "fp8_e5m2", "bfloat16", "float16" or "float32".
	KVCacheDtype         string   `json:"kv_cache_dtype,omitempty"`
	GPUMemoryUtilization *float64 `json:"gpu_memory_utilization,omitempty"`
	BlockSize            *int     `json:"block_size,omitempty"`
	// MaxModelLen defaults to the model's max_position_embeddings.
	MaxModelLen         *int `json:"max_model_len,omitempty"`
	MaxNumSeqs          *int `json:"max_num_seqs,omitempty"`
	MaxNumBatchedTokens *int `json:"max_num_batched_tokens,omitempty"`
	// NumSchedulerSteps is vLLM V0's multi-step scheduling
	// (--num-scheduler-steps, engine_version 0.6 only; default 1, as the
	// release's): each decode batch runs that many steps before the
	// scheduler runs again, so a new request waits for the window's end
	// before its prefill.
	NumSchedulerSteps *int `json:"num_scheduler_steps,omitempty"`
	// FlashInferSampler says vLLM V1 samples top-k/top-p with FlashInfer's
	// kernels (flashinfer installed and VLLM_USE_FLASHINFER_SAMPLER not 0:
	// the default of 0.10 to 0.11.0, which logs "Using FlashInfer for
	// top-p & top-k sampling."), so the profile run's dummy sampler holds
	// no sorted copy of the vocabulary: the activation peak, and the pool,
	// are those of a release without the sort (docs/MODEL.md section 11).
	// Default false (PyTorch's sort-based sampler, as the v0.11.0 log of
	// the validation cases ran). vLLM V1 only; from 0.17 no release sorts,
	// so it changes nothing there.
	FlashInferSampler *bool `json:"flashinfer_sampler,omitempty"`

	// Workload is the traffic the decode point, ceiling and preemption
	// onset are computed for. Defaults: 1024 input and 256 output tokens.
	Workload *Workload `json:"workload,omitempty"`
	// SLO is the latency budget for the best-batch search.
	SLO *SLO `json:"slo,omitempty"`
	// GPUHourUSD is the price of one GPU-hour in US dollars. Without it the
	// cost section prices the accelerator at its default
	// (hardware.DefaultPrice: an on-demand cloud list price, or a purchase
	// price amortised over 4 years plus power; docs/MODEL.md section 12)
	// and names it; a custom accelerator, or one the table does not price,
	// has no cost section, and a warning (no_price) asks for this field.
	GPUHourUSD *float64 `json:"gpu_hour_usd,omitempty"`
	// GPUPowerW is one GPU's rated power in watts (its TDP or board power
	// limit; a power-capped board's cap). Without it the energy section
	// reads the accelerator's datasheet figure (hardware.DefaultBoardPower);
	// a custom accelerator, or one the table lacks, has no energy section,
	// and a warning (no_power) asks for this field.
	GPUPowerW *float64 `json:"gpu_power_w,omitempty"`
	// USDPerKWh is the electricity price in US dollars per kWh for the
	// energy section's power cost. Default 0.1282: the US commercial-sector
	// average of the East North Central division, April 2025 (EIA Electric
	// Power Monthly, Table 5.6.A; hardware.USDPerKWh).
	USDPerKWh *float64 `json:"usd_per_kwh,omitempty"`
	// Sweep controls the batch-size sweep.
	Sweep *SweepOptions `json:"sweep,omitempty"`
	// Simulate asks for a step-by-step simulation of the workload.
	Simulate *SimulateOptions `json:"simulate,omitempty"`

	// The serving features (calc/deploy/features.go, docs/MODEL.md section 10).
	// EnablePrefixCaching is vLLM's automatic prefix caching. vLLM V1
	// turns it on by default; here it defaults to on when the workload
	// states a shared prefix or hit rate and off otherwise, so a plain
	// request keeps the plain server's figures. In a simulation it also
	// lets a preempted request find its own blocks again.
	EnablePrefixCaching *bool `json:"enable_prefix_caching,omitempty"`
	// SpeculativeConfig turns on speculative decoding.
	SpeculativeConfig *SpeculativeConfig `json:"speculative_config,omitempty"`
	// LoRA serves LoRA adapters.
	LoRA *LoRAConfig `json:"lora,omitempty"`
	// KVOffload adds a CPU tier to the KV cache.
	KVOffload *KVOffload `json:"kv_offload,omitempty"`
	// DataParallelSize is the data-parallel replicas of the attention,
	// each with its own scheduler and batch; an MoE model's experts are
	// spread over tensor_parallel_size x data_parallel_size ranks. The
	// report's batch figures are per replica.
	DataParallelSize *int `json:"data_parallel_size,omitempty"`
	// EnableExpertParallel places whole experts on each of those ranks
	// (vLLM's --enable-expert-parallel) instead of slicing every expert.
	EnableExpertParallel *bool `json:"enable_expert_parallel,omitempty"`
	// NumRedundantExperts adds replicas of routed experts so that the
	// experts divide evenly over the ranks (vLLM's EPLB
	// num_redundant_experts; DeepSeek serves 256 + 32 over 144 GPUs).
	NumRedundantExperts *int `json:"num_redundant_experts,omitempty"`
}

// Workload describes the requests a server sees. At most one of
// Concurrency and RequestRate may be given.
type Workload struct {
	_ noCompare
	// InputTokens is the prompt length of each request (default 1024).
	InputTokens *int `json:"input_tokens,omitempty"`
	// OutputTokens is the generated length of each request (default 256).
	OutputTokens *int `json:"output_tokens,omitempty"`
	// Concurrency is the number of requests in flight (closed loop).
	Concurrency *int `json:"concurrency,omitempty"`
	// RequestRate is the arrival rate in requests per second (open loop).
	RequestRate *float64 `json:"request_rate,omitempty"`
	// SharedPrefixTokens is a prefix (a system prompt) at the start of
	// every prompt, part of input_tokens, that the prefix cache serves
	// once computed. PrefixHitRate instead gives the fraction of each
	// prompt found in the cache. NumPrefixes is how many distinct ones the
	// requests spread over (default 1).
	SharedPrefixTokens *int     `json:"shared_prefix_tokens,omitempty"`
	PrefixHitRate      *float64 `json:"prefix_hit_rate,omitempty"`
	NumPrefixes        *int     `json:"num_prefixes,omitempty"`
	// Sessions makes the requests the turns of agentic multi-turn
	// sessions whose prompts re-send the conversation (SessionWorkload).
	Sessions *SessionWorkload `json:"sessions,omitempty"`
}

// SLO is a latency budget.
type SLO struct {
	_ noCompare
	// TTFTMs bounds the time to first token, in milliseconds.
	TTFTMs *float64 `json:"ttft_ms,omitempty"`
	// TPOTMs bounds the time per output token (one decode step), in
	// milliseconds.
	TPOTMs *float64 `json:"tpot_ms,omitempty"`
}

// SweepOptions controls the batch-size sweep.
type SweepOptions struct {
	_ noCompare
	// Points is the number of batch sizes (default 64, at most 1024).
	Points *int `json:"points,omitempty"`
	// MaxBatchSize is the largest batch swept (default: the larger of the
	// batch ceiling and max_num_seqs, so the sweep shows what lies past
	// the ceiling).
	MaxBatchSize *int `json:"max_batch_size,omitempty"`
}

// HardwareRef is a catalog id ("h100-sxm", "A100 80GB SXM") or a custom
// accelerator given by its figures. In JSON it is either a string or an
// object with hardware.Accelerator's fields.
type HardwareRef struct {
	_      noCompare
	ID     string
	Custom *hardware.Accelerator
}

// MarshalJSON writes the id as a string or the custom figures as an object.
func (h HardwareRef) MarshalJSON() ([]byte, error) {
	if h.Custom != nil {
		return jsonx.Marshal(h.Custom)
	}
	return jsonx.AppendString(nil, h.ID), nil
}

// UnmarshalJSON accepts a string id or an object of figures (unknown keys
// in the object are rejected, naming them).
func (h *HardwareRef) UnmarshalJSON(b []byte) error {
	// strings.TrimSpace, which the engine links anyway: bytes.TrimSpace
	// and its Unicode helpers cost about 1 KB of the light engine's gzip.
	b = []byte(strings.TrimSpace(string(b)))
	switch {
	case len(b) > 0 && b[0] == '{':
		var a hardware.Accelerator
		unknown, err := jsonx.UnmarshalKnown(b, &a)
		if err != nil {
			return err
		}
		*h = HardwareRef{Custom: &a}
		if len(unknown) > 0 {
			return jsonx.UnknownFields(unknown) // the decoder reports them with the rest
		}
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := jsonx.Unmarshal(b, &s); err != nil {
			return err
		}
		*h = HardwareRef{ID: s}
	case string(b) == "null":
		*h = HardwareRef{}
	default:
		return fielderr.New("", "must be a catalog id (a string) or an object of figures")
	}
	return nil
}

// Int returns a pointer to v, for optional Request fields.
func Int(v int) *int { return &v }

// Float returns a pointer to v, for optional Request fields.
func Float(v float64) *float64 { return &v }

// Workload defaults: a chat-like request.
const (
	DefaultInputTokens  = 1024
	DefaultOutputTokens = 256
)
