package kvcache

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// v4Layers builds DeepSeek-V4 layers from a compress_ratios list (window
// 128, latent 512 with rope 64, indexer keys of idx bytes on head 128).
func v4Layers(ratios []int, idx float64) []Layer {
	out := make([]Layer, len(ratios))
	for i, r := range ratios {
		out[i] = Layer{Kind: Compressed, Window: 128, LatentDim: 512, RopeDim: 64, Compress: r, IndexerBytes: idx, IndexerHeadDim: 128}
	}
	return out
}

// flashRatios is DeepSeek-V4-Flash's compress_ratios for its 43 layers:
// 0, 0, then 4 and 128 alternating, ending on 4 (21 ratio-4 layers, 20
// ratio-128 layers, 2 sliding-window-only layers).
func flashRatios() []int {
	r := []int{0, 0}
	for i := 0; i < 20; i++ {
		r = append(r, 4, 128)
	}
	return append(r, 4)
}

// DeepSeek-V4-Flash's packed cache, worked by hand (vLLM v0.27.1; see
// newV4Layout). Pages, each rounded up to a multiple of 576 B:
//
//	SWA cache, per layer:      64 tokens * 584 B = 37,376 -> 37,440
//	ratio-4 latents:     256/4 = 64 * 584 B     = 37,376 -> 37,440
//	ratio-4 indexer keys: 64 * 132 B (128 fp8 + one fp32 scale) = 8,448 -> 8,640
//	ratio-128 latents:  256/128 = 2 * 584 B     =  1,168 ->  1,728
//	ratio-4 attention-compressor state:  4 rows * 2*2*512 * 4 B = 32,768 -> 32,832
//	ratio-4 indexer-compressor state:    4 rows * 2*2*128 * 4 B =  8,192 ->  8,640
//	ratio-128 compressor state:          8 rows * 2*1*512 * 4 B = 32,768 -> 32,832
//
// Buckets and their layer tuples: full (21 x 37,440, 21 x 8,640, 20 x
// 1,728) 21; SWA 43; states (4, 8) 21 pairs; states (8, 128) 20. The tuple
// count d in [21, 43] with the least padding: d = 21 pads 0+20+0+1 = 21,
// d = 22 pads 1+1+1+2 = 5, d = 23 pads 2+3+2+3 = 10, larger d pad more, so
// d = 22 and the SWA bucket splits in ceil(43/22) = 2 groups of 22 and 21.
// Group sums:
//
//	full:        21*37,440 + 21*8,640 + 20*1,728 = 1,002,240
//	SWA:         22*37,440                        =   823,680 (and 21*)
//	states (4):  21*32,832 + 21*8,640             =   870,912
//	states (128): 20*32,832                       =   656,640
//
// so a block is 1,002,240 B wide.
func TestDeepSeekV4FlashLayout(t *testing.T) {
	t.Parallel()
	lay, err := NewLayout(v4Layers(flashRatios(), 132), Options{TP: 1, ElemBytes: 1})
	require.NoError(t, err)
	assert.InDelta(t, 1_002_240, lay.PageBytes, 0)
	assert.Equal(t, 1, lay.LayersPerBlock)
	assert.Equal(t, 256, lay.BlockSize)
	assert.Equal(t, []Group{
		{Kind: Latent, Layers: 41, BlockSize: 256},
		{Kind: Sliding, Window: 128, Layers: 22, BlockSize: 64},
		{Kind: Sliding, Window: 128, Layers: 21, BlockSize: 64},
		{Kind: Sliding, Window: 8, Layers: 21, BlockSize: 4},
		{Kind: Sliding, Window: 128, Layers: 20, BlockSize: 8},
	}, lay.Groups)

	// Growth per token: 21 * (584/4 + 132/4) + 20 * 584/128
	// = 21 * 179 + 20 * 4.5625 = 3,759 + 91.25.
	assert.InDelta(t, 3850.25, lay.BytesPerToken, 1e-9)
	// Bounded per sequence: 43 windows of 128 * 584 B = 3,214,336; 21
	// ratio-4 states over their window of 8 rows, 8 * (2,048 + 512) * 4 =
	// 81,920 each; 20 ratio-128 states over 128 rows, 128 * 1,024 * 4 =
	// 524,288 each: 3,214,336 + 1,720,320 + 10,485,760.
	assert.InDelta(t, 15_420_416, lay.StateBytes, 0)

	// A request of 131,072 tokens with 4,096 tokens in flight holds
	// 131,072/256 = 512 full blocks, per SWA group ceil((127+4,096)/64)+1
	// = 67, ceil((7+4,096)/4)+1 = 1,027 ratio-4 state blocks and
	// ceil((127+4,096)/8)+1 = 529 ratio-128 state blocks: 2,202.
	assert.Equal(t, int64(2202), lay.MaxBlocksPerRequest(131072, 4096))
	// 5 GiB holds floor(5,368,709,120 / 1,002,240) = 5,356 blocks.
	assert.Equal(t, int64(5356), lay.NumBlocks(5<<30))

	// The layout does not depend on the KV dtype or the tensor-parallel
	// size: fp8_ds_mla is the only format and the latent is replicated.
	lay16, err := NewLayout(v4Layers(flashRatios(), 132), Options{TP: 8, ElemBytes: 2})
	require.NoError(t, err)
	assert.Equal(t, lay, lay16)
}

