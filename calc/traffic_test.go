package calc_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// The Azure excerpt replays on one instance exactly: 300 requests, the
// last arriving 84.029102 s after the first (trace_test.go), each with
// its recorded lengths, so the run's mean prompt is the trace's: 270,000
// tokens over 300 requests, 900 (summed with Python's csv module).
func TestSimulateReplaysATrace(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("traffic/testdata/azure_conv_2023_300.csv")
	require.NoError(t, err)
	req := llama8B("h100-sxm", 1024, 256, &calc.SimulateOptions{TimelinePoints: calc.Int(10),
		Trace: &calc.TraceOptions{Format: "azure", Data: string(data)}})
	req.SLO = &calc.SLO{TTFTMs: calc.Float(1000)}
	r, err := calc.Evaluate(req)
	require.NoError(t, err)
	s := r.Simulation
	require.NotNil(t, s)
	assert.Equal(t, "trace", s.Arrival)
	assert.Equal(t, 300, s.NumRequests)
	assert.Equal(t, 300, s.CompletedRequests)
	assert.InDelta(t, 900, s.MeanInputTokens, 1e-9)
	tr := s.Traffic
	require.NotNil(t, tr)
	assert.Equal(t, 300, tr.Requests)
	assert.InDelta(t, 84.029102, tr.DurationS, 1e-6)
	require.Len(t, tr.Intervals, 10)
	n := 0
	for _, in := range tr.Intervals {
		n += in.Arrivals
		require.NotNil(t, in.SLOAttainment)
	}
	assert.Equal(t, 300, n)
}

// A rate curve on one instance: the drawn count is Poisson with mean the
// curve's integral, 2 req/s for 100 s then 6 req/s for 100 s (steps):
// 800, within 4 standard deviations (4 sqrt(800) = 113).
func TestSimulateRateCurve(t *testing.T) {
	t.Parallel()
	req := llama8B("h100-sxm", 512, 64, &calc.SimulateOptions{TimelinePoints: calc.Int(2),
		RateCurve: &calc.RateCurve{TimesS: []float64{0, 100, 200}, Rates: []float64{2, 6, 6}, Shape: "steps"}})
	r, err := calc.Evaluate(req)
	require.NoError(t, err)
	tr := r.Simulation.Traffic
	require.NotNil(t, tr)
	assert.Equal(t, "rate_curve", r.Simulation.Arrival)
	assert.InDelta(t, 800, tr.ExpectedRequests, 1e-9)
	assert.InDelta(t, 800, float64(tr.Requests), 113)
	require.Len(t, tr.Intervals, 2)
	assert.Equal(t, 2.0, tr.Intervals[0].RequestRate)
	assert.Equal(t, 6.0, tr.Intervals[1].RequestRate)
	assert.InDelta(t, 200, float64(tr.Intervals[0].Arrivals), 4*14.2)
}

// A day's curve on an autoscaled fleet: every figure finite, the fleet
// within its bounds, the static fleet of max_replicas costing the most.
func TestSimulateAutoscaledDay(t *testing.T) {
	t.Parallel()
	req := llama8B("h100-sxm", 1024, 256, &calc.SimulateOptions{NumRequests: calc.Int(200),
		RateCurve: &calc.RateCurve{TimesS: []float64{0, 21600, 43200, 64800, 86400}, Rates: []float64{2, 20, 40, 20, 2}},
		Autoscale: &calc.AutoscaleOptions{MinReplicas: calc.Int(1), MaxReplicas: calc.Int(8), AttainmentTarget: calc.Float(0.99)}})
	req.SLO = &calc.SLO{TTFTMs: calc.Float(2000), TPOTMs: calc.Float(100)}
	r, err := calc.EvaluateWithBudget(req, 1e12)
	require.NoError(t, err)
	f := r.Simulation.Traffic.Fleet
	require.NotNil(t, f)
	assert.Len(t, f.Autoscaled.Hours, 24)
	assert.LessOrEqual(t, f.Autoscaled.PeakReplicas, 8.0)
	assert.Equal(t, 8, f.StaticReplicas)
	assert.Less(t, f.Autoscaled.ReplicaHours, f.Static.ReplicaHours)
	assert.InDelta(t, 8*24, f.Static.ReplicaHours, 1e-6) // 8 replicas x 86,400 one-second slices
	require.NotNil(t, f.Check)
	assert.Greater(t, f.Check.SimulatedTTFTMs, 0.0)
	assert.Greater(t, f.ColdStartS, 0.0)
	// The sizing reaches the target with fleets no larger than the ones
	// run, which attained it (1.0 at 8 static replicas).
	require.NotNil(t, f.Sizing)
	assert.GreaterOrEqual(t, f.Sizing.StaticSLOAttainment, 0.99)
	assert.LessOrEqual(t, f.Sizing.StaticReplicas, 8)
	assert.GreaterOrEqual(t, f.Sizing.AutoscaledSLOAttainment, 0.99)
	assert.LessOrEqual(t, f.Sizing.MaxReplicas, 8)
	assert.Greater(t, f.Sizing.MaxReplicas, 0)
	t.Logf("sizing %+v", *f.Sizing)
	t.Logf("capacity %.2f req/s, auto %.1f replica-h $%.0f attain %.4f, static $%.0f attain %.4f, check %+v",
		f.ReplicaCapacity, f.Autoscaled.ReplicaHours, f.Autoscaled.CostUSD, f.Autoscaled.SLOAttainment, f.Static.CostUSD, f.Static.SLOAttainment, *f.Check)
}
