package kvcache

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/internal/fielderr"
)

func repeat(l Layer, n int) []Layer {
	out := make([]Layer, n)
	for i := range out {
		out[i] = l
	}
	return out
}

func TestBytesPerToken(t *testing.T) {
	t.Parallel()
	gqa := Layer{Kind: Full, KVHeads: 8, HeadDimK: 128, HeadDimV: 128}
	tests := []struct {
		name  string
		layer Layer
		tp    int
		elem  float64
		want  float64
	}{
		// K and V: 8 heads * (128+128) * 2 bytes = 4096 bytes per layer.
		{"gqa bf16", gqa, 1, 2, 4096},
		// fp8 halves it: 8 * 256 * 1 = 2048.
		{"gqa fp8", gqa, 1, 1, 2048},
		// tp=2 stores 4 of the 8 heads per rank: 4 * 256 * 2 = 2048.
		{"gqa tp2", gqa, 2, 2, 2048},
		// tp=16 > 8 heads: each rank keeps one (replicated) head: 1*256*2.
		{"gqa tp16 replicated", gqa, 16, 2, 512},
		// MLA: one latent of 512 + 64 values, replicated on every rank.
		{"mla", Layer{Kind: Latent, LatentDim: 576}, 4, 2, 1152},
		// A state layer costs nothing per token.
		{"state", Layer{Kind: State, StateElems: 1 << 20}, 1, 2, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.InDelta(t, tc.want, tc.layer.BytesPerToken(tc.tp, tc.elem), 1e-9)
		})
	}
}

func TestHeadsPerRank(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 8, HeadsPerRank(8, 1))
	assert.Equal(t, 2, HeadsPerRank(8, 4))
	assert.Equal(t, 1, HeadsPerRank(8, 8))
	assert.Equal(t, 1, HeadsPerRank(8, 16))
	assert.Equal(t, 1, HeadsPerRank(1, 4))
}

// Llama-3.1-8B: 32 full layers of 8 KV heads of 128. vLLM 0.19 logged
// 58.11 GiB of KV cache and 29,751 blocks (476,016 tokens) on an H100
// (../shared/validation/cases.json A020): 58.11 GiB / (16 tokens * 4096 B *
// 32 layers) = 29,752.3 blocks; the log's GiB figure is rounded.
func TestLayoutUniformMatchesVLLMLog(t *testing.T) {
	t.Parallel()
	l, err := NewLayout(repeat(Layer{Kind: Full, KVHeads: 8, HeadDimK: 128, HeadDimV: 128}, 32), Options{TP: 1, ElemBytes: 2})
	require.NoError(t, err)
	assert.Equal(t, 16, l.BlockSize)
	assert.Equal(t, 32, l.LayersPerBlock)
	assert.InDelta(t, 16*4096.0, l.PageBytes, 0)
	assert.InDelta(t, 131072.0, l.BytesPerToken, 0)
	blocks := l.NumBlocks(58.11 * (1 << 30))
	assert.InDelta(t, 29751, blocks, 2)
	assert.Equal(t, blocks*16, l.CapacityTokens(blocks))
	// Maximum concurrency at 8192 tokens: 512 blocks per request.
	assert.InDelta(t, float64(blocks)/512, l.MaxConcurrency(blocks, 8192, 8192), 1e-12)
}

// Gemma-2-9B alternates 21 sliding (4096) and 21 global layers with 8 KV
// heads of 256. vLLM groups them into two groups of 21; one block id covers
// 21 layers, so 54.12 GiB / (16 * 8192 B * 21) = 21,110 blocks, and the log
// reports 21,110 / 2 groups * 16 = 168,880 tokens (cases.json A008).
func TestLayoutSlidingGlobalMatchesVLLMLog(t *testing.T) {
	t.Parallel()
	var layers []Layer
	for i := 0; i < 42; i++ {
		l := Layer{Kind: Full, KVHeads: 8, HeadDimK: 256, HeadDimV: 256}
		if i%2 == 0 {
			l.Kind, l.Window = Sliding, 4096
		}
		layers = append(layers, l)
	}
	l, err := NewLayout(layers, Options{TP: 1, ElemBytes: 2})
	require.NoError(t, err)
	require.Len(t, l.Groups, 2)
	assert.Equal(t, 21, l.LayersPerBlock)
	// The log's 54.12 GiB is rounded to 0.01 GiB (+-0.005 GiB = +-2 blocks).
	assert.InDelta(t, 21110, l.NumBlocks(54.12*(1<<30)), 2)
	assert.Equal(t, int64(168880), l.CapacityTokens(21110))
}

