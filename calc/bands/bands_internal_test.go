package bands

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// bandExp is exp(m/1000) to 1e-12 over the table's range of bands (ln
// ratios within ±3 hold every band of the cases); its point is that it
// is the same bits everywhere, which the golden reports check under
// WebAssembly (www/test/golden.test.mjs, www/test/bands.test.mjs).
func TestBandExpIsExp(t *testing.T) {
	for m := -3000; m <= 3000; m++ {
		want := math.Exp(float64(m) / 1000)
		assert.InDelta(t, 1, bandExp(m)/want, 1e-12, m)
	}
	assert.Equal(t, 1.0, bandExp(0))
}
