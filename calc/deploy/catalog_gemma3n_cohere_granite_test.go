package deploy

import (
	"testing"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/stretchr/testify/assert"
)

// Gemma 3n E2B / E4B from the catalog (vLLM gemma3n.py @034f08e65e,
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
		rep := eval(t, spec.Request{Model: id, Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192)})
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
	rep := eval(t, spec.Request{Model: "gemma-3n-e2b-it", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192)})
	assert.InEpsilon(t, 10_890_622_720, rep.Memory.WeightsBytes, 1e-6)
}

// KV bytes per token and state bytes per sequence of the Command R7B and
// Granite 4.0 entries, worked by hand from their configs (bf16, tensor
// parallel size 1): attention layers keep layers * 2 * kv_heads *
// head_dim * 2 B per token; a Mamba-2 layer keeps a conv state of
// (d_inner + 2 * n_groups * d_state) * (conv_kernel - 1) values and an SSM
// state of heads * head_dim * d_state values in bf16 (vLLM
// MambaStateShapeCalculator.mamba2_state_shape).
func TestKVBytesPerTokenCohereGranite(t *testing.T) {
	t.Parallel()
	assertKVPerTokenAndState(t, []kvCase{
		// Command R7B: 32 layers (24 sliding, 8 global), 8 KV heads of 128:
		// 32 * 2 * 8 * 128 * 2 = 131,072 per token.
		{"Command R7B", "CohereLabs/c4ai-command-r7b-12-2024", 131_072, 0},
		// Command A and Command A Vision (the same text model): 64 layers
		// (48 sliding, 16 global), 8 KV heads of 128: 64 * 2 * 8 * 128 * 2
		// = 262,144 per token; the SigLIP tower keeps no cache.
		{"Command A", "command-a", 262_144, 0},
		{"Command A Vision", "command-a-vision", 262_144, 0},
		// Granite 4.0 H Small: 4 attention layers of 8 KV heads of 128:
		// 4 * 2 * 8 * 128 * 2 = 16,384 per token. 36 Mamba-2 layers,
		// d_inner = 2 * 4,096 = 8,192, 1 group, d_state 128, conv 4, 128
		// heads of 64:
		//   conv (8,192 + 2 * 128) * 3 = 25,344 values
		//   SSM  128 * 64 * 128       = 1,048,576 values
		//   (25,344 + 1,048,576) * 2 B = 2,147,840 B per layer
		//   36 * 2,147,840 = 77,322,240 B per sequence.
		{"Granite 4.0 H Small", "ibm-granite/granite-4.0-h-small", 16_384, 77_322_240},
		// Granite 4.0 350M: 28 attention layers of 4 KV heads of 64:
		// 28 * 2 * 4 * 64 * 2 = 28,672 per token.
		{"Granite 4.0 350M", "granite-4.0-350m", 28_672, 0},
	})
}

// Command R7B (vLLM commandr.py CohereAttention over Cohere2Config's
// layer_types): with sliding_window_pattern 4, layers 3, 7, ..., 31 are
// global and the other 24 slide over 4,096 tokens. Both kinds have the same
// page, so blocks stay 16 tokens; 24 >= 1.5 * 8, so groups of 8: one full
// group and three sliding groups, the sliding ones of window 4,096.
func TestCommandR7BSlidingGroups(t *testing.T) {
	t.Parallel()
	rep := eval(t, spec.Request{Model: "command-r7b", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(32768)})
	k := rep.KVCache
	assert.Equal(t, 16, k.BlockSize)
	layers := map[string][]int{}
	windows := map[int]bool{}
	for _, g := range k.Groups {
		layers[g.Kind] = append(layers[g.Kind], g.Layers)
		windows[g.Window] = true
	}
	assert.Equal(t, map[string][]int{"full_attention": {8}, "sliding_attention": {8, 8, 8}}, layers)
	assert.Equal(t, map[int]bool{0: true, 4096: true}, windows)
}

// Command A: 48 sliding and 16 global layers; 48 >= 1.5 * 16, so groups of
// 16: one full group and three sliding groups.
func TestCommandASlidingGroups(t *testing.T) {
	t.Parallel()
	rep := eval(t, spec.Request{Model: "command-a", Hardware: spec.HardwareRef{ID: "h200"}, TensorParallelSize: spec.Int(4), MaxModelLen: spec.Int(32768)})
	layers := map[string][]int{}
	for _, g := range rep.KVCache.Groups {
		layers[g.Kind] = append(layers[g.Kind], g.Layers)
	}
	assert.Equal(t, map[string][]int{"full_attention": {16}, "sliding_attention": {16, 16, 16}}, layers)
	// Four ranks split the 8 KV heads: 262,144 / 4 = 65,536 B per token each.
	assert.InDelta(t, 65_536, rep.KVCache.BytesPerTokenPerGPU, 0)
}
