package deploy

import (
	"math"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/sched"
)

// OnsetBisections refines a measured request-rate onset between two
// sweep points (2^-6 of their gap).
const OnsetBisections = 6

// HasSLO reports whether the request gives a latency budget (slo.ttft_ms
// or slo.tpot_ms) that the simulation's goodput is measured against.
func (p Ask) HasSLO() bool { return p.TTFTS > 0 || p.TPOTS > 0 }

// SimSweepLoads returns the loads a simulated sweep runs, sorted and
// distinct, and the analytic onset it compares against (0: unreachable).
func (d *Deployment) SimSweepLoads(p Ask, sp *SimPlan, pre *spec.PreemptionReport) (loads []float64, onset float64) {
	poisson := sp.Work.Arrival == sched.Poisson
	schedCap, _ := d.SchedulerCap()
	ref := float64(schedCap)
	if poisson {
		ref, _ = Serving{d: d}.ServingRate(schedCap, p.In, p.Out)
		if pre.Reachable {
			onset = pre.OnsetRequestRate
			ref = pre.SaturationRequestRate
		}
		loads = append([]float64(nil), sp.Rates...)
	} else {
		if pre.Reachable {
			onset = float64(pre.OnsetConcurrency)
			ref = float64(pre.OnsetConcurrency)
		}
		for _, u := range sp.Users {
			loads = append(loads, float64(u))
		}
	}
	if len(loads) == 0 {
		for i := 1; i <= sp.Points; i++ {
			x := ref * 2 * float64(i) / float64(sp.Points)
			if !poisson {
				x = max(1, math.Round(x))
			}
			loads = append(loads, x)
		}
	}
	return sortedDistinct(loads), onset
}

// sortedDistinct sorts xs in place, ascending, and drops repeats. An
// insertion sort: a sweep has at most MaxSimSweepPoints loads, and
// slices.Sort and slices.Compact on float64 (an instantiation used nowhere
// else in the browser's light engine, which estimates a sweep's work) cost
// that engine about 4 KB of gzip.
func sortedDistinct(xs []float64) []float64 {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}
