package release

import (
	"github.com/modelrefs/throughput/internal/strsort"
	"github.com/modelrefs/throughput/internal/units"
)

// MemoryRule is how an engine sizes its KV pool.
type MemoryRule uint8

const (
	// RuleProfiled is vLLM v1's: requested = total * gpu_memory_utilization,
	// pool = requested - weights - activation peak - non-torch memory
	// (vllm/v1/worker/gpu_worker.py determine_available_memory).
	RuleProfiled MemoryRule = iota
	// RuleStatic is SGLang's mem_fraction_static: pool = total * fraction -
	// weights; the rest of the memory is left for activations.
	RuleStatic
	// RuleFreeFraction is LMDeploy's cache_max_entry_count and
	// TensorRT-LLM's kv_cache_free_gpu_mem_fraction: pool = fraction *
	// (total - weights - runtime buffers).
	RuleFreeFraction
)

// Engine is a serving engine's profile: its memory rule and the fitted,
// physically meaningful efficiencies of its kernels. docs/MODEL.md lists
// the data each was fitted on (../shared/validation/cases.json).
type Engine struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	// Name is the request's engine value.
	Name string
	// Label is the engine's display name.
	Label string
	// DefaultUtilization is the default of gpu_memory_utilization, which
	// means the engine's own memory fraction (see MemoryRule).
	DefaultUtilization float64
	Rule               MemoryRule
	// Eff are the engine's efficiencies.
	Eff Efficiencies
	// EffV0 are vLLM's under its V0 engine (engine_version 0.6): the same
	// kernels, a CPU path that scheduled, prepared inputs and sampled in
	// the same process as the model, step by step (nil: Eff for every
	// release).
	EffV0 *Efficiencies
	// EffMetal are the engine's terms on an Apple GPU, where it runs its
	// Metal back end (ggml-metal's kernels, not the CUDA ones Eff was
	// fitted on); nil: Eff on every accelerator.
	EffMetal *Efficiencies
	// EffROCm are the engine's terms on an AMD accelerator, where it runs
	// its ROCm/HIP build (vLLM: hipBLASLt GEMMs, AITER and ROCm attention,
	// HIP graphs, RCCL; llama.cpp: ggml-cuda's kernels built for HIP),
	// under every release but the V0 ones with their own (EffV06ROCm,
	// EffV0ROCm); nil: Eff (and EffV0) on every vendor.
	EffROCm *Efficiencies
	// EffV06ROCm are vLLM 0.6's V0 terms on an AMD accelerator
	// (engine_version 0.6): the upstream ROCm build of that release, whose
	// 16-bit GEMMs ran on the base image's untuned BLAS kernels
	// (engine_rocm.go); nil: EffROCm under every release.
	EffV06ROCm *Efficiencies
	// EffV0ROCm are vLLM V0's terms on an AMD accelerator under the 0.7
	// releases (engine_version 0.7): EffROCm's with V0's own CPU work per
	// sequence (engine_rocm.go); nil: EffROCm.
	EffV0ROCm *Efficiencies
	// EffSync are vLLM V1's terms under a release that schedules
	// synchronously (EngineVersion.SyncScheduling: 0.10 to 0.13): the same
	// kernels as Eff, with the engine core's CPU work per step and per
	// sequence no longer hidden under the GPU's step (nil: Eff under every
	// release). The ROCm build's terms (EffROCm) were fitted on 0.10 cases
	// and carry that time already.
	EffSync *Efficiencies
	// RuntimeBytes is the fixed memory a free-fraction engine keeps out
	// of the pool besides weights (CUDA context, workspaces), in bytes.
	RuntimeBytes units.Bytes
}

