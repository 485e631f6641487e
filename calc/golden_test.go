package calc_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelrefs/throughput/calc"
)

// updateGolden rewrites testdata/golden/*.report.json and *.errors.json from
// the engine: go test ./calc -run TestGolden -update (or
// THROUGHPUT_UPDATE_GOLDEN=1). The JavaScript module's tests
// (www/test/golden.test.mjs) check that the WebAssembly build answers the
// same requests with the same JSON.
var updateGolden = flag.Bool("update", os.Getenv("THROUGHPUT_UPDATE_GOLDEN") == "1", "rewrite the golden reports in testdata/golden")

// TestGolden evaluates every testdata/golden/NAME.request.json and compares
// the answer, as indented JSON, with NAME.report.json, or with
// NAME.errors.json (the FieldError list) for requests named error-*.
func TestGolden(t *testing.T) {
	requests, err := filepath.Glob(filepath.Join("testdata", "golden", "*.request.json"))
	if err != nil || len(requests) < 10 {
		t.Fatalf("want at least 10 golden requests, found %d (%v)", len(requests), err)
	}
	for _, path := range requests {
		name := strings.TrimSuffix(filepath.Base(path), ".request.json")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got, kind := answer(t, in)
			wantErrors := strings.HasPrefix(name, "error-")
			if wantErrors != (kind == "errors") {
				t.Fatalf("%s answered with %s: %s", name, kind, got)
			}
			golden := filepath.Join("testdata", "golden", name+"."+kind+".json")
			if *updateGolden {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./calc -run TestGolden -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the engine's answer; if the change is intended, run go test ./calc -run TestGolden -update\n got: %.600s", golden, got)
			}
		})
	}
}

// answer evaluates one JSON request and returns its report or its error
// list as indented JSON, and which of the two it is.
func answer(t *testing.T, request []byte) ([]byte, string) {
	t.Helper()
	var v any
	kind := "report"
	req, err := calc.ParseRequest(request)
	if err == nil {
		v, err = calc.Evaluate(req)
	}
	if err != nil {
		var list calc.Errors
		if !errors.As(err, &list) {
			t.Fatalf("error is not calc.Errors: %v", err)
		}
		v, kind = list, "errors"
	}
	out, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n'), kind
}
