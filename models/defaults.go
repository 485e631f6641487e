package models

import (
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/jsonx"
)

// classDefaults are the transformers config-class defaults of one
// model_type: the keyword defaults a config.json may omit because the
// class supplies them (google/gemma-3-4b-it's text_config leaves out its
// head counts; a hand-written config may leave out more). Every value the
// importer takes from here is named in a warning (Model.Defaults).
type classDefaults struct {
	modelType string
	class     string // the transformers class, "LlamaConfig"
	source    string // where the defaults are read
	// values is a JSON object of the defaults (JSON text rather than a map
	// literal: a map literal of interface values costs the browser engine
	// about 19 KB of initialisation code).
	values string
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
var typeDefaults = []classDefaults{
	// Gemma3TextConfig.__init__.
	{"gemma3_text", "Gemma3TextConfig", transformers450 + "gemma3/configuration_gemma3.py", `{"vocab_size":262208,"hidden_size":2304,"intermediate_size":9216,"num_hidden_layers":26,"num_attention_heads":8,"num_key_value_heads":4,"head_dim":256,"max_position_embeddings":131072,"sliding_window":4096,"sliding_window_pattern":6,"tie_word_embeddings":true}`},
	// Gemma2Config.__init__.
	{"gemma2", "Gemma2Config", transformers450 + "gemma2/configuration_gemma2.py", `{"vocab_size":256000,"hidden_size":2304,"intermediate_size":9216,"num_hidden_layers":26,"num_attention_heads":8,"num_key_value_heads":4,"head_dim":256,"max_position_embeddings":8192,"sliding_window":4096,"tie_word_embeddings":true}`},
	// LlamaConfig's fields; num_key_value_heads None becomes
	// num_attention_heads and head_dim None hidden_size //
	// num_attention_heads in __post_init__ (the importer's own fallbacks,
	// also warned).
	{"llama", "LlamaConfig", transformersMain + "llama/configuration_llama.py", `{"vocab_size":32000,"hidden_size":4096,"intermediate_size":11008,"num_hidden_layers":32,"num_attention_heads":32,"max_position_embeddings":2048,"tie_word_embeddings":false}`},
	// Ernie4_5Config (transformers main at 008e574391, later than 4.50:
	// its defaults are ERNIE-4.5-0.3B's).
	{"ernie4_5", "Ernie4_5Config", transformersMain + "ernie4_5/configuration_ernie4_5.py", `{"vocab_size":103424,"hidden_size":1024,"intermediate_size":3072,"num_hidden_layers":18,"num_attention_heads":16,"num_key_value_heads":2,"head_dim":128,"max_position_embeddings":131072,"tie_word_embeddings":true}`},
	// ERNIE 4.5 MoE: vLLM reads max_position_embeddings with a default of
	// 131072 (vllm/model_executor/models/ernie45_moe.py @0028a75108
	// Ernie4_5_MoeDecoderLayer), as Ernie4_5_MoeConfig does.
	{"ernie4_5_moe", "Ernie4_5_MoeConfig", transformersMain + "ernie4_5_moe/configuration_ernie4_5_moe.py", `{"max_position_embeddings":131072}`},
	// MistralConfig.__init__ (max_position_embeddings 4096*32). Its
	// sliding_window default (4096) is left out: published Mistral
	// configs that omit it are full attention in vLLM.
	{"mistral", "MistralConfig", "huggingface/transformers@001f85b38fb432858ace93f18622f07cec46d874 src/transformers/models/mistral/configuration_mistral.py", `{"vocab_size":32000,"hidden_size":4096,"intermediate_size":14336,"num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,"max_position_embeddings":131072,"tie_word_embeddings":false}`},
	// Qwen2Config.__init__ (sliding_window applies only with
	// use_sliding_window, default False: left out).
	{"qwen2", "Qwen2Config", "huggingface/transformers@caa3177646255d2cf73626315c8582722af4749c (4.57.0.dev0) src/transformers/models/qwen2/configuration_qwen2.py", `{"vocab_size":151936,"hidden_size":4096,"intermediate_size":22016,"num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":32,"max_position_embeddings":32768,"tie_word_embeddings":false}`},
	// Qwen3Config's fields (head_dim 128, not hidden/heads).
	{"qwen3", "Qwen3Config", transformersMain + "qwen3/configuration_qwen3.py", `{"vocab_size":151936,"hidden_size":4096,"intermediate_size":22016,"num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":32,"head_dim":128,"max_position_embeddings":32768,"tie_word_embeddings":false}`},
	// Qwen3MoeConfig's fields.
	{"qwen3_moe", "Qwen3MoeConfig", transformersMain + "qwen3_moe/configuration_qwen3_moe.py", `{"vocab_size":151936,"hidden_size":2048,"intermediate_size":6144,"num_hidden_layers":24,"num_attention_heads":32,"num_key_value_heads":4,"max_position_embeddings":32768,"tie_word_embeddings":false,"moe_intermediate_size":768,"num_experts_per_tok":8,"num_experts":128,"decoder_sparse_step":1}`},
}

// Default is one value the importer took from a default rather than from
// the config: the config.json path, the value as text, and whose default
// it is.
type Default struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

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
	d, ok := lookupDefaults(modelType)
	if !ok {
		return c, nil
	}
	var values cfg
	if jsonx.Unmarshal([]byte(d.values), &values) != nil {
		return c, nil // cannot happen: TestTypeDefaultsDecode decodes every row
	}
	out := make(cfg, len(c)+len(values))
	var used []Default
	for k, v := range values {
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
	if d, ok := lookupDefaults(modelType); ok {
		return "transformers' " + d.class
	}
	if modelType == "" {
		return "transformers"
	}
	return "transformers' " + strings.ToLower(modelType) + " config class"
}

// lookupDefaults returns the class defaults of modelType.
func lookupDefaults(modelType string) (classDefaults, bool) {
	for _, d := range typeDefaults {
		if d.modelType == modelType {
			return d, true
		}
	}
	return classDefaults{}, false
}
