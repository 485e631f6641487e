package planner

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc/spec"
)

// planErr runs req and returns its one field error.
func planErr(t *testing.T, req spec.PlanRequest) spec.FieldError {
	t.Helper()
	_, err := Plan(req)
	var es spec.Errors
	require.ErrorAs(t, err, &es)
	require.Len(t, es, 1)
	return es[0]
}

// longContextModel is a small model (32 layers of 256, one KV head of 64)
// whose context holds 33,554,432 tokens.
func longContextModel() map[string]any {
	return map[string]any{"model_type": "qwen2", "hidden_size": 256, "num_hidden_layers": 32, "num_attention_heads": 4, "num_key_value_heads": 1,
		"intermediate_size": 512, "vocab_size": 1000, "max_position_embeddings": 1 << 25}
}

// A plan gets the evaluation's work budget. A whole-catalog plan of
// longContextModel searches 11,088 candidates (the parts rented on demand,
// aggregated and disaggregated; 10,528 before NVFP4 weights were searched
// on the Blackwell parts); with 16,000,000-token prompts each prices
// its prompt at least once in ceil(16,000,000 / 8,192) = 1,954 chunks, so
// the search costs at least 11,088 * (300 + 3 * 1,954) = 6.83e7 units,
// over the 4e6 budget: refused before it runs (it took
// 1.4 s of native CPU before the budget).
func TestPlanBudgetRefusesLongPromptsBeforeTheSearch(t *testing.T) {
	t.Parallel()
	fe := planErr(t, spec.PlanRequest{ModelConfig: longContextModel(), Workload: spec.PlanWorkload{RequestRate: spec.Float(0.001), InputTokens: spec.Int(16_000_000), OutputTokens: spec.Int(2)},
		SLO: spec.PlanSLO{TTFTMs: spec.Float(1e9)}})
	assert.Equal(t, spec.FieldError{Field: "workload.input_tokens", Message: "the plan prices each candidate's prompt of 16,000,000 tokens in steps of at most 8,192 tokens: " +
		"its 11,088 candidate deployments need about 6.8e7 work units, above the work budget of 4e6; " +
		"lower workload.input_tokens, raise search.max_num_batched_tokens, or narrow constraints.accelerators or constraints.engines"}, fe)
}

// Prompts of 400,000 tokens under a closed loop (aggregated candidates
// only: search.disaggregated false) are priced at candidates * (300 + 3 * 49) units before the search,
// under the budget, but each candidate prices
// them several times (its own prefill beside each steady state's pass),
// so the search's count (deploy.StepMemo.PrefillChunks) passes the budget
// part way, and the plan is refused with no partial figures.
func TestPlanBudgetStopsTheSearch(t *testing.T) {
	t.Parallel()
	f := false
	req := spec.PlanRequest{ModelConfig: longContextModel(), Workload: spec.PlanWorkload{Concurrency: spec.Int(4), InputTokens: spec.Int(400_000), OutputTokens: spec.Int(2)},
		SLO: spec.PlanSLO{TTFTMs: spec.Float(1e9)}, Search: &spec.PlanSearch{Disaggregated: &f}}
	s, err := resolvePlanRequest(req)
	require.NoError(t, err)
	require.NoError(t, s.preBudget(s.countCandidates()), "under the budget before the search")
	rep, _ := Plan(req)
	assert.Zero(t, rep.Candidates, "no partial report")
	fe := planErr(t, req)
	assert.Equal(t, "workload.input_tokens", fe.Field)
	assert.Regexp(t, `^the plan prices each candidate's prompt of 400,000 tokens in steps of at most 8,192 tokens: its [0-9,]+ candidate deployments ran past the work budget of 4e6 units after [0-9,]+ of them; lower workload.input_tokens`, fe.Message)
}

// deepModel is longContextModel's shape (256 wide) with n layers and an
// 8,192-token context: issue 35's deep probe shape.
func deepModel(n int) map[string]any {
	return map[string]any{"model_type": "qwen2", "hidden_size": 256, "num_hidden_layers": n, "num_attention_heads": 4, "num_key_value_heads": 1,
		"intermediate_size": 512, "vocab_size": 1000, "max_position_embeddings": 8192}
}

// deepPlan is a whole-catalog plan of deepModel(n) (nil: every
// accelerator) at 8 users.
func deepPlan(n int, accels []string) spec.PlanRequest {
	r := spec.PlanRequest{ModelConfig: deepModel(n), Workload: spec.PlanWorkload{Concurrency: spec.Int(8)}, SLO: spec.PlanSLO{TPOTMs: spec.Float(100)}}
	if accels != nil {
		r.Constraints = &spec.PlanConstraints{Accelerators: accels}
	}
	return r
}

// searchOf runs req's search without the budget's stop and returns the
// planner, its counters filled.
func searchOf(t *testing.T, req spec.PlanRequest) *planner {
	t.Helper()
	s, err := resolvePlanRequest(req)
	require.NoError(t, err)
	p := newPlanner(s)
	p.run()
	return p
}

// Each layout's resolution walks the model's layers once: the same
// search of a model twice as deep counts exactly twice the layers (its
// 256-wide weights fit every accelerator at either depth, so the same
// layouts are resolved), and the layers per layout are the model's.
func TestPlanCountsTheLayersItsLayoutsWalk(t *testing.T) {
	t.Parallel()
	req := deepPlan(32, []string{"h100-sxm"})
	p32 := searchOf(t, req)
	p64 := searchOf(t, deepPlan(64, []string{"h100-sxm"}))
	require.Positive(t, p32.layerBuilds)
	assert.Zero(t, p32.layerBuilds%32, "whole layouts of 32 layers")
	assert.Equal(t, 2*p32.layerBuilds, p64.layerBuilds)
	assert.Equal(t, p32.evaluated, p64.evaluated, "the same candidates")
}

// Issue 35's deep probe (a 1,024-layer model of width 256: 0.24 s for a
// whole-catalog plan) is priced by its layers: a plan whose layouts walk
// more than the budget allows is stopped, naming the model, with no
// partial figures, within one layout (1,024 layers, 4,096 units) or one
// candidate of the budget. The same model planned on one accelerator is served: its
// counted work is under the budget.
func TestPlanBudgetPricesDeepModels(t *testing.T) {
	t.Parallel()
	rep, err := Plan(deepPlan(1024, nil))
	assert.Zero(t, rep.Candidates, "no partial report")
	var es spec.Errors
	require.ErrorAs(t, err, &es)
	require.Len(t, es, 1)
	assert.Equal(t, "model", es[0].Field)
	assert.Regexp(t, `^the plan resolves each candidate layout of the model's 1,024 layers layer by layer: its [0-9,]+ candidate deployments ran past the work budget of 4e6 units after [0-9,]+ of them; narrow constraints.accelerators or constraints.engines$`, es[0].Message)

	s, err := resolvePlanRequest(deepPlan(1024, nil))
	require.NoError(t, err)
	p := newPlanner(s)
	p.run()
	w := planWork(p.evaluated, p.memo.PrefillChunks(), p.layerBuilds)
	assert.Greater(t, w, 4e6)
	assert.Less(t, w, 1.01*4e6, "stopped within a layout or a candidate (4,096 or a few hundred units) of the budget")

	one := searchOf(t, deepPlan(1024, []string{"h100-sxm"}))
	require.NoError(t, one.stopErr)
	assert.LessOrEqual(t, planWork(one.evaluated, one.memo.PrefillChunks(), one.layerBuilds), 4e6)
	_, err = Plan(deepPlan(1024, []string{"h100-sxm"}))
	require.NoError(t, err)
}
