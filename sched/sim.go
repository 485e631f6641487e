package sched

import (
	"errors"
	"math"
)

// MaxRequests bounds one simulation.
const MaxRequests = 100_000

// DefaultMaxSteps stops a simulation that would run longer than any
// sensible request (Result.Truncated says so).
const DefaultMaxSteps = 1 << 25

// CostFunc returns a step's duration in seconds; it must be positive and
// finite.
type CostFunc func(Load) float64

// Options controls what a run records.
type Options struct {
	// TTFTS and TPOTS are the latency budget a request must meet to count
	// towards goodput, in seconds (0: no bound).
	TTFTS, TPOTS float64
	// TimelinePoints caps the timeline's points (0: no timeline).
	TimelinePoints int
	// Records keeps one Record per request in the result.
	Records bool
	// MaxSteps stops the run early (0: DefaultMaxSteps).
	MaxSteps int64
	// FrontEndS is a fixed latency every request pays outside the steps,
	// in seconds (the API server's HTTP handling, tokenisation, the
	// engine's admission and the first chunk's detokenisation and
	// return): it adds to each TTFT and end-to-end latency, not to the
	// time between tokens. A request's arrival is when the client sends
	// it; shifting every arrival by one constant leaves the schedule
	// unchanged, so it is added at the end.
	FrontEndS float64
	// Work stops the run with ErrWorkLimit once the work it has counted
	// passes Work.Limit (0: no limit).
	Work WorkLimit
	// FrontEndPerTokenS is the part of the front end that grows with the
	// prompt, in seconds per prompt token (the API server's tokenisation):
	// a request of n prompt tokens pays FrontEndS + n * FrontEndPerTokenS.
	FrontEndPerTokenS float64
}

// WorkLimit is a run's watchdog: the work it counts, SeqSteps +
// PerStep*Steps + PerBlockEvent*BlockEvents (the caller's units), is
// checked after every step against Limit.
type WorkLimit struct {
	Limit, PerStep, PerBlockEvent float64
}

// ErrWorkLimit reports a run stopped by its Options.Work limit.
var ErrWorkLimit = errors.New("sched: the run passed its work limit")

// Summary is a latency distribution in seconds. Percentiles interpolate
// linearly between the closest ranks (numpy's default). With no samples
// every field is 0.
type Summary struct {
	Mean, P50, P90, P99, Max float64
}

// Point is one timeline bucket: consecutive steps starting at TimeS and
// lasting DurationS, with time-weighted means of the running sequences,
// the waiting queue and the fraction of the block pool in use.
type Point struct {
	TimeS, DurationS          float64
	Running, Waiting, KVUsage float64
}

// Record is one request's outcome (times in seconds).
type Record struct {
	Input, Output, Generated       int
	ArrivalS, FirstTokenS, FinishS float64
	Preemptions                    int
	Rejected                       bool
}

