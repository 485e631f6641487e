package sched_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/kvcache"
	"github.com/modelrefs/throughput/sched"
)

// fullLayout is one full-attention group of bs-token blocks: a sequence
// of c tokens holds ceil(c/bs) blocks.
func fullLayout(bs int) kvcache.Layout {
	return kvcache.Layout{BlockSize: bs, Groups: []kvcache.Group{{Kind: kvcache.Full, Layers: 1}}, LayersPerBlock: 1}
}

// fakeCost makes every step hand-computable: 1 s plus 0.1 s per token.
func fakeCost(l sched.Load) float64 { return 1 + 0.1*float64(l.Tokens()) }

// step is what one scheduler step did.
type step struct {
	Scheduled []sched.Scheduled
	Load      sched.Load
	Free      int64 // free blocks after scheduling
	Waiting   []int // waiting queue after scheduling, front first
	EndS      float64
	Finished  []int
}

// drive submits reqs ({input, output}) at time 0 and runs the scheduler
// by hand until everything finishes.
func drive(t *testing.T, cfg sched.Config, reqs [][2]int) (*sched.Scheduler, []step) {
	t.Helper()
	s, err := sched.NewScheduler(cfg, len(reqs))
	require.NoError(t, err)
	for i, r := range reqs {
		s.Submit(i, 0, r[0], r[1])
	}
	var out []step
	now := 0.0
	for len(out) < 50 {
		l := s.Schedule(now)
		if l.Tokens() == 0 {
			break
		}
		st := step{Scheduled: s.Scheduled(), Load: l, Free: s.FreeBlocks(), Waiting: s.Waiting()}
		now += fakeCost(l)
		st.EndS = now
		s.Complete(now, func(id int) { st.Finished = append(st.Finished, id) })
		out = append(out, st)
	}
	return s, out
}

const tol = 1e-9

func checkSteps(t *testing.T, want, got []step) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		assert.Equal(t, want[i].Scheduled, got[i].Scheduled, "step %d scheduled", i+1)
		assert.Equal(t, want[i].Load, got[i].Load, "step %d load", i+1)
		assert.Equal(t, want[i].Free, got[i].Free, "step %d free blocks", i+1)
		assert.Equal(t, want[i].Waiting, got[i].Waiting, "step %d waiting", i+1)
		assert.InDelta(t, want[i].EndS, got[i].EndS, tol, "step %d end", i+1)
		assert.Equal(t, want[i].Finished, got[i].Finished, "step %d finished", i+1)
	}
}

// Two sequences, 4 blocks of 2 tokens. A (4 in, 3 out) and B (3 in, 4
// out) fill the pool with their prompts; A's first decode needs a third
// block, so B, the most recently admitted, is preempted and goes back to
// the front of the queue. It cannot return while A runs (its 4 tokens,
// prompt plus the one it generated, need 2 blocks and 1 is free: the
// full-sequence admission gate), and on resume it prefills all 4 again.
func TestPreemptsNewestAndRecomputes(t *testing.T) {
	t.Parallel()
	cfg := sched.Config{NumBlocks: 4, BlockSize: 2, MaxNumSeqs: 4, MaxBatchedTokens: 16, Blocks: fullLayout(2)}
	s, steps := drive(t, cfg, [][2]int{{4, 3}, {3, 4}})
	const A, B = 0, 1
	want := []step{
		// Both prompts: A 4 tokens (2 blocks), B 3 tokens (2 blocks).
		// Spans: 4*(0+5/2) + 3*(0+4/2) = 16. Both sample their first token.
		{Scheduled: []sched.Scheduled{{A, 4}, {B, 3}}, Load: sched.Load{PrefillTokens: 7, PrefillSpan: 16, PrefillSeqs: 2},
			Free: 0, Waiting: []int{}, EndS: 1.7},
		// A decodes position 4 (context 5, 3 blocks): the pool is empty, B
		// is preempted (its 3 computed tokens dropped), A gets B's block.
		{Scheduled: []sched.Scheduled{{A, 1}}, Load: sched.Load{DecodeSeqs: 1, DecodeContext: 5},
			Free: 1, Waiting: []int{B}, EndS: 2.8},
		// A decodes position 5 (3 blocks still); B needs 2 free, 1 is.
		{Scheduled: []sched.Scheduled{{A, 1}}, Load: sched.Load{DecodeSeqs: 1, DecodeContext: 6},
			Free: 1, Waiting: []int{B}, EndS: 3.9, Finished: []int{A}},
		// B resumes: prompt 3 + 1 generated = 4 tokens recomputed, span
		// 4*(0+5/2) = 10; it samples its second token.
		{Scheduled: []sched.Scheduled{{B, 4}}, Load: sched.Load{PrefillTokens: 4, PrefillSpan: 10, PrefillSeqs: 1},
			Free: 2, Waiting: []int{}, EndS: 5.3},
		{Scheduled: []sched.Scheduled{{B, 1}}, Load: sched.Load{DecodeSeqs: 1, DecodeContext: 5},
			Free: 1, Waiting: []int{}, EndS: 6.4},
		{Scheduled: []sched.Scheduled{{B, 1}}, Load: sched.Load{DecodeSeqs: 1, DecodeContext: 6},
			Free: 1, Waiting: []int{}, EndS: 7.5, Finished: []int{B}},
	}
	checkSteps(t, want, steps)
	assert.Equal(t, 1, s.Preemptions)
	assert.Equal(t, int64(3), s.RecomputedTokens)
	// (4+3-1) + (3+4-1) + 3 recomputed.
	assert.Equal(t, int64(15), s.ProcessedTokens)
	assert.Equal(t, int64(4), s.FreeBlocks())
}

