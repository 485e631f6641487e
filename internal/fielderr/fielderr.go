// Package fielderr is the one error type every layer of Throughput reports bad
// input with: a JSON path and what is wrong there. The JSON decoder, the
// accelerator and model importers, the KV geometry, the engine and every
// door (Go, the JavaScript module, HTTP) return Errors, so a problem reads
// the same wherever it is found:
//
//	[{"field": "tensor_parallel_size", "message": "3 does not divide the model's 32 attention heads"}]
//
// It is a leaf: it imports only the standard library.
package fielderr

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// ErrInvalid is what every Errors unwraps to: test for bad input with
// errors.Is(err, fielderr.ErrInvalid).
var ErrInvalid = errors.New("invalid input")

// Error is one problem with one field. Field is the JSON path of the value
// ("workload.input_tokens", "hardware.peak_flops.bf16",
// "model_config.text_config.hidden_size", "sources[2]"); it is empty for the
// input as a whole. Message says what is wrong, in words a user can act on.
type Error struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Error reads "field: message", or the message alone for the whole input.
func (e Error) Error() string {
	if e.Field == "" {
		return e.Message
	}
	return e.Field + ": " + e.Message
}

// Errors is the list of problems that stopped an input. No layer returns a
// partial result beside it.
type Errors []Error

// New returns the one-problem list {field, message}, the path cut to
// MaxPath (Path).
func New(path, message string) Errors {
	// make, not a one-element literal: the literal's array type would
	// bring its equality function into the .wasm engines.
	e := make(Errors, 1)
	e[0] = Error{Path(path), message}
	return e
}

// MaxPath is how many characters of a field path an error keeps at most: a
// path is built from the input's keys (an unknown key, a nesting a
// thousand levels deep), and must not come back whole. Join, New, Under
// and List.Add cut every path they build or take to MaxPath runes, with
// "…" after the cut, so no error path exceeds MaxPath runes and the "…".
const MaxPath = 200

// Path is p cut to MaxPath runes, with "…" after the cut.
func Path(p string) string { return cut(p, MaxPath) }

// Error joins the problems with "; ".
func (e Errors) Error() string {
	var b strings.Builder
	for i, f := range e {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(f.Error())
	}
	return b.String()
}

// Unwrap returns ErrInvalid.
func (e Errors) Unwrap() error { return ErrInvalid }

// Err returns e as an error, or nil when e is empty (a nil Errors stored in
// an error interface would not compare equal to nil).
func (e Errors) Err() error {
	if len(e) == 0 {
		return nil
	}
	return e
}

// Join returns the path of key under prefix: "" and "a" give "a", "w" and
// "a" give "w.a", and an index key ("[2]") is appended without a dot. The
// path is cut to MaxPath (Path).
func Join(prefix, key string) string {
	switch {
	case prefix == "":
		return Path(key)
	case key == "":
		return Path(prefix)
	case key[0] == '[':
		return Path(prefix + key)
	}
	return Path(prefix + "." + key)
}

// Under re-roots err's problems under prefix (Join(prefix, field)). An
// error that is not an Errors becomes one problem at prefix with its text.
// nil stays nil.
func Under(prefix string, err error) error {
	if err == nil {
		return nil
	}
	// errors.AsType, not errors.As: As's reflection (internal/reflectlite)
	// costs about 7 KB of the light engine's gzip.
	list, ok := errors.AsType[Errors](err)
	if !ok {
		return New(prefix, err.Error())
	}
	out := make(Errors, len(list))
	for i, f := range list {
		out[i] = Error{Join(prefix, f.Field), f.Message}
	}
	return out
}

// List collects problems as a validation goes, in the order found.
type List struct{ errs Errors }

// Add records one problem, its path cut to MaxPath (Path).
func (l *List) Add(path, message string) { l.errs = append(l.errs, Error{Path(path), message}) }

// AddErr records err's problems re-rooted under prefix (see Under).
func (l *List) AddErr(prefix string, err error) {
	if err == nil {
		return
	}
	list, _ := errors.AsType[Errors](Under(prefix, err))
	l.errs = append(l.errs, list...)
}

// Len is the number of problems so far.
func (l *List) Len() int { return len(l.errs) }

// Err returns the problems as Errors, or nil when there are none.
func (l *List) Err() error {
	if len(l.errs) == 0 {
		return nil
	}
	return l.errs
}

// MaxQuoted is how many characters of an input value a message quotes at
// most: a 10 MB model name must not come back in a 10 MB message.
const MaxQuoted = 200

// Quote is strconv.Quote of s cut to MaxQuoted runes, with "…" after the
// cut: every message that echoes an input value quotes it with Quote.
func Quote(s string) string {
	return strconv.Quote(Truncate(s))
}

// Truncate cuts s to MaxQuoted runes, appending "…" when it cuts.
func Truncate(s string) string { return cut(s, MaxQuoted) }

// cut cuts s to max runes, appending "…" when it cuts.
func cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// Number writes a number as every message quotes it: whole numbers below
// 1e15 in plain digits ("16777216", "-1"), others in the shortest form that
// reads back as x ("0.5", "1e-300", "2.5e+20", "NaN", "+Inf").
func Number(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}
