package sched

// Agentic multi-turn sessions (docs/MODEL.md section 10, "Agentic multi-turn sessions"): a session is a
// sequence of turns, each a request whose prompt is the whole conversation
// so far (every earlier prompt and output) plus new tokens (the user's next
// message or a tool's result). The next turn arrives a think time (a
// tool call, a user reading) after the previous one finished. Between
// turns the session's KV blocks stay in vLLM's prefix cache, in the free
// block queue, until fresh allocations evict them (least recently freed
// first); a turn that finds them reuses them (sched/features.go), so the
// prefix hit rate is an outcome of the run.

// Sessions turns a Workload into sessions of turns. Workload.Input is a
// session's first prompt and Workload.Output every turn's output;
// NumRequests counts turns (the last session is cut short at the limit).
// Arrival Poisson starts sessions at RatePerS sessions per second,
// ClosedLoop runs Users users each starting a new session the moment its
// previous one ends, Burst starts every session at time zero. Rates and
// users are the fleet's: one of Replicas replicas is simulated, with
// RatePerS / Replicas and round(Users / Replicas) (at least 1).
type Sessions struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	// Turns is the turns per session (at least 1).
	Turns Dist
	// NewTokens is the tokens each turn after the first adds to the
	// conversation before its own output.
	NewTokens Dist
	// ThinkS is the mean gap, in seconds, between a turn's completion and
	// the next turn's arrival; exponential when ThinkExponential, else
	// constant.
	ThinkS           float64
	ThinkExponential bool
	// Replicas is the serving replicas the sessions spread over (0 or 1:
	// one). RandomRouting sends each turn to a replica drawn uniformly at
	// random; false pins each session to one replica (session affinity).
	Replicas      int
	RandomRouting bool
}

// MaxTurnStats is the turn indices Result.Sessions reports one by one;
// later turns are pooled in the last entry.
const MaxTurnStats = 32

// SessionStats is what a session run measured (Result.Sessions).
type SessionStats struct {
	// Sessions is the sessions started; Turns the turns they issued
	// (rejected ones included).
	Sessions, Turns int
	// PromptTokens is the completed turns' prompt tokens and CachedTokens
	// those served from the prefix cache at their admission (a resumed
	// turn's second hit is not counted again): HitRate is their ratio.
	PromptTokens, CachedTokens int64
	HitRate                    float64
	// PerTurn holds turn index k (0: first) at k, up to MaxTurnStats.
	PerTurn []TurnStats
}

// TurnStats is the completed turns of one turn index (seconds, tokens).
type TurnStats struct {
	Turn, Requests             int
	PromptTokens, CachedTokens int64
	TTFTMeanS, TPOTMeanS       float64
	tpotN                      int
}

// sessionRun is a session workload's state during Run: the turns'
// links and the pending arrivals, ordered by time.
type sessionRun struct {
	next    []int32   // per turn: the next turn's id (-1: last)
	think   []float64 // per turn: the gap before its next turn, s
	turn    []int32   // per turn: its index in the session
	starts  []int32   // the sessions' first turns, in order
	started int       // sessions started (closed loop: the next to start)
	pending arrivalHeap
	reqs    []request
	stats   SessionStats
}

// valid reports whether the sessions can be generated.
func (p *Sessions) valid() bool {
	return p.Turns.valid() && p.NewTokens.valid() && p.ThinkS >= 0 && p.ThinkS < 1e12 && p.Replicas >= 0
}

// replicas is the replica count, at least 1.
func (p *Sessions) replicas() int { return max(p.Replicas, 1) }

// sessionTurns draws the lengths of the first n turns of consecutive
// sessions from the lengths stream r, as a run does, and calls f with each
// turn's index, its turn index in its session, and its lengths. Turn k's
// prompt is turn k-1's prompt and output plus NewTokens; a session ends
// early when its conversation would outgrow MaxTokens.
func (w *Workload) sessionTurns(n int, r *Rand, f func(i, k, in, out int)) {
	p := w.Sessions
	for i := 0; i < n; {
		turns := p.Turns.sample(r)
		in, out := w.Input.sample(r), 0
		for k := 0; k < turns && i < n; k++ {
			if k > 0 {
				in += out + p.NewTokens.sample(r)
			}
			out = w.Output.sample(r)
			if w.MaxTokens > 1 {
				if k > 0 && in+out > w.MaxTokens {
					break // the conversation outgrew max_model_len: the session ends
				}
				in = min(in, w.MaxTokens-1)
				out = min(out, w.MaxTokens-in)
			}
			f(i, k, in, out)
			i++
		}
	}
}

// generateSessions fills reqs with the turns of consecutive sessions (a
// session's turns have consecutive ids) and returns the run's state, the
// owner of each turn's cached blocks (its session's first turn) and
// whether each turn keeps its blocks for the next (the next turn exists
// and is routed to this replica). Lengths, gaps and routing come from
// three streams of the seed.
func (w *Workload) generateSessions(reqs []request) (sr *sessionRun, owner []int32, keep []bool) {
	p := w.Sessions
	n := len(reqs)
	seed := w.Seed
	lengths := NewRand(splitmix64(&seed))
	gaps := NewRand(splitmix64(&seed))
	route := NewRand(splitmix64(&seed))
	sr = &sessionRun{next: make([]int32, n), think: make([]float64, n), turn: make([]int32, n), reqs: reqs}
	owner, keep = make([]int32, n), make([]bool, n)
	nr := float64(p.replicas())
	var t float64
	var first int32
	w.sessionTurns(n, lengths, func(i, k, in, out int) {
		reqs[i] = request{input: in, output: out}
		sr.turn[i], sr.next[i] = int32(k), -1
		if k == 0 {
			first = int32(i)
			sr.starts = append(sr.starts, first)
			if w.Arrival == Poisson {
				t += gaps.ExpFloat64() / (w.RatePerS / nr)
				reqs[i].arrivalS = t
			}
		} else {
			sr.next[i-1] = int32(i)
			sr.think[i-1] = p.ThinkS
			if p.ThinkExponential {
				sr.think[i-1] = p.ThinkS * gaps.ExpFloat64()
			}
			// Random routing: the turn lands where the previous one ran
			// with probability 1/replicas (p.RandomRouting).
			keep[i-1] = !p.RandomRouting || route.Float64()*nr < 1
		}
		owner[i] = first
	})
	return sr, owner, keep
}

