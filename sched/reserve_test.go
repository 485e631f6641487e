package sched_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/sched"
)

// SGLang's admission reserve (Config.ReserveOutput): two requests of 10
// prompt and 50 output tokens arrive together on a pool of one-token
// blocks. The first is admitted when 10 + 50 = 60 < free - reserve =
// pool - 0; it takes its 10 prompt blocks and reserves its 50 outputs for
// the rest of the step, so the second is admitted only when
// 60 < (pool - 10) - 50, that is when pool > 120:
//
//	pool 130: 60 < 130 - 10 - 50 = 70: both in the first step
//	pool 100: 60 >= 100 - 10 - 50 = 40: the first alone
//
// Under vLLM's admission (the same pool, ReserveOutput off) both prompts
// fit, 20 <= 100 blocks, and both start at once.
func TestSGLangAdmitsAgainstItsOutputReserve(t *testing.T) {
	t.Parallel()
	first := func(pool int64, reserve bool) []sched.Scheduled {
		cfg := sched.Config{NumBlocks: pool, BlockSize: 1, MaxNumSeqs: 8, MaxBatchedTokens: 1000, Blocks: fullLayout(1), PrefillFirst: true, ReserveOutput: reserve}
		s, err := sched.NewScheduler(cfg, 2)
		require.NoError(t, err)
		s.Submit(0, 0, 10, 50)
		s.Submit(1, 0, 10, 50)
		s.Schedule(0)
		return s.Scheduled()
	}
	assert.Equal(t, []sched.Scheduled{{ID: 0, Tokens: 10}, {ID: 1, Tokens: 10}}, first(130, true))
	assert.Equal(t, []sched.Scheduled{{ID: 0, Tokens: 10}}, first(100, true))
	assert.Equal(t, []sched.Scheduled{{ID: 0, Tokens: 10}, {ID: 1, Tokens: 10}}, first(100, false))
}

// After the first step of the 100-block pool above, the running request
// has sampled g tokens and holds 9 + g blocks (its 10 + g - 1 tokens
// computed), and the second is refused while
//
//	60 >= free - reserve = (91 - g) - (50 - g) x ratio
//
// with the ratio 0.7 falling by 0.602 / 600 a decode step: at g = 1,
// 90 - 49 x 0.7 = 55.7; the free tokens then fall by one a step and the
// reserve by at most 0.7, so the bound holds until the first finishes.
// Its 50 tokens take 50 steps (the prompt's step samples the first), the
// second runs in none of them, and it is admitted in the step after.
func TestSGLangReserveKeepsTheSecondRequestWaiting(t *testing.T) {
	t.Parallel()
	cfg := sched.Config{NumBlocks: 100, BlockSize: 1, MaxNumSeqs: 8, MaxBatchedTokens: 1000, Blocks: fullLayout(1), PrefillFirst: true, ReserveOutput: true}
	s, steps := drive(t, cfg, [][2]int{{10, 50}, {10, 50}})
	require.Len(t, steps, 50)
	for i, st := range steps {
		assert.Equal(t, []int{1}, st.Waiting, "step %d", i)
	}
	assert.Equal(t, int64(90), steps[0].Free)
	assert.Equal(t, []int{0}, steps[49].Finished)
	s.Schedule(steps[49].EndS)
	assert.Equal(t, []sched.Scheduled{{ID: 1, Tokens: 10}}, s.Scheduled())
	assert.Zero(t, s.Preemptions)
}
