package simulate

import (
	"math"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/fleet"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/calc/traffic"
	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/numtext"
	"github.com/modelrefs/throughput/sched"
)

func init() {
	deploy.Traffic, deploy.TrafficWork, deploy.TrafficRefusal = trafficPlan, fleetWork, trafficRefusal
}

// trafficPlan validates simulate.trace, simulate.rate_curve and
// simulate.autoscale (deploy.Traffic). Without autoscale the traffic runs
// on one instance, step by step: its arrivals become the workload's
// trace (a rate curve's drawn here, by thinning, from simulate.seed), at
// most sched.MaxRequests of them. With autoscale a fleet runs it
// (runFleet), and the step-by-step run is the fleet's check.
func trafficPlan(e *spec.Errs, o *spec.SimulateOptions, sp *deploy.SimPlan, d *deploy.Deployment, p deploy.Ask) {
	switch {
	case sp.Work.Sessions != nil:
		return // a session workload's arrivals are its own: sessionsSim refuses the traffic options, naming each
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
	default:
		trafficOf(e, o, sp, d, p)
	}
}

// trafficOf validates the traffic options once they agree with the
// arrival.
func trafficOf(e *spec.Errs, o *spec.SimulateOptions, sp *deploy.SimPlan, d *deploy.Deployment, p deploy.Ask) {
	tp := &deploy.TrafficPlan{Source: sp.Arrival}
	var field string
	var expected float64
	if t := o.Trace; t != nil {
		field = "simulate.trace"
		tp.Format = strings.ToLower(strings.TrimSpace(t.Format))
		tr, err := traffic.Parse(tp.Format, t.Data, "simulate.trace.data")
		if err != nil {
			e.AddErr("", err)
			return
		}
		tp.Trace, expected = tr, float64(len(tr.Requests))
	}
	if c := o.RateCurve; c != nil {
		field = "simulate.rate_curve"
		tp.Curve = rateCurve(e, c)
		if tp.Curve == nil {
			return
		}
		expected = tp.Curve.Integral(0, tp.Curve.DurationS())
	}
	if o.Sweep != nil {
		e.Add("simulate.sweep", "does not apply to a trace or a rate curve (their arrivals are given)")
	}
	w := &sp.Work
	if a := o.Autoscale; a != nil {
		if o.RateCurve != nil && expected > spec.MaxFleetRequests {
			e.Add(field, "brings about "+numtext.Thousands(int64(math.Round(expected)))+" requests; a fleet simulation takes at most "+numtext.Thousands(spec.MaxFleetRequests))
		}
		if !p.HasSLO() {
			e.Add("simulate.autoscale", "needs an SLO (slo.ttft_ms or slo.tpot_ms): the fleets' attainment is measured against it")
		}
		tp.Fleet = fleetPlan(e, a, d)
		tp.Fleet.ExpectedRequests = expected
		// The check: one replica, Poisson at the busiest hour's load per
		// replica (set by runFleet); priced here at saturation.
		w.Arrival, w.RatePerS = sched.Poisson, spec.MaxRate
		if tr := tp.Trace; tr != nil {
			in, out := traceMeans(tr)
			w.Input = sched.Dist{Kind: sched.Constant, Mean: in, Min: 1, Max: w.Input.Max}
			w.Output = sched.Dist{Kind: sched.Constant, Mean: out, Min: 1, Max: w.Output.Max}
		}
		sp.Traffic = tp
		return
	}
	if o.NumRequests != nil {
		e.Add("simulate.num_requests", "is the trace's or the rate curve's own count; leave it out")
	}
	if expected > sched.MaxRequests*1.05 || (tp.Trace != nil && expected > sched.MaxRequests) {
		e.Add(field, "brings about "+numtext.Thousands(int64(math.Round(expected)))+" requests; one instance simulates at most "+numtext.Thousands(sched.MaxRequests)+" step by step (simulate.autoscale runs a fleet over more)")
		return
	}
	switch {
	case tp.Trace != nil:
		w.Trace = tp.Trace.Requests
	default:
		w.Trace = w.Trace[:0]
		tp.Curve.Arrivals(w.Seed^curveSeed, func(t float64) bool {
			w.Trace = append(w.Trace, sched.TraceRequest{ArrivalS: t})
			return len(w.Trace) < sched.MaxRequests
		})
		if len(w.Trace) == 0 {
			e.Add(field, "brought no requests (its rates are 0, or too small over its length)")
			return
		}
	}
	w.NumRequests = len(w.Trace)
	sp.Traffic = tp
}

// curveSeed separates a rate curve's arrival stream from the workload's
// length streams of the same seed.
const curveSeed = 0x7261746563757276 // "ratecurv"

