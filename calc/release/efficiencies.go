package release

// Efficiencies are the physically meaningful fitted parameters of an
// engine profile (docs/MODEL.md says how each was fitted). Each is one term
// of the step model (Deployment.Step).
type Efficiencies struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	// BandwidthEfficiency is the fraction of datasheet memory bandwidth the
	// GEMMs' weight reads achieve.
	BandwidthEfficiency float64 `json:"bandwidth_efficiency"`
	// AttentionBandwidthEfficiency is the fraction of datasheet memory
	// bandwidth the decode attention kernels' KV-cache reads achieve.
	AttentionBandwidthEfficiency float64 `json:"attention_bandwidth_efficiency"`
	// ComputeEfficiency is the fraction of dense peak the GEMMs approach
	// at large token counts (the ceiling of their saturating efficiency).
	ComputeEfficiency float64 `json:"compute_efficiency"`
	// GEMMHalfTokens is the tokens per step at which the GEMMs reach half
	// of compute_efficiency: efficiency(M) = compute_efficiency * M / (M +
	// gemm_half_tokens), the tile and wave quantisation of small M.
	GEMMHalfTokens float64 `json:"gemm_half_tokens"`
	// AttentionEfficiency is the fraction of dense peak the attention
	// kernels (FlashAttention) reach on their FLOPs.
	AttentionEfficiency float64 `json:"attention_efficiency"`
	// StepOverheadMs is the fixed CPU time of every step (scheduler,
	// input preparation, graph replay), in milliseconds.
	StepOverheadMs float64 `json:"step_overhead_ms"`
	// SequenceOverheadUs is the CPU time each scheduled sequence adds to a
	// step (scheduling, block-table and sampling bookkeeping), in
	// microseconds.
	SequenceOverheadUs float64 `json:"sequence_overhead_us"`
	// LayerOverheadUs is the time each decoder layer's kernels take beyond
	// their bytes and FLOPs (launch gaps, ramp-up and tail of the short
	// kernels of one layer), in microseconds.
	LayerOverheadUs float64 `json:"layer_overhead_us"`
	// SMBytesPerCycle, when positive, caps the weight streaming at this
	// many bytes per streaming multiprocessor (NVIDIA) or compute unit
	// (AMD) per clock cycle on chips whose SMs and clock the catalog gives
	// (weightBandwidth): the issue limit of matrix-vector kernels that run
	// on the CUDA cores or CU SIMDs (llama.cpp's CUDA and HIP builds).
	// 0: no cap.
	SMBytesPerCycle float64 `json:"sm_bytes_per_cycle,omitempty"`
	// PrefillLayerOverheadUs is the time each decoder layer adds to a step
	// that computes prompt tokens, beyond layer_overhead_us, in
	// microseconds: a prefill forward runs outside the decode CUDA graphs
	// (SGLang captures decode batch sizes only), so its kernels are
	// launched one by one from Python, with their attention planning.
	PrefillLayerOverheadUs float64 `json:"prefill_layer_overhead_us"`
	// MoELayerOverheadUs is the time each mixture-of-experts layer's
	// block takes beyond its bytes and FLOPs, in microseconds, in every
	// step: the router GEMM and top-k, the token sort (moe_align_block_size)
	// and the two grouped GEMMs, activation and weighted sum of a fused MoE
	// (vLLM's and SGLang's Triton fused_moe), short latency-bound kernels
	// at a few tokens per expert that CUDA graphs replay but do not merge.
	// 0: the engine's fit does not separate it (dense models: no MoE layer).
	MoELayerOverheadUs float64 `json:"moe_layer_overhead_us,omitempty"`
	// ContextOverheadMs is the fixed latency of a request's context phase
	// beyond its prefill steps (tokenisation, admission, first-token
	// return), in milliseconds: part of TTFT, not of any step.
	ContextOverheadMs float64 `json:"context_overhead_ms"`
	// RequestOverheadMs is the fixed latency each request pays in an
	// OpenAI-compatible API server outside the engine's steps, in
	// milliseconds: the HTTP request's parsing and validation, the
	// request's hand-off to the engine core and the first token's
	// detokenisation and streamed return (vLLM's api_server ->
	// OpenAIServingCompletion -> AsyncLLM.generate, the request and its
	// outputs crossing ZMQ between the API server and EngineCore
	// processes, vllm/v1/engine/async_llm.py at v0.8; SGLang's
	// TokenizerManager -> Scheduler -> DetokenizerManager, three
	// processes joined by ZMQ, sgl-project/sglang v0.4.0
	// srt/managers/). Part of TTFT and end-to-end latency, never of a
	// step. 0: the engine's set does not separate it (TensorRT-LLM's is
	// in ContextOverheadMs; llama.cpp and LMDeploy measure no server).
	RequestOverheadMs float64 `json:"request_overhead_ms,omitempty"`
	// TokenizeUsPerToken is the API server's tokenisation time per prompt
	// token, in microseconds: a HuggingFace fast (Rust) tokenizer encodes
	// one sequence on one thread, so a prompt of n tokens takes n times
	// this before the engine sees it (part of TTFT, never of a step).
	TokenizeUsPerToken float64 `json:"tokenize_us_per_token,omitempty"`
	// AllReduceLatencyUs is the time each tensor-parallel all-reduce takes
	// beyond the interconnect's own latency
	// (hardware.Interconnect.LatencyS), in microseconds: the collective
	// path of an engine build without the one-shot kernels the link's
	// figure assumes (vLLM 0.6 on ROCm sent every all-reduce through
	// RCCL). 0 on the builds fitted with the link's figure alone.
	AllReduceLatencyUs float64 `json:"all_reduce_latency_us,omitempty"`
	// PagedAttentionV1BandwidthEfficiency, when positive, marks the decode
	// attention as vLLM's own paged-attention kernels
	// (csrc/attention/attention_kernels.cu, the ROCm build of vLLM 0.6.1,
	// before its custom ROCm kernel): one thread block per query head, so
	// each KV head is read once per query head of its group, at
	// attention_bandwidth_efficiency for the partitioned kernel (V2) and at
	// this fraction of datasheet bandwidth for the unpartitioned one (V1),
	// which vLLM runs when the context exceeds one 512-token partition and
	// sequences x query heads per GPU exceed 512. 0: the engine's attention
	// kernels read each KV head once (FlashAttention, FlashInfer, ROCm's
	// custom paged attention).
	PagedAttentionV1BandwidthEfficiency float64 `json:"paged_attention_v1_bandwidth_efficiency,omitempty"`
	// TPStepOverheadMs is the time each step of a tensor-parallel
	// deployment (tensor_parallel_size > 1) takes beyond step_overhead_ms,
	// in milliseconds: vLLM's V0 engine prepares a step's inputs in the
	// driver worker alone and broadcasts them to the other ranks before
	// the forward pass (LocalOrDistributedWorkerBase.
	// _get_driver_input_and_broadcast in vllm/worker/worker_base.py at
	// v0.6.x: broadcast_tensor_dict sends the metadata through the CPU
	// group and every input tensor by its own device broadcast). 0 on the
	// engines whose ranks schedule alike or whose fits do not separate it.
	TPStepOverheadMs float64 `json:"tp_step_overhead_ms,omitempty"`
}

