package main

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/modelrefs/throughput/calc"
)

// TestReportEncoderMatchesMarshal fills every field of calc.Report with
// awkward values (escapes, tiny and huge floats, -0, nil and empty slices)
// and checks the bridge's JSON text writes what json.Marshal writes.
func TestReportEncoderMatchesMarshal(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		var r calc.Report
		fill(rng, reflect.ValueOf(&r).Elem(), i%3 == 0)
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := marshal(&r)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Fatalf("case %d differs:\n got %s\nwant %s", i, got, want)
		}
	}
}

// TestReportEncoderGolden runs the golden requests through the bridge's
// evaluate and compares with json.Marshal of the same report.
func TestReportEncoderGolden(t *testing.T) {
	t.Parallel()
	for _, r := range goldenReports(t) {
		want, _ := json.Marshal(r)
		got, err := marshal(&r)
		if err != nil || got != string(want) {
			t.Errorf("%s: JSON text differs from json.Marshal (err %v)", r.Model.ID, err)
		}
	}
	got, err := evaluate(string(goldenRequest(t, "dense-llama-3.1-8b-h100")))
	if err != nil || !strings.HasPrefix(got, `{"version":"`) {
		t.Errorf("evaluate: %.40s, %v", got, err)
	}
}

const goldenDir = "../../calc/testdata/golden/"

func goldenRequest(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(goldenDir + name + ".request.json")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// goldenReports evaluates every golden request that is not an error case.
func goldenReports(t *testing.T) []calc.Report {
	t.Helper()
	paths, _ := filepath.Glob(goldenDir + "*.request.json")
	var out []calc.Report
	for _, p := range paths {
		if strings.Contains(p, "/error-") {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		req, err := calc.ParseRequest(data)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := calc.Evaluate(req)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rep)
	}
	if len(out) < 10 {
		t.Fatalf("only %d golden reports", len(out))
	}
	return out
}

var awkwardStrings = []string{"", "memory", `say "hi" \ <b>&`, "\u2028 line \n\t", "bad \xff", "ünïcödé 𝄞"}

// fill sets every exported field reachable from v to a random value; with
// sparse, about half the pointers and slices stay nil or empty.
func fill(rng *rand.Rand, v reflect.Value, sparse bool) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(awkwardStrings[rng.IntN(len(awkwardStrings))])
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 1)
	case reflect.Int, reflect.Int64, reflect.Int32:
		if rng.IntN(4) > 0 {
			v.SetInt(rng.Int64N(1<<40) - 1<<39)
		}
	case reflect.Float64:
		switch rng.IntN(6) {
		case 0:
		case 1:
			v.SetFloat(math.Copysign(0, -1))
		case 2:
			v.SetFloat(float64(rng.Int64N(1 << 50)))
		case 3:
			v.SetFloat(math.Pow(10, rng.Float64()*60-30))
		default:
			v.SetFloat(rng.NormFloat64() * 1e6)
		}
	case reflect.Pointer:
		if sparse && rng.IntN(2) == 0 {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fill(rng, v.Elem(), sparse)
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
			fill(rng, v.Index(i), sparse)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(rng, v.Field(i), sparse)
			}
		}
	default:
		panic("fill: unsupported kind " + v.Kind().String())
	}
}