// rateCurve validates a rate curve.
func rateCurve(e *spec.Errs, c *spec.RateCurve) *traffic.Curve {
	n := e.Len()
	const f = "simulate.rate_curve"
	switch {
	case len(c.TimesS) < 2:
		e.Add(f+".times_s", "needs at least 2 points (the curve runs from the first to the last)")
	case len(c.TimesS) > spec.MaxRateCurvePoints:
		e.Add(f+".times_s", "at most "+strconv.Itoa(spec.MaxRateCurvePoints)+" points")
	case len(c.Rates) != len(c.TimesS):
		e.Add(f+".rates", "needs one rate per time ("+strconv.Itoa(len(c.TimesS))+"), got "+strconv.Itoa(len(c.Rates)))
	}
	if e.Len() > n {
		return nil
	}
	out := &traffic.Curve{TimesS: make([]float64, len(c.TimesS)), Rates: make([]float64, len(c.Rates))}
	for i := range c.TimesS {
		at := f + ".times_s[" + strconv.Itoa(i) + "]"
		t := e.FloatAt(at, "RateCurve.times_s", &c.TimesS[i], -1)
		switch {
		case i == 0 && t != 0 && t != -1:
			e.Add(at, "must be 0 (the curve starts at 0 s), got "+fielderr.Number(t))
		case i > 0 && t >= 0 && t < out.TimesS[i-1]:
			e.Add(at, "must not be before the previous time ("+fielderr.Number(out.TimesS[i-1])+"), got "+fielderr.Number(t))
		}
		out.TimesS[i] = t
		out.Rates[i] = e.FloatAt(f+".rates["+strconv.Itoa(i)+"]", "RateCurve.rates", &c.Rates[i], 0)
	}
	switch strings.ToLower(strings.TrimSpace(c.Shape)) {
	case "", "linear":
	case "steps":
		out.Steps = true
	default:
		e.Add(f+".shape", "unknown shape "+fielderr.Quote(c.Shape)+"; one of "+strings.Join(spec.RateCurveShapes, ", "))
	}
	if e.Len() == n && !(out.DurationS() > 0) {
		e.Add(f+".times_s", "the curve has no length: its last time must be after 0")
	}
	if e.Len() > n {
		return nil
	}
	return out
}

// fleetPlan validates simulate.autoscale. The cold start defaults to one
// GPU's weights (every GPU of a replica loads its own shard at once) over
// the load bandwidth.
func fleetPlan(e *spec.Errs, a *spec.AutoscaleOptions, d *deploy.Deployment) *deploy.FleetPlan {
	const f = "simulate.autoscale"
	fp := &deploy.FleetPlan{}
	pol := &fp.Policy
	pol.Metric = strings.ToLower(strings.TrimSpace(a.Metric))
	target := spec.DefaultAutoscaleTarget
	switch pol.Metric {
	case "":
		pol.Metric = fleet.Utilization
	case fleet.Utilization:
	case fleet.Queue:
		target = spec.DefaultAutoscaleQueue
	default:
		e.Add(f+".metric", "unknown metric "+fielderr.Quote(a.Metric)+"; one of "+strings.Join(spec.AutoscaleMetrics, ", "))
	}
	pol.Target = e.FloatAt(f+".target", "AutoscaleOptions.target", a.Target, target)
	if pol.Metric == fleet.Utilization && pol.Target > 1 {
		e.Add(f+".target", "a utilisation target must be at most 1, got "+fielderr.Number(pol.Target))
	}
	pol.Tolerance = e.FloatAt(f+".tolerance", "AutoscaleOptions.tolerance", a.Tolerance, spec.DefaultAutoscaleTolerance)
	pol.Min = e.IntAt(f+".min_replicas", "AutoscaleOptions.min_replicas", a.MinReplicas, 1)
	pol.Max = e.IntAt(f+".max_replicas", "AutoscaleOptions.max_replicas", a.MaxReplicas, max(spec.DefaultMaxReplicas, pol.Min))
	if pol.Min > pol.Max {
		e.Add(f+".min_replicas", "("+strconv.Itoa(pol.Min)+") must not exceed max_replicas ("+strconv.Itoa(pol.Max)+")")
	}
	fp.Static = e.IntAt(f+".static_replicas", "AutoscaleOptions.static_replicas", a.StaticReplicas, pol.Max)
	pol.IntervalS = e.FloatAt(f+".interval_s", "AutoscaleOptions.interval_s", a.IntervalS, spec.DefaultAutoscaleIntervalS)
	pol.ScaleDownDelayS = e.FloatAt(f+".scale_down_delay_s", "AutoscaleOptions.scale_down_delay_s", a.ScaleDownDelayS, spec.DefaultScaleDownDelayS)
	bw := e.FloatAt(f+".load_bandwidth_bytes_per_s", "AutoscaleOptions.load_bandwidth_bytes_per_s", a.LoadBandwidthBytesPerS, spec.DefaultLoadBandwidth)
	if a.ColdStartS != nil && a.LoadBandwidthBytesPerS != nil {
		e.Add(f+".load_bandwidth_bytes_per_s", "give cold_start_s or load_bandwidth_bytes_per_s, not both")
	}
	fp.AttainmentTarget = e.FloatAt(f+".attainment_target", "AutoscaleOptions.attainment_target", a.AttainmentTarget, 0)
	pol.ColdStartS = -1
	if a.ColdStartS != nil {
		pol.ColdStartS = e.FloatAt(f+".cold_start_s", "AutoscaleOptions.cold_start_s", a.ColdStartS, 0)
	} else if d != nil && bw > 0 {
		pol.ColdStartS = float64(d.WeightsBytesPerGPU()) / bw
	}
	return fp
}

// traceMeans is a trace's mean prompt and output lengths, in tokens.
func traceMeans(tr *traffic.Trace) (in, out float64) {
	for _, r := range tr.Requests {
		in += float64(r.Input)
		out += float64(r.Output)
	}
	n := float64(max(len(tr.Requests), 1))
	return in / n, math.Max(out/n, 1)
}
