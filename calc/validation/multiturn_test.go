package validation_test

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// multiTurnPath holds published measurements of prefix-cache reuse in
// repeated-prompt and agentic serving (testdata/README.md, the file's
// comment gives the schema).
const multiTurnPath = "testdata/multiturn.json"

// multiTurnCase is one row of testdata/multiturn.json.
type multiTurnCase struct {
	ID     string `json:"id"`
	Metric string `json:"metric"`
	Source struct {
		Repo   string `json:"repo"`
		Commit string `json:"commit"`
		Path   string `json:"path"`
		URL    string `json:"url"`
		Where  string `json:"where"`
	} `json:"source"`
	Measured struct {
		Value float64 `json:"value"`
	} `json:"measured"`
	Workload string          `json:"workload"`
	Request  json.RawMessage `json:"request"`
	Aim      float64         `json:"aim"`
	Notes    string          `json:"notes"`
	Miss     string          `json:"miss"`
}

func loadMultiTurn(t *testing.T) []multiTurnCase {
	t.Helper()
	b, err := os.ReadFile(multiTurnPath)
	require.NoError(t, err)
	var file struct {
		Cases []multiTurnCase `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(b, &file))
	return file.Cases
}

// multiTurnPredicted asks the engine for a case's figure.
//
// sim_prefix_hit_ratio is the simulator's prompt tokens served from the
// prefix cache over the prompt tokens in whole blocks, n · ⌊in/bs⌋ · bs:
// the source counts cached tokens (vLLM's RequestOutput.num_cached_tokens)
// over full-block prompt tokens, partial tails left out of both.
//
// sim_prefix_hit_rate is the same hits over all prompt tokens, n · in:
// vLLM's own rate, vllm:prefix_cache_hits over vllm:prefix_cache_queries
// (both in tokens, vllm/v1/metrics/stats.py CachingMetrics).
//
// simulation_speedup is the simulated run time with the cache off over the
// run time with it on: the same requests and tokens, so it is the output
// tokens/s with the cache over without.
func multiTurnPredicted(t *testing.T, c multiTurnCase) float64 {
	t.Helper()
	req, err := calc.ParseRequest(c.Request)
	require.NoError(t, err, c.ID)
	rep, err := calc.Evaluate(req)
	require.NoError(t, err, c.ID)
	on := rep.Simulation
	require.NotNil(t, on, c.ID)
	require.NotNil(t, req.Simulate, c.ID)
	require.NotNil(t, req.Simulate.NumRequests, c.ID)
	n := *req.Simulate.NumRequests
	require.Equal(t, n, on.CompletedRequests, "%s: every request completes", c.ID)
	switch c.Metric {
	case "sim_prefix_hit_ratio":
		require.NotNil(t, req.BlockSize, "%s: the block size is stated", c.ID)
		require.NotNil(t, req.Workload.InputTokens, c.ID)
		bs := *req.BlockSize
		full := *req.Workload.InputTokens / bs * bs
		return float64(on.CachedTokens) / float64(n*full)
	case "sim_prefix_hit_rate":
		require.NotNil(t, req.Workload.InputTokens, c.ID)
		return float64(on.CachedTokens) / float64(n**req.Workload.InputTokens)
	case "simulation_speedup":
		off := false
		req.EnablePrefixCaching = &off
		rep, err := calc.Evaluate(req)
		require.NoError(t, err, c.ID)
		require.Equal(t, n, rep.Simulation.CompletedRequests, c.ID)
		require.Zero(t, rep.Simulation.CachedTokens, "%s: no hits with the cache off", c.ID)
		return rep.Simulation.DurationS / on.DurationS
	}
	t.Fatalf("%s: unknown metric %q", c.ID, c.Metric)
	return 0
}

// The prefix cache in repeated-prompt and agentic serving against published
// measurements (issue 33). A case within its aim passes; a documented miss
// (its miss field names the cause) must stay outside its aim, so that a
// change which closes the gap fails here until the note goes. The errors
// and the causes of the misses are in docs/MODEL.md section 10.
func TestMultiTurnAgainstPublishedMeasurements(t *testing.T) {
	cases := loadMultiTurn(t)
	require.GreaterOrEqual(t, len(cases), 10)
	seen := map[string]bool{}
	within := 0
	for _, c := range cases {
		require.False(t, seen[c.ID], "duplicate id %s", c.ID)
		seen[c.ID] = true
		assert.Positive(t, c.Measured.Value, c.ID)
		assert.Positive(t, c.Aim, c.ID)
		got := multiTurnPredicted(t, c)
		require.False(t, math.IsNaN(got) || math.IsInf(got, 0), c.ID)
		e := got/c.Measured.Value - 1
		status := "within"
		if c.Miss != "" {
			status = "documented miss"
			assert.Greater(t, math.Abs(e), c.Aim,
				"%s: a documented miss is now within %.0f%% (predicted %.4g, measured %.4g): remove its miss note and update docs/MODEL.md",
				c.ID, 100*c.Aim, got, c.Measured.Value)
		} else {
			assert.LessOrEqual(t, math.Abs(e), c.Aim, "%s: predicted %.4g, measured %.4g", c.ID, got, c.Measured.Value)
			if math.Abs(e) <= c.Aim {
				within++
			}
		}
		t.Logf("%-34s measured %8.4f predicted %8.4f error %+6.1f%%  %s", c.ID, c.Measured.Value, got, 100*e, status)
	}
	t.Logf("%d of %d cases within their aim", within, len(cases))
}

// Every multi-turn case names a source the engine may be checked against:
// a repository, a 40-hex commit and a path, or a URL, and none that the
// shared validation README keeps aside.
func TestMultiTurnCasesWellFormed(t *testing.T) {
	for _, c := range loadMultiTurn(t) {
		assert.NotEmpty(t, c.Source.Repo, c.ID)
		assert.Regexp(t, hex40, c.Source.Commit, c.ID)
		assert.NotEmpty(t, c.Source.Path, c.ID)
		assert.NotEmpty(t, c.Source.Where, c.ID)
		assert.NotEmpty(t, c.Workload, c.ID)
		cite := strings.ToLower(c.Source.Repo + " " + c.Source.URL + " " + c.Source.Path)
		for _, k := range keptAside {
			assert.NotContains(t, cite, k, "%s: source kept aside", c.ID)
		}
	}
}
