package calc_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// warningsOf returns the messages of the report's warnings with code.
func warningsOf(r calc.Report, code string) []string {
	var out []string
	for _, w := range r.Warnings {
		if w.Code == code {
			out = append(out, w.Message)
		}
	}
	return out
}

// TestPartialConfigGetsTransformersDefaults: a pasted qwen2 config without
// max_position_embeddings, num_key_value_heads, head_dim and
// tie_word_embeddings is evaluated with Qwen2Config's defaults
// (configuration_qwen2.py: max_position_embeddings=32768,
// num_key_value_heads=32, tie_word_embeddings=False) and head_dim =
// hidden_size / num_attention_heads = 4096 / 32 = 128, each named in a
// warning, where the same config was refused before issue 15.
//
// KV bytes per token, by hand: 2 (K and V) x 32 layers x 32 KV heads x 128
// x 2 bytes (bfloat16) = 524,288.
func TestPartialConfigGetsTransformersDefaults(t *testing.T) {
	t.Parallel()
	rep, err := calc.Evaluate(calc.Request{
		ModelConfig: map[string]any{
			"model_type": "qwen2", "hidden_size": 4096.0, "num_hidden_layers": 32.0, "num_attention_heads": 32.0,
			"intermediate_size": 14336.0, "vocab_size": 128256.0,
		},
		Hardware: calc.HardwareRef{ID: "h100-sxm"},
	})
	require.NoError(t, err)
	assert.Equal(t, 32768, rep.Model.MaxContext)
	assert.Equal(t, 524288.0, rep.KVCache.BytesPerToken)
	const q = "the default of transformers' Qwen2Config (huggingface/transformers@caa3177646255d2cf73626315c8582722af4749c (4.57.0.dev0) src/transformers/models/qwen2/configuration_qwen2.py)"
	assert.Equal(t, []string{
		"config.json has no max_position_embeddings: using 32768, " + q,
		"config.json has no num_key_value_heads: using 32, " + q,
		"config.json has no tie_word_embeddings: using false, " + q,
		"config.json has no head_dim: using 128, hidden_size / num_attention_heads, as transformers' Qwen2Config takes it",
	}, warningsOf(rep, "config_default"))
}

// TestPartialLlamaConfig: LlamaConfig has max_position_embeddings=2048 and
// num_key_value_heads None, which its __post_init__ sets to
// num_attention_heads (configuration_llama.py). A config naming its KV
// heads (8) and its context gets only tie_word_embeddings=False and
// head_dim = 4096 / 32 = 128; one without them gets 2048 and 32 KV heads:
// KV bytes per token 2 x 32 x 32 x 128 x 2 = 524,288 instead of
// 2 x 32 x 8 x 128 x 2 = 131,072.
func TestPartialLlamaConfig(t *testing.T) {
	t.Parallel()
	base := func() map[string]any {
		return map[string]any{
			"model_type": "llama", "hidden_size": 4096.0, "num_hidden_layers": 32.0, "num_attention_heads": 32.0,
			"intermediate_size": 14336.0, "vocab_size": 128256.0,
		}
	}
	full := base()
	full["num_key_value_heads"], full["max_position_embeddings"] = 8.0, 131072.0
	rep, err := calc.Evaluate(calc.Request{ModelConfig: full, Hardware: calc.HardwareRef{ID: "h100-sxm"}})
	require.NoError(t, err)
	assert.Equal(t, 131072.0, rep.KVCache.BytesPerToken)
	assert.Len(t, warningsOf(rep, "config_default"), 2)

	rep, err = calc.Evaluate(calc.Request{ModelConfig: base(), Hardware: calc.HardwareRef{ID: "h100-sxm"}, MaxModelLen: calc.Int(2048)})
	require.NoError(t, err)
	assert.Equal(t, 2048, rep.Model.MaxContext)
	assert.Equal(t, 524288.0, rep.KVCache.BytesPerToken)
	w := warningsOf(rep, "config_default")
	require.Len(t, w, 4)
	assert.Contains(t, w[0], "config.json has no max_position_embeddings: using 2048, the default of transformers' LlamaConfig (")
	assert.Contains(t, w[0], "llama/configuration_llama.py)")
	assert.Equal(t, "config.json has no num_key_value_heads: using 32, num_attention_heads, as transformers' LlamaConfig takes it (multi-head attention)", w[2])
	assert.Equal(t, "config.json has no head_dim: using 128, hidden_size / num_attention_heads, as transformers' LlamaConfig takes it", w[3])
}

// TestCatalogModelsHaveNoDefaultWarnings: a catalog config is the
// published one (google/gemma-3-4b-it's text_config omits its head counts
// because Gemma3TextConfig supplies them): no config_default warning.
func TestCatalogModelsHaveNoDefaultWarnings(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"llama-3.1-8b", "google/gemma-3-4b-it"} {
		rep, err := calc.Evaluate(calc.Request{Model: id, Hardware: calc.HardwareRef{ID: "h100-sxm"}})
		require.NoError(t, err, id)
		assert.Empty(t, warningsOf(rep, "config_default"), id)
	}
}
