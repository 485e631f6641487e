package simulate

import (
	"math"
	"strconv"

	"github.com/modelrefs/throughput/calc/evaluate"

	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/numtext"
	"github.com/modelrefs/throughput/sched"
)

// kneeFraction defines the throughput knee: the smallest load that
// reaches this fraction of the sweep's best output throughput.
const kneeFraction = 0.95

// run runs the simulation sp asks for and adds its section, and its
// warnings, to r. A deployment whose pool cannot hold the workload is not
// simulated (r already says why). It returns the work its runs did, in
// work units (runWork; what estimateWork predicts).
func run(d *deploy.Deployment, r *spec.Report, p deploy.Ask, sp *deploy.SimPlan) (work float64) {
	if sp == nil {
		return 0
	}
	if r.Preemption == nil || d.NumBlocks < 2 {
		r.Warn("simulation_skipped", "nothing was simulated: the KV cache cannot hold one request of the workload")
		return 0
	}
	cfg := d.SchedConfig()
	cfg.Spec.Seed = sp.Work.Seed
	opts := simOptions(d, p, sp.Timeline)
	fleetReport := startTraffic(d, r, p, sp, &opts)
	limit(&opts, d, sp, 0, sp.Work.NumRequests)
	res, err := sched.Run(cfg, sp.Work, d.StepSeconds, opts)
	if err == sched.ErrWorkLimit {
		stopped(sp)
		return sp.WorkLimit
	}
	if err != nil {
		r.Warn("simulation_failed", "the simulation stopped: "+err.Error())
		return 0
	}
	work = runUnits(res, len(d.Layout().Groups))
	s := simReport(res, cfg.NumBlocks, p.HasSLO())
	s.Arrival, s.Seed = sp.Arrival, sp.Seed
	s.Sessions = simSessions(res.Sessions, r.Sessions)
	switch sp.Work.Arrival {
	case sched.Poisson:
		s.RequestRate = sp.Work.RatePerS
	case sched.ClosedLoop:
		s.Concurrency = sp.Work.Users
	}
	s.Traffic = endTraffic(sp, res, s, fleetReport, opts)
	if res.Truncated {
		r.Warn("simulation_truncated", "the simulation stopped after "+strconv.Itoa(spec.MaxSimSteps)+" steps; figures cover the requests finished by then")
	}
	if res.Rejected > 0 {
		r.Warn("simulation_rejected", strconv.Itoa(res.Rejected)+" simulated requests were longer than the KV cache holds and were dropped")
	}
	if sp.Sweep {
		var sweepWork float64
		s.Sweep, sweepWork = simSweep(d, p, sp, r.Preemption, work)
		work += sweepWork
	}
	if sp.Stopped {
		stopped(sp)
		return work
	}
	r.Simulation = s
	return work
}

// stopped records that the watchdog stopped sp's simulation: the request
// is refused (deploy.SimPlan.Refusal), naming simulate.
func stopped(sp *deploy.SimPlan) {
	sp.Stopped = true
	sp.Refusal = spec.Errors{{Field: "simulate", Message: "the simulation was stopped when its work passed " + numtext.Sci(sp.WorkLimit) +
		" sequence-steps, " + strconv.Itoa(evaluate.WatchdogFactor) + " times the work budget of " + numtext.Sci(sp.WorkLimit/evaluate.WatchdogFactor) +
		" it was estimated to fit; lower simulate.num_requests, or simulate.sweep.num_requests"}}
}

// limit sets o's watchdog (sched.Options.Work) to what is left of
// sp.WorkLimit after done units, for a run of n requests (each counted
// RequestWorkUnits up front); no limit when sp has none.
func limit(o *sched.Options, d *deploy.Deployment, sp *deploy.SimPlan, done float64, n int) {
	if sp.WorkLimit <= 0 {
		return
	}
	o.Work = sched.WorkLimit{Limit: max(sp.WorkLimit-done-evaluate.RequestWorkUnits*float64(n), 1),
		PerStep: evaluate.StepWorkUnits, PerBlockEvent: evaluate.GroupWorkUnits * float64(len(d.Layout().Groups))}
}

