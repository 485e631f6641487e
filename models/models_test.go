package models

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/jsonx"
)

// Every catalog entry's derived parameter count is within 1 % of the count
// its publisher states (published_params, with its source in the entry).
func TestCatalogParamsMatchPublished(t *testing.T) {
	t.Parallel()
	entries, err := Catalog()
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(entries), 40)
	for _, e := range entries {
		t.Run(e.ID, func(t *testing.T) {
			t.Parallel()
			require.Positive(t, e.PublishedParams, "published_params missing")
			require.NotEmpty(t, e.ParamsSource)
			require.True(t, e.Source.URL != "" || e.Source.Repo != "", "entry cites no source")
			m, err := Lookup(e.ID)
			require.NoError(t, err)
			got := m.Params.Total
			if e.PublishedTextOnly {
				got -= m.Params.Vision
			}
			if e.PublishedEffective {
				require.Positive(t, m.Params.PLETable, "published_params_effective on a model without per-layer embeddings")
				got -= m.Params.Vision + m.Params.PLETable
			}
			if e.PublishedWithoutEmbeddings {
				require.Positive(t, m.Params.PLETable, "published_params_without_embeddings on a model without per-layer embeddings")
				got -= m.Params.Vision + m.Params.PLETable + m.Params.Embedding
			}
			if e.PublishedIncludesMTP {
				require.Positive(t, m.Params.MTP, "published_params_include_mtp on a model without MTP layers")
				got += m.Params.MTP
			}
			rel := float64(got)/e.PublishedParams - 1
			if e.ParamsTolerance > 0 {
				assert.LessOrEqual(t, e.ParamsTolerance, MaxParamsTolerance)
				assert.Contains(t, e.Notes, "params_tolerance", "an exemption is justified in the notes")
			}
			assert.LessOrEqual(t, math.Abs(rel), e.Tolerance(), "derived %d vs published %.0f (%+.2f%%)", got, e.PublishedParams, 100*rel)
			assert.LessOrEqual(t, m.Params.Active, m.Params.Total)
		})
	}
}

// Hand-derived counts for Llama-3.1-8B (hidden 4096, 32 layers, 32 heads,
// 8 KV heads of 128, intermediate 14336, vocab 128256, untied):
//
//	embedding  = 128256*4096                        =   525,336,576
//	lm_head    = same                               =   525,336,576
//	attention  = 32 * (2*4096*4096 + 2*4096*1024)   = 1,342,177,280
//	mlp        = 32 * 3*4096*14336                  = 5,637,144,576
//	norms      = 32 * 2*4096 + 4096                 =       266,240
//	total                                           = 8,030,261,248
//
// which is the exact safetensors count on the Hugging Face page.
func TestLlama31_8BBreakdown(t *testing.T) {
	t.Parallel()
	m, err := Lookup("llama-3.1-8b")
	require.NoError(t, err)
	p := m.Params
	assert.Equal(t, int64(525_336_576), p.Embedding)
	assert.Equal(t, int64(525_336_576), p.LMHead)
	assert.Equal(t, int64(1_342_177_280), p.Attention)
	assert.Equal(t, int64(5_637_144_576), p.DenseMLP)
	assert.Equal(t, int64(266_240), p.Norms)
	assert.Equal(t, int64(8_030_261_248), p.Total)
	assert.Equal(t, p.Total, p.Active)
}

// Mixtral-8x7B: 8 experts of 3*4096*14336 = 176,160,768 weights, top-2.
// Active = total - 32 layers * 6 unused experts * 176,160,768.
func TestMixtralActiveParams(t *testing.T) {
	t.Parallel()
	m, err := Lookup("mistralai/Mixtral-8x7B-v0.1")
	require.NoError(t, err)
	assert.Equal(t, int64(176_160_768), m.Params.ExpertParams)
	assert.Equal(t, m.Params.Total-32*6*176_160_768, m.Params.Active)
	// Published: 46.7B total, 12.9B active (Mistral AI announcement).
	assert.InDelta(t, 12.9e9, float64(m.Params.Active), 0.01*12.9e9)
}

// DeepSeek-V2-Lite MLA, per layer (hidden 2048, 16 heads, no q_lora,
// nope 128, rope 64, v 128, kv_lora 512):
//
//	q     = 2048*16*192          = 6,291,456
//	kv_a  = 2048*(512+64)        = 1,179,648
//	norm  = 512
//	kv_b  = 512*16*(128+128)     = 2,097,152
//	o     = 16*128*2048          = 4,194,304
//	total                        = 13,763,072
func TestMLAAttentionParams(t *testing.T) {
	t.Parallel()
	m, err := Lookup("deepseek-ai/DeepSeek-V2-Lite-Chat")
	require.NoError(t, err)
	assert.Equal(t, int64(27*13_763_072), m.Params.Attention)
	assert.Equal(t, MLAttention, m.Layers[0].Kind)
	assert.False(t, m.Layers[0].MoE, "first_k_dense_replace=1 keeps layer 0 dense")
	assert.True(t, m.Layers[1].MoE)
	assert.Equal(t, 2*1408, m.SharedIntermediate)
}

