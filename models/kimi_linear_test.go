package models

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Kimi-Linear 48B-A3B counted by hand from its config (h 2304, vocabulary
// 163,840, 27 layers) and vLLM's modules (vllm/model_executor/models/
// kimi_linear.py, vllm/model_executor/layers/kda.py):
//
//	KDA layer (n 32 heads of d 128, P = n*d = 4096, k 4 taps):
//	  q/k/v_proj 3*2304*4096 = 28,311,552; o_proj 4096*2304 = 9,437,184
//	  f_a + g_a 2*2304*128 = 589,824; f_b + g_b 2*128*4096 = 1,048,576
//	  dt_bias 4096; b_proj 2304*32 = 73,728; q/k/v_conv1d 3*4096*4 = 49,152
//	  A_log 32; o_norm 128                      = 39,514,272, x 20 = 790,285,440
//	MLA layer (32 heads, nope 128, rope 64, v 128, kv_lora_rank 512, no q_lora):
//	  q_proj 2304*32*192 = 14,155,776; kv_a_proj_with_mqa 2304*576 = 1,327,104
//	  kv_a_layernorm 512; kv_b_proj 512*32*256 = 4,194,304
//	  o_proj 32*128*2304 = 9,437,184            = 29,114,880, x 7 = 203,804,160
//	routed experts 26 MoE layers * 256 * 3*2304*1024 = 47,110,422,528
//	shared experts 26 * 3*2304*1024 = 184,025,088
//	router 26 * (2304*256 + 256 bias) = 15,342,080
//	dense MLP (layer 0) 3*2304*9216 = 63,700,992
//	embedding and untied head 2 * 163,840*2304 = 754,974,720
//	norms 27*2*2304 + 2304 = 126,720
//	total 49,122,681,728
//
// The checkpoint's safetensors metadata gives total_parameters
// 49,122,681,728 (the entry's params_source), the same to the parameter;
// the model card rounds it to 48B.
func TestKimiLinearParamsByHand(t *testing.T) {
	t.Parallel()
	m, err := Lookup("kimi-linear")
	require.NoError(t, err)
	assert.Equal(t, "moonshotai/Kimi-Linear-48B-A3B-Instruct", m.ID)
	assert.Equal(t, 20, m.CountKind(LinearAttention))
	assert.Equal(t, 7, m.CountKind(MLAttention))
	for _, i := range []int{3, 7, 11, 15, 19, 23, 26} { // full_attn_layers 4, 8, ... 27, 1-based
		assert.Equal(t, MLAttention, m.Layers[i].Kind, "layer %d", i)
	}
	assert.Equal(t, LinearAttention, m.Layers[0].Kind)
	assert.False(t, m.Layers[0].MoE, "first_k_dense_replace 1")
	assert.True(t, m.Layers[1].MoE)
	assert.Equal(t, 1_048_576, m.MaxContext, "model_max_length")

	p := m.Params
	assert.Equal(t, int64(790_285_440), p.Mixer, "KDA")
	assert.Equal(t, int64(203_804_160), p.Attention, "MLA")
	assert.Equal(t, int64(47_110_422_528), p.RoutedExperts)
	assert.Equal(t, int64(184_025_088), p.SharedExperts)
	assert.Equal(t, int64(15_342_080), p.Router)
	assert.Equal(t, int64(63_700_992), p.DenseMLP)
	assert.Equal(t, int64(377_487_360), p.Embedding)
	assert.Equal(t, int64(377_487_360), p.LMHead)
	assert.Equal(t, int64(126_720), p.Norms)
	assert.Equal(t, int64(49_122_681_728), p.Total)
	// Active: total less the 248 experts a token skips in each of 26
	// layers: 49,122,681,728 - 26*248*7,077,888 (45,638,221,824) =
	// 3,484,459,904 (the card: "3B activated").
	assert.Equal(t, int64(3_484_459_904), p.Active)
	assert.InDelta(t, 48e9, float64(p.Total), 0.024*48e9, "the card's rounded 48B")
}

// KDA layers need linear_attn_config.num_heads and head_dim, and the
// 1-based kda_layers must name layers of the model.
func TestKimiLinearConfigErrors(t *testing.T) {
	t.Parallel()
	e, err := LookupEntry("kimi-linear")
	require.NoError(t, err)
	withLA := func(la map[string]any) map[string]any {
		raw := map[string]any{}
		for k, v := range e.Config {
			raw[k] = v
		}
		raw["linear_attn_config"] = la
		return raw
	}
	_, err = FromConfig(withLA(map[string]any{"num_heads": 0.0, "head_dim": 128.0, "kda_layers": []any{1.0}}))
	require.ErrorIs(t, err, ErrConfig)
	assert.Contains(t, err.Error(), "linear_attn_config.num_heads")
	_, err = FromConfig(withLA(map[string]any{"num_heads": 32.0, "head_dim": 128.0, "kda_layers": []any{0.0, 28.0}}))
	require.ErrorIs(t, err, ErrConfig)
	assert.Contains(t, err.Error(), "linear_attn_config.kda_layers")
}
