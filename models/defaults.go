package models

import (
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/internal/fielderr"
)

// classDefaults are the transformers config-class defaults of one
// model_type: the keyword defaults a config.json may omit because the
// class supplies them (google/gemma-3-4b-it's text_config leaves out its
// head counts; a hand-written config may leave out more). Every value the
// importer takes from here is named in a warning (Model.Defaults).
type classDefaults struct {
	class  string // the transformers class, "LlamaConfig"
	source string // where the defaults are read
	values map[string]any
}

// Where the defaults are read. transformersMain is huggingface/transformers
// at commit 008e574391258935f3ecc3035c882e73bbcac419 (main, the v5 config
// dataclasses); the Mistral file at 001f85b38fb432858ace93f18622f07cec46d874;
// the Gemma classes at the 4.50 release.
const (
	transformersMain = "huggingface/transformers@008e574391258935f3ecc3035c882e73bbcac419 src/transformers/models/"
	transformers450  = "transformers v4.50.0 src/transformers/models/"
)

// typeDefaults holds the classes whose defaults the importer applies, by
// model_type. Only fields the importer reads are listed.
var typeDefaults = map[string]classDefaults{
	// Gemma3TextConfig.__init__.
	"gemma3_text": {"Gemma3TextConfig", transformers450 + "gemma3/configuration_gemma3.py", map[string]any{
		"vocab_size": 262208.0, "hidden_size": 2304.0, "intermediate_size": 9216.0,
		"num_hidden_layers": 26.0, "num_attention_heads": 8.0, "num_key_value_heads": 4.0,
		"head_dim": 256.0, "max_position_embeddings": 131072.0, "sliding_window": 4096.0,
		"sliding_window_pattern": 6.0, "tie_word_embeddings": true,
	}},
	// Gemma2Config.__init__.
	"gemma2": {"Gemma2Config", transformers450 + "gemma2/configuration_gemma2.py", map[string]any{
		"vocab_size": 256000.0, "hidden_size": 2304.0, "intermediate_size": 9216.0,
		"num_hidden_layers": 26.0, "num_attention_heads": 8.0, "num_key_value_heads": 4.0,
		"head_dim": 256.0, "max_position_embeddings": 8192.0, "sliding_window": 4096.0,
		"tie_word_embeddings": true,
	}},
	// LlamaConfig's fields; num_key_value_heads None becomes
	// num_attention_heads and head_dim None hidden_size //
	// num_attention_heads in __post_init__ (the importer's own fallbacks,
	// also warned).
	"llama": {"LlamaConfig", transformersMain + "llama/configuration_llama.py", map[string]any{
		"vocab_size": 32000.0, "hidden_size": 4096.0, "intermediate_size": 11008.0,
		"num_hidden_layers": 32.0, "num_attention_heads": 32.0, "max_position_embeddings": 2048.0,
		"tie_word_embeddings": false,
	}},
	// MistralConfig.__init__ (max_position_embeddings 4096*32). Its
	// sliding_window default (4096) is left out: published Mistral
	// configs that omit it are full attention in vLLM.
	"mistral": {"MistralConfig", "huggingface/transformers@001f85b38fb432858ace93f18622f07cec46d874 src/transformers/models/mistral/configuration_mistral.py", map[string]any{
		"vocab_size": 32000.0, "hidden_size": 4096.0, "intermediate_size": 14336.0,
		"num_hidden_layers": 32.0, "num_attention_heads": 32.0, "num_key_value_heads": 8.0,
		"max_position_embeddings": 131072.0, "tie_word_embeddings": false,
	}},
	// Qwen2Config.__init__ (sliding_window applies only with
	// use_sliding_window, default False: left out).
	"qwen2": {"Qwen2Config", "huggingface/transformers@caa3177646255d2cf73626315c8582722af4749c (4.57.0.dev0) src/transformers/models/qwen2/configuration_qwen2.py", map[string]any{
		"vocab_size": 151936.0, "hidden_size": 4096.0, "intermediate_size": 22016.0,
		"num_hidden_layers": 32.0, "num_attention_heads": 32.0, "num_key_value_heads": 32.0,
		"max_position_embeddings": 32768.0, "tie_word_embeddings": false,
	}},
	// Qwen3Config's fields (head_dim 128, not hidden/heads).
	"qwen3": {"Qwen3Config", transformersMain + "qwen3/configuration_qwen3.py", map[string]any{
		"vocab_size": 151936.0, "hidden_size": 4096.0, "intermediate_size": 22016.0,
		"num_hidden_layers": 32.0, "num_attention_heads": 32.0, "num_key_value_heads": 32.0,
		"head_dim": 128.0, "max_position_embeddings": 32768.0, "tie_word_embeddings": false,
	}},
	// Qwen3MoeConfig's fields.
	"qwen3_moe": {"Qwen3MoeConfig", transformersMain + "qwen3_moe/configuration_qwen3_moe.py", map[string]any{
		"vocab_size": 151936.0, "hidden_size": 2048.0, "intermediate_size": 6144.0,
		"num_hidden_layers": 24.0, "num_attention_heads": 32.0, "num_key_value_heads": 4.0,
		"max_position_embeddings": 32768.0, "tie_word_embeddings": false,
		"moe_intermediate_size": 768.0, "num_experts_per_tok": 8.0, "num_experts": 128.0,
		"decoder_sparse_step": 1.0,
	}},
}

// Default is one value the importer took from a default rather than from
// the config: the config.json path, the value as text, and whose default
// it is.
type Default struct {
	Field  string
	Value  string
	Source string
}

// Message is the warning the report gives for d.
func (d Default) Message() string {
	return "config.json has no " + d.Field + ": using " + d.Value + ", " + d.Source
}

// withDefaults returns c with its model_type's class defaults filled in
// where c omits a key (or holds null), and the defaults it used, each under
// its config.json path (prefix + key), in key order; c itself is not
// modified.
func withDefaults(c cfg, modelType, prefix string) (cfg, []Default) {
	d, ok := typeDefaults[modelType]
	if !ok {
		return c, nil
	}
	out := make(cfg, len(c)+len(d.values))
	var used []Default
	for k, v := range d.values {
		out[k] = v
		if !c.has(k) {
			used = append(used, Default{Field: prefix + k, Value: defaultText(v), Source: "the default of transformers' " + d.class + " (" + d.source + ")"})
		}
	}
	for k, v := range c {
		if v != nil {
			out[k] = v
		}
	}
	// Insertion sort by field: map order must not reach a report.
	for i := 1; i < len(used); i++ {
		for j := i; j > 0 && used[j].Field < used[j-1].Field; j-- {
			used[j], used[j-1] = used[j-1], used[j]
		}
	}
	return out, used
}

func defaultText(v any) string {
	switch x := v.(type) {
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return fielderr.Number(x)
	case string:
		return fielderr.Quote(x)
	}
	return "a default"
}

// className names model_type's transformers class for a warning: the
// table's, or the type itself.
func className(modelType string) string {
	if d, ok := typeDefaults[modelType]; ok {
		return "transformers' " + d.class
	}
	if modelType == "" {
		return "transformers"
	}
	return "transformers' " + strings.ToLower(modelType) + " config class"
}
