package traffic

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The thinned process's count over an interval is Poisson with mean the
// rate's integral there. A ramp from 0 to 100 req/s over 100 s has
// integral 100 x 100 / 2 = 5,000 arrivals; over [20, 40] s, (20 + 40) / 2
// x 20 = 600. A Poisson count of mean m has standard deviation sqrt(m):
// each count must lie within 4 of them (a two-sided 4-sigma band: a
// chance of about 6e-5 that a correct generator fails, for this one
// fixed seed), and so must the mean of 20 seeds' counts, within 4
// sqrt(m / 20).
func TestThinningCountMatchesTheIntegral(t *testing.T) {
	for _, steps := range []bool{false, true} {
		c := Curve{TimesS: []float64{0, 100, 100, 200}, Rates: []float64{0, 100, 10, 10}, Steps: steps}
		whole, part := 5000.0+1000, 600.0
		if steps {
			// Steps hold 0 on [0, 100) and 10 on [100, 200): 1,000
			// arrivals, none in [20, 40].
			whole, part = 1000, 0
		}
		assert.InDelta(t, whole, c.Integral(0, 200), 1e-9)
		assert.InDelta(t, part, c.Integral(20, 40), 1e-9)
		var sumAll, sumPart float64
		const seeds = 20
		for seed := uint64(0); seed < seeds; seed++ {
			var n, in float64
			last := -1.0
			c.Arrivals(seed, func(t float64) bool {
				if t < last {
					panic("arrivals out of order")
				}
				last = t
				n++
				if t >= 20 && t <= 40 {
					in++
				}
				return true
			})
			assert.InDelta(t, whole, n, 4*math.Sqrt(whole), "seed %d", seed)
			assert.InDelta(t, part, in, 4*math.Sqrt(part)+1e-9, "seed %d", seed)
			sumAll += n
			sumPart += in
		}
		assert.InDelta(t, whole, sumAll/seeds, 4*math.Sqrt(whole/seeds))
		assert.InDelta(t, part, sumPart/seeds, 4*math.Sqrt(part/seeds)+1e-9)
	}
}

func TestCurveRate(t *testing.T) {
	c := Curve{TimesS: []float64{0, 10, 30}, Rates: []float64{2, 4, 0}}
	assert.Equal(t, 3.0, c.Rate(5))
	assert.Equal(t, 2.0, c.Rate(20))
	assert.Equal(t, 0.0, c.Rate(31))
	c.Steps = true
	assert.Equal(t, 2.0, c.Rate(5))
	assert.Equal(t, 4.0, c.Rate(20))
	assert.Equal(t, 2*10+4*20.0, c.Integral(0, 30))
}
