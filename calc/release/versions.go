package release

import (
	"slices"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/units"
	"github.com/modelrefs/throughput/kvcache"
)

// EngineVersion is what one release of an engine does differently from the
// others in the terms the engine models: how its memory profiler sizes the
// KV pool, how it admits a request and how it states its capacity. The
// releases between two change points behave alike; docs/MODEL.md section
// 11 lists each change with its source.
type EngineVersion struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	// Name is the request's engine_version value ("0.19").
	Name string
	// V0 is vLLM's V0 engine (the default before v0.8.0): without chunked
	// prefill (its default up to a 32K max_model_len) max_num_batched_tokens
	// defaults to max(max_model_len, 2048), so the profile run, and the
	// activation peak, grows with max_model_len (vllm/config.py
	// SchedulerConfig at v0.6.3; vLLM issue #10517 shows the pool shrinking
	// as max_model_len grows). Above 32K it turns chunked prefill on and
	// the budget falls to a fixed chunk (V0BatchedTokens).
	V0 bool
	// CUDAGraphEstimate: the profiler subtracts its estimate of the CUDA
	// graphs' memory from the pool (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS,
	// added off by default in PR #30515, on by default since v0.21.0:
	// vllm/v1/worker/gpu_worker.py determine_available_memory logs "CUDA
	// graph memory profiling is enabled (default since v0.21.0)").
	CUDAGraphEstimate bool
	// FullPromptAdmission: a waiting request is admitted only when its whole
	// prompt fits in the free blocks (PR #37307,
	// SchedulerConfig.scheduler_reserve_full_isl, default True; modelled
	// from 0.20, the first release after 0.19); before it, when its first
	// chunk does. Engines without release profiles keep the whole-prompt
	// rule, as does V0, which prefills a prompt whole.
	FullPromptAdmission bool
	// CapacityFromConcurrency: "GPU KV cache size" is
	// int(max_concurrency x max_model_len) (vllm/v1/core/kv_cache_utils.py
	// _report_kv_cache_config after 0.19, PRs #38364 and #40694); up to
	// 0.19 it is num_blocks // groups x block_size.
	CapacityFromConcurrency bool
	// KVRules are the release's KV-cache grouping rules
	// (vllm/v1/core/kv_cache_utils.py _get_kv_cache_groups_uniform_page_size
	// and get_kv_cache_groups): the group size is the largest layer type's
	// count when under MaxOverMin times the smallest's (none before PR
	// #29303, 1.25 from 0.12, 1.5 from 0.18 by PR #36684); layers of one
	// kind and different widths share one group from 0.11 (PR #25101,
	// UniformTypeKVCacheSpecs). Every release is modelled grouping the
	// whole model once, each pipeline stage holding its share of every group
	// (get_kv_cache_configs since PR #23974, 0.11; 0.10 grouped each stage
	// alone and asserted that the stages agree, unify_kv_cache_configs).
	KVRules kvcache.Rules
	// MoELoRA is vLLM's fused-MoE LoRA: --enable-lora wraps the routed
	// experts too (vllm/lora/layers/fused_moe.py FusedMoEWithLoRA, PR
	// #21229, shipped in the 0.11 patch releases); before it they were
	// not wrapped.
	MoELoRA bool
	// SamplerSort: the profile run's dummy sampler (every sequence with a
	// top_k of vocab-1 and a top_p, 0.9 in gpu_model_runner.py
	// _dummy_sampler_run, 0.99 in V0's model_runner.py profile_run) filters with PyTorch's sort-based top-k /
	// top-p (vllm/v1/sample/ops/topk_topp_sampler.py apply_top_k_top_p,
	// V0's vllm/model_executor/layers/sampler.py _apply_top_k_top_p):
	// logits.sort over the whole vocabulary holds the sorted values, int64
	// indices and the radix sort's double buffers beside the float32
	// logits, about ten float32 [S, vocab] tensors at its peak (PR #32558
	// measured 1.25 GB for its PyTorch path at 256 x 131072). From PR
	// #33538 a batch of 8 or more rows takes the Triton kernel, which
	// masks in place; the 0.19 logs the V1 activation was fitted on ran
	// it. Modelled through 0.16 (the PR was opened on 2026-02-02; its
	// first release is assumed to be 0.17, cut in March 2026), and for V0.
	// At 0.10-0.11.0 FlashInfer's sampler was the default where
	// flashinfer imported (PR #26859 turned it off after v0.11.0); the
	// v0.11.0 log of group A (A063) shows the sort's peak, so the sort is
	// modelled there too.
	SamplerSort bool
	// NCCLRecordStream: vLLM of December 2023 (engine_version 0.2, PR
	// #2031 onwards) takes the profile's peak as total - free after the
	// dummy forward (vllm/worker/worker.py profile_num_available_blocks),
	// so it counts the memory PyTorch's caching allocator reserved, and
	// under tensor parallelism every all-reduce input stays reserved for
	// the whole forward: ProcessGroupNCCL record_stream()s it on the NCCL
	// stream, and the allocator cannot reuse a block freed while that
	// stream's work is still queued behind the CPU (vLLM issue #2248;
	// v0.2.7 set TORCH_NCCL_AVOID_RECORD_STREAMS=1, which ends it). The
	// forward's peak then holds two [T, hidden] all-reduce outputs per
	// layer (the row-parallel o_proj and down_proj of every layer).
	NCCLRecordStream bool
	// OverlapSchedule: SGLang's overlap scheduler, on by default from
	// v0.4.0 (the LMSYS post "SGLang v0.4: Zero-Overhead Batch Scheduler",
	// 2024-12-04: "the scheduler runs one batch ahead"; before it
	// --enable-overlap-schedule was opt-in), so a request arriving while a
	// step runs waits one step more for its prefill
	// (sched.Config.OverlapSchedule). Off under engine_version 0.3 (SGLang
	// 0.3.x) and for every other engine.
	OverlapSchedule bool
	// GraphMaxByMemory: SGLang 0.5 sizes its decode CUDA graphs
	// (cuda_graph_max_bs) by the GPU's memory and the TP size; 0.3 and
	// 0.4 capture up to 160 sequences (SGLangDefaults).
	GraphMaxByMemory bool
	// GPUMemoryUtilization is the release's --gpu-memory-utilization
	// default, taken when a request leaves the field out (0: the engine's
	// own, Engine.DefaultUtilization). vLLM raised it from 0.9 to 0.92 in
	// PR #38284 ("[Startup][UX] Enable CUDAGraph memory profiling by
	// default", merged 2026-04-21 as commit 96a85c5): the same change that
	// turned the CUDA-graph estimate on, "correspondingly" increasing the
	// default "to preemptively address the impact" (the PR's description;
	// vllm/config/cache.py CacheConfig.gpu_memory_utilization
	// Field(default=0.92), "If unspecified, will use the default value of
	// 0.92"). Its first release is taken to be v0.21.0, as the worker's own
	// log says ("CUDA graph memory profiling is enabled (default since
	// v0.21.0)", after PR #40465 bumped that version) and as the PR planned
	// ("slated for default enablement in v0.21"). Uncertain: v0.20.0 was cut
	// on 2026-04-27, after the merge, and one third-party digest of its
	// notes lists #38284; were it in v0.20.0, 0.20 would take 0.92 (and the
	// estimate) too.
	GPUMemoryUtilization float64
	// KVReadPerQueryHead: the decode attention kernel reads each KV head
	// once for every query head it serves, so a GQA model's decode step
	// reads its cache heads/kv_heads times over (per rank: query heads over
	// KV heads of the rank). TensorRT-LLM's masked multi-head attention
	// kernel runs one thread block per (sequence, query head) and loads
	// the keys and values of that head's KV head, hi_kv = hi / qhead_per_kv
	// (cpp/tensorrt_llm/kernels/decoderMaskedMultiheadAttention/
	// decoderMaskedMultiheadAttentionTemplate.h: "For MQA/GQA mode, write
	// only with the first Q head of each group per KV head", the reads
	// having no such guard); up to 0.6 it was the generation phase's only
	// kernel. The release after 0.6.1 brought "MMHA optimization for MQA
	// and GQA" (the changelog of NVIDIA/TensorRT-LLM PR #524, 2023-12-01)
	// and the XQA kernels, which process a KV head's query group in one
	// block (docs/source/blogs/XQA-kernel.md; the project's own news of
	// December 2023: "H200 is now 2.4x faster on Llama-70B with recent
	// improvements to TensorRT-LLM GQA"), so it is modelled for
	// TensorRT-LLM 0.5 and 0.6 only. The cache is read at the attention
	// bandwidth efficiency; L2 reuse between the group's blocks is not
	// modelled.
	KVReadPerQueryHead bool
	// SyncScheduling: the engine core schedules step n+1 only after step
	// n's outputs are back, so its CPU work per step (scheduling, the
	// workers' input preparation, the output update, under tensor
	// parallelism the broadcast of the scheduler output to the worker
	// processes) runs between the GPU's steps instead of under them. vLLM
	// V1 did so up to 0.13: PR #19970 (v0.10.0) brought the asynchronous
	// scheduler behind --async-scheduling ("the scheduler operate one step
	// ahead of the current execution"), and v0.14.0 turned it on by default
	// (PR #27614; the v0.14.0 release notes: "Async scheduling is now
	// enabled by default ... Overlaps engine core scheduling with GPU
	// execution"). Those releases take Engine.EffSync.
	SyncScheduling bool
	// LLMAPI: TensorRT-LLM 1.x's LLM API (trtllm-serve, the PyTorch
	// backend) gives a request that leaves block_size and max_num_seqs out
	// TRTLLMTokensPerBlock and TRTLLMMaxBatchSize.
	LLMAPI bool
	// Budget160GiB: vLLM's OpenAI server gives a GPU that reports 160 GiB
	// or more a 16,384-token max_num_batched_tokens by default instead of
	// 8192 (VLLMBatchDefaults). PR #51726 ("[Config] Update default
	// _max_num_batched_tokens from 8192 to 16384", commit 4988df2e, merged
	// 2026-08-11) put a tier above the 70 GiB one in
	// vllm/engine/arg_utils.py EngineArgs.get_batch_defaults: "for GPUs
	// like B200/B300 with >= 160GB memory, use the largest defaults",
	// 16384 tokens for both usage contexts (the LLM class had 16384 from
	// 70 GiB already) and 1024 sequences as before. The commit is in
	// v0.28.0 and its candidates and in no v0.27 tag, so from 0.28. The
	// v0.28.0 tree is not stored here: the tier and its values are as two
	// write-ups quote it (code-index file ids 69004100460, 69027517413)
	// and a ROCm build script quotes its line (67033294132; docs/MODEL.md
	// section 11).
	Budget160GiB bool
}

