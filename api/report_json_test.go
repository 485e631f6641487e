package api

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/internal/jsongen"
)

// goldenRequests returns the engine's golden requests that evaluate
// (calc/testdata/golden/NAME.request.json, not the error-* ones), by name.
func goldenRequests(t testing.TB) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob("../calc/testdata/golden/*.request.json")
	require.NoError(t, err)
	out := map[string][]byte{}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".request.json")
		if strings.HasPrefix(name, "error-") {
			continue
		}
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		out[name] = data
	}
	require.GreaterOrEqual(t, len(out), 10, "golden requests")
	return out
}

// evaluateGolden is the engine's report for a golden request.
func evaluateGolden(t testing.TB, data []byte) calc.Report {
	t.Helper()
	req, err := calc.ParseRequest(data)
	require.NoError(t, err)
	r, err := calc.Evaluate(req)
	require.NoError(t, err)
	return r
}

// requireMarshalBytes requires appendReportJSON to write exactly what
// json.Marshal writes for r (after a prefix: it appends).
func requireMarshalBytes(t *testing.T, r *calc.Report, msg string) {
	t.Helper()
	want, err := json.Marshal(r)
	require.NoError(t, err, msg)
	got, err := appendReportJSON([]byte("prefix"), r)
	require.NoError(t, err, msg)
	requireSameText(t, "prefix"+string(want), string(got), msg)
}

// requireSameText fails with the first difference between want and got
// and the text around it, rather than both documents whole.
func requireSameText(t *testing.T, want, got, msg string) {
	t.Helper()
	if want == got {
		return
	}
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	lo := max(i-60, 0)
	require.Failf(t, "JSON text differs", "%s, at byte %d:\nwant …%q\n got …%q", msg, i, want[lo:min(i+60, len(want))], got[lo:min(i+60, len(got))])
}

// TestReportJSONGolden: for every golden request, the generated encoder
// writes json.Marshal's bytes, and so does POST /v1/evaluate (with a
// newline), twice in a row (the second from a reused buffer).
func TestReportJSONGolden(t *testing.T) {
	t.Parallel()
	h := New()
	for name, data := range goldenRequests(t) {
		r := evaluateGolden(t, data)
		requireMarshalBytes(t, &r, name)

		want, err := json.Marshal(r)
		require.NoError(t, err)
		for range 2 {
			req := httptest.NewRequest("POST", "/v1/evaluate", bytes.NewReader(data))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			require.Equal(t, http.StatusOK, rec.Code, name)
			requireSameText(t, string(want)+"\n", rec.Body.String(), name)
		}
	}
}

// TestReportJSONRandom fills calc.Report with random, awkward values
// (escapes, invalid UTF-8, floats of every magnitude, -0, nil and empty
// slices, nil and set pointers) and requires json.Marshal's bytes.
func TestReportJSONRandom(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 400 {
		var r calc.Report
		jsongen.Fill(rng, reflect.ValueOf(&r).Elem(), i%2 == 0)
		requireMarshalBytes(t, &r, "random report")
	}
}

// TestFixtureJSONRandom does the same for genFixture, whose encoder
// (fixture_json_test.go) exercises the generator's maps, uints, float32s,
// pointers to non-structs, nested slices, arrays, and structs whose first
// fields may be left out.
func TestFixtureJSONRandom(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(13, 17))
	for i := range 400 {
		var v genFixture
		jsongen.Fill(rng, reflect.ValueOf(&v).Elem(), i%2 == 0)
		want, err := json.Marshal(&v)
		require.NoError(t, err)
		w := jsonWriter{}
		appendGenFixture(&w, &v)
		require.NoError(t, w.err)
		requireSameText(t, string(want), string(w.b), "random genFixture")
	}
	w := jsonWriter{}
	appendGenFixture(&w, &genFixture{})
	assert.Equal(t, `{"ratio":0,"label":"","ptr":null,"ptr_ptr":null,"by_name":null,"grid":null,"items":null,"pair":[0,0],"big":0,"Default":false}`, string(w.b))
}

// TestReportJSONNonFinite sets each float of a fully filled report in turn
// to NaN, +Inf and -Inf: json.Marshal refuses each, and so must the
// generated encoder, with an error rather than a panic; encodeBody, which
// answers requests, panics so that Handler answers 500, and writes nothing.
func TestReportJSONNonFinite(t *testing.T) {
	t.Parallel()
	var r calc.Report
	jsongen.Fill(rand.New(rand.NewPCG(1, 2)), reflect.ValueOf(&r).Elem(), false)
	floats := 0
	for _, f := range floatFields(reflect.ValueOf(&r).Elem()) {
		old := f.Float()
		for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			f.SetFloat(bad)
			_, err := json.Marshal(r)
			require.Error(t, err, "json.Marshal")
			_, err = appendReportJSON(nil, &r)
			require.Error(t, err, "a float set to %v", bad)
		}
		f.SetFloat(old)
		floats++
	}
	require.Greater(t, floats, 100, "floats in a filled report")
	requireMarshalBytes(t, &r, "restored")

	r.Model.WeightBits = math.NaN()
	rec := httptest.NewRecorder()
	assert.Panics(t, func() { writeFresh(rec, nil, r) })
	assert.Panics(t, func() { writeJSON(rec, httptest.NewRequest("GET", "/", nil), &r) })
	assert.Zero(t, rec.Body.Len())
}

// floatFields lists the float64 values reachable from v, settable.
func floatFields(v reflect.Value) []reflect.Value {
	switch v.Kind() {
	case reflect.Float64:
		return []reflect.Value{v}
	case reflect.Pointer:
		if !v.IsNil() {
			return floatFields(v.Elem())
		}
	case reflect.Slice:
		var out []reflect.Value
		for i := range v.Len() {
			out = append(out, floatFields(v.Index(i))...)
		}
		return out
	case reflect.Struct:
		var out []reflect.Value
		for i := range v.NumField() {
			out = append(out, floatFields(v.Field(i))...)
		}
		return out
	}
	return nil
}

// BenchmarkReportJSON encodes the report of one golden request with
// encoding/json (std) and with the generated encoder (generated), twice in
// turn: under WebAssembly V8 tiers code up lazily, so read the second
// round (std#01, generated#01):
//
//	GOOS=js GOARCH=wasm PATH=$PATH:$(go env GOROOT)/lib/wasm go test -run '^$' -bench ReportJSON -benchmem ./wasm/api/
func BenchmarkReportJSON(b *testing.B) {
	r := evaluateGolden(b, goldenRequests(b)["dense-llama-3.1-8b-h100"])
	buf := make([]byte, 0, 32<<10)
	for range 2 {
		b.Run("std", func(b *testing.B) {
			for b.Loop() {
				if _, err := json.Marshal(r); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("generated", func(b *testing.B) {
			for b.Loop() {
				var err error
				if buf, err = appendReportJSON(buf[:0], &r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
