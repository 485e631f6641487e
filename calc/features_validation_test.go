package calc_test

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// featureCase is one row of validation/testdata/features.json.
type featureCase struct {
	ID       string          `json:"id"`
	Metric   string          `json:"metric"`
	Request  json.RawMessage `json:"request"`
	Measured struct {
		Value float64 `json:"value"`
	} `json:"measured"`
	Aim float64 `json:"aim"`
}

// The serving features against published measurements
// (validation/testdata/features.json, which names every source and why its
// aim is what it is). The errors are in docs/MODEL.md section 10.
func TestFeaturesAgainstPublishedMeasurements(t *testing.T) {
	b, err := os.ReadFile("validation/testdata/features.json")
	require.NoError(t, err)
	var file struct {
		Cases []featureCase `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(b, &file))
	require.GreaterOrEqual(t, len(file.Cases), 3)
	seen := map[string]bool{}
	for _, c := range file.Cases {
		req, err := calc.ParseRequest(c.Request)
		require.NoError(t, err, c.ID)
		var got float64
		switch c.Metric {
		case "speculative_batch1_speedup":
			got = eval(t, req).Features.Speculative.Batch1Speedup
		case "simulation_speedup":
			on := eval(t, req).Simulation
			off := false
			req.EnablePrefixCaching = &off
			without := eval(t, req).Simulation
			require.Equal(t, on.CompletedRequests, without.CompletedRequests, c.ID)
			got = without.DurationS / on.DurationS
		case "tokens_per_s_per_gpu":
			p := eval(t, req).Features.Parallel
			got = p.TokensPerSTotal / float64(p.GPUs)
		default:
			t.Fatalf("%s: unknown metric %q", c.ID, c.Metric)
		}
		seen[c.Metric] = true
		e := got/c.Measured.Value - 1
		t.Logf("%-32s measured %10.4g predicted %10.4g error %+6.1f%%", c.ID, c.Measured.Value, got, 100*e)
		assert.LessOrEqual(t, math.Abs(e), c.Aim, "%s: predicted %g, measured %g", c.ID, got, c.Measured.Value)
	}
	assert.Len(t, seen, 3, "one case at least for each of speculation, prefix caching and expert parallelism")
}