// The change points of vLLM's releases, as minor versions of 0.x.
const (
	VLLMFirstV1        = 10 // the first V1 release modelled (V1 default since 0.8)
	vllmFullAdmission  = 20 // PR #37307
	vllmCapacityFormat = 20 // PRs #38364 / #40694: after 0.19
	vllmCUDAGraphOn    = 21 // default since v0.21.0
	vllmUtil092        = 21 // PR #38284 (merged 2026-04-21): gpu_memory_utilization 0.9 -> 0.92, with the estimate
	vllmUniformType    = 11 // PR #25101 (2025-09-19), after v0.10.2 (2025-09-13)
	vllmMaxOverMin125  = 12 // PR #29303 (2025-11-24), before v0.12.0 (2025-12-03)
	vllmMaxOverMin15   = 18 // PR #36684 (2026-03-12), after v0.17's cut (main removed v0.18 deprecations on 2026-03-09)
	vllmMoELoRA        = 12 // PR #21229: in 0.11.1+ (TRL issue #4584 names 0.11.2), in every 0.12 release
	vllmBudget160GiB   = 28 // PR #51726 (merged 2026-08-11): v0.28.0 is the first tag that contains it
	// VLLMNewest is v0.33.0, the release deployments pin in December 2026
	// (issue 31; releases come about every two weeks: v0.30.0 on
	// 2026-09-22, v0.31.0 on 2026-10-05, as chrisqianz/vllm-cli's release
	// notes of those days record, syncing to each tag). Neither the v0.32 nor
	// the v0.33 tag is in the stored snapshots (vllm-project/vllm is over
	// the fetch limit; the fork local-inference-lab/vllm stops at main of
	// 2026-05-24, 28be48fa9): 0.32 and 0.33 take 0.31's terms, the newest
	// stored code's, which a stored vllm/config/cache.py of the 0.29-0.31
	// cycle (vllm-project/vllm@002f10e0: gpu_memory_utilization
	// Field(default=0.92), DEFAULT_BLOCK_SIZE 16) confirms for the memory
	// fraction and the block; PR #51726's 16,384-token budget from 160 GiB
	// (0.28, EngineVersion.Budget160GiB) is the one batch default read to
	// move after 0.21.
	VLLMNewest        = 33
	vllmTritonSampler = 17 // PR #33538 (opened 2026-02-02): the first release after it is assumed
	vllmAsyncSchedule = 14 // PR #27614: async scheduling on by default from v0.14.0 (January 2026)
	VLLMV0            = "0.6"
	vllmV02Name       = "0.2" // December 2023: PR #2031's profiler, before v0.2.7's TORCH_NCCL_AVOID_RECORD_STREAMS
	// vllmV0Later is V0 as the 0.7 releases ran it (V0 was the default up
	// to 0.7; 0.8 made V1 the default): the same engine and terms as 0.6
	// everywhere but on ROCm, where 0.6's upstream build had its own GEMM
	// path (Engine.EffV06ROCm, engine_rocm.go).
	vllmV0Later = "0.7"
)