// The engine profiles. Efficiencies are the step model's terms
// (Deployment.Step), fitted by `go run ./tools/calibrate -fit ENGINE` from
// one physical prior (tools/calibrate/fit.go) on the cases named in each
// comment; a term those cases do not inform stays near the prior
// (docs/MODEL.md section 4). The memory rules follow each engine's source.
var engines = map[string]*Engine{
	// vLLM (V1 engine). Memory: group A (22 start-up logs). Speed: group B
	// vLLM rows (TPOT at concurrency 1 and 4 on H100); the V0 engine
	// (engine_version 0.6 and 0.7) has its own terms, vllmV0Eff, and the
	// ROCm build on AMD accelerators its own, vllmROCmEff, and under 0.6
	// vllmV06ROCmEff (engine_rocm.go). The MoE block's fixed time per MoE
	// layer (moe_layer_overhead_us, the Triton fused_moe's router, sort and
	// latency-bound grouped GEMMs at a few tokens per expert) by
	//
	//	go run ./tools/calibrate -fit vllm -terms moe_layer_overhead_us
	//
	// on the V1 cases (the MoE ones gpt-oss-20b on an H100, PB584-PB589):
	// 97.7 us, mean squared log error 0.0574 -> 0.0199; held out, the
	// Qwen3-30B-A3B TPOTs at concurrency 1 on an A100 (NB015-NB027) move
	// from -51 % to -2...-6 %, and fitted on them alone the term is the
	// same (docs/MODEL.md section 4, "The MoE block").
	"vllm": {
		Name: "vllm", Label: "vLLM (V1 engine)", DefaultUtilization: 0.9, Rule: RuleProfiled, // 0.92 from 0.21: EngineVersion.GPUMemoryUtilization
		Eff:   Efficiencies{BandwidthEfficiency: 0.82, AttentionBandwidthEfficiency: 0.70, ComputeEfficiency: 0.60, GEMMHalfTokens: 16, AttentionEfficiency: 0.40, StepOverheadMs: 0.71, SequenceOverheadUs: 5, LayerOverheadUs: 7.6, ContextOverheadMs: 0, RequestOverheadMs: apiRequestMs, TokenizeUsPerToken: HFTokenizeUsPerToken, MoELayerOverheadUs: 97.7},
		EffV0: &vllmV0Eff, EffROCm: &vllmROCmEff, EffV06ROCm: &vllmV06ROCmEff, EffV0ROCm: &vllmV0ROCmEff, EffSync: &vllmSyncEff,
	},
	// SGLang: mem_fraction_static defaults to 0.88 on 80 GB-class GPUs
	// (sglang/srt/server_args.py). Speed: vLLM's kernel terms, borrowed
	// (the same kernel families: FlashInfer, CUTLASS, Triton). No SGLang
	// measurement fits them: the 28 SGLang 0.4 H200 serving runs its own
	// terms were once fitted on (datacrunch-research/h200-benchmarks) are
	// kept aside by ../shared/validation/README.md, so those terms were
	// withdrawn on 2026-12-07; the set is flagged (not in EffSources: the
	// single_source_terms warning says the terms are borrowed). The B-group's ShareGPT replays of SGLang 0.3
	// (sgl-project/sglang benchmark/benchmark_vllm_060) are compared, not
	// fitted (docs/MODEL.md sections 4 and 7). Its MoE block
	// (moe_layer_overhead_us) is vLLM's too: SGLang's fused_moe_triton is a
	// fork of vLLM's Triton fused_moe.
	"sglang": {
		Name: "sglang", Label: "SGLang", DefaultUtilization: 0.88, Rule: RuleStatic,
		Eff: Efficiencies{BandwidthEfficiency: 0.82, AttentionBandwidthEfficiency: 0.70, ComputeEfficiency: 0.60, GEMMHalfTokens: 16, AttentionEfficiency: 0.40, StepOverheadMs: 0.71, SequenceOverheadUs: 5, LayerOverheadUs: 7.6, ContextOverheadMs: 0, RequestOverheadMs: apiRequestMs, TokenizeUsPerToken: HFTokenizeUsPerToken, MoELayerOverheadUs: 97.7},
	},
	// LMDeploy TurboMind: cache_max_entry_count 0.8 of the memory free
	// after weights (lmdeploy/messages.py TurbomindEngineConfig). Decode
	// and prefill fitted on group B LMDeploy rows (A100, Llama 2).
	"lmdeploy": {
		Name: "lmdeploy", Label: "LMDeploy TurboMind", DefaultUtilization: 0.8, Rule: RuleFreeFraction,
		Eff:          Efficiencies{BandwidthEfficiency: 0.81, AttentionBandwidthEfficiency: 0.82, ComputeEfficiency: 0.60, GEMMHalfTokens: 16, AttentionEfficiency: 0.40, StepOverheadMs: 1.33, SequenceOverheadUs: 8.9, LayerOverheadUs: 8.6, ContextOverheadMs: 0},
		RuntimeBytes: 1 * units.GiB,
	},
	// TensorRT-LLM: kv_cache_free_gpu_mem_fraction 0.9 (tensorrt_llm
	// KvCacheConfig). Speed: group B TensorRT-LLM 1.x max-throughput rows
	// (`calibrate -fit trtllm -cases ../shared/validation/cases.json`); the
	// context phase's latency by `-fit trtllm -terms context_overhead_ms`
	// on every case (the public v0.5 batch-1 TTFT rows bind it).
	"trtllm": {
		Name: "trtllm", Label: "TensorRT-LLM", DefaultUtilization: 0.9, Rule: RuleFreeFraction,
		Eff:          Efficiencies{BandwidthEfficiency: 0.75, AttentionBandwidthEfficiency: 0.84, ComputeEfficiency: 0.525, GEMMHalfTokens: 20, AttentionEfficiency: 0.445, StepOverheadMs: 0.92, SequenceOverheadUs: 1.3, LayerOverheadUs: 11.5, ContextOverheadMs: 4.7},
		RuntimeBytes: 2 * units.GiB,
	},
	// llama.cpp: allocates the KV cache for its context up front. Speed:
	// `calibrate -fit llamacpp -cases ../shared/validation/cases.json`,
	// group C (llama-bench tg512 on GeForce cards); its matrix-vector
	// kernels' per-SM issue limit, SMBytesPerCycle, by `calibrate -fit
	// llamacpp -terms sm_bytes_per_cycle` on those and the public F16 -pg
	// runs on A100/H100 (2024 builds, PC001-PC012), which were 33 %
	// optimistic without it (docs/MODEL.md section 4). The HIP builds have
	// their own terms (llamacppROCmEff, with their own per-CU limit) and so
	// do Apple GPUs (Metal, llamacppMetalEff).
	"llamacpp": {
		Name: "llamacpp", Label: "llama.cpp", DefaultUtilization: 0.95, Rule: RuleFreeFraction,
		Eff:          Efficiencies{BandwidthEfficiency: 0.85, AttentionBandwidthEfficiency: 0.70, ComputeEfficiency: 0.53, GEMMHalfTokens: 16, AttentionEfficiency: 0.40, StepOverheadMs: 1.33, SequenceOverheadUs: 5, LayerOverheadUs: 9.0, ContextOverheadMs: 0, SMBytesPerCycle: 6},
		EffMetal:     &llamacppMetalEff,
		EffROCm:      &llamacppROCmEff,
		RuntimeBytes: 0.5 * units.GiB,
	},
}

