package deploy

import (
	"math"

	"github.com/modelrefs/throughput/sched"
)

// Sweep tuning.
const (
	// kneeFraction defines the throughput knee: the smallest load that
	// reaches this fraction of the sweep's best output throughput.
	kneeFraction = 0.95
	// onsetBisections refines a measured request-rate onset between two
	// sweep points (2^-6 of their gap).
	onsetBisections = 6
)

// simulate runs the simulation sp asks for and adds its section, and its
// warnings, to r. A deployment whose pool cannot hold the workload is not
// simulated (r already says why). It returns the work its runs did, in
// work units (runWork; what estimateWork predicts).
func (d *Deployment) simulate(r *Report, p plan, sp *simPlan) (work float64) {
	if sp == nil {
		return 0
	}
	if r.Preemption == nil || d.NumBlocks < 2 {
		r.warn("simulation_skipped", "nothing was simulated: the KV cache cannot hold one request of the workload")
		return 0
	}
	cfg := d.schedConfig()
	cfg.Spec.Seed = sp.w.Seed
	res, err := sched.Run(cfg, sp.w, d.stepSeconds, d.simOptions(p, sp.timeline))
	if err != nil {
		r.warn("simulation_failed", "the simulation stopped: "+err.Error())
		return 0
	}
	work = runUnits(res)
	s := simReport(res, cfg.NumBlocks, p.hasSLO())
	s.Arrival, s.Seed = sp.arrival, sp.seed
	switch sp.w.Arrival {
	case sched.Poisson:
		s.RequestRate = sp.w.RatePerS
	case sched.ClosedLoop:
		s.Concurrency = sp.w.Users
	}
	if res.Truncated {
		r.warn("simulation_truncated", "the simulation stopped after "+itoa(maxSimSteps)+" steps; figures cover the requests finished by then")
	}
	if res.Rejected > 0 {
		r.warn("simulation_rejected", itoa(res.Rejected)+" simulated requests were longer than the KV cache holds and were dropped")
	}
	if sp.sweep {
		var sweepWork float64
		s.Sweep, sweepWork = d.simSweep(p, sp, r.Preemption)
		work += sweepWork
	}
	r.Simulation = s
	return work
}

// runUnits is the work a run did, in work units (see DefaultWorkBudget).
func runUnits(res sched.Result) float64 {
	return float64(res.SeqSteps) + StepWorkUnits*float64(res.Steps) + RequestWorkUnits*float64(res.Requests)
}

func (d *Deployment) simOptions(p plan, timeline int) sched.Options {
	// The context phase's fixed latency (context_overhead_ms: the front
	// end's HTTP, tokenisation and detokenisation, which no step pays) is
	// every simulated request's, as prefillTime adds it to the analytic
	// TTFT.
	return sched.Options{TTFTS: p.ttftS, TPOTS: p.tpotS, TimelinePoints: timeline, MaxSteps: maxSimSteps,
		FrontEndS: d.Eff.ContextOverheadMs / 1000}
}

// hasSLO reports whether the request gives a latency budget (slo.ttft_ms
// or slo.tpot_ms) that the simulation's goodput is measured against.
func (p plan) hasSLO() bool { return p.ttftS > 0 || p.tpotS > 0 }

// simReport converts a result; every ratio with a zero denominator is 0.
// Goodput and SLO attainment are set only when slo is true.
func simReport(res sched.Result, pool int64, slo bool) *SimulationReport {
	div := func(a, b float64) float64 {
		if b <= 0 {
			return 0
		}
		return a / b
	}
	out, in := float64(res.OutputTokens), float64(res.InputTokens)
	done := float64(res.Completed)
	s := &SimulationReport{
		NumRequests: res.Requests, CompletedRequests: res.Completed, RejectedRequests: res.Rejected,
		Truncated: res.Truncated, DurationS: res.DurationS, Steps: res.Steps,
		MeanInputTokens: div(in, done), MeanOutputTokens: div(out, done),
		TTFTMs: latencyMs(res.TTFT), TPOTMs: latencyMs(res.TPOT), E2ELatencyMs: latencyMs(res.E2E),
		ITLMs:        latencyMs(res.ITL),
		RequestsPerS: div(done, res.DurationS), OutputTokensPerS: div(out, res.DurationS),
		TotalTokensPerS: div(in+out, res.DurationS),
		Preemptions:     res.Preemptions, PreemptedRequests: res.PreemptedRequests,
		RecomputedTokens:   res.RecomputedTokens,
		RecomputeOverhead:  div(float64(res.RecomputedTokens), out),
		WorkPerOutputToken: div(float64(res.ProcessedTokens), out),
		MeanRunning:        res.MeanRunning, MeanWaiting: res.MeanWaiting,
		MeanKVCacheUsage: res.MeanKVUsage, PeakKVCacheUsage: div(float64(res.PeakBlocks), float64(pool)),
		CachedTokens: res.CachedTokens, DraftedTokens: res.DraftedTokens, AcceptedTokens: res.AcceptedTokens,
		ReloadedTokens: res.ReloadedTokens,
	}
	if slo {
		good, frac := div(float64(res.SLOMet), res.DurationS), div(float64(res.SLOMet), done)
		s.GoodputRequestsPerS, s.SLOAttainment = &good, &frac
	}
	if res.Preemptions > 0 {
		s.FirstPreemptionS, s.RunningAtFirstPreemption = res.FirstPreemptionS, res.RunningAtFirstPreemption
	}
	if len(res.Timeline) > 0 {
		s.Timeline = make([]SimTimelinePoint, len(res.Timeline))
		for i, pt := range res.Timeline {
			s.Timeline[i] = SimTimelinePoint{TimeS: pt.TimeS, DurationS: pt.DurationS, Running: pt.Running, Waiting: pt.Waiting, KVCacheUsage: pt.KVUsage}
		}
	}
	return s
}

