package evaluate

import (
	"encoding/json"
	"testing"

	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/cputime"
)

func benchRequest() spec.Request {
	return spec.Request{
		Model: "meta-llama/Llama-3.1-8B-Instruct", Hardware: spec.HardwareRef{ID: "h100-sxm"},
		Workload:   &spec.Workload{InputTokens: spec.Int(1024), OutputTokens: spec.Int(256), Concurrency: spec.Int(64)},
		SLO:        &spec.SLO{TTFTMs: spec.Float(500), TPOTMs: spec.Float(30)},
		GPUHourUSD: spec.Float(2.5),
		Sweep:      &spec.SweepOptions{Points: spec.Int(64)},
	}
}

// BenchmarkEvaluate is one full report with a 64-point sweep, SLO search and
// cost (budget: median <= 50 us).
func BenchmarkEvaluate(b *testing.B) {
	req := benchRequest()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Evaluate(req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluateFeatures is BenchmarkEvaluate with prefix caching (a
// 512-token shared prefix) and speculative decoding (EAGLE, k = 3, a = 0.7)
// on: the speculation report adds a crossover search (budget: 50 us too).
func BenchmarkEvaluateFeatures(b *testing.B) {
	req := benchRequest()
	req.Workload.SharedPrefixTokens = spec.Int(512)
	req.SpeculativeConfig = &spec.SpeculativeConfig{NumSpeculativeTokens: spec.Int(3), AcceptanceRate: spec.Float(0.7)}
	benchCPU(b, req)
}

// benchCPU evaluates req b.N times and reports the process CPU time per
// call beside the wall time (the development machine is shared: wall time
// there includes waiting for a core).
func benchCPU(b *testing.B, req spec.Request) {
	b.ReportAllocs()
	cpu0 := cputime.Seconds()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Evaluate(req); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if cpu := cputime.Seconds() - cpu0; cpu > 0 {
		b.ReportMetric(cpu*1e6/float64(b.N), "cpu-us/op")
	}
}

// BenchmarkEvaluateNoServing is BenchmarkEvaluateCPU without the
// workload's concurrency: the same lengths, SLO, cost and sweep, no
// steady-state serving section. The difference of the two medians is what
// the serving section costs (issue 29's budget: at most 10 us).
func BenchmarkEvaluateNoServing(b *testing.B) {
	req := benchRequest()
	req.Workload.Concurrency = nil
	benchCPU(b, req)
}

// BenchmarkEvaluateCPU is BenchmarkEvaluate with its CPU time per call.
func BenchmarkEvaluateCPU(b *testing.B) { benchCPU(b, benchRequest()) }

// BenchmarkEvaluateMoE is the same for a 128-expert MoE model.
func BenchmarkEvaluateMoE(b *testing.B) {
	req := benchRequest()
	req.Model = "Qwen/Qwen3-30B-A3B"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Evaluate(req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluateJSON adds strict JSON decoding of the request and
// encoding of the report: what the JS bridge and the HTTP API pay.
func BenchmarkEvaluateJSON(b *testing.B) {
	body, _ := json.Marshal(benchRequest())
	b.ReportAllocs()
	for b.Loop() {
		req, err := ParseRequest(body)
		if err != nil {
			b.Fatal(err)
		}
		rep, err := Evaluate(req)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(rep); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeStep is one step of the cost model (the simulator's inner
// call).
func BenchmarkDecodeStep(b *testing.B) {
	d, err := deploy.Resolve(benchRequest())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		d.DecodeStep(64, 1152)
	}
}