// llamacppROCmEff are llama.cpp's step terms on an AMD accelerator, where
// it runs its HIP back end (ggml-cuda's kernels built for ROCm, with the
// HIP flash-attention paths, not the CUDA ones Eff was fitted on). Fitted by
//
//	go run ./tools/calibrate -fit llamacpp@rocm -skip-sources LLM-Inference-Bench -terms bandwidth_efficiency,attention_bandwidth_efficiency,step_overhead_ms,sm_bytes_per_cycle
//
// on the n = 25 llama-bench tg runs of three independent sources: 21 on a
// Ryzen AI Max+ 395 (Radeon 8060S, RDNA 3.5; lhl/strix-halo-testing at
// 5ee14b5, PC021-PC041), the F16 tg64 of llama.cpp PR #11519 on an
// Instinct MI100 (CDNA 1, wave64) before and after the PR (PC100, PC101)
// and two tg64 rows of PR #26284 on an RX 7900 XTX (RDNA 3, PC102, PC103),
// from the CUDA terms, which the five terms left alone keep. The weights
// stream at 0.723 of the bandwidth (0.85 on GeForce cards) and at most
// 4 bytes per compute unit per cycle (SMBytesPerCycle over the catalog's
// CUs and engine clock: the per-SM issue limit of the CUDA build, 6, at the
// HIP build's own rate); the step costs 2.03 ms (1.33) and the KV read runs
// at 0.301 of the bandwidth, at its 0.3 floor: decode slows with the
// context far more than the cache's bytes say (tg2048 steps are 30-80 %
// longer than tg128 ones), so the HIP attention kernels, not the bytes,
// bind there. The CU cap binds on the HBM Instinct parts only (MI100: 4 x
// 120 x 1.502e9 = 0.72 TB/s of 1.23; MI300X: 2.55 TB/s of 5.3), not on the
// RDNA cards (RX 7900 XTX: 0.96 TB/s of 0.96; Strix Halo: 0.46 of 0.256):
// the wave64 CDNA CUs ran llama.cpp's 32-lane matrix-vector kernels with
// lanes idle until PR #11519 (MI100 F16 tg64 36.85 -> 49.38 t/s; nothing
// on RDNA 2), and the fitted 4 sits between those two builds. In sample:
// mean squared log error 0.0157 -> 0.0122. The MI300X cases
// (LLM-Inference-Bench, 2024 HIP builds, F16) are reported, not fitted:
// they move from -62...-77 % to -49...-68 %. A cap fitted to them too
// (2 bytes per CU-cycle) misses the MI100 held out by +124 % and the RX
// 7900 XTX by +60 % (`-logo llamacpp@rocm -logo-by gpu`): their slowness
// is no per-CU limit these chips share (docs/MODEL.md section 4).
var llamacppROCmEff = Efficiencies{BandwidthEfficiency: 0.723, AttentionBandwidthEfficiency: 0.301, ComputeEfficiency: 0.53, GEMMHalfTokens: 16, AttentionEfficiency: 0.4, StepOverheadMs: 2.03, SequenceOverheadUs: 5, LayerOverheadUs: 9, ContextOverheadMs: 0, SMBytesPerCycle: 4}

