package deploy

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRatioGuardsZeroAndOverflow(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 2.0, ratio(4, 2))
	assert.Zero(t, ratio(1, 0))
	assert.Zero(t, ratio(1, -1))
	assert.Zero(t, ratio(1, math.NaN()))
	assert.Zero(t, ratio(1e308, 1e-308))
}
