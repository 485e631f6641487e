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
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

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
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	Policy fleet.Policy
	Static int
	// ExpectedRequests is the arrivals the fleet's traffic brings: the
	// trace's rows, or the rate curve's integral.
	ExpectedRequests float64
	// AttainmentTarget sizes the fleets (0: no sizing).
	AttainmentTarget float64
}

// Traffic validates simulate's traffic options (trace, rate_curve,
// autoscale) into sp.Traffic, adding problems to e; d is nil when the
// deployment did not resolve. Package calc/simulate sets it: a build
// without the simulator refuses simulate whole, so it needs no parser.
var Traffic func(e *spec.Errs, o *spec.SimulateOptions, sp *SimPlan, d *Deployment, p Ask)

// trafficOptions hands simulate's traffic options to Traffic (nil in a
// build without the simulator, which refuses simulate whole).
func trafficOptions(e *spec.Errs, o *spec.SimulateOptions, sp *SimPlan, d *Deployment, p Ask) {
	if Traffic != nil {
		Traffic(e, o, sp, d, p)
	}
}

// TrafficWork prices sp's traffic beyond its step-by-step run (a fleet),
// in work units, and TrafficRefusal is the refusal of traffic over the
// budget (nil without traffic); calc/simulate sets both, as Traffic.
var (
	TrafficWork    func(sp *SimPlan) float64
	TrafficRefusal func(sp *SimPlan, total, budget float64) error
)

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