func TestLayerPatterns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id      string
		kinds   map[LayerKind]int
		window  int
		firstIs LayerKind
	}{
		{"google/gemma-2-9b-it", map[LayerKind]int{SlidingAttention: 21, FullAttention: 21}, 4096, SlidingAttention},
		{"google/gemma-3-12b-it", map[LayerKind]int{SlidingAttention: 40, FullAttention: 8}, 1024, SlidingAttention},
		{"openai/gpt-oss-20b", map[LayerKind]int{SlidingAttention: 12, FullAttention: 12}, 128, SlidingAttention},
		{"mistralai/Mistral-7B-v0.1", map[LayerKind]int{SlidingAttention: 32}, 4096, SlidingAttention},
		{"meta-llama/Llama-4-Scout-17B-16E-Instruct", map[LayerKind]int{SlidingAttention: 36, FullAttention: 12}, 8192, SlidingAttention},
		{"Qwen/Qwen3-Next-80B-A3B-Thinking", map[LayerKind]int{LinearAttention: 36, FullAttention: 12}, 0, LinearAttention},
		{"ibm-granite/granite-4.0-h-tiny", map[LayerKind]int{Mamba: 36, FullAttention: 4}, 0, Mamba},
		{"Qwen/Qwen2.5-7B-Instruct", map[LayerKind]int{FullAttention: 28}, 0, FullAttention},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			m, err := Lookup(tc.id)
			require.NoError(t, err)
			got := map[LayerKind]int{}
			for _, l := range m.Layers {
				got[l.Kind]++
				if l.Kind == SlidingAttention {
					assert.Equal(t, tc.window, l.Window)
				}
			}
			assert.Equal(t, tc.kinds, got)
			assert.Equal(t, tc.firstIs, m.Layers[0].Kind)
		})
	}
}

func TestQuantizationParsing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id          string
		method      string
		format      string
		bits        float64
		activations string
		expertsOnly bool
	}{
		{"openai/gpt-oss-20b", "mxfp4", "fp4", 4.25, "", true},
		{"RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", "compressed-tensors", "fp8", 8, "fp8", false},
		// DeepSeek-V3 block-wise fp8: 8 + 32/(128*128) bits.
		{"deepseek-ai/DeepSeek-R1", "fp8", "fp8", 8 + 32.0/16384, "fp8", false},
		// AWQ 4-bit, group 128, zero points: 4 + 16/128 + 4/128.
		{"hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4", "awq", "int4", 4 + 20.0/128, "", false},
		// GPTQ symmetric: no zero points: 4 + 16/128.
		{"Qwen/Qwen2.5-32B-Instruct-GPTQ-Int4", "gptq", "int4", 4 + 16.0/128, "", false},
		{"RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w8a8", "compressed-tensors", "int8", 8, "int8", false},
		// NF4 with double quantization: 4 + 8/64 + 32/(64*256).
		{"unsloth/llama-3-8b-Instruct-bnb-4bit", "bitsandbytes", "nf4", 4 + 8.0/64 + 32.0/16384, "", false},
		{"meta-llama/Llama-3.1-8B-Instruct", "", "", 0, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			m, err := Lookup(tc.id)
			require.NoError(t, err)
			q := m.Quant
			assert.Equal(t, tc.method, q.Method)
			assert.Equal(t, tc.format, q.Format)
			assert.InDelta(t, tc.bits, q.BitsPerWeight, 1e-9)
			assert.Equal(t, tc.activations, q.Activations)
			assert.Equal(t, tc.expertsOnly, q.ExpertsOnly)
		})
	}
}

func TestNamedQuantization(t *testing.T) {
	t.Parallel()
	q, ok := NamedQuantization("FP8")
	require.True(t, ok)
	assert.Equal(t, "fp8", q.Activations)
	// Q4_K_M: llama.cpp lists 4.58 GiB for Llama-3-8B's 8.03e9 weights:
	// 4.58 * 2^30 * 8 / 8.03e9 = 4.90 bits.
	q, ok = NamedQuantization("q4_k_m")
	require.True(t, ok)
	assert.InDelta(t, 4.58*(1<<30)*8/8.03e9, q.BitsPerWeight, 0.01)
	assert.True(t, q.AllWeights)
	_, ok = NamedQuantization("int3")
	assert.False(t, ok)
	for _, n := range QuantizationNames() {
		_, ok := NamedQuantization(n)
		assert.True(t, ok, n)
	}
}

// A multimodal config is read through text_config, and transformers'
// class defaults fill what the published file omits (gemma-3-4b-it's
// text_config has no head counts).
func TestTextConfigAndClassDefaults(t *testing.T) {
	t.Parallel()
	m, err := Lookup("google/gemma-3-4b-it")
	require.NoError(t, err)
	assert.Equal(t, "gemma3_text", m.Type)
	assert.Equal(t, 8, m.Heads)
	assert.Equal(t, 4, m.KVHeads)
	assert.Equal(t, 256, m.HeadDim)
	assert.Equal(t, 262208, m.Vocab)
	assert.True(t, m.Tied)
	assert.Positive(t, m.Params.Vision, "vision tower estimated from vision_config")
	assert.Equal(t, m.Params.Total-m.Params.Vision, m.Params.Active)
}

