package bridge

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRequestSchema(t *testing.T) {
	t.Parallel()
	var s map[string]any
	require.NoError(t, json.Unmarshal([]byte(requestSchema()), &s))
	for k, v := range map[string]string{
		"model": "string", "model_config": "object", "tensor_parallel_size": "integer",
		"gpu_memory_utilization": "number", "kv_cache_dtype": "string",
	} {
		assert.Equal(t, v, s[k], k)
	}
	workload, _ := s["workload"].(map[string]any)
	assert.Equal(t, "integer", workload["input_tokens"])
	assert.Equal(t, "number", workload["request_rate"])
	sweep, _ := s["simulate"].(map[string]any)["sweep"].(map[string]any)
	assert.Equal(t, []any{"number"}, sweep["request_rates"])
	hw, _ := s["hardware"].(map[string]any)
	acc, _ := hw["$string_or"].(map[string]any)
	flops, _ := acc["peak_flops"].(map[string]any)
	assert.Equal(t, "number", acc["memory_bytes"])
	assert.Equal(t, "number", flops["bf16"])
	assert.Equal(t, []any{"string"}, acc["aliases"])
}

// The contract export is JSON of the engine's own tables.
func TestContractTables(t *testing.T) {
	t.Parallel()
	text, err := contractTables()
	require.NoError(t, err)
	var c struct {
		Engines []struct {
			Name     string
			Defaults map[string]float64
		}
		Fields map[string]map[string]any
	}
	require.NoError(t, json.Unmarshal([]byte(text), &c))
	require.Len(t, c.Engines, 5)
	assert.Equal(t, "lmdeploy", c.Engines[2].Name)
	assert.InDelta(t, 0.8, c.Engines[2].Defaults["gpu_memory_utilization"], 0)
	assert.Equal(t, map[string]any{
		"kind": "number", "min": 0.0, "max": 1.0, "exclusive_min": true,
		"default_text": "the engine's own (see engines); vLLM: its release's, 0.92 from 0.21, 0.9 before; SGLang: by release, GPU memory and TP", "unit": "fraction of GPU memory",
	}, c.Fields["gpu_memory_utilization"])
}

// The generated tables are what calc/contract derives now.
func TestTablesAreFresh(t *testing.T) {
	t.Parallel()
	assert.JSONEq(t, RequestSchema(), requestSchemaJSON, "run go generate ./wasm/js/bridge")
	assert.JSONEq(t, ContractJSON(), contractJSON, "run go generate ./wasm/js/bridge")
}
