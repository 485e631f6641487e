package kvcache

import (
	"math"
	"slices"
)

// DeepSeek-V4's cache, as vLLM v0.27.1 lays it out (the release whose
// code is cited below; vLLM added DeepSeek-V4 in the 0.2x series):
//
// Every layer keeps a sliding window of its uncompressed latents in a
// DeepseekV4SWACache (vllm/v1/attention/backends/mla/sparse_swa.py):
// blocks of 64 tokens, window sliding_window (128), one fp8_ds_mla entry
// per token. A compressed layer also keeps
//   - its compressed latents, an MLAAttentionSpec with compress_ratio
//     (vllm/model_executor/layers/deepseek_v4_attention.py
//     DeepseekV4MLAAttention.get_kv_cache_spec): 256-token blocks holding
//     256/ratio entries;
//   - for ratio 4, the indexer's compressed keys (DeepseekV4IndexerCache,
//     the same 256-token blocks, 256/4 entries of IndexerKeyBytes);
//   - the compressor states (vllm/model_executor/layers/deepseek_compressor.py
//     CompressorStateCache: a SlidingWindowMLASpec of float32 rows of
//     2*coff*head_dim, window coff*ratio, blocks of 4 rows for ratio 4 and
//     8 for ratio 128), one for the attention compressor and, for ratio 4,
//     one for the indexer's.
//
// An fp8_ds_mla entry is 584 bytes: 448 fp8 no-rope values, 64 bf16 rope
// values and 8 scale bytes (vllm/v1/kv_cache_interface.py
// MLAAttentionSpec.real_page_size_bytes, model_version "deepseek_v4");
// every page is rounded up to a multiple of 576 bytes (alignment=576,
// _apply_alignment_padding). DeepSeek-V4 supports only the fp8 cache
// ("DeepseekV4 only supports fp8 kv-cache format"), so the entry size does
// not depend on kv_cache_dtype.
const (
	v4MainBlock   = 256 // tokens per block of the compressed and indexer caches
	v4SWABlock    = 64  // tokens per block of the sliding-window cache
	v4EntryBytes  = 584 // one fp8_ds_mla latent entry
	v4PageAlign   = 576 // FlashMLA's page alignment
	v4StateDtypeB = 4   // compressor states are float32
)

// v4Layouts lays out DeepSeek-V4's Compressed layers, one Layout per
// pipeline stage (newV4Layouts), and RegisterDeepSeekV4 sets it; nil in a
// program that does not import package models/deepseekv4 (the browser's
// light engine), which cannot load a DeepSeek-V4 model and so never lays
// out Compressed layers. Only RegisterDeepSeekV4 refers to newV4Layouts,
// so the linker leaves it out of such a program.
var v4Layouts func(stages [][]Layer) ([]Layout, error)

// RegisterDeepSeekV4 links DeepSeek-V4's packed cache layout into this
// program. Package models/deepseekv4 calls it from its init: a program
// imports that package rather than calling this.
func RegisterDeepSeekV4() { v4Layouts = newV4Layouts }

// newV4Layouts lays out each stage with newV4Layout.
func newV4Layouts(stages [][]Layer) ([]Layout, error) {
	out := make([]Layout, len(stages))
	for i, st := range stages {
		l, err := newV4Layout(st)
		if err != nil {
			return nil, err
		}
		out[i] = l
	}
	return out, nil
}

// v4Page rounds a page of slots entries of size bytes up to a multiple of
// 576 bytes.
func v4Page(slots int, size float64) float64 {
	return math.Ceil(float64(slots)*size/v4PageAlign) * v4PageAlign
}

// approximateGCD returns vLLM's padding-minimising tuple count: the d in
// [lower, max(values)] whose sum of (d - x mod d) mod d is least, ties to
// the larger d (vllm/v1/core/kv_cache_utils.py _approximate_gcd, v0.27.1).
// Zero values (absent buckets) are skipped.
func approximateGCD(values []int, lower int) int {
	best, bestPad := max(lower, 1), -1
	for d := best; d <= slices.Max(values); d++ {
		pad := 0
		for _, x := range values {
			if x > 0 {
				pad += (d - x%d) % d
			}
		}
		if bestPad < 0 || pad <= bestPad {
			best, bestPad = d, pad
		}
	}
	return best
}

