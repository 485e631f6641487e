package planner

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/hardware"
)

// exactRequest is Llama 3.1 8B at 20 requests/s of 2,048 + 500 tokens on
// H100s under vLLM (one precision, KV dtype and scheduler setting) held
// to n GPUs.
func exactRequest(n int, rate float64) spec.PlanRequest {
	return spec.PlanRequest{
		Model:    llama8B,
		Workload: spec.PlanWorkload{RequestRate: spec.Float(rate), InputTokens: spec.Int(2048), OutputTokens: spec.Int(500)},
		SLO:      spec.PlanSLO{TPOTMs: spec.Float(100)},
		Constraints: &spec.PlanConstraints{Accelerators: []string{"h100-sxm-80gb"}, Engines: []string{"vllm"},
			NumGPUs: spec.Int(n)},
		Search: &spec.PlanSearch{Precisions: []string{"published"}, KVCacheDtypes: []string{"auto"},
			MaxNumSeqs: []int{256}, MaxNumBatchedTokens: []int{8192}},
	}
}

// Hand case: the best deployment on exactly 4 GPUs. Replicas of 1, 2 and
// 4 GPUs divide 4 (8 does not, so it is not searched): 4 x TP 1, 2 x TP 2,
// 2 x (TP 1 x PP 2), 1 x TP 4, 1 x (TP 2 x PP 2), and disaggregated splits
// of the same 4 GPUs. Every row holds 4 GPUs and carries the same 20
// requests/s of 500 output tokens, so every row costs the same: 4 x
// $/GPU-hour / 3,600 s / (20 x 500 tokens/s) x 1e6 per million tokens;
// the rows differ in latency only.
func TestPlanHandExactlyNGPUs(t *testing.T) {
	r, err := Plan(exactRequest(4, 20))
	require.NoError(t, err)
	require.True(t, r.Feasible)
	price, ok := hardware.DefaultPrice("h100-sxm-80gb")
	require.True(t, ok)
	want := 4 * price.USDPerHour / 3600 / (20 * 500) * 1e6
	saw := map[int]bool{}
	for _, d := range r.Deployments {
		assert.Equal(t, 4, d.GPUs, label(&d))
		g := d.TensorParallelSize * d.PipelineParallelSize * max(d.DataParallelSize, 1)
		saw[g] = true
		if d.Mode == "aggregated" {
			assert.Equal(t, 4/g, d.Replicas, label(&d))
		} else {
			assert.Equal(t, 4/g, d.PrefillReplicas+d.DecodeReplicas, label(&d))
		}
		assert.InEpsilon(t, want, d.USDPerMillionOutputTokens, 1e-9, label(&d))
	}
	assert.Equal(t, map[int]bool{1: true, 2: true, 4: true}, saw)
}

// A load the GPUs cannot carry is answered with the reason: one H100 at
// 200 requests/s of 2,048 + 500 tokens (100,000 output tokens/s, far above
// one GPU's decode rate) saturates, even under a loose 1 s TPOT.
func TestPlanExactlyNGPUsTooFew(t *testing.T) {
	req := exactRequest(1, 200)
	req.SLO = spec.PlanSLO{TPOTMs: spec.Float(1000)}
	f := false
	req.Search.Disaggregated = &f
	r, err := Plan(req)
	require.NoError(t, err)
	assert.False(t, r.Feasible)
	require.NotEmpty(t, r.Rejections)
	assert.Equal(t, "max_gpus", r.Rejections[0].Reason)
	assert.Contains(t, r.Rejections[0].Message, "1 GPUs (num_gpus) saturate under the workload on ")
}

func TestPlanNumGPUsErrors(t *testing.T) {
	req := exactRequest(16, 20)
	req.Constraints.MaxGPUs = spec.Int(8)
	assert.Equal(t, spec.FieldError{Field: "constraints.num_gpus", Message: "must be at most constraints.max_gpus (8), got 16"}, planErr(t, req))
	req = exactRequest(0, 20)
	assert.Equal(t, spec.FieldError{Field: "constraints.num_gpus", Message: "must be at least 1, got 0"}, planErr(t, req))
}
