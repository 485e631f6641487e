package planner_test

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// The published which-deployment-wins comparisons of issue 30
// (testdata/comparisons.json, its schema in testdata/README.md): each
// asks the engine the source's question the way the product answers it
// when the candidates are given, evaluating every candidate deployment
// (calc.Evaluate at the source's workload, a replica's share of it when
// the deployment is several independent replicas) and picking the best by
// the source's criterion. The pick must be the measured winner, except
// for the comparisons listed with known_miss, whose pick must not be (so
// the list stays true and a fix shows up as a failure to update);
// comparisons the engine cannot ask are listed with cannot_ask and
// counted.

type comparisonFile struct {
	Comparisons []comparison `json:"comparisons"`
}

type comparison struct {
	ID             string          `json:"id"`
	Source         map[string]any  `json:"source"`
	Question       string          `json:"question"`
	Model          string          `json:"model"`
	Workload       map[string]any  `json:"workload"`
	Criterion      string          `json:"criterion"`
	Candidates     []compCandidate `json:"candidates"`
	MeasuredWinner string          `json:"measured_winner"`
	Notes          string          `json:"notes"`
	KnownMiss      string          `json:"known_miss"`
	CannotAsk      string          `json:"cannot_ask"`
}

type compCandidate struct {
	Name string `json:"name"`
	// Request is the candidate's evaluate request less model and
	// workload (hardware, tensor_parallel_size, quantization, engine...).
	Request map[string]any `json:"request"`
	// Replicas is how many independent copies of Request serve the
	// workload (data parallelism by separate servers; default 1): each
	// takes its share of the users or the rate (share), and the
	// deployment's throughput is the busy replicas' sum.
	Replicas int `json:"replicas"`
	// Measured is the source's figure for the criterion.
	Measured float64 `json:"measured"`
}

// criteria: what each names, and whether larger is better.
var criteria = map[string]struct {
	larger bool
	// figure is the deployment's: busy is how many replicas' worth of
	// one replica's report it delivers, gpus all its GPUs.
	figure func(r calc.Report, busy float64, gpus int) float64
}{
	"output_tokens_per_s": {true, func(r calc.Report, busy float64, _ int) float64 { return busy * r.Serving.OutputTokensPerS }},
	"output_tokens_per_s_per_gpu": {true, func(r calc.Report, busy float64, g int) float64 {
		return busy * r.Serving.OutputTokensPerS / float64(g)
	}},
	"total_tokens_per_s": {true, func(r calc.Report, busy float64, _ int) float64 { return busy * r.Serving.TotalTokensPerS }},
	"tpot_ms":            {false, func(r calc.Report, _ float64, _ int) float64 { return r.Serving.TPOTMs }},
	"ttft_ms":            {false, func(r calc.Report, _ float64, _ int) float64 { return r.Serving.TTFTMs }},
	"itl_ms":             {false, func(r calc.Report, _ float64, _ int) float64 { return r.Serving.ITLMs }},
	"e2e_ms":             {false, func(r calc.Report, _ float64, _ int) float64 { return r.Serving.E2EMs }},
}

// keptAside are the sources /work/shared/validation/README.md keeps aside
// (and the documents the shared cases cite), as they appear in a URL or
// repository: no comparison may come from them.
var keptAside = []string{
	"mlcommons/inference_results", "InferenceX", "ai-dynamo/dynamo", "sgl-cookbook", "gpustack", "performance-lab",
	"vllm-project/recipes", "pegainfer", "silicon_refs", "large-scale-ep", "gb200", "DistServe", "Mooncake",
	"inference-sim", "LLMServingSim", "99sono", "club-3090", "llm-d", "ml.energy", "TokenPowerBench",
	"datacrunch-research/h200-benchmarks", "nerdalert", "inference-perf", "perf-overview", "benchmark_vllm_060",
	"lmdeploy/blob/main/docs/en/benchmark", "GPU-Benchmarks-on-LLM-Inference", "yobitelcomm", "pull/10511", "pull/2031",
	"issues/10517", "issues/51041", "issues/21348",
}

func loadComparisons(t *testing.T) []comparison {
	t.Helper()
	b, err := os.ReadFile("testdata/comparisons.json")
	require.NoError(t, err)
	var f comparisonFile
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&f))
	return f.Comparisons
}

// share is one replica's workload when n replicas split w: the
// concurrency's users spread as evenly as they go (one replica's share
// is the largest, ceil(c/n)) or the rate divided. busy is the
// deployment's total over one replica's figure: n for a rate, c / share
// for users (so c < n users keep only c replicas busy).
func share(w map[string]any, n int) (out map[string]any, busy float64) {
	out = map[string]any{}
	for k, v := range w {
		out[k] = v
	}
	busy = float64(n)
	if c, ok := w["concurrency"].(float64); ok {
		s := (int(c) + n - 1) / n
		out["concurrency"] = s
		busy = c / float64(s)
	}
	if r, ok := w["request_rate"].(float64); ok {
		out["request_rate"] = r / float64(n)
	}
	return out, busy
}

