package sched

import "math"

// SessionModel is the analytic steady state of a session workload on one
// replica (docs/MODEL.md section 10, "Agentic multi-turn sessions"): constant lengths (a distribution's
// mean stands for it), a constant number of turns, Poisson session
// arrivals or closed-loop users.
type SessionModel struct {
	// FirstInput, NewTokens and Output are a session's first prompt, the
	// tokens each later turn adds and each turn's output, in tokens.
	FirstInput, NewTokens, Output int
	// Turns per session (at least 1).
	Turns int
	// ThinkS is the mean gap between a turn's end and the next turn's
	// arrival, s; exponential when ThinkExponential, else constant.
	ThinkS           float64
	ThinkExponential bool
	// SessionRate is the sessions per second one replica starts; under
	// Users > 0 (closed-loop users of one replica) it is derived.
	SessionRate float64
	Users       float64
	// TurnS is a turn's mean latency, arrival to last token, s; FrontEndS
	// the part of it before the engine schedules it (the API server's
	// handling and tokenisation), when it holds no blocks yet.
	TurnS, FrontEndS float64
	// Blocks and BlockSize are the replica's KV pool.
	Blocks    int64
	BlockSize int
	// Replicas and RandomRouting as in Sessions.
	Replicas      int
	RandomRouting bool
}

// SessionSteady is a session workload's analytic steady state on one
// replica. Rates are per second, blocks are KV blocks.
type SessionSteady struct {
	// SessionRate and TurnRate are the sessions started and turns served
	// per second; SessionS a session's mean length, first arrival to last
	// token.
	SessionRate, TurnRate, SessionS float64
	// ActiveSessions (Little's law: SessionRate x SessionS) and those of
	// them in think time (SessionRate x (Turns - 1) x ThinkS).
	ActiveSessions, ThinkingSessions float64
	// RunningBlocks is the blocks the running turns hold (Little's law:
	// TurnRate x (TurnS - FrontEndS) turns, each at its prompt plus half
	// its output);
	// FreeBlocks the rest of the pool, the free queue the cached
	// conversations live in.
	RunningBlocks, FreeBlocks float64
	// ResidentDemandBlocks is what the thinking sessions' conversations
	// would hold if none were evicted.
	ResidentDemandBlocks float64
	// CharacteristicS is how long a freed block survives in the free
	// queue (the Che approximation, below; 0 without load, when nothing
	// is evicted); ResidentProbability the chance a returning
	// conversation is still there.
	CharacteristicS, ResidentProbability float64
	// HitRate is the expected prompt tokens served from the cache per
	// prompt token; UnboundedHitRate the same with a pool that never
	// evicts. PromptTokensPerS and SavedTokensPerS are the prompt tokens
	// per second and those the cache spares the prefill.
	HitRate, UnboundedHitRate         float64
	PromptTokensPerS, SavedTokensPerS float64
}

