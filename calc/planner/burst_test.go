package planner

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc/evaluate"
	"github.com/modelrefs/throughput/calc/spec"
)

// burstRequest is w on H100s, one GPU a replica, under TTFT <= 1 s.
func burstRequest(w spec.PlanWorkload) spec.PlanRequest {
	w.InputTokens, w.OutputTokens = spec.Int(2048), spec.Int(256)
	s := narrow(1)
	return spec.PlanRequest{Model: llama8B, Workload: w, SLO: spec.PlanSLO{TTFTMs: spec.Float(1000)},
		Constraints: &spec.PlanConstraints{Accelerators: []string{"h100-sxm-80gb"}, Engines: []string{"vllm"}},
		Search:      s, Verify: &spec.PlanVerify{Top: spec.Int(0)}}
}

// Hand case: 64 prompts of 2,048 tokens sent at once wait for each
// other's prefill. A replica of one H100 prefills 8,192 tokens a step
// (max_num_batched_tokens), at least 8,192 x 2 x 8.03e9 FLOPs / 989e12
// FLOP/s = 0.133 s a step at the bf16 peak. With k prompts on a replica
// the mean prompt finishes after about (k x 2,048 / 8,192 + 1) / 2 steps:
// 64 on one replica is 8.5 steps, over 1.1 s however efficient the GPU,
// over the 1 s budget; the same 64 users in a closed loop arrive
// staggered and meet it with fewer replicas. So the burst needs more
// replicas than the loop, and each burst row's TTFT is at least the
// bound for its share, and is the first wave its evaluate request
// reports.
func TestPlanHandBurstWaitsForItsWave(t *testing.T) {
	b, err := Plan(burstRequest(spec.PlanWorkload{Burst: spec.Int(64)}))
	require.NoError(t, err)
	require.True(t, b.Feasible)
	l, err := Plan(burstRequest(spec.PlanWorkload{Concurrency: spec.Int(64)}))
	require.NoError(t, err)
	require.True(t, l.Feasible)
	burst, loop := b.Deployments[b.Cheapest], l.Deployments[l.Cheapest]
	assert.Greater(t, burst.Replicas, loop.Replicas)
	for _, d := range b.Deployments {
		assert.Equal(t, "aggregated", d.Mode, "a burst is served aggregated")
		k := float64((64 + d.Replicas - 1) / d.Replicas)
		bound := (k*2048/8192 + 1) / 2 * 8192 * 2 * 8.03e9 / 989e12 * 1000
		assert.GreaterOrEqual(t, d.TTFTMs, bound, "%d replicas", d.Replicas)
		rep, err := evaluate.Evaluate(d.Evaluate)
		require.NoError(t, err)
		require.NotNil(t, rep.Serving)
		assert.InDelta(t, max(rep.Serving.FirstWaveTTFTMs, rep.Serving.TTFTMs), d.TTFTMs, 1e-6)
	}
}

// One of request_rate, concurrency or burst.
func TestPlanBurstErrors(t *testing.T) {
	req := burstRequest(spec.PlanWorkload{Burst: spec.Int(8), Concurrency: spec.Int(8)})
	assert.Equal(t, spec.FieldError{Field: "workload.burst", Message: "give one of request_rate, concurrency or burst"}, planErr(t, req))
	req = burstRequest(spec.PlanWorkload{Burst: spec.Int(0)})
	assert.Equal(t, spec.FieldError{Field: "workload.burst", Message: "must be at least 1, got 0"}, planErr(t, req))
}

// The default simulator check replays a burst as one: each verified row's
// share of the 64 prompts sent at once.
func TestPlanBurstVerifiedAsABurst(t *testing.T) {
	req := burstRequest(spec.PlanWorkload{Burst: spec.Int(64)})
	req.Verify = nil
	r, err := Plan(req)
	require.NoError(t, err)
	require.True(t, r.Feasible)
	n := 0
	for _, d := range r.Deployments {
		if d.Simulated == nil {
			continue
		}
		n++
		assert.Equal(t, (64+d.Replicas-1)/d.Replicas, d.Simulated.NumRequests)
	}
	assert.Positive(t, n)
}
