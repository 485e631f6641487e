package sched_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/kvcache"
	"github.com/modelrefs/throughput/sched"
)

// Run, through the public entry point, on a schedule computed by hand.
// Burst arrivals with constant lengths: two (3 in, 4 out) requests, 3
// blocks of 4 tokens, budget 8, cost 1 s + 0.1 s per token:
//
//	step 1: both prompts (6 tokens, 1 block each), t = 1.6; token 1 each
//	step 2: both decode at context 4, t = 2.8; token 2
//	step 3: both need a second block; A takes the last one, B (newest)
//	        preempts itself, dropping 4 computed tokens; t = 3.9
//	step 4: A decodes at context 6; B's 3+2 tokens need 2 blocks and 1
//	        is free, so it waits; t = 5.0; A has its 4 tokens and finishes
//	step 5: B recomputes 5 tokens, t = 6.5; token 3
//	step 6: B decodes at context 6, t = 7.6; B finishes
func TestRunHandChecked(t *testing.T) {
	t.Parallel()
	cfg := sched.Config{NumBlocks: 3, BlockSize: 4, MaxNumSeqs: 2, MaxBatchedTokens: 8, Blocks: fullLayout(4)}
	w := sched.Workload{NumRequests: 2, Arrival: sched.Burst,
		Input: sched.Dist{Kind: sched.Constant, Mean: 3}, Output: sched.Dist{Kind: sched.Constant, Mean: 4}}
	r, err := sched.Run(cfg, w, fakeCost, sched.Options{Records: true, TimelinePoints: 4, TTFTS: 2, TPOTS: 1.5})
	require.NoError(t, err)
	assert.Equal(t, 2, r.Completed)
	assert.Equal(t, int64(6), r.Steps)
	assert.InDelta(t, 7.6, r.DurationS, tol)
	assert.Equal(t, 1, r.Preemptions)
	assert.Equal(t, 1, r.PreemptedRequests)
	assert.Equal(t, int64(4), r.RecomputedTokens)
	assert.Equal(t, int64(2*(3+4-1)+4), r.ProcessedTokens)
	assert.Equal(t, int64(8), r.OutputTokens)
	assert.InDelta(t, 2.8, r.FirstPreemptionS, tol)
	assert.Equal(t, 2, r.RunningAtFirstPreemption)
	// TTFT 1.6 both; E2E 5.0 and 7.6; TPOT (5.0-1.6)/3 and (7.6-1.6)/3 = 2.
	assert.InDelta(t, 1.6, r.TTFT.Mean, tol)
	assert.InDelta(t, 1.6, r.TTFT.P99, tol)
	assert.InDelta(t, (5.0+7.6)/2, r.E2E.Mean, tol)
	assert.InDelta(t, 5.0+0.5*2.6, r.E2E.P50, tol)
	assert.InDelta(t, 5.0+0.9*2.6, r.E2E.P90, tol)
	assert.InDelta(t, 5.0+0.99*2.6, r.E2E.P99, tol)
	assert.InDelta(t, 7.6, r.E2E.Max, tol)
	assert.InDelta(t, (3.4/3+2)/2, r.TPOT.Mean, tol)
	// ITL: every gap between consecutive tokens. A's: 2.8-1.6, 3.9-2.8,
	// 5.0-3.9 = 1.2, 1.1, 1.1; B's: 1.2, then the preemption's 6.5-2.8 =
	// 3.7, then 7.6-6.5 = 1.1. Sorted 1.1 1.1 1.1 1.2 1.2 3.7: median at
	// rank 2.5 = 1.15, p90 at 4.5 = 1.2 + 0.5*2.5, p99 at 4.95.
	assert.InDelta(t, (3*1.1+2*1.2+3.7)/6, r.ITL.Mean, tol)
	assert.InDelta(t, 1.15, r.ITL.P50, tol)
	assert.InDelta(t, 1.2+0.5*2.5, r.ITL.P90, tol)
	assert.InDelta(t, 1.2+0.95*2.5, r.ITL.P99, tol)
	assert.InDelta(t, 3.7, r.ITL.Max, tol)
	// Only A meets TPOT <= 1.5 s.
	assert.Equal(t, 1, r.SLOMet)
	assert.Equal(t, sched.Record{Input: 3, Output: 4, Generated: 4, FirstTokenS: 1.6, FinishS: 5.0}, roundRecord(r.Records[0]))
	assert.Equal(t, sched.Record{Input: 3, Output: 4, Generated: 4, FirstTokenS: 1.6, FinishS: 7.6, Preemptions: 1}, roundRecord(r.Records[1]))
	assert.Equal(t, int64(3), r.PeakBlocks)
	// Every step runs with 2 of the 3 blocks held (1+1, then A's 2 once
	// B gave its block back, then B's 2): the third was held only while
	// step 3 was being scheduled.
	assert.InDelta(t, 2.0/3, r.MeanKVUsage, tol)
	// 6 one-step points merged pairwise to 3; they cover the whole run.
	require.NotEmpty(t, r.Timeline)
	assert.Len(t, r.Timeline, 3)
	var span float64
	for _, p := range r.Timeline {
		span += p.DurationS
		assert.LessOrEqual(t, p.KVUsage, 1.0)
	}
	assert.InDelta(t, 7.6, span, tol)
	assert.InDelta(t, 0, r.Timeline[0].TimeS, tol)
}