// ERNIE-4.5-0.3B's catalog copy omits tie_word_embeddings, which
// Ernie4_5Config defaults to true: one 103,424 x 1,024 matrix serves as
// embedding and LM head. By hand: embedding 105,906,176; per layer q
// 1,024*16*128 = 2,097,152, k and v 1,024*2*128 = 262,144 each, o
// 2,097,152, MLP 3*1,024*3,072 = 9,437,184, two norms 2,048: 14,157,824;
// 18 layers 254,840,832; final norm 1,024. Total 360,748,032.
func TestErnie45ClassDefaultTiesEmbeddings(t *testing.T) {
	t.Parallel()
	m, err := Lookup("baidu/ERNIE-4.5-0.3B-PT")
	require.NoError(t, err)
	assert.True(t, m.Tied)
	assert.Equal(t, int64(360_748_032), m.Params.Total)
}

// ERNIE-4.5-21B-A3B places its experts by moe_layer_start_index (1) and
// moe_layer_end_index (27) and names its top-k moe_k and its shared MLP
// moe_num_shared_experts (vLLM ernie45_moe.py @0028a75108). By hand, with
// h = 2,560:
//
//	embedding (tied)   103,424 * h                               =    264,765,440
//	attention          28 * (2 * h*20*128 + 2 * h*4*128)         =    440,401,920
//	norms              28 * 2 * h + h                            =        145,920
//	dense MLP, layer 0 3 * h * 12,288                            =     94,371,840
//	routed experts     27 * 64 * 3 * h * 1,536                   = 20,384,317,440
//	shared MLP         27 * 3 * h * (2 * 1,536)                  =    637,009,920
//	router + bias      27 * (h * 64 + 64)                        =      4,425,408
//	total                                                        = 21,825,437,888
func TestErnie45MoEPlacement(t *testing.T) {
	t.Parallel()
	m, err := Lookup("ernie-4.5-21b-a3b")
	require.NoError(t, err)
	assert.Equal(t, 27, m.MoELayers())
	assert.Equal(t, 1, m.DenseLayers())
	assert.False(t, m.Layers[0].MoE)
	assert.True(t, m.Layers[27].MoE)
	assert.Equal(t, 6, m.TopK)
	assert.Equal(t, int64(20_384_317_440), m.Params.RoutedExperts)
	assert.Equal(t, int64(637_009_920), m.Params.SharedExperts)
	assert.Equal(t, int64(4_425_408), m.Params.Router)
	assert.Equal(t, int64(94_371_840), m.Params.DenseMLP)
	assert.Equal(t, int64(21_825_437_888), m.Params.Total)
	assert.Equal(t, 131072, m.MaxContext, "vLLM's default for the omitted max_position_embeddings")
}

func TestLookupForgiving(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"meta-llama/Llama-3.1-8B-Instruct", "META-LLAMA/LLAMA-3.1-8B-INSTRUCT", "Llama-3.1-8B-Instruct", "llama-3.1-8b", "llama 3.1 8b"} {
		m, err := Lookup(name)
		require.NoError(t, err, name)
		assert.Equal(t, "meta-llama/Llama-3.1-8B-Instruct", m.ID, name)
	}
	_, err := Lookup("llama-9-1b")
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrUnknownModel)
	assert.Contains(t, err.Error(), `unknown model "llama-9-1b"`)
	assert.Contains(t, err.Error(), "did you mean")
}

// Full ids and aliases are unique across the catalog, and id suffixes
// unique among themselves; an alias may take a name
// that is also another entry's id suffix (the alias wins, see
// loadCatalog), as "llama-3.1-8b" names the Instruct model while the base
// model's id is meta-llama/Llama-3.1-8B.
func TestCatalogAliasesUnique(t *testing.T) {
	t.Parallel()
	entries, err := Catalog()
	require.NoError(t, err)
	named := map[string]string{}  // full ids and aliases
	suffix := map[string]string{} // id suffixes
	for _, e := range entries {
		for _, k := range append([]string{e.ID}, e.Aliases...) {
			k = normName(k)
			if prev, dup := named[k]; dup && prev != e.ID {
				t.Errorf("name %q claimed by %s and %s", k, prev, e.ID)
			}
			named[k] = e.ID
		}
	}
	for _, e := range entries {
		k := normName(e.ID[strings.LastIndexByte(e.ID, '/')+1:])
		if prev, dup := suffix[k]; dup && prev != e.ID {
			t.Errorf("id suffix %q shared by %s and %s", k, prev, e.ID)
		}
		suffix[k] = e.ID
	}
}

// The Hub's current ids and the old names kept as aliases resolve to the
// same entry.
func TestLookupHubIDsAndOldNames(t *testing.T) {
	t.Parallel()
	for name, id := range map[string]string{
		"meta-llama/Llama-3.1-8B":        "meta-llama/Llama-3.1-8B",
		"meta-llama/Meta-Llama-3.1-8B":   "meta-llama/Llama-3.1-8B",
		"meta-llama-3.1-8b":              "meta-llama/Llama-3.1-8B",
		"meta-llama/Llama-3.1-70B":       "meta-llama/Llama-3.1-70B",
		"meta-llama/Meta-Llama-3.1-70B":  "meta-llama/Llama-3.1-70B",
		"meta-llama/Meta-Llama-3.1-405B": "meta-llama/Llama-3.1-405B",
		"llama-3.1-8b":                   "meta-llama/Llama-3.1-8B-Instruct",
		"Llama-3.1-8B":                   "meta-llama/Llama-3.1-8B-Instruct",
	} {
		m, err := Lookup(name)
		require.NoError(t, err, name)
		assert.Equal(t, id, m.ID, name)
	}
}

