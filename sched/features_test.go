package sched_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/sched"
)

// Four requests of 600 prompt tokens share a 512-token system prompt,
// block size 16, arriving together. By hand:
//
//	prefix blocks            512 / 16           = 32 (whole blocks only)
//	blocks of one prompt     ceil(600 / 16)     = 38
//	private blocks each      38 - 32            =  6
//	pool after admission     32 + 4 * 6         = 56   (without caching 4 * 38 = 152)
//	tokens prefilled         600 + 3 * (600-512) = 864 (the first request computes the prefix)
func TestPrefixSharedBlocksCountedOnce(t *testing.T) {
	t.Parallel()
	cfg := sched.Config{NumBlocks: 1000, BlockSize: 16, MaxNumSeqs: 8, MaxBatchedTokens: 4096, Blocks: fullLayout(16),
		Prefix: sched.PrefixCache{Enabled: true, Tokens: 512, Prefixes: 1, SharedGroups: 1}}
	s, err := sched.NewScheduler(cfg, 4)
	require.NoError(t, err)
	for i := 0; i < 4; i++ {
		s.Submit(i, 0, 600, 4)
	}
	l := s.Schedule(0)
	assert.Equal(t, int64(56), s.UsedBlocks())
	assert.Equal(t, 864, l.PrefillTokens)
	// Spans: the first request's chunk starts at 0 (600*(0+601/2)); the
	// others' start at 512 (88*(512+89/2)).
	assert.InDelta(t, 600*300.5+3*88*(512+44.5), l.PrefillSpan, 1e-9)
	assert.Equal(t, 4, l.PrefillSeqs)

	off := cfg
	off.Prefix = sched.PrefixCache{}
	s2, err := sched.NewScheduler(off, 4)
	require.NoError(t, err)
	for i := 0; i < 4; i++ {
		s2.Submit(i, 0, 600, 4)
	}
	s2.Schedule(0)
	assert.Equal(t, int64(152), s2.UsedBlocks())
}

// A prefix whose last block is partial caches only its whole blocks: 520
// prefix tokens are 520/16 = 32 whole blocks (512 tokens); the 8 left over
// are computed by every request. A 521-token prompt hits the same 512
// and computes 9.
func TestPrefixWholeBlocksOnly(t *testing.T) {
	t.Parallel()
	cfg := sched.Config{NumBlocks: 1000, BlockSize: 16, MaxNumSeqs: 8, MaxBatchedTokens: 4096, Blocks: fullLayout(16),
		Prefix: sched.PrefixCache{Enabled: true, Tokens: 520, Prefixes: 1, SharedGroups: 1}}
	s, err := sched.NewScheduler(cfg, 3)
	require.NoError(t, err)
	s.Submit(0, 0, 600, 2)
	s.Submit(1, 0, 600, 2)
	s.Submit(2, 0, 521, 2)
	l := s.Schedule(0)
	assert.Equal(t, 600+(600-512)+(521-512), l.PrefillTokens)
}

// Once the last user of a prefix finishes, its blocks stay cached in the
// free queue: the next request with that prefix hits them.
func TestPrefixSurvivesUntilEvicted(t *testing.T) {
	t.Parallel()
	cfg := sched.Config{NumBlocks: 100, BlockSize: 16, MaxNumSeqs: 1, MaxBatchedTokens: 4096, Blocks: fullLayout(16),
		Prefix: sched.PrefixCache{Enabled: true, Tokens: 256, Prefixes: 1, SharedGroups: 1}}
	s, err := sched.NewScheduler(cfg, 2)
	require.NoError(t, err)
	s.Submit(0, 0, 300, 1)
	s.Submit(1, 0, 300, 1)
	l := s.Schedule(0) // request 0 alone (max_num_seqs 1)
	assert.Equal(t, 300, l.PrefillTokens)
	s.Complete(1, nil) // it samples its one token and finishes
	assert.Equal(t, int64(100), s.FreeBlocks(), "cached blocks are free")
	l = s.Schedule(1)
	assert.Equal(t, 300-256, l.PrefillTokens, "the prefix's 16 blocks were still cached")
}