// newV4Layout builds the packed layout vLLM v0.27.1 gives DeepSeek-V4
// (vllm/v1/core/kv_cache_utils.py group_and_unify_kv_cache_specs,
// _get_kv_cache_groups_uniform_groups and _get_kv_cache_config_packed):
//
//  1. Specs are bucketed: every MLAAttentionSpec (compressed latents and
//     indexer keys) into one full-attention bucket, the sliding-window
//     specs by (block size, window): the SWA caches (64, 128), the ratio-4
//     compressor states (4, 8) and the ratio-128 states (8, 128).
//  2. A bucket has as many layer tuples as its most common page size has
//     layers (one tuple holds one page of each size): max(n4, n128) in the
//     full bucket, every layer in the SWA bucket, n4 attention/indexer
//     state pairs, n128 states. d = approximateGCD(tuples, lower bound the
//     full bucket's); a bucket of t tuples splits into ceil(t/d) groups,
//     tuples dealt round-robin.
//  3. One block id covers, in one group, one page of each of its layers;
//     groups overlap in one slab, so a block is as wide as the widest
//     group: PageBytes = max over groups of the sum of their pages, and
//     num_blocks = available // PageBytes (LayersPerBlock 1).
//  4. The start-up check prices a block at d tuples of the full bucket,
//     d * (one page of each of its sizes), not at PageBytes
//     (CheckBytesPerBlock; kv_cache_utils.py, the DeepSeek-V4 branch of
//     the memory check): 22 * (37,440 + 8,640 + 1,728) = 1,051,776 B for
//     DeepSeek-V4-Flash.
//
// The full group's blocks hold 256 tokens, the SWA groups' 64, the state
// groups' 4 and 8 rows (Group.BlockSize). The layers must share the first
// one's window, latent and indexer sizes (one model's layers do).
func newV4Layout(layers []Layer) (Layout, error) {
	f := layers[0]
	var n4, n128 int
	for _, ly := range layers {
		r := ly.Compress
		ly.Compress = f.Compress
		if ly != f || f.Window <= 0 || f.LatentDim <= 0 || (r != 0 && r != 4 && r != 128) {
			return Layout{}, fieldErr("model", "DeepSeek-V4 layers need a window, a latent size and compress ratios of 0, 4 or 128")
		}
		if r == 4 {
			n4++
		} else if r == 128 {
			n128++
		}
	}
	n, w, dim := len(layers), float64(f.Window), float64(f.LatentDim)
	idx := f.IndexerBytes
	swaP := v4Page(v4SWABlock, v4EntryBytes)
	c4P := v4Page(v4MainBlock/4, v4EntryBytes)
	idxP := v4Page(v4MainBlock/4, idx)
	c128P := v4Page(v4MainBlock/128, v4EntryBytes)
	// Compressor states: float32 rows of 2*coff*head_dim (coff 2 for ratio
	// 4, 1 for 128), blocks of 4 and 8 rows, windows of coff*ratio rows.
	st4P := v4Page(4, 16*dim) + v4Page(4, 16*float64(f.IndexerHeadDim))
	st128P := v4Page(8, 8*dim)
	l := Layout{
		BlockSize: v4MainBlock, LayersPerBlock: 1,
		BytesPerToken: float64(n4)*(v4EntryBytes+idx)/4 + float64(n128)*v4EntryBytes/128,
		StateBytes: float64(n)*w*v4EntryBytes + float64(n4)*8*16*(dim+float64(f.IndexerHeadDim)) +
			float64(n128)*128*8*dim,
	}
	t0 := max(n4, n128)
	d := approximateGCD([]int{t0, n, n4, n128}, t0)
	if t0 > 0 {
		l.CheckBytesPerBlock = float64(d) * (c4P + idxP + c128P)
		if n4 == 0 {
			l.CheckBytesPerBlock = float64(d) * c128P
		} else if n128 == 0 {
			l.CheckBytesPerBlock = float64(d) * (c4P + idxP)
		}
		l.PageBytes = float64(n4)*(c4P+idxP) + float64(n128)*c128P
		l.Groups = append(l.Groups, Group{Kind: Latent, Layers: n4 + n128, BlockSize: v4MainBlock})
	} else {
		l.BlockSize = v4SWABlock
	}
	for _, b := range [3]struct {
		t, window, block int
		page             float64
	}{{n, f.Window, v4SWABlock, swaP}, {n4, 8, 4, st4P}, {n128, 128, 8, st128P}} {
		parts := (b.t + d - 1) / d
		for i := 0; i < parts; i++ {
			// tuples[i::parts]
			k := b.t/parts + min(1, max(0, b.t%parts-i))
			l.PageBytes = math.Max(l.PageBytes, float64(k)*b.page)
			l.Groups = append(l.Groups, Group{Kind: Sliding, Window: b.window, Layers: k, BlockSize: b.block})
		}
	}
	return l, nil
}
