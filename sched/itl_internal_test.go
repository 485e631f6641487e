package sched

import (
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The binned percentiles stay within a bin's width (2^(1/64) - 1 = 1.09 %)
// of the exact ones (summarize, numpy's linear interpolation) over gaps
// spread across six decades, and the mean and maximum are exact.
func TestGapHistPercentilesWithinABin(t *testing.T) {
	t.Parallel()
	r := NewRand(7)
	var h gapHist
	xs := make([]float64, 0, 20000)
	for range 20000 {
		x := 1e-5 * math.Pow(10, 6*r.Float64())
		xs = append(xs, x)
		h.add(x, 1)
	}
	got, want := h.summary(), summarize(slices.Clone(xs))
	width := math.Exp2(1.0/gapHistPerOctave) - 1
	for _, p := range [][2]float64{{got.P50, want.P50}, {got.P90, want.P90}, {got.P99, want.P99}} {
		assert.InEpsilon(t, p[1], p[0], width)
	}
	assert.InEpsilon(t, want.Mean, got.Mean, 1e-12)
	assert.Equal(t, want.Max, got.Max)
}

// A bin holding one distinct value returns it exactly, whatever its count;
// counts add; gaps below the first edge and past the last bin are kept.
func TestGapHistExactForOneValuePerBin(t *testing.T) {
	t.Parallel()
	var h gapHist
	h.add(0.020, 300) // 300 sequences sharing a 20 ms step
	h.add(0.250, 100) // 100 waiting out a 250 ms prefill
	h.add(1e-9, 1)
	h.add(1e6, 1)
	h.add(5, 0) // no gap
	s := h.summary()
	require.Equal(t, int64(402), h.n)
	// Ranks 0 (1e-9), 1-300 (0.020), 301-400 (0.250), 401 (1e6).
	assert.InDelta(t, 0.020, s.P50, 1e-15)
	assert.InDelta(t, 0.250, s.P90, 1e-15)
	// p99 at rank 0.99*401 = 396.99: between ranks 396 and 397, both 0.250.
	assert.InDelta(t, 0.250, s.P99, 1e-15)
	assert.InDelta(t, (300*0.020+100*0.250+1e-9+1e6)/402, s.Mean, 1e-9)
	assert.Equal(t, 1e6, s.Max)
	assert.Equal(t, Summary{}, (&gapHist{}).summary())
}