// Result is what a run measured.
type Result struct {
	// Requests were generated; Completed finished; Rejected could never
	// fit in the block pool (prompt plus output) and were dropped.
	Requests, Completed, Rejected int
	// Truncated is true when MaxSteps stopped the run.
	Truncated bool
	// DurationS runs from time zero to the last step's end.
	DurationS float64
	Steps     int64
	// SeqSteps is the work the run did, in sequence-steps: the sum over
	// its steps of the sequences running in each (after scheduling).
	// Scheduling and completing a step walk the running sequences, so
	// the run's CPU time grows with SeqSteps (and, per step, with Steps).
	SeqSteps int64
	// BlockEvents counts the run's calls of Config.Blocks.BlocksFor: one
	// per request to check it fits the pool, and the scheduler's
	// (admission checks, and a sequence's allocation whenever its
	// context crosses a block boundary or its step's token count
	// changes). Each walks every KV-cache group, so the run's CPU time
	// grows with BlockEvents times the groups.
	BlockEvents int64
	// TTFT, TPOT (over requests with more than one output token) and E2E
	// latency of completed requests; ITL the gaps between consecutive
	// output tokens over every request (gapHist), unfinished ones too.
	TTFT, TPOT, E2E, ITL Summary
	// InputTokens and OutputTokens are the completed requests' prompt and
	// delivered output tokens. ProcessedTokens counts every token a step
	// computed (prompts, recomputation, decodes): without preemption it is
	// input + output - 1 per request (the last sampled token is never fed
	// back).
	InputTokens, OutputTokens, ProcessedTokens int64
	// Preemptions counts evictions; PreemptedRequests the requests evicted
	// at least once; RecomputedTokens the computed tokens they dropped
	// (and computed again).
	Preemptions, PreemptedRequests int
	RecomputedTokens               int64
	// CachedTokens is the prompt tokens served from the prefix cache
	// (shared prefixes, and a resumed request's own surviving blocks)
	// instead of computed; ResumedCachedTokens those a preempted request
	// found again on its return (RecomputedTokens leaves them out). The
	// accounting: ProcessedTokens = sum(input + output - 1) +
	// RecomputedTokens - (CachedTokens - ResumedCachedTokens) +
	// DraftedTokens - AcceptedTokens.
	CachedTokens, ResumedCachedTokens int64
	// ReloadedTokens were loaded back from the offload tier instead of
	// recomputed (RecomputedTokens leaves them out too).
	ReloadedTokens int64
	// DraftedTokens and AcceptedTokens count speculative decoding's
	// verified drafts and those accepted.
	DraftedTokens, AcceptedTokens int64
	// FirstPreemptionS is when the first preemption happened (-1: none);
	// RunningAtFirstPreemption the running sequences just before it.
	FirstPreemptionS         float64
	RunningAtFirstPreemption int
	// SLOMet counts completed requests within the latency budget.
	SLOMet int
	// MeanRunning, MeanWaiting and MeanKVUsage are time-weighted means of
	// the state each step runs with (after scheduling); PeakBlocks is the
	// most blocks held at any moment, within a step's scheduling included.
	MeanRunning, MeanWaiting, MeanKVUsage float64
	PeakBlocks                            int64
	Timeline                              []Point
	Records                               []Record
	// Sessions is a session workload's outcome (nil for independent
	// requests).
	Sessions *SessionStats
}

// ErrInternal reports a broken invariant of the simulator (a bug).
var ErrInternal = errors.New("sched: internal error")

