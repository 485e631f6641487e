package deploy

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSortedDistinct: the simulated sweep's loads, ascending and without
// repeats, as slices.Sort then slices.Compact gave them.
func TestSortedDistinct(t *testing.T) {
	t.Parallel()
	assert.Equal(t, []float64{0.5, 1, 2, 3}, sortedDistinct([]float64{3, 1, 2, 1, 0.5, 3, 3}))
	assert.Equal(t, []float64{1}, sortedDistinct([]float64{1, 1}))
	assert.Empty(t, sortedDistinct(nil))
}
