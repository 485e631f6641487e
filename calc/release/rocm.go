package release

// vllmROCmEff are vLLM's step terms on an AMD accelerator (the ROCm
// build: hipBLASLt/AITER GEMMs, ROCm paged attention, HIP graphs and RCCL
// in place of cuBLAS/CUTLASS, FlashAttention/FlashInfer, CUDA graphs and
// NCCL), under the V1 engine (V0: vllmV06ROCmEff under 0.6 and
// vllmV0ROCmEff, these kernel terms with V0's CPU terms, under 0.7).
// Fitted by
//
//	go run ./tools/calibrate -fit vllm@rocm -terms attention_bandwidth_efficiency,step_overhead_ms,sequence_overhead_us,gemm_half_tokens
//
// on the n = 32 MI300X V1 static batches PB280-PB311 of the public cases
// (calc/validation/testdata/public-cases.json: vLLM 0.10.0, ROCm 6.4.1,
// Llama 3.1 70B and 405B FP8, TP 8, batch 1-128, 128 or 2048 prompt
// tokens, 2048 output tokens; ROCm/vllm docs/dev-docker/README.md at
// 040de12), starting from the CUDA build's V1 terms (engines["vllm"].Eff),
// which the terms left alone keep; gemm_half_tokens under a flat prior
// (tools/calibrate rocmFlatPrior: its 16-token prior is the CUDA builds'
// tensor-core tile padding).
//
// The GEMMs: the cases' step grows with batch by about 100 us per sequence
// on 70B and 250 us on 405B at 128 prompt tokens, nearly linearly from
// batch 1 to 128, and by only 20-35 us more per sequence at 2,048 prompt
// tokens: most of the growth follows the linear weights, not the context.
// A per-sequence growth in proportion to the weights is the GEMMs' compute
// branch, linear FLOPs x (M + gemm_half_tokens) / (peak x
// compute_efficiency) (calc/deploy/cost.go Step); with gemm_half_tokens = 264 it
// binds at every batch on the MI300X, since M + 264 exceeds peak x
// compute_efficiency x bytes per weight / (2 FLOPs per weight x weight
// bandwidth), 2,614.9e12 x 0.6 x 1 / (2 x 5.3e12 x 0.82) = 180 for FP8
// (1,307.4e12 x 0.6 x 2 / (2 x 5.3e12 x 0.82) = 180 for 16-bit weights).
// The step's GEMM time is then F x (M + 264) / (0.6 peak) for F linear
// FLOPs per token: F x 264 / (0.6 peak), the weights streamed at 0.6 peak / (2 x 264)
// = 2.97 TB/s per FP8 byte (0.56 of 5.3 TB/s, where the previous fit had
// 0.525), plus F / (0.6 peak) per token: the matrix-core work of a decode
// GEMM at M <= 128 adds to its weight stream instead of hiding under it
// (hipBLASLt FP8 tiles at M = 1-128; no published per-M efficiency of
// those kernels was found to check this form against, so it rests on the
// cases' growth with batch and model). bandwidth_efficiency binds nowhere
// here and keeps the CUDA build's 0.82; compute_efficiency keeps 0.6
// (freeing them too does not lower the in-sample error, 0.00568-0.00571,
// and makes the held-out one worse, 14-16 % median |error|: the weights'
// share of the intercept then trades with gemm_half_tokens). The
// KV-streaming efficiency rises 0.306 -> 0.563 (the context's own share of
// the growth), the step overhead is 3.83 ms and the per-sequence overhead
// 37.8 us.
//
// In sample: mean squared log error 0.320 -> 0.00567 (0.00975 with
// gemm_half_tokens 16, the previous fit), median |error| 3.3 % (4.25 %),
// 29 of 32 within 15 % (28). Held out by model (`-logo vllm@rocm -logo-by
// model` with the same -terms: fit on 70B, test on 405B, and back):
// median |error| 5.9 % and 6.8 %, 6.5 % over the 32, 88 % within 15 %
// (12.7 % and 66 % before). Held out by release: the 32 V0 cases
// PB312-PB343 (vLLM 0.7.3 V0, ROCm 6.3.1, FP8 KV, the same models and
// batches), which this fit does not use: median error -5.5 % -> -3.9 %,
// median |error| 9.6 % -> 6.9 %, 25 of 32 within 15 % (24), but 14-25 %
// fast at batch 64-128, where V0's per-sequence CPU work binds: they run
// under vllmV0ROCmEff, these kernel terms with V0's own CPU terms. Left:
// V1 batch 64-128 at 128 prompt tokens is still 14-18 % fast (70B and
// 405B). The LLM-Inference-Bench MI300X rows (vLLM 0.6.1 V0 of
// 2024, float16; PB119-PB214) run under their release's own terms,
// vllmV06ROCmEff. The V0 cases PB312-PB343 are engine_version 0.7.
//
// The MoE block (moe_layer_overhead_us) is composed, not fitted: vLLM's
// Triton fused_moe compiled for ROCm, with the CUDA build's 97.7 us, since
// no MoE case on an AMD accelerator under V1 informs it; the kernel
// benchmarks of docs/MODEL.md section 4 ("The MoE block") put the Triton
// kernel's batch-1 floor on AMD above NVIDIA's, so it is a lower bound.
var vllmROCmEff = Efficiencies{BandwidthEfficiency: 0.82, AttentionBandwidthEfficiency: 0.563, ComputeEfficiency: 0.6, GEMMHalfTokens: 264, AttentionEfficiency: 0.4, StepOverheadMs: 3.83, SequenceOverheadUs: 37.8, LayerOverheadUs: 7.6, ContextOverheadMs: 0, RequestOverheadMs: apiRequestMs, TokenizeUsPerToken: HFTokenizeUsPerToken, MoELayerOverheadUs: 97.7}