// start queues the first arrivals: every session's first turn (Poisson
// and burst) or one session per user (closed loop).
func (sr *sessionRun) start(w *Workload, rejected []bool) {
	if w.Arrival != ClosedLoop {
		for _, id := range sr.starts {
			sr.startSession(id, sr.reqs[id].arrivalS, rejected)
		}
		sr.started = len(sr.starts)
		return
	}
	users := max(int(float64(w.Users)/float64(w.Sessions.replicas())+0.5), 1)
	for u := 0; u < users; u++ {
		sr.nextSession(0, rejected)
	}
}

// startSession queues session first's first turn at t unless it was
// rejected; it reports whether it did.
func (sr *sessionRun) startSession(first int32, t float64, rejected []bool) bool {
	if rejected[first] {
		return false
	}
	sr.stats.Sessions++
	sr.pending.push(t, first)
	return true
}

// nextSession starts the closed loop's next session at t (skipping
// rejected ones).
func (sr *sessionRun) nextSession(t float64, rejected []bool) {
	for sr.started < len(sr.starts) {
		sr.started++
		if sr.startSession(sr.starts[sr.started-1], t, rejected) {
			return
		}
	}
}

// submitDue submits the turns that have arrived by t.
func (sr *sessionRun) submitDue(s *Scheduler, t float64) {
	for len(sr.pending) > 0 && sr.pending[0].t <= t {
		a := sr.pending.pop()
		s.Submit(int(a.id), a.t, sr.reqs[a.id].input, sr.reqs[a.id].output)
		sr.stats.Turns++
	}
}

// done handles turn id's completion at now: its next turn arrives after
// the think time; a session's end lets a closed-loop user start another.
func (sr *sessionRun) done(w *Workload, id int, now float64, q *seq, ttft, tpot float64, rejected []bool) {
	k := min(int(sr.turn[id]), MaxTurnStats-1)
	for len(sr.stats.PerTurn) <= k {
		sr.stats.PerTurn = append(sr.stats.PerTurn, TurnStats{Turn: len(sr.stats.PerTurn)})
	}
	ts := &sr.stats.PerTurn[k]
	ts.Requests++
	ts.PromptTokens += int64(q.input)
	ts.CachedTokens += int64(q.cached)
	ts.TTFTMeanS += ttft
	if q.output > 1 {
		ts.TPOTMeanS += tpot
		ts.tpotN++
	}
	if nx := sr.next[id]; nx >= 0 && !rejected[nx] {
		sr.pending.push(now+sr.think[id], nx)
		return
	}
	if w.Arrival == ClosedLoop {
		sr.nextSession(now, rejected)
	}
}

// finish completes the stats (sums become means).
func (sr *sessionRun) finish() *SessionStats {
	st := &sr.stats
	for i := range st.PerTurn {
		ts := &st.PerTurn[i]
		st.PromptTokens += ts.PromptTokens
		st.CachedTokens += ts.CachedTokens
		if ts.Requests > 0 {
			ts.TTFTMeanS /= float64(ts.Requests)
		}
		if ts.tpotN > 0 {
			ts.TPOTMeanS /= float64(ts.tpotN)
		}
	}
	if st.PromptTokens > 0 {
		st.HitRate = float64(st.CachedTokens) / float64(st.PromptTokens)
	}
	return st
}

// rejectFollowers marks every turn after a rejected one of its session
// rejected too (a later turn is longer still).
func (sr *sessionRun) rejectFollowers(rejected []bool) int {
	extra := 0
	for i := range sr.next {
		if nx := sr.next[i]; rejected[i] && nx >= 0 && !rejected[nx] {
			rejected[nx] = true
			extra++
		}
	}
	return extra
}

// arrival is a pending turn.
type arrival struct {
	t  float64
	id int32
}

// arrivalHeap is a binary min-heap of arrivals by time, then id.
type arrivalHeap []arrival

func (a arrival) before(b arrival) bool { return a.t < b.t || (a.t == b.t && a.id < b.id) }

func (h *arrivalHeap) push(t float64, id int32) {
	*h = append(*h, arrival{t, id})
	x := *h
	for i := len(x) - 1; i > 0; {
		p := (i - 1) / 2
		if !x[i].before(x[p]) {
			break
		}
		x[i], x[p] = x[p], x[i]
		i = p
	}
}

func (h *arrivalHeap) pop() arrival {
	x := *h
	top := x[0]
	last := len(x) - 1
	x[0] = x[last]
	x = x[:last]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < len(x) && x[l].before(x[m]) {
			m = l
		}
		if l+1 < len(x) && x[l+1].before(x[m]) {
			m = l + 1
		}
		if m == i {
			break
		}
		x[i], x[m] = x[m], x[i]
		i = m
	}
	*h = x
	return top
}