// Gemma-3-12B: 48 layers, 5 sliding (1024) per global, 8 KV heads of 256.
// 40 sliding and 8 global layers: the smallest type has 8 layers, so the
// sliding layers split into 5 groups of 8, 6 groups in all. 47.72 GiB /
// (16 * 8192 * 8) = 48,867 blocks and 48,867 / 6 * 16 = 130,304 tokens, as
// vLLM logged (cases.json A009).
func TestLayoutFiveToOneMatchesVLLMLog(t *testing.T) {
	t.Parallel()
	var layers []Layer
	for i := 0; i < 48; i++ {
		l := Layer{Kind: Full, KVHeads: 8, HeadDimK: 256, HeadDimV: 256}
		if (i+1)%6 != 0 {
			l.Kind, l.Window = Sliding, 1024
		}
		layers = append(layers, l)
	}
	l, err := NewLayout(layers, Options{TP: 1, ElemBytes: 2})
	require.NoError(t, err)
	assert.Len(t, l.Groups, 6)
	assert.Equal(t, 8, l.LayersPerBlock)
	// The log's 47.72 GiB is rounded to 0.01 GiB (+-0.005 GiB = +-5 blocks).
	assert.InDelta(t, 48867, l.NumBlocks(47.72*(1<<30)), 5)
	assert.Equal(t, int64(130304), l.CapacityTokens(48867))
}

func TestBlocksFor(t *testing.T) {
	t.Parallel()
	full := Layer{Kind: Full, KVHeads: 1, HeadDimK: 64, HeadDimV: 64}
	slide := Layer{Kind: Sliding, KVHeads: 1, HeadDimK: 64, HeadDimV: 64, Window: 64}
	l, err := NewLayout([]Layer{full, slide}, Options{TP: 1, ElemBytes: 2})
	require.NoError(t, err)
	// Context 1000 tokens: full group ceil(1000/16) = 63 blocks; sliding
	// group keeps ceil((64-1+1)/16)+1 = 5 blocks; total 68.
	assert.Equal(t, int64(68), l.BlocksFor(1000, 1))
	// Short context: the window does not bind: 2 + 2.
	assert.Equal(t, int64(4), l.BlocksFor(20, 1))
	assert.Equal(t, int64(0), l.BlocksFor(0, 1))
	// vLLM's per-request maximum at max_model_len 4096 and 8192 batched
	// tokens: full 256, sliding ceil(min(63+8192, 4096)/16)+1 = 257.
	assert.Equal(t, int64(513), l.MaxBlocksPerRequest(4096, 8192))
}

// A hybrid Mamba model: vLLM enlarges the attention block so one page holds
// a Mamba state. Attention: 8 heads * 256 * 2 B = 4096 B per token. A state
// of 1,000,000 elements * 2 B needs 2e6/4096 = 488.3 tokens, rounded up to
// a multiple of 16: 496-token blocks.
func TestLayoutMambaHybridBlockSize(t *testing.T) {
	t.Parallel()
	layers := append(repeat(Layer{Kind: State, StateElems: 1_000_000}, 9),
		Layer{Kind: Full, KVHeads: 8, HeadDimK: 128, HeadDimV: 128})
	l, err := NewLayout(layers, Options{TP: 1, ElemBytes: 2})
	require.NoError(t, err)
	assert.Equal(t, 496, l.BlockSize)
	assert.InDelta(t, 496*4096.0, l.PageBytes, 0)
	// 9 state layers vs 1 attention layer: groups of 1 layer, 10 groups.
	assert.Len(t, l.Groups, 10)
	assert.Equal(t, 1, l.LayersPerBlock)
	// One sequence of 1000 tokens: ceil(1000/496) = 3 attention blocks
	// plus one block per state group.
	assert.Equal(t, int64(3+9), l.BlocksFor(1000, 1))
	assert.InDelta(t, 9*2e6, l.StateBytes, 0)
}

