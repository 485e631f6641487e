package simulate

import (
	"math"
	"strconv"

	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/fleet"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/sched"
)

// startTraffic prepares a run of sp's traffic: a trace or rate curve on
// one instance keeps every request's record (for the intervals); a fleet
// runs first, and the step-by-step run that follows is its check, at the
// busiest hour's load per replica. It returns the fleet's section (nil:
// none).
func startTraffic(d *deploy.Deployment, r *spec.Report, p deploy.Ask, sp *deploy.SimPlan, o *sched.Options) *spec.FleetReport {
	tp := sp.Traffic
	if tp == nil {
		return nil
	}
	if tr := tp.Trace; tr != nil && sp.Work.MaxTokens > 1 {
		n := 0
		for _, rq := range tr.Requests {
			if int(rq.Input)+int(rq.Output) > sp.Work.MaxTokens {
				n++
			}
		}
		if n > 0 {
			r.Warn("trace_clamped", strconv.Itoa(n)+" of the trace's requests are longer than max_model_len ("+strconv.Itoa(sp.Work.MaxTokens)+
				" tokens): their prompts are cut to max_model_len - 1 and their outputs to what is left, as the simulator's other workloads are")
		}
	}
	if tp.Fleet == nil {
		o.Records = true
		return nil
	}
	return runFleet(d, r, p, sp)
}

// endTraffic is the traffic section of a run (nil without traffic): the
// traffic's figures, the instance's outcome by interval, or the fleet and
// its check against the run s.
func endTraffic(sp *deploy.SimPlan, res sched.Result, s *spec.SimulationReport, fr *spec.FleetReport, opts sched.Options) *spec.TrafficReport {
	tp := sp.Traffic
	if tp == nil {
		return nil
	}
	t := &spec.TrafficReport{Source: tp.Source, Format: tp.Format}
	if tr := tp.Trace; tr != nil {
		t.Requests = len(tr.Requests)
		t.DurationS = tr.Requests[len(tr.Requests)-1].ArrivalS
		t.PrefixBlocks, t.ReusedPrefixBlocks, t.PrefixBlockTokens = tr.Blocks, tr.ReusedBlocks, tr.BlockTokens
		if tr.Blocks > 0 {
			t.PrefixReuse = float64(tr.ReusedBlocks) / float64(tr.Blocks)
		}
	}
	if c := tp.Curve; c != nil {
		t.DurationS = c.DurationS()
		t.ExpectedRequests = c.Integral(0, t.DurationS)
		t.PeakRequestRate = c.MaxRate()
		t.Requests = len(sp.Work.Trace)
	}
	if fr != nil {
		t.Requests = int(fr.Autoscaled.Hours[0].Requests)
		for _, h := range fr.Autoscaled.Hours[1:] {
			t.Requests += int(h.Requests)
		}
		if tp.Trace == nil {
			t.PeakRequestRate = tp.Curve.MaxRate()
		}
		s.Arrival = "poisson" // the check's
		if fr.Check != nil {
			fr.Check.SimulatedTTFTMs, fr.Check.SimulatedTPOTMs = s.TTFTMs.Mean, s.TPOTMs.Mean
		}
		t.Fleet = fr
	}
	if t.DurationS > 0 {
		t.MeanRequestRate = float64(t.Requests) / t.DurationS
	}
	if fr == nil && len(res.Records) > 0 && sp.Timeline > 0 {
		t.Intervals = intervals(res.Records, sp, t.DurationS, opts)
	}
	if tp.Trace != nil {
		for _, in := range t.Intervals {
			t.PeakRequestRate = math.Max(t.PeakRequestRate, in.RequestRate)
		}
		if fr != nil {
			for _, in := range fr.Intervals {
				t.PeakRequestRate = math.Max(t.PeakRequestRate, in.RequestRate)
			}
		}
	}
	return t
}

// intervals is the instance's outcome by arrival time, in at most
// sp.Timeline intervals over the traffic's length.
func intervals(recs []sched.Record, sp *deploy.SimPlan, dur float64, o sched.Options) []spec.TrafficInterval {
	n := sp.Timeline
	if !(dur > 0) {
		n, dur = 1, 1
	}
	width := dur / float64(n)
	out := make([]spec.TrafficInterval, n)
	met := make([]int, n)
	slo := o.TTFTS > 0 || o.TPOTS > 0
	for _, rc := range recs {
		if rc.Rejected {
			continue
		}
		i := min(int(rc.ArrivalS/width), n-1)
		in := &out[i]
		in.Arrivals++
		if rc.Generated < rc.Output || rc.FinishS <= 0 {
			continue
		}
		in.Completed++
		// As sched's meter counts them: the front end joins the TTFT.
		ttft := rc.FirstTokenS - rc.ArrivalS + o.FrontEndS + float64(rc.Input)*o.FrontEndPerTokenS
		in.TTFTMs += ttft * 1000
		tpot := 0.0
		if rc.Output > 1 {
			tpot = (rc.FinishS - rc.FirstTokenS) / float64(rc.Output-1)
		}
		if (o.TTFTS <= 0 || ttft <= o.TTFTS) && (o.TPOTS <= 0 || tpot <= o.TPOTS) {
			met[i]++
		}
	}
	for i := range out {
		in := &out[i]
		in.StartS, in.DurationS = float64(i)*width, width
		if c := sp.Traffic.Curve; c != nil {
			in.RequestRate = c.Integral(in.StartS, in.StartS+width) / width
		} else {
			in.RequestRate = float64(in.Arrivals) / width
		}
		if in.Completed > 0 {
			in.TTFTMs /= float64(in.Completed)
		}
		if slo {
			a := 1.0
			if in.Arrivals > 0 {
				a = float64(met[i]) / float64(in.Arrivals)
			}
			in.SLOAttainment = &a
		}
	}
	return out
}

