package models

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Gemma 4 E2B's text parameters, module by module as vLLM builds them
// (vllm/model_executor/models/gemma4.py), from its config (hidden 1536, 35
// layers, 8 heads, 1 KV head, head_dim 256 on the 28 sliding layers and
// global_head_dim 512 on the 7 full ones, intermediate 6144 doubled on the
// 20 KV-shared layers, vocab 262144 tied, hidden_size_per_layer_input 256):
//
//	embedding            262,144 * 1,536                             =   402,653,184
//	sliding attention    2*1,536*8*256 + 2*1,536*256 + 2*256         =     7,078,400 each
//	full attention       2*1,536*8*512 + 2*1,536*512 + 2*512         =    14,156,800 each
//	attention            28 * 7,078,400 + 7 * 14,156,800             =   297,292,800
//	MLP                  15 * 3*1,536*6,144 + 20 * 3*1,536*12,288    = 1,557,135,360
//	norms                35 * (4*1,536 + 1 layer_scalar) + 1,536     =       216,611
//	PLE table            262,144 * (35 * 256)                        = 2,348,810,240
//	PLE projection       1,536 * 8,960 + 256 (its norm)              =    13,762,816
//	PLE per layer        35 * (2 * 1,536 * 256 + 1,536)              =    27,578,880
//	total                                                            = 4,647,449,891
//
// Less the PLE table that is 2,298,639,651, Google's "2.3B effective".
func TestGemma4E2BPerLayerEmbedding(t *testing.T) {
	t.Parallel()
	m, err := Lookup("gemma-4-e2b")
	require.NoError(t, err)
	p := m.Params
	assert.Equal(t, int64(402_653_184), p.Embedding)
	assert.Zero(t, p.LMHead)
	assert.Equal(t, int64(297_292_800), p.Attention)
	assert.Equal(t, int64(1_557_135_360), p.DenseMLP)
	assert.Equal(t, int64(216_611), p.Norms)
	assert.Equal(t, int64(2_348_810_240), p.PLETable)
	assert.Equal(t, int64(2_348_810_240+13_762_816+27_578_880), p.PerLayerEmbedding)
	assert.Equal(t, int64(4_647_449_891), p.Total)
	assert.Equal(t, int64(4_647_449_891-2_348_810_240), p.Active)
	assert.True(t, m.Heterogeneous(), "KV-shared layers have double-wide MLPs")
	assert.Equal(t, 12288, m.Layers[15].Intermediate)
	assert.Zero(t, m.Layers[14].Intermediate)
	assert.True(t, m.Layers[15].SharedKV)
	assert.False(t, m.Layers[14].SharedKV)
}

// Gemma 3n lists intermediate_size per layer (vLLM gemma3n.py takes
// config.intermediate_size[layer_idx]): each layer gets its own width, the
// MLP weights follow (GeGLU, 3 * h * f each), and a bad element is named
// by its index.
func TestPerLayerIntermediateList(t *testing.T) {
	t.Parallel()
	cfg := func(inter []any) map[string]any {
		return map[string]any{
			"model_type": "gemma3n_text", "hidden_size": 64.0, "num_hidden_layers": 2.0, "num_attention_heads": 4.0,
			"num_key_value_heads": 1.0, "head_dim": 16.0, "vocab_size": 100.0, "max_position_embeddings": 512.0,
			"sliding_window": 32.0, "intermediate_size": inter,
			"layer_types": []any{"sliding_attention", "full_attention"},
		}
	}
	m, err := FromConfig(cfg([]any{128.0, 256.0}))
	require.NoError(t, err)
	assert.Equal(t, 256, m.Intermediate)
	assert.Equal(t, []int{128, 256}, []int{m.Layers[0].Intermediate, m.Layers[1].Intermediate})
	assert.True(t, m.Heterogeneous())
	// 3 * 64 * 128 + 3 * 64 * 256 = 24,576 + 49,152 = 73,728.
	assert.Equal(t, int64(73_728), m.Params.DenseMLP)

	_, err = FromConfig(cfg([]any{128.0, -1.0}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "intermediate_size[1]")
}

// Cohere2 (Command R7B / A) without layer_types: transformers'
// Cohere2Config slides every layer but each 4th (sliding_window_pattern
// 4 by default), vLLM's commandr.py keeps one input_layernorm per layer
// (parallel attention and MLP) and ties the head. For 8 layers of 64 (4
// heads / 1 KV head of 16, MLP 128, vocabulary 100):
//
//	embedding  100 * 64                              =  6,400
//	attention  8 * (2*64*64 + 2*64*16)               = 81,920
//	MLP        8 * 3*64*128                          = 196,608
//	norms      8 * 64 + 64                           =    576
//	total                                            = 285,504
func TestCohere2SlidingPatternAndParams(t *testing.T) {
	t.Parallel()
	m, err := FromConfig(map[string]any{
		"model_type": "cohere2", "hidden_size": 64.0, "head_dim": 16.0, "num_hidden_layers": 8.0,
		"intermediate_size": 128.0, "num_attention_heads": 4.0, "num_key_value_heads": 1.0, "vocab_size": 100.0,
		"max_position_embeddings": 512.0, "sliding_window": 32.0,
	})
	require.NoError(t, err)
	var kinds []LayerKind
	for _, l := range m.Layers {
		kinds = append(kinds, l.Kind)
	}
	s, f := SlidingAttention, FullAttention
	assert.Equal(t, []LayerKind{s, s, s, f, s, s, s, f}, kinds)
	assert.Equal(t, 32, m.Layers[0].Window)
	assert.True(t, m.Tied)
	assert.Equal(t, int64(285_504), m.Params.Total)
}