// runUnits is the work a run did, in work units (see evaluate.DefaultWorkBudget).
// groups is the layout's KV-cache groups, which each block event walks.
func runUnits(res sched.Result, groups int) float64 {
	return float64(res.SeqSteps) + evaluate.StepWorkUnits*float64(res.Steps) + evaluate.RequestWorkUnits*float64(res.Requests) +
		evaluate.GroupWorkUnits*float64(groups)*float64(res.BlockEvents)
}

func simOptions(d *deploy.Deployment, p deploy.Ask, timeline int) sched.Options {
	// The front end (Efficiencies.FrontEndS: the context phase's fixed
	// latency, the API server's request handling and first-token return,
	// and the prompt's tokenisation, which no step pays) is every
	// simulated request's, as prefillTime and Steady add it to the
	// analytic TTFT: the fixed part once, the tokenisation per prompt
	// token.
	return sched.Options{TTFTS: p.TTFTS, TPOTS: p.TPOTS, TimelinePoints: timeline, MaxSteps: spec.MaxSimSteps,
		FrontEndS: d.Eff.FrontEndS(0), FrontEndPerTokenS: d.Eff.TokenizeUsPerToken / 1e6}
}

// simReport converts a result; every ratio with a zero denominator is 0.
// Goodput and SLO attainment are set only when slo is true.
func simReport(res sched.Result, pool int64, slo bool) *spec.SimulationReport {
	div := func(a, b float64) float64 {
		if b <= 0 {
			return 0
		}
		return a / b
	}
	out, in := float64(res.OutputTokens), float64(res.InputTokens)
	done := float64(res.Completed)
	s := &spec.SimulationReport{
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
		s.Timeline = make([]spec.SimTimelinePoint, len(res.Timeline))
		for i, pt := range res.Timeline {
			s.Timeline[i] = spec.SimTimelinePoint{TimeS: pt.TimeS, DurationS: pt.DurationS, Running: pt.Running, Waiting: pt.Waiting, KVCacheUsage: pt.KVUsage}
		}
	}
	return s
}

func latencyMs(s sched.Summary) spec.LatencySummary {
	return spec.LatencySummary{Mean: ms(s.Mean), P50: ms(s.P50), P90: ms(s.P90), P99: ms(s.P99), Max: ms(s.Max)}
}

// simSweep runs the workload at several loads (request rates for Poisson
// arrivals, closed-loop users otherwise), bisects the smallest load that
// preempts, and finds the throughput knee.
// done is the work already done (the main run's), which counts against
// sp.WorkLimit.
func simSweep(d *deploy.Deployment, p deploy.Ask, sp *deploy.SimPlan, pre *spec.PreemptionReport, done float64) (_ *spec.SimulationSweep, work float64) {
	w := sp.Work
	w.NumRequests = sp.SweepN
	poisson := w.Arrival == sched.Poisson
	if !poisson {
		w.Arrival = sched.ClosedLoop
	}
	sw := &spec.SimulationSweep{Load: "concurrency", NumRequests: w.NumRequests}
	if poisson {
		sw.Load = "request_rate"
	}
	loads, onset := d.SimSweepLoads(p, sp, pre)
	sw.AnalyticOnset = onset

	cfg := d.SchedConfig()
	cfg.Spec.Seed = w.Seed
	opts := simOptions(d, p, 0)
	run := func(load float64) (sched.Result, bool) {
		if sp.Stopped {
			return sched.Result{}, false
		}
		if poisson {
			w.RatePerS = load
		} else {
			w.Users = int(load)
		}
		limit(&opts, d, sp, done+work, w.NumRequests)
		res, err := sched.Run(cfg, w, d.StepSeconds, opts)
		if err == sched.ErrWorkLimit {
			sp.Stopped = true
		}
		work += runUnits(res, len(d.Layout().Groups))
		return res, err == nil
	}
	first := -1
	var firstRes sched.Result
	for _, load := range loads {
		res, ok := run(load)
		if !ok {
			continue
		}
		s := simReport(res, cfg.NumBlocks, p.HasSLO())
		sw.Points = append(sw.Points, spec.SimSweepPoint{
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
			if mid <= lo || (poisson && i >= deploy.OnsetBisections) {
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

func init() {
	deploy.Simulator, deploy.TurnLengths = run, (*sched.Workload).Lengths
	deploy.LinkSessions()
}

// ms converts seconds to milliseconds.
func ms(s float64) float64 { return s * 1000 }
