package calc_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/internal/cputime"
	"github.com/modelrefs/throughput/internal/probemodel"
)

// groupsConfig is issue 35's probe model (probemodel.Groups): n
// KV-cache groups.
func groupsConfig(n int) map[string]any { return probemodel.Groups(n) }

// deepConfig is issue 35's deep probe: n full-attention layers of
// probemodel's 256-wide shape (a whole-catalog plan of 1,024 of them took
// 0.24 s before the plan's budget priced the layers its layouts walk).
func deepConfig(n int) map[string]any {
	c := probemodel.Groups(1)
	c["num_hidden_layers"] = n
	delete(c, "layer_types")
	delete(c, "sliding_window")
	return c
}

const groupsRefusal = "its layer_types form 4096 KV-cache groups, above the 64 supported: too few layers of one type beside many of another"

// The probe's 4,096-group model (42 s of native CPU simulated at
// block_size 1 before the bound) is refused before any deployment is built.
func TestManyKVGroupsAreRefusedBeforeTheSimulation(t *testing.T) {
	t.Parallel()
	bs := 1
	rep, err := calc.Evaluate(calc.Request{ModelConfig: groupsConfig(4096), Hardware: calc.HardwareRef{ID: "h200"}, BlockSize: &bs, Simulate: &calc.SimulateOptions{}})
	assert.Zero(t, rep.Version, "no partial report")
	fe := refusal(t, err)
	assert.Equal(t, calc.FieldError{Field: "model", Message: groupsRefusal}, fe)
}

// 64 groups (1 full and 63 sliding layers) are still served.
func TestSixtyFourKVGroupsAreServed(t *testing.T) {
	t.Parallel()
	rep, err := calc.Evaluate(calc.Request{ModelConfig: groupsConfig(64), Hardware: calc.HardwareRef{ID: "h200"}})
	require.NoError(t, err)
	assert.Positive(t, rep.KVCache.NumBlocks)
}

// A plan of the same model is refused too, naming the model, and the
// search stops at the first candidate that meets the bound (the whole
// catalog's search of it took 0.6 s of CPU and allocated 803 MB when each
// candidate failed alone).
func TestManyKVGroupsRefuseThePlan(t *testing.T) {
	t.Parallel()
	_, err := calc.Plan(calc.PlanRequest{ModelConfig: groupsConfig(4096),
		Workload: calc.PlanWorkload{Concurrency: calc.Int(8)}, SLO: calc.PlanSLO{TPOTMs: calc.Float(100)}})
	fe := refusal(t, err)
	assert.Equal(t, calc.FieldError{Field: "model", Message: groupsRefusal}, fe)
}

// probeRequests are issue 35's expensive requests as they stand after
// the fixes, each with what it must answer: refused naming field (""
// accepted). The 64-group model at block size 1 is the dearest model the
// KV-cache group bound serves: each block event walks its 64 groups, which
// the work budget prices (evaluate.GroupWorkUnits), so its default
// simulation is refused and the 450 requests that fit are served.
func probeRequests() []struct {
	name, field string
	run         func() error
} {
	one := 1
	groups := func(n, requests int) error {
		_, err := calc.Evaluate(calc.Request{ModelConfig: groupsConfig(n), Hardware: calc.HardwareRef{ID: "h200"}, BlockSize: &one,
			Simulate: &calc.SimulateOptions{NumRequests: calc.Int(requests)}})
		return err
	}
	prefixes := calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{ID: "h100-sxm"},
		Workload: &calc.Workload{SharedPrefixTokens: calc.Int(512), NumPrefixes: calc.Int(1 << 20)},
		Simulate: &calc.SimulateOptions{Sweep: &calc.SimSweepOptions{Points: calc.Int(32)}}}
	plan := func(cfg map[string]any, w calc.PlanWorkload) func() error {
		return func() error {
			_, err := calc.Plan(calc.PlanRequest{ModelConfig: cfg, Workload: w, SLO: calc.PlanSLO{TPOTMs: calc.Float(100)}})
			return err
		}
	}
	return []struct {
		name, field string
		run         func() error
	}{
		{"4,096 KV-cache groups at block_size 1", "model", func() error { return groups(4096, 1000) }},
		{"64 KV-cache groups at block_size 1, 1,000 requests", "simulate.num_requests", func() error { return groups(64, 1000) }},
		{"64 KV-cache groups at block_size 1, 450 requests", "", func() error { return groups(64, 450) }},
		{"1,048,576 prefixes, a 32-point sweep", "", func() error { _, err := calc.Evaluate(prefixes); return err }},
		{"a whole-catalog plan of 4,096 KV-cache groups", "model", plan(groupsConfig(4096), calc.PlanWorkload{Concurrency: calc.Int(8)})},
		{"a whole-catalog plan of 64 KV-cache groups", "", plan(groupsConfig(64), calc.PlanWorkload{Concurrency: calc.Int(1000)})},
		{"a whole-catalog plan with 1,048,576 prefixes", "", plan(groupsConfig(64), calc.PlanWorkload{RequestRate: calc.Float(50),
			SharedPrefixTokens: calc.Int(512), NumPrefixes: calc.Int(1 << 20)})},
		{"a whole-catalog plan of 1,024 layers of width 256", "model", plan(deepConfig(1024), calc.PlanWorkload{Concurrency: calc.Int(8)})},
		{"a plan of 1,024 layers of width 256 on one accelerator", "", func() error {
			_, err := calc.Plan(calc.PlanRequest{ModelConfig: deepConfig(1024), Workload: calc.PlanWorkload{Concurrency: calc.Int(8)}, SLO: calc.PlanSLO{TPOTMs: calc.Float(100)},
				Constraints: &calc.PlanConstraints{Accelerators: []string{"h100-sxm"}}})
			return err
		}},
	}
}

// Each of issue 35's expensive requests is refused naming its field or
// allocates under 64 MB (the bound; the 1,048,576-prefix sweep
// allocated 586 MB before per-prefix state was sized by the run). Not
// parallel: runtime.MemStats counts every goroutine's allocations. Their
// CPU time is BenchmarkProbeRequests'.
func TestProbeRequestsStayBounded(t *testing.T) {
	for _, c := range probeRequests() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		err := c.run()
		runtime.ReadMemStats(&after)
		if c.field == "" {
			require.NoError(t, err, c.name)
		} else {
			assert.Equal(t, c.field, refusal(t, err).Field, c.name)
		}
		alloc := after.TotalAlloc - before.TotalAlloc
		assert.Less(t, alloc, uint64(64<<20), c.name)
		t.Logf("%-55s %6.1f MB allocated", c.name, float64(alloc)/(1<<20))
	}
}

// BenchmarkProbeRequests measures issue 35's expensive requests
// (probeRequests): the accepted ones are to stay under about 50 ms of
// native CPU.
//
//	go test -run '^$' -bench ProbeRequests -benchtime 10x -count 5 ./calc/
func BenchmarkProbeRequests(b *testing.B) {
	for _, c := range probeRequests() {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cputime.Seconds()
			for i := 0; i < b.N; i++ {
				if err := c.run(); (err == nil) != (c.field == "") {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cputime.Seconds()-cpu0)*1e3/float64(b.N), "cpu-ms/op")
		})
	}
}
