package sched

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/kvcache"
)

// SGLang's retraction (Config.ReserveOutput, Scheduler.retract): three
// running requests have each sampled 10 of 100 output tokens after a
// 10-token prompt and hold 20 one-token blocks of a 60-block pool, so none
// is free and the next decode (3 tokens) does not fit. The newest is
// retracted (20 free: fewer than 20 steps x 2 requests = 40), then the
// next (40 free, one request left, which stops it). The ratio is then
// re-estimated from the one left: min(1, (10 decoded + 20 x 1) / 100) =
// 0.3. With room for the decode the ratio only decays: 0.7 - (0.7 -
// 0.098) / 600 = 0.6989967.
func TestSGLangRetractsUntilTwentyStepsFit(t *testing.T) {
	t.Parallel()
	lay := kvcache.Layout{BlockSize: 1, Groups: []kvcache.Group{{Kind: kvcache.Full, Layers: 1}}, LayersPerBlock: 1}
	cfg := Config{NumBlocks: 60, BlockSize: 1, MaxNumSeqs: 8, MaxBatchedTokens: 1000, Blocks: lay, PrefillFirst: true, ReserveOutput: true}
	s, err := NewScheduler(cfg, 3)
	require.NoError(t, err)
	for i := range 3 {
		s.seqs[i] = seq{input: 10, output: 100}
		s.running = append(s.running, slot{id: int32(i), total: 20, generated: 10, output: 100, computed: 20, held: 20})
	}
	s.free = 0
	s.retract()
	assert.Equal(t, 2, s.Preemptions)
	assert.Equal(t, []int{0}, s.Running())
	assert.Equal(t, []int{1, 2}, s.Waiting())
	assert.Equal(t, int64(40), s.free)
	assert.InDelta(t, 0.3, s.ratio, 1e-12)
	assert.False(t, s.preempted, "the decode step still runs")

	s.ratio = 0.7
	s.retract()
	assert.InDelta(t, 0.6989967, s.ratio, 1e-7)
	assert.Equal(t, 2, s.Preemptions)
}
