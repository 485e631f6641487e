package models

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// DeepSeek-V4-Flash's parameters worked by hand from its config.json
// (hidden h 4096, 43 layers, 64 heads of head_dim 512 with rope 64,
// q_lora_rank 1024, o_lora_rank 1024, o_groups 8, 256 experts of 2048 plus
// 1 shared, top 6, vocab 129,280, indexer 64 heads of 128, hc_mult 4, 3
// hash layers; 21 ratio-4, 20 ratio-128 and 2 window-only layers), module
// by module as vLLM builds them (deepseek_v4.py, deepseek_v4_attention.py,
// deepseek_compressor.py):
//
//	attention, every layer:
//	  fused_wqa_wkv 4096*(1024+512)          =   6,291,456
//	  q_norm + kv_norm 1024 + 512            =       1,536
//	  wq_b 1024*64*512                       =  33,554,432
//	  wo_a 1024*64*512                       =  33,554,432
//	  wo_b 8*1024*4096                       =  33,554,432
//	  attn_sink 64                           =          64
//	                                           106,956,352
//	  ratio-128 compressor: ape 128*512 + wkv/wgate 4096*2*512 + norm 512
//	                      = 65,536 + 4,194,304 + 512   =   4,260,352
//	  ratio-4 compressor:  ape 4*2*512 + 4096*2*2*512 + 512 = 8,393,216
//	  ratio-4 indexer: wq_b 1024*64*128 = 8,388,608, weights_proj
//	    4096*64 = 262,144, compressor 4*256 + 4096*512 + 128 = 2,098,304
//	                                           =  10,749,056
//	  attention total: 43*106,956,352 + 20*4,260,352 + 21*(8,393,216 +
//	    10,749,056) = 4,599,123,136 + 85,207,040 + 401,987,712
//	                                           = 5,086,317,888
//	experts: 43 layers * 256 * 3*4096*2048    = 277,025,390,592
//	shared:  43 * 3*4096*2048                 =   1,082,130,432
//	router:  43 * 256*4096 = 45,088,768, + 40 biases of 256 = 10,240,
//	         + 3 hash tables of 129,280*6 = 2,327,040  = 47,426,048
//	norms:   attn_norm + ffn_norm 43*2*4096 = 352,256, final 4096,
//	         hyper-connections 43*2*(24*4*4096 + 24 + 3) = 33,818,898,
//	         hc_head 4*4*4096 + 4 + 1 = 65,541         =  34,240,791
//	embedding + head: 2 * 129,280*4096       =   1,059,061,760
//	total                                    = 284,334,567,511
//
// (hc_mult 4 gives (2+4)*4 = 24 mixing rows over a 4*4096-wide stream.)
func TestDeepSeekV4FlashParams(t *testing.T) {
	t.Parallel()
	m, err := Lookup("deepseek-ai/DeepSeek-V4-Flash")
	require.NoError(t, err)
	p := m.Params
	assert.Equal(t, int64(5_086_317_888), p.Attention)
	assert.Equal(t, int64(277_025_390_592), p.RoutedExperts)
	assert.Equal(t, int64(1_082_130_432), p.SharedExperts)
	assert.Equal(t, int64(47_426_048), p.Router)
	assert.Equal(t, int64(34_240_791), p.Norms)
	assert.Equal(t, int64(1_059_061_760), p.Embedding+p.LMHead)
	assert.Equal(t, int64(284_334_567_511), p.Total)
	// The model card's 284B, within 1 %.
	assert.InEpsilon(t, 284e9, float64(p.Total), 0.01)
	// Active: all but 250 of 256 experts per layer: total - 43*250*
	// 25,165,824 = 284,334,567,511 - 270,532,608,000.
	assert.Equal(t, int64(13_801_959_511), p.Active)

	// MTP layer: attention without compressor 106,956,352, norms 2*4096,
	// hyper-connections 2*(24*16,384 + 27) = 786,486, experts 256*25,165,824 = 6,442,450,944,
	// shared 25,165,824, router 256*4096 + 256 = 1,048,832; then enorm and
	// hnorm 8,192, e_proj and h_proj 2*4096^2 = 33,554,432, hc_head
	// 65,541, shared_head norm 4,096 and head + embedding 1,059,061,760.
	assert.Equal(t, int64(106_956_352+8_192+786_486+6_442_450_944+25_165_824+1_048_832+8_192+33_554_432+65_541+4_096+1_059_061_760), p.MTP)

	// Weights: block-fp8 linear layers, MXFP4 routed experts.
	assert.Equal(t, "fp4", m.Quant.Format)
	assert.InDelta(t, 4.25, m.Quant.BitsPerWeight, 0)
	assert.True(t, m.Quant.ExpertsOnly)
	assert.InDelta(t, 8+32.0/(128*128), m.Quant.RestBitsPerWeight, 1e-12)

	// Layer kinds.
	var n4, n128, n0 int
	for _, l := range m.Layers {
		require.Equal(t, MLAttention, l.Kind)
		switch l.Compress {
		case 4:
			n4++
		case 128:
			n128++
		default:
			n0++
		}
	}
	assert.Equal(t, []int{21, 20, 2}, []int{n4, n128, n0})
}

// The NVIDIA NVFP4 export stores the routed experts as NVFP4 (4 bits + one
// fp8 scale per 16 = 4.5) beside the block-fp8 rest.
func TestDeepSeekV4NVFP4Quantization(t *testing.T) {
	t.Parallel()
	m, err := Lookup("deepseek-v4-flash-nvfp4")
	require.NoError(t, err)
	assert.InDelta(t, 4.5, m.Quant.BitsPerWeight, 0)
	assert.True(t, m.Quant.ExpertsOnly)
	assert.InDelta(t, 8+32.0/(128*128), m.Quant.RestBitsPerWeight, 1e-12)
}

func TestDeepSeekV4ConfigErrors(t *testing.T) {
	t.Parallel()
	e, err := LookupEntry("deepseek-ai/DeepSeek-V4-Flash")
	require.NoError(t, err)
	for field, bad := range map[string]any{
		"compress_ratios": []any{4.0, 128.0},
		"o_groups":        7.0,
		"o_lora_rank":     0.0,
		"sliding_window":  0.0,
	} {
		c := map[string]any{}
		for k, v := range e.Config {
			c[k] = v
		}
		c[field] = bad
		_, err := FromConfig(c)
		require.ErrorIs(t, err, ErrConfig, field)
		assert.Contains(t, err.Error(), field+":", field)
	}
	c := map[string]any{}
	for k, v := range e.Config {
		c[k] = v
	}
	r := append([]any{}, e.Config["compress_ratios"].([]any)...)
	r[5] = 16.0
	c["compress_ratios"] = r
	_, err = FromConfig(c)
	require.ErrorIs(t, err, ErrConfig)
	assert.Contains(t, err.Error(), "compress_ratios")
}

// Entry.Built keys on the family: every deepseek_v4 entry must be in the
// "DeepSeek-V4" family and no other model there.
func TestDeepSeekV4FamilyHoldsEveryV4Entry(t *testing.T) {
	t.Parallel()
	entries, err := Catalog()
	require.NoError(t, err)
	for _, e := range entries {
		m, err := Lookup(e.ID)
		require.NoError(t, err)
		assert.Equal(t, m.IsDeepSeekV4(), e.Family == "DeepSeek-V4", e.ID)
		assert.True(t, e.Built(), e.ID)
	}
}
