package planner

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc/spec"
)

// rackRequest is 4,096 users of DeepSeek-R1 (an MoE model: 256 routed
// experts) under vLLM, one precision, one KV dtype and one scheduler
// setting, so the search's size is its layouts.
func rackRequest(accels ...string) spec.PlanRequest {
	f := false
	return spec.PlanRequest{
		Model:       "deepseek-ai/DeepSeek-R1",
		Workload:    spec.PlanWorkload{Concurrency: spec.Int(4096), InputTokens: spec.Int(1024), OutputTokens: spec.Int(1024)},
		SLO:         spec.PlanSLO{TPOTMs: spec.Float(1000)},
		Constraints: &spec.PlanConstraints{Accelerators: accels, Engines: []string{"vllm"}},
		Search: &spec.PlanSearch{Precisions: []string{"published"}, KVCacheDtypes: []string{"auto"},
			MaxNumSeqs: []int{512}, MaxNumBatchedTokens: []int{8192}, Disaggregated: &f},
	}
}

// Hand count: the default grid on one part is 1 GPU (one layout), 2, 4
// and 8 GPUs (TP, two pipeline stages, or DP attention with EP: three
// layouts each) = 10 layouts on an HGX B200, whose NVLink joins one node
// of 8; a GB200 NVL72 rack joins 72 GPUs in one NVLink domain, so the
// grid adds 16, 32 and 64 GPUs as DP attention with the experts spread
// over all of them (one layout each: a tensor-parallel group stays within
// a node) = 13.
func TestPlanRackScaleGrid(t *testing.T) {
	for _, tc := range []struct {
		accel string
		want  int
	}{{"b200", 10}, {"gb200", 13}, {"gb300", 13}} {
		s, err := resolvePlanRequest(rackRequest(tc.accel))
		require.NoError(t, err)
		assert.Equal(t, tc.want, s.countCandidates(), tc.accel)
	}
}

// Beyond one node the replicas of the rack are searched, and spreading
// the 4,096 users and 256 experts over more data-parallel ranks leaves
// each rank fewer sequences to decode and fewer experts to read, so the
// steady-state TPOT falls as the replica grows; on the HGX B200 no
// replica exceeds its node.
func TestPlanRackReplicasSpreadTheLoad(t *testing.T) {
	r, err := Plan(rackRequest("gb200", "b200"))
	require.NoError(t, err)
	require.True(t, r.Feasible)
	tpot := map[int]float64{}
	for _, d := range r.Deployments {
		if d.Accelerator == "b200" {
			assert.LessOrEqual(t, d.TensorParallelSize*d.PipelineParallelSize*d.DataParallelSize, 8)
			continue
		}
		g := d.TensorParallelSize * d.PipelineParallelSize * d.DataParallelSize
		if g > 8 {
			assert.Equal(t, 1, d.TensorParallelSize)
			assert.True(t, d.ExpertParallel)
			assert.Contains(t, d.Launch, "--data-parallel-size "+itoa(g)+" --enable-expert-parallel")
		}
		if d.ExpertParallel {
			tpot[g] = d.TPOTMs
		}
	}
	require.Contains(t, tpot, 8)
	require.Contains(t, tpot, 64)
	prev := tpot[8]
	for _, g := range []int{16, 32, 64} {
		require.Contains(t, tpot, g)
		assert.Less(t, tpot[g], prev, "TPOT at %d GPUs", g)
		prev = tpot[g]
	}
}

// A replica size named beyond a part's domain is rejected saying why;
// one that is not a power of two is a field error.
func TestPlanRackSizeBeyondTheNode(t *testing.T) {
	req := rackRequest("b200")
	req.Search.GPUsPerReplica = []int{16}
	r, err := Plan(req)
	require.NoError(t, err)
	assert.False(t, r.Feasible)
	require.NotEmpty(t, r.Rejections)
	assert.Equal(t, "a replica of 16 GPUs spans more than one node of 8, and the part has no larger NVLink domain (multi-node replicas are not searched)", r.Rejections[0].Message)

	req.Search.GPUsPerReplica = []int{12}
	_, err = Plan(req)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "search.gpus_per_replica[0]: must be 1, 2, 4 or 8 (GPUs within one node), or 16, 32 or 64 (one rack-scale NVLink domain's), got 12")
}
