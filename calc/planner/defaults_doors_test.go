package planner

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/modelrefs/throughput/calc/evaluate"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc/release"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/fielderr"
)

// Every default has one home, the field table (Fields), and each door
// states it from there. These tests look at a default through the doors
// Go can see: the table, the engine's resolution (Evaluate's config), the
// engine profiles' defaults, the planner's launch command and the docs'
// defaults table (docs/MODEL.md section 6). The JavaScript module, the page
// and the widget are compared with the same table in
// tests/e2e/defaults.test.mjs.

// TestResolutionTakesTheTablesDefaults: a request that leaves every
// setting out is resolved to the table's constant defaults (a field whose
// default depends on the deployment has DefaultText and is checked by the
// launch tests below).
func TestResolutionTakesTheTablesDefaults(t *testing.T) {
	t.Parallel()
	rep, err := evaluate.Evaluate(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}})
	require.NoError(t, err)
	c := rep.Config
	for key, got := range map[string]any{
		"Request.engine":                 c.Engine,
		"Request.engine_version":         c.EngineVersion,
		"Request.tensor_parallel_size":   c.TensorParallelSize,
		"Request.pipeline_parallel_size": c.PipelineParallelSize,
		"Request.block_size":             c.BlockSize,
		"Request.kv_cache_dtype":         c.KVCacheDtype,
		"Workload.input_tokens":          c.InputTokens,
		"Workload.output_tokens":         c.OutputTokens,
	} {
		assert.Equal(t, spec.Fields[key].Default, got, key)
	}
	// The engine profile's defaults (calc.contract()'s engines, the page's
	// placeholders before a report) are the table's, and the release's
	// memory fraction: vLLM 0.33 is from 0.21 on, 0.92 (PR #38284).
	d := vllmProfile().Defaults()
	assert.Equal(t, spec.EngineDefaults{GPUMemoryUtilization: 0.92, BlockSize: spec.Fields["Request.block_size"].Default.(int),
		MaxNumSeqs: spec.Fields["Request.max_num_seqs"].Default.(int), MaxNumBatchedTokens: spec.Fields["Request.max_num_batched_tokens"].Default.(int)}, d)
	assert.Equal(t, 0.92, c.GPUMemoryUtilization)
}

// TestSpeculativeTokensHaveNoDefault: vLLM has no default for
// num_speculative_tokens (vllm/config/speculative.py: "It will default to
// the number in the draft model config if present, otherwise, it is
// required"), so the table has none, and the engine names the field when
// a request leaves it out; so does the planner.
func TestSpeculativeTokensHaveNoDefault(t *testing.T) {
	t.Parallel()
	s := spec.Fields["SpeculativeConfig.num_speculative_tokens"]
	assert.Nil(t, s.Default)
	assert.Equal(t, spec.SpecRequired, s.DefaultText)
	assert.Nil(t, spec.Fields["SpeculativeConfig.acceptance_rate"].Default)
	_, err := evaluate.Evaluate(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"},
		SpeculativeConfig: &spec.SpeculativeConfig{Method: "eagle", AcceptanceRate: spec.Float(0.7)}})
	require.Error(t, err)
	assert.Contains(t, fieldsOf(err), "speculative_config.num_speculative_tokens")
	_, err = Plan(spec.PlanRequest{Model: llama8B, Workload: spec.PlanWorkload{Concurrency: spec.Int(4)}, SLO: spec.PlanSLO{TPOTMs: spec.Float(100)},
		SpeculativeConfig: &spec.SpeculativeConfig{AcceptanceRate: spec.Float(0.7)}})
	require.Error(t, err)
	assert.Contains(t, fieldsOf(err), "speculative_config.num_speculative_tokens")
}

func fieldsOf(err error) []string {
	var out []string
	if es, ok := err.(spec.Errors); ok {
		for _, e := range es {
			out = append(out, e.Field)
		}
	}
	return out
}

// flag returns the value after name in a command line ("" if absent).
func flag(cmd, name string) string {
	f := strings.Fields(cmd)
	for i := range f[:len(f)-1] {
		if f[i] == name {
			return f[i+1]
		}
	}
	return ""
}

