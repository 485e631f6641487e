package sched_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/sched"
)

// A replayed trace arrives exactly as given, with its lengths, and a
// length left 0 is drawn from the workload's distribution. Two requests
// on an idle server far apart (1 s cost + 0.1 s a token, fakeCost): the
// first (3 in, 2 out) arrives at 0.25 s, prefills in 1.3 s and decodes
// its second token in 1.1 s, finishing at 0.25 + 2.4 = 2.65 s; the second
// (4 in, 1 out: its output drawn from the constant 1) arrives at 10 s
// and finishes with its prefill at 10 + 1.4 = 11.4 s.
func TestReplayArrivesAsGiven(t *testing.T) {
	t.Parallel()
	cfg := sched.Config{NumBlocks: 8, BlockSize: 4, MaxNumSeqs: 2, MaxBatchedTokens: 8, Blocks: fullLayout(4)}
	w := sched.Workload{NumRequests: 2, Arrival: sched.Replay,
		Input: sched.Dist{Kind: sched.Constant, Mean: 9}, Output: sched.Dist{Kind: sched.Constant, Mean: 1},
		Trace: []sched.TraceRequest{{ArrivalS: 0.25, Input: 3, Output: 2}, {ArrivalS: 10, Input: 4}}}
	r, err := sched.Run(cfg, w, fakeCost, sched.Options{Records: true})
	require.NoError(t, err)
	require.Len(t, r.Records, 2)
	assert.Equal(t, 0.25, r.Records[0].ArrivalS)
	assert.Equal(t, 10.0, r.Records[1].ArrivalS)
	assert.Equal(t, [2]int{3, 2}, [2]int{r.Records[0].Input, r.Records[0].Output})
	assert.Equal(t, [2]int{4, 1}, [2]int{r.Records[1].Input, r.Records[1].Output})
	assert.InDelta(t, 2.65, r.Records[0].FinishS, tol)
	assert.InDelta(t, 11.4, r.Records[1].FinishS, tol)

	// A trace out of order, or not one request per NumRequests, is refused.
	w.Trace[1].ArrivalS = 0.1
	_, err = sched.Run(cfg, w, fakeCost, sched.Options{})
	assert.ErrorIs(t, err, sched.ErrConfig)
}