// vllmV0ROCmEff are vLLM's V0 terms on an AMD accelerator under the 0.7
// releases (engine_version 0.7), composed, not fitted: vllmROCmEff's kernel
// terms and step overhead (the same hipBLASLt GEMMs, ROCm attention, HIP
// graphs and RCCL of AMD's images) with the V0 engine's per-sequence CPU
// work from the CUDA V0 fit (vllmV0Eff: 53.8 us per sequence against
// V1's 37.8 on ROCm and 5 on CUDA), the host-side Python that V1 no longer
// does per request and that does not depend on the accelerator. On the 32
// V0 cases PB312-PB343 (vLLM 0.7.3 V0, ROCm 6.3.1,
// amd/Llama-3.1-70B-Instruct-FP8-KV and 405B, TP 8, batch 1-128, FP8 KV;
// ROCm/vllm docs/dev-docker/README.md at b309ea7), which no fit uses, 28
// of 32 within 15 % (25 under the V1 terms, which were 14-25 % fast at
// batch 64-128, where the per-sequence work binds); median error -2.8 %,
// median |error| 5.8 % (-3.9 % and 6.9 % under the V1 terms).
// As a check,
//
//	go run ./tools/calibrate -fit vllm@0.7+rocm -terms step_overhead_ms,sequence_overhead_us
//
// fits those two terms on the 32 cases themselves and finds 3.99 ms and
// 53.4 us (29 of 32): the composition is what they say. The CUDA V0 step
// overhead (3.09 ms + 0.39 ms under TP) on these kernels instead makes the
// 70B batches 6-21 % fast: the ROCm build's per-step cost is its own.
// TestVLLM07OnAMDPaysV0sCPUWork keeps the composition when either fit
// moves.
var vllmV0ROCmEff = Efficiencies{BandwidthEfficiency: 0.82, AttentionBandwidthEfficiency: 0.563, ComputeEfficiency: 0.6, GEMMHalfTokens: 264, AttentionEfficiency: 0.4, StepOverheadMs: 3.83, SequenceOverheadUs: 53.8, LayerOverheadUs: 7.6, ContextOverheadMs: 0, RequestOverheadMs: apiRequestMs, TokenizeUsPerToken: HFTokenizeUsPerToken, MoELayerOverheadUs: 97.7}