// vllmV0Eff are vLLM's step terms under the V0 engine (engine_version
// 0.6), fitted by
//
//	go run ./tools/calibrate -fit vllm@0.6 -terms bandwidth_efficiency,attention_bandwidth_efficiency,compute_efficiency,gemm_half_tokens,attention_efficiency,step_overhead_ms,sequence_overhead_us,layer_overhead_us,tp_step_overhead_ms
//
// on the 114 comparable V0 static batches on A100 and H100 of the public
// cases (calc/validation/testdata/public-cases.json, LLM-Inference-Bench):
// V0's CPU path costs 3.09 ms per step and 53.8 µs per sequence against
// V1's 0.7 ms and 5 µs, and 0.39 ms more per step under tensor
// parallelism, where the driver worker broadcasts each step's inputs to
// the other ranks (Efficiencies.TPStepOverheadMs). Without that term the
// one step overhead (3.4 ms) was too long at TP 1 and too short at TP 4:
// the 7B/8B batches were 12-18 % slow at TP 1 on H100 and 7-11 % fast at
// TP 4. With it: mean squared log error 0.0101 -> 0.0089; held out by TP
// (`-logo vllm@0.6 -logo-by tp` with the same -terms) 74 % within 15 %
// (68 % without the term), by model 87 % (81 %). A per-all-reduce cost
// instead (all_reduce_latency_us) fits to 3 µs and leaves the pattern:
// the cost is per step, not per layer. The ROCm build's MI300X cases are
// not among them: its kernels (hipBLASLt, ROCm attention) are not these,
// and they run under vllmROCmEff (the fit leaves every AMD case to -fit
// vllm@rocm).
var vllmV0Eff = Efficiencies{BandwidthEfficiency: 0.893, AttentionBandwidthEfficiency: 0.685, ComputeEfficiency: 0.356, GEMMHalfTokens: 16, AttentionEfficiency: 0.39, StepOverheadMs: 3.09, SequenceOverheadUs: 53.8, LayerOverheadUs: 9.61, ContextOverheadMs: 0, RequestOverheadMs: apiRequestMs, TokenizeUsPerToken: HFTokenizeUsPerToken, TPStepOverheadMs: 0.391}