// DefaultEngineVersion is the vLLM release a request without one gets: the
// newest modelled.
var DefaultEngineVersion = "0." + strconv.Itoa(VLLMNewest)

// SGLangVersion is SGLang's default release profile (its memory rule,
// mem_fraction_static, has not changed across the releases modelled),
// SGLangV04 its 0.4 releases (December 2024 to mid 2025: the overlap
// scheduler on, decode CUDA graphs up to 160 sequences), and SGLangV03
// its 0.3 releases (September to November 2024), before the overlap
// scheduler was the default (EngineVersion.OverlapSchedule).
const (
	SGLangVersion = "0.5"
	SGLangV04     = "0.4"
	SGLangV03     = "0.3"
)

// TensorRT-LLM's releases as engine_version names them: 0.5 to 0.21 and
// 1.0 to trtllmNewestMinor (1.4, the release Dynamo 1.7 pins in November
// 2026, issue 31; the newest NVIDIA/TensorRT-LLM version.py stored is
// 1.2.0rc2, and a 2026 tensorrt_llm/llmapi/llm_args.py, the one
// TRTLLMTokensPerBlock cites, is the newest code read). They differ in
// the terms modelled before 0.7 (EngineVersion.KVReadPerQueryHead) and in
// the LLM API's defaults from 1.0 (EngineVersion.LLMAPI).
const (
	trtllmFirstMinor     = 5 // v0.5.0, October 2023: the first public release
	trtllmLastZeroMinor  = 21
	trtllmGQAKernels     = 7 // the MMHA GQA optimization and XQA (PR #524)
	trtllmNewestMinor    = 4 // 1.4
	TRTLLMDefaultVersion = "1.4"
	// TRTLLMTokensPerBlock and TRTLLMMaxBatchSize are TensorRT-LLM 1.x's
	// KvCacheConfig tokens_per_block Field(default=32) and BaseLlmArgs
	// max_batch_size Field(default=2048) (tensorrt_llm/llmapi/llm_args.py;
	// read in a 2026 tree, code-index file id 55143598664, which also gives
	// max_num_tokens 8192, the engine's own, and free_gpu_memory_fraction
	// 0.9, the pool rule's; tokens_per_block 32 in the older copies
	// 1090804222 and 7019226376 too): EngineVersion.LLMAPI.
	TRTLLMTokensPerBlock = 32
	TRTLLMMaxBatchSize   = 2048
)

