package evaluate

import (
	"testing"

	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/probemodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The estimate tracks the work the simulator counts (sched.Result's
// SeqSteps and Steps, plus RequestWorkUnits per request) within a stated
// factor: from 0.8x to 1.5x on varied workloads (burst, Poisson and closed
// loops; batches of 1 to 1,024; chunked 100k-token prompts; preemption;
// length distributions; sweeps; up to 64 KV-cache groups at block size 1;
// heavy preemption). Measured: 0.90 to 1.28.
func TestWorkEstimateTracksTheSimulator(t *testing.T) {
	t.Parallel()
	l8 := func(hw string, in, out int, s *spec.SimulateOptions) spec.Request {
		// vLLM 0.19's pool, the one these cases were sized on (an L4
		// burst that preempts at 0.19 preempts differently with the
		// CUDA-graph estimate taken out).
		return spec.Request{Model: "llama-3.1-8b", EngineVersion: "0.19", Hardware: spec.HardwareRef{ID: hw}, Workload: &spec.Workload{InputTokens: spec.Int(in), OutputTokens: spec.Int(out)}, Simulate: s}
	}
	big := l8("h200", 1, 16000, &spec.SimulateOptions{NumRequests: spec.Int(300), Arrival: "burst"})
	big.KVCacheDtype, big.MaxNumSeqs = "fp8", spec.Int(1024)
	cases := map[string]spec.Request{
		"issue 16, 300 requests (preempts)": big,
		"poisson 20/s":                      l8("h100-sxm", 1024, 256, &spec.SimulateOptions{NumRequests: spec.Int(1000), Arrival: "poisson", RequestRate: spec.Float(20)}),
		"closed loop 256 users":             l8("h100-sxm", 1024, 256, &spec.SimulateOptions{NumRequests: spec.Int(2000), Arrival: "closed_loop", Concurrency: spec.Int(256)}),
		"closed loop 1 user":                l8("h100-sxm", 1024, 256, &spec.SimulateOptions{NumRequests: spec.Int(300), Arrival: "closed_loop", Concurrency: spec.Int(1)}),
		"100k-token prompts":                l8("h100-sxm", 100000, 10, &spec.SimulateOptions{NumRequests: spec.Int(500), Arrival: "burst"}),
		"default":                           l8("h100-sxm", 1024, 256, &spec.SimulateOptions{}),
		"default sweep":                     l8("h100-sxm", 1024, 256, &spec.SimulateOptions{Sweep: &spec.SimSweepOptions{}}),
		"poisson sweep":                     l8("h100-sxm", 1024, 256, &spec.SimulateOptions{Arrival: "poisson", RequestRate: spec.Float(10), Sweep: &spec.SimSweepOptions{}}),
		"L4 poisson, preempts":              l8("l4", 2048, 512, &spec.SimulateOptions{NumRequests: spec.Int(1000), Arrival: "poisson", RequestRate: spec.Float(50)}),
		"distributions": l8("h100-sxm", 512, 512, &spec.SimulateOptions{NumRequests: spec.Int(1000), Arrival: "burst",
			OutputTokens: &spec.LengthDistribution{Distribution: "lognormal", Mean: spec.Float(400), Std: spec.Float(800)},
			InputTokens:  &spec.LengthDistribution{Distribution: "uniform", Min: spec.Int(10), Max: spec.Int(4000)}}),
		"L4 burst sweep, preempts": l8("l4", 4096, 512, &spec.SimulateOptions{NumRequests: spec.Int(200), Arrival: "burst", Sweep: &spec.SimSweepOptions{Points: spec.Int(4)}}),
	}
	// Workloads that stress each term the budget prices beyond the
	// sequence-steps: KV-cache groups times block events (issue 35's
	// probe model at the most groups served, kvcache.MaxGroups, and block
	// size 1), with the pool bounding the batch, and shared prefixes.
	one, sixteen := 1, 16
	groups := func(n int, bs *int, s *spec.SimulateOptions) spec.Request {
		return spec.Request{ModelConfig: probemodel.Groups(n), Hardware: spec.HardwareRef{ID: "h200"}, BlockSize: bs, Simulate: s}
	}
	cases["64 groups, block_size 1"] = groups(64, &one, &spec.SimulateOptions{NumRequests: spec.Int(1000)})
	cases["64 groups, block_size 16"] = groups(64, &sixteen, &spec.SimulateOptions{NumRequests: spec.Int(1000)})
	cases["8 groups, block_size 1, 1 user"] = groups(8, &one, &spec.SimulateOptions{NumRequests: spec.Int(300), Arrival: "closed_loop", Concurrency: spec.Int(1)})
	cases["64 groups, block_size 1, sweep"] = groups(64, &one, &spec.SimulateOptions{NumRequests: spec.Int(200), Sweep: &spec.SimSweepOptions{Points: spec.Int(4), NumRequests: spec.Int(200)}})
	poolBound := groups(64, &one, &spec.SimulateOptions{NumRequests: spec.Int(400), Arrival: "burst"})
	poolBound.GPUMemoryUtilization, poolBound.Workload = spec.Float(0.02), &spec.Workload{InputTokens: spec.Int(4000), OutputTokens: spec.Int(2000)}
	// The pool holds about 17 of the 400 at once (gpu_memory_utilization
	// 0.02: each sequence keeps the 63 sliding groups' blocks of its
	// 4,000-token prompt chunk), so each step checks the waiting queue's
	// head in vain. At 0.015 it holds 4 and preempts: heavy preemption,
	// 22 times the steps the staggered mean batch gave (0.77 before the
	// estimate counted a sequence's largest prompt chunk).
	cases["64 groups, block_size 1, pool-bound burst"] = poolBound
	preempting := poolBound
	preempting.GPUMemoryUtilization = spec.Float(0.015)
	cases["64 groups, block_size 1, pool-bound burst, preempts"] = preempting
	// Heavy preemption with one group: about 5 sequences fit an L4's pool
	// at their full length, and 300 (200) of them preempt 25,656 (31,952)
	// times, recomputing 5.5e7 (7.4e7) tokens.
	cases["L4 burst 2048/4096, heavy preemption"] = l8("l4", 2048, 4096, &spec.SimulateOptions{NumRequests: spec.Int(300), Arrival: "burst"})
	cases["L4 burst 512/8000, heavy preemption"] = l8("l4", 512, 8000, &spec.SimulateOptions{NumRequests: spec.Int(200), Arrival: "burst"})
	prefixes := l8("h100-sxm", 1024, 256, &spec.SimulateOptions{NumRequests: spec.Int(1000)})
	prefixes.Workload.SharedPrefixTokens, prefixes.Workload.NumPrefixes = spec.Int(512), spec.Int(1<<20)
	cases["1,048,576 prefixes"] = prefixes
	// FuzzWorkBudget's find: a sweep of 18 loads of up to hundreds of
	// users over 4 requests each runs batches of 4, not of the users.
	cases["sweep of 4 requests a load"] = l8("h100-sxm", 74, 16000, &spec.SimulateOptions{NumRequests: spec.Int(156), Sweep: &spec.SimSweepOptions{Points: spec.Int(18), NumRequests: spec.Int(4)}})
	// Sessions (workload.sessions): turns re-send a growing conversation
	// and are priced one replica's turn rate and users at a time.
	sess := func(s *spec.SessionWorkload, n int) spec.Request {
		r := l8("h100-sxm", 2000, 300, &spec.SimulateOptions{NumRequests: spec.Int(n)})
		r.Workload.Sessions = s
		return r
	}
	cases["sessions, 1/s over 2 replicas"] = sess(&spec.SessionWorkload{Turns: spec.Int(6), NewTokens: spec.Int(400), SessionRate: spec.Float(1), Replicas: spec.Int(2)}, 3000)
	cases["sessions, 64 users"] = sess(&spec.SessionWorkload{Turns: spec.Int(8), ThinkTimeS: spec.Float(2), Users: spec.Int(64)}, 2000)
	cases["sessions, burst"] = sess(&spec.SessionWorkload{Turns: spec.Int(4)}, 1000)
	for name, req := range cases {
		d, p, err := deploy.ResolveAsk(req)
		require.NoError(t, err, name)
		sp, err := deploy.SimulationPlan(req.Simulate, d, p, nil)
		require.NoError(t, err, name)
		r := deploy.Assemble(d, p)
		est := (&workBudget{d, p, sp, r.Preemption}).estimateWork()
		actual := deploy.Simulator(d, &r, p, sp)
		require.NotNil(t, r.Simulation, name)
		require.Positive(t, actual, name)
		ratio := (est.Simulation + est.Sweep) / actual
		assert.True(t, ratio >= 0.8 && ratio <= 1.5, "%s: estimate %.3g, actual %.3g (ratio %.2f)", name, est.Simulation+est.Sweep, actual, ratio)
		t.Logf("%-36s estimate %.3g, actual %.3g, ratio %.2f", name, est.Simulation+est.Sweep, actual, ratio)
	}
}

// The watchdog: were the estimate wrong, a simulation that runs past
// WatchdogFactor times its budget is stopped and the request refused,
// naming simulate, with no partial figures. Here the budget is set under
// what the default simulation (about 2.9e5 units) and its sweep (about
// 2.9e6) need, bypassing the estimate that would have refused them: the
// main run passes 2 x 1e5 and is stopped; the sweep passes 2 x 5e5 after
// the main run and is stopped.
func TestTheWatchdogStopsARunPastTwiceItsBudget(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		sim    *spec.SimulateOptions
		budget float64
		msg    string
	}{
		{&spec.SimulateOptions{}, 1e5, "the simulation was stopped when its work passed 2e5 sequence-steps, 2 times the work budget of 1e5 it was estimated to fit; lower simulate.num_requests, or simulate.sweep.num_requests"},
		{&spec.SimulateOptions{Sweep: &spec.SimSweepOptions{}}, 5e5, "the simulation was stopped when its work passed 1e6 sequence-steps, 2 times the work budget of 5e5 it was estimated to fit; lower simulate.num_requests, or simulate.sweep.num_requests"},
	} {
		req := spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, Simulate: c.sim}
		d, p, err := deploy.ResolveAsk(req)
		require.NoError(t, err)
		sp, err := deploy.SimulationPlan(req.Simulate, d, p, nil)
		require.NoError(t, err)
		r := deploy.Assemble(d, p)
		err = simulateWithin(d, &r, p, sp, c.budget)
		assert.Equal(t, spec.Errors{{Field: "simulate", Message: c.msg}}, err)
	}
	// Under the budget it estimated, the same simulation runs whole.
	rep, err := Evaluate(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, Simulate: &spec.SimulateOptions{Sweep: &spec.SimSweepOptions{}}})
	require.NoError(t, err)
	require.NotNil(t, rep.Simulation)
	assert.NotNil(t, rep.Simulation.Sweep)
}
