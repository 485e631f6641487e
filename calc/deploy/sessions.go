package deploy

import (
	"math"
	"strings"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/sched"
)

// sessionAsk is a validated workload.sessions.
type sessionAsk struct {
	turns, newTokens, users, replicas int
	thinkS, rate                      float64 // s; sessions/s over the fleet
	exponential, random               bool
}

// LinkSessions sets the Sessions capability (package calc/simulate calls
// it from its init, so the light engine, which does not import that
// package, carries none of this file).
func LinkSessions() {
	Sessions.Resolve, Sessions.Report, Sessions.Sim = resolveSessions, Serving.sessionsReport, sessionsSim
}

// sessionsAsk validates w.Sessions (nil: none) with the capability, or
// refuses the field in a build without it.
func sessionsAsk(e *spec.Errs, w *spec.Workload) *sessionAsk {
	switch {
	case w.Sessions == nil:
		return nil
	case Sessions.Resolve == nil:
		e.Add("workload.sessions", "is read by the full engine (load({ planner: true })), not the light one")
		return nil
	}
	return Sessions.Resolve(e, w)
}

// resolveSessions validates w.Sessions (nil: none).
func resolveSessions(e *spec.Errs, w *spec.Workload) *sessionAsk {
	s := w.Sessions
	if s == nil {
		return nil
	}
	const f = "workload.sessions."
	a := &sessionAsk{
		turns:     e.IntAt(f+"turns", "SessionWorkload.turns", s.Turns, spec.DefaultSessionTurns),
		newTokens: e.IntAt(f+"new_tokens", "SessionWorkload.new_tokens", s.NewTokens, spec.DefaultSessionNewTokens),
		thinkS:    e.FloatAt(f+"think_time_s", "SessionWorkload.think_time_s", s.ThinkTimeS, spec.DefaultThinkTimeS),
		rate:      e.FloatAt(f+"session_rate", "SessionWorkload.session_rate", s.SessionRate, 0),
		users:     e.IntAt(f+"users", "SessionWorkload.users", s.Users, 0),
		replicas:  e.IntAt(f+"replicas", "SessionWorkload.replicas", s.Replicas, 1),
	}
	switch strings.ToLower(strings.TrimSpace(s.ThinkDistribution)) {
	case "", "exponential":
		a.exponential = true
	case "constant":
	default:
		e.Add(f+"think_distribution", "unknown distribution "+fielderr.Quote(s.ThinkDistribution)+"; one of "+strings.Join(spec.ThinkDistributions, ", "))
	}
	switch strings.ToLower(strings.TrimSpace(s.Routing)) {
	case "", "session_affine":
	case "random":
		a.random = true
	default:
		e.Add(f+"routing", "unknown routing "+fielderr.Quote(s.Routing)+"; one of "+strings.Join(spec.SessionRoutings, ", "))
	}
	if s.SessionRate != nil && s.Users != nil {
		e.Add(f+"users", "give either session_rate or users, not both")
	}
	if w.RequestRate != nil || w.Concurrency != nil {
		e.Add("workload.sessions", "a session workload's load is sessions.session_rate or sessions.users, not workload.request_rate or concurrency")
	}
	return a
}

// schedSessions is the scheduler's view of the sessions.
func (a *sessionAsk) schedSessions() *sched.Sessions {
	return &sched.Sessions{
		Turns:     sched.Dist{Kind: sched.Constant, Mean: float64(a.turns), Min: 1},
		NewTokens: sched.Dist{Kind: sched.Constant, Mean: float64(a.newTokens), Min: 1},
		ThinkS:    a.thinkS, ThinkExponential: a.exponential,
		Replicas: a.replicas, RandomRouting: a.random,
	}
}

