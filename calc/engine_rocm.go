package calc

// vllmROCmEff are vLLM's step terms on an AMD accelerator (the ROCm
// build: hipBLASLt/AITER GEMMs, ROCm paged attention, HIP graphs and RCCL
// in place of cuBLAS/CUTLASS, FlashAttention/FlashInfer, CUDA graphs and
// NCCL), under the V1 and the V0 engine alike (but 0.6, vllmV06ROCmEff).
// Fitted by
//
//	go run ./tools/calibrate -fit vllm@rocm -terms bandwidth_efficiency,attention_bandwidth_efficiency,step_overhead_ms,sequence_overhead_us
//
// on the n = 32 MI300X V1 static batches PB280-PB311 of the public cases
// (calc/validation/testdata/public-cases.json: vLLM 0.10.0, ROCm 6.4.1,
// Llama 3.1 70B and 405B FP8, TP 8, batch 1-128, 128 or 2048 prompt
// tokens, 2048 output tokens; ROCm/vllm docs/dev-docker/README.md at
// 040de12), starting from the CUDA build's V1 terms (engines["vllm"].Eff),
// which the five terms left alone keep. Four terms move because the cases
// inform four: the weight-streaming efficiency (0.82 -> 0.525) and the step
// overhead (0.71 -> 3.29 ms) from the batch-1 steps of the two models, the
// KV-streaming efficiency (0.70 -> 0.306, near its 0.3 floor) and the
// per-sequence overhead (5 -> 36.2 us) from how the step grows with batch
// at 128 and at 2048 prompt tokens. Freeing layer_overhead_us too lowers
// the in-sample error by 0.6 % of itself and the held-out one not at all;
// compute_efficiency and gemm_half_tokens do not move (decode-bound cases).
//
// In sample: mean squared log error 0.320 -> 0.00975, median |error| 42.0 %
// -> 4.2 %, 88 % of cases within 15 %. Held out by model (`-logo vllm@rocm
// -logo-by model` with the same -terms: fit on 70B, test on 405B, and
// back): median |error| 11.5 % and 13.9 %, 12.7 % over the 32, 66 % within
// 15 %. Held out by release: the 32 V0 cases PB312-PB343 (vLLM 0.7.3 V0,
// ROCm 6.3.1, FP8 KV, the same models and batches), which no fit uses,
// move from -23.6 % to -5.5 % median error, median |error| 9.6 %, 75 %
// within 15 %; a separate V0 fit on them alone held out by model did
// worse (16-17 % median |error|), so V0 on ROCm takes these terms too.
// The LLM-Inference-Bench MI300X rows (vLLM 0.6.1 V0 of 2024, float16;
// PB119-PB214), about -50 % under these terms, run under their release's
// own, vllmV06ROCmEff. The V0 cases PB312-PB343 are engine_version 0.7.
var vllmROCmEff = Efficiencies{BandwidthEfficiency: 0.525, AttentionBandwidthEfficiency: 0.306, ComputeEfficiency: 0.6, GEMMHalfTokens: 16, AttentionEfficiency: 0.4, StepOverheadMs: 3.29, SequenceOverheadUs: 36.2, LayerOverheadUs: 7.6, ContextOverheadMs: 0}

// vllmV06ROCmEff are vLLM 0.6's V0 terms on an AMD accelerator
// (engine_version 0.6; 0.7 and the V1 releases keep vllmROCmEff): the
// upstream ROCm build of that release (Dockerfile.rocm at v0.6.1 on a
// rocm/pytorch base image, its 16-bit linear layers through torch's
// F.linear on the base image's BLAS kernels, where AMD's own images and
// upstream's later Dockerfile.rocm_base build a pinned hipBLASLt and tuned
// GEMMs; vLLM's 2024 build files compiled its custom all-reduce for CUDA
// only, as setup.py's _is_cuda() branch shows). Fitted by
//
//	go run ./tools/calibrate -fit vllm@0.6+rocm -terms attention_bandwidth_efficiency,compute_efficiency,all_reduce_latency_us
//
// on the n = 95 comparable LLM-Inference-Bench MI300X static batches
// PB119-PB214 (vLLM 0.6.1 built from source with Dockerfile.rocm, float16,
// Llama 3 8B and 70B and Mixtral 8x7B, TP 1-8, batch 1-256, 128 or 1024
// tokens in and out; argonne-lcf/LLM-Inference-Bench at 4211f5d), from
// vllmROCmEff, whose six other terms it keeps (the batch-1 steps at TP 1
// bind the weight streaming and the overheads). Three terms move:
//   - compute_efficiency 0.6 -> 0.0623 (81 TFLOP/s of the 1,307 dense
//     FP16): the step grows with batch x linear weights (70B/8B: 10x per
//     sequence, the ratio of their linear weights; Mixtral, whose experts
//     run in Triton's fused_moe, grows less than the dense 8B). The same
//     source's TTFT figure (Plots/Fig_21/all_results_TTFT.csv: Llama 3 8B,
//     16 x 1,024 prompt tokens, 2.49 s on MI300X, 0.43 s on H100) puts
//     the prefill GEMMs near 100 TFLOP/s;
//   - attention_bandwidth_efficiency 0.306 -> 0.0908: the step grows with
//     the context 4-8 times faster than the KV cache's bytes say, as if
//     the paged-attention kernel read each KV head once per query head
//     (GQA ratio 4 for 8B and Mixtral, 8 for 70B);
//   - all_reduce_latency_us 0 -> 82.8: 8B's batch-1 step does not shrink
//     from TP 1 to 8 (9.8-10.3 ms at 1,024 tokens): each of its 64
//     all-reduces costs about 80 us beyond the link's 10 us (RCCL, with no
//     custom all-reduce on ROCm).
//
// In sample (n = 94: PB148 no longer fits the pool under the V0 memory
// terms): mean squared log error 0.896 -> 0.0417, median |error| 50 % ->
// 13.4 %, within 15 % 9 % -> 55 %. Held out by model (`-logo
// vllm@0.6+rocm -logo-by model` with the same -terms): median |error|
// 13.6 % (70B 19.0 %, 8B 10.9 %, Mixtral 12.1 %), 52 % within 15 %; by TP
// (`-logo-by tp`) 13.8 %, 53 %. (First fitted on 95 cases before the
// memory terms: 0.0759, 13.9 % in sample.) Without the all-reduce term the layer
// overhead carries it (46.7 us) and every model at TP 1 comes out slow.
var vllmV06ROCmEff = Efficiencies{BandwidthEfficiency: 0.525, AttentionBandwidthEfficiency: 0.0908, ComputeEfficiency: 0.0623, GEMMHalfTokens: 16, AttentionEfficiency: 0.4, StepOverheadMs: 3.29, SequenceOverheadUs: 36.2, LayerOverheadUs: 7.6, ContextOverheadMs: 0, AllReduceLatencyUs: 82.8}
