// Package probemodel holds issue 35's probe model for the tests of the
// packages that price or bound its cost (calc, calc/evaluate).
package probemodel

// Groups is issue 35's probe model as a config.json object: n layers of
// a small Qwen2 shape, the first full attention and the rest sliding
// (window 128), so vLLM's grouping (groups of the rarest type's count, 1)
// gives n KV-cache groups.
func Groups(n int) map[string]any {
	types := make([]any, n)
	for i := range types {
		types[i] = "sliding_attention"
	}
	types[0] = "full_attention"
	return map[string]any{"model_type": "qwen2", "hidden_size": 256, "num_hidden_layers": n, "num_attention_heads": 4, "num_key_value_heads": 1,
		"intermediate_size": 512, "vocab_size": 1000, "max_position_embeddings": 8192, "sliding_window": 128, "layer_types": types}
}
