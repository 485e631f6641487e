package models

import (
	"math"
	"strconv"

	"github.com/modelrefs/throughput/internal/fielderr"
)

// maxConfigInt bounds every integer a config.json may hold: 2^40, far above
// any real dimension, count or context (the tighter per-field limits in
// parse.go follow), and low enough that products of a few stay in int64.
const maxConfigInt = 1 << 40

// intRule is how an integer config field is judged: positive ones must be
// at least 1 (a size, a count of heads); the others may be 0 (0 experts, 0
// dense layers first, no sliding window); minusOne also accepts -1 (GPTQ's
// group_size -1, "no grouping").
type intRule int

const (
	positiveInt intRule = iota
	nonNegativeInt
	minusOneOrMore
)

// textIntFields are the integer fields the importer reads from the text
// model's object (config.json, or its text_config), with their rule.
var textIntFields = intFields(map[intRule][]string{
	positiveInt: {
		"hidden_size", "n_embd", "d_model", "dim", "num_hidden_layers", "n_layer", "num_layers", "n_layers",
		"num_attention_heads", "n_head", "n_heads", "num_heads", "num_key_value_heads", "n_head_kv",
		"num_kv_heads", "multi_query_group_num", "n_kv_heads", "vocab_size", "padded_vocab_size", "n_vocab",
		"head_dim", "attention_head_dim", "kv_channels", "max_position_embeddings", "n_positions",
		"max_sequence_length", "seq_length", "max_seq_len", "intermediate_size", "n_inner", "ffn_hidden_size",
		"ffn_dim", "moe_intermediate_size", "expert_intermediate_size", "intermediate_size_mlp",
		"dense_intermediate_size", "v_head_dim", "mamba_expand", "expand", "mamba_d_state", "ssm_state_size",
		"state_size", "mamba_n_groups", "n_groups", "mamba_d_conv", "conv_kernel", "mamba_d_head",
		"mamba_head_dim", "mamba_n_heads", "linear_num_key_heads", "linear_key_head_dim", "linear_num_value_heads",
		"linear_value_head_dim", "linear_conv_kernel_dim", "conv_dim", "conv_L_cache", "block_ff_dim",
		"block_multiple_of", "altup_num_inputs",
	},
	nonNegativeInt: {
		"num_local_experts", "n_routed_experts", "num_experts", "moe_num_experts", "num_experts_per_tok",
		"experts_per_token", "moe_topk", "num_experts_per_token", "n_shared_experts", "num_shared_expert",
		"shared_expert_intermediate_size", "shared_intermediate_size", "kv_lora_rank", "q_lora_rank",
		"qk_nope_head_dim", "qk_rope_head_dim", "sliding_window", "sliding_window_size", "attention_window_size",
		"sliding_window_pattern", "attention_chunk_size", "full_attention_interval", "first_k_dense_replace",
		"moe_layer_freq", "decoder_sparse_step", "interleave_moe_layer_step", "num_nextn_predict_layers",
		"mtp_num_hidden_layers", "num_mtp_modules", "mtp_transformer_layers", "index_n_heads", "index_head_dim",
		"index_topk", "hidden_size_per_layer_input", "vocab_size_per_layer_input", "swa_num_attention_heads",
		"swa_num_key_value_heads", "swa_head_dim", "swa_v_head_dim", "laurel_rank", "num_kv_shared_layers",
	},
})

// intFields inverts a rule -> keys table (a map literal of this size
// compiles to far more code in the browser engine than this loop).
func intFields(byRule map[intRule][]string) map[string]intRule {
	m := map[string]intRule{}
	for rule, keys := range byRule {
		for _, k := range keys {
			m[k] = rule
		}
	}
	return m
}

// topIntFields are read from the top object of a multimodal config.
var topIntFields = map[string]intRule{"vocab_size": positiveInt, "max_position_embeddings": positiveInt}

// visionIntFields are read from vision_config.
var visionIntFields = map[string]intRule{
	"hidden_size": positiveInt, "width": positiveInt, "embed_dim": positiveInt,
	"num_hidden_layers": positiveInt, "depth": positiveInt, "num_layers": positiveInt,
	"intermediate_size": positiveInt, "mlp_dim": positiveInt, "patch_size": positiveInt,
}

// quantIntFields are read from quantization_config.
var quantIntFields = map[string]intRule{
	"bits": positiveInt, "w_bit": positiveInt, "group_size": minusOneOrMore, "q_group_size": minusOneOrMore,
}

// checkInts reports every field of c named in rules that is present (not
// null) but not an integer the rule accepts: cfg.int would otherwise read
// 8.5, 1e13 or 0 as absent and use the default. An absent field keeps its
// documented default.
func checkInts(l *fielderr.List, c cfg, prefix string, rules map[string]intRule) {
	for key, rule := range rules {
		if !c.has(key) {
			continue
		}
		if a, ok := c[key].([]any); ok && (key == "intermediate_size" || key == "moe_intermediate_size" || key == "moe_topk" || key == "num_shared_expert" || key == "moe_layer_freq") {
			// Gemma 3n lists one MLP width per layer (vLLM gemma3n.py
			// reads config.intermediate_size[layer_idx]); Hunyuan lists
			// moe_intermediate_size, moe_topk and num_shared_expert per
			// layer (vLLM hunyuan_v1.py HunYuanSparseMoeBlock), MiMo-V2-Flash
			// moe_layer_freq (mimo_v2_flash.py is_moe_layer).
			for i, x := range a {
				if msg := badInt(x, rule); msg != "" {
					l.Add(prefix+key+"["+strconv.Itoa(i)+"]", msg)
					break
				}
			}
			continue
		}
		if msg := badInt(c[key], rule); msg != "" {
			l.Add(prefix+key, msg)
		}
	}
}

// badInt says what is wrong with v as an integer under rule, or "".
func badInt(v any, rule intRule) string {
	want, min := "must be a positive integer", 1.0
	switch rule {
	case nonNegativeInt:
		want, min = "must be a non-negative integer", 0
	case minusOneOrMore:
		want, min = "must be -1 or a non-negative integer", -1
	}
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case int:
		f = float64(x)
	case int64:
		f = float64(x)
	case string:
		p, err := strconv.ParseFloat(x, 64)
		if err != nil {
			return want + ", got " + fielderr.Quote(x)
		}
		f = p
	default:
		return want + ", got a " + jsonKind(v)
	}
	got := ", got " + strconv.FormatFloat(f, 'g', -1, 64)
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) || f < min:
		return want + got
	case f >= maxConfigInt:
		return want + " below 2^40" + got
	}
	return ""
}

func jsonKind(v any) string {
	switch v.(type) {
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "value"
}

// sortedErrs orders problems by field, so a report does not depend on map
// iteration order.
func sortedErrs(err error) error {
	list := err.(fielderr.Errors)
	// Insertion sort: the lists are a few entries long, and sort.Slice
	// costs the browser engine 6 KB of code.
	for i := 1; i < len(list); i++ {
		for j := i; j > 0 && list[j].Field < list[j-1].Field; j-- {
			list[j], list[j-1] = list[j-1], list[j]
		}
	}
	return list
}