// vllmSyncEff are vLLM V1's step terms under the releases that schedule
// synchronously, 0.10 to 0.13 (EngineVersion.SyncScheduling): Eff's
// kernel terms (fitted on vLLM 0.21, which overlaps the scheduler with the
// GPU), with the CPU's work per step and per sequence, which those
// releases run between the GPU's steps, fitted by
//
//	go run ./tools/calibrate -fit vllm@sync -terms step_overhead_ms,sequence_overhead_us
//
// on the 92 comparable cases of five source documents: the 78 of vLLM
// 0.10.1.1 V1 on A100 PCIe 80GB (Qwen2-7B, TP 1 and TP 2 without P2P,
// burst serving runs of 1 to 1,000 requests; dennislee22/vLLM-benchmarking
// at b474d1e, PB500-PB577), their median ITLs compared with the simulated
// median ITL (every gap between tokens; sched.gapHist) and the TP 2 steps
// paying the logits all-gather (calc/deploy/cost.go), the 12 median TPOTs
// of gpt-oss-20b closed loops at concurrency 1 to 16 under vLLM 0.10.x on
// one H100 PCIe, one H200 and one B200 (the three run summaries of
// sariekr/gpu_conc, 2025-08-11 to 08-15, PB590-PB601), and one closed loop
// of Qwen3-30B-A3B at concurrency 10 on an H100 (vLLM PR #23151, main of
// 2025-08-19: median TPOT and output tokens/s, PB602-PB603): mean squared
// log error 0.0296 -> 0.0242 on the first 90 (the two of PR #23151 move
// neither term: 0.0274 before and after); the step costs 2.59 ms (0.71 ms
// under async scheduling) and 37 us per sequence (5): the scheduler's and
// the model runner's per-request Python (request state, block-table rows,
// sampling metadata, output processing) is no longer hidden behind the GPU.
// Fitted on the A100 runs alone the terms were 3.84 ms and 24.5 us; the
// gpt-oss runs' batch-1 steps (4.5 ms on the H200 and the B200 alike, 6.7
// ms on the H100 PCIe, against 2.3 ms of modelled MoE block and under 1 ms
// of weights) leave about 1.5 ms of CPU time a step, so the hosts disagree
// on the fixed CPU time per step (the host CPU is no input of the model)
// and the fit splits it: in sample the A100's TP 1 decode steps stay
// within 8 % below 60 requests but its TP 2 ones are 2 to 3 ms short
// (-2...-22 %), the gpt-oss steps at concurrency 1 to 8 are mostly long,
// by 0.5 to 2.4 ms (+9...+35 %; the B200's at 8 -4 % and at 16 -28 %), and
// PR #23151's Qwen3-30B-A3B step +53 % (its 48 MoE layers pay 4.7 ms of
// composed MoE block). Held out by source (the default report of
// tools/calibrate) the set's decode steps are 50 % of 52 within 15 %
// (18 % of 39 when the A100 README was its one source), its throughputs
// 65 % of 40 (28 %): each source held out gets the others' CPU time, so
// the error left is the hosts' difference, which no term here can carry.
// Freeing moe_layer_overhead_us in this fit as well (-terms
// step_overhead_ms,sequence_overhead_us,moe_layer_overhead_us) gives 3.61
// ms, 29.2 us and 15.7 us a MoE layer, and 87 % of the decode steps held
// out within 15 %, but every MoE case of the set comes from another host
// than every dense one, so the MoE term would carry the hosts' CPU
// difference: 15.7 us is below the fused experts' own batch-1 time beyond
// their bytes in vLLM's kernel benchmark (about 50 us on an A100, 27 us
// on a B200; docs/MODEL.md section 4, "The MoE block"), so it is not
// shipped. Held out by TP (`-logo vllm@sync -logo-by tp`) on the A100
// runs alone: median |error| 11.0 % and 13.4 %. From 10 requests on the
// TP 2 steps still cost about 2 ms more than the modelled SHM all-reduces
// and gather explain; the per-sequence term carries part of it, so the
// band says so.
//
// The MoE block (moe_layer_overhead_us) is GPU time of the same Triton
// fused_moe, not the scheduler's: vLLM V1's 97.7 us, composed.
var vllmSyncEff = Efficiencies{BandwidthEfficiency: 0.82, AttentionBandwidthEfficiency: 0.70, ComputeEfficiency: 0.60, GEMMHalfTokens: 16, AttentionEfficiency: 0.40, StepOverheadMs: 2.59, SequenceOverheadUs: 37, LayerOverheadUs: 7.6, ContextOverheadMs: 0, RequestOverheadMs: apiRequestMs, TokenizeUsPerToken: HFTokenizeUsPerToken, MoELayerOverheadUs: 97.7}

