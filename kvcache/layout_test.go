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
