package release

// Efficiencies are the physically meaningful fitted parameters of an
// engine profile (docs/MODEL.md says how each was fitted). Each is one term
// of the step model (Deployment.Step).
type Efficiencies struct {
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