// TRTLLMVersions lists TensorRT-LLM's values of engine_version.
func TRTLLMVersions() []string {
	var out []string
	for v := trtllmFirstMinor; v <= trtllmLastZeroMinor; v++ {
		out = append(out, "0."+strconv.Itoa(v))
	}
	for v := 0; v <= trtllmNewestMinor; v++ {
		out = append(out, "1."+strconv.Itoa(v))
	}
	return out
}

// AllEngineVersions is the union of every engine's engine_version values
// (the field's enum): EngineVersions, then TensorRT-LLM's not among them.
func AllEngineVersions() []string {
	out := EngineVersions()
	for _, v := range TRTLLMVersions() {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// trtllmVersion returns TensorRT-LLM's profile of release name (a minor,
// patch already stripped; "" for the default) and whether it is one.
func trtllmVersion(name string) (EngineVersion, bool) {
	if name == "" {
		name = TRTLLMDefaultVersion
	}
	// The names TRTLLMVersions lists, read without building the list (this
	// runs on every TensorRT-LLM request).
	major, minorText, ok := strings.Cut(name, ".")
	minor, err := strconv.Atoi(minorText)
	if !ok || err != nil || minorText != strconv.Itoa(minor) ||
		!(major == "0" && minor >= trtllmFirstMinor && minor <= trtllmLastZeroMinor ||
			major == "1" && minor >= 0 && minor <= trtllmNewestMinor) {
		return EngineVersion{}, false
	}
	return EngineVersion{Name: name, FullPromptAdmission: true, KVRules: otherKVRules,
		KVReadPerQueryHead: major == "0" && minor < trtllmGQAKernels, LLMAPI: major == "1"}, true
}

// EngineVersions lists the values of engine_version: vLLM's V0 of
// December 2023 ("0.2"), of 2024 ("0.6") and of the 0.7 releases ("0.7"),
// its V1 releases 0.10 to the newest, and SGLang's.
func EngineVersions() []string {
	out := append(make([]string, 0, 3), vllmV02Name, VLLMV0, vllmV0Later) // not a literal: no [3]string type in the engines
	for v := VLLMFirstV1; v <= VLLMNewest; v++ {
		out = append(out, "0."+strconv.Itoa(v))
	}
	return append(out, SGLangV03, SGLangV04, SGLangVersion)
}

// LookupVersion returns the profile of release name under engine (a
// request's engine_version, "" for the engine's default) and whether it is
// one. A patch release ("0.19.1", "v0.19.0") is its minor's profile.
func LookupVersion(engine, name string) (EngineVersion, bool) {
	name = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(name)), "v")
	if strings.Count(name, ".") == 2 {
		i := strings.LastIndexByte(name, '.')
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i]
		}
	}
	if engine == "trtllm" {
		return trtllmVersion(name)
	}
	if engine != "vllm" {
		if name == "" || (engine == "sglang" && (name == SGLangVersion || name == SGLangV04 || name == SGLangV03)) {
			sgl := engine == "sglang"
			return EngineVersion{Name: name, FullPromptAdmission: true, KVRules: otherKVRules,
				OverlapSchedule:  sgl && name != SGLangV03,
				GraphMaxByMemory: sgl && (name == "" || name == SGLangVersion)}, true
		}
		return EngineVersion{}, false
	}
	if name == "" {
		name = DefaultEngineVersion
	}
	if name == VLLMV0 || name == vllmV0Later || name == vllmV02Name {
		// V0 without chunked prefill schedules a prompt whole, so it
		// admits one only when all of it fits.
		return EngineVersion{Name: name, V0: true, FullPromptAdmission: true, KVRules: otherKVRules,
			SamplerSort: true, NCCLRecordStream: name == vllmV02Name, GPUMemoryUtilization: 0.9}, true
	}
	minor, err := strconv.Atoi(strings.TrimPrefix(name, "0."))
	if err != nil || !strings.HasPrefix(name, "0.") || minor < VLLMFirstV1 || minor > VLLMNewest {
		return EngineVersion{}, false
	}
	return EngineVersion{
		Name:                    name,
		CUDAGraphEstimate:       minor >= vllmCUDAGraphOn,
		FullPromptAdmission:     minor >= vllmFullAdmission,
		CapacityFromConcurrency: minor >= vllmCapacityFormat,
		KVRules:                 kvRules(minor),
		MoELoRA:                 minor >= vllmMoELoRA,
		SamplerSort:             minor < vllmTritonSampler,
		GPUMemoryUtilization:    vllmUtilization(minor),
		SyncScheduling:          minor < vllmAsyncSchedule,
		Budget160GiB:            minor >= vllmBudget160GiB,
	}, true
}

