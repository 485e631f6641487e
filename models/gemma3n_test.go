package models

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Gemma 3n E2B's parameters, module by module as vLLM loads them
// (vllm/model_executor/models/gemma3n.py and gemma3n_mm.py; the modules of
// transformers' modeling_gemma3n.py), from its config (hidden 2048, 30
// layers, 8 heads / 2 KV heads of 256, MLP 8192 in every layer, vocab
// 262400 tied, per-layer inputs 256 over a vocabulary of 262144,
// altup_num_inputs 4, laurel_rank 64; audio tower of 12 conformer layers
// of 1536; vision tower mobilenetv5_300m_enc):
//
//	embedding      262,400 * 2,048                                    =   537,395,200
//	attention      30 * (2*2,048*2,048 + 2*2,048*512 + 2*256 q/k norm) =   314,588,160
//	MLP            30 * 3*2,048*8,192                                 = 1,509,949,440
//	norms          30 * 4*2,048 + 2,048                               =       247,808
//	PLE table      262,144 * 30*256                                   = 2,013,265,920
//	PLE rest       2,048*7,680 + 256 + 30*(2*2,048*256 + 2,048)        =    47,247,616
//	AltUp          2*3*2,048*2,048 + 30*(2*2,048 + 16 + 64 + 8,192)    =    25,536,864
//	LAuReL         30 * (2*2,048*64 + 2,048)                          =     7,925,760
//	text model                                                        = 4,456,156,768
//
// The towers (Params.Vision):
//
//	audio SSCP     9*128 + 128 + 9*128*32 + 32 + 32*32*1,536           =     1,611,040
//	conformer      12 * (24*1,536^2 + 14*1,536 + 192)                 =   679,737,600
//	audio embedder 128*1,536 + 2*1,536 + 1,536*2,048                  =     3,345,408
//	MobileNet-V5   the 300M of its name                               =   300,000,000
//	vision embedder 128*2,048 + 2*2,048 + 2,048*2,048                 =     4,460,544
//	towers                                                            =   989,154,592
//
// Total 5,445,311,360: the model card's "raw parameter count 5B". Less the
// towers, the per-layer table and the token embedding it is 1,905,495,648,
// Google's 1.91B effective.
func TestGemma3nE2BAltUpLaurelAndTowers(t *testing.T) {
	t.Parallel()
	m, err := Lookup("gemma-3n-e2b-it")
	require.NoError(t, err)
	p := m.Params
	assert.Equal(t, int64(537_395_200), p.Embedding)
	assert.Zero(t, p.LMHead)
	assert.Equal(t, int64(314_588_160), p.Attention)
	assert.Equal(t, int64(1_509_949_440), p.DenseMLP)
	assert.Equal(t, int64(247_808), p.Norms)
	assert.Equal(t, int64(2_013_265_920), p.PLETable)
	assert.Equal(t, int64(2_013_265_920+47_247_616), p.PerLayerEmbedding)
	assert.Equal(t, int64(25_536_864), p.AltUp)
	assert.Equal(t, int64(7_925_760), p.Laurel)
	assert.Equal(t, int64(1_611_040+679_737_600+3_345_408+300_000_000+4_460_544), p.Vision)
	assert.Equal(t, int64(4_456_156_768+989_154_592), p.Total)
	assert.Equal(t, int64(1_905_495_648), p.Total-p.Vision-p.PLETable-p.Embedding)
	// Active leaves out the towers and the per-layer table only.
	assert.Equal(t, int64(4_456_156_768-2_013_265_920), p.Active)
	assert.False(t, m.Heterogeneous(), "every layer lists the same MLP width")
	for i, l := range m.Layers {
		assert.Equal(t, i >= 20, l.SharedKV, "layer %d: the last 10 layers share", i)
	}
}

// Gemma 3n E4B differs in depth (35 layers), MLP width (16384) and
// num_kv_shared_layers (15):
//
//	attention      35 * 10,486,272                         =   367,019,520
//	MLP            35 * 3*2,048*16,384                     = 3,523,215,360
//	PLE table      262,144 * 35*256                        = 2,348,810,240
//	AltUp          25,165,824 + 35*12,368                  =    25,598,704
//	LAuReL         35 * 264,192                            =     9,246,720
//	effective      total - towers - PLE table - embedding  = 3,980,491,248
//
// against the model card's "comparable to a traditional 4B model" (0.5 %).
func TestGemma3nE4BParams(t *testing.T) {
	t.Parallel()
	m, err := Lookup("google/gemma-3n-E4B-it")
	require.NoError(t, err)
	p := m.Params
	assert.Equal(t, int64(367_019_520), p.Attention)
	assert.Equal(t, int64(3_523_215_360), p.DenseMLP)
	assert.Equal(t, int64(2_348_810_240), p.PLETable)
	assert.Equal(t, int64(25_598_704), p.AltUp)
	assert.Equal(t, int64(9_246_720), p.Laurel)
	assert.Equal(t, int64(3_980_491_248), p.Total-p.Vision-p.PLETable-p.Embedding)
	assert.True(t, m.Layers[20].SharedKV)
	assert.False(t, m.Layers[19].SharedKV)
}

// A Gemma 3n text_config without altup_num_inputs or laurel_rank takes
// Gemma3nTextConfig's defaults (4 and 64); a bad value is named.
func TestGemma3nAltUpDefaultsAndBadValues(t *testing.T) {
	t.Parallel()
	cfg := func(extra map[string]any) map[string]any {
		c := map[string]any{
			"model_type": "gemma3n_text", "hidden_size": 64.0, "num_hidden_layers": 2.0, "num_attention_heads": 4.0,
			"num_key_value_heads": 1.0, "head_dim": 16.0, "vocab_size": 100.0, "max_position_embeddings": 512.0,
			"sliding_window": 32.0, "intermediate_size": 128.0,
		}
		for k, v := range extra {
			c[k] = v
		}
		return c
	}
	m, err := FromConfig(cfg(nil))
	require.NoError(t, err)
	// AltUp: 2*3*64*64 + 2*(2*64 + 16 + 64 + 64*4) = 24,576 + 928 = 25,504.
	assert.Equal(t, int64(25_504), m.Params.AltUp)
	// LAuReL: 2 * (2*64*64 + 64) = 16,512.
	assert.Equal(t, int64(16_512), m.Params.Laurel)
	assert.Zero(t, m.Params.Vision, "a bare text config has no towers")

	for _, field := range []string{"altup_num_inputs", "laurel_rank"} {
		_, err = FromConfig(cfg(map[string]any{field: -3.0}))
		require.Error(t, err, field)
		assert.Contains(t, err.Error(), field)
	}
}
