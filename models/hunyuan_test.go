package models

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Hunyuan-A13B counted by hand from its config (h 4096, 32 layers, 32 heads
// and 8 KV heads of 128, vocabulary 128,167, tied) and vLLM's modules
// (vllm/model_executor/models/hunyuan_v1.py):
//
//	attention: q 4096*4096 + k, v 2*4096*1024 + o 4096*4096 + q/k norms
//	  2*128 = 41,943,296 a layer, x 32 = 1,342,185,472
//	routed experts: 32 * 64 * 3*4096*3072 (moe_intermediate_size[i]) = 77,309,411,328
//	shared MLP: 32 * 3*4096*(3072*1) (intermediate_size * num_shared_expert[i]) = 1,207,959,552
//	router: 32 * 4096*64 = 8,388,608
//	embedding (tied): 128,167 * 4096 = 524,972,032
//	norms: 32*2*4096 + 4096 = 266,240
//	total 80,393,183,232, 0.49 % above the card's 80B
//
// Active: 8 of 64 experts (moe_topk[i]): 80,393,183,232 - 32*56*37,748,736
// (67,645,734,912) =
// 12,747,448,320 (the card: 13B activated).
func TestHunyuanA13BParamsByHand(t *testing.T) {
	t.Parallel()
	m, err := Lookup("hunyuan-a13b")
	require.NoError(t, err)
	assert.Equal(t, 8, m.TopK)
	assert.Equal(t, 3072, m.MoEIntermediate)
	assert.Equal(t, 3072, m.SharedIntermediate)
	assert.Equal(t, 32, m.MoELayers())
	p := m.Params
	assert.Equal(t, int64(1_342_185_472), p.Attention)
	assert.Equal(t, int64(77_309_411_328), p.RoutedExperts)
	assert.Equal(t, int64(1_207_959_552), p.SharedExperts)
	assert.Equal(t, int64(8_388_608), p.Router)
	assert.Equal(t, int64(524_972_032), p.Embedding)
	assert.Equal(t, int64(0), p.LMHead)
	assert.Equal(t, int64(266_240), p.Norms)
	assert.Equal(t, int64(80_393_183_232), p.Total)
	assert.Equal(t, int64(12_747_448_320), p.Active)
}

// Per-layer lists the engine cannot hold as one value, short lists and
// cross-layer attention are refused, each naming its field.
func TestHunyuanListErrors(t *testing.T) {
	t.Parallel()
	e, err := LookupEntry("hunyuan-a13b")
	require.NoError(t, err)
	with := func(key string, v any) map[string]any {
		raw := map[string]any{}
		for k, x := range e.Config {
			raw[k] = x
		}
		raw[key] = v
		return raw
	}
	topk := make([]any, 32)
	for i := range topk {
		topk[i] = 8.0
	}
	topk[5] = 4.0
	_, err = FromConfig(with("moe_topk", topk))
	require.ErrorIs(t, err, ErrConfig)
	assert.Contains(t, err.Error(), "moe_topk[5]")
	_, err = FromConfig(with("moe_intermediate_size", []any{3072.0, 3072.0}))
	require.ErrorIs(t, err, ErrConfig)
	assert.Contains(t, err.Error(), "moe_intermediate_size")
	_, err = FromConfig(with("num_shared_expert", []any{1.5}))
	require.ErrorIs(t, err, ErrConfig)
	assert.Contains(t, err.Error(), "num_shared_expert[0]")
	_, err = FromConfig(with("use_cla", true))
	require.ErrorIs(t, err, ErrConfig)
	assert.Contains(t, err.Error(), "use_cla")
}