// roundRecord rounds times to 1e-9 s so records compare exactly.
func roundRecord(r sched.Record) sched.Record {
	rd := func(x float64) float64 { return math.Round(x*1e9) / 1e9 }
	r.ArrivalS, r.FirstTokenS, r.FinishS = rd(r.ArrivalS), rd(r.FirstTokenS), rd(r.FinishS)
	return r
}

// randomCase draws a configuration and workload from seed.
func randomCase(seed uint64) (sched.Config, sched.Workload) {
	r := sched.NewRand(seed)
	pick := func(n int) int { return int(r.Uint64() % uint64(n)) }
	bs := []int{1, 2, 4, 16}[pick(4)]
	lay := kvcache.Layout{BlockSize: bs, LayersPerBlock: 1}
	switch pick(3) {
	case 0:
		lay.Groups = []kvcache.Group{{Kind: kvcache.Full, Layers: 1}}
	case 1: // sliding window beside full attention (Gemma-like)
		lay.Groups = []kvcache.Group{{Kind: kvcache.Full, Layers: 1}, {Kind: kvcache.Sliding, Window: 8 + pick(40), Layers: 1}}
	default: // hybrid with a recurrent state
		lay.Groups = []kvcache.Group{{Kind: kvcache.Full, Layers: 1}, {Kind: kvcache.State, Layers: 1}}
	}
	seqs := 1 + pick(16)
	cfg := sched.Config{
		NumBlocks: int64(8 + pick(300)), BlockSize: bs, MaxNumSeqs: seqs,
		MaxBatchedTokens: seqs + pick(200), Blocks: lay,
	}
	kinds := []sched.DistKind{sched.Constant, sched.Uniform, sched.Normal, sched.LogNormal, sched.Exponential}
	dist := func(mean int) sched.Dist {
		return sched.Dist{Kind: kinds[pick(len(kinds))], Mean: float64(mean), Std: float64(mean) / 2, Min: 1, Max: 3 * mean}
	}
	w := sched.Workload{
		NumRequests: 1 + pick(300), Seed: seed, Arrival: sched.ArrivalKind(pick(3)),
		RatePerS: 0.5 + 50*r.Float64(), Users: 1 + pick(40),
		Input: dist(1 + pick(120)), Output: dist(1 + pick(60)), MaxTokens: 400,
	}
	return cfg, w
}

// linearCost is a plausible, strictly positive cost: a fixed part, a
// per-token part and a per-attended-token part.
func linearCost(l sched.Load) float64 {
	return 0.005 + 1e-4*float64(l.Tokens()) + 1e-7*(float64(l.DecodeContext)+l.PrefillSpan)
}

