package jsongen

import (
	"math"
	"math/rand/v2"
	"reflect"
)

// awkwardStrings are strings encoding/json escapes in every way it knows:
// quotes and backslashes, HTML's <, > and &, control characters, U+2028
// and U+2029, invalid UTF-8 (written as U+FFFD), and plain multi-byte
// text, which it leaves alone.
var awkwardStrings = []string{
	"", "memory", `say "hi" \ <b>&amp;</b>`, "\u2028 line \u2029 \n\t\r\b\f",
	"ctl \x00\x01\x1f\x7f", "bad \xff \xc3( \xed\xa0\x80 end\xe2\x82", "ünïcödé 𝄞 中文", "\ufffd",
}

// awkwardFloats are values at the edges of encoding/json's float format:
// -0, where it switches between plain and exponent notation (1e-6, 1e21),
// integers around 2^53, the smallest and largest float64s.
var awkwardFloats = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.1, 1e-6, 9.999999999999999e-7, 1e-7, -1e-7,
	1e20, 999999999999999999999, 1e21, -1e21, 1.5e300, 1 << 53, 1<<53 + 2, 1<<53 - 1,
	math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64, 123456789.125,
}

// Fill sets every exported field reachable from v (settable) to a random
// value from rng, awkward for a JSON encoder: the strings and floats
// above, floats of every magnitude and sign, large and negative integers.
// With sparse, pointers, slices and maps are nil or empty about half the
// time (an empty slice or map is still non-nil at times); otherwise they
// hold values, down to maxFillDepth (recursive types end there). Interfaces
// and channels and the like are not filled.
func Fill(rng *rand.Rand, v reflect.Value, sparse bool) { fill(rng, v, sparse, 0) }

// maxFillDepth is how many pointers, slices and maps deep fill goes.
const maxFillDepth = 5

func fill(rng *rand.Rand, v reflect.Value, sparse bool, depth int) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map:
		if depth == maxFillDepth {
			return
		}
		depth++
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(awkwardStrings[rng.IntN(len(awkwardStrings))])
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		switch rng.IntN(4) {
		case 0:
		case 1:
			v.SetInt(-1 << (v.Type().Bits() - 1)) // the most negative
		default:
			v.SetInt(rng.Int64() >> (65 - v.Type().Bits()) * int64(1-2*rng.IntN(2)))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if rng.IntN(4) > 0 {
			v.SetUint(rng.Uint64() >> (64 - v.Type().Bits()))
		}
	case reflect.Float64:
		v.SetFloat(randomFloat(rng))
	case reflect.Float32:
		f := randomFloat(rng)
		if math.IsInf(float64(float32(f)), 0) {
			f = math.Copysign(math.MaxFloat32, f)
		}
		v.SetFloat(f)
	case reflect.Pointer:
		if sparse && rng.IntN(2) == 0 {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fill(rng, v.Elem(), sparse, depth)
	case reflect.Slice:
		n := rng.IntN(4)
		if sparse && n == 0 {
			if rng.IntN(2) == 0 {
				v.Set(reflect.MakeSlice(v.Type(), 0, 0)) // empty, not nil
			}
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			fill(rng, v.Index(i), sparse, depth)
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(rng, v.Index(i), sparse, depth)
		}
	case reflect.Map:
		n := rng.IntN(4)
		if sparse && n == 0 {
			if rng.IntN(2) == 0 {
				v.Set(reflect.MakeMap(v.Type())) // empty, not nil
			}
			return
		}
		v.Set(reflect.MakeMap(v.Type()))
		for range n {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(rng, k, sparse, depth)
			fill(rng, e, sparse, depth)
			v.SetMapIndex(k, e)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(rng, v.Field(i), sparse, depth)
			}
		}
	}
}

// randomFloat is an awkward float one time in three, else a random one:
// zero, an integer up to 2^60, a power of ten from 1e-30 to 1e30 times a
// random mantissa, or a normally distributed value, either sign.
func randomFloat(rng *rand.Rand) float64 {
	if rng.IntN(3) == 0 {
		return awkwardFloats[rng.IntN(len(awkwardFloats))]
	}
	sign := float64(1 - 2*rng.IntN(2))
	switch rng.IntN(4) {
	case 0:
		return 0
	case 1:
		return sign * float64(rng.Int64N(1<<60))
	case 2:
		return sign * math.Pow(10, rng.Float64()*60-30)
	}
	return rng.NormFloat64() * 1e6
}