func TestNewLayoutErrors(t *testing.T) {
	t.Parallel()
	full := []Layer{{Kind: Full, KVHeads: 1, HeadDimK: 8, HeadDimV: 8}}
	tests := []struct {
		name   string
		layers []Layer
		opts   Options
		field  string
	}{
		{"no layers", nil, Options{TP: 1, ElemBytes: 2}, "model"},
		{"tp 0", full, Options{TP: 0, ElemBytes: 2}, "tensor_parallel_size"},
		{"elem 0", full, Options{TP: 1, ElemBytes: 0}, "kv_cache_dtype"},
		{"block negative", full, Options{TP: 1, ElemBytes: 2, BlockSize: -1}, "block_size"},
		{"window 0", []Layer{{Kind: Sliding, KVHeads: 1, HeadDimK: 8, HeadDimV: 8}}, Options{TP: 1, ElemBytes: 2}, "model"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := NewLayout(tc.layers, tc.opts)
			var fe fielderr.Errors
			require.True(t, errors.As(err, &fe), "want fielderr.Errors, got %v", err)
			require.Len(t, fe, 1)
			assert.Equal(t, tc.field, fe[0].Field)
			assert.ErrorIs(t, err, ErrInvalid)
		})
	}
}

func TestNumBlocksEdgeCases(t *testing.T) {
	t.Parallel()
	l, err := NewLayout(repeat(Layer{Kind: Full, KVHeads: 1, HeadDimK: 8, HeadDimV: 8}, 2), Options{TP: 1, ElemBytes: 2})
	require.NoError(t, err)
	assert.Equal(t, int64(0), l.NumBlocks(0))
	assert.Equal(t, int64(0), l.NumBlocks(-5))
	assert.Equal(t, int64(0), l.CapacityTokens(0))
	assert.Equal(t, 0.0, l.MaxConcurrency(0, 100, 100))
	// 16 tokens * 32 B * 2 layers = 1024 B per block.
	assert.Equal(t, int64(10), l.NumBlocks(10*1024+1023))
}

func ExampleLayout_NumBlocks() {
	// Llama-3.1-8B on one GPU: 32 layers, 8 KV heads of 128, bf16 cache,
	// 58 GiB of KV memory.
	layers := make([]Layer, 32)
	for i := range layers {
		layers[i] = Layer{Kind: Full, KVHeads: 8, HeadDimK: 128, HeadDimV: 128}
	}
	l, _ := NewLayout(layers, Options{TP: 1, ElemBytes: 2})
	blocks := l.NumBlocks(58 * (1 << 30))
	fmt.Println(l.BytesPerToken, "bytes per token")
	fmt.Println(blocks, "blocks of", l.BlockSize, "tokens")
	fmt.Println(l.CapacityTokens(blocks), "tokens")
	fmt.Printf("%.2f sequences of 8192 tokens\n", l.MaxConcurrency(blocks, 8192, 8192))
	// Output:
	// 131072 bytes per token
	// 29696 blocks of 16 tokens
	// 475136 tokens
	// 58.00 sequences of 8192 tokens
}

// Attention types of different widths share one page size (vLLM 0.19
// unify_kv_cache_spec_page_size): a type costing half the bytes per token
// of the widest gets blocks of twice the tokens; one whose width does not
// divide keeps the base block size (a padded page).
func TestLayoutUnifiesPageSize(t *testing.T) {
	t.Parallel()
	wide := Layer{Kind: Sliding, Window: 1024, KVHeads: 8, HeadDimK: 256, HeadDimV: 256} // 8,192 B/token
	half := Layer{Kind: Full, KVHeads: 2, HeadDimK: 512, HeadDimV: 512}                  // 4,096 B/token
	odd := Layer{Kind: Full, KVHeads: 3, HeadDimK: 128, HeadDimV: 128}                   // 1,536 B/token
	l, err := NewLayout(append(repeat(wide, 4), repeat(half, 4)...), Options{TP: 1, ElemBytes: 2})
	require.NoError(t, err)
	assert.InDelta(t, 16*8192.0, l.PageBytes, 0)
	require.Len(t, l.Groups, 2)
	assert.Equal(t, 16, l.Groups[0].BlockSize)
	assert.Equal(t, 32, l.Groups[1].BlockSize)
	// 1,000 tokens: ceil((1024-1+1)/16)+1 = 65 > ceil(1000/16) = 63 sliding
	// blocks, so 63; full ceil(1000/32) = 32.
	assert.Equal(t, int64(63+32), l.BlocksFor(1000, 1))
	// The logged capacity uses the smallest block size: 100 blocks / 2
	// groups * 16.
	assert.Equal(t, int64(800), l.CapacityTokens(100))

	l, err = NewLayout(append(repeat(wide, 4), repeat(odd, 4)...), Options{TP: 1, ElemBytes: 2})
	require.NoError(t, err)
	// 8,192 / 1,536 is not whole: the odd type keeps 16-token blocks.
	assert.Equal(t, 16, l.Groups[1].BlockSize)
}

