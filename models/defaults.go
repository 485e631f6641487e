package models

// typeDefaults holds the transformers config-class defaults that published
// config.json files may omit because the class supplies them (for example
// google/gemma-3-4b-it's text_config leaves out its head counts). Values are
// the keyword defaults of each class's __init__ in transformers 4.50
// (src/transformers/models/<family>/configuration_<family>.py).
var typeDefaults = map[string]map[string]any{
	// Gemma3TextConfig (configuration_gemma3.py).
	"gemma3_text": {
		"vocab_size": 262208.0, "hidden_size": 2304.0, "intermediate_size": 9216.0,
		"num_hidden_layers": 26.0, "num_attention_heads": 8.0, "num_key_value_heads": 4.0,
		"head_dim": 256.0, "max_position_embeddings": 131072.0, "sliding_window": 4096.0,
		"sliding_window_pattern": 6.0, "tie_word_embeddings": true,
	},
	// Gemma2Config (configuration_gemma2.py).
	"gemma2": {
		"vocab_size": 256000.0, "hidden_size": 2304.0, "intermediate_size": 9216.0,
		"num_hidden_layers": 26.0, "num_attention_heads": 8.0, "num_key_value_heads": 4.0,
		"head_dim": 256.0, "max_position_embeddings": 8192.0, "sliding_window": 4096.0,
		"tie_word_embeddings": true,
	},
	// LlamaConfig (configuration_llama.py).
	"llama": {
		"vocab_size": 32000.0, "hidden_size": 4096.0, "intermediate_size": 11008.0,
		"num_hidden_layers": 32.0, "num_attention_heads": 32.0, "max_position_embeddings": 2048.0,
		"tie_word_embeddings": false,
	},
	// Ernie4_5Config (configuration_ernie4_5.py, transformers main at
	// 008e574391, later than 4.50: its defaults are ERNIE-4.5-0.3B's).
	"ernie4_5": {
		"vocab_size": 103424.0, "hidden_size": 1024.0, "intermediate_size": 3072.0,
		"num_hidden_layers": 18.0, "num_attention_heads": 16.0, "num_key_value_heads": 2.0,
		"head_dim": 128.0, "max_position_embeddings": 131072.0, "tie_word_embeddings": true,
	},
	// ERNIE 4.5 MoE: vLLM reads max_position_embeddings with a default of
	// 131072 (vllm/model_executor/models/ernie45_moe.py @0028a75108
	// Ernie4_5_MoeDecoderLayer), as Ernie4_5_MoeConfig does.
	"ernie4_5_moe": {"max_position_embeddings": 131072.0},
	// MistralConfig (configuration_mistral.py).
	"mistral": {
		"vocab_size": 32000.0, "hidden_size": 4096.0, "intermediate_size": 14336.0,
		"num_hidden_layers": 32.0, "num_attention_heads": 32.0, "num_key_value_heads": 8.0,
		"max_position_embeddings": 131072.0, "tie_word_embeddings": false,
	},
}

// withDefaults returns c with its model_type's class defaults filled in
// where c omits a key; c itself is not modified.
func withDefaults(c cfg, modelType string) cfg {
	d, ok := typeDefaults[modelType]
	if !ok {
		return c
	}
	out := make(cfg, len(c)+len(d))
	for k, v := range d {
		out[k] = v
	}
	for k, v := range c {
		if v != nil {
			out[k] = v
		}
	}
	return out
}
