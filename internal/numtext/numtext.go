// Package numtext writes numbers for the engine's messages to people: a
// count with thousands separators, a large count in short scientific form,
// a count scaled down and rounded to two significant figures (what to
// lower a setting to), and the plural ending of a noun. It is a leaf: it
// imports only the standard library.
package numtext

import (
	"math"
	"strconv"
)

// Thousands writes a count n >= 0 with a comma every three digits
// ("1,234,567").
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// FitN is n scaled by f, rounded down, and above 100 cut to two
// significant figures (a value to lower a setting to: 1234 x 0.5 is 610),
// at least 1.
func FitN(n int, f float64) int {
	x := math.Floor(float64(n) * f)
	if x >= 100 {
		p := math.Pow(10, math.Floor(math.Log10(x))-1)
		x = math.Floor(x/p) * p
	}
	return int(max(x, 1))
}

// Fit is FitN written with Thousands.
func Fit(n int, f float64) string { return Thousands(int64(FitN(n, f))) }

// Plural is "s" for any count but one.
func Plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Sci writes a count as 1.7e9 (two significant digits), or in full below
// 10,000.
func Sci(x float64) string {
	if x < 1e4 {
		return strconv.FormatFloat(math.Round(x), 'f', -1, 64)
	}
	s := strconv.FormatFloat(x, 'e', 1, 64) // 1.7e+09
	mant, exp := s[:3], s[4:]
	if exp[0] == '+' {
		exp = exp[1:]
	}
	for len(exp) > 1 && exp[0] == '0' {
		exp = exp[1:]
	}
	if mant[2] == '0' {
		mant = mant[:1]
	}
	return mant + "e" + exp
}