// The catalog's configs agree with the shared, sourced copies in
// ../shared/model-configs where both exist (architecture fields only).
func TestCatalogAgreesWithSharedConfigs(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../shared/model-configs/configs.json")
	if errors.Is(err, os.ErrNotExist) {
		t.Skip("../shared/model-configs not present")
	}
	require.NoError(t, err)
	var shared map[string]struct {
		Config map[string]any `json:"config"`
	}
	require.NoError(t, json.Unmarshal(b, &shared))
	pairs := map[string]string{
		"llama-3.1-8b": "meta-llama/Meta-Llama-3.1-8B", "qwen3-30b-a3b": "Qwen/Qwen3-30B-A3B",
		"gpt-oss-20b": "openai/gpt-oss-20b", "deepseek-v2-lite": "deepseek-ai/DeepSeek-V2-Lite-Chat",
		"gemma2-9b": "google/gemma-2-9b-it", "mixtral-8x7b": "mistralai/Mixtral-8x7B-v0.1",
		"llama-2-70b": "meta-llama/Llama-2-70b-hf", "codellama-7b": "codellama/CodeLlama-7b-hf",
	}
	for key, id := range pairs {
		s, ok := shared[key]
		require.True(t, ok, key)
		want, err := FromConfig(s.Config)
		require.NoError(t, err, key)
		got, err := Lookup(id)
		require.NoError(t, err, id)
		assert.Equal(t, want.Params.Total, got.Params.Total, "%s vs shared %s", id, key)
		assert.Equal(t, want.KVHeads, got.KVHeads, id)
		assert.Equal(t, want.HeadDim, got.HeadDim, id)
	}
}

func TestFromConfigErrorsNameFields(t *testing.T) {
	t.Parallel()
	base := func() map[string]any {
		return map[string]any{
			"model_type": "llama", "hidden_size": 1024.0, "num_hidden_layers": 4.0,
			"num_attention_heads": 8.0, "num_key_value_heads": 2.0, "intermediate_size": 2048.0,
			"vocab_size": 1000.0, "max_position_embeddings": 2048.0,
		}
	}
	tests := []struct {
		name  string
		edit  func(map[string]any)
		field string
	}{
		{"missing hidden", func(c map[string]any) { delete(c, "hidden_size"); c["model_type"] = "x" }, "hidden_size"},
		{"negative layers", func(c map[string]any) { c["num_hidden_layers"] = -1.0 }, "num_hidden_layers"},
		{"fractional heads", func(c map[string]any) { c["num_attention_heads"] = 2.5 }, "num_attention_heads"},
		{"kv not divisor", func(c map[string]any) { c["num_key_value_heads"] = 3.0 }, "num_key_value_heads"},
		{"huge vocab", func(c map[string]any) { c["vocab_size"] = 1e12 }, "vocab_size"},
		{"string layers", func(c map[string]any) { c["num_hidden_layers"] = "many" }, "num_hidden_layers"},
		{"bad layer_types", func(c map[string]any) { c["layer_types"] = []any{"full_attention"} }, "layer_types"},
		{"short attn_type_list", func(c map[string]any) {
			c["model_type"] = "minimax_m1"
			c["attn_type_list"] = []any{0.0, 1.0}
		}, "attn_type_list"},
		{"sliding without window", func(c map[string]any) {
			c["layer_types"] = []any{"sliding_attention", "full_attention", "full_attention", "full_attention"}
		}, "sliding_window"},
		{"moe topk above experts", func(c map[string]any) { c["num_local_experts"] = 4.0; c["num_experts_per_tok"] = 8.0 }, "num_experts_per_tok"},
		{"unknown quant", func(c map[string]any) { c["quantization_config"] = map[string]any{"quant_method": "magic"} }, "quantization_config.quant_method"},
		{"absurd size", func(c map[string]any) {
			c["hidden_size"] = float64(1 << 20)
			c["num_hidden_layers"] = 4096.0
			c["num_attention_heads"] = 1024.0
			c["num_key_value_heads"] = 1024.0
			c["num_local_experts"] = 16384.0
			c["num_experts_per_tok"] = 2.0
			c["intermediate_size"] = float64(1 << 20)
		}, ""},
		{"nested", func(c map[string]any) {
			c["text_config"] = map[string]any{"hidden_size": 0.0}
		}, "text_config.hidden_size"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := base()
			tc.edit(c)
			_, err := FromConfig(c)
			var ce fielderr.Errors
			require.True(t, errors.As(err, &ce), "want fielderr.Errors, got %v", err)
			require.Len(t, ce, 1)
			assert.Equal(t, tc.field, ce[0].Field)
			assert.ErrorIs(t, err, ErrConfig)
		})
	}
	_, err := FromConfig(base())
	assert.NoError(t, err)
}