// vllmUtilization returns vLLM 0.minor's --gpu-memory-utilization default
// (EngineVersion.GPUMemoryUtilization): 0.9 up to 0.20
// (vllm/config/cache.py at v0.19.0 and before, and vllm/engine/arg_utils.py
// before CacheConfig), 0.92 from 0.21 (PR #38284).
func vllmUtilization(minor int) float64 {
	if minor >= vllmUtil092 {
		return 0.92
	}
	return 0.9
}

// V0BatchedTokens returns vLLM V0's max_num_batched_tokens default when
// the request leaves it out, in tokens, and whether chunked prefill is on
// (its default also). EngineArgs.create_engine_config turns chunked
// prefill on when max_model_len > 32768 ("to avoid OOM errors in the
// initial memory profiling phase") on a CUDA device (ROCm's build is one
// up to PR #11146 of 2024-12-13, which left ROCm out: so 0.6, not 0.7;
// a custom accelerator without a vendor is taken for NVIDIA's) for a
// model without a sliding window, speculative decoding or LoRA
// (chunkable: the deployment says which; vllm/engine/arg_utils.py at
// v0.6.3 and v0.7.3). SchedulerConfig then defaults the budget to 512
// tokens (vllm/config.py at v0.6.3: "the values that have the best
// balance between ITL and TTFT on A100"), 2048 from PR #10544
// (2024-11-22, in v0.6.5 and 0.7: _DEFAULT_MAX_NUM_BATCHED_TOKENS), and
// under multi-step scheduling (steps > 1) to max(max_model_len, 2048);
// without chunked prefill to max(max_model_len, 2048). vLLM refuses a
// budget under max_num_seqs; the engine raises it to maxNumSeqs instead.
// vLLM of December 2023 (0.2) had no chunked prefill (PR #6666, July
// 2024, turned it on above 32K).
func (v *EngineVersion) V0BatchedTokens(maxModelLen, maxNumSeqs, steps int, chunkable bool) (tokens int, chunked bool) {
	chunked = chunkable && maxModelLen > 32768 && v.Name != vllmV02Name
	tokens = max(maxModelLen, 2048)
	switch {
	case chunked && steps > 1: // multi-step chunked prefill: max(max_model_len, 2048)
	case chunked && v.Name == VLLMV0:
		tokens = 512
	case chunked:
		tokens = 2048
	}
	return max(tokens, maxNumSeqs), chunked
}

