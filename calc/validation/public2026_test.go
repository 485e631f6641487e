package validation_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/modelrefs/throughput/calc/validation"
	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/models"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// public2026Files hold serving measurements of 2025-2026 deployments taken
// from documents that neither public-cases.json nor
// ../shared/validation/cases.json cites, each file with its own id
// pattern: public-cases-2026.json (NBddd, issue threads) and
// public-cases-2026-web.json (WBddd, benchmark data files, blog posts and
// repository reports). No fit, band or calibrate default reads them: they
// score the shipped model out of sample
// (go run ./tools/calibrate -cases calc/validation/testdata/public-cases-2026-web.json).
var public2026Files = []struct {
	path string
	id   *regexp.Regexp
}{
	{"testdata/public-cases-2026.json", regexp.MustCompile(`^NB\d{3}$`)},
	{"testdata/public-cases-2026-web.json", regexp.MustCompile(`^WB\d{3}$`)},
}

// case2026 is the whole schema of a public-cases-2026.json case: decoding
// with unknown fields disallowed catches a misspelt key.
type case2026 struct {
	ID                   string             `json:"id"`
	Group                string             `json:"group"`
	Kind                 string             `json:"kind"`
	Engine               string             `json:"engine"`
	EngineVersion        string             `json:"engine_version"`
	Model                string             `json:"model"`
	Precision            string             `json:"precision"`
	Quantization         string             `json:"quantization,omitempty"`
	KVCacheDtype         string             `json:"kv_cache_dtype,omitempty"`
	GPU                  string             `json:"gpu"`
	GPUID                string             `json:"gpu_id"`
	NumGPUs              int                `json:"num_gpus"`
	TP                   int                `json:"tensor_parallel_size"`
	DataParallelSize     *float64           `json:"data_parallel_size,omitempty"`
	EnableExpertParallel bool               `json:"enable_expert_parallel,omitempty"`
	Arrival              string             `json:"arrival"`
	Concurrency          *float64           `json:"concurrency,omitempty"`
	RequestRate          *float64           `json:"request_rate,omitempty"`
	NumPrompts           float64            `json:"num_prompts"`
	InputLen             float64            `json:"input_len"`
	OutputLen            float64            `json:"output_len"`
	InputLenMin          *float64           `json:"input_len_min,omitempty"`
	OutputLenMin         *float64           `json:"output_len_min,omitempty"`
	MaxNumSeqs           *float64           `json:"max_num_seqs,omitempty"`
	MaxNumBatchedTokens  *float64           `json:"max_num_batched_tokens,omitempty"`
	Scenario             string             `json:"scenario"`
	Measured             map[string]float64 `json:"measured"`
	Source               map[string]any     `json:"source"`
	Notes                string             `json:"notes"`
	Compare              string             `json:"compare"`
}

// load2026 reads one 2026 file's cases.
func load2026(t *testing.T, path string) []case2026 {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var cs []case2026
	require.NoError(t, dec.Decode(&cs), "%s: every case parses into the schema, with no unknown field", path)
	return cs
}

// loadAll2026 reads every 2026 file's cases, each with its file's id
// pattern.
func loadAll2026(t *testing.T) (cs []case2026, ids map[string]*regexp.Regexp) {
	t.Helper()
	ids = map[string]*regexp.Regexp{}
	for _, f := range public2026Files {
		fcs := load2026(t, f.path)
		require.NotEmpty(t, fcs, f.path)
		for _, c := range fcs {
			ids[c.ID] = f.id
		}
		cs = append(cs, fcs...)
	}
	return cs, ids
}

// sourceDoc names a case's source document: its repository and path, or
// its URL without a fragment, lower-cased.
func sourceDoc(src map[string]any) string {
	repo, _ := src["repo"].(string)
	path, _ := src["path"].(string)
	url, _ := src["url"].(string)
	if repo != "" && path != "" {
		return strings.ToLower(repo + "/" + strings.Fields(path)[0])
	}
	url, _, _ = strings.Cut(url, "#")
	return strings.ToLower(strings.TrimSuffix(url, "/"))
}

