package main

import (
	"encoding/json"
	"testing"
)

func TestRequestSchema(t *testing.T) {
	t.Parallel()
	var s map[string]any
	if err := json.Unmarshal([]byte(requestSchema()), &s); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"model": "string", "model_config": "object", "tensor_parallel_size": "integer",
		"gpu_memory_utilization": "number", "kv_cache_dtype": "string",
	}
	for k, v := range want {
		if s[k] != v {
			t.Errorf("%s: %v, want %v", k, s[k], v)
		}
	}
	workload, _ := s["workload"].(map[string]any)
	if workload["input_tokens"] != "integer" || workload["request_rate"] != "number" {
		t.Errorf("workload: %v", workload)
	}
	hw, _ := s["hardware"].(map[string]any)
	acc, _ := hw["$string_or"].(map[string]any)
	flops, _ := acc["peak_flops"].(map[string]any)
	aliases, _ := acc["aliases"].([]any)
	if acc["memory_bytes"] != "number" || flops["bf16"] != "number" || len(aliases) != 1 || aliases[0] != "string" {
		t.Errorf("hardware: %v", hw)
	}
}