// gpusOf is the GPUs one replica of the request spans.
func gpusOf(r calc.Report) int {
	g := r.Config.TensorParallelSize * r.Config.PipelineParallelSize
	if r.Features != nil && r.Features.Parallel != nil && r.Features.Parallel.DataParallelSize > 1 {
		g *= r.Features.Parallel.DataParallelSize
	}
	return g
}

// evaluateCandidate answers one candidate: its figure by the criterion.
func evaluateCandidate(c comparison, cand compCandidate) (float64, string, error) {
	n := cand.Replicas
	if n == 0 {
		n = 1
	}
	// A data-parallel request's workload is one rank's (each rank runs
	// it, and the report's throughput is every rank's).
	ranks := n
	if d, ok := cand.Request["data_parallel_size"].(float64); ok && d > 1 {
		ranks *= int(d)
	}
	w, busy := share(c.Workload, ranks)
	busy /= float64(ranks / n) // the report counts every data-parallel rank
	req := map[string]any{"model": c.Model, "workload": w}
	for k, v := range cand.Request {
		req[k] = v
	}
	body, err := json.Marshal(req)
	if err != nil {
		return 0, "", err
	}
	parsed, err := calc.ParseRequest(body)
	if err != nil {
		return 0, "", err
	}
	rep, err := calc.Evaluate(parsed)
	if err != nil {
		return 0, "", err
	}
	if !rep.Fits || rep.Serving == nil {
		return 0, "does not fit", nil
	}
	return criteria[c.Criterion].figure(rep, busy, gpusOf(rep)*n), "", nil
}

func TestPublishedComparisons(t *testing.T) {
	comps := loadComparisons(t)
	docs := map[string]bool{}
	var asked, matched, cannot int
	var misses []string
	for _, c := range comps {
		url := fmt.Sprint(c.Source["url"])
		docs[url] = true
		for _, k := range keptAside {
			assert.NotContains(t, strings.ToLower(url+" "+fmt.Sprint(c.Source["repo"])), strings.ToLower(k), "%s: a kept-aside source", c.ID)
		}
		if c.CannotAsk != "" {
			cannot++
			t.Logf("%-40s cannot ask: %s", c.ID, c.CannotAsk)
			continue
		}
		t.Run(c.ID, func(t *testing.T) {
			crit, ok := criteria[c.Criterion]
			require.True(t, ok, "unknown criterion %q", c.Criterion)
			require.GreaterOrEqual(t, len(c.Candidates), 2)
			names := map[string]bool{}
			for _, cand := range c.Candidates {
				names[cand.Name] = true
			}
			require.True(t, names[c.MeasuredWinner], "measured_winner %q is not a candidate", c.MeasuredWinner)
			// The measured winner is the best measured figure (the data agree with themselves).
			best := c.Candidates[0]
			for _, cand := range c.Candidates[1:] {
				if crit.larger == (cand.Measured > best.Measured) && cand.Measured != best.Measured {
					best = cand
				}
			}
			assert.Equal(t, c.MeasuredWinner, best.Name, "measured figures")

			type scored struct {
				name string
				v    float64
			}
			var got []scored
			var lines []string
			for _, cand := range c.Candidates {
				v, why, err := evaluateCandidate(c, cand)
				require.NoError(t, err, cand.Name)
				if why != "" {
					lines = append(lines, fmt.Sprintf("%s: %s (measured %.4g)", cand.Name, why, cand.Measured))
					continue
				}
				got = append(got, scored{cand.Name, v})
				lines = append(lines, fmt.Sprintf("%s: %.4g (measured %.4g)", cand.Name, v, cand.Measured))
			}
			require.NotEmpty(t, got, "no candidate fits")
			sort.SliceStable(got, func(i, j int) bool {
				if crit.larger {
					return got[i].v > got[j].v
				}
				return got[i].v < got[j].v
			})
			pick := got[0].name
			asked++
			if pick == c.MeasuredWinner {
				matched++
			} else {
				misses = append(misses, fmt.Sprintf("%s (picked %s, measured %s)", c.ID, pick, c.MeasuredWinner))
			}
			t.Logf("%s by %s: pick %s, measured winner %s; %s", c.ID, c.Criterion, pick, c.MeasuredWinner, strings.Join(lines, "; "))
			if c.KnownMiss != "" {
				assert.NotEqual(t, c.MeasuredWinner, pick, "listed as a known miss (%s) but now matches: remove known_miss", c.KnownMiss)
			} else {
				assert.Equal(t, c.MeasuredWinner, pick, "pick differs from the measured winner")
			}
		})
	}
	assert.GreaterOrEqual(t, len(comps), 20)
	assert.GreaterOrEqual(t, len(docs), 8, "source documents")
	t.Logf("match rate: %d of %d conditions asked (%.0f %%); %d cannot be asked; %d conditions from %d documents",
		matched, asked, 100*float64(matched)/float64(max(asked, 1)), cannot, len(comps), len(docs))
	for _, m := range misses {
		t.Logf("miss: %s", m)
	}
}
