package deploy

import (
	"strconv"
	"testing"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/cputime"
)

// benchSim resolves Llama-3.1-8B on one H100 SXM and returns a function
// that runs one simulation of n requests (1024 in, 256 out) arriving as
// a Poisson process at 20 requests/s (about 80 running, below the
// scheduler's cap of 256), through the report path Evaluate uses.
func benchSim(b *testing.B, n int, arrival string) func() *spec.SimulationReport {
	b.Helper()
	return benchSimOf(b, n, arrival, false)
}

// benchSimOf is benchSim, with prefix caching (a 512-token shared prefix
// over 8 prefixes) and speculative decoding (EAGLE, k = 3, a = 0.7) on
// when features is true.
func benchSimOf(b *testing.B, n int, arrival string, features bool) func() *spec.SimulationReport {
	b.Helper()
	return benchSimEngine(b, n, arrival, features, "")
}

// benchSimEngine is benchSimOf under engine (""; vLLM).
func benchSimEngine(b *testing.B, n int, arrival string, features bool, engine string) func() *spec.SimulationReport {
	b.Helper()
	req := spec.Request{
		Model: "meta-llama/Llama-3.1-8B-Instruct", Hardware: spec.HardwareRef{ID: "h100-sxm"}, Engine: engine,
		Workload: &spec.Workload{InputTokens: spec.Int(1024), OutputTokens: spec.Int(256)},
		Simulate: &spec.SimulateOptions{NumRequests: spec.Int(n), Arrival: arrival},
	}
	if features {
		req.Workload.SharedPrefixTokens, req.Workload.NumPrefixes = spec.Int(512), spec.Int(8)
		req.SpeculativeConfig = &spec.SpeculativeConfig{NumSpeculativeTokens: spec.Int(3), AcceptanceRate: spec.Float(0.7)}
	}
	switch arrival {
	case "poisson":
		req.Simulate.RequestRate = spec.Float(20)
	case "closed_loop":
		req.Simulate.Concurrency = spec.Int(256)
	}
	d, p, err := resolve(req)
	if err != nil {
		b.Fatal(err)
	}
	sp, err := simulateOptions(req.Simulate, d, p, nil)
	if err != nil {
		b.Fatal(err)
	}
	base := Assemble(d, p)
	return func() *spec.SimulationReport {
		r := base
		r.Warnings = nil
		Simulator(d, &r, p, sp)
		if r.Simulation == nil || r.Simulation.CompletedRequests != n {
			b.Fatal("simulation incomplete")
		}
		return r.Simulation
	}
}

// BenchmarkSimulate reports ns/op for one whole simulation, plus steps
// per second and ns per request, at 1k, 10k and 100k requests: the cost
// grows linearly with the requests.
func BenchmarkSimulate(b *testing.B) {
	for _, arrival := range []string{"poisson", "closed_loop"} {
		for _, n := range []int{1000, 10_000, 100_000} {
			b.Run(arrival+"/requests="+strconv.Itoa(n), func(b *testing.B) {
				sim := benchSim(b, n, arrival)
				var steps int64
				b.ReportAllocs()
				cpu0 := cputime.Seconds()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					steps = sim().Steps
				}
				b.StopTimer()
				if cpu := cputime.Seconds() - cpu0; cpu > 0 {
					b.ReportMetric(cpu*1e3/float64(b.N), "cpu-ms/op")
				}
				sec := b.Elapsed().Seconds() / float64(b.N)
				b.ReportMetric(float64(steps)/sec, "steps/s")
				b.ReportMetric(sec*1e9/float64(n), "ns/request")
			})
		}
	}
}

// BenchmarkSimulateEngines is 10,000 closed-loop requests at concurrency
// 256 under vLLM's scheduler and under SGLang's (prefill first, overlap,
// the admission reserve and retraction: sched.Config.ReserveOutput), to
// compare their cost per request.
func BenchmarkSimulateEngines(b *testing.B) {
	for _, engine := range []string{"vllm", "sglang"} {
		b.Run(engine, func(b *testing.B) {
			sim := benchSimEngine(b, 10_000, "closed_loop", false, engine)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				sim()
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)*1e9/10_000, "ns/request")
		})
	}
}

// BenchmarkSimulateFeatures is 10,000 Poisson requests with prefix caching
// and speculative decoding on (budget: 100 ms natively).
func BenchmarkSimulateFeatures(b *testing.B) {
	sim := benchSimOf(b, 10_000, "poisson", true)
	b.ReportAllocs()
	cpu0 := cputime.Seconds()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sim()
	}
	b.StopTimer()
	if cpu := cputime.Seconds() - cpu0; cpu > 0 {
		b.ReportMetric(cpu*1e3/float64(b.N), "cpu-ms/op")
	}
}
