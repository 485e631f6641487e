package planner

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc/spec"
)

// disaggRequest is one H100 an instance under vLLM, one precision, KV
// dtype and scheduler setting, disaggregated with the given splits.
func disaggRequest(w spec.PlanWorkload, slo spec.PlanSLO, splits ...string) spec.PlanRequest {
	t := true
	return spec.PlanRequest{Model: llama8B, Workload: w, SLO: slo,
		Constraints: &spec.PlanConstraints{Accelerators: []string{"h100-sxm-80gb"}, Engines: []string{"vllm"}},
		Search: &spec.PlanSearch{GPUsPerReplica: []int{1}, Precisions: []string{"published"}, KVCacheDtypes: []string{"auto"},
			MaxNumSeqs: []int{512}, MaxNumBatchedTokens: []int{8192}, Disaggregated: &t, DisaggregatedSplits: splits}}
}

func bySplit(r spec.PlanReport) map[string]spec.PlanDeployment {
	out := map[string]spec.PlanDeployment{}
	for _, d := range r.Deployments {
		if d.Mode == "disaggregated" {
			out[d.Split] = d
		}
	}
	return out
}

// Hand case: xPyD splits under a decode-bound load. 20 requests/s of
// 16-token prompts and 4,096-token answers: a prompt takes one short
// prefill step (about 10 ms: one instance runs at utilisation 20 x 0.01
// = 0.2, so one prefill instance carries the load whatever the budget
// leaves), while each request decodes for about 4,096 x 19 ms = 78 s, so
// the decode pool holds 20 x 78 = 1,560 sequences at once: several
// instances (D_n of them). The free split is 1 prefill + D_n decode
// instances. Held to 1P1D, k units of one of each carry the load when
// k >= D_n: D_n + D_n. Held to 1P3D: the fewest units of 3 decode
// instances, ceil(D_n / 3), each with its one prefill instance. Held to
// 2P1D: D_n units, 2 D_n prefill instances. All run the same decode
// instances at the same load, so their TPOT is the same, and the free
// split, the fewest GPUs, is the cheapest.
func TestPlanHandDisaggregatedSplits(t *testing.T) {
	w := spec.PlanWorkload{RequestRate: spec.Float(20), InputTokens: spec.Int(16), OutputTokens: spec.Int(4096)}
	slo := spec.PlanSLO{TPOTMs: spec.Float(20)}
	free, err := Plan(disaggRequest(w, slo))
	require.NoError(t, err)
	f, ok := bySplit(free)[""]
	require.True(t, ok)
	assert.Equal(t, 1, f.PrefillReplicas)
	n := f.DecodeReplicas
	require.Greater(t, n, 3, "decode-bound: several decode instances")

	held, err := Plan(disaggRequest(w, slo, "1P1D", "1P3D", "2P1D", "1p1d"))
	require.NoError(t, err)
	assert.Equal(t, 1+3, held.Candidates, "aggregated, then each split once")
	got := bySplit(held)
	k3 := (n + 2) / 3
	for name, want := range map[string][2]int{"1P1D": {n, n}, "1P3D": {k3, 3 * k3}, "2P1D": {2 * n, n}} {
		d, ok := got[name]
		require.True(t, ok, name)
		assert.Equal(t, want, [2]int{d.PrefillReplicas, d.DecodeReplicas}, name)
		assert.Equal(t, d.PrefillReplicas+d.DecodeReplicas, d.GPUs, name)
		assert.InDelta(t, f.TPOTMs, d.TPOTMs, 1e-9, name)
		assert.Greater(t, d.USDPerMillionOutputTokens, f.USDPerMillionOutputTokens, name)
		assert.Contains(t, d.Launch, "--kv-transfer-config", name)
	}
}

// Hand relations: a closed loop of 1,000 users served disaggregated. Each
// user's cycle is its TTFT and then out x TPOT of decoding, so the loop
// delivers U / (TTFT + out x TPOT) requests/s (Little's law); the users
// are spread evenly over the decode instances, ceil(U / D) each.
func TestPlanDisaggregatedClosedLoop(t *testing.T) {
	r, err := Plan(disaggRequest(spec.PlanWorkload{Concurrency: spec.Int(1000), InputTokens: spec.Int(2048), OutputTokens: spec.Int(512)},
		spec.PlanSLO{TPOTMs: spec.Float(30), TTFTMs: spec.Float(2000)}))
	require.NoError(t, err)
	d, ok := bySplit(r)[""]
	require.True(t, ok, "disaggregated is searched for a closed loop")
	assert.Equal(t, int(math.Ceil(1000/float64(d.DecodeReplicas))), d.BatchSize)
	cycle := d.TTFTMs/1000 + 512*d.TPOTMs/1000
	assert.InEpsilon(t, 1000/cycle, d.RequestRate, 0.01)
	assert.LessOrEqual(t, d.TTFTMs, 2000.0)
	assert.LessOrEqual(t, d.TPOTMs, 30.0)
}

// Bad splits name the field and the reason.
func TestPlanDisaggregatedSplitErrors(t *testing.T) {
	w := spec.PlanWorkload{RequestRate: spec.Float(1)}
	for _, tc := range []struct {
		splits []string
		off    bool
		field  string
		msg    string
	}{
		{[]string{"2P0D"}, false, "search.disaggregated_splits[0]", `must be "xPyD", x prefill and y decode instances a unit, each 1 to 16 (e.g. "2P1D"), got "2P0D"`},
		{[]string{"1P1D", "P1D"}, false, "search.disaggregated_splits[1]", `must be "xPyD", x prefill and y decode instances a unit, each 1 to 16 (e.g. "2P1D"), got "P1D"`},
		{[]string{"17P1D"}, false, "search.disaggregated_splits[0]", `must be "xPyD", x prefill and y decode instances a unit, each 1 to 16 (e.g. "2P1D"), got "17P1D"`},
		{[]string{"1P1D", "1P2D", "1P3D", "1P4D", "1P5D", "1P6D", "1P7D", "1P8D", "1P9D"}, false, "search.disaggregated_splits", "at most 8 splits, got 9"},
		{[]string{"1P1D"}, true, "search.disaggregated_splits", "needs disaggregated serving; search.disaggregated is false"},
	} {
		req := disaggRequest(w, spec.PlanSLO{TPOTMs: spec.Float(50)}, tc.splits...)
		if tc.off {
			f := false
			req.Search.Disaggregated = &f
		}
		fe := planErr(t, req)
		assert.Equal(t, spec.FieldError{Field: tc.field, Message: tc.msg}, fe)
	}
}
