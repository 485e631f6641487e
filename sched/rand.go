package sched

import "math"

// Rand is a xoshiro256** generator seeded through splitmix64. It is used
// instead of math/rand so that a seed gives the same stream on every
// platform and Go version, native and WebAssembly alike. Its float
// helpers use only IEEE-exact operations (+, -, *, /, sqrt, Frexp, Ldexp,
// Floor) with explicit conversions that forbid fused multiply-adds, so
// the sampled values are bit-identical across platforms too (math.Log and
// math.Exp have assembly versions on amd64 that differ from the pure-Go
// ones used by WebAssembly).
type Rand struct{ s [4]uint64 }

// splitmix64 advances x and returns the next splitmix64 output.
func splitmix64(x *uint64) uint64 {
	*x += 0x9e3779b97f4a7c15
	z := *x
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// NewRand returns a generator whose state is four splitmix64 outputs of
// seed (any seed, zero included, gives a valid non-zero state).
func NewRand(seed uint64) *Rand {
	r := &Rand{}
	for i := range r.s {
		r.s[i] = splitmix64(&seed)
	}
	return r
}

func rotl(x uint64, k uint) uint64 { return x<<k | x>>(64-k) }

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	s := &r.s
	out := rotl(s[1]*5, 7) * 9
	t := s[1] << 17
	s[2] ^= s[0]
	s[3] ^= s[1]
	s[1] ^= s[2]
	s[0] ^= s[3]
	s[2] ^= t
	s[3] = rotl(s[3], 45)
	return out
}

// Float64 returns a uniform number in [0, 1) with 53 random bits.
func (r *Rand) Float64() float64 { return float64(r.Uint64()>>11) * 0x1p-53 }

// ExpFloat64 returns an exponential variate of mean 1: -ln(1-U).
func (r *Rand) ExpFloat64() float64 { return -ln(1 - r.Float64()) }

// NormFloat64 returns a standard normal variate (Marsaglia's polar
// method, one of each pair used).
func (r *Rand) NormFloat64() float64 {
	for {
		u := 2*r.Float64() - 1
		v := 2*r.Float64() - 1
		s := float64(u*u) + float64(v*v)
		if s > 0 && s < 1 {
			return u * math.Sqrt(-2*ln(s)/s)
		}
	}
}

const (
	ln2 = 0.693147180559945309417232121458176568
	// ln2Hi + ln2Lo = ln2, ln2Hi with 32 significant bits so k*ln2Hi is
	// exact for |k| < 2^20 (Cody-Waite reduction; fdlibm's constants).
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
)

// ln returns the natural logarithm of x > 0 (finite), accurate to a few
// ulp: x = m * 2^e with m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(s) with
// s = (m-1)/(m+1), |s| < 0.172, summed to 12 odd terms. Special cases:
// x <= 0 gives -Inf (callers never pass it), +Inf gives +Inf.
func ln(x float64) float64 {
	if x <= 0 {
		return math.Inf(-1)
	}
	if math.IsInf(x, 1) {
		return x
	}
	m, e := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	s := (m - 1) / (m + 1)
	s2 := float64(s * s)
	// sum_{k=0}^{11} s2^k / (2k+1), Horner from the highest term.
	var p float64
	for k := 11; k >= 0; k-- {
		p = float64(p*s2) + 1/float64(2*k+1)
	}
	return float64(float64(e)*ln2) + float64(2*s*p)
}

// exp returns e^x for |x| < 700, accurate to a few ulp: x = k ln2 + r
// with |r| <= ln2/2 (ln2 split in two so the reduction is exact), e^r by its Taylor series to 20 terms, scaled by 2^k.
// Special cases: x > 700 gives +Inf, x < -700 gives 0.
func exp(x float64) float64 {
	switch {
	case x > 700:
		return math.Inf(1)
	case x < -700:
		return 0
	}
	k := math.Floor(x/ln2 + 0.5)
	r := (x - float64(k*ln2Hi)) - float64(k*ln2Lo)
	p := 1.0
	for n := 20; n >= 1; n-- {
		p = float64(p*r)/float64(n) + 1
	}
	return math.Ldexp(p, int(k))
}
