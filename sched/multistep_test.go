package sched_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/sched"
)

// vLLM V0 with --num-scheduler-steps 3 (prefills first, prefills alone):
// A (2 in, 5 out) is submitted at 0 and B (3 in, 2 out) once A's first
// decode has begun. By hand, with fakeCost (1 s + 0.1 s per token):
//
//	step 1: prefill A (2 tokens), t = 1.2; A's token 1
//	step 2: decode A: a decode step opens a window of 3; B arrives now
//	step 3: decode A (window, B waits), token 3
//	step 4: decode A (window ends), token 4
//	step 5: prefill B alone (3 tokens), t = 1.2 + 3 x 1.1 + 1.3 = 5.8
//	step 6: decode A and B, t = 7.0: A's token 5 and B's 2; both finish
//
// With one scheduler step B's prefill would be step 3.
func TestMultiStepWindowDelaysAdmission(t *testing.T) {
	t.Parallel()
	for _, steps := range []int{1, 3} {
		cfg := sched.Config{NumBlocks: 16, BlockSize: 4, MaxNumSeqs: 4, MaxBatchedTokens: 16, Blocks: fullLayout(4),
			PrefillFirst: true, SchedulerSteps: steps}
		s, err := sched.NewScheduler(cfg, 2)
		require.NoError(t, err)
		s.Submit(0, 0, 2, 5)
		var loads []sched.Load
		now := 0.0
		var doneAt [2]float64
		for len(loads) < 20 {
			l := s.Schedule(now)
			if l.Tokens() == 0 {
				break
			}
			loads = append(loads, l)
			now += fakeCost(l)
			s.Complete(now, func(id int) { doneAt[id] = now })
			if len(loads) == 2 {
				s.Submit(1, now-fakeCost(l)/2, 3, 2) // mid-step 2
			}
		}
		prefillB := sched.Load{PrefillTokens: 3, PrefillSpan: 3 * 2, PrefillSeqs: 1}
		if steps == 3 {
			require.Len(t, loads, 6)
			assert.Equal(t, prefillB, loads[4], "B's prefill waits for the window's end")
			for i := 1; i < 4; i++ {
				assert.Equal(t, 1, loads[i].DecodeSeqs, "step %d decodes A alone", i+1)
			}
			assert.Equal(t, 2, loads[5].DecodeSeqs)
			assert.InDelta(t, 7.0, doneAt[0], tol)
			assert.InDelta(t, 7.0, doneAt[1], tol)
		} else {
			assert.Equal(t, prefillB, loads[2], "without a window B's prefill follows step 2")
		}
	}
}

// A window ends early when its sequences finish: A (1 in, 2 out) under
// 8 scheduler steps decodes once and is done; B, submitted after, is
// scheduled at once.
func TestMultiStepWindowEndsWithItsSequences(t *testing.T) {
	t.Parallel()
	cfg := sched.Config{NumBlocks: 16, BlockSize: 4, MaxNumSeqs: 4, MaxBatchedTokens: 16, Blocks: fullLayout(4),
		PrefillFirst: true, SchedulerSteps: 8}
	s, err := sched.NewScheduler(cfg, 2)
	require.NoError(t, err)
	s.Submit(0, 0, 1, 2)
	assert.Equal(t, 1, s.Schedule(0).PrefillSeqs)
	s.Complete(1.1, nil)
	assert.Equal(t, 1, s.Schedule(1.1).DecodeSeqs)
	s.Complete(2.2, nil)
	s.Submit(1, 2.2, 3, 1)
	assert.Equal(t, 3, s.Schedule(2.2).PrefillTokens)
}