// DeepSeek-V3.2's indexer key cache: 128 fp8 values and one float32 scale
// per 128 = 132 B per token (vLLM DeepseekV32IndexerCache, head_dim + 4).
// A bf16 latent of 576 values costs 1,152 B beside it; an fp8 KV cache
// stores the latent as fp8_ds_mla: 512 fp8 values, 4 float32 scales (16 B)
// and the 64 rope values in bf16 (128 B) = 656 B. Both are replicated on
// every tensor rank. A vLLM 0.21 run of GLM-5-FP8 logged its cache tensors
// as "[158][4372, 64, 132]" (LMCache issue #3339): 64-token blocks with a
// 132-byte head, the indexer cache's shape.
func TestSparseMLABytesPerToken(t *testing.T) {
	t.Parallel()
	assert.InDelta(t, 132.0, IndexerKeyBytes(128), 0)
	l := Layer{Kind: Latent, LatentDim: 576, RopeDim: 64, IndexerBytes: IndexerKeyBytes(128)}
	assert.InDelta(t, 1152.0+132, l.BytesPerToken(1, 2), 0)
	assert.InDelta(t, 1152.0+132, l.BytesPerToken(8, 2), 0)
	assert.InDelta(t, 656.0+132, l.BytesPerToken(8, 1), 0)
	// Without an indexer an fp8 latent is plain 576 B.
	assert.InDelta(t, 576.0, Layer{Kind: Latent, LatentDim: 576, RopeDim: 64}.BytesPerToken(1, 1), 0)
}

// A state whose recurrent part has its own dtype (Qwen3.5: conv state in
// bf16, recurrent state in float32): 30,720 conv values * 2 B + 786,432
// recurrent values * 4 B = 3,207,168 B, halved at tp=2.
func TestStateBytesMixedDtype(t *testing.T) {
	t.Parallel()
	l := Layer{Kind: State, StateElems: 30720, RecurrentElems: 786432, RecurrentElemBytes: 4}
	assert.InDelta(t, 3_207_168.0, l.StateBytes(1, 2), 0)
	assert.InDelta(t, 3_207_168.0/2, l.StateBytes(2, 2), 0)
	// Without its own dtype the recurrent part takes the state dtype.
	assert.InDelta(t, float64(30720+786432)*2, Layer{Kind: State, StateElems: 30720, RecurrentElems: 786432}.StateBytes(1, 2), 0)
}

// heldBlocks is what a sequence holds in vLLM right after a step of new
// tokens is allocated on top of ctx-new computed ones: ceil(ctx/B) per group
// less the blocks SingleTypeKVCacheManager.remove_skipped_blocks has freed,
// floor(skipped/B), where get_num_skipped_tokens(c) is max(0, c-window+1)
// for a sliding window and floor(c/chunk)*chunk for chunked-local attention
// (vllm/v1/core/single_type_kv_cache_manager.py, v0.10.0 to v0.22).
func heldBlocks(l Layout, ctx, new int64) int64 {
	c := max(ctx-new, 0)
	var n int64
	for _, g := range l.Groups {
		bs, w := int64(g.BlockSize), int64(g.Window)
		n += (ctx + bs - 1) / bs
		switch g.Kind {
		case ChunkedLocal:
			n -= c / w * w / bs
		case Sliding:
			n -= max(0, c-w+1) / bs
		}
	}
	return n
}

