package sched_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/sched"
)

// twoTurns is a workload of sessions of two turns: a first prompt of 100
// tokens, 20 new tokens in the second, out output tokens each, a constant
// think time of 5 s, all sessions starting at time zero.
func twoTurns(sessions, out int, p sched.Sessions) sched.Workload {
	p.Turns = sched.Dist{Kind: sched.Constant, Mean: 2}
	p.NewTokens = sched.Dist{Kind: sched.Constant, Mean: 20}
	p.ThinkS = 5
	return sched.Workload{NumRequests: 2 * sessions, Arrival: sched.Burst,
		Input: sched.Dist{Kind: sched.Constant, Mean: 100}, Output: sched.Dist{Kind: sched.Constant, Mean: float64(out)},
		Sessions: &p}
}

func sessionCfg(blocks int64, seqs int) sched.Config {
	return sched.Config{NumBlocks: blocks, BlockSize: 16, MaxNumSeqs: seqs, MaxBatchedTokens: 4096, Blocks: fullLayout(16),
		Prefix: sched.PrefixCache{Enabled: true}}
}

// One session of two turns, block size 16, a pool that holds everything.
// By hand: the last sampled token of a turn is never fed back, so turn 1
// ends with 100 + out - 1 tokens computed, and only full blocks are
// cached (vllm/v1/core/block_pool.py cache_full_blocks, vLLM 0.19):
//
//	out = 29: 128 tokens = 8 full blocks; turn 2's prompt 100+29+20 = 149
//	          may reuse (149-1)/16 = 9 blocks, so it hits all 8: 128 tokens
//	out = 28: 127 tokens = 7 full blocks (the 8th holds 15): 112 tokens;
//	          turn 2's prompt 148
//
// Hit rate = cached / prompt tokens: 128 / (100+149), 112 / (100+148).
// Work: every token computed once but the cached ones,
// (100+29-1) + (149+29-1) - 128 = 177 and (100+28-1) + (148+28-1) - 112 = 190.
func TestSessionSecondTurnHitsFirstTurnsBlocks(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		out             int
		prompt2, cached int64
		processed       int64
	}{
		{29, 149, 128, 177},
		{28, 148, 112, 190},
	} {
		res, err := sched.Run(sessionCfg(1000, 8), twoTurns(1, c.out, sched.Sessions{}), fakeCost, sched.Options{})
		require.NoError(t, err)
		st := res.Sessions
		require.NotNil(t, st)
		assert.Equal(t, 1, st.Sessions)
		assert.Equal(t, 2, res.Completed)
		require.Len(t, st.PerTurn, 2)
		assert.Equal(t, int64(0), st.PerTurn[0].CachedTokens)
		assert.Equal(t, c.prompt2, st.PerTurn[1].PromptTokens)
		assert.Equal(t, c.cached, st.PerTurn[1].CachedTokens)
		assert.InDelta(t, float64(c.cached)/float64(100+c.prompt2), st.HitRate, 1e-12)
		assert.Equal(t, c.processed, res.ProcessedTokens)
		assert.Equal(t, c.cached, res.CachedTokens)
	}
}

// Without prefix caching nothing is reused: turn 2 computes its 149 tokens.
func TestSessionWithoutPrefixCachingHitsNothing(t *testing.T) {
	t.Parallel()
	cfg := sessionCfg(1000, 8)
	cfg.Prefix = sched.PrefixCache{}
	res, err := sched.Run(cfg, twoTurns(1, 29, sched.Sessions{}), fakeCost, sched.Options{})
	require.NoError(t, err)
	assert.Equal(t, int64(0), res.Sessions.CachedTokens)
	assert.Equal(t, int64(128+177), res.ProcessedTokens)
}

// Sessions A (turns 0, 1) and B (turns 2, 3), both started at time zero,
// one sequence at a time (max_num_seqs 1), out = 29, so a first turn ends
// holding 8 full blocks and a second turn needs ceil(177/16) = 12 blocks
// (149 + 29 - 1 = 177 tokens computed at its end). The free queue, head
// first, evicts from its head (vLLM's FreeKVCacheBlockQueue):
//
//	pool 20: A1 ends       [free 12][A 8]
//	         B1 takes 8    [free 4][A 8]  -> ends [free 4][A 8][B 8]
//	         A2 hits A's 8, allocates 4 fresh from the head (the free 4)
//	         B2 hits B's 8: both second turns hit 128 tokens
//	pool 12: A1 ends       [free 4][A 8]
//	         B1 takes 8: the free 4, then evicts A's last 4 -> [A 4]; ends [A 4][B 8]
//	         A2 hits A's first 4 (64 tokens), allocates 8 fresh: evicts all of B's
//	         B2, whose think time let A2 run first, hits nothing
func TestSessionEvictedDuringItsGap(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		blocks int64
		hitA   int64 // turn 2 of session A
		hitB   int64
	}{
		{20, 128, 128},
		{12, 64, 0},
	} {
		res, err := sched.Run(sessionCfg(c.blocks, 1), twoTurns(2, 29, sched.Sessions{}), fakeCost, sched.Options{Records: true})
		require.NoError(t, err)
		require.Equal(t, 4, res.Completed)
		// The order the single seat ran them: A1, B1, A2, B2.
		r := res.Records
		assert.Less(t, r[0].FinishS, r[2].FinishS)
		assert.Less(t, r[2].FinishS, r[1].FinishS)
		assert.Less(t, r[1].FinishS, r[3].FinishS)
		assert.Equal(t, c.hitA+c.hitB, res.Sessions.PerTurn[1].CachedTokens, "pool %d", c.blocks)
		assert.Equal(t, c.hitA+c.hitB, res.CachedTokens, "pool %d", c.blocks)
	}
}

// Two replicas, 4,000 sessions of two turns, a pool that never evicts.
// Session-affine routing sends turn 2 where turn 1 ran: every turn 2 hits
// 128 tokens, hit rate 128 / (100 + 149) = 0.5141. Random routing sends it
// to either replica with probability 1/2, and only the one turn 1 ran on
// holds its blocks: expected hit rate 0.5141 / 2, twice lower. The number
// of second turns that land where their first ran is binomial(4000, 1/2):
// standard deviation sqrt(4000/4) = 31.6 of 2,000, so the ratio lies
// within 2 x (1 +- 5 sigma / 2000) = 2 +- 0.16 but for a chance of 6e-7.
func TestSessionAffinityDoublesHitRate(t *testing.T) {
	t.Parallel()
	affine, err := sched.Run(sessionCfg(1<<20, 1024), twoTurns(4000, 29, sched.Sessions{Replicas: 2}), fakeCost, sched.Options{})
	require.NoError(t, err)
	random, err := sched.Run(sessionCfg(1<<20, 1024), twoTurns(4000, 29, sched.Sessions{Replicas: 2, RandomRouting: true}), fakeCost, sched.Options{})
	require.NoError(t, err)
	assert.InDelta(t, 128.0/249, affine.Sessions.HitRate, 1e-12)
	assert.InDelta(t, 2.0, affine.Sessions.HitRate/random.Sessions.HitRate, 0.16)
}