// otherKVRules group the layers of engines without vLLM V1 release profiles
// (V0, SGLang, the others): vLLM 0.12-0.17's rules, the ones the engine
// applied everywhere before releases were modelled, kept so their figures
// do not move.
var otherKVRules = kvcache.Rules{MaxOverMin: 1.25}

// kvRules returns vLLM 0.minor's KV grouping rules.
func kvRules(minor int) kvcache.Rules {
	r := kvcache.Rules{UniformType: minor >= vllmUniformType}
	switch {
	case minor >= vllmMaxOverMin15:
		r.MaxOverMin = 1.5
	case minor >= vllmMaxOverMin125:
		r.MaxOverMin = 1.25
	}
	return r
}

// VLLMBatchDefaults returns the max_num_seqs and max_num_batched_tokens
// that vLLM's OpenAI server (vllm serve, UsageContext.OPENAI_API_SERVER)
// of release v gives a V1 deployment on hw when the request leaves them
// out: 1024 and 8192 on an accelerator that reports 70 GiB or more and is
// not an A100, 256 and 2048 on the others (a large token budget slows the
// A100, PR #17885); from 0.28 (v.Budget160GiB, PR #51726) 1024 and 16384
// on one that reports 160 GiB or more, whatever its vendor (the tier tests
// the memory alone). TPUs then take a token budget by chip, v6e 1024, v5e
// 512, v5p 256 (vllm/engine/arg_utils.py EngineArgs.get_batch_defaults,
// which reads current_platform.get_device_total_memory(); the 70 GiB tier
// the same from v0.10.0 to the newest main read).
func VLLMBatchDefaults(hw *hardware.Accelerator, v *EngineVersion) (seqs, tokens int) {
	seqs, tokens = 256, 2048
	switch mem, id := hw.ReportedMemory(), hw.ID; {
	case v.Budget160GiB && mem >= 160*units.GiB:
		seqs, tokens = 1024, 16384
	case mem >= 70*units.GiB && !strings.Contains(id, "a100"):
		seqs, tokens = 1024, 8192
	case strings.HasPrefix(id, "tpu-v6e"):
		tokens = 1024
	case strings.HasPrefix(id, "tpu-v5e"):
		tokens = 512
	case strings.HasPrefix(id, "tpu-v5p"):
		tokens = 256
	}
	return seqs, tokens
}

