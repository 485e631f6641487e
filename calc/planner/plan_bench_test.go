package planner

import (
	"strconv"
	"testing"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/cputime"
)

// planBenchRequest is a plan over the whole catalog: Llama 3.1 8B at 20
// requests/s of 2048+500 tokens under TTFT <= 1 s and TPOT <= 50 ms.
func planBenchRequest() spec.PlanRequest {
	return spec.PlanRequest{
		Model:    "meta-llama/Llama-3.1-8B-Instruct",
		Workload: spec.PlanWorkload{RequestRate: spec.Float(20), InputTokens: spec.Int(2048), OutputTokens: spec.Int(500)},
		SLO:      spec.PlanSLO{TPOTMs: spec.Float(50), TTFTMs: spec.Float(1000)},
	}
}

// benchPlan runs req b.N times and reports its candidates and the CPU
// time per plan (the machine is shared: wall time overstates it).
func benchPlan(b *testing.B, req spec.PlanRequest) {
	var n int
	c0 := cputime.Seconds()
	for b.Loop() {
		r, err := Plan(req)
		if err != nil {
			b.Fatal(err)
		}
		n = r.Candidates
	}
	b.ReportMetric(float64(n), "candidates/op")
	b.ReportMetric((cputime.Seconds()-c0)/float64(b.N)*1e3, "cpu-ms/op")
}

// BenchmarkPlan is the whole-catalog plan under the default grid, the
// analytic search alone (verify.top 0; budget: 50 ms).
func BenchmarkPlan(b *testing.B) {
	req := planBenchRequest()
	req.Verify = &spec.PlanVerify{Top: spec.Int(0)}
	benchPlan(b, req)
}

// BenchmarkPlanVerified is BenchmarkPlan as a plan runs by default: the
// search, then the simulator's replay of the top five aggregated
// deployments, 200 requests each (budget: 300 ms beyond BenchmarkPlan).
func BenchmarkPlanVerified(b *testing.B) { benchPlan(b, planBenchRequest()) }

// BenchmarkPlanScaling shows the plan's cost against its candidates:
// one accelerator under a scheduler grid of 2, 10 and 38 max_num_seqs
// values (about 400, 2,000 and 8,000 candidates).
func BenchmarkPlanScaling(b *testing.B) {
	for _, n := range []int{2, 10, 38} {
		req := planBenchRequest()
		seqs := make([]int, n)
		for i := range seqs {
			seqs[i] = 64 + 16*i
		}
		req.Search = &spec.PlanSearch{MaxNumSeqs: seqs}
		req.Constraints = &spec.PlanConstraints{Accelerators: []string{"h100-sxm-80gb"}}
		req.Verify = &spec.PlanVerify{Top: spec.Int(0)}
		r, err := Plan(req)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strconv.Itoa(r.Candidates), func(b *testing.B) { benchPlan(b, req) })
	}
}

// BenchmarkPlanLayers measures the searches of whole-catalog plans of a
// 256-wide model of 32, 1,024 and 4,096 layers, without the budget's
// stop (the derivation of LayerUnits: the native CPU a layer resolved
// costs, from the differences between depths over the layers counted).
//
//	go test -run '^$' -bench PlanLayers -benchtime 3x -count 3 ./calc/planner/
func BenchmarkPlanLayers(b *testing.B) {
	for _, n := range []int{32, 1024, 4096} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			s, err := resolvePlanRequest(deepPlan(n, nil))
			if err != nil {
				b.Fatal(err)
			}
			var p *planner
			c0 := cputime.Seconds()
			for i := 0; i < b.N; i++ {
				p = newPlanner(s)
				p.noStop = true
				p.run()
			}
			b.ReportMetric((cputime.Seconds()-c0)*1e3/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(p.layerBuilds), "layers")
			b.ReportMetric(float64(p.evaluated), "candidates")
		})
	}
}