func ExampleFromConfig() {
	// A config.json as published (Mistral-7B-v0.1, abridged).
	m, err := FromConfig(map[string]any{
		"model_type": "mistral", "hidden_size": 4096.0, "intermediate_size": 14336.0,
		"num_hidden_layers": 32.0, "num_attention_heads": 32.0, "num_key_value_heads": 8.0,
		"vocab_size": 32000.0, "max_position_embeddings": 32768.0, "sliding_window": 4096.0,
		"torch_dtype": "bfloat16",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.2fB parameters\n", float64(m.Params.Total)/1e9)
	fmt.Println(m.Layers[0].Kind, m.Layers[0].Window)
	// Output:
	// 7.24B parameters
	// sliding_attention 4096
}

// TestConfigIntegersAreValidated: an integer field with a fractional,
// non-positive or out-of-range value is an error naming the field and the
// value, not a silent default (issue 16, point 3); a field that is absent
// (or null) keeps its default.
func TestConfigIntegersAreValidated(t *testing.T) {
	t.Parallel()
	base := func() map[string]any {
		return map[string]any{
			"model_type": "llama", "hidden_size": 4096.0, "num_hidden_layers": 32.0,
			"num_attention_heads": 32.0, "num_key_value_heads": 8.0, "intermediate_size": 14336.0,
			"vocab_size": 128256.0, "max_position_embeddings": 8192.0,
		}
	}
	tests := []struct {
		key   string
		value any
		field string
		msg   string
	}{
		{"num_key_value_heads", 8.5, "num_key_value_heads", "must be a positive integer, got 8.5"},
		{"num_key_value_heads", 1e13, "num_key_value_heads", "must be a positive integer below 2^40, got 1e+13"},
		{"num_key_value_heads", 0.0, "num_key_value_heads", "must be a positive integer, got 0"},
		{"head_dim", 127.5, "head_dim", "must be a positive integer, got 127.5"},
		{"head_dim", 1e15, "head_dim", "must be a positive integer below 2^40, got 1e+15"},
		{"hidden_size", 1e15, "hidden_size", "must be a positive integer below 2^40, got 1e+15"},
		{"hidden_size", true, "hidden_size", "must be a positive integer, got a boolean"},
		{"num_experts", -2.0, "num_experts", "must be a non-negative integer, got -2"},
		{"sliding_window", 4096.5, "sliding_window", "must be a non-negative integer, got 4096.5"},
	}
	for _, tc := range tests {
		c := base()
		c[tc.key] = tc.value
		_, err := FromConfig(c)
		var ce fielderr.Errors
		require.True(t, errors.As(err, &ce), "%s=%v: want fielderr.Errors, got %v", tc.key, tc.value, err)
		require.Len(t, ce, 1)
		assert.Equal(t, fielderr.Error{Field: tc.field, Message: tc.msg}, ce[0])
	}

	// Under text_config, the path says so.
	_, err := FromConfig(map[string]any{"text_config": map[string]any{"num_key_value_heads": 8.5}})
	var ce fielderr.Errors
	require.True(t, errors.As(err, &ce))
	assert.Equal(t, fielderr.Error{Field: "text_config.num_key_value_heads", Message: "must be a positive integer, got 8.5"}, ce[0])

	// Absent or null keeps the documented default (KV heads = attention heads).
	c := base()
	delete(c, "num_key_value_heads")
	m, err := FromConfig(c)
	require.NoError(t, err)
	assert.Equal(t, 32, m.KVHeads)
	c["num_key_value_heads"] = nil
	m, err = FromConfig(c)
	require.NoError(t, err)
	assert.Equal(t, 32, m.KVHeads)
	// GPTQ's group_size -1 (no grouping) is accepted.
	c["quantization_config"] = map[string]any{"quant_method": "gptq", "bits": 4.0, "group_size": -1.0}
	_, err = FromConfig(c)
	assert.NoError(t, err)
}

// Nemotron 3 Nano's breakdown by hand (hidden 2688; vLLM 0.19
// nemotron_h.py): 23 Mamba-2 blocks, 6 attention blocks, 23 MoE blocks.
//
//	Mamba-2 (d_in 4096, 8 groups of d_state 128, 64 heads, conv 4):
//	  in_proj 2688*(2*4096 + 2*8*128 + 64) = 27,697,152
//	  conv1d (4096 + 2048) * (4 + 1 bias)  =     30,720
//	  dt_bias, A_log, D: 3 * 64            =        192
//	  norm 4096, out_proj 4096*2688        = 11,014,144
//	  per block 38,742,208; 23 blocks      = 891,070,784
//	attention (32 heads, 2 KV heads of 128, no bias):
//	  2688*4096 + 2*2688*256 + 4096*2688   = 23,396,352; 6 blocks = 140,378,112
//	MoE (128 experts of 1856, squared-ReLU up/down, shared 3712):
//	  routed 23 * 128 * 2*2688*1856        = 29,374,808,064
//	  shared 23 * 2*2688*3712              =    458,981,376
//	  router 23 * (2688*128 + 128 bias)    =      7,916,416
//	norms 52*2688 + 2688                   =        142,464
//	embedding + untied head 2 * 131072*2688 =   704,643,072
//	total                                  = 31,577,940,288
func TestNemotronHBreakdown(t *testing.T) {
	t.Parallel()
	m, err := Lookup("nemotron-3-nano")
	require.NoError(t, err)
	p := m.Params
	assert.Equal(t, int64(891_070_784), p.Mixer)
	assert.Equal(t, int64(140_378_112), p.Attention)
	assert.Equal(t, int64(29_374_808_064), p.RoutedExperts)
	assert.Equal(t, int64(458_981_376), p.SharedExperts)
	assert.Equal(t, int64(7_916_416), p.Router)
	assert.Equal(t, int64(142_464), p.Norms)
	assert.Equal(t, int64(0), p.DenseMLP)
	assert.Equal(t, int64(31_577_940_288), p.Total)
	// Active: 6 of 128 experts: total - 23 * 122 * 2*2688*1856.
	assert.Equal(t, p.Total-23*122*2*2688*1856, p.Active)
	assert.Equal(t, 23, m.CountKind(Mamba))
	assert.Equal(t, 6, m.CountKind(FullAttention))
	assert.Equal(t, 23, m.CountKind(FeedForward))
}

// Gemma 4 26B-A4B's attention by hand (hidden 2816, 16 heads; vLLM 0.19
// gemma4.py):
//
//	sliding (8 KV heads of 256): q 2816*4096 + k, v 2*2816*2048
//	  + o 4096*2816 + q/k norms 2*256               = 34,603,520; 25 layers
//	full (attention_k_eq_v: 2 KV heads of 512, no v_proj):
//	  q 2816*8192 + k 2816*1024 + o 8192*2816 + 2*512 = 49,021,952; 5 layers
//	total 25*34,603,520 + 5*49,021,952              = 1,110,197,760
//
// and the MoE block beside the dense MLP: 30 * 128 experts *
// 3*2816*704 = 22,837,985,280 routed, 30 * 3*2816*2112 = 535,265,280 in the
// always-on dense MLP.
func TestGemma4Breakdown(t *testing.T) {
	t.Parallel()
	m, err := Lookup("google/gemma-4-26B-A4B")
	require.NoError(t, err)
	assert.Equal(t, int64(1_110_197_760), m.Params.Attention)
	assert.Equal(t, int64(22_837_985_280), m.Params.RoutedExperts)
	assert.Equal(t, int64(535_265_280), m.Params.SharedExperts)
	full := m.Layers[5]
	assert.Equal(t, FullAttention, full.Kind)
	assert.Equal(t, 2, m.LayerKVHeads(full))
	k, v := m.LayerHeadDims(full)
	assert.Equal(t, [2]int{512, 512}, [2]int{k, v})
	assert.Equal(t, 8, m.LayerKVHeads(m.Layers[0]))
}

// A Nemotron-H block list that does not fit the layers names its field.
func TestNemotronHPatternErrors(t *testing.T) {
	t.Parallel()
	base := func() map[string]any {
		return map[string]any{
			"model_type": "nemotron_h", "hidden_size": 256.0, "num_hidden_layers": 4.0,
			"num_attention_heads": 4.0, "num_key_value_heads": 2.0, "intermediate_size": 512.0,
			"vocab_size": 1000.0, "max_position_embeddings": 4096.0,
			"mamba_num_heads": 8.0, "mamba_head_dim": 32.0, "ssm_state_size": 16.0, "n_groups": 1.0,
			"hybrid_override_pattern": "M*-M",
		}
	}
	m, err := FromConfig(base())
	require.NoError(t, err)
	assert.Equal(t, []LayerKind{Mamba, FullAttention, FeedForward, Mamba}, []LayerKind{m.Layers[0].Kind, m.Layers[1].Kind, m.Layers[2].Kind, m.Layers[3].Kind})
	assert.Equal(t, 256, m.SSM.DInner) // 8 heads * 32

	for _, tc := range []struct {
		name, field string
		edit        func(map[string]any)
	}{
		{"short pattern", "hybrid_override_pattern", func(c map[string]any) { c["hybrid_override_pattern"] = "M*-" }},
		{"unknown block", "hybrid_override_pattern", func(c map[string]any) { c["hybrid_override_pattern"] = "M*xM" }},
		{"moe without experts", "n_routed_experts", func(c map[string]any) { c["hybrid_override_pattern"] = "M*EM" }},
		{"no pattern", "hybrid_override_pattern", func(c map[string]any) { delete(c, "hybrid_override_pattern") }},
		{"bad block type", "layers_block_type", func(c map[string]any) {
			delete(c, "hybrid_override_pattern")
			c["layers_block_type"] = []any{"mamba", "attention", "conv", "mamba"}
		}},
	} {
		c := base()
		tc.edit(c)
		_, err := FromConfig(c)
		require.Error(t, err, tc.name)
		assert.ErrorIs(t, err, ErrConfig, tc.name)
		assert.Contains(t, err.Error(), tc.field, tc.name)
	}
}

// DeciLM block widths: ffn_mult * 2/3 * hidden, rounded up to a multiple
// of 256 (vLLM nemotron_nas.py _ffn_mult_to_intermediate_size). For hidden
// 8192: 2.625 -> 14,336; 5.25 -> 28,672; 0.5 -> int(2,730.67) = 2,730 ->
// 2,816.
func TestNemotronNASBlockWidths(t *testing.T) {
	t.Parallel()
	for mult, want := range map[float64]int{2.625: 14336, 5.25: 28672, 0.5: 2816, 1.3125: 7168} {
		assert.Equal(t, want, nasIntermediate(cfg{"ffn_mult": mult}, 8192), mult)
	}
	assert.Equal(t, 0, nasIntermediate(cfg{"no_op": true, "ffn_mult": 1.0}, 8192))
	m, err := Lookup("nemotron-super-49b")
	require.NoError(t, err)
	assert.Equal(t, 14336, m.Layers[0].Intermediate) // block 0: ffn_mult 2.625
	assert.Equal(t, 8, m.LayerKVHeads(m.Layers[0]))
	assert.Equal(t, 31, m.CountKind(FeedForward))
}

// DeepSeek-V3's multi-token-prediction layer, by hand (vLLM v0.11.0
// deepseek_mtp.py: one decoder layer, eh_proj, three norms, and the
// embedding and head the checkpoint stores for it):
//
//	MLA attention   7168*1536 + 1536 + 1536*128*192 + 7168*576 + 512
//	                + 512*128*256 + 128*128*7168          =    187,107,328
//	MoE block       257 experts * 3*7168*2048 + router 7168*256
//	                + 2 norms * 7168                      = 11,320,178,688
//	eh_proj         2*7168*7168                           =    102,760,448
//	norms           3*7168                                =         21,504
//	embed + head    2*129280*7168                         =  1,853,358,080
//	total                                                 = 13,463,426,048
//
// DeepSeek's README calls it the 14B MTP module, and total + MTP lands on
// the Hub's 685B.
func TestMTPParams(t *testing.T) {
	t.Parallel()
	m, err := Lookup("deepseek-v3")
	require.NoError(t, err)
	assert.Equal(t, 1, m.MTPLayers)
	assert.Equal(t, int64(13_463_426_048), m.Params.MTP)
	assert.InDelta(t, 685e9, float64(m.Params.Total+m.Params.MTP), 0.005*685e9)
	// MTP weights are not in the total vLLM loads without speculative decoding.
	assert.Equal(t, m.Params.Total, m.Params.Embedding+m.Params.LMHead+m.Params.Attention+m.Params.Mixer+m.Params.DenseMLP+m.Params.RoutedExperts+m.Params.SharedExperts+m.Params.Router+m.Params.Norms+m.Params.Vision)
	none, err := Lookup("llama-3.1-8b")
	require.NoError(t, err)
	assert.Zero(t, none.Params.MTP)
}

// Qwen3.5-35B-A3B by hand (hidden 2048). A full attention layer with its
// output gate folded into q_proj: q 2048*16*256*2 = 16,777,216, k and v
// 2*2048*2*256 = 2,097,152, o 16*256*2048 = 8,388,608, q/k norms 2*256 =
// 512: 27,263,488. A Gated DeltaNet layer (kd = 16*128 = 2048, vd = 32*128
// = 4096): in_proj 2048*(2*2048 + 2*4096) = 25,165,824, a/b 2048*2*32 =
// 131,072, conv (2*2048 + 4096)*4 = 32,768, dt_bias and A_log 64, norm
// 128, out_proj 4096*2048 = 8,388,608: 33,718,464. Each MoE layer's shared
// expert has a gate of 2048 weights beside its 3*2048*512.
func TestQwen35LayerParams(t *testing.T) {
	t.Parallel()
	m, err := Lookup("qwen3.5-35b-a3b")
	require.NoError(t, err)
	assert.Equal(t, int64(10*27_263_488), m.Params.Attention)
	assert.Equal(t, int64(30*33_718_464), m.Params.Mixer)
	assert.Equal(t, int64(40*(3*2048*512+2048)), m.Params.SharedExperts)
	assert.Equal(t, "float32", m.SSM.RecurrentDtype)
	assert.Equal(t, map[LayerKind]int{LinearAttention: 30, FullAttention: 10}, map[LayerKind]int{LinearAttention: m.CountKind(LinearAttention), FullAttention: m.CountKind(FullAttention)})
}

// MiniMax-M2.5's q/k norms span all heads (qk_norm_type per_layer): per
// layer q 3072*48*128 = 18,874,368, k and v 2*3072*8*128 = 6,291,456, o
// 18,874,368, q_norm 48*128 = 6,144 and k_norm 8*128 = 1,024: 44,047,360.
func TestMiniMaxAttentionParams(t *testing.T) {
	t.Parallel()
	m, err := Lookup("minimax-m2.5")
	require.NoError(t, err)
	assert.Equal(t, int64(62*44_047_360), m.Params.Attention)
	assert.Equal(t, 3, m.MTPLayers, "num_mtp_modules 3 of mtp_transformer_layers 1")
}

// A ModelOpt MIXED_PRECISION checkpoint takes the format of its NVFP4
// modules: W4A16 NVFP4 feed-forwards make it weight-only NVFP4 (4.5 bits);
// without NVFP4 modules it is FP8.
func TestMixedPrecisionModelOpt(t *testing.T) {
	t.Parallel()
	m, err := Lookup("nvidia/Qwen3.6-35B-A3B-NVFP4")
	require.NoError(t, err)
	assert.Equal(t, Quantization{Method: "modelopt", Format: "fp4", BitsPerWeight: 4.5}, m.Quant)
	q, ok := parseQuantization(cfg{"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION", "quantized_layers": map[string]any{
		"model.layers.0.mlp.experts": map[string]any{"quant_algo": "NVFP4"},
	}})
	require.True(t, ok)
	assert.Equal(t, Quantization{Method: "modelopt", Format: "fp4", BitsPerWeight: 4.5, Activations: "fp4"}, q)
	q, _ = parseQuantization(cfg{"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION", "quantized_layers": map[string]any{
		"model.layers.0.self_attn.q_proj": map[string]any{"quant_algo": "FP8"},
	}})
	assert.Equal(t, "fp8", q.Format)
}

// Every row of the transformers defaults table is a JSON object of
// numbers and booleans, one row per model_type.
func TestTypeDefaultsDecode(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, d := range typeDefaults {
		assert.False(t, seen[d.modelType], d.modelType)
		seen[d.modelType] = true
		var values cfg
		require.NoError(t, jsonx.Unmarshal([]byte(d.values), &values), d.modelType)
		assert.NotEmpty(t, values, d.modelType)
		for k, v := range values {
			switch v.(type) {
			case float64, bool:
			default:
				t.Errorf("%s.%s: %T", d.modelType, k, v)
			}
		}
	}
	// The Llama row as transformers' LlamaConfig gives it.
	d, ok := lookupDefaults("llama")
	require.True(t, ok)
	var llama cfg
	require.NoError(t, jsonx.Unmarshal([]byte(d.values), &llama))
	assert.Equal(t, 2048.0, llama["max_position_embeddings"])
	assert.Equal(t, 32000.0, llama["vocab_size"])
}

// Qwen3-VL-8B's vision tower by hand (d 1152, f 4304, 27 blocks, 2304
// positions, patch 16, temporal patch 2, 3 channels, merge 2, out 4096, three
// DeepStack mergers), each Linear/LayerNorm with its bias:
//
//	patch_embed  3*2*16*16*1152 + 1152                            =   1,770,624
//	pos_embed    2304*1152                                        =   2,654,208
//	block        norms 4*1152 = 4,608; qkv 1152*3456+3456 = 3,984,768;
//	             proj 1152*1152+1152 = 1,328,256; fc1 1152*4304+4304 = 4,962,512;
//	             fc2 4304*1152+1152 = 4,959,360; sum 15,239,504; x27 = 411,466,608
//	merger       LayerNorm(1152) 2,304; fc1 4608*4608+4608 = 21,238,272;
//	             fc2 4608*4096+4096 = 18,878,464                  =  40,119,040
//	deepstack    (LayerNorm(4608) 9,216 + 21,238,272 + 18,878,464) x3 = 120,377,856
//	total                                                         = 576,388,336
//
// With the text model (Qwen3-8B's shapes: 8,190,735,360) that is 8,767,123,696,
// the Hub's safetensors count for Qwen/Qwen3-VL-8B-Instruct.
func TestQwen3VLVisionParams(t *testing.T) {
	t.Parallel()
	m, err := Lookup("Qwen/Qwen3-VL-8B-Instruct")
	require.NoError(t, err)
	assert.Equal(t, int64(576_388_336), m.Params.Vision)
	assert.Equal(t, int64(8_767_123_696), m.Params.Total)
	assert.Equal(t, int64(8_190_735_360), m.Params.Total-m.Params.Vision)
}

// Qwen3.6-27B's tower has no DeepStack mergers (deepstack_visual_indexes is
// empty) and a merger into 5120: patch_embed 1,770,624 + pos_embed 2,654,208 +
// 27 blocks 411,466,608 (as above) + merger (LayerNorm 2,304 + fc1 21,238,272 +
// fc2 4608*5120+5120 = 23,598,080) 44,838,656 = 460,730,096. With the text model
// and its MTP layer the sum is 27,781,427,952, the total of the 1,199 tensors a
// public report lists for the checkpoint (code index file id 62633829536).
func TestQwen36VisionWithoutDeepStack(t *testing.T) {
	t.Parallel()
	m, err := Lookup("Qwen/Qwen3.6-27B")
	require.NoError(t, err)
	assert.Equal(t, int64(460_730_096), m.Params.Vision)
	assert.Equal(t, int64(27_781_427_952), m.Params.Total+m.Params.MTP)
}

// MiniMax-M1 by hand (hidden 6144, 64 heads of 128 so d = 8192, 8 KV heads,
// 32 experts of 9216, vocab 200,064, 70 lightning + 10 softmax layers):
//
//	lightning mixer  qkv 6144*3*8192 + gate 6144*8192 + norm 8192 + out 8192*6144
//	                 = 150,994,944 + 50,331,648 + 8,192 + 50,331,648 = 251,666,432; x70 = 17,616,650,240
//	softmax attn     q 50,331,648 + k 6,291,456 + v 6,291,456 + o 50,331,648 = 113,246,208; x10 = 1,132,462,080
//	experts          80 * 32 * 3*6144*9216 = 434,865,438,720; router 80 * 6144*32 = 15,728,640
//	embed + head     2 * 200,064*6144 = 2,458,386,432; norms (2*80 + 1) * 6144 = 989,184
//	total                                                         456,089,655,296
//
// which is also the checkpoint index's 912,210,767,872 bytes read as bf16
// with the 80 routers in float32.
func TestMiniMaxM1LightningParams(t *testing.T) {
	t.Parallel()
	m, err := Lookup("MiniMaxAI/MiniMax-M1-80k")
	require.NoError(t, err)
	assert.Equal(t, 70, m.CountKind(LinearAttention))
	assert.Equal(t, int64(17_616_650_240), m.Params.Mixer)
	assert.Equal(t, int64(1_132_462_080), m.Params.Attention)
	assert.Equal(t, int64(434_865_438_720), m.Params.RoutedExperts)
	assert.Equal(t, int64(456_089_655_296), m.Params.Total)

	// Without attn_type_list vLLM makes every layer softmax attention.
	e, err := LookupEntry("MiniMaxAI/MiniMax-M1-80k")
	require.NoError(t, err)
	raw := map[string]any{}
	for k, v := range e.Config {
		raw[k] = v
	}
	delete(raw, "attn_type_list")
	all, err := FromConfig(raw)
	require.NoError(t, err)
	assert.Equal(t, 0, all.CountKind(LinearAttention))
	assert.Equal(t, 80, all.CountKind(FullAttention))
}