// With vLLM's fp4 indexer cache (attention_config.use_fp4_indexer_cache:
// 128/2 + 128/32 = 68 B per key), the indexer page is 64 * 68 = 4,352 ->
// 4,608 B and the widest group is still the full one: 21*37,440 +
// 21*4,608 + 20*1,728 = 917,568 B, the block stride a published
// walk-through of vLLM v0.27.1's DeepSeek-V4-Flash layout derives.
func TestDeepSeekV4FlashFP4IndexerStride(t *testing.T) {
	t.Parallel()
	lay, err := NewLayout(v4Layers(flashRatios(), 68), Options{TP: 1, ElemBytes: 1})
	require.NoError(t, err)
	assert.InDelta(t, 917_568, lay.PageBytes, 0)
}

// DeepSeek-V4-Pro: 61 layers, compress_ratios 128, 128, then 4 and 128
// alternating, ending on 4: 30 ratio-4 and 31 ratio-128 layers. Tuples:
// full 31 (31 x 1,728 latents), SWA 61, states (4, 8) 30, (8, 128) 31;
// d in [31, 61]: d = 31 pads 0+1+1+0 = 2, d = 32 pads 1+3+2+1 = 7, so the
// SWA bucket splits in 2 groups (31 and 30). Group sums: full 30*37,440 +
// 30*8,640 + 31*1,728 = 1,435,968; SWA 31*37,440 = 1,160,640; states (4)
// 30*(32,832 + 8,640) = 1,244,160; states (128) 31*32,832 = 1,017,792.
func TestDeepSeekV4ProLayout(t *testing.T) {
	t.Parallel()
	r := []int{128, 128}
	for i := 0; i < 29; i++ {
		r = append(r, 4, 128)
	}
	r = append(r, 4)
	require.Len(t, r, 61)
	lay, err := NewLayout(v4Layers(r, 132), Options{TP: 1, ElemBytes: 1})
	require.NoError(t, err)
	assert.InDelta(t, 1_435_968, lay.PageBytes, 0)
	require.Len(t, lay.Groups, 5)
	assert.Equal(t, 31, lay.Groups[1].Layers)
	assert.Equal(t, 30, lay.Groups[2].Layers)
}

func TestApproximateGCD(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 22, approximateGCD([]int{21, 43, 21, 20}, 21))
	// 44 SWA caches (the MTP layer's too): d = 22 pads 1+0+1+2 = 4.
	assert.Equal(t, 22, approximateGCD([]int{21, 44, 21, 20}, 21))
	// Ties go to the larger d: [6, 4] pads 0 at d = 1 and d = 2, 2 at
	// d = 3, 4 and 6, 5 at d = 5.
	assert.Equal(t, 2, approximateGCD([]int{6, 4}, 1))
	// [4, 4]: d = 4 pads 0 (the only candidate).
	assert.Equal(t, 4, approximateGCD([]int{4, 4}, 1))
	// A lower bound above every value is returned as is.
	assert.Equal(t, 9, approximateGCD([]int{4, 5}, 9))
}

func TestDeepSeekV4LayoutRefusesMixedKinds(t *testing.T) {
	t.Parallel()
	layers := append(v4Layers([]int{4}, 132), Layer{Kind: Full, KVHeads: 1, HeadDimK: 64, HeadDimV: 64})
	_, err := NewLayout(layers, Options{TP: 1, ElemBytes: 1})
	require.ErrorIs(t, err, ErrInvalid)
	_, err = NewLayout(v4Layers([]int{8}, 132), Options{TP: 1, ElemBytes: 1})
	require.ErrorIs(t, err, ErrInvalid)
}

// A published vLLM start-up refusal (vLLM issue #44376: DeepSeek-V4-Flash
// on 2 GH200, tensor_parallel_size 2, kv_cache_dtype fp8, block_size 256,
// max_model_len 30,000, the LLM class's max_num_batched_tokens 16,384):
// "To serve at least one request with the model's max seq len (30000),
// (6.66 GiB KV cache is needed, which is larger than the available KV
// cache memory (5.44 GiB). Based on the available memory, the estimated
// maximum model length is 13528."
//
// By hand: a block is priced at 22 tuples of 37,440 + 8,640 + 1,728 =
// 47,808 B, 1,051,776 B. At 30,000 tokens a request holds ceil(30,000/256)
// = 118 full blocks, 2 * (ceil((127+16,384)/64)+1) = 518 SWA blocks,
// ceil((7+16,384)/4)+1 = 4,099 and ceil((127+16,384)/8)+1 = 2,065 state
// blocks: 6,800 * 1,051,776 = 7,152,076,800 B = 6.66 GiB. At 13,528
// tokens (below the in-flight span, so every window is capped by the
// length): 53 + 2 * 213 + 3,383 + 1,692 = 5,554 blocks = 5.44 GiB, and one
// token more crosses a ratio-4 and a ratio-128 block boundary (5,556
// blocks), so 13,528 is the longest length 5.44 GiB admits.
func TestDeepSeekV4StartupCheckMatchesPublishedLog(t *testing.T) {
	t.Parallel()
	lay, err := NewLayout(v4Layers(flashRatios(), 132), Options{TP: 2, ElemBytes: 1})
	require.NoError(t, err)
	assert.InDelta(t, 1_051_776, lay.CheckBytesPerBlock, 0)
	gib := func(b float64) float64 { return math.Round(b/(1<<30)*100) / 100 }
	assert.InDelta(t, 6.66, gib(lay.RequestCheckBytes(30000, 16384)), 1e-9)
	assert.InDelta(t, 5.44, gib(lay.RequestCheckBytes(13528, 16384)), 1e-9)
	assert.Greater(t, lay.RequestCheckBytes(13529, 16384), lay.RequestCheckBytes(13528, 16384))
	assert.Equal(t, int64(5554), lay.MaxBlocksPerRequest(13528, 16384))
}
