package calc_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// TestCheckpointIDEvaluates: a checkpoint id the catalog does not hold is
// the catalog architecture with the suffix's quantization
// (models/checkpoint.go): Qwen/Qwen3-8B-FP8 is Qwen/Qwen3-8B with the
// named quantization fp8, so its report's weights and KV pool are those of
// Qwen/Qwen3-8B asked with quantization "fp8", the id kept as given, and a
// checkpoint_resolved warning says what it resolved to.
func TestCheckpointIDEvaluates(t *testing.T) {
	t.Parallel()
	hw := calc.HardwareRef{ID: "h100-sxm"}
	rep, err := calc.Evaluate(calc.Request{Model: "Qwen/Qwen3-8B-FP8", Hardware: hw})
	require.NoError(t, err)
	base, err := calc.Evaluate(calc.Request{Model: "Qwen/Qwen3-8B", Hardware: hw, Quantization: "fp8"})
	require.NoError(t, err)
	assert.Equal(t, "Qwen/Qwen3-8B-FP8", rep.Model.ID)
	assert.Equal(t, "fp8", rep.Model.Quantization)
	assert.Equal(t, base.Memory.WeightsBytes, rep.Memory.WeightsBytes)
	assert.Equal(t, base.KVCache.CapacityTokens, rep.KVCache.CapacityTokens)
	assert.Equal(t, []string{"Qwen/Qwen3-8B-FP8 is not in the catalog: modelled as Qwen/Qwen3-8B (its architecture and config.json facts, context length included) with quantization fp8 (read from the suffix -FP8)"},
		warningsOf(rep, "checkpoint_resolved"))
	assert.Empty(t, warningsOf(base, "checkpoint_resolved"), "a catalog id resolves to itself, silently")
}

// TestRequestQuantizationWinsOverSuffix: the request's quantization field
// wins over the one the id's suffix gave, and the warning says so.
func TestRequestQuantizationWinsOverSuffix(t *testing.T) {
	t.Parallel()
	hw := calc.HardwareRef{ID: "h100-sxm"}
	rep, err := calc.Evaluate(calc.Request{Model: "Qwen/Qwen3-8B-FP8", Hardware: hw, Quantization: "awq"})
	require.NoError(t, err)
	awq, err := calc.Evaluate(calc.Request{Model: "Qwen/Qwen3-8B", Hardware: hw, Quantization: "awq"})
	require.NoError(t, err)
	assert.Equal(t, "awq", rep.Model.Quantization)
	assert.Equal(t, awq.Memory.WeightsBytes, rep.Memory.WeightsBytes)
	require.Len(t, warningsOf(rep, "checkpoint_resolved"), 1)
	assert.Contains(t, warningsOf(rep, "checkpoint_resolved")[0], "with quantization fp8 (read from the suffix -FP8); the request's quantization awq applies instead")
	// "auto" is the checkpoint's own: the suffix's.
	auto, err := calc.Evaluate(calc.Request{Model: "Qwen/Qwen3-8B-FP8", Hardware: hw, Quantization: "auto"})
	require.NoError(t, err)
	assert.Equal(t, "fp8", auto.Model.Quantization)
}

// TestUnresolvedCheckpointIsAModelError: an id the rule refuses is the
// model field's error, with the reason and the suggestion.
func TestUnresolvedCheckpointIsAModelError(t *testing.T) {
	t.Parallel()
	_, err := calc.Evaluate(calc.Request{Model: "unsloth/Qwen3-8B-GGUF", Hardware: calc.HardwareRef{ID: "h100-sxm"}})
	require.Error(t, err)
	errs, ok := err.(calc.Errors)
	require.True(t, ok, "%T", err)
	require.Len(t, errs, 1)
	assert.Equal(t, "model", errs[0].Field)
	assert.Contains(t, errs[0].Message, "GGUF")
	assert.Contains(t, errs[0].Message, `did you mean "Qwen/Qwen3-8B"?`)
}

// TestPlanOfACheckpointID: the planner takes the checkpoint as published
// (its quantization fixed), says what the id resolved to, and its launch
// command serves the id as given.
func TestPlanOfACheckpointID(t *testing.T) {
	t.Parallel()
	r, err := calc.Plan(calc.PlanRequest{Model: "Qwen/Qwen3-8B-FP8", Workload: calc.PlanWorkload{Concurrency: calc.Int(16)}, SLO: calc.PlanSLO{TPOTMs: calc.Float(100)},
		Constraints: &calc.PlanConstraints{Accelerators: []string{"h100-sxm"}, Engines: []string{"vllm"}}})
	require.NoError(t, err)
	assert.Equal(t, "fp8", r.Model.Quantization)
	found := false
	for _, w := range r.Warnings {
		found = found || w.Code == "checkpoint_resolved"
	}
	assert.True(t, found)
	require.NotEmpty(t, r.Deployments)
	assert.Contains(t, r.Deployments[0].Launch, "vllm serve Qwen/Qwen3-8B-FP8 ")
}
