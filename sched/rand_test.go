package sched

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// splitmix64 from seed 0: the reference outputs published with the
// algorithm (Vigna, prng.di.unimi.it).
func TestSplitmix64Reference(t *testing.T) {
	t.Parallel()
	var x uint64
	want := []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f, 0xf88bb8a8724c81ec}
	for i, w := range want {
		assert.Equal(t, w, splitmix64(&x), "output %d", i)
	}
}

// ln and exp agree with the math package to a few ulp over the ranges the
// samplers use (the point of having them is bit-identical results on
// every platform, checked by TestStreamGolden under WebAssembly too).
func TestLnExpAccuracy(t *testing.T) {
	t.Parallel()
	for _, x := range []float64{1e-300, 1e-17, 0x1p-53, 0.001, 0.3, 0.5, 0.70710678, 1, 1.0000001, 2, math.E, 10, 1024, 1e6, 1e300} {
		assert.InEpsilon(t, math.Log(x)+1e-300, ln(x)+1e-300, 4e-16, "ln(%g)", x)
	}
	assert.Equal(t, 0.0, ln(1))
	for _, x := range []float64{-700, -50, -1, -1e-9, 0, 1e-9, 0.5, 1, 3.7, 20, 700} {
		assert.InEpsilon(t, math.Exp(x), exp(x), 4e-16, "exp(%g)", x)
	}
	assert.Equal(t, 1.0, exp(0))
}

// The variates have the moments they promise (200,000 draws; the
// tolerances are about 5 standard errors).
func TestVariateMoments(t *testing.T) {
	t.Parallel()
	r := NewRand(42)
	const n = 200_000
	var su, se, sn, sn2 float64
	for i := 0; i < n; i++ {
		su += r.Float64()
		se += r.ExpFloat64()
		z := r.NormFloat64()
		sn += z
		sn2 += z * z
	}
	assert.InDelta(t, 0.5, su/n, 0.004)
	assert.InDelta(t, 1, se/n, 0.012)
	assert.InDelta(t, 0, sn/n, 0.012)
	assert.InDelta(t, 1, sn2/n, 0.016)
}

// Pins the sampled lengths and arrival times of one seed. The same test
// runs under GOOS=js GOARCH=wasm, so a platform difference fails it.
func TestStreamGolden(t *testing.T) {
	t.Parallel()
	w := Workload{
		NumRequests: 2000, Seed: 7, Arrival: Poisson, RatePerS: 3.5,
		Input:  Dist{Kind: LogNormal, Mean: 1000, Std: 800},
		Output: Dist{Kind: Normal, Mean: 200, Std: 60, Min: 1, Max: 400},
	}
	reqs := make([]request, w.NumRequests)
	w.generate(reqs)
	var h uint64 = 14695981039346656037
	mix := func(v uint64) { h = (h ^ v) * 1099511628211 }
	for _, r := range reqs {
		mix(math.Float64bits(r.arrivalS))
		mix(uint64(r.input))
		mix(uint64(r.output))
	}
	assert.Equal(t, uint64(goldenStream), h)
	w.Input = Dist{Kind: Exponential, Mean: 300}
	w.Output = Dist{Kind: Uniform, Min: 10, Max: 20}
	w.generate(reqs)
	for _, r := range reqs {
		mix(uint64(r.input))
		mix(uint64(r.output))
	}
	assert.Equal(t, uint64(goldenStream2), h)
}

const (
	goldenStream  = 0x96e95d0c0459a7cc
	goldenStream2 = 0xfac61e025a845b0b
)

// Sampled lengths respect their bounds and roughly their means.
func TestDistSample(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		d        Dist
		mean     float64
		tol      float64
		min, max int
	}{
		{"constant", Dist{Kind: Constant, Mean: 512}, 512, 0, 512, 512},
		{"uniform", Dist{Kind: Uniform, Min: 10, Max: 20}, 15, 0.1, 10, 20},
		{"normal", Dist{Kind: Normal, Mean: 500, Std: 50}, 500, 1, 1, 0},
		{"lognormal", Dist{Kind: LogNormal, Mean: 500, Std: 250}, 500, 4, 1, 0},
		{"exponential", Dist{Kind: Exponential, Mean: 100}, 100, 1.5, 1, 0},
		{"clamped", Dist{Kind: Normal, Mean: 100, Std: 1000, Min: 50, Max: 60}, 55, 5, 50, 60},
	}
	for _, tt := range tests {
		r := NewRand(1)
		var sum float64
		const n = 50_000
		for i := 0; i < n; i++ {
			x := tt.d.sample(r)
			assert.GreaterOrEqual(t, x, tt.min, tt.name)
			if tt.max > 0 {
				assert.LessOrEqual(t, x, tt.max, tt.name)
			}
			sum += float64(x)
		}
		assert.InDelta(t, tt.mean, sum/n, tt.tol+1e-9, tt.name)
	}
}
