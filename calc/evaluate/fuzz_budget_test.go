package evaluate

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/probemodel"
)

// FuzzWorkBudget drives the inputs that set a simulation's cost (issue
// 35): the KV-cache groups (1 full and g-1 sliding layers, up to
// kvcache.MaxGroups), the block size, the lengths and their spread, the
// requests, the arrival and its load, the simulated sweep and shared
// prefixes. The property: a request the default budget accepts does at
// most 1.5 times the budget in the work the simulator counts (sequence-steps,
// steps, requests and groups times block events: what the estimate
// tracks within 0.8x to 1.5x), so no accepted request runs far past
// about 40 ms of native CPU (1.5 times is 60 ms at NsPerWorkUnit). Seeds run with go test; a longer run:
//
//	go test -run '^$' -fuzz FuzzWorkBudget -fuzztime 10m ./calc/evaluate/
//
// With THROUGHPUT_FUZZ_TIMES=DIR each fuzzing process also keeps, in DIR,
// the accepted input that took the longest wall time so far: slowest-PID
// in Go's corpus format (copy it to testdata/fuzz/FuzzWorkBudget/ and
// `go test -run FuzzWorkBudget/slowest-PID -v ./calc/evaluate/` replays and
// times it alone) and slowest-PID.json with its milliseconds and work
// units. That is a record, not an assertion: the wall time during fuzzing
// includes the other fuzzing workers.
func FuzzWorkBudget(f *testing.F) {
	f.Add(uint8(64), uint8(0), uint32(1024), uint32(256), uint32(450), uint8(0), uint32(1), 10.0, uint8(0), uint32(0), false)
	f.Add(uint8(64), uint8(0), uint32(1024), uint32(256), uint32(200), uint8(1), uint32(1), 10.0, uint8(4), uint32(0), false)
	f.Add(uint8(8), uint8(1), uint32(4000), uint32(2000), uint32(400), uint8(0), uint32(1), 10.0, uint8(0), uint32(1<<20), true)
	f.Add(uint8(1), uint8(4), uint32(1), uint32(16000), uint32(230), uint8(0), uint32(1), 10.0, uint8(0), uint32(0), false)
	f.Add(uint8(2), uint8(4), uint32(100000), uint32(10), uint32(500), uint8(2), uint32(1), 1e6, uint8(32), uint32(1000), true)
	f.Fuzz(func(t *testing.T, groups, bsExp uint8, in, out, nreq uint32, arrival uint8, users uint32, rate float64, sweep uint8, prefixes uint32, lognormal bool) {
		if rate != rate {
			return // NaN: no rate to clamp
		}
		g := 1 + int(groups)%64
		cfg := probemodel.Groups(g)
		cfg["max_position_embeddings"] = 1 << 18
		bs := 1 << (bsExp % 9)
		req := spec.Request{ModelConfig: cfg, Hardware: spec.HardwareRef{ID: "h200"}, BlockSize: &bs,
			Workload: &spec.Workload{InputTokens: spec.Int(1 + int(in%200_000)), OutputTokens: spec.Int(1 + int(out%20_000))},
			Simulate: &spec.SimulateOptions{NumRequests: spec.Int(1 + int(nreq%100_000))}}
		switch arrival % 3 {
		case 1:
			req.Simulate.Arrival, req.Simulate.Concurrency = "closed_loop", spec.Int(1+int(users%100_000))
		case 2:
			req.Simulate.Arrival, req.Simulate.RequestRate = "poisson", spec.Float(min(max(rate, 1e-6), 1e6))
		}
		if sweep%3 != 0 {
			req.Simulate.Sweep = &spec.SimSweepOptions{Points: spec.Int(2 + int(sweep)%31)}
		}
		if prefixes > 0 {
			req.Workload.SharedPrefixTokens = spec.Int(int(prefixes%uint32(*req.Workload.InputTokens)) / 2)
			req.Workload.NumPrefixes = spec.Int(1 + int(prefixes%(1<<20)))
		}
		if lognormal {
			m := float64(*req.Workload.OutputTokens)
			req.Simulate.OutputTokens = &spec.LengthDistribution{Distribution: "lognormal", Mean: &m, Std: &m}
		}
		d, p, err := deploy.ResolveAsk(req)
		sp, err := deploy.SimulationPlan(req.Simulate, d, p, err)
		if err != nil || sp == nil {
			return
		}
		r := deploy.Assemble(d, p)
		if (&workBudget{d, p, sp, r.Preemption}).checkBudget(DefaultWorkBudget) != nil {
			return // refused before it runs
		}
		start := time.Now()
		work := deploy.Simulator(d, &r, p, sp)
		recordSlowest(time.Since(start), work, []any{groups, bsExp, in, out, nreq, arrival, users, rate, sweep, prefixes, lognormal})
		if work > 1.5*DefaultWorkBudget {
			t.Fatalf("accepted, and did %.3g work units (%d groups, block size %d): %+v", work, g, bs, req.Simulate)
		}
	})
}

// slowest is this fuzzing process's slowest accepted input so far.
var slowest struct {
	sync.Mutex
	ms float64
}

// recordSlowest writes the input to $THROUGHPUT_FUZZ_TIMES/PID.json when it
// is the slowest accepted one this process has seen (see FuzzWorkBudget).
func recordSlowest(took time.Duration, work float64, args []any) {
	dir := os.Getenv("THROUGHPUT_FUZZ_TIMES")
	if dir == "" {
		return
	}
	ms := float64(took.Nanoseconds()) / 1e6
	slowest.Lock()
	defer slowest.Unlock()
	if ms <= slowest.ms {
		return
	}
	slowest.ms = ms
	corpus := "go test fuzz v1\n"
	for _, a := range args {
		corpus += fmt.Sprintf("%T(%v)\n", a, a)
	}
	name := filepath.Join(dir, fmt.Sprintf("slowest-%d", os.Getpid()))
	_ = os.WriteFile(name, []byte(corpus), 0o644)
	if b, err := json.Marshal(map[string]float64{"ms": ms, "work_units": work}); err == nil {
		_ = os.WriteFile(name+".json", b, 0o644)
	}
}
