package calc_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/internal/cputime"
)

// dayCurve is a daily curve averaging 50 req/s: 10 req/s at midnight
// rising linearly to 90 at noon and back (mean (10 + 90) / 2 = 50, about
// 4.32 million requests a day).
func dayCurve() *calc.RateCurve {
	return &calc.RateCurve{TimesS: []float64{0, 43200, 86400}, Rates: []float64{10, 90, 10}}
}

// BenchmarkFleetDay is a day at 50 req/s average on an autoscaled fleet
// of Llama 3.1 8B on H100s (issue 33: at most 20 s natively), through
// calc.EvaluateWithBudget without a budget: the arrivals drawn by
// thinning, the two fleets at 1 s slices, and the check run of 1,000
// requests.
func BenchmarkFleetDay(b *testing.B) {
	req := calc.Request{Model: "meta-llama/Llama-3.1-8B-Instruct", Hardware: calc.HardwareRef{ID: "h100-sxm"},
		MaxModelLen: calc.Int(8192), Workload: &calc.Workload{InputTokens: calc.Int(1024), OutputTokens: calc.Int(256)},
		SLO:      &calc.SLO{TTFTMs: calc.Float(2000), TPOTMs: calc.Float(100)},
		Simulate: &calc.SimulateOptions{RateCurve: dayCurve(), Autoscale: &calc.AutoscaleOptions{MaxReplicas: calc.Int(16)}}}
	var r calc.Report
	var err error
	cpu0 := cputime.Seconds()
	for b.Loop() {
		r, err = calc.EvaluateWithBudget(req, math.Inf(1))
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Seconds()-cpu0)*1e3/float64(b.N), "cpu-ms/op")
	f := r.Simulation.Traffic
	b.ReportMetric(float64(f.Requests), "requests")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)*1e9/float64(f.Requests), "ns/request")
}

// hourTrace is a plain CSV trace of n requests over an hour (evenly
// spaced, 1,024 in, 256 out).
func hourTrace(n int) string {
	var sb strings.Builder
	sb.WriteString("arrival_s,input_tokens,output_tokens\n")
	for i := range n {
		sb.WriteString(strconv.FormatFloat(3600*float64(i)/float64(n), 'f', 3, 64) + ",1024,256\n")
	}
	return sb.String()
}

// BenchmarkTraceHour replays a one-hour trace of 100,000 requests (27.8
// req/s) on one instance step by step, parsing included (issue 33: at
// most 2 s in the browser engine; scripts/bench-sim-wasm.mjs --trace
// measures that).
func BenchmarkTraceHour(b *testing.B) {
	req := calc.Request{Model: "meta-llama/Llama-3.1-8B-Instruct", Hardware: calc.HardwareRef{ID: "h100-sxm"},
		MaxModelLen: calc.Int(8192), Workload: &calc.Workload{InputTokens: calc.Int(1024), OutputTokens: calc.Int(256)},
		Simulate: &calc.SimulateOptions{Trace: &calc.TraceOptions{Format: "csv", Data: hourTrace(100_000)}}}
	cpu0 := cputime.Seconds()
	for b.Loop() {
		if _, err := calc.EvaluateWithBudget(req, math.Inf(1)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Seconds()-cpu0)*1e3/float64(b.N), "cpu-ms/op")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)*1e9/100_000, "ns/request")
}
