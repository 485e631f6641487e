package deploy

import (
	"github.com/modelrefs/throughput/calc/fleet"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/calc/traffic"
)

// TrafficPlan is the traffic a simulation replays or draws
// (simulate.trace, simulate.rate_curve) and the fleet it runs under it
// (simulate.autoscale), validated.
type TrafficPlan struct {
	// Source is "trace" or "rate_curve"; Format the trace's format.
	Source, Format string
	Trace          *traffic.Trace
	Curve          *traffic.Curve
	// Fleet is the autoscaled fleet (nil: the trace or curve runs on one
	// instance, step by step).
	Fleet *FleetPlan
}

// FleetPlan is simulate.autoscale, resolved: the policy (its cold start
// resolved against the deployment's weights), the static fleet compared.
type FleetPlan struct {
	Policy fleet.Policy
	Static int
	// ExpectedRequests is the arrivals the fleet's traffic brings: the
	// trace's rows, or the rate curve's integral.
	ExpectedRequests float64
}

// Traffic validates simulate's traffic options (trace, rate_curve,
// autoscale) into sp.Traffic, adding problems to e; d is nil when the
// deployment did not resolve. Package calc/simulate sets it: a build
// without the simulator refuses simulate whole, so it needs no parser.
var Traffic func(e *spec.Errs, o *spec.SimulateOptions, sp *SimPlan, d *Deployment, p Ask)

// trafficOptions checks that the traffic options agree with the arrival
// and hands them to Traffic.
func trafficOptions(e *spec.Errs, o *spec.SimulateOptions, sp *SimPlan, d *Deployment, p Ask) {
	switch {
	case o.Trace != nil && o.RateCurve != nil:
		e.Add("simulate.rate_curve", "give a trace or a rate curve, not both")
	case o.Trace != nil && sp.Arrival != "trace":
		e.Add("simulate.trace", "applies to arrival trace only (got "+sp.Arrival+")")
	case o.RateCurve != nil && sp.Arrival != "rate_curve":
		e.Add("simulate.rate_curve", "applies to arrival rate_curve only (got "+sp.Arrival+")")
	case sp.Arrival == "trace" && o.Trace == nil:
		e.Add("simulate.trace", "is required for arrival trace")
	case sp.Arrival == "rate_curve" && o.RateCurve == nil:
		e.Add("simulate.rate_curve", "is required for arrival rate_curve")
	case o.Autoscale != nil && o.Trace == nil && o.RateCurve == nil:
		e.Add("simulate.autoscale", "needs the traffic of a day: give simulate.trace or simulate.rate_curve")
	case o.Trace == nil && o.RateCurve == nil:
		return
	case Traffic != nil:
		Traffic(e, o, sp, d, p)
	}
}

// WeightsBytesPerGPU is the most weight bytes one GPU of the deployment
// holds (its largest pipeline stage's shard, in bytes): what a starting
// replica's GPUs each load, at once.
func (d *Deployment) WeightsBytesPerGPU() int64 {
	var m int64
	for i := range d.stages {
		m = max(m, d.stages[i].weightsBytes.Int64())
	}
	return m
}

// DPRanks is the deployment's data-parallel ranks (1 without data
// parallelism): serving rates are a rank's, a replica serves them all.
func (d *Deployment) DPRanks() int { return max(d.feat.dp, 1) }