// rhoPoints are the utilisations at which a replica's steady state is
// tabled for the fleet model (finer near saturation, where latency
// bends); 1 is the saturated replica.
var rhoPoints = [...]float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.925, 0.95, 0.975, 0.99, 1}

// runFleet runs sp's fleet (docs/MODEL.md section 14): one replica's
// capacity and latencies from the serving model (deploy.Serving.Steady
// at the traffic's mean lengths), the arrivals counted per slice (a
// trace's as given, a rate curve's drawn by thinning), both fleets run
// by package fleet. It sets the check run's rate (sp.Work.RatePerS) to
// the autoscaled fleet's busiest hour per ready replica.
func runFleet(d *deploy.Deployment, r *spec.Report, p deploy.Ask, sp *deploy.SimPlan) *spec.FleetReport {
	tp, fp := sp.Traffic, sp.Traffic.Fleet
	w := &sp.Work
	in, out := int(math.Round(w.Input.Mean)), int(math.Round(w.Output.Mean))
	if tp.Trace == nil {
		in, out = meanOf(w.Input), meanOf(w.Output)
	}
	rep, ok := replicaOf(d, in, out)
	if !ok {
		r.Warn("fleet_skipped", "no fleet was simulated: one replica serves no request of the traffic's mean lengths")
		return nil
	}
	// Arrivals per slice of spec.FleetSliceS (1 s).
	var dur float64
	if tp.Trace != nil {
		dur = tp.Trace.Requests[len(tp.Trace.Requests)-1].ArrivalS
	} else {
		dur = tp.Curve.DurationS()
	}
	// A trace's slices run to its last arrival's; a curve's to its end.
	counts := make([]float64, max(int(math.Ceil(dur/spec.FleetSliceS)), 1))
	slice := func(t float64) int { return min(int(t/spec.FleetSliceS), len(counts)-1) }
	if tp.Trace != nil {
		counts = make([]float64, int(dur/spec.FleetSliceS)+1)
		for _, rq := range tp.Trace.Requests {
			counts[slice(rq.ArrivalS)]++
		}
	} else {
		tp.Curve.Arrivals(w.Seed^curveSeed, func(t float64) bool {
			counts[slice(t)]++
			return true
		})
	}
	pol := fp.Policy
	gpus := r.Config.GPUs
	usd := 0.0
	if r.Cost != nil {
		usd = r.Cost.GPUHourUSD * float64(gpus)
	} else {
		r.Warn("fleet_unpriced", "the fleets' cost is 0: the accelerator has no default price; give gpu_hour_usd")
	}
	bins := sp.Timeline
	if bins <= 0 {
		bins = spec.DefaultTimelinePoints
	}
	res := fleet.Run(counts, rep, pol, fleet.Options{SliceS: spec.FleetSliceS, TTFTS: p.TTFTS, TPOTS: p.TPOTS,
		USDPerReplicaHour: usd, Bins: bins, Static: fp.Static})
	fr := &spec.FleetReport{
		Metric: pol.Metric, Target: pol.Target, MinReplicas: pol.Min, MaxReplicas: pol.Max, StaticReplicas: fp.Static,
		IntervalS: pol.IntervalS, ScaleDownDelayS: pol.ScaleDownDelayS, ColdStartS: pol.ColdStartS,
		ReplicaCapacity: rep.CapacityPerS, GPUsPerReplica: gpus, ReplicaHourUSD: usd, SliceS: spec.FleetSliceS,
		Autoscaled: outcome(res.Autoscaled, usd), Static: outcome(res.Static, usd),
		ScaleUps: res.ScaleUps, ScaleDowns: res.ScaleDowns,
	}
	fr.SavedUSD = fr.Static.CostUSD - fr.Autoscaled.CostUSD
	fr.Intervals = make([]spec.FleetInterval, len(res.Bins))
	for i, b := range res.Bins {
		fr.Intervals[i] = spec.FleetInterval{StartS: b.StartS, DurationS: b.DurationS, RequestRate: b.RatePerS,
			Replicas: b.Replicas, Provisioned: b.Provisioned, SLOAttainment: b.Attainment, TTFTMs: ms(b.TTFTS),
			StaticSLOAttainment: b.StaticAttainment, StaticTTFTMs: ms(b.StaticTTFTS)}
	}
	if t := fp.AttainmentTarget; t > 0 {
		o := fleet.Options{SliceS: spec.FleetSliceS, TTFTS: p.TTFTS, TPOTS: p.TPOTS, USDPerReplicaHour: usd}
		sz := &spec.FleetSizing{AttainmentTarget: t, MaxReplicasSearched: spec.MaxSizingReplicas}
		n, f, _ := fleet.Smallest(counts, rep, pol, o, t, spec.MaxSizingReplicas, false)
		sz.StaticReplicas, sz.StaticCostUSD, sz.StaticSLOAttainment = n, f.CostUSD, f.Attainment
		n, f, _ = fleet.Smallest(counts, rep, pol, o, t, spec.MaxSizingReplicas, true)
		sz.MaxReplicas, sz.AutoscaledCostUSD, sz.AutoscaledSLOAttainment = n, f.CostUSD, f.Attainment
		fr.Sizing = sz
	}
	// The check: the busiest hour's arrivals per ready replica.
	busiest := 0
	for i, h := range res.Autoscaled.Hours {
		if h.Requests > res.Autoscaled.Hours[busiest].Requests {
			busiest = i
		}
	}
	h := res.Autoscaled.Hours[busiest]
	hourS := math.Min(3600, float64(len(counts))*spec.FleetSliceS-h.StartS)
	rate := h.Requests / hourS / math.Max(h.MeanReplicas, 1)
	if !(rate > 0) {
		// No arrivals: the check is one request on an idle replica.
		w.RatePerS, w.NumRequests = 1, 1
	} else {
		w.RatePerS = rate
		rho := rate / rep.CapacityPerS
		pt := rep.At(rho)
		fr.Check = &spec.FleetCheck{RequestRatePerReplica: rate, Utilization: rho, ModelTTFTMs: ms(pt.TTFTS), ModelTPOTMs: ms(pt.TPOTS)}
	}
	return fr
}