// Every 2026 case is well formed: the schema's required fields are present,
// its model and GPU resolve, its lengths and load are positive, its compared
// figure is measured, every measured number is finite and positive, and its
// source names a URL with a date (or a repository file at a commit) outside
// the kept-aside sources.
func TestPublic2026WellFormed(t *testing.T) {
	cs, pattern := loadAll2026(t)
	ids := map[string]bool{}
	for _, c := range cs {
		assert.Regexp(t, pattern[c.ID], c.ID)
		assert.False(t, ids[c.ID], "duplicate id %s", c.ID)
		ids[c.ID] = true
		assert.Equal(t, "B", c.Group, c.ID)
		assert.Equal(t, validation.KindServing, c.Kind, c.ID)
		assert.NotEmpty(t, validation.EngineProfile(c.Engine), "%s: engine %q has no profile", c.ID, c.Engine)
		for name, v := range map[string]string{"engine_version": c.EngineVersion, "precision": c.Precision, "gpu": c.GPU,
			"scenario": c.Scenario, "notes": c.Notes} {
			assert.NotEmpty(t, v, "%s: %s", c.ID, name)
		}
		_, err := models.Lookup(c.Model)
		assert.NoError(t, err, "%s: model", c.ID)
		a, err := hardware.Lookup(c.GPUID)
		if assert.NoError(t, err, "%s: gpu_id", c.ID) {
			assert.Equal(t, c.GPUID, a.ID, "%s: gpu_id must be a catalog id", c.ID)
		}
		assert.GreaterOrEqual(t, c.TP, 1, c.ID)
		assert.GreaterOrEqual(t, c.NumGPUs, c.TP, c.ID)
		assert.Positive(t, c.NumPrompts, "%s: num_prompts", c.ID)
		assert.Positive(t, c.InputLen, "%s: input_len", c.ID)
		assert.Positive(t, c.OutputLen, "%s: output_len", c.ID)
		switch c.Arrival {
		case "closed_loop":
			if assert.NotNil(t, c.Concurrency, "%s: concurrency", c.ID) {
				assert.Positive(t, *c.Concurrency, c.ID)
			}
		case "poisson":
			if assert.NotNil(t, c.RequestRate, "%s: request_rate", c.ID) {
				assert.Positive(t, *c.RequestRate, c.ID)
			}
		default:
			assert.Equal(t, "burst", c.Arrival, "%s: arrival", c.ID)
		}
		assert.Contains(t, validation.ServingCompares, c.Compare, c.ID)
		assert.Contains(t, c.Measured, c.Compare, "%s: the compared figure is measured", c.ID)
		for k, v := range c.Measured {
			assert.False(t, math.IsNaN(v) || math.IsInf(v, 0), "%s: measured.%s", c.ID, k)
			assert.Positive(t, v, "%s: measured.%s", c.ID, k)
		}
		repo, _ := c.Source["repo"].(string)
		path, _ := c.Source["path"].(string)
		url, _ := c.Source["url"].(string)
		commit, _ := c.Source["commit"].(string)
		date, _ := c.Source["date"].(string)
		if repo != "" {
			assert.NotEmpty(t, path, "%s: source.path", c.ID)
			assert.Regexp(t, hex40, commit, "%s: source.commit", c.ID)
		} else {
			assert.NotEmpty(t, url, "%s: source.url", c.ID)
			assert.Regexp(t, `^\d{4}-\d{2}-\d{2}$`, date, "%s: source.date", c.ID)
		}
		where := strings.ToLower(repo + " " + path + " " + url)
		for _, k := range keptAside {
			assert.NotContains(t, where, k, "%s: kept-aside source", c.ID)
		}
	}
}

// No 2026 case shares a source document with public-cases.json or
// ../shared/validation/cases.json, and no document is split between two
// 2026 files: the files are new documents only. The per-source counts are
// logged.
func TestPublic2026NewDocumentsOnly(t *testing.T) {
	used := map[string]string{}
	for _, f := range []string{publicCasesPath, sharedCasesPath} {
		b, err := os.ReadFile(f)
		if errors.Is(err, os.ErrNotExist) && f == sharedCasesPath {
			t.Log("../shared/validation/cases.json not present: checked against public-cases.json only")
			continue
		}
		require.NoError(t, err)
		var cs []publicCase
		require.NoError(t, json.Unmarshal(b, &cs))
		for _, c := range cs {
			used[sourceDoc(c.Source)] = f
		}
	}
	perSource := map[string]int{}
	in2026 := map[string]string{}
	for _, f := range public2026Files {
		for _, c := range load2026(t, f.path) {
			doc := sourceDoc(c.Source)
			require.NotEmpty(t, doc, c.ID)
			prev, dup := used[doc]
			assert.False(t, dup, "%s: %s is already cited by %s", c.ID, doc, prev)
			if other, ok := in2026[doc]; ok {
				assert.Equal(t, f.path, other, "%s: %s is cited by two 2026 files", c.ID, doc)
			}
			in2026[doc] = f.path
			perSource[doc]++
		}
	}
	docs := make([]string, 0, len(perSource))
	for d := range perSource {
		docs = append(docs, d)
	}
	sort.Strings(docs)
	total := 0
	for _, d := range docs {
		t.Logf("%4d  %s", perSource[d], d)
		total += perSource[d]
	}
	t.Logf("%4d cases from %d source documents", total, len(docs))
}

// Every 2026 case evaluates: a positive prediction, or a reason why it is
// not comparable.
func TestPublic2026Evaluate(t *testing.T) {
	skipUnderWasm(t)
	for _, f := range public2026Files {
		rs, err := validation.Load(f.path)
		require.NoError(t, err, f.path)
		require.Len(t, rs, len(load2026(t, f.path)), f.path)
		for _, r := range rs {
			if r.Comparable {
				assert.Positive(t, r.Measured, r.ID)
				assert.Positive(t, r.Predicted, r.ID)
			} else {
				assert.NotEmpty(t, r.Reason, r.ID)
			}
		}
	}
}

// Comparing scores a serving benchmark on another figure it measured:
// NB001 (DeepSeek-R1-0528 under SGLang on 16 H100s, concurrency 1) was
// entered to compare its mean TPOT and also printed a mean TTFT of 179.7
// ms; a figure it did not measure leaves it as it is.
func TestCaseComparingAnotherMeasuredFigure(t *testing.T) {
	t.Parallel()
	cs, _, err := validation.ReadCases("testdata/public-cases-2026.json")
	require.NoError(t, err)
	i := slices.IndexFunc(cs, func(c validation.Case) bool { return c.ID() == "NB001" })
	require.GreaterOrEqual(t, i, 0)
	c, ok := cs[i].Comparing("ttft_mean_ms")
	require.True(t, ok)
	r, err := c.Eval()
	require.NoError(t, err)
	assert.Equal(t, "ttft_ms", r.Metric)
	assert.InDelta(t, 179.7, r.Measured, 1e-9)
	_, ok = cs[i].Comparing("itl_p99_ms")
	assert.False(t, ok)
}