// Options.FrontEndS adds to every TTFT and end-to-end latency, not to
// TPOT: one request of 4 in and 3 out, prefill 1.4 s, decodes 1.1 s each,
// front end 0.25 s: TTFT 1.65, E2E 3.85, TPOT (3.6 - 1.4) / 2 = 1.1.
func TestFrontEndLatency(t *testing.T) {
	t.Parallel()
	cfg := sched.Config{NumBlocks: 16, BlockSize: 4, MaxNumSeqs: 4, MaxBatchedTokens: 16, Blocks: fullLayout(4)}
	w := sched.Workload{NumRequests: 1, Arrival: sched.Burst,
		Input: sched.Dist{Kind: sched.Constant, Mean: 4}, Output: sched.Dist{Kind: sched.Constant, Mean: 3}}
	r, err := sched.Run(cfg, w, fakeCost, sched.Options{FrontEndS: 0.25, TTFTS: 1.6})
	require.NoError(t, err)
	assert.InDelta(t, 1.65, r.TTFT.P50, tol)
	assert.InDelta(t, 3.85, r.E2E.P50, tol)
	assert.InDelta(t, 1.1, r.TPOT.P50, tol)
	assert.Equal(t, 0, r.SLOMet, "a TTFT budget counts the front end")
	for _, bad := range []float64{-1, posInf()} {
		_, err := sched.Run(cfg, w, fakeCost, sched.Options{FrontEndS: bad})
		assert.ErrorIs(t, err, sched.ErrConfig)
		_, err = sched.Run(cfg, w, fakeCost, sched.Options{FrontEndPerTokenS: bad})
		assert.ErrorIs(t, err, sched.ErrConfig)
	}
	// The tokeniser's share grows with the prompt: 0.25 s + 4 tokens *
	// 0.01 s = 0.29 s, so TTFT 1.4 + 0.29 = 1.69, E2E 3.6 + 0.29 = 3.89,
	// TPOT unchanged.
	r, err = sched.Run(cfg, w, fakeCost, sched.Options{FrontEndS: 0.25, FrontEndPerTokenS: 0.01})
	require.NoError(t, err)
	assert.InDelta(t, 1.69, r.TTFT.P50, tol)
	assert.InDelta(t, 3.89, r.E2E.P50, tol)
	assert.InDelta(t, 1.1, r.TPOT.P50, tol)
	for _, bad := range []int{-1, sched.MaxSchedulerSteps + 1} {
		c := cfg
		c.SchedulerSteps = bad
		_, err := sched.Run(c, w, fakeCost, sched.Options{})
		assert.ErrorIs(t, err, sched.ErrConfig)
	}
}

func posInf() float64 { x := 1e308; return x * 10 }

// SGLang's overlap scheduler (Config.OverlapSchedule) forms the next step
// while one runs, from the requests received when that step started. Two
// Poisson arrivals (seed 2, rate 0.5/s: A at a = 1.18067 s, B at
// b = 1.76429 s, read from the records), each 4 in and 6 out, prefills
// first, fakeCost (1 s + 0.1 s per token). By hand:
//
//	A arrives at an idle server and is prefilled at once (both modes):
//	  first token at a + 1.4.
//	B arrives during A's prefill [a, a + 1.4].
//	Without overlap: prefill B alone at a + 1.4, first token at a + 2.8.
//	With overlap: the step after A's prefill was formed at a, before B
//	  arrived, so it decodes A alone (1.1 s); B's prefill follows:
//	  first token at a + 1.4 + 1.1 + 1.4 = a + 3.9, one step later.
func TestOverlapScheduleDelaysAdmissionOneStep(t *testing.T) {
	t.Parallel()
	const a, b = 1.180665713952924, 1.7642910393573477
	for _, overlap := range []bool{false, true} {
		cfg := sched.Config{NumBlocks: 64, BlockSize: 4, MaxNumSeqs: 4, MaxBatchedTokens: 16, Blocks: fullLayout(4),
			PrefillFirst: true, OverlapSchedule: overlap}
		w := sched.Workload{NumRequests: 2, Seed: 2, Arrival: sched.Poisson, RatePerS: 0.5,
			Input: sched.Dist{Kind: sched.Constant, Mean: 4}, Output: sched.Dist{Kind: sched.Constant, Mean: 6}}
		r, err := sched.Run(cfg, w, fakeCost, sched.Options{Records: true})
		require.NoError(t, err)
		require.Len(t, r.Records, 2)
		assert.InDelta(t, a, r.Records[0].ArrivalS, 1e-12)
		assert.InDelta(t, b, r.Records[1].ArrivalS, 1e-12)
		assert.InDelta(t, a+1.4, r.Records[0].FirstTokenS, tol, "an idle server takes A at once")
		want := a + 2.8
		if overlap {
			want = a + 3.9
		}
		assert.InDelta(t, want, r.Records[1].FirstTokenS, tol, "overlap %v", overlap)
	}
}