// meanOf is a length distribution's mean in whole tokens (a uniform's
// midpoint).
func meanOf(d sched.Dist) int {
	if d.Kind == sched.Uniform {
		return max((d.Min+d.Max)/2, 1)
	}
	return max(int(math.Round(d.Mean)), 1)
}

// replicaOf is one replica's fleet figures at in + out tokens: its
// capacity (the serving model's saturated rate, every data-parallel rank
// together) and its latencies tabled at rhoPoints (Steady at rho x the
// capacity; rho 0 is an idle replica's first request, Steady at a rate
// too small to queue).
func replicaOf(d *deploy.Deployment, in, out int) (fleet.Replica, bool) {
	sv := deploy.Analyse(d, nil)
	runCap, why := d.SchedulerCap()
	pool := d.Pool()
	if onset := pool.Onset(pool.MeanStaggered(in, out)); onset < runCap {
		runCap, why = max(onset, 1), "kv_cache"
	}
	dp := float64(d.DPRanks())
	sat := sv.Steady(in, out, 0, spec.MaxRate, runCap, why)
	capRank := sat.RequestsPerS / dp
	if !(capRank > 0) || math.IsInf(capRank, 0) {
		return fleet.Replica{}, false
	}
	rep := fleet.Replica{CapacityPerS: sat.RequestsPerS, Table: make([]fleet.Point, len(rhoPoints))}
	for i, rho := range rhoPoints {
		st := sat
		if rho < 1 {
			st = sv.Steady(in, out, 0, math.Max(rho, 1e-6)*capRank, runCap, why)
		}
		rep.Table[i] = fleet.Point{Rho: rho, TTFTS: st.TTFTMs / 1000, TPOTS: st.TPOTMs / 1000, E2ES: st.E2EMs / 1000}
	}
	return rep, true
}

// outcome converts one fleet's outcome.
func outcome(f fleet.Fleet, usd float64) spec.FleetOutcome {
	o := spec.FleetOutcome{ReplicaHours: f.ReplicaHours, CostUSD: f.CostUSD, SLOAttainment: f.Attainment,
		GoodputRequestsPerS: f.GoodputPerS, PeakReplicas: f.PeakReplicas, MaxBacklog: f.MaxBacklog,
		WorstHour: f.WorstHour, Hours: make([]spec.FleetHour, len(f.Hours))}
	for i, h := range f.Hours {
		o.Hours[i] = spec.FleetHour{StartS: h.StartS, Requests: h.Requests, SLOAttainment: h.Attainment,
			GoodputRequestsPerS: h.GoodputPerS, MeanReplicas: h.MeanReplicas, ReplicaHours: h.ReplicaHours, CostUSD: h.ReplicaHours * usd}
	}
	return o
}
