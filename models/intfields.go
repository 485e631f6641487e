package models

import (
	"math"
	"sort"
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
var textIntFields = map[string]intRule{
	"hidden_size": positiveInt, "n_embd": positiveInt, "d_model": positiveInt, "dim": positiveInt,
	"num_hidden_layers": positiveInt, "n_layer": positiveInt, "num_layers": positiveInt, "n_layers": positiveInt,
	"num_attention_heads": positiveInt, "n_head": positiveInt, "n_heads": positiveInt, "num_heads": positiveInt,
	"num_key_value_heads": positiveInt, "n_head_kv": positiveInt, "num_kv_heads": positiveInt,
	"multi_query_group_num": positiveInt, "n_kv_heads": positiveInt,
	"vocab_size": positiveInt, "padded_vocab_size": positiveInt, "n_vocab": positiveInt,
	"head_dim": positiveInt, "attention_head_dim": positiveInt, "kv_channels": positiveInt,
	"max_position_embeddings": positiveInt, "n_positions": positiveInt, "max_sequence_length": positiveInt,
	"seq_length": positiveInt, "max_seq_len": positiveInt,
	"intermediate_size": positiveInt, "n_inner": positiveInt, "ffn_hidden_size": positiveInt, "ffn_dim": positiveInt,
	"num_local_experts": nonNegativeInt, "n_routed_experts": nonNegativeInt, "num_experts": nonNegativeInt,
	"moe_num_experts":     nonNegativeInt,
	"num_experts_per_tok": nonNegativeInt, "experts_per_token": nonNegativeInt, "moe_topk": nonNegativeInt,
	"num_experts_per_token": nonNegativeInt,
	"moe_intermediate_size": positiveInt, "expert_intermediate_size": positiveInt,
	"intermediate_size_mlp": positiveInt, "dense_intermediate_size": positiveInt,
	"n_shared_experts": nonNegativeInt, "shared_expert_intermediate_size": nonNegativeInt,
	"shared_intermediate_size": nonNegativeInt,
	"kv_lora_rank":             nonNegativeInt, "q_lora_rank": nonNegativeInt,
	"qk_nope_head_dim": nonNegativeInt, "qk_rope_head_dim": nonNegativeInt, "v_head_dim": positiveInt,
	"sliding_window": nonNegativeInt, "sliding_window_size": nonNegativeInt, "attention_window_size": nonNegativeInt,
	"sliding_window_pattern": nonNegativeInt, "attention_chunk_size": nonNegativeInt,
	"full_attention_interval": nonNegativeInt,
	"first_k_dense_replace":   nonNegativeInt, "moe_layer_freq": nonNegativeInt, "decoder_sparse_step": nonNegativeInt,
	"interleave_moe_layer_step": nonNegativeInt,
	"mamba_expand":              positiveInt, "expand": positiveInt, "mamba_d_state": positiveInt,
	"ssm_state_size": positiveInt, "state_size": positiveInt, "mamba_n_groups": positiveInt, "n_groups": positiveInt,
	"mamba_d_conv": positiveInt, "conv_kernel": positiveInt, "mamba_d_head": positiveInt,
	"mamba_head_dim": positiveInt, "mamba_n_heads": positiveInt,
	"linear_num_key_heads": positiveInt, "linear_key_head_dim": positiveInt, "linear_num_value_heads": positiveInt,
	"linear_value_head_dim": positiveInt, "linear_conv_kernel_dim": positiveInt,
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
		if msg := badInt(c[key], rule); msg != "" {
			l.Add(prefix+key, msg)
		}
	}
}

// badInt says what is wrong with v as an integer under rule, or "".
func badInt(v any, rule intRule) string {
	want := map[intRule]string{
		positiveInt:    "must be a positive integer",
		nonNegativeInt: "must be a non-negative integer",
		minusOneOrMore: "must be -1 or a non-negative integer",
	}[rule]
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
	min := map[intRule]float64{positiveInt: 1, nonNegativeInt: 0, minusOneOrMore: -1}[rule]
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
	sort.Slice(list, func(i, j int) bool { return list[i].Field < list[j].Field })
	return list
}