// sessionsSim sets a simulation of p's sessions on w: the arrivals are the
// sessions' (session_rate: Poisson, users: a closed loop, neither: every
// session at time zero), so simulate's own arrival fields and sweep do not
// apply.
func sessionsSim(e *spec.Errs, o *spec.SimulateOptions, p Ask, sp *SimPlan) {
	a := p.sessions
	w := &sp.Work
	w.Sessions = a.schedSessions()
	switch {
	case a.rate > 0:
		w.Arrival, w.RatePerS, sp.Arrival = sched.Poisson, a.rate, "poisson"
	case a.users > 0:
		w.Arrival, w.Users, sp.Arrival = sched.ClosedLoop, a.users, "closed_loop"
	default:
		w.Arrival, sp.Arrival = sched.Burst, "burst"
	}
	for _, f := range []struct {
		name  string
		given bool
	}{{"arrival", o.Arrival != ""}, {"request_rate", o.RequestRate != nil}, {"concurrency", o.Concurrency != nil}, {"sweep", o.Sweep != nil},
		{"trace", o.Trace != nil}, {"rate_curve", o.RateCurve != nil}, {"autoscale", o.Autoscale != nil}} {
		if f.given {
			e.Add("simulate."+f.name, "does not apply to a session workload: its arrivals are workload.sessions.session_rate or users")
		}
	}
}

// sessionsReport is the sessions' analytic steady state on one replica
// (sched.SessionModel, docs/MODEL.md section 10, "Agentic multi-turn sessions"), the turn latency from
// the serving model (section 5b) at the replica's turn rate and mean turn
// prompt: under users, a fixed point of Little's law (the session rate
// sets the turn rate, whose latency sets the session length).
func (sv Serving) sessionsReport(p Ask, runCap int, limitedBy string) *spec.SessionsReport {
	a, d := p.sessions, sv.d
	lay := d.Layout()
	meanIn := float64(p.In) + float64(a.turns-1)/2*float64(p.Out+a.newTokens)
	m := sched.SessionModel{FirstInput: p.In, NewTokens: a.newTokens, Output: p.Out, Turns: a.turns,
		ThinkS: a.thinkS, ThinkExponential: a.exponential, SessionRate: a.rate / float64(a.replicas),
		Blocks: d.NumBlocks - 1, BlockSize: lay.BlockSize, Replicas: a.replicas, RandomRouting: a.random}
	if a.users > 0 {
		m.Users = math.Max(math.Round(float64(a.users)/float64(a.replicas)), 1)
	}
	// The turn's latency with its cached share of the prompt skipped (a
	// copy of the deployment whose every prompt starts with that many
	// cached tokens, as a shared prefix's are): a fixed point with the
	// hit rate, which the latency moves through the running turns' blocks.
	dc := *d
	turn := Serving{d: &dc}
	var st sched.SessionSteady
	for i := 0; i < 8; i++ {
		st = m.Steady()
		turnRate := st.TurnRate
		if turnRate <= 0 {
			break
		}
		if d.feat.prefixOn {
			dc.feat.prefixTokens = int(st.HitRate * meanIn)
		}
		m.TurnS = turn.Steady(int(math.Round(meanIn)), p.Out, 0, turnRate, runCap, limitedBy).E2EMs / 1000
		m.FrontEndS = d.Eff.FrontEndS(int(math.Round(meanIn)))
	}
	st = m.Steady()
	r := &spec.SessionsReport{
		Routing: "session_affine", SessionRate: st.SessionRate, TurnRate: st.TurnRate, TurnLatencyMs: m.TurnS * 1000,
		SessionDurationS: st.SessionS, ThinkingSessions: st.ThinkingSessions,
		RunningBlocks: st.RunningBlocks, FreeBlocks: st.FreeBlocks, ResidentDemandBlocks: st.ResidentDemandBlocks,
		CharacteristicTimeS: st.CharacteristicS, ResidentProbability: st.ResidentProbability,
		PrefixHitRate: st.HitRate, UnboundedHitRate: st.UnboundedHitRate, PrefillTokensSavedPerS: st.SavedTokensPerS,
	}
	if a.random {
		r.Routing = "random"
	}
	// The other routing's rate, at the same pool and load.
	other := m
	other.RandomRouting = !a.random
	if o := other.Steady(); a.random {
		r.AffineHitRate, r.RandomHitRate = o.HitRate, st.HitRate
	} else {
		r.AffineHitRate, r.RandomHitRate = st.HitRate, o.HitRate
	}
	if !d.feat.prefixOn {
		// enable_prefix_caching false: nothing is reused.
		r.PrefixHitRate, r.AffineHitRate, r.RandomHitRate, r.PrefillTokensSavedPerS = 0, 0, 0, 0
	}
	return r
}