// vLLM's tests/v1/core/test_single_type_kv_cache_manager.py at v0.10.0 to
// v0.22 (test_sliding_window_remove_skipped_blocks,
// test_chunked_local_attention_remove_skipped_blocks): block size 2, window
// or chunk 4, a table of 11 blocks (22 tokens); the blocks still held after
// remove_skipped_blocks(num_computed) are 11 less the null blocks the test
// asserts.
func TestVLLMRemoveSkippedBlocks(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		kind  Kind
		freed map[int64]int64 // num_computed -> blocks freed
	}{
		// computed 0, 4: none; 5, 6: block 1000; 7: 1000-1001; 11: 1000-1003.
		{Sliding, map[int64]int64{0: 0, 4: 0, 5: 1, 6: 1, 7: 2, 11: 4}},
		// computed 0: none; 4 and 6: the chunk before token 4 (2 blocks);
		// 12: tokens 0-11 (6 blocks).
		{ChunkedLocal, map[int64]int64{0: 0, 4: 2, 6: 2, 12: 6}},
	} {
		l, err := NewLayout([]Layer{{Kind: c.kind, KVHeads: 1, HeadDimK: 1, HeadDimV: 1, Window: 4}}, Options{TP: 1, ElemBytes: 4, BlockSize: 2})
		require.NoError(t, err)
		for computed, freed := range c.freed {
			assert.Equal(t, 11-freed, heldBlocks(l, 22, 22-computed), "%v computed %d", c.kind, computed)
		}
	}
}

// BlocksFor is the most blocks a sequence has held so far: the running
// maximum of heldBlocks (what vLLM holds right after a step's allocation),
// computed here by brute force over every context. A chunk that is not a
// multiple of the block (6 over 4) gets the bound instead, at least the
// running maximum.
func TestBlocksForIsPeakOfHeldBlocks(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		window, block int
		chunked       bool
	}{{4, 2, false}, {5, 2, false}, {64, 16, false}, {4097, 16, false}, {4, 2, true}, {6, 4, true}, {8192, 16, true}} {
		ly := Layer{Kind: Sliding, KVHeads: 1, HeadDimK: 8, HeadDimV: 8, Window: c.window}
		if c.chunked {
			ly.Kind = ChunkedLocal
		}
		l, err := NewLayout([]Layer{ly}, Options{TP: 1, ElemBytes: 2, BlockSize: c.block})
		require.NoError(t, err)
		for _, n := range []int64{1, 2, 3, 7} {
			var peak int64
			for ctx := int64(1); ctx <= int64(3*c.window+40); ctx++ {
				peak = max(peak, heldBlocks(l, ctx, n))
				msg := fmt.Sprintf("window %d block %d chunked %v new %d ctx %d", c.window, c.block, c.chunked, n, ctx)
				if c.chunked && c.window%c.block != 0 {
					require.GreaterOrEqual(t, l.BlocksFor(ctx, n), peak, msg)
					require.GreaterOrEqual(t, l.BlocksFor(ctx+1, n), l.BlocksFor(ctx, n), msg)
					continue
				}
				require.Equal(t, peak, l.BlocksFor(ctx, n), msg)
			}
		}
	}
}

// Window 4, 2-token blocks, 2 new tokens a step: vLLM holds
// ceil(L/2) - floor((L-2-3)/2) = 3 blocks at every L >= 5 (L = 6: 3 - 0,
// L = 7: 4 - 1, L = 9: 5 - 2), one less than the bound
// ceil((4-1+2)/2) + 1 = 4 the engine used before.
func TestSlidingBlocksAtBlockBoundary(t *testing.T) {
	t.Parallel()
	ly := Layer{Kind: Sliding, KVHeads: 1, HeadDimK: 8, HeadDimV: 8, Window: 4}
	l, err := NewLayout([]Layer{ly}, Options{TP: 1, ElemBytes: 2, BlockSize: 2})
	require.NoError(t, err)
	for _, ctx := range []int64{6, 7, 9, 100} {
		assert.Equal(t, int64(3), l.BlocksFor(ctx, 2), "ctx %d", ctx)
	}
	// vLLM's admission bound keeps the +1: ceil(min(3+8192, 4096)/2)+1.
	assert.Equal(t, int64(2049), l.MaxBlocksPerRequest(4096, 8192))
}