// CUDA-graph memory estimate of vLLM's profiler (PR #30515,
// vllm/v1/worker/gpu_model_runner.py profile_cudagraph_memory): it captures
// graphs on a dummy KV cache and extrapolates to every capture size. The
// model: each captured graph holds a fixed part (its workspace and output
// buffers) and one piece per layer (piecewise graphs are split at every
// attention layer, and full graphs keep per-layer attention metadata):
//
//	estimate = graphs x (cgPerGraph + cgPerLayer x layers of the stage)
//
// graphs counts the capture sizes of both modes of the default
// FULL_AND_PIECEWISE: piecewise graphs for every size up to
// min(2 x max_num_seqs, 512), full decode graphs for sizes up to
// max_num_seqs (vllm/config/vllm.py default cudagraph_capture_sizes: 1, 2,
// 4, then steps of 8 to 248, then steps of 16). The two constants are
// fitted by `go run ./tools/calibrate -fit-memory` on the
// cuda_graph_estimated_gib of the 23 vLLM 0.19 start-up logs of
// ../shared/validation/cases.json group A (least squares; docs/MODEL.md
// section 11 gives the residuals).
const (
	cgPerGraph = 4.133 * units.MiB
	cgPerLayer = 0.166 * units.MiB
)

// CUDAGraphCaptures returns the number of graphs vLLM captures by default
// for max_num_seqs (both modes).
func CUDAGraphCaptures(maxNumSeqs int) int {
	top := min(2*maxNumSeqs, 512)
	n := 0
	for _, s := range captureSizes {
		if s <= top {
			n++
		}
		if s <= maxNumSeqs {
			n++
		}
	}
	return n
}

// captureSizes are vLLM's default capture sizes up to 512.
var captureSizes = func() []int {
	s := []int{1, 2, 4}
	for x := 8; x < 256; x += 8 {
		s = append(s, x)
	}
	for x := 256; x <= 512; x += 16 {
		s = append(s, x)
	}
	return s
}()

// CUDAGraphEstimate returns the profiler's estimate for a stage of layers
// layers under max_num_seqs, in bytes.
func CUDAGraphEstimate(maxNumSeqs, layers int) units.Bytes {
	return units.Bytes(CUDAGraphCaptures(maxNumSeqs)) * (cgPerGraph + cgPerLayer*units.Bytes(layers))
}

// UnknownVersion is the message for a release name that engine does not
// model: the names it does, or that it has no release profiles.
func UnknownVersion(engine, name string) string {
	msg := "unknown release " + fielderr.Quote(name) + " of " + engine
	switch engine {
	case "vllm":
		msg += "; one of " + vllmV02Name + ", " + VLLMV0 + ", " + vllmV0Later + ", 0." + strconv.Itoa(VLLMFirstV1) + " to " + DefaultEngineVersion
	case "sglang":
		msg += "; one of " + SGLangV03 + ", " + SGLangV04 + ", " + SGLangVersion
	case "trtllm":
		msg += "; one of 0." + strconv.Itoa(trtllmFirstMinor) + " to 0." + strconv.Itoa(trtllmLastZeroMinor) + " or 1.0 to " + TRTLLMDefaultVersion
	default:
		msg = engine + " has no release profiles; leave engine_version out"
	}
	return msg
}