// launchMatchesConfig checks every flag the launch command writes for a
// resolved setting against the deployment's Evaluate config: the values
// it was costed with.
func launchMatchesConfig(t *testing.T, d spec.PlanDeployment, flags map[string]func(spec.Config) string) spec.Config {
	t.Helper()
	rep, err := evaluate.Evaluate(d.Evaluate)
	require.NoError(t, err)
	for name, want := range flags {
		assert.Equal(t, want(rep.Config), flag(d.Launch, name), "%s in %q", name, d.Launch)
	}
	return rep.Config
}

var (
	utilFlag  = func(c spec.Config) string { return fielderr.Number(c.GPUMemoryUtilization) }
	seqsFlag  = func(c spec.Config) string { return itoa(c.MaxNumSeqs) }
	batchFlag = func(c spec.Config) string { return itoa(c.MaxNumBatchedTokens) }
	lenFlag   = func(c spec.Config) string { return itoa(c.MaxModelLen) }
	tpFlag    = func(c spec.Config) string { return itoa(c.TensorParallelSize) }
)

// TestLaunchWritesTheResolvedVLLMSettings: under vLLM 0.33 (the default
// release) an H100 deployment was costed at gpu_memory_utilization 0.92
// (0.9 before 0.21), and its command says so, not the engine table's 0.9;
// max_num_seqs, max_num_batched_tokens, max_model_len and TP are the
// config's too.
func TestLaunchWritesTheResolvedVLLMSettings(t *testing.T) {
	t.Parallel()
	r, err := Plan(spec.PlanRequest{Model: llama8B, Workload: spec.PlanWorkload{Concurrency: spec.Int(16)}, SLO: spec.PlanSLO{TPOTMs: spec.Float(100)},
		Constraints: &spec.PlanConstraints{Accelerators: []string{"h100-sxm-80gb"}, Engines: []string{"vllm"}}, Search: narrow(1, 2)})
	require.NoError(t, err)
	require.NotEmpty(t, r.Deployments)
	for _, d := range r.Deployments {
		c := launchMatchesConfig(t, d, map[string]func(spec.Config) string{"--gpu-memory-utilization": utilFlag,
			"--max-num-seqs": seqsFlag, "--max-num-batched-tokens": batchFlag, "--max-model-len": lenFlag, "--tensor-parallel-size": tpFlag})
		assert.Equal(t, "0.92", flag(d.Launch, "--gpu-memory-utilization"))
		assert.Equal(t, 0.92, c.GPUMemoryUtilization)
	}
}

// TestLaunchWritesSGLangsResolvedMemoryFraction: SGLang 0.5 sizes
// mem_fraction_static by GPU memory and TP (engine_sglang.go), by hand:
//   - H100 SXM 80GB (81,090 MiB reported) at TP 1: reserved 512 + 1.5 x
//     8192 + 2 x 256 + 128 = 13,440 MiB, (81,090 - 13,440) / 81,090 =
//     0.834 (TestSGLangDefaultsFollowTheReleaseAndTheGPU);
//   - L40S (44.40 GiB = 45,465 MiB reported, the tier under 60 GiB:
//     chunked prefill 4096, graphs up to 32) at TP 1: reserved 512 + 6,144
//   - 64 + 128 = 6,848 MiB, (45,465 - 6,848) / 45,465 = 0.849.
//
// The command used to print the engine table's 0.88 for both.
func TestLaunchWritesSGLangsResolvedMemoryFraction(t *testing.T) {
	t.Parallel()
	r, err := Plan(spec.PlanRequest{Model: llama8B, Workload: spec.PlanWorkload{Concurrency: spec.Int(16)}, SLO: spec.PlanSLO{TPOTMs: spec.Float(100)},
		Constraints: &spec.PlanConstraints{Accelerators: []string{"h100-sxm-80gb", "l40s"}, Engines: []string{"sglang"}}, Search: narrow(1), Limit: spec.Int(20)})
	require.NoError(t, err)
	want := map[string]string{"h100-sxm-80gb": "0.834", "l40s": "0.849"}
	seen := map[string]bool{}
	for _, d := range r.Deployments {
		require.Equal(t, 1, d.TensorParallelSize)
		launchMatchesConfig(t, d, map[string]func(spec.Config) string{"--mem-fraction-static": utilFlag,
			"--context-length": lenFlag, "--tp-size": tpFlag})
		assert.Equal(t, want[d.Accelerator], flag(d.Launch, "--mem-fraction-static"), d.Accelerator)
		seen[d.Accelerator] = true
	}
	assert.Len(t, seen, 2, "a deployment on each accelerator")
}

