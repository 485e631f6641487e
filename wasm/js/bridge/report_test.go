package bridge

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/internal/jsongen"
)

// TestReportEncoderMatchesMarshal fills every field of calc.Report with
// awkward values (escapes, tiny and huge floats, -0, nil and empty slices)
// and checks the bridge's JSON text writes what json.Marshal writes.
func TestReportEncoderMatchesMarshal(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		var r calc.Report
		jsongen.Fill(rng, reflect.ValueOf(&r).Elem(), i%3 == 0)
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
	got, err := evaluate(string(goldenRequest(t, "dense-llama-3.1-8b-h100")), calc.DefaultWorkBudget)
	if err != nil || !strings.HasPrefix(got, `{"version":"`) {
		t.Errorf("evaluate: %.40s, %v", got, err)
	}
}

const goldenDir = "../../../calc/testdata/golden/"

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
