package fleet

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A step in the rate that the autoscaler follows after its cold start,
// worked by hand. One replica serves 10 req/s; the policy targets 50 %
// utilisation, 1 to 8 replicas, decides every 15 s, and a new replica
// serves 60 s after it starts. Arrivals: 10 per second for 600 s, then 30.
//
//   - t = 0: 1 replica (the minimum), ready.
//   - t = 15: the last 15 s brought 10 req/s onto 1 x 10 req/s, no backlog:
//     metric 1.0, 2x the target, so desired = ceil(1 x 1.0 / 0.5) = 2;
//     one replica starts, ready at 15 + 60 = 75.
//   - t in [75, 600]: 2 ready, metric 10 / 20 = 0.5, the target: no change.
//   - t = 615: [600, 615) brought 30 req/s onto 20 req/s of capacity, a
//     backlog of 10 x 15 = 150 requests: metric (30 + 150/15) / 20 = 2.0,
//     desired = ceil(2 x 2.0 / 0.5) = 8; six start, ready at 675.
//   - t = 630, 645, 660, 675: desired passes 8 and is clamped to 8, already
//     provisioned.
//   - The backlog at 675 s, 150 + 60 x 10 = 750, drains at 80 - 30 = 50
//     req/s, gone by 690 s. At 690 s the metric is 30 / 80 = 0.375, desired
//     ceil(8 x 0.375 / 0.5) = 6, but the last 300 s hold recommendations
//     of 8 (the last at 675 s): the fleet keeps 8 until 675 + 300 = 975 s
//     has passed, and drops to 6 at the decision of 990 s; 6 at 30 req/s
//     is the target, so it stays.
//
// So the fleet serves with 1 replica before 75 s, 2 from 75 s to 675 s,
// 8 from 675 s to 990 s and 6 after, and pays for 8 from 615 s.
func TestAutoscalerFollowsAStepAfterItsColdStart(t *testing.T) {
	counts := make([]float64, 1200)
	for k := range counts {
		counts[k] = 10
		if k >= 600 {
			counts[k] = 30
		}
	}
	rep := Replica{CapacityPerS: 10, Table: []Point{{0, 0.1, 0.01, 1}, {1, 0.2, 0.02, 2}}}
	pol := Policy{Metric: Utilization, Target: 0.5, Tolerance: 0.1, Min: 1, Max: 8, ColdStartS: 60, ScaleDownDelayS: 300, IntervalS: 15}
	res := Run(counts, rep, pol, Options{SliceS: 1, Bins: len(counts), Static: 8, TTFTS: 1})
	require.Len(t, res.Bins, 1200)
	for k, b := range res.Bins {
		want := 1.0
		switch {
		case k >= 990:
			want = 6
		case k >= 675:
			want = 8
		case k >= 75:
			want = 2
		}
		require.Equal(t, want, b.Replicas, "ready replicas in second %d", k)
	}
	assert.Equal(t, 8.0, res.Bins[615].Provisioned)
	assert.Equal(t, 2.0, res.Bins[614].Provisioned)
	assert.Equal(t, 2, res.ScaleUps)
	assert.Equal(t, 1, res.ScaleDowns)
	// The static fleet of 8 never queues: every slice meets the 1 s TTFT.
	assert.Equal(t, 1.0, res.Static.Attainment)
	assert.InDelta(t, 8*1200/3600.0, res.Static.ReplicaHours, 1e-9)
}

// The backlog drains at capacity and its wait joins the TTFT: 1 replica
// of 10 req/s receiving 20 in one 1 s slice holds 10 back, which the next
// slice's requests wait 10 / 10 = 1 s for.
func TestBacklogWaitsAtCapacity(t *testing.T) {
	rep := Replica{CapacityPerS: 10, Table: []Point{{0, 0.1, 0.01, 1}, {1, 0.1, 0.01, 1}}}
	pol := Policy{Metric: Utilization, Target: 1, Min: 1, Max: 1, IntervalS: 3600}
	res := Run([]float64{20, 0}, rep, pol, Options{SliceS: 1, Bins: 2, Static: 1, TTFTS: 0.5})
	assert.InDelta(t, 0.1+1.0, res.Bins[0].TTFTS, 1e-12)
	assert.Equal(t, 10.0, res.Autoscaled.MaxBacklog)
	assert.Equal(t, 0.0, res.Autoscaled.Good) // 1.1 s > 0.5 s
	assert.Equal(t, 20.0, res.Autoscaled.Served)
}

// Sizing for an attainment target, by hand: 25 req/s every second for
// 100 s on replicas of 10 req/s, TTFT 0.1 s at any load, SLO 0.5 s. Two
// replicas (20 req/s) fall 5 requests behind a second, so the wait for
// the backlog passes 0.4 s after the first second: 1 of 100 slices meets
// the SLO (the first, whose backlog 5 waits 5 / 20 = 0.25 s). Three (30
// req/s) keep up: every slice meets it. So the smallest static fleet for
// a target of 0.99 is 3; for a target of 0.01, 2.
func TestSmallestStaticFleet(t *testing.T) {
	counts := make([]float64, 100)
	for k := range counts {
		counts[k] = 25
	}
	rep := Replica{CapacityPerS: 10, Table: []Point{{0, 0.1, 0.01, 1}, {1, 0.1, 0.01, 1}}}
	pol := Policy{Metric: Utilization, Target: 0.5, Tolerance: 0.1, Min: 1, Max: 1, IntervalS: 15}
	o := Options{SliceS: 1, TTFTS: 0.5}
	n, f, _ := Smallest(counts, rep, pol, o, 0.99, 64, false)
	assert.Equal(t, 3, n)
	assert.Equal(t, 1.0, f.Attainment)
	n, f, _ = Smallest(counts, rep, pol, o, 0.01, 64, false)
	assert.Equal(t, 2, n)
	assert.Equal(t, 0.01, f.Attainment)
	n, _, runs := Smallest(counts, rep, pol, o, 0.99, 2, false)
	assert.Zero(t, n)
	assert.Equal(t, 1, runs)
	assert.Equal(t, 7, SizingRuns(64)) // 64, then 32 16 8 4 2 1
}
