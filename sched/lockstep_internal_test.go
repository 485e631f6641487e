package sched

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The lockstep draws the largest of k = ranks - 1 picks from its history at
// once, by rank. Its law must be k picks' law: with the history {0, 1, 2, 3}
// and k = 3, P(max <= i) = ((i+1)/4)^3, so
//
//	P(max = 0, 1, 2, 3) = 1/64, 7/64, 19/64, 37/64
//	E[max] = (0*1 + 1*7 + 2*19 + 3*37) / 64 = 156/64 = 2.4375
//
// Over 200,000 draws the mean's standard error is about 0.0016 (the max's
// variance is 6.516 - 2.4375^2 = 0.574, where E[max^2] = (7 + 76 + 333)/64);
// the assertion allows 0.01, six of them. The frequency of each value is
// checked to 0.005 likewise.
func TestLockstepDrawsTheLargestOfKPicks(t *testing.T) {
	t.Parallel()
	ls := newLockstep(4, 7)
	for _, x := range []float64{3, 0, 2, 1} {
		ls.insert(x)
	}
	assert.Equal(t, []float64{0, 1, 2, 3}, ls.sorted)
	const n = 200_000
	var sum float64
	var count [4]int
	for range n {
		x := ls.drawMax()
		sum += x
		count[int(x)]++
	}
	assert.InDelta(t, 2.4375, sum/n, 0.01)
	for i, p := range []float64{1.0 / 64, 7.0 / 64, 19.0 / 64, 37.0 / 64} {
		assert.InDelta(t, p, float64(count[i])/n, 0.005, "P(max = %d)", i)
	}
}

// The sorted history follows the ring: after 300 steps it holds the last
// 256 durations, ascending.
func TestLockstepHistoryKeepsTheLast256Steps(t *testing.T) {
	t.Parallel()
	ls := newLockstep(2, 1)
	for i := range 300 {
		ls.step(float64((i * 37) % 300))
	}
	assert.Len(t, ls.sorted, lockstepHistory)
	want := make([]float64, 0, lockstepHistory)
	for i := 300 - lockstepHistory; i < 300; i++ {
		want = append(want, float64((i*37)%300))
	}
	for i := 1; i < len(want); i++ { // insertion sort of the expected values
		for j := i; j > 0 && want[j] < want[j-1]; j-- {
			want[j], want[j-1] = want[j-1], want[j]
		}
	}
	assert.Equal(t, want, ls.sorted)
}