// Invariants over many seeded random workloads: the pool is never
// overdrawn (Run also fails on a leak at the end), every request that
// fits finishes with exactly its output tokens, the token accounting
// closes, and the same seed gives the same result.
func TestInvariantsRandomWorkloads(t *testing.T) {
	t.Parallel()
	var preempting int
	for seed := uint64(1); seed <= 300; seed++ {
		cfg, w := randomCase(seed)
		r, err := sched.Run(cfg, w, linearCost, sched.Options{Records: true, TimelinePoints: 50})
		require.NoError(t, err, "seed %d", seed)
		assert.LessOrEqual(t, r.PeakBlocks, cfg.NumBlocks, "seed %d", seed)
		assert.Equal(t, w.NumRequests, r.Completed+r.Rejected, "seed %d", seed)
		var in, out, want int64
		for i, rec := range r.Records {
			if rec.Rejected {
				assert.Zero(t, rec.Generated, "seed %d request %d", seed, i)
				continue
			}
			require.Equal(t, rec.Output, rec.Generated, "seed %d request %d", seed, i)
			assert.LessOrEqual(t, rec.ArrivalS, rec.FirstTokenS, "seed %d request %d", seed, i)
			assert.LessOrEqual(t, rec.FirstTokenS, rec.FinishS, "seed %d request %d", seed, i)
			in += int64(rec.Input)
			out += int64(rec.Output)
			want += int64(rec.Input + rec.Output - 1)
		}
		assert.Equal(t, out, r.OutputTokens, "seed %d", seed)
		assert.Equal(t, in, r.InputTokens, "seed %d", seed)
		assert.Equal(t, want+r.RecomputedTokens, r.ProcessedTokens, "seed %d", seed)
		assert.LessOrEqual(t, len(r.Timeline), 50, "seed %d", seed)
		if r.Preemptions > 0 {
			preempting++
			assert.Positive(t, r.RecomputedTokens, "seed %d", seed)
		}
		again, err := sched.Run(cfg, w, linearCost, sched.Options{Records: true, TimelinePoints: 50})
		require.NoError(t, err)
		assert.Equal(t, r, again, "seed %d", seed)
	}
	// The draw must exercise preemption, or the checks above prove little.
	assert.Greater(t, preempting, 50)
}

// With a pool that holds every request at its longest at once, nothing
// is ever preempted.
func TestNoPreemptionWithMemoryToSpare(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 200; seed++ {
		cfg, w := randomCase(seed)
		cfg.NumBlocks = 1 << 40 // a probe pool: find the demand first
		r, err := sched.Run(cfg, w, linearCost, sched.Options{Records: true})
		require.NoError(t, err)
		var need int64
		for _, rec := range r.Records {
			all := int64(rec.Input + rec.Output)
			need += cfg.Blocks.BlocksFor(all, min(all, int64(cfg.MaxBatchedTokens)))
		}
		cfg.NumBlocks = need
		r, err = sched.Run(cfg, w, linearCost, sched.Options{})
		require.NoError(t, err)
		assert.Zero(t, r.Preemptions, "seed %d", seed)
		assert.Zero(t, r.Rejected, "seed %d", seed)
		assert.Equal(t, w.NumRequests, r.Completed, "seed %d", seed)
	}
}

// A different seed gives a different workload.
func TestSeedChangesResult(t *testing.T) {
	t.Parallel()
	cfg, w := randomCase(3)
	w.Input.Kind, w.Arrival = sched.Exponential, sched.Poisson
	a, err := sched.Run(cfg, w, linearCost, sched.Options{})
	require.NoError(t, err)
	w.Seed++
	b, err := sched.Run(cfg, w, linearCost, sched.Options{})
	require.NoError(t, err)
	assert.NotEqual(t, a.DurationS, b.DurationS)
}

func TestRunRejectsInvalid(t *testing.T) {
	t.Parallel()
	cfg := sched.Config{NumBlocks: 10, BlockSize: 4, MaxNumSeqs: 2, MaxBatchedTokens: 8, Blocks: fullLayout(4)}
	ok := sched.Workload{NumRequests: 1, Input: sched.Dist{Mean: 1}, Output: sched.Dist{Mean: 1}}
	bad := []func(*sched.Config, *sched.Workload){
		func(c *sched.Config, w *sched.Workload) { w.NumRequests = 0 },
		func(c *sched.Config, w *sched.Workload) { w.NumRequests = sched.MaxRequests + 1 },
		func(c *sched.Config, w *sched.Workload) { w.Arrival = sched.Poisson },
		func(c *sched.Config, w *sched.Workload) { w.Arrival = sched.ClosedLoop },
		func(c *sched.Config, w *sched.Workload) { w.Input = sched.Dist{Kind: sched.Uniform, Min: 5, Max: 2} },
		func(c *sched.Config, w *sched.Workload) { w.Output = sched.Dist{Kind: sched.LogNormal} },
		func(c *sched.Config, w *sched.Workload) { c.NumBlocks = 0 },
		func(c *sched.Config, w *sched.Workload) { c.Blocks = nil },
	}
	for i, f := range bad {
		c, w := cfg, ok
		f(&c, &w)
		_, err := sched.Run(c, w, linearCost, sched.Options{})
		assert.ErrorIs(t, err, sched.ErrConfig, "case %d", i)
	}
	_, err := sched.Run(cfg, ok, func(sched.Load) float64 { return 0 }, sched.Options{})
	assert.ErrorIs(t, err, sched.ErrConfig)
}

