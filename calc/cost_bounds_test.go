package calc_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// groupsConfig is issue 35's probe model: n layers, the first full
// attention and the rest sliding ("local"), so vLLM's grouping (groups of
// the rarest type's count, 1) gives n KV-cache groups.
func groupsConfig(n int) map[string]any {
	types := make([]any, n)
	for i := range types {
		types[i] = "local"
	}
	types[0] = "full"
	return map[string]any{"model_type": "qwen2", "hidden_size": 256, "num_hidden_layers": n, "num_attention_heads": 4, "num_key_value_heads": 1,
		"intermediate_size": 512, "vocab_size": 1000, "max_position_embeddings": 8192, "sliding_window": 128, "layer_types": types}
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