// Run simulates a workload on one serving instance: arrivals join the
// waiting queue, Schedule decides each step, cost prices it, and the
// clock advances by that price. An idle server jumps to the next arrival.
// Invalid inputs return ErrConfig.
func Run(cfg Config, w Workload, cost CostFunc, o Options) (Result, error) {
	n := w.NumRequests
	if n < 1 || n > MaxRequests || cost == nil || !w.valid() || !(o.FrontEndS >= 0) || math.IsInf(o.FrontEndS, 0) || !(o.FrontEndPerTokenS >= 0) || math.IsInf(o.FrontEndPerTokenS, 0) {
		return Result{}, ErrConfig
	}
	s, err := NewScheduler(cfg, n)
	if err != nil {
		return Result{}, err
	}
	reqs := make([]request, n)
	var sr *sessionRun
	if w.Sessions != nil {
		sr, s.cache.owner, s.cache.keep = w.generateSessions(reqs)
		if !s.cache.on {
			s.cache.owner, s.cache.keep = nil, nil
		}
	} else {
		w.generate(reqs)
	}
	rejected := make([]bool, n)
	res := Result{Requests: n, FirstPreemptionS: -1}
	for i, r := range reqs {
		all := int64(r.input + r.output)
		if cfg.Blocks.BlocksFor(all+int64(cfg.Spec.Tokens), min(all, int64(cfg.MaxBatchedTokens))) > cfg.NumBlocks {
			rejected[i] = true
			res.Rejected++
		}
	}
	if sr != nil {
		res.Rejected += sr.rejectFollowers(rejected)
	}
	maxSteps := o.MaxSteps
	if maxSteps <= 0 {
		maxSteps = DefaultMaxSteps
	}
	m := newMeter(n, o)
	next := 0
	skip := func() {
		for next < n && rejected[next] {
			next++
		}
	}
	skip()
	var now float64
	var done func(int)
	switch {
	case sr != nil:
		next = n // arrivals come from sr
		sr.start(&w, rejected)
		done = func(id int) {
			q := &s.seqs[id]
			ttft, tpot := m.finish(q)
			sr.done(&w, id, now, q, ttft, tpot, rejected)
		}
	case w.Arrival == ClosedLoop:
		for u := 0; u < w.Users && next < n; u++ {
			s.Submit(next, 0, reqs[next].input, reqs[next].output)
			next++
			skip()
		}
		done = func(id int) {
			m.finish(&s.seqs[id])
			if next < n {
				s.Submit(next, now, reqs[next].input, reqs[next].output)
				next++
				skip()
			}
		}
	default:
		done = func(id int) { m.finish(&s.seqs[id]) }
	}
	pool := float64(cfg.NumBlocks)
	var ls *lockstep
	if cfg.LockstepRanks > 1 {
		ls = newLockstep(cfg.LockstepRanks, w.Seed)
	}
	// seen is the time up to which the scheduler has received the
	// arrivals: now, or under Config.OverlapSchedule the start of the
	// step that just ended (the next step was formed then).
	var seen float64
	for {
		if sr != nil {
			sr.submitDue(s, seen)
		} else if w.Arrival != ClosedLoop {
			for next < n && reqs[next].arrivalS <= seen {
				s.Submit(next, reqs[next].arrivalS, reqs[next].input, reqs[next].output)
				next++
				skip()
			}
		}
		l := s.Schedule(now)
		if l.Tokens() == 0 {
			if len(s.running) > 0 || s.waiting.len() > 0 {
				return Result{}, ErrConfig // cannot happen: every request fits alone
			}
			if seen < now {
				seen = now // an idle server receives what has arrived at once
				continue
			}
			if next < n && w.Arrival != ClosedLoop {
				now = max(now, reqs[next].arrivalS)
				seen = now
				continue
			}
			if sr != nil && len(sr.pending) > 0 {
				now = max(now, sr.pending[0].t)
				seen = now
				continue
			}
			break
		}
		if res.Steps >= maxSteps {
			res.Truncated = true
			break
		}
		dt := cost(l)
		if !(dt > 0) || math.IsInf(dt, 0) {
			return Result{}, ErrConfig
		}
		if ls != nil {
			dt = ls.step(dt)
		}
		used := float64(s.UsedBlocks())
		m.step(now, dt, float64(len(s.running)), float64(s.waiting.len()), used/pool)
		seen = now + dt
		if cfg.OverlapSchedule {
			seen = now
		}
		now += dt
		res.Steps++
		res.SeqSteps += int64(len(s.running))
		s.Complete(now, done)
		if lim := o.Work; lim.Limit > 0 && float64(res.SeqSteps)+lim.PerStep*float64(res.Steps)+lim.PerBlockEvent*float64(int64(n)+s.blockEvents) > lim.Limit {
			return Result{}, ErrWorkLimit
		}
	}
	if !res.Truncated && s.free != cfg.NumBlocks {
		return Result{}, ErrInternal
	}
	res.DurationS = now
	res.PeakBlocks = s.peakUsed
	res.BlockEvents = int64(n) + s.blockEvents
	res.ProcessedTokens = s.ProcessedTokens
	res.Preemptions = s.Preemptions
	res.RecomputedTokens = s.RecomputedTokens
	res.CachedTokens, res.ResumedCachedTokens = s.cache.hitTokens, s.cache.resumeHits
	res.DraftedTokens, res.AcceptedTokens = s.drafted, s.acceptedN
	res.ReloadedTokens = s.reloaded
	if s.Preemptions > 0 {
		res.FirstPreemptionS = s.firstPreemptS
		res.RunningAtFirstPreemption = s.runningAtPreempt
	}
	m.result(&res)
	if sr != nil {
		res.Sessions = sr.finish()
	}
	res.ITL = s.ITL()
	if o.Records {
		res.Records = make([]Record, n)
		for i := range reqs {
			q := &s.seqs[i]
			res.Records[i] = Record{
				Input: reqs[i].input, Output: reqs[i].output, Generated: q.generated,
				ArrivalS: q.arrivalS, FirstTokenS: q.firstS, FinishS: q.finishS,
				Preemptions: q.preemptions, Rejected: rejected[i],
			}
		}
	}
	return res, nil
}