// Evicting is least recently freed first, and a request frees its blocks
// tail first: 20 blocks of 16 tokens. Request 0 (prefix 0) holds 16
// prefix blocks and 3 of its own; it finishes and the free queue is
// [1 never used, its 3, prefix 0's 16 (last block first)]. Request 1
// (prefix 1) needs 19: 1 + 3 + 15 of prefix 0's, whose first block
// survives, so request 2 (prefix 0) computes 300 - 16 tokens.
func TestPrefixEvictedLRU(t *testing.T) {
	t.Parallel()
	cfg := sched.Config{NumBlocks: 20, BlockSize: 16, MaxNumSeqs: 1, MaxBatchedTokens: 4096, Blocks: fullLayout(16),
		Prefix: sched.PrefixCache{Enabled: true, Tokens: 256, Prefixes: 2, SharedGroups: 1}}
	s, err := sched.NewScheduler(cfg, 3)
	require.NoError(t, err)
	s.Submit(0, 0, 300, 1)
	s.Submit(1, 0, 300, 1)
	s.Submit(2, 0, 300, 1)
	var got []int
	for now := 0.0; now < 3; now++ {
		got = append(got, s.Schedule(now).PrefillTokens)
		s.Complete(now+1, nil)
	}
	assert.Equal(t, []int{300, 300, 284}, got)
}

// Request i uses prefix i mod Prefixes, so with at least as many prefixes
// as requests each request has its own and computes its whole prompt:
// 300 tokens each, whether Prefixes is 3 or 1,048,576 (issue 35's probe).
// The scheduler keeps per-prefix state for the requests only, so the
// million prefixes allocate no more than the three (before, 16 MB a run).
func TestPrefixesBeyondTheRequestsAreNeverUsed(t *testing.T) {
	for _, prefixes := range []int{3, 1 << 20} {
		cfg := sched.Config{NumBlocks: 100, BlockSize: 16, MaxNumSeqs: 1, MaxBatchedTokens: 4096, Blocks: fullLayout(16),
			Prefix: sched.PrefixCache{Enabled: true, Tokens: 256, Prefixes: prefixes, SharedGroups: 1}}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s, err := sched.NewScheduler(cfg, 3)
		runtime.ReadMemStats(&after)
		require.NoError(t, err)
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "prefixes %d", prefixes)
		var got []int
		for i := range 3 {
			s.Submit(i, 0, 300, 1)
		}
		for now := 0.0; now < 3; now++ {
			got = append(got, s.Schedule(now).PrefillTokens)
			s.Complete(now+1, nil)
		}
		assert.Equal(t, []int{300, 300, 300}, got, "prefixes %d", prefixes)
	}
}

// A preempted request that resumes finds its own full blocks still cached
// and recomputes only what was evicted or never full.
func TestPreemptedRequestHitsItsOwnBlocks(t *testing.T) {
	t.Parallel()
	// The same case as TestPreemptsNewestAndRecomputes with caching on.
	// B (3 in) is preempted after its prompt; its blocks, 1 full ([0,2))
	// and 1 partial, go to the free queue; A takes the partial one first
	// (freed first: tail first) and B's full block survives: B resumes
	// with 2 cached tokens of its 4.
	cfg := sched.Config{NumBlocks: 4, BlockSize: 2, MaxNumSeqs: 4, MaxBatchedTokens: 16, Blocks: fullLayout(2),
		Prefix: sched.PrefixCache{Enabled: true}}
	s, out := drive(t, cfg, [][2]int{{4, 3}, {3, 4}})
	require.NotEmpty(t, out)
	var resumed int
	for _, st := range out {
		for _, sc := range st.Scheduled {
			if sc.ID == 1 && st.Load.PrefillTokens > 0 && st.Load.PrefillTokens == sc.Tokens && sc.Tokens < 4 && st.Load.PrefillSeqs == 1 {
				resumed = sc.Tokens
			}
		}
	}
	assert.Equal(t, 2, resumed, "B recomputes 4 - 2 cached tokens")
	assert.Equal(t, 1, s.Preemptions)
	assert.Equal(t, int64(3-2), s.RecomputedTokens, "3 computed tokens dropped, 2 found again")
}

// With an offload tier and no prefix cache, the same preempted request
// loads its one full block back from the tier (Load.ReloadBlocks 1) and
// recomputes 4 - 2 tokens; only 3 - 2 of its dropped tokens count as
// recomputed.
func TestPreemptedRequestReloadsFromTier(t *testing.T) {
	t.Parallel()
	cfg := sched.Config{NumBlocks: 4, BlockSize: 2, MaxNumSeqs: 4, MaxBatchedTokens: 16, Blocks: fullLayout(2),
		Offload: sched.Offload{Blocks: 100, Groups: 1}}
	s, out := drive(t, cfg, [][2]int{{4, 3}, {3, 4}})
	var reloads []int64
	for _, st := range out {
		if st.Load.ReloadBlocks > 0 {
			reloads = append(reloads, st.Load.ReloadBlocks)
			assert.Equal(t, 2, st.Load.PrefillTokens, "B prefills 4 - 2 tokens")
		}
	}
	assert.Equal(t, []int64{1}, reloads)
	assert.Equal(t, int64(1), s.RecomputedTokens)
	// A tier too small for one block reloads nothing.
	cfg.Offload.Blocks = 0
	s, _ = drive(t, cfg, [][2]int{{4, 3}, {3, 4}})
	assert.Equal(t, int64(3), s.RecomputedTokens)
}

