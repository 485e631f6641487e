package calc

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Gemma 3n E2B / E4B from the catalog (vLLM v0.31.0 gemma3n.py
// Gemma3nAttention): the last num_kv_shared_layers layers set
// kv_sharing_target_layer_name to the last sliding (first shared layer - 2)
// or full (first shared layer - 1) layer before them and allocate no
// cache. E2B shares its last 10 of 30 layers, E4B its last 15 of 35, so
// both keep 20 cached layers: full at 4, 9, 14 and 19, the other 16
// sliding over 512 tokens; 2 KV heads of 256 in bf16:
//
//	per layer  2 (K and V) * 2 * 256 * 2 B = 2,048 B per token
//	total      20 * 2,048                  = 40,960 B per token
//
// Both kinds are as wide, so pages stay 16 tokens; 16 >= 1.5 * 4, so
// groups of 4: one full group and four sliding groups. The weights are
// the 5,445,311,360 (E2B) parameters of models/gemma3n_test.go in bf16,
// towers included: 10,890,622,720 B.
func TestGemma3nCatalogSharedKVLayout(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"google/gemma-3n-E2B-it", "google/gemma-3n-E2B", "google/gemma-3n-E4B-it", "google/gemma-3n-E4B"} {
		rep := eval(t, Request{Model: id, Hardware: HardwareRef{ID: "h200"}, MaxModelLen: Int(8192)})
		k := rep.KVCache
		assert.InDelta(t, 40_960, k.BytesPerToken, 0, id)
		assert.Zero(t, k.StateBytesPerSequence, id)
		assert.Equal(t, 16, k.BlockSize, id)
		layers := map[string][]int{}
		for _, g := range k.Groups {
			layers[g.Kind] = append(layers[g.Kind], g.Layers)
		}
		assert.Equal(t, map[string][]int{"full_attention": {4}, "sliding_attention": {4, 4, 4, 4}}, layers, id)
	}
	rep := eval(t, Request{Model: "gemma-3n-e2b-it", Hardware: HardwareRef{ID: "h200"}, MaxModelLen: Int(8192)})
	assert.InEpsilon(t, 10_890_622_720, rep.Memory.WeightsBytes, 1e-6)
}