// vllmV06ROCmEff are vLLM 0.6's V0 terms on an AMD accelerator
// (engine_version 0.6; the V1 releases keep vllmROCmEff, 0.7 vllmV0ROCmEff): the
// upstream ROCm build of that release (Dockerfile.rocm at v0.6.1 on a
// rocm/pytorch base image, its 16-bit linear layers through torch's
// F.linear on the base image's BLAS kernels, where AMD's own images and
// upstream's later Dockerfile.rocm_base build a pinned hipBLASLt and tuned
// GEMMs; vLLM's 2024 build files compiled its custom all-reduce for CUDA
// only, as setup.py's _is_cuda() branch shows; its ROCm attention backend
// decoded through vLLM's own paged-attention kernels,
// PagedAttention.forward_decode in vllm/attention/backends/
// rocm_flash_attn.py, the custom ROCm kernel coming with vLLM PR #8310,
// merged after the v0.6.1 tag). Fitted by
//
//	go run ./tools/calibrate -fit vllm@0.6+rocm -terms attention_bandwidth_efficiency,paged_attention_v1_bandwidth_efficiency,compute_efficiency,all_reduce_latency_us
//
// on the n = 94 comparable LLM-Inference-Bench MI300X static batches
// PB119-PB214 (vLLM 0.6.1 built from source with Dockerfile.rocm, float16,
// Llama 3 8B and 70B and Mixtral 8x7B, TP 1-8, batch 1-256, 128 or 1024
// tokens in and out; argonne-lcf/LLM-Inference-Bench at 4211f5d; PB148
// does not fit the pool under the V0 memory terms), from the ROCm terms
// as they stood with gemm_half_tokens at 16 (tools/calibrate
// v06ROCmStart), whose six other terms it keeps (the batch-1 steps at TP 1 bind the
// weight streaming and the overheads). Four terms move:
//   - compute_efficiency 0.6 -> 0.0623 (81 TFLOP/s of the 1,307 dense
//     FP16): the step grows with batch x linear weights (70B/8B: 10x per
//     sequence, the ratio of their linear weights; Mixtral, whose experts
//     run in Triton's fused_moe, grows less than the dense 8B). The same
//     source's TTFT figure (Plots/Fig_21/all_results_TTFT.csv: Llama 3 8B,
//     16 x 1,024 prompt tokens, 2.49 s on MI300X, 0.43 s on H100) puts
//     the prefill GEMMs near 100 TFLOP/s;
//   - attention_bandwidth_efficiency 0.306 -> 0.647 and
//     paged_attention_v1_bandwidth_efficiency 0 -> 0.306: the kernels'
//     grid has one thread block per query head, so each KV head is read
//     once per query head (GQA 4 for 8B and Mixtral, 8 for 70B: per
//     context token the step grows 4-8 times faster than the cache's bytes
//     say), and vLLM switches from the partitioned kernel (V2) to the
//     unpartitioned one (V1) once sequences x query heads per GPU exceed
//     512 (PagedAttention.forward_decode at v0.6.1). The source shows the
//     switch where that rule puts it: at 1,024 and 2,048 tokens the step
//     jumps 2-3x between batch 16 and 32 at 32 query heads per GPU (8B
//     and Mixtral TP 1, 70B TP 2), between 32 and 64 at 16, 64 and 128 at
//     8, 128 and 256 at 4, and past the switch it grows with batch x
//     context at about 1.5 TB/s of query-head reads against 3.5-5 TB/s
//     before it, for every model and TP alike (the 128-token rows, one
//     partition, never switch); the fit gives 1.62 and 3.43 TB/s;
//   - all_reduce_latency_us 0 -> 85.9: 8B's batch-1 step does not shrink
//     from TP 1 to 8 (9.8-10.3 ms at 1,024 tokens): each of its 64
//     all-reduces costs about 85 us beyond the link's 10 us (RCCL, with no
//     custom all-reduce on ROCm).
//
// In sample: mean squared log error 0.896 -> 0.0332 (0.0417 with one KV
// term read once per KV head, the previous fit), median |error| 50 % ->
// 11.5 % (13.4 %), within 15 % 9 % -> 64 % (55 %). Held out by model
// (`-logo vllm@0.6+rocm -logo-by model` with the same -terms): median
// |error| 12.3 % (70B 14.8 %, 8B 10.2 %, Mixtral 14.3 %), 57 % within 15
// % (13.6 %, 52 % before); by TP (`-logo-by tp`) 12.7 %, 56 % (13.8 %,
// 53 %). The 254 comparable rows of the same CSV the cases leave out
// (batch 32 and 128, and 256, 512 and 2,048 tokens in and out; scored from
// a scratch case file, not committed), which no fit saw: 12.4 % -> 9.8 %
// median |error|, 57 % -> 69 % within 15 %. Left: Mixtral at TP 1-2 is 20-30 % slow (its Triton experts
// outrun the dense GEMMs' 81 TFLOP/s) and every model at batch 256 and
// 128 tokens at TP 4-8 is 15-27 % fast. Without the all-reduce term the
// layer overhead carries it (46.7 us) and every model at TP 1 comes out
// slow.
var vllmV06ROCmEff = Efficiencies{BandwidthEfficiency: 0.525, AttentionBandwidthEfficiency: 0.647, ComputeEfficiency: 0.0623, GEMMHalfTokens: 16, AttentionEfficiency: 0.4, StepOverheadMs: 3.29, SequenceOverheadUs: 36.2, LayerOverheadUs: 7.6, ContextOverheadMs: 0, RequestOverheadMs: apiRequestMs, TokenizeUsPerToken: HFTokenizeUsPerToken, AllReduceLatencyUs: 85.9, PagedAttentionV1BandwidthEfficiency: 0.306}