// SyncEff returns the engine's terms under release v where it schedules
// synchronously and has terms for that (EffSync), else nil. V0 releases
// never set SyncScheduling: they have their own terms (EffV0).
func (e *Engine) SyncEff(v EngineVersion) *Efficiencies {
	if v.SyncScheduling {
		return e.EffSync
	}
	return nil
}

// SyncRelease reports whether the engine's release named version (an
// engine_version value) runs under EffSync.
func (e *Engine) SyncRelease(version string) bool {
	v, ok := LookupVersion(e.Name, version)
	return ok && e.SyncEff(v) != nil
}

// llamacppMetalEff are llama.cpp's step terms on an Apple GPU (the Metal
// back end, chosen in resolve by the accelerator's vendor), fitted by
// `go run ./tools/calibrate -fit llamacpp@metal` on the 13 llama.cpp cases
// on Apple GPUs of the public cases (calc/validation/testdata/public-cases.json:
// llama-bench tg32/tg128 and pp512/pp4096 on M2 Ultra and M3 Max from
// llama.cpp PRs #2917, #3084, #10171, #10238 and issue #10444, 2023-2024
// builds): mean squared log error 0.052 under the CUDA terms (decode median
// |err| 22 %, every case optimistic; prefill 16 %), 0.014 fitted (decode
// 11 %, prefill 7 %); held out by source document (`-logo llamacpp@metal`)
// decode 18 %, prefill 16 %. Metal reads the weights at 0.71 of the
// bandwidth against CUDA's 0.85 and costs more per step (2.2 ms) and per
// layer (12.7 us) in kernel launches; its prefill GEMMs (simdgroup matrix
// kernels on the FP32 = FP16 vector peak) reach the prior's 0.6.
var llamacppMetalEff = Efficiencies{BandwidthEfficiency: 0.711, AttentionBandwidthEfficiency: 0.695, ComputeEfficiency: 0.6, GEMMHalfTokens: 16, AttentionEfficiency: 0.473, StepOverheadMs: 2.17, SequenceOverheadUs: 5, LayerOverheadUs: 12.7, ContextOverheadMs: 0}

// VendorEff returns the engine's terms for the back end it runs on an
// accelerator of vendor (Deployment.Hardware.Vendor): EffMetal on "Apple",
// EffROCm on "AMD", nil elsewhere or when the engine has none. resolve
// applies them over the release's terms (ReleaseVendorEff); tools/calibrate
// fits them.
func (e *Engine) VendorEff(vendor string) *Efficiencies {
	switch vendor {
	case "Apple":
		return e.EffMetal
	case "AMD":
		return e.EffROCm
	}
	return nil
}