// lockstep prices a step of one of Config.LockstepRanks alike ranks that
// run each MoE layer together: the step lasts as long as the slowest
// rank's. The run simulates one rank; each of the others' steps is drawn
// from this rank's last lockstepHistory steps (the ranks serve alike
// shares of the load, each on its own schedule, so in steady state one
// rank's recent steps are a sample of what the others run now). Seconds.
//
// The largest of k = ranks - 1 uniform draws from h values is drawn at
// once: its rank in the sorted history is floor(h * u^(1/k)) for u
// uniform in [0, 1), since P(rank <= i) = ((i+1)/h)^k is k draws' law. So
// a step costs one draw and one sorted insertion whatever the rank count.
type lockstep struct {
	others float64 // k
	ring   [lockstepHistory]float64
	sorted []float64 // the ring's values, ascending
	n      int
	rng    *Rand
}

// lockstepHistory is how many recent steps stand for the other ranks';
// lockstepSeed separates its draws from the workload's streams.
const (
	lockstepHistory = 256
	lockstepSeed    = 0x6c6f636b73746570 // "lockstep"
)

func newLockstep(ranks int, seed uint64) *lockstep {
	return &lockstep{others: float64(ranks - 1), sorted: make([]float64, 0, lockstepHistory), rng: NewRand(seed ^ lockstepSeed)}
}

// step returns the lockstep duration of a step that takes dt on this rank.
func (ls *lockstep) step(dt float64) float64 {
	m := dt
	if len(ls.sorted) > 0 {
		m = max(m, ls.drawMax())
	}
	if ls.n >= lockstepHistory {
		ls.remove(ls.ring[ls.n%lockstepHistory])
	}
	ls.ring[ls.n%lockstepHistory] = dt
	ls.n++
	ls.insert(dt)
	return m
}

// drawMax draws the largest of the other ranks' steps from the (non-empty)
// history: the value of rank floor(h * u^(1/k)).
func (ls *lockstep) drawMax() float64 {
	h := len(ls.sorted)
	r := 0 // u = 0: the smallest
	if u := ls.rng.Float64(); u > 0 {
		r = min(int(float64(h)*exp(ln(u)/ls.others)), h-1)
	}
	return ls.sorted[r]
}

// insert adds x to the sorted history.
func (ls *lockstep) insert(x float64) {
	i := sortedIndex(ls.sorted, x)
	ls.sorted = append(ls.sorted, 0)
	copy(ls.sorted[i+1:], ls.sorted[i:])
	ls.sorted[i] = x
}

// remove takes one x out of the sorted history.
func (ls *lockstep) remove(x float64) {
	i := sortedIndex(ls.sorted, x)
	copy(ls.sorted[i:], ls.sorted[i+1:])
	ls.sorted = ls.sorted[:len(ls.sorted)-1]
}

// sortedIndex is the first index of a whose value is not below x.
func sortedIndex(a []float64, x float64) int {
	lo, hi := 0, len(a)
	for lo < hi {
		mid := (lo + hi) / 2
		if a[mid] < x {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// valid reports whether the workload can be generated.
func (w *Workload) valid() bool {
	switch w.Arrival {
	case Burst:
	case Poisson:
		if !(w.RatePerS > 0) || math.IsInf(w.RatePerS, 0) {
			return false
		}
	case ClosedLoop:
		if w.Users < 1 {
			return false
		}
	case Replay:
		if !w.validTrace() {
			return false
		}
	default:
		return false
	}
	return w.Input.valid() && w.Output.valid() && (w.Sessions == nil || w.Sessions.valid())
}

func (d Dist) valid() bool {
	ok := func(x float64) bool { return x >= 0 && !math.IsInf(x, 0) }
	if d.Min < 0 || d.Max < 0 || (d.Max > 0 && d.Max < d.Min) || !ok(d.Mean) || !ok(d.Std) {
		return false
	}
	switch d.Kind {
	case Constant, Normal, Exponential:
		return true
	case Uniform:
		return d.Max >= max(d.Min, 1)
	case LogNormal:
		return d.Mean > 0
	}
	return false
}