// A sequence that cannot grow and is itself the newest preempts itself;
// the older one keeps running.
func TestPreemptsItselfWhenNewest(t *testing.T) {
	t.Parallel()
	// 4 blocks of 4 tokens, budget 8. A: 6 in, 4 out; B: 3 in, 4 out.
	cfg := sched.Config{NumBlocks: 4, BlockSize: 4, MaxNumSeqs: 2, MaxBatchedTokens: 8, Blocks: fullLayout(4)}
	s, steps := drive(t, cfg, [][2]int{{6, 4}, {3, 4}})
	const A, B = 0, 1
	want := []step{
		// A's whole prompt (6 tokens, 2 blocks) and B's first chunk of 2
		// (the budget's rest; 1 block). Spans: 6*3.5 + 2*1.5 = 24.
		{Scheduled: []sched.Scheduled{{A, 6}, {B, 2}}, Load: sched.Load{PrefillTokens: 8, PrefillSpan: 24, PrefillSeqs: 1},
			Free: 1, Waiting: []int{}, EndS: 1.8},
		// A decodes (context 7); B's last prompt token (position 2, span 3).
		{Scheduled: []sched.Scheduled{{A, 1}, {B, 1}}, Load: sched.Load{DecodeSeqs: 1, DecodeContext: 7, PrefillTokens: 1, PrefillSpan: 3, PrefillSeqs: 1},
			Free: 1, Waiting: []int{}, EndS: 3.0},
		{Scheduled: []sched.Scheduled{{A, 1}, {B, 1}}, Load: sched.Load{DecodeSeqs: 2, DecodeContext: 8 + 4},
			Free: 1, Waiting: []int{}, EndS: 4.2},
		// A's context 9 takes the last block; B's context 5 needs one
		// more: B is the newest, so it preempts itself (4 tokens dropped).
		{Scheduled: []sched.Scheduled{{A, 1}}, Load: sched.Load{DecodeSeqs: 1, DecodeContext: 9},
			Free: 1, Waiting: []int{B}, EndS: 5.3, Finished: []int{A}},
		// B recomputes 3 + 2 generated tokens: span 5*3 = 15.
		{Scheduled: []sched.Scheduled{{B, 5}}, Load: sched.Load{PrefillTokens: 5, PrefillSpan: 15, PrefillSeqs: 1},
			Free: 2, Waiting: []int{}, EndS: 6.8},
		{Scheduled: []sched.Scheduled{{B, 1}}, Load: sched.Load{DecodeSeqs: 1, DecodeContext: 6},
			Free: 2, Waiting: []int{}, EndS: 7.9, Finished: []int{B}},
	}
	checkSteps(t, want, steps)
	assert.Equal(t, 1, s.Preemptions)
	assert.Equal(t, int64(4), s.RecomputedTokens)
	assert.Equal(t, int64(9+6+4), s.ProcessedTokens)
}

// Chunked prefill shares the budget with decodes, and max_num_seqs holds
// a third request back until a slot frees.
func TestChunkedPrefillAndSeqCap(t *testing.T) {
	t.Parallel()
	cfg := sched.Config{NumBlocks: 100, BlockSize: 4, MaxNumSeqs: 2, MaxBatchedTokens: 5, Blocks: fullLayout(4)}
	_, steps := drive(t, cfg, [][2]int{{7, 2}, {2, 1}, {1, 1}})
	const A, B, C = 0, 1, 2
	want := []step{
		// A's first chunk takes the whole budget: 5*(0+3) = 15.
		{Scheduled: []sched.Scheduled{{A, 5}}, Load: sched.Load{PrefillTokens: 5, PrefillSpan: 15},
			Free: 98, Waiting: []int{B, C}, EndS: 1.5},
		// A's last 2 tokens (2*(5+1.5) = 13) and B's prompt (2*1.5 = 3);
		// two run, so C waits for max_num_seqs.
		{Scheduled: []sched.Scheduled{{A, 2}, {B, 2}}, Load: sched.Load{PrefillTokens: 4, PrefillSpan: 16, PrefillSeqs: 2},
			Free: 97, Waiting: []int{C}, EndS: 2.9, Finished: []int{B}},
		// A decodes position 7 (context 8) beside C's one-token prompt.
		{Scheduled: []sched.Scheduled{{A, 1}, {C, 1}}, Load: sched.Load{DecodeSeqs: 1, DecodeContext: 8, PrefillTokens: 1, PrefillSpan: 1, PrefillSeqs: 1},
			Free: 97, Waiting: []int{}, EndS: 4.1, Finished: []int{A, C}},
	}
	checkSteps(t, want, steps)
}