// Speculation with acceptance 1 accepts every draft: k = 3 makes each
// decode step yield 4 tokens. By hand: the prefill samples token 1; step
// 2 drafts min(3, 9-1-1) = 3 and yields 4 (5 so far); step 3 drafts
// min(3, 9-5-1) = 3 and yields 4 (9, done). Each decode verifies 1 + 3
// tokens.
func TestSpeculationAllAccepted(t *testing.T) {
	t.Parallel()
	cfg := sched.Config{NumBlocks: 100, BlockSize: 16, MaxNumSeqs: 4, MaxBatchedTokens: 4096, Blocks: fullLayout(16),
		Spec: sched.Speculation{Tokens: 3, Acceptance: 1}}
	s, out := drive(t, cfg, [][2]int{{10, 9}})
	require.Len(t, out, 3)
	assert.Equal(t, 10, out[0].Load.PrefillTokens)
	for _, st := range out[1:] {
		assert.Equal(t, 1, st.Load.DecodeSeqs)
		assert.Equal(t, 3, st.Load.SpecTokens)
	}
	assert.Equal(t, []int{0}, out[2].Finished)
	// processed: 10 prompt + 2 * (1 + 3)
	assert.Equal(t, int64(18), s.ProcessedTokens)
}

// With acceptance 0 every draft is rejected: one token per decode step,
// as without speculation, but each step verifies k drafts for nothing.
func TestSpeculationNoneAccepted(t *testing.T) {
	t.Parallel()
	cfg := sched.Config{NumBlocks: 100, BlockSize: 16, MaxNumSeqs: 4, MaxBatchedTokens: 4096, Blocks: fullLayout(16),
		Spec: sched.Speculation{Tokens: 2, Acceptance: 0}}
	_, out := drive(t, cfg, [][2]int{{10, 5}})
	// prefill, then 4 decodes, each drafting min(2, tokens still to
	// generate - 1): 5-1-1 = 3 -> 2, 5-2-1 = 2 -> 2, 5-3-1 = 1, 0.
	require.Len(t, out, 5)
	assert.Equal(t, []int{2, 2, 1, 0}, []int{out[1].Load.SpecTokens, out[2].Load.SpecTokens, out[3].Load.SpecTokens, out[4].Load.SpecTokens})
}

// The simulator's invariants with both features on, over the random
// workloads of TestInvariantsRandomWorkloads: no overdraft, every request
// that fits finishes with exactly its output tokens, the token accounting
// closes (Result.CachedTokens says how), and a seed repeats exactly.
func TestInvariantsWithFeatures(t *testing.T) {
	t.Parallel()
	var preempting, hits, drafts, reloads int
	for seed := uint64(1); seed <= 300; seed++ {
		cfg, w := randomCase(seed)
		cfg.Prefix = sched.PrefixCache{Enabled: true, Tokens: int(seed % 64), Prefixes: 1 + int(seed%3), SharedGroups: 1}
		cfg.Spec = sched.Speculation{Tokens: int(seed % 4), Acceptance: float64(seed%10) / 10, Seed: seed}
		if seed%2 == 0 {
			cfg.Offload = sched.Offload{Blocks: int64(seed % 97), Groups: 1}
		}
		r, err := sched.Run(cfg, w, linearCost, sched.Options{Records: true})
		require.NoError(t, err, "seed %d", seed)
		assert.LessOrEqual(t, r.PeakBlocks, cfg.NumBlocks, "seed %d", seed)
		assert.Equal(t, w.NumRequests, r.Completed+r.Rejected, "seed %d", seed)
		var want int64
		for i, rec := range r.Records {
			if rec.Rejected {
				continue
			}
			require.Equal(t, rec.Output, rec.Generated, "seed %d request %d", seed, i)
			want += int64(rec.Input + rec.Output - 1)
		}
		assert.Equal(t, want+r.RecomputedTokens-(r.CachedTokens-r.ResumedCachedTokens)+r.DraftedTokens-r.AcceptedTokens,
			r.ProcessedTokens, "seed %d", seed)
		if r.Preemptions > 0 {
			preempting++
		}
		if r.CachedTokens > 0 {
			hits++
		}
		if r.AcceptedTokens > 0 {
			drafts++
		}
		if r.ReloadedTokens > 0 {
			reloads++
		}
		again, err := sched.Run(cfg, w, linearCost, sched.Options{Records: true})
		require.NoError(t, err)
		assert.Equal(t, r, again, "seed %d", seed)
	}
	assert.Greater(t, preempting, 30)
	assert.Greater(t, hits, 100)
	assert.Greater(t, drafts, 100)
	assert.Greater(t, reloads, 10)
}
