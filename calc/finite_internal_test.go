package calc

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkFinite refuses a report holding NaN or Inf, naming where it is, so a
// broken figure becomes a field error and never a 500 or "+Inf" in JSON.
func TestCheckFiniteRefusesNaNAndInf(t *testing.T) {
	t.Parallel()
	r := Report{Decode: &DecodeReport{TokensPerS: math.Inf(1)}}
	err := checkFinite(&r)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "decode.tokens_per_s is not a finite number")

	r = Report{Sweep: []SweepPoint{{}, {StepTimeMs: math.NaN()}}}
	require.ErrorContains(t, checkFinite(&r), "sweep[1].step_time_ms")

	r = Report{Decode: &DecodeReport{StepTimeMs: 2 * extremeMs}}
	require.NoError(t, checkFinite(&r))
	require.Len(t, r.Warnings, 1)
	assert.Equal(t, "extreme_input", r.Warnings[0].Code)
}

func TestRatioGuardsZeroAndOverflow(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 2.0, ratio(4, 2))
	assert.Zero(t, ratio(1, 0))
	assert.Zero(t, ratio(1, -1))
	assert.Zero(t, ratio(1, math.NaN()))
	assert.Zero(t, ratio(1e308, 1e-308))
}