// Steady works out the steady state. The free block queue is vLLM v1's
// FreeKVCacheBlockQueue (vllm/v1/core/kv_cache_utils.py, vLLM 0.19):
// freed blocks join its tail, a fresh allocation evicts from its head,
// and a hit takes a cached block out of the middle; so a block not hit
// again is evicted once every block freed before it has left. In steady
// state that happens a fixed time T after it was freed (Che, Tung and
// Wang 2002, "Hierarchical Web caching systems: modeling, design and
// experimental results", IEEE JSAC 20(7), the characteristic time of an
// LRU cache), and T fills the free queue:
//
//	FreeBlocks = SessionRate x sum over turns k of
//	             dead_k x T + kept_k x E[min(G, T)]
//
// where a turn ending with I_k + O - 1 tokens computed frees
// h_k = ceil((I_k+O-1)/bs) blocks, c_k = floor((I_k+O-1)/bs) of them full
// and kept for the next turn (kept_k = c_k x p, p = 1, or 1/Replicas under
// random routing, the chance the next turn lands on this replica) and the
// rest dead (never looked up again: the partial block, the last turn's,
// those of a turn whose successor runs elsewhere); G is the think time,
// so a kept conversation stays in the queue min(G, T). Turn k+1 then hits
// c_k x bs tokens with probability p x P(G < T), and prompts grow as
// I_{k+1} = I_k + O + NewTokens.
func (m SessionModel) Steady() SessionSteady {
	var st SessionSteady
	turns := max(m.Turns, 1)
	bs := float64(max(m.BlockSize, 1))
	p := 1.0
	if m.RandomRouting && m.Replicas > 1 {
		p = 1 / float64(m.Replicas)
	}
	z := math.Max(m.ThinkS, 0)
	st.SessionS = float64(turns)*m.TurnS + float64(turns-1)*z
	st.SessionRate = m.SessionRate
	if m.Users > 0 && st.SessionS > 0 {
		st.SessionRate = m.Users / st.SessionS // Little's law: users = rate x session length
	}
	lam := st.SessionRate
	st.TurnRate = lam * float64(turns)
	st.ActiveSessions = lam * st.SessionS
	st.ThinkingSessions = lam * float64(turns-1) * z

	// Per turn: prompt, full and held blocks at its end.
	var prompt, hitMax, dead, kept, running float64
	var cs []float64
	in := float64(m.FirstInput)
	out := float64(m.Output)
	for k := 0; k < turns; k++ {
		if k > 0 {
			in += out + float64(m.NewTokens)
		}
		ctx := in + out - 1
		h, c := math.Ceil(ctx/bs), math.Floor(ctx/bs)
		prompt += in
		running += math.Ceil((in + out/2) / bs)
		if k == turns-1 {
			dead += h
			break
		}
		hitMax += math.Min(c, math.Floor((in+out+float64(m.NewTokens)-1)/bs)) * bs
		cs = append(cs, c)
		dead += h - c + c*(1-p)
		kept += c * p
	}
	st.RunningBlocks = lam * math.Max(m.TurnS-m.FrontEndS, 0) * running
	st.FreeBlocks = math.Max(float64(m.Blocks)-st.RunningBlocks, 0)
	st.ResidentDemandBlocks = lam * kept * z
	fill := func(t float64) float64 { return lam * (dead*t + kept*minGap(z, t, m.ThinkExponential)) }
	switch {
	case lam <= 0:
		// No load (sessions all at once, or none): nothing competes for
		// the pool, so every conversation waits for its next turn.
		st.ResidentProbability = 1
	case st.FreeBlocks > 0:
		// fill grows without bound (the last turn's blocks are dead), so
		// T exists; bisect it on a doubling bracket.
		lo, hi := 0.0, 1.0
		for fill(hi) < st.FreeBlocks && hi < 1e15 {
			hi *= 2
		}
		for i := 0; i < 100; i++ {
			mid := (lo + hi) / 2
			if fill(mid) < st.FreeBlocks {
				lo = mid
			} else {
				hi = mid
			}
		}
		st.CharacteristicS = (lo + hi) / 2
		st.ResidentProbability = survives(z, st.CharacteristicS, m.ThinkExponential)
	}
	if prompt > 0 {
		st.UnboundedHitRate = hitMax / prompt
		st.HitRate = st.UnboundedHitRate * p * st.ResidentProbability
	}
	st.PromptTokensPerS = lam * prompt
	st.SavedTokensPerS = st.PromptTokensPerS * st.HitRate
	return st
}

// minGap is E[min(G, t)] for a think time G of mean z: constant, or
// exponential (z (1 - e^(-t/z))).
func minGap(z, t float64, exponential bool) float64 {
	if !exponential || z <= 0 {
		return math.Min(z, t)
	}
	return z * -math.Expm1(-t/z)
}

// survives is P(G <= t): a conversation freed t ago or less is resident.
func survives(z, t float64, exponential bool) float64 {
	if !exponential || z <= 0 {
		if z <= t {
			return 1
		}
		return 0
	}
	return -math.Expm1(-t / z)
}
