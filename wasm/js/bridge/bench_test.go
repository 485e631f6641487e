package bridge

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/modelrefs/throughput/calc"
)

// benchRequest is the request scripts/bench-wasm.mjs times through the
// JavaScript bridge: a 64-point sweep (the default) on a catalog model.
const benchRequestFile = "../../../calc/testdata/golden/dense-llama-3.1-8b-h100.request.json"

func readBenchRequest(b *testing.B) []byte {
	b.Helper()
	data, err := os.ReadFile(benchRequestFile)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkEvaluateJSON is the native cost of what one bridge call does:
// ParseRequest, Evaluate and json.Marshal of the report.
func BenchmarkEvaluateJSON(b *testing.B) {
	data := readBenchRequest(b)
	for b.Loop() {
		if _, err := evaluate(string(data), calc.DefaultWorkBudget); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluate is Evaluate alone on the parsed request.
func BenchmarkEvaluate(b *testing.B) {
	req, err := calc.ParseRequest(readBenchRequest(b))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := calc.Evaluate(req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseRequest and BenchmarkMarshalReport split the JSON work.
func BenchmarkParseRequest(b *testing.B) {
	data := readBenchRequest(b)
	for b.Loop() {
		if _, err := calc.ParseRequest(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshalReport(b *testing.B) {
	req, err := calc.ParseRequest(readBenchRequest(b))
	if err != nil {
		b.Fatal(err)
	}
	rep, err := calc.Evaluate(req)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := json.Marshal(rep); err != nil {
			b.Fatal(err)
		}
	}
}
