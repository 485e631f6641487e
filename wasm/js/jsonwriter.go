package main

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// jsonWriter appends JSON exactly as encoding/json's Marshal writes it
// (HTML-safe string escapes, ES6-style floats), without reflection: the
// report encoder generated into report_json.go uses it, because reflection
// is slow under WebAssembly. A non-finite float is an error, as in Marshal.
type jsonWriter struct {
	b   []byte
	err error
}

// key appends the separator and a field name that needs no escaping
// (json tags): `,"name":` or `"name":` for the first field.
//
//go:noinline
func (w *jsonWriter) key(first bool, name string) {
	if !first {
		w.b = append(w.b, ',')
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, name...)
	w.b = append(w.b, '"', ':')
}

//go:noinline
func (w *jsonWriter) bool(v bool) { w.b = strconv.AppendBool(w.b, v) }

//go:noinline
func (w *jsonWriter) int(v int64) { w.b = strconv.AppendInt(w.b, v, 10) }

// maxExactInt is the largest magnitude below which every integral float64
// prints the same through AppendInt as through AppendFloat('f', -1).
const maxExactInt = 1 << 53

// float appends f as encoding/json does: 'f' format, or 'e' below 1e-6 and
// from 1e21 on, with the exponent's leading zero dropped ("1e-7").
//
//go:noinline
func (w *jsonWriter) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		if w.err == nil {
			w.err = &unsupportedFloatError{f}
		}
		w.b = append(w.b, '0')
		return
	}
	// Integral values (byte counts, FLOPs) take the fast path; -0 does not.
	if f == math.Trunc(f) && math.Abs(f) < maxExactInt && (f != 0 || !math.Signbit(f)) {
		w.b = strconv.AppendInt(w.b, int64(f), 10)
		return
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	w.b = strconv.AppendFloat(w.b, f, format, -1, 64)
	if format == 'e' {
		if n := len(w.b); n >= 4 && w.b[n-4] == 'e' && w.b[n-3] == '-' && w.b[n-2] == '0' {
			w.b[n-2] = w.b[n-1]
			w.b = w.b[:n-1]
		}
	}
}

type unsupportedFloatError struct{ f float64 }

func (e *unsupportedFloatError) Error() string {
	return "json: unsupported value: " + strconv.FormatFloat(e.f, 'g', -1, 64)
}

const hexDigits = "0123456789abcdef"

// string appends s quoted as encoding/json does with HTML escaping on:
// <, > and & as \u003c, \u003e, \u0026; U+2028 and U+2029 escaped; invalid
// UTF-8 as \ufffd.
//
//go:noinline
func (w *jsonWriter) string(s string) {
	b := append(w.b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	w.b = append(b, '"')
}