// Admission before and after vLLM PR #37307. Five blocks of 2 tokens, a
// 4-token budget. Step 1: A (4 in) prefills 4 tokens, 2 blocks. Step 2: A
// decodes position 4 and takes a third block (2 free), leaving 3 tokens
// of budget. B (6 in) needs 3 blocks for its whole prompt but only 2 for
// its first chunk of 3: the whole-prompt rule keeps it waiting, the
// first-chunk rule admits it with 3 tokens, filling the pool.
func TestFirstChunkAdmission(t *testing.T) {
	t.Parallel()
	const A, B = 0, 1
	for _, first := range []bool{false, true} {
		cfg := sched.Config{NumBlocks: 5, BlockSize: 2, MaxNumSeqs: 2, MaxBatchedTokens: 4, Blocks: fullLayout(2), FirstChunkAdmission: first}
		_, steps := drive(t, cfg, [][2]int{{4, 4}, {6, 1}})
		require.GreaterOrEqual(t, len(steps), 2)
		assert.Equal(t, []sched.Scheduled{{A, 4}}, steps[0].Scheduled)
		if first {
			assert.Equal(t, []sched.Scheduled{{A, 1}, {B, 3}}, steps[1].Scheduled)
			assert.Equal(t, int64(0), steps[1].Free)
			assert.Equal(t, []int{}, steps[1].Waiting)
		} else {
			assert.Equal(t, []sched.Scheduled{{A, 1}}, steps[1].Scheduled)
			assert.Equal(t, int64(2), steps[1].Free)
			assert.Equal(t, []int{B}, steps[1].Waiting)
		}
	}
}

// SGLang's prefill-first policy (Config.PrefillFirst): a step that can
// prefill carries no decode, and decodes run when nothing can be
// prefilled. Budget 6 tokens, blocks of 4, ample pool; A = 4-token prompt,
// 2 outputs; B = 8-token prompt, 1 output, both waiting at 0. By hand:
//
//	step 1, prefill: A's 4 tokens, then B's first chunk of 6 - 4 = 2
//	step 2, prefill: B's remaining 6 tokens (A, decoding, waits)
//	         B samples its one output token and finishes
//	step 3, decode:  A's second token; A finishes
//
// Under vLLM's mixed policy step 2 would carry A's decode beside 5 of B's
// tokens, and B would need a third step.
func TestPrefillFirstRunsPrefillsAlone(t *testing.T) {
	t.Parallel()
	cfg := sched.Config{NumBlocks: 100, BlockSize: 4, MaxNumSeqs: 4, MaxBatchedTokens: 6, Blocks: fullLayout(4), PrefillFirst: true}
	_, got := drive(t, cfg, [][2]int{{4, 2}, {8, 1}})
	require.Len(t, got, 3)
	assert.Equal(t, sched.Load{PrefillTokens: 6, PrefillSpan: 4*(0+2.5) + 2*(0+1.5), PrefillSeqs: 1}, got[0].Load)
	assert.Equal(t, []sched.Scheduled{{ID: 0, Tokens: 4}, {ID: 1, Tokens: 2}}, got[0].Scheduled)
	assert.Equal(t, sched.Load{PrefillTokens: 6, PrefillSpan: 6 * (2 + 3.5), PrefillSeqs: 1}, got[1].Load)
	assert.Equal(t, []int{1}, got[1].Finished)
	assert.Equal(t, sched.Load{DecodeSeqs: 1, DecodeContext: 5}, got[2].Load)
	assert.Equal(t, []int{0}, got[2].Finished)

	cfg.PrefillFirst = false
	_, mixed := drive(t, cfg, [][2]int{{4, 2}, {8, 1}})
	require.Len(t, mixed, 3)
	// Step 2 mixes A's decode (context 5) with 5 of B's tokens.
	assert.Equal(t, sched.Load{DecodeSeqs: 1, DecodeContext: 5, PrefillTokens: 5, PrefillSpan: 5 * (2 + 3)}, mixed[1].Load)
	assert.Equal(t, []int{0}, mixed[1].Finished)
}