// Data-parallel ranks that run each MoE layer together (LockstepRanks) wait
// for the slowest: a decode step on this rank lasts as long as another
// rank's prefill. One request of a 4-token prompt and 3 output tokens;
// a prefill step costs 10 s, a decode step 1 s. Alone: 10 + 1 + 1 = 12 s.
// In lockstep with 1,000 other ranks, each of whose steps is drawn from
// this rank's earlier ones ({10} before step 2, {10, 1} before step 3),
// the 10-s prefill is drawn at both decodes (missing it in 1,000 draws
// has probability 2^-1000): 10 + 10 + 10 = 30 s, the first token still at
// 10 s. With every step alike (1 s), lockstep changes nothing.
func TestRunLockstepWaitsForTheSlowestRank(t *testing.T) {
	t.Parallel()
	cfg := sched.Config{NumBlocks: 100, BlockSize: 4, MaxNumSeqs: 4, MaxBatchedTokens: 64, Blocks: fullLayout(4)}
	w := sched.Workload{NumRequests: 1, Arrival: sched.Burst,
		Input: sched.Dist{Kind: sched.Constant, Mean: 4}, Output: sched.Dist{Kind: sched.Constant, Mean: 3}}
	cost := func(l sched.Load) float64 {
		if l.PrefillTokens > 0 {
			return 10
		}
		return 1
	}
	alone, err := sched.Run(cfg, w, cost, sched.Options{})
	require.NoError(t, err)
	assert.InDelta(t, 12, alone.DurationS, tol)

	cfg.LockstepRanks = 1001
	locked, err := sched.Run(cfg, w, cost, sched.Options{})
	require.NoError(t, err)
	assert.Equal(t, int64(3), locked.Steps)
	assert.InDelta(t, 30, locked.DurationS, tol)
	assert.InDelta(t, 10, locked.TTFT.P50, tol)

	flat := func(sched.Load) float64 { return 1 }
	cfg.LockstepRanks = 0
	a, err := sched.Run(cfg, w, flat, sched.Options{})
	require.NoError(t, err)
	cfg.LockstepRanks = 8
	b, err := sched.Run(cfg, w, flat, sched.Options{})
	require.NoError(t, err)
	assert.InDelta(t, a.DurationS, b.DurationS, tol)
}

// The watchdog (Options.Work) stops a run once its counted work passes
// the limit. TestRunHandChecked's schedule runs 2, 2, 1, 1, 1 and 1
// sequences in its 6 steps (B preempts itself in step 3 and runs alone in
// steps 5 and 6): 8 sequence-steps; with 1 unit a step besides, the run
// counts 2+1, 4+2, 5+3, ... 8+6 = 14 units. A limit of 14 lets it finish;
// one of 7.5 stops it after step 3 (8 units), with no result.
func TestRunStopsAtItsWorkLimit(t *testing.T) {
	t.Parallel()
	cfg := sched.Config{NumBlocks: 3, BlockSize: 4, MaxNumSeqs: 2, MaxBatchedTokens: 8, Blocks: fullLayout(4)}
	w := sched.Workload{NumRequests: 2, Arrival: sched.Burst,
		Input: sched.Dist{Kind: sched.Constant, Mean: 3}, Output: sched.Dist{Kind: sched.Constant, Mean: 4}}
	r, err := sched.Run(cfg, w, fakeCost, sched.Options{Work: sched.WorkLimit{Limit: 14, PerStep: 1}})
	require.NoError(t, err)
	assert.Equal(t, int64(8), r.SeqSteps)
	assert.Equal(t, int64(6), r.Steps)
	r, err = sched.Run(cfg, w, fakeCost, sched.Options{Work: sched.WorkLimit{Limit: 7.5, PerStep: 1}})
	assert.ErrorIs(t, err, sched.ErrWorkLimit)
	assert.Zero(t, r.Steps, "no partial result")
}
