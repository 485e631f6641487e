package finite

import (
	"math"
	"reflect"
	"testing"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkFinite refuses a report holding NaN or Inf, naming where it is, so a
// broken figure becomes a field error and never a 500 or "+Inf" in JSON.
func TestCheckFiniteRefusesNaNAndInf(t *testing.T) {
	t.Parallel()
	r := spec.Report{Decode: &spec.DecodeReport{TokensPerS: math.Inf(1)}}
	err := Check(&r)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "decode.tokens_per_s is not a finite number")

	r = spec.Report{Sweep: []spec.SweepPoint{{}, {StepTimeMs: math.NaN()}}}
	require.ErrorContains(t, Check(&r), "sweep[1].step_time_ms")

	r = spec.Report{Decode: &spec.DecodeReport{StepTimeMs: 2 * extremeMs}}
	require.NoError(t, Check(&r))
	require.Len(t, r.Warnings, 1)
	assert.Equal(t, "extreme_input", r.Warnings[0].Code)
}

// The plain walk reads a flat struct's floats at their offsets (a sweep
// point, the decode report); what it finds must be what the reflective,
// path-keeping walk names: the first non-finite figure, or the first
// extreme one, by its JSON path, at any index and in any field.
func TestCheckFiniteFlatStructs(t *testing.T) {
	t.Parallel()
	sweep := make([]spec.SweepPoint, 5)
	sweep[4].TokensPerSWithoutSpeculation = math.Inf(-1)
	r := spec.Report{Sweep: sweep}
	require.ErrorContains(t, Check(&r), "the report's sweep[4].tokens_per_s_without_speculation is not a finite number")

	// 1e-6 tokens/s is below one a day (1/86,400 = 1.16e-5): extreme, not
	// an error, and named by its path.
	sweep = make([]spec.SweepPoint, 3)
	sweep[2].TokensPerS = 1e-6
	r = spec.Report{Sweep: sweep}
	require.NoError(t, Check(&r))
	require.Len(t, r.Warnings, 1)
	assert.Contains(t, r.Warnings[0].Message, "the report's sweep[2].tokens_per_s is beyond any real deployment")

	r = spec.Report{Decode: &spec.DecodeReport{KVCacheUsage: math.NaN()}}
	require.ErrorContains(t, Check(&r), "the report's decode.kv_cache_usage is not a finite number")

	// A float32 field is read as a float32.
	type point struct {
		N  int     `json:"n"`
		X  float32 `json:"x_ms"`
		Y  float64 `json:"y"`
		ID string  `json:"id"`
	}
	pts := []point{{X: 1, Y: 2}, {X: float32(math.Inf(1))}}
	sc := scanReport(reflect.ValueOf(&pts).Elem())
	assert.True(t, sc.foundNF)
	assert.Equal(t, "[1].x_ms", sc.nonFinite)
	pts[1].X = 3
	sc = scanReport(reflect.ValueOf(&pts).Elem())
	assert.False(t, sc.foundNF)
	assert.False(t, sc.foundEx)
	pts[0].X = 2 * extremeMs // a float32 holds 1.728e8 exactly enough
	sc = scanReport(reflect.ValueOf(&pts).Elem())
	assert.True(t, sc.foundEx)
	assert.Equal(t, "[0].x_ms", sc.extreme)
}
