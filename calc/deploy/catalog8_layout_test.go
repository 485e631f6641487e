package deploy

import (
	"testing"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/stretchr/testify/assert"
)

// Kimi-Linear 48B-A3B's cache, worked by hand from its config (vLLM
// vllm/model_executor/models/kimi_linear.py, vllm/model_executor/layers/
// kda.py and mamba/mamba_utils.py):
//
//   - 7 MLA layers (full_attn_layers) keep one latent of kv_lora_rank 512 +
//     qk_rope_head_dim 64 = 576 values per token, replicated on every
//     tensor rank: 7 * 576 * 2 B = 8,064 B per token in bf16, on each GPU.
//   - 20 KDA layers keep per sequence (kda_state_shape, kda_state_dtype)
//     q, k and v conv states of 32*128 = 4,096 channels x (4 - 1) taps in
//     bf16, 3 * 4,096 * 3 * 2 = 73,728 B, and a float32 recurrent state of
//     32 x 128 x 128 = 524,288 values, 2,097,152 B: 2,170,880 B a layer,
//     20 * 2,170,880 = 43,417,600 B per sequence, split across tensor
//     ranks by heads.
//
// Groups (0.31's rules, largest / smallest < 1.5 or groups of the smallest
// count): 20 >= 1.5 * 7, so groups of 7 layers, one MLA group and ceil(20
// / 7) = 3 state groups (7, 7, 6). A page must hold one layer's state: at
// tp=1 the MLA page is 16 tokens * 1,152 B = 18,432 B, and 16 *
// ceil(2,170,880 / 18,432) = 16 * 118 = 1,888 tokens a block; at tp=4 a
// rank's state is 542,720 B, 16 * ceil(542,720 / 18,432) = 16 * 30 = 480.
func TestKimiLinearLayout(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tp, block   int
		perGPU, seq float64
	}{
		{1, 1_888, 8_064, 43_417_600},
		{4, 480, 8_064, 43_417_600},
	} {
		rep := eval(t, spec.Request{Model: "kimi-linear", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(65536), TensorParallelSize: spec.Int(tc.tp)})
		k := rep.KVCache
		assert.InDelta(t, tc.perGPU, k.BytesPerTokenPerGPU, 0, "tp=%d", tc.tp)
		assert.InDelta(t, tc.seq, k.StateBytesPerSequence, 0, "tp=%d", tc.tp)
		assert.Equal(t, tc.block, k.BlockSize, "tp=%d", tc.tp)
		layers := map[string][]int{}
		for _, g := range k.Groups {
			layers[g.Kind] = append(layers[g.Kind], g.Layers)
		}
		assert.Equal(t, map[string][]int{"mla": {7}, "state": {7, 7, 6}}, layers, "tp=%d", tc.tp)
		assert.Equal(t, "hybrid+moe", rep.Model.Architecture)
	}
	assertKVPerTokenAndState(t, []kvCase{
		{"Kimi-Linear Base", "moonshotai/Kimi-Linear-48B-A3B-Base", 8_064, 43_417_600},
	})
}

// Models of part 8 without a new layer kind, by hand at tp=1 in bf16.
func TestKVBytesPerTokenCatalogPart8(t *testing.T) {
	t.Parallel()
	assertKVPerTokenAndState(t, []kvCase{
		// Hunyuan-A13B: 32 layers of 8 KV heads of 128 (use_cla false, so
		// every layer keeps its own K and V): 32 * 2 * 8 * 128 * 2 = 131,072.
		{"Hunyuan-A13B", "hunyuan-a13b", 131_072, 0},
		// MiMo-V2-Flash: K of 192 and V of 128 values a head (vLLM's
		// DiffKV spec). 9 full layers of 4 KV heads: 9 * 4 * (192 + 128)
		// * 2 = 23,040; 39 sliding layers of 8 KV heads: 39 * 8 * 320 * 2
		// = 199,680 a token, up to their 128-token window: 222,720.
		{"MiMo-V2-Flash", "mimo-v2-flash", 222_720, 0},
	})
}

// MiMo-V2-Flash at tp=4 against a published start-up log (SGLang, whose
// per-token layout is vLLM's: one K and one V cache per layer, heads split
// across ranks). sgl-project/sglang PR #15464
// (https://github.com/sgl-project/sglang/pull/15464), ranks TP0-TP3: "KV
// Cache is allocated. #tokens: 1496958, K size: 4.82 GB, V size: 3.21 GB"
// (the full layers), "K size: 41.76 GB, V size: 27.84 GB" (the sliding
// layers) and "SWAKVPool mem usage: 77.63 GB", sizes in GiB. By hand a rank
// keeps 1 of the full layers' 4 KV heads and 2 of the sliding layers' 8:
// 9 * 1 * (192 + 128) * 2 + 39 * 2 * (192 + 128) * 2 = 5,760 + 49,920 =
// 55,680 bytes per token; the log's 77.63 GiB over 1,496,958 tokens is
// 55,681, within its two-decimal rounding (0.005 GiB / 1,496,958 tokens =
// 3.6 bytes).
func TestMiMoV2FlashMatchesPublishedPoolSizes(t *testing.T) {
	t.Parallel()
	rep := eval(t, spec.Request{Model: "mimo-v2-flash", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(65536), TensorParallelSize: spec.Int(4)})
	assert.InDelta(t, 55_680, rep.KVCache.BytesPerTokenPerGPU, 0)
	const gib, tokens = 1 << 30, 1_496_958.0
	assert.InDelta(t, rep.KVCache.BytesPerTokenPerGPU, 77.63*gib/tokens, 0.005*gib/tokens)
}

// MiMo-V2-Flash at tp=8: the full layers' 4 KV heads are replicated, one a
// rank (vLLM max(1, 4 // 8)), the sliding layers' 8 split one a rank: 9 *
// 320 * 2 + 39 * 320 * 2 = 5,760 + 24,960 = 30,720 bytes per token per GPU.
func TestMiMoV2FlashTP8(t *testing.T) {
	t.Parallel()
	rep := eval(t, spec.Request{Model: "mimo-v2-flash", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(65536), TensorParallelSize: spec.Int(8)})
	assert.InDelta(t, 30_720, rep.KVCache.BytesPerTokenPerGPU, 0)
}
