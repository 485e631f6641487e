package sched_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/sched"
)

// modelCost is a step of 5 ms plus 1 us per token: a turn of 200 output
// tokens lasts about 200 x 5 ms = 1 s whatever the batch.
func modelCost(l sched.Load) float64 { return 0.005 + 1e-6*float64(l.Tokens()) }

// The analytic hit rate (SessionModel.Steady) against the simulated one on
// seven workloads of 10,000 four-turn sessions (a 1,000-token first prompt,
// 200 new and 200 output tokens a turn, block size 16): pools from one
// that never evicts to a quarter of the thinking sessions' demand,
// exponential and constant think times, session-affine and random routing
// over 4 replicas. Tolerance: 5 % of the analytic rate plus 0.005 (the
// runs' warm-up, when the pool starts empty, and Poisson noise). The
// model's one input from outside it, the turn latency, is the hand
// estimate 200 decode steps x 5 ms: the running turns hold under a tenth
// of each pool, so a 10 % error in it moves the free queue by under 1 %.
// With constant think times the model is a cliff (every conversation
// survives its gap or none does, at T = think time); the simulation's
// arrival noise rounds it off, so the constant cases sit away from it
// (T = 20 s and 3.5 s against a 10 s gap).
func TestSessionModelAgreesWithSimulation(t *testing.T) {
	t.Parallel()
	type wl struct {
		name        string
		blocks      int64
		thinkExp    bool
		think, rate float64
		turns       int
		replicas    int
		random      bool
	}
	for _, c := range []wl{
		{"ample pool", 60000, true, 20, 2, 4, 1, false},
		{"half the demand", 8000, true, 20, 2, 4, 1, false},
		{"quarter", 4000, true, 20, 2, 4, 1, false},
		{"constant think, fits", 12852, false, 10, 2, 4, 1, false},
		{"constant think, short", 4000, false, 10, 2, 4, 1, false},
		{"random routing, 4 replicas", 60000, true, 20, 8, 4, 4, true},
		{"random routing, tight", 4000, true, 20, 8, 4, 4, true},
	} {
		m := sched.SessionModel{FirstInput: 1000, NewTokens: 200, Output: 200, Turns: c.turns, ThinkS: c.think, ThinkExponential: c.thinkExp,
			SessionRate: c.rate / float64(c.replicas), TurnS: 200 * 0.005, Blocks: c.blocks, BlockSize: 16, Replicas: c.replicas, RandomRouting: c.random}
		an := m.Steady()
		w := sched.Workload{NumRequests: 40000, Seed: 7, Arrival: sched.Poisson, RatePerS: c.rate,
			Input: sched.Dist{Kind: sched.Constant, Mean: 1000}, Output: sched.Dist{Kind: sched.Constant, Mean: 200},
			Sessions: &sched.Sessions{Turns: sched.Dist{Kind: sched.Constant, Mean: float64(c.turns)}, NewTokens: sched.Dist{Kind: sched.Constant, Mean: 200},
				ThinkS: c.think, ThinkExponential: c.thinkExp, Replicas: c.replicas, RandomRouting: c.random}}
		cfg := sched.Config{NumBlocks: c.blocks, BlockSize: 16, MaxNumSeqs: 256, MaxBatchedTokens: 8192, Blocks: fullLayout(16), Prefix: sched.PrefixCache{Enabled: true}}
		res, err := sched.Run(cfg, w, modelCost, sched.Options{})
		require.NoError(t, err)
		t.Logf("%-28s sim hit %.4f analytic %.4f (unbounded %.4f, T %.1f s, free %.0f, demand %.0f, running sim %.1f blocks %.0f) e2e %.3f preempt %d",
			c.name, res.Sessions.HitRate, an.HitRate, an.UnboundedHitRate, an.CharacteristicS, an.FreeBlocks, an.ResidentDemandBlocks, res.MeanRunning, an.RunningBlocks, res.E2E.Mean, res.Preemptions)
		assert.InDelta(t, an.HitRate, res.Sessions.HitRate, 0.05*an.HitRate+0.005, c.name)
	}
}

// The model's counts by hand (the workload of
// TestSessionSecondTurnHitsFirstTurnsBlocks): turn 1 leaves
// floor((100+29-1)/16) = 8 full blocks, turn 2's prompt is 149, so with a
// pool that never evicts the hit rate is 128 / (100 + 149); with no load
// (sessions all at once) nothing is evicted either. At 1 session/s with a
// 5 s constant think time, Little's law puts 1 x (2-1) x 5 = 5 sessions in
// think time, holding 5 x 8 = 40 blocks if none is evicted; random routing
// over 2 replicas halves the hit rate.
func TestSessionModelByHand(t *testing.T) {
	t.Parallel()
	m := sched.SessionModel{FirstInput: 100, NewTokens: 20, Output: 29, Turns: 2, ThinkS: 5, Blocks: 1 << 20, BlockSize: 16}
	st := m.Steady()
	assert.InDelta(t, 128.0/249, st.UnboundedHitRate, 1e-12)
	assert.InDelta(t, 128.0/249, st.HitRate, 1e-12)
	assert.Equal(t, 1.0, st.ResidentProbability)
	m.SessionRate = 1
	st = m.Steady()
	assert.InDelta(t, 5.0, st.ThinkingSessions, 1e-12)
	assert.InDelta(t, 40.0, st.ResidentDemandBlocks, 1e-12)
	assert.InDelta(t, 128.0/249, st.HitRate, 1e-12)
	m.Replicas, m.RandomRouting = 2, true
	assert.InDelta(t, 64.0/249, m.Steady().HitRate, 1e-12)
}
