package evaluate

import (
	"testing"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/cputime"
	"github.com/modelrefs/throughput/internal/probemodel"
)

// BenchmarkWorkBudget runs, through Evaluate and under DefaultWorkBudget,
// the dearest requests the budget accepts: issue 16's request cut to the
// 230 requests its refusal suggests (a batch of about 200 sequences
// decoding 16,000 tokens, with preemption), a default 8-point sweep of
// 128+2048-token requests cut to 40 requests per point (its refusal
// suggests 50, which the onset bisection puts just over), 1 user issuing
// 100k-token-prompt requests, and issue 35's probe model at the most
// KV-cache groups served (64) and block size 1, cut to 450 requests
// (about 3.9e6 units). It reports the
// estimated work units per op and the native ns per unit
// (NsPerWorkUnit's measurement) beside ns/op.
func BenchmarkWorkBudget(b *testing.B) {
	l8 := func(hw string, in, out int, s *spec.SimulateOptions) spec.Request {
		return spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: hw}, Workload: &spec.Workload{InputTokens: spec.Int(in), OutputTokens: spec.Int(out)}, Simulate: s}
	}
	issue := l8("h200", 1, 16000, &spec.SimulateOptions{NumRequests: spec.Int(230), Arrival: "burst", TimelinePoints: spec.Int(2000)})
	issue.KVCacheDtype, issue.MaxNumSeqs = "fp8", spec.Int(1024)
	for _, c := range []struct {
		name string
		req  spec.Request
	}{
		{"issue16-230-requests", issue},
		{"sweep-40-per-point", l8("h100-sxm", 128, 2048, &spec.SimulateOptions{Sweep: &spec.SimSweepOptions{NumRequests: spec.Int(40)}})},
		{"closed-loop-1-user", l8("h100-sxm", 1024, 256, &spec.SimulateOptions{NumRequests: spec.Int(1200), Arrival: "closed_loop", Concurrency: spec.Int(1)})},
		{"64-kv-groups-block-1", spec.Request{ModelConfig: probemodel.Groups(64), Hardware: spec.HardwareRef{ID: "h200"}, BlockSize: spec.Int(1), Simulate: &spec.SimulateOptions{NumRequests: spec.Int(450)}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			est, err := EstimateWork(c.req)
			if err != nil {
				b.Fatal(err)
			}
			if est.Total > DefaultWorkBudget || est.Total < 0.5*DefaultWorkBudget {
				b.Fatalf("estimate %.3g: not near the budget", est.Total)
			}
			b.ReportAllocs()
			cpu0 := cputime.Seconds()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := Evaluate(c.req); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if cpu := cputime.Seconds() - cpu0; cpu > 0 {
				b.ReportMetric(cpu*1e3/float64(b.N), "cpu-ms/op")
			}
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(est.Total, "units/op")
			b.ReportMetric(sec*1e9/est.Total, "ns/unit")
		})
	}
}

// BenchmarkRefusal prices and refuses the dearest request to price: a
// 32-point sweep of 100,000-request runs with lognormal lengths on top of
// a 100,000-request run (the estimate draws each length distribution's
// first 1,024 samples once).
func BenchmarkRefusal(b *testing.B) {
	req := spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, Workload: &spec.Workload{InputTokens: spec.Int(1024), OutputTokens: spec.Int(4096)},
		Simulate: &spec.SimulateOptions{NumRequests: spec.Int(100_000), Arrival: "poisson", RequestRate: spec.Float(10),
			InputTokens:  &spec.LengthDistribution{Distribution: "lognormal", Mean: spec.Float(1000), Std: spec.Float(2000)},
			OutputTokens: &spec.LengthDistribution{Distribution: "lognormal", Mean: spec.Float(4000), Std: spec.Float(2000)},
			Sweep:        &spec.SimSweepOptions{Points: spec.Int(32), NumRequests: spec.Int(100_000)}}}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Evaluate(req); err == nil {
			b.Fatal("accepted")
		}
	}
}
