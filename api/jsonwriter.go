package api

import (
	"strconv"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/internal/jsonx"
)

// report_json.go (appendReport and the rest) is generated from calc.Report's
// types; fixture_json_test.go and fixture_types_test.go are the generator's
// own fixture, checked against encoding/json in report_json_test.go.
//go:generate go run ../tools/gen/reportjson -o report_json.go -fixture fixture_json_test.go -fixture-types fixture_types_test.go

// appendReportJSON appends r's JSON text to b, byte for byte what
// encoding/json's Marshal writes, without reflection: under WebAssembly
// Marshal's reflection and float formatting were the largest cost of POST
// /v1/evaluate. The error is Marshal's: a NaN or infinite float.
func appendReportJSON(b []byte, r *calc.Report) ([]byte, error) {
	w := jsonWriter{b: b}
	appendReport(&w, r)
	return w.b, w.err
}

// jsonWriter is what the generated encoder in report_json.go appends
// through. Each method appends a literal (a key with its separator, an
// opening bracket; "" for none) and then one value, encoding it as
// encoding/json does (jsonx's strings and floats match it). The first NaN
// or infinite float is kept in err; the text is then unusable.
//
// The methods are noinline: the generated code calls them a few hundred
// times, and inlined they would add 126 KB to the worker's wasm instead of
// 51 KB (-ldflags='-s -w'), for no speed we could measure.
type jsonWriter struct {
	b   []byte
	err error
}

// lit appends s, JSON text already.
//
//go:noinline
func (w *jsonWriter) lit(s string) { w.b = append(w.b, s...) }

//go:noinline
func (w *jsonWriter) string(key, v string) {
	w.b = jsonx.AppendString(append(w.b, key...), v)
}

//go:noinline
func (w *jsonWriter) bool(key string, v bool) {
	w.b = strconv.AppendBool(append(w.b, key...), v)
}

//go:noinline
func (w *jsonWriter) int(key string, v int64) {
	w.b = strconv.AppendInt(append(w.b, key...), v, 10)
}

//go:noinline
func (w *jsonWriter) uint(key string, v uint64) {
	w.b = strconv.AppendUint(append(w.b, key...), v, 10)
}

//go:noinline
func (w *jsonWriter) float64(key string, v float64) { w.float(key, v, 64) }

//go:noinline
func (w *jsonWriter) float32(key string, v float32) { w.float(key, float64(v), 32) }

func (w *jsonWriter) float(key string, v float64, bits int) {
	b, err := jsonx.AppendFloat(append(w.b, key...), v, bits)
	if err != nil && w.err == nil {
		w.err = err
	}
	w.b = b
}