func latencyMs(s sched.Summary) LatencySummary {
	return LatencySummary{Mean: ms(s.Mean), P50: ms(s.P50), P90: ms(s.P90), P99: ms(s.P99), Max: ms(s.Max)}
}

// simSweep runs the workload at several loads (request rates for Poisson
// arrivals, closed-loop users otherwise), bisects the smallest load that
// preempts, and finds the throughput knee.
func (d *Deployment) simSweep(p plan, sp *simPlan, pre *PreemptionReport) (_ *SimulationSweep, work float64) {
	w := sp.w
	w.NumRequests = sp.sweepN
	poisson := w.Arrival == sched.Poisson
	if !poisson {
		w.Arrival = sched.ClosedLoop
	}
	sw := &SimulationSweep{Load: "concurrency", NumRequests: w.NumRequests}
	if poisson {
		sw.Load = "request_rate"
	}
	loads, onset := d.simSweepLoads(p, sp, pre)
	sw.AnalyticOnset = onset

	cfg := d.schedConfig()
	cfg.Spec.Seed = w.Seed
	opts := d.simOptions(p, 0)
	run := func(load float64) (sched.Result, bool) {
		if poisson {
			w.RatePerS = load
		} else {
			w.Users = int(load)
		}
		res, err := sched.Run(cfg, w, d.stepSeconds, opts)
		work += runUnits(res)
		return res, err == nil
	}
	first := -1
	var firstRes sched.Result
	for _, load := range loads {
		res, ok := run(load)
		if !ok {
			continue
		}
		s := simReport(res, cfg.NumBlocks, p.hasSLO())
		sw.Points = append(sw.Points, SimSweepPoint{
			Load: load, OutputTokensPerS: s.OutputTokensPerS, RequestsPerS: s.RequestsPerS,
			GoodputRequestsPerS: s.GoodputRequestsPerS,
			TTFTP50Ms:           s.TTFTMs.P50, TTFTP99Ms: s.TTFTMs.P99,
			TPOTP50Ms: s.TPOTMs.P50, TPOTP99Ms: s.TPOTMs.P99,
			E2EP50Ms: s.E2ELatencyMs.P50, E2EP99Ms: s.E2ELatencyMs.P99,
			MeanRunning: s.MeanRunning, Preemptions: s.Preemptions, WorkPerOutputToken: s.WorkPerOutputToken,
		})
		sw.MaxOutputTokensPerS = max(sw.MaxOutputTokensPerS, s.OutputTokensPerS)
		if first < 0 && res.Preemptions > 0 {
			first, firstRes = len(sw.Points)-1, res
		}
	}
	for _, pt := range sw.Points {
		if pt.OutputTokensPerS >= kneeFraction*sw.MaxOutputTokensPerS {
			sw.KneeLoad, sw.KneeOutputTokensPerS = pt.Load, pt.OutputTokensPerS
			break
		}
	}
	if first >= 0 {
		lo, hi := 0.0, sw.Points[first].Load
		if first > 0 {
			lo = sw.Points[first-1].Load
		}
		for i := 0; ; i++ {
			mid := (lo + hi) / 2
			if !poisson {
				mid = math.Floor(mid)
			}
			if mid <= lo || (poisson && i >= onsetBisections) {
				break
			}
			res, ok := run(mid)
			if ok && res.Preemptions > 0 {
				hi, firstRes = mid, res
			} else {
				lo = mid
			}
		}
		sw.PreemptionOnset, sw.RunningAtOnset = hi, firstRes.RunningAtFirstPreemption
		if sw.AnalyticOnset > 0 {
			sw.OnsetDifference = sw.PreemptionOnset - sw.AnalyticOnset
			sw.OnsetRatio = sw.PreemptionOnset / sw.AnalyticOnset
		}
	}
	return sw, work
}

// simSweepLoads returns the loads a simulated sweep runs, sorted and
// distinct, and the analytic onset it compares against (0: unreachable).
func (d *Deployment) simSweepLoads(p plan, sp *simPlan, pre *PreemptionReport) (loads []float64, onset float64) {
	poisson := sp.w.Arrival == sched.Poisson
	schedCap, _ := d.schedulerCap()
	ref := float64(schedCap)
	if poisson {
		ref, _ = d.servingRate(schedCap, p.in, p.out)
		if pre.Reachable {
			onset = pre.OnsetRequestRate
			ref = pre.SaturationRequestRate
		}
		loads = append([]float64(nil), sp.rates...)
	} else {
		if pre.Reachable {
			onset = float64(pre.OnsetConcurrency)
			ref = float64(pre.OnsetConcurrency)
		}
		for _, u := range sp.users {
			loads = append(loads, float64(u))
		}
	}
	if len(loads) == 0 {
		for i := 1; i <= sp.points; i++ {
			x := ref * 2 * float64(i) / float64(sp.points)
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