// FrontEndS is the latency a request of `prompt` tokens pays outside the
// engine's steps, in seconds: the context phase's fixed latency, the API
// server's per-request handling and the prompt's tokenisation
// (docs/MODEL.md section 4, "The front end"):
//
//	front end = (context_overhead_ms + request_overhead_ms) / 1e3
//	          + tokenize_us_per_token * prompt / 1e6
//
// It adds to TTFT and end-to-end latency, never to a step.
func (e *Efficiencies) FrontEndS(prompt int) float64 {
	return (e.ContextOverheadMs+e.RequestOverheadMs)/1000 + e.TokenizeUsPerToken*float64(max(prompt, 0))/1e6
}

// HFTokenizeUsPerToken is a HuggingFace fast tokenizer's serial encode
// of one sequence, in microseconds a token: "it takes 1.1 seconds to
// tokenize a 4MB document (about 1M tokens)" (C. Xu, "3.3x Faster
// HuggingFace Tokenizers for Single Sequence", charlesxu.io/parallel-
// tokenizer, 2025). The same library from Python encodes GPT-2's BPE at
// 2.5-2.7 MiB/s on one EPYC core (benvanik, "iree/tokenizer/ perf" gist,
// 2026-02-21: tokenizers 0.21.4), 1.4-1.5 µs a token at about 4 bytes a
// token. vLLM's and SGLang's API servers encode each prompt with it
// (vllm/entrypoints/openai/serving_engine.py _normalize_prompt_text_to_input
// at v0.8; SGLang TokenizerManager._tokenize_one_request, v0.4.0).
const HFTokenizeUsPerToken = 1.1

// apiRequestMs is the OpenAI-compatible API servers' fixed cost per
// request (Efficiencies.RequestOverheadMs) of vLLM and SGLang, in
// milliseconds, fitted by
//
//	go run ./tools/calibrate -fit vllm -terms request_overhead_ms
//
// on the V1 cases (14; four TTFT medians of 23,000-token prompts at
// concurrency 8 inform it, the vLLM blog's 2026-04-22 FP8 KV-cache post,
// PB580-PB589): 11.7 ms, mean squared log error 0.01446 -> 0.01233. A
// weak fit on one source, so checked held out: at concurrency 1 with
// 128-token prompts, runs no fit has seen measure TTFT 11.4 and 13.0 ms
// above the predicted prefill step (Qwen3-14B on an A100, NB032; Qwen3-4B
// on an RTX 4090, NB046; public-cases-2026.json). The API server's code
// path is the same under every vLLM release and build, so every vLLM set
// carries it, and SGLang's (its terms are vLLM's; its front end is three
// processes joined by ZMQ as vLLM V1's is two).
const apiRequestMs = 11.7
