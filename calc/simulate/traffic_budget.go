package simulate

import (
	"math"
	"strconv"

	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/fleet"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/numtext"
)

// The fleet model's work (simulate.autoscale; calc/fleet), in work units
// (evaluate.NsPerWorkUnit each; deploy.TrafficWork, read by the work
// budget).
// BenchmarkFleetDay (a day at 50 req/s, 4.32 million arrivals and 86,400
// slices, on the loaded development machine) spent 344 ms of CPU, about
// 80 ns an arrival: thinning's draws (an exponential and a uniform per
// candidate, about 1.1 candidates an arrival on a curve whose pieces
// bound it closely) and the slice's count. A slice runs both fleets'
// queues and the autoscaler's bookkeeping, a few hundred ns.
const (
	// FleetArrivalWorkUnits is one arrival's cost (80 ns at NsPerWorkUnit).
	FleetArrivalWorkUnits = 8
	// FleetSliceWorkUnits is one slice's cost (200 ns).
	FleetSliceWorkUnits = 20
)

// fleetWork prices sp's fleet: its arrivals (the trace's rows, or the
// rate curve's integral) and its slices. 0 without a fleet.
func fleetWork(sp *deploy.SimPlan) float64 {
	tp := sp.Traffic
	if tp == nil || tp.Fleet == nil {
		return 0
	}
	slices := math.Ceil(trafficSpan(tp) / spec.FleetSliceS)
	runs := 1.0
	if tp.Fleet.AttainmentTarget > 0 {
		// The sizing: two bisections, each run both fleets' slices.
		runs += float64(2 * fleet.SizingRuns(spec.MaxSizingReplicas))
	}
	return FleetArrivalWorkUnits*tp.Fleet.ExpectedRequests + FleetSliceWorkUnits*slices*runs
}

// trafficSpan is the traffic's length in seconds: the trace's last
// arrival, or the curve's end.
func trafficSpan(tp *deploy.TrafficPlan) float64 {
	if tp.Trace != nil {
		return tp.Trace.Requests[len(tp.Trace.Requests)-1].ArrivalS
	}
	return tp.Curve.DurationS()
}

// trafficRefusal is the refusal of a trace or rate curve over the budget,
// naming the field that brings the traffic (nil without one).
func trafficRefusal(sp *deploy.SimPlan, total, budget float64) error {
	tp := sp.Traffic
	if tp == nil {
		return nil
	}
	field, what := "simulate.rate_curve", "the rate curve's"
	if tp.Trace != nil {
		field, what = "simulate.trace", "the trace's"
	}
	n := float64(sp.Work.NumRequests)
	scope := " on one instance, step by step"
	if tp.Fleet != nil {
		n = tp.Fleet.ExpectedRequests
		scope = " on a fleet of " + strconv.Itoa(tp.Fleet.Policy.Max) + " replicas at most"
	}
	return spec.Errors{{Field: field, Message: what + " " + numtext.Thousands(int64(math.Round(n))) + " requests over " +
		numtext.Thousands(int64(math.Round(trafficSpan(tp)))) + " s" + scope + " need about " + numtext.Sci(total) +
		" sequence-steps, above the work budget of " + numtext.Sci(budget) + "; shorten it or lower its rate, or raise the budget (the JavaScript module's load({ workBudget }))"}}
}
