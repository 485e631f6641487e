package validation_test

import (
	"encoding/json"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/validation"
	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/models"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// publicCase is the part of a public case the well-formedness test reads.
type publicCase struct {
	ID            string         `json:"id"`
	Group         string         `json:"group"`
	Kind          string         `json:"kind"`
	Engine        string         `json:"engine"`
	EngineVersion string         `json:"engine_version"`
	Model         string         `json:"model"`
	Precision     string         `json:"precision"`
	GPU           string         `json:"gpu"`
	GPUID         string         `json:"gpu_id"`
	NumGPUs       int            `json:"num_gpus"`
	TP            int            `json:"tensor_parallel_size"`
	BatchSize     any            `json:"batch_size"`
	Concurrency   any            `json:"concurrency"`
	InputLen      any            `json:"input_len"`
	OutputLen     any            `json:"output_len"`
	Scenario      string         `json:"scenario"`
	Measured      map[string]any `json:"measured"`
	Source        map[string]any `json:"source"`
}

// measuredKey is the figure each kind must carry (validation.evalKind
// compares it).
var measuredKey = map[string][]string{
	validation.KindStaticBatch:      {"batch_latency_s", "output_tokens_per_s", "output_tokens_per_s_per_gpu"},
	validation.KindDecodeStep:       {"tpot_ms", "step_time_ms"},
	validation.KindOutputThroughput: {"output_tokens_per_s", "output_tokens_per_s_per_gpu"},
	validation.KindTTFT:             {"ttft_ms"},
	validation.KindLlamaBenchTG:     {"decode_tok_s"},
	validation.KindStartupKV:        {"gpu_kv_cache_size_tokens", "available_kv_cache_memory_gib"},
	validation.KindServing:          {"output_tokens_per_s", "ttft_p50_ms", "itl_p50_ms"},
}

// keptAside are the sources that ../shared/validation/README.md keeps aside
// (matched against a case's source repo, path and url, lower-cased).
var keptAside = []string{
	"inference-sim/training", "inference-sim/sim-to-real-accuracy-validation",
	"casys-kaist/llmservingsim", "99sono/dockerbuildfiles", "noonghunna/club-3090",
	"vllm/issues/51041", "vllm/issues/21348", "lmcache/issues/3430",
	"sgl-project/sgl-cookbook", "gpustack/gpustack", "semianalysisai/inferencex",
	"pegainfer-project/pegainfer", "vllm-project/recipes", "sglang/pull/31044",
	"silicon_refs.csv", "ai-dynamo/dynamo",
	"mlcommons/inference_results_v5.1", "mlcommons/inference_results_v6.0", "mlcommons.org",
	"datacrunch-research/h200-benchmarks", "nerdalert/vllm-benchmark-graphs", "kubernetes-sigs/inference-perf",
	"lmsys.org/blog", "lm-sys/lm-sys.github.io", "distserve", "mooncake",
	"llm-d/llm-d", "llm-d/pull/1654", "llm-d/pull/1020", "zxuhan/llm-router",
	"sglang/pull/11880", "sglang/pull/27557", "sglang/pull/19663", "sglang/pull/27010",
	"sglang/issues/33984", "sglang/issues/26305", "openvino.genai/pull/4374", "kekzl/imp",
	"lmcache/pull/4499", "vllm-ascend/pull/7469",
	"ml.energy", "ml-energy", "chuyishang/inference-energy", "chenxuniu/tokenpowerbench", "2504.17674",
}

// Paths from this package's directory. sharedCasesPath is the repository's
// copy of ../shared/validation/cases.json (testdata/README.md).
const (
	publicCasesPath = "testdata/public-cases.json"
	sharedCasesPath = "testdata/shared-cases.json"
)

var hex40 = regexp.MustCompile(`^[0-9a-f]{40}$`)

func loadPublic(t *testing.T) []publicCase {
	t.Helper()
	b, err := os.ReadFile(publicCasesPath)
	require.NoError(t, err)
	var cs []publicCase
	require.NoError(t, json.Unmarshal(b, &cs))
	return cs
}

func positive(v any) bool {
	f, ok := v.(float64)
	return ok && f > 0
}

// Every public case is well formed and sourced: its fields are present, its
// model and GPU resolve in the catalogs, its measured figure is there, and
// its source names a repository file at a commit (or a URL with a date or
// commit) outside the kept-aside sources.
func TestPublicCasesWellFormed(t *testing.T) {
	cs := loadPublic(t)
	require.GreaterOrEqual(t, len(cs), 60)
	ids := map[string]bool{}
	for _, c := range cs {
		t.Run(c.ID, func(t *testing.T) {
			assert.Regexp(t, `^P[ABC]\d{3}$`, c.ID)
			assert.False(t, ids[c.ID], "duplicate id")
			ids[c.ID] = true
			assert.Contains(t, []string{"A", "B", "C"}, c.Group)
			assert.Contains(t, validation.Kinds, c.Kind)
			assert.NotEmpty(t, validation.EngineProfile(c.Engine), "engine %q has no profile", c.Engine)
			assert.NotEmpty(t, c.EngineVersion)
			assert.NotEmpty(t, c.Scenario)
			_, err := models.Lookup(strings.Fields(c.Model + " ")[0])
			assert.NoError(t, err, "model")
			a, err := hardware.Lookup(c.GPUID)
			if assert.NoError(t, err, "gpu_id") {
				assert.Equal(t, c.GPUID, a.ID, "gpu_id must be a catalog id")
			}
			assert.NotEmpty(t, c.GPU)
			assert.GreaterOrEqual(t, c.TP, 1)
			assert.GreaterOrEqual(t, c.NumGPUs, c.TP)
			if c.Kind != validation.KindStartupKV {
				assert.NotEmpty(t, c.Precision)
				assert.True(t, positive(c.OutputLen), "output_len")
			}
			switch c.Kind {
			case validation.KindStaticBatch, validation.KindDecodeStep, validation.KindOutputThroughput, validation.KindTTFT:
				assert.True(t, positive(c.InputLen), "input_len")
				assert.True(t, positive(c.BatchSize) || positive(c.Concurrency), "batch_size or concurrency")
			}
			found := false
			for _, k := range measuredKey[c.Kind] {
				found = found || positive(c.Measured[k])
			}
			assert.True(t, found, "measured %v", measuredKey[c.Kind])
			src := c.Source
			repo, _ := src["repo"].(string)
			path, _ := src["path"].(string)
			url, _ := src["url"].(string)
			commit, _ := src["commit"].(string)
			date, _ := src["date"].(string)
			if repo != "" {
				assert.NotEmpty(t, path, "source.path")
				assert.Regexp(t, hex40, commit, "source.commit")
			} else {
				assert.NotEmpty(t, url, "source.url")
				assert.True(t, hex40.MatchString(commit) || date != "", "source.date or source.commit")
			}
			where := strings.ToLower(repo + " " + path + " " + url)
			for _, k := range keptAside {
				assert.NotContains(t, where, k, "kept-aside source")
			}
		})
	}
}

// citedDocuments are the documents the shared cases cite, lower-cased:
// repo/path (its first word) and URLs. Their other rows are kept aside.
func citedDocuments(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(sharedCasesPath)
	require.NoError(t, err)
	var shared []publicCase
	require.NoError(t, json.Unmarshal(b, &shared))
	var cited []string
	for _, c := range shared {
		repo, _ := c.Source["repo"].(string)
		path, _ := c.Source["path"].(string)
		url, _ := c.Source["url"].(string)
		if repo != "" && path != "" {
			cited = append(cited, strings.ToLower(repo+"/"+strings.Fields(path)[0]))
		}
		if url != "" {
			cited = append(cited, strings.ToLower(url))
		}
	}
	require.NotEmpty(t, cited)
	return cited
}

// No public case comes from a document that the shared cases
// (testdata/shared-cases.json, the copy of ../shared/validation/cases.json)
// cite: the rest of those tables is kept aside.
func TestPublicCasesAvoidCitedDocuments(t *testing.T) {
	cited := citedDocuments(t)
	for _, c := range loadPublic(t) {
		repo, _ := c.Source["repo"].(string)
		path, _ := c.Source["path"].(string)
		url, _ := c.Source["url"].(string)
		doc := strings.ToLower(repo + "/" + path)
		assert.False(t, slices.Contains(cited, doc), "%s: %s is cited by cases.json", c.ID, doc)
		if url != "" {
			assert.False(t, slices.Contains(cited, strings.ToLower(url)), "%s: %s is cited by cases.json", c.ID, url)
		}
	}
}

// Every public case evaluates without error (a comparable figure or a
// reason why not).
func TestPublicCasesEvaluate(t *testing.T) {
	skipUnderWasm(t)
	rs, err := validation.Load(publicCasesPath)
	require.NoError(t, err)
	for _, r := range rs {
		if r.Comparable {
			assert.Greater(t, r.Measured, 0.0, r.ID)
			assert.Greater(t, r.Predicted, 0.0, r.ID)
		} else {
			assert.NotEmpty(t, r.Reason, r.ID)
		}
	}
}

// LoadEngine evaluates exactly the cases of one engine: the same results
// as Load filtered by engine, and none of another's.
func TestLoadEngineKeepsOneEngine(t *testing.T) {
	skipUnderWasm(t)
	all, err := validation.Load(publicCasesPath)
	require.NoError(t, err)
	for _, engine := range []string{"trtllm", "llamacpp"} {
		var want []validation.Result
		for _, r := range all {
			if r.Engine == engine {
				want = append(want, r)
			}
		}
		got, err := validation.LoadEngine(publicCasesPath, engine)
		require.NoError(t, err)
		require.NotEmpty(t, got, engine)
		assert.Equal(t, want, got, engine)
	}
}

// skipUnderWasm skips a test that replays every public case's simulation:
// about 40 s under GOOS=js for what the native run already checks (the
// engine's wasm and native results agree, TestStreamGolden and the golden
// reports check that).
func skipUnderWasm(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "js" {
		t.Skip("the native run evaluates the public cases")
	}
}

// A data-parallel output_throughput case replays one replica: PB277's
// 3,072 users over data_parallel_size 8 are 3072 / 8 = 384 per replica, its
// 49,152 requests 6,144 per replica, cut to four waves (4 x 384 = 1,536),
// and the replica's tokens/s over its one GPU (TP 1) is the per-GPU figure
// trtllm-bench reports (4548.0105 tokens/s/GPU).
func TestDataParallelThroughputReplaysOneReplica(t *testing.T) {
	skipUnderWasm(t)
	rs, err := validation.Load(publicCasesPath)
	require.NoError(t, err)
	i := slices.IndexFunc(rs, func(r validation.Result) bool { return r.ID == "PB277" })
	require.GreaterOrEqual(t, i, 0)
	r := rs[i]
	require.True(t, r.Comparable, r.Reason)
	assert.Equal(t, 384, r.Batch)
	assert.InDelta(t, 4548.0105, r.Measured, 1e-9)
	ep := true
	req := calc.Request{
		Model: "nvidia/DeepSeek-V3-0324-NVFP4", Hardware: calc.HardwareRef{ID: "b200"}, Engine: "trtllm",
		DataParallelSize: calc.Int(8), EnableExpertParallel: &ep,
		MaxNumSeqs: calc.Int(384), MaxNumBatchedTokens: calc.Int(1536), MaxModelLen: calc.Int(1024 + 2048),
		Workload: &calc.Workload{InputTokens: calc.Int(1024), OutputTokens: calc.Int(2048), Concurrency: calc.Int(384)},
		Simulate: &calc.SimulateOptions{NumRequests: calc.Int(4 * 384), Arrival: "closed_loop", Concurrency: calc.Int(384), TimelinePoints: calc.Int(0)},
	}
	rep, err := calc.EvaluateWithBudget(req, 4*calc.DefaultWorkBudget)
	require.NoError(t, err)
	require.NotNil(t, rep.Simulation)
	assert.Equal(t, 4*384, rep.Simulation.CompletedRequests)
	assert.InDelta(t, rep.Simulation.OutputTokensPerS, r.Predicted, 1e-9*r.Predicted)
}

// A case's engine_version text maps to the release profile it runs under:
// a V1 release to its minor, a V0 run to 0.6, V0 as vLLM 0.7 ran it
// (the MI300X cases PB312-PB343) to 0.7, which differs from 0.6 on ROCm,
// and December 2023's main to 0.2.
func TestCaseVersionMapsV0Releases(t *testing.T) {
	for in, want := range map[string]string{
		"0.19.0 (vllm/vllm-openai:v0.19.0, V1 engine)":                        "0.19",
		"0.6.1 (built from source at tag v0.6.1 with Dockerfile.rocm)":        "0.6",
		"unpinned (pip install vllm, 2024; V0 engine, per vLLM/H100/README)":  "0.6",
		"V0 engine of vLLM 0.7.3 (rocm/vllm-dev image of the doc at b309ea7)": "0.7",
		"main, Dec 2023 (before/after PR #2031)":                              "0.2",
	} {
		assert.Equal(t, want, validation.CaseVersion(in), in)
	}
}
