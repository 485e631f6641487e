package traffic

import (
	"math"

	"github.com/modelrefs/throughput/sched"
)

// Curve is a request rate that varies in time: Rates[i] requests per
// second at TimesS[i] seconds (TimesS ascending from 0; the curve ends at
// the last time). Steps holds each rate until the next point; otherwise
// the rate is linear between points.
type Curve struct {
	TimesS, Rates []float64
	Steps         bool
}

// Rate is the rate at t seconds (0 outside the curve).
func (c *Curve) Rate(t float64) float64 {
	n := len(c.TimesS)
	if n == 0 || t < 0 || t > c.TimesS[n-1] {
		return 0
	}
	i := c.segment(t)
	if i == n-1 {
		return c.Rates[i]
	}
	return c.rateIn(i, t)
}

// rateIn is the rate at t within the piece from point i to point i+1
// (a jump, two points at one time, is taken at its later point by Rate).
func (c *Curve) rateIn(i int, t float64) float64 {
	t0, t1 := c.TimesS[i], c.TimesS[i+1]
	if c.Steps || t1 <= t0 {
		return c.Rates[i]
	}
	return c.Rates[i] + (c.Rates[i+1]-c.Rates[i])*(t-t0)/(t1-t0)
}

// segment is the last point at or before t.
func (c *Curve) segment(t float64) int {
	lo, hi := 0, len(c.TimesS)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if c.TimesS[mid] <= t {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// DurationS is the curve's length in seconds.
func (c *Curve) DurationS() float64 {
	if len(c.TimesS) == 0 {
		return 0
	}
	return c.TimesS[len(c.TimesS)-1]
}

// Integral is the expected number of arrivals in [a, b] seconds: the
// integral of the rate (trapezoids between points, rectangles for steps).
func (c *Curve) Integral(a, b float64) float64 {
	a, b = math.Max(a, 0), math.Min(b, c.DurationS())
	if !(b > a) {
		return 0
	}
	var sum float64
	for i := 0; i < len(c.TimesS)-1 && c.TimesS[i] < b; i++ {
		lo, hi := math.Max(a, c.TimesS[i]), math.Min(b, c.TimesS[i+1])
		if hi <= lo {
			continue
		}
		if c.Steps {
			sum += c.Rates[i] * (hi - lo)
		} else {
			sum += (c.rateIn(i, lo) + c.rateIn(i, hi)) / 2 * (hi - lo)
		}
	}
	return sum
}

// MaxRate is the curve's largest rate (the thinning's bound: a piecewise
// linear rate peaks at a point).
func (c *Curve) MaxRate() float64 {
	m := 0.0
	for _, r := range c.Rates {
		m = math.Max(m, r)
	}
	return m
}

// Arrivals calls f with each arrival time, in order, of a non-homogeneous
// Poisson process of the curve's rate, drawn by thinning (P. A. W. Lewis
// and G. S. Shedler, "Simulation of nonhomogeneous Poisson processes by
// thinning", Naval Research Logistics Quarterly 26(3), 1979, algorithm 1):
// candidates come from a homogeneous process of the largest rate
// lambda*, and one at t is kept with probability lambda(t)/lambda*.
// Within a piece the bound is that piece's largest rate, so a day's quiet
// night costs few rejected candidates: each piece is a thinning of its
// own, and the pieces' processes are independent (the process restricted
// to disjoint intervals). One seed gives the same arrivals on every
// platform (sched.Rand). f returns false to stop.
func (c *Curve) Arrivals(seed uint64, f func(t float64) bool) {
	r := sched.NewRand(seed)
	for i := 0; i < len(c.TimesS)-1; i++ {
		t0, t1 := c.TimesS[i], c.TimesS[i+1]
		hi := c.Rates[i]
		if !c.Steps {
			hi = math.Max(hi, c.Rates[i+1])
		}
		if !(hi > 0) || !(t1 > t0) {
			continue
		}
		for t := t0; ; {
			t += r.ExpFloat64() / hi
			if t >= t1 {
				break
			}
			if u := r.Float64(); c.Steps || u*hi < c.rateIn(i, t) {
				if !f(t) {
					return
				}
			}
		}
	}
}
