package models

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// LFM2-1.2B's parameters, module by module as vLLM builds them
// (vllm/model_executor/models/lfm2.py, layers/mamba/short_conv.py), from
// its config (hidden 2048, 16 layers, 6 attention layers at
// full_attn_idxs, 32 heads / 8 KV heads of 64, conv_dim 2048, conv_L_cache
// 3, block_ff_dim 12288 auto-adjusted to int(2*12288/3) = 8192, vocab
// 65536, tied head):
//
//	embedding        65,536 * 2,048                          =   134,217,728
//	short conv (x10) 2,048*6,144 + 2,048*3 + 2,048*2,048     =    16,783,360 each
//	                 10 * 16,783,360                         =   167,833,600
//	attention (x6)   2*2,048*2,048 + 2*2,048*512 + 2*64      =    10,485,888 each
//	                 6 * 10,485,888                          =    62,915,328
//	SwiGLU (x16)     3 * 2,048 * 8,192                       =    50,331,648 each
//	                 16 * 50,331,648                         =   805,306,368
//	norms            (16 * 2 + 1) * 2,048                    =        67,584
//	total                                                    = 1,170,340,608
//
// The total is the model card's "Parameters: 1,170,340,608".
func TestLFM2ShortConvParams(t *testing.T) {
	t.Parallel()
	m, err := Lookup("LiquidAI/LFM2-1.2B")
	require.NoError(t, err)
	assert.Equal(t, 10, m.CountKind(ShortConv))
	assert.Equal(t, 6, m.CountKind(FullAttention))
	assert.Equal(t, 6, m.AttentionLayers())
	for _, i := range []int{2, 5, 8, 10, 12, 14} {
		assert.Equal(t, FullAttention, m.Layers[i].Kind, "layer %d", i)
	}
	assert.Equal(t, ShortConv, m.Layers[0].Kind)
	assert.Equal(t, "short_conv", ShortConv.String())
	assert.Equal(t, 8192, m.Intermediate)
	assert.True(t, m.Tied)
	p := m.Params
	assert.Equal(t, int64(167_833_600), p.Mixer)
	assert.Equal(t, int64(62_915_328), p.Attention)
	assert.Equal(t, int64(805_306_368), p.DenseMLP)
	assert.Equal(t, int64(67_584), p.Norms)
	assert.Equal(t, int64(1_170_340_608), p.Total)
}

// A config with layer_types instead of full_attn_idxs, conv biases and no
// auto-adjusted MLP (the fields LFM2.5 configs use): layer kinds follow
// layer_types, conv_dim defaults to hidden_size, and each bias adds its
// width: in_proj 3c, conv c, out_proj h (vLLM ShortConv passes conv_bias to
// all three).
func TestLFM2LayerTypesAndConvBias(t *testing.T) {
	t.Parallel()
	m, err := FromConfig(map[string]any{
		"model_type": "lfm2", "hidden_size": 64.0, "num_hidden_layers": 3.0, "num_attention_heads": 4.0,
		"num_key_value_heads": 2.0, "vocab_size": 100.0, "max_position_embeddings": 512.0,
		"intermediate_size": 96.0, "block_auto_adjust_ff_dim": false, "conv_L_cache": 3.0, "conv_bias": true,
		"layer_types": []any{"conv", "full_attention", "conv"},
	})
	require.NoError(t, err)
	assert.Equal(t, []LayerKind{ShortConv, FullAttention, ShortConv}, []LayerKind{m.Layers[0].Kind, m.Layers[1].Kind, m.Layers[2].Kind})
	assert.Equal(t, 64, m.SSM.ConvDim)
	assert.Equal(t, 96, m.Intermediate)
	// per conv layer: 64*192 + 64*3 + 64*64 + (192 + 64 + 64) = 12,288 +
	// 192 + 4,096 + 320 = 16,896.
	assert.Equal(t, int64(2*16_896), m.Params.Mixer)
}