// Chunked-local attention (Llama 4, chunk 8192) is its own kind: a request
// reserves ceil(min(chunk + max_num_batched_tokens, max_model_len) / B)
// blocks, without the sliding window's extra block: ceil(16384/16) = 1024
// at 8192 batched tokens and max_model_len 131072.
func TestChunkedLocalMaxBlocks(t *testing.T) {
	t.Parallel()
	ly := Layer{Kind: ChunkedLocal, KVHeads: 8, HeadDimK: 128, HeadDimV: 128, Window: 8192}
	l, err := NewLayout([]Layer{ly}, Options{TP: 1, ElemBytes: 2})
	require.NoError(t, err)
	assert.Equal(t, int64(1024), l.MaxBlocksPerRequest(131072, 8192))
	assert.Equal(t, ChunkedLocal, l.Groups[0].Kind)
	// A sequence 100 tokens into its third chunk holds that chunk's
	// ceil(100/16) = 7 blocks.
	assert.Equal(t, int64(7), heldBlocks(l, 2*8192+100, 1))
}

// Layers of one kind but different widths (Llama-Nemotron's blocks of
// different KV heads): one group whose block holds a page of each layer
// (vLLM UniformTypeKVCacheSpecs); without Rules.UniformType, one group per
// width with the narrower holding more tokens per block.
func TestUniformTypeGroups(t *testing.T) {
	t.Parallel()
	wide := Layer{Kind: Full, KVHeads: 8, HeadDimK: 128, HeadDimV: 128}   // 4096 B a token
	narrow := Layer{Kind: Full, KVHeads: 4, HeadDimK: 128, HeadDimV: 128} // 2048 B a token
	layers := append(repeat(wide, 3), repeat(narrow, 2)...)
	l, err := NewLayout(layers, Options{TP: 1, ElemBytes: 2})
	require.NoError(t, err)
	require.Len(t, l.Groups, 1)
	// A block: 16 x (3 x 4096 + 2 x 2048) = 262144 B.
	assert.InDelta(t, 262144, l.PageBytes, 0)
	assert.Equal(t, int64(100), l.NumBlocks(100*262144))
	assert.Equal(t, int64(1600), l.CapacityTokens(100))

	old, err := NewLayout(layers, Options{TP: 1, ElemBytes: 2, Rules: &Rules{MaxOverMin: 1.25}})
	require.NoError(t, err)
	// Types of 3 and 2 layers: 3 >= 1.25 x 2, group size 2: wide splits
	// into 2 + 1, narrow stays one group of 32-token blocks.
	require.Len(t, old.Groups, 3)
	assert.Equal(t, 32, old.Groups[2].BlockSize)
}

// Pipeline stages grouped once over the model (vLLM since PR #23974):
// stage 0 holds 2 full layers, stage 1 2 sliding ones; both stages see both
// groups, so a sequence holds full and sliding blocks from one pool and the
// capacity is num_blocks // 2 groups x 16.
func TestStageLayoutsGroupWholeModel(t *testing.T) {
	t.Parallel()
	full := Layer{Kind: Full, KVHeads: 2, HeadDimK: 64, HeadDimV: 64}
	slide := Layer{Kind: Sliding, KVHeads: 2, HeadDimK: 64, HeadDimV: 64, Window: 32}
	ls, err := NewStageLayouts([][]Layer{repeat(full, 2), repeat(slide, 2)}, Options{TP: 1, ElemBytes: 4})
	require.NoError(t, err)
	require.Len(t, ls, 2)
	for s, l := range ls {
		require.Len(t, l.Groups, 2, "stage %d", s)
		assert.Equal(t, 2, l.LayersPerBlock)
		// 20 pages of 16 x 1024 B over 2 layers a block: 10 blocks.
		assert.Equal(t, int64(10), l.NumBlocks(20*16*1024))
		assert.Equal(t, int64(80), l.CapacityTokens(10))
	}
	assert.Equal(t, 2, ls[0].Groups[0].Layers)
	assert.Equal(t, 0, ls[0].Groups[1].Layers)
	// At 100 tokens of context a sequence holds ceil(100/16) = 7 full
	// blocks and min(7, ceil((32-1+1+15)/16)) = 3 sliding ones (3 from
	// context 49: ceil(49/16) - floor((48-31)/16) = 4 - 1).
	assert.Equal(t, int64(10), ls[0].BlocksFor(100, 1))
}