// ReleaseVendorEff returns the engine's terms for its back end on vendor
// under release version (an engine_version value): EffV06ROCm for vLLM's
// 0.6 and EffV0ROCm for its 0.7 (V0) on "AMD" where the engine has them,
// else VendorEff.
func (e *Engine) ReleaseVendorEff(vendor, version string) *Efficiencies {
	if vendor == "AMD" && version == VLLMV0 && e.EffV06ROCm != nil {
		return e.EffV06ROCm
	}
	if vendor == "AMD" && version == vllmV0Later && e.EffV0ROCm != nil {
		return e.EffV0ROCm
	}
	return e.VendorEff(vendor)
}

// DefaultEngine is the engine a request without one gets.
const DefaultEngine = "vllm"

// EngineOrder is the order the profiles are presented in: vLLM first (the
// default), then by the likeness of their memory rules.
var EngineOrder = []string{"vllm", "sglang", "lmdeploy", "trtllm", "llamacpp"}

// Engines returns every engine profile, the default first, in the order a
// user interface lists them. The profiles are shared: do not modify them.
func Engines() []*Engine {
	out := make([]*Engine, len(EngineOrder))
	for i, name := range EngineOrder {
		out[i] = engines[name]
	}
	return out
}

// EngineDefaults are the values a request's engine settings take under an
// engine when it leaves them out.
type EngineDefaults struct {
	// GPUMemoryUtilization is the engine's own memory fraction (see
	// Engine.DefaultUtilization).
	GPUMemoryUtilization float64 `json:"gpu_memory_utilization"`
	// BlockSize is the KV block size, in tokens.
	BlockSize int `json:"block_size"`
	// MaxNumSeqs is the scheduler's limit on sequences in a batch.
	MaxNumSeqs int `json:"max_num_seqs"`
	// MaxNumBatchedTokens is the scheduler's token budget per step.
	MaxNumBatchedTokens int `json:"max_num_batched_tokens"`
}

// Defaults returns the values resolve gives the engine settings a request
// under this engine leaves out.
//
// The memory fraction is that of the engine's default release (a vLLM
// request naming an older engine_version gets that release's, which
// resolve applies: versions.go EngineVersion.GPUMemoryUtilization).
func (e *Engine) Defaults() EngineDefaults {
	d := EngineDefaults{
		GPUMemoryUtilization: e.DefaultUtilization,
		BlockSize:            DefaultBlockSize,
		MaxNumSeqs:           DefaultMaxNumSeqs,
		MaxNumBatchedTokens:  DefaultMaxNumBatchedTokens,
	}
	if v, ok := LookupVersion(e.Name, ""); ok {
		if v.GPUMemoryUtilization > 0 {
			d.GPUMemoryUtilization = v.GPUMemoryUtilization
		}
		if v.LLMAPI {
			d.BlockSize, d.MaxNumSeqs = TRTLLMTokensPerBlock, TRTLLMMaxBatchSize
		}
	}
	return d
}

// EngineNames lists the engine profiles, sorted.
func EngineNames() []string {
	out := make([]string, 0, len(engines))
	for k := range engines {
		out = append(out, k)
	}
	strsort.Strings(out)
	return out
}

// LookupEngine returns the profile for a name ("" is the default).
func LookupEngine(name string) (*Engine, bool) {
	if name == "" {
		name = DefaultEngine
	}
	e, ok := engines[name]
	return e, ok
}

// The engine settings' defaults, named after the vLLM engine arguments they stand for
// (vllm/config/cache.py, vllm/config/scheduler.py, vLLM 0.19).
const (
	// DefaultGPUMemoryUtilization is vLLM's --gpu-memory-utilization default
	// up to 0.20 (0.92 from 0.21, PR #38284: versions.go).
	DefaultGPUMemoryUtilization = 0.9
	// DefaultBlockSize is vLLM's --block-size default, in tokens.
	DefaultBlockSize = 16
	// DefaultMaxNumSeqs is vLLM's --max-num-seqs default for GPUs.
	DefaultMaxNumSeqs = 256
	// DefaultMaxNumBatchedTokens is vLLM v1's --max-num-batched-tokens
	// default for the OpenAI server on GPUs with chunked prefill, in tokens.
	DefaultMaxNumBatchedTokens = 8192
)