// TestLaunchWritesTheSpeculativeConfig: a plan costed with speculative
// decoding launches with it: vLLM's --speculative-config with the method
// and k, SGLang's chain of k steps verifying k+1 tokens.
func TestLaunchWritesTheSpeculativeConfig(t *testing.T) {
	t.Parallel()
	for eng, want := range map[string]string{
		"vllm":   ` --speculative-config '{"method":"mtp","num_speculative_tokens":2}'`,
		"sglang": " --speculative-algorithm EAGLE --speculative-num-steps 2 --speculative-eagle-topk 1 --speculative-num-draft-tokens 3",
	} {
		r, err := Plan(spec.PlanRequest{Model: llama8B, Workload: spec.PlanWorkload{Concurrency: spec.Int(4)}, SLO: spec.PlanSLO{TPOTMs: spec.Float(100)},
			Constraints:       &spec.PlanConstraints{Accelerators: []string{"h100-sxm-80gb"}, Engines: []string{eng}},
			Search:            narrow(1),
			SpeculativeConfig: &spec.SpeculativeConfig{Method: "mtp", NumSpeculativeTokens: spec.Int(2), AcceptanceRate: spec.Float(0.7)}})
		require.NoError(t, err, eng)
		require.NotEmpty(t, r.Deployments, eng)
		for _, d := range r.Deployments {
			assert.Contains(t, d.Launch, want, eng)
			assert.Equal(t, 2, *d.Evaluate.SpeculativeConfig.NumSpeculativeTokens)
		}
	}
}

// TestDocsStateTheTablesDefaults: docs/MODEL.md section 6 states each
// constant default of the table in the row of its field, and says that
// num_speculative_tokens has none.
func TestDocsStateTheTablesDefaults(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../docs/MODEL.md")
	require.NoError(t, err)
	doc := string(b)
	start := strings.Index(doc, "## 6. Defaults")
	require.GreaterOrEqual(t, start, 0)
	sec := doc[start:]
	sec = sec[:strings.Index(sec, "\n### ")]
	rows := map[string]string{}
	for _, m := range regexp.MustCompile("(?m)^\\| ([^|]+) \\| ([^|]+) \\|").FindAllStringSubmatch(sec, -1) {
		for _, k := range regexp.MustCompile("`([a-z_.]+)`").FindAllStringSubmatch(m[1], -1) {
			rows[k[1]] += m[2]
		}
	}
	for doc, key := range map[string]string{
		"engine": "Request.engine", "engine_version": "Request.engine_version", "tensor_parallel_size": "Request.tensor_parallel_size",
		"pipeline_parallel_size": "Request.pipeline_parallel_size", "dtype": "Request.dtype", "kv_cache_dtype": "Request.kv_cache_dtype",
		"block_size": "Request.block_size", "sweep.points": "SweepOptions.points",
	} {
		want := spec.Fields[key].Default
		s, ok := want.(string)
		if !ok {
			s = fielderr.Number(float64(want.(int)))
		}
		assert.Contains(t, rows[doc], s, "docs/MODEL.md section 6, %s", doc)
	}
	assert.Contains(t, rows["workload"], itoa(spec.Fields["Workload.input_tokens"].Default.(int))+" input")
	assert.Contains(t, rows["workload"], itoa(spec.Fields["Workload.output_tokens"].Default.(int))+" output")
	assert.Contains(t, rows["gpu_memory_utilization"], fielderr.Number(vllmProfile().Defaults().GPUMemoryUtilization))
	assert.Contains(t, rows["num_speculative_tokens"], "none: required")
}

// vllmProfile is vLLM's engine profile.
func vllmProfile() *release.Engine {
	e, _ := release.LookupEngine("vllm")
	return e
}
