package models

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// MiMo-V2-Flash counted by hand from its config (h 4096, 48 layers, 64 query
// heads with 192-wide keys and 128-wide values, vocabulary 152,576, untied)
// and vLLM's modules (vllm/model_executor/models/mimo_v2_flash.py):
//
//	full layer (4 KV heads): q 4096*64*192 = 50,331,648, k 4096*4*192 =
//	  3,145,728, v 4096*4*128 = 2,097,152, o 64*128*4096 = 33,554,432:
//	  89,128,960, x 9 = 802,160,640
//	sliding layer (8 KV heads): 50,331,648 + 6,291,456 + 4,194,304 +
//	  33,554,432 + 64 sink biases = 94,371,904, x 39 = 3,680,504,256
//	routed experts: 47 * 256 * 3*4096*2048 = 302,795,194,368
//	router: 47 * (4096*256 + 256 bias) = 49,295,104
//	dense MLP (layer 0): 3*4096*16384 = 201,326,592
//	embedding and head: 2 * 152,576*4096 = 1,249,902,592
//	norms: 48*2*4096 + 4096 = 397,312
//	total 308,778,780,864 (the report: 309B)
func TestMiMoV2FlashParamsByHand(t *testing.T) {
	t.Parallel()
	m, err := Lookup("mimo-v2-flash")
	require.NoError(t, err)
	assert.Equal(t, 39, m.CountKind(SlidingAttention))
	assert.Equal(t, 9, m.CountKind(FullAttention))
	assert.Equal(t, FullAttention, m.Layers[0].Kind)
	assert.Equal(t, SlidingAttention, m.Layers[1].Kind)
	assert.Equal(t, 8, m.LayerKVHeads(m.Layers[1]))
	assert.Equal(t, 4, m.LayerKVHeads(m.Layers[0]))
	k, v := m.LayerHeadDims(m.Layers[1])
	assert.Equal(t, [2]int{192, 128}, [2]int{k, v})
	assert.False(t, m.Layers[0].MoE)
	assert.Equal(t, 47, m.MoELayers())
	p := m.Params
	assert.Equal(t, int64(802_160_640+3_680_504_256), p.Attention)
	assert.Equal(t, int64(302_795_194_368), p.RoutedExperts)
	assert.Equal(t, int64(0), p.SharedExperts)
	assert.Equal(t, int64(49_295_104), p.Router)
	assert.Equal(t, int64(201_326_592), p.DenseMLP)
	assert.Equal(t, int64(397_312), p.Norms)
	assert.Equal(t, int64(308_778_780_864), p.Total)
}

// A moe_layer_freq or hybrid_layer_pattern list of the wrong length, and
// sliding layers shaped unlike the full ones, are field errors.
func TestMiMoV2FlashConfigErrors(t *testing.T) {
	t.Parallel()
	e, err := LookupEntry("mimo-v2-flash")
	require.NoError(t, err)
	with := func(key string, v any) map[string]any {
		raw := map[string]any{}
		for k, x := range e.Config {
			raw[k] = x
		}
		raw[key] = v
		return raw
	}
	for key, v := range map[string]any{
		"moe_layer_freq":          []any{0.0, 1.0},
		"hybrid_layer_pattern":    []any{1.0},
		"swa_head_dim":            128.0,
		"swa_num_key_value_heads": 5.0,
	} {
		_, err := FromConfig(with(key, v))
		require.ErrorIs(t, err, ErrConfig, key)
		assert.Contains(t, err.Error(), key)
	}
}
