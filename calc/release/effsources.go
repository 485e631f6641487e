package release

// EffSet names the efficiency set a deployment of the engine under release
// v on an accelerator of vendor (hardware.Accelerator.Vendor) runs with, as
// calc/deploy resolves its terms and as tools/calibrate names its fit
// targets: "vllm" (Eff), "vllm@0.6" (EffV0, every V0 release),
// "vllm@sync" (EffSync), "vllm@rocm" and "llamacpp@rocm" (EffROCm),
// "llamacpp@metal" (EffMetal), "vllm@0.6+rocm" (EffV06ROCm) and
// "vllm@0.7+rocm" (EffV0ROCm). The vendor's back end wins over the
// release's terms, as in resolve.
func (e *Engine) EffSet(vendor string, v EngineVersion) string {
	switch {
	case vendor == "AMD" && v.Name == VLLMV0 && e.EffV06ROCm != nil:
		return e.Name + "@0.6+rocm"
	case vendor == "AMD" && v.Name == vllmV0Later && e.EffV0ROCm != nil:
		return e.Name + "@0.7+rocm"
	case vendor == "AMD" && e.EffROCm != nil:
		return e.Name + "@rocm"
	case vendor == "Apple" && e.EffMetal != nil:
		return e.Name + "@metal"
	case v.V0 && e.EffV0 != nil:
		return e.Name + "@0.6"
	case e.SyncEff(v) != nil:
		return e.Name + "@sync"
	}
	return e.Name
}

// EffSources are the source documents each efficiency set's terms were
// fitted on: the distinct sources (calc/validation SourceKey: a file of a
// repository, an issue or pull request, a web page) of the comparable
// speed cases the set's fit uses (tools/calibrate: the cases of its
// engine, release and vendor, less the replayed serving runs and the
// sources its fit skips). A set with one source has, in sample, the
// freedom of a per-source constant: its figures are untested on any
// other document. tools/calibrate's TestEffSourcesMatchCases recomputes
// the table from the cases.
var EffSources = map[string][]string{
	"vllm": {
		"vllm-project/vllm-project.github.io/_posts/2026-04-22-fp8-kvcache.md",
		"yobitelcomm.github.io/bench/recipes/concurrency-sweep",
	},
	"vllm@0.6": {
		"argonne-lcf/LLM-Inference-Bench/Plots/All_results.csv",
	},
	"vllm@sync": {
		"dennislee22/vLLM-benchmarking/README.md",
		"sariekr/gpu_conc/H100/benchmark_summary_20250811_091131.json",
		"sariekr/gpu_conc/H200/benchmark_summary_20250814_182107.json",
		"sariekr/gpu_conc/b200/benchmark_summary_20250815_090845.json",
		"vllm-project/vllm#23151",
	},
	"vllm@rocm": {
		"ROCm/vllm/docs/dev-docker/README.md",
	},
	"vllm@0.6+rocm": {
		"argonne-lcf/LLM-Inference-Bench/Plots/All_results.csv",
	},
	"vllm@0.7+rocm": {
		"ROCm/vllm/docs/dev-docker/README.md",
	},
	"lmdeploy": {
		"InternLM/lmdeploy/docs/en/benchmark/a100_fp16.md",
	},
	"trtllm": {
		"NVIDIA/TensorRT-LLM/docs/source/blogs/Best_perf_practice_on_DeepSeek-R1_in_TensorRT-LLM.md",
		"NVIDIA/TensorRT-LLM/docs/source/blogs/Falcon180B-H200.md",
		"NVIDIA/TensorRT-LLM/docs/source/blogs/H200launch.md",
		"NVIDIA/TensorRT-LLM/docs/source/performance.md",
		"NVIDIA/TensorRT-LLM/docs/source/performance/perf-overview.md",
	},
	"llamacpp": {
		"XiongjieDai/GPU-Benchmarks-on-LLM-Inference/README.md",
		"argonne-lcf/LLM-Inference-Bench/Plots/All_results.csv",
	},
	"llamacpp@metal": {
		"brand-o/normiebench#40",
		"ggml-org/llama.cpp#10171",
		"ggml-org/llama.cpp#10238",
		"ggml-org/llama.cpp#10444",
		"ggml-org/llama.cpp#2917",
		"ggml-org/llama.cpp#2959",
		"ggml-org/llama.cpp#3084",
	},
	"llamacpp@rocm": {
		"ggml-org/llama.cpp#11519",
		"ggml-org/llama.cpp#26284",
		"lhl/strix-halo-testing/llm-bench/Mistral-Small-3.1-24B-Instruct-2503-UD-Q4_K_XL/results.jsonl",
		"lhl/strix-halo-testing/llm-bench/Qwen3-32B-Q8_0/results.jsonl",
		"lhl/strix-halo-testing/llm-bench/gemma-3-27b-it-UD-Q4_K_XL/results.jsonl",
		"lhl/strix-halo-testing/llm-bench/gpt-oss-120b-F16/results.jsonl",
		"lhl/strix-halo-testing/llm-bench/gpt-oss-20b-F16/results.jsonl",
		"lhl/strix-halo-testing/llm-bench/llama-2-7b.Q4_0/results.jsonl",
		"lhl/strix-halo-testing/llm-bench/llama-2-7b.Q4_K_M/results.jsonl",
	},
}

// SingleSourceWarning returns, for a deployment whose step terms are the
// set EffSet names, a warning that they rest on one source document (its
// message names the set and the source) or on none (the set is not in
// EffSources: its terms are borrowed); ok is false when the set rests on
// more than one.
func (e *Engine) SingleSourceWarning(vendor string, v EngineVersion) (msg string, ok bool) {
	set := e.EffSet(vendor, v)
	src := EffSources[set]
	if len(src) == 0 {
		return "the step terms behind the speed figures (efficiency set " + set + ") are not fitted on any measurement of " + e.Label +
			": they are borrowed from vLLM's, whose kernels it shares", true
	}
	if len(src) != 1 {
		return "", false
	}
	return "the step terms behind the speed figures (efficiency set " + set + ") were fitted on one source document only, " + src[0] +
		": no measurement from another source has tested them", true
}
