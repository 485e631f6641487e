package kvcache

import "math"

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

// v4StateBlock is the compressor state's rows per block for a compress
// ratio (CompressorStateCache: 4 for ratio 4, 8 for ratio 128).
func v4StateBlock(ratio int) int {
	if ratio == 4 {
		return 4
	}
	return 8
}

// v4Coff is the compressor's overlap factor: 2 for ratio 4, 1 otherwise.
func v4Coff(ratio int) int {
	if ratio == 4 {
		return 2
	}
	return 1
}

// v4Page rounds a page of slots entries of size bytes up to a multiple of
// 576 bytes.
func v4Page(slots int, size float64) float64 {
	return math.Ceil(float64(slots)*size/v4PageAlign) * v4PageAlign
}

// v4Bucket is one of vLLM's DeepSeek-V4 spec buckets: the pages of its
// layers by page size (in first-seen order) and the sliding window and
// block size shared by them.
type v4Bucket struct {
	kind          Kind
	window, block int
	pages         []float64 // distinct page sizes
	counts        []int     // layers of each page size
	layers        int       // model layers with a spec in the bucket
}

func (b *v4Bucket) add(page float64) {
	for i, p := range b.pages {
		if p == page {
			b.counts[i]++
			return
		}
	}
	b.pages = append(b.pages, page)
	b.counts = append(b.counts, 1)
}

// tuples is the bucket's number of layer tuples: one tuple holds one layer
// of each page size, so there are as many as the most common size has
// layers (UniformTypeKVCacheSpecs.get_num_layer_tuples).
func (b *v4Bucket) tuples() int {
	n := 0
	for _, c := range b.counts {
		n = max(n, c)
	}
	return n
}

// approximateGCD returns vLLM's padding-minimising tuple count: the d in
// [lower, max(values)] whose sum of (d - x mod d) mod d is least, ties to
// the larger d (vllm/v1/core/kv_cache_utils.py _approximate_gcd, v0.27.1).
func approximateGCD(values []int, lower int) int {
	lo, hi := max(lower, 1), 0
	for _, v := range values {
		hi = max(hi, v)
	}
	if lo > hi {
		return lo
	}
	best, bestPad := lo, -1
	for d := lo; d <= hi; d++ {
		pad := 0
		for _, x := range values {
			pad += (d - x%d) % d
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
//  2. Each bucket counts its layer tuples (Bucket.tuples); d =
//     approximateGCD(tuples, lower bound the full bucket's); a bucket of t
//     tuples splits into ceil(t/d) groups, tuples dealt round-robin.
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
// groups' 4 and 8 (Group.BlockSize); a request holds ceil(len/256) full
// blocks and a sliding group's share of its window (MaxBlocksPerRequest).
func newV4Layout(layers []Layer) (Layout, error) {
	full := &v4Bucket{kind: Latent, block: v4MainBlock}
	var swa []*v4Bucket // in first-seen order of (block, window)
	bucket := func(block, window int) *v4Bucket {
		for _, b := range swa {
			if b.block == block && b.window == window {
				return b
			}
		}
		b := &v4Bucket{kind: Sliding, block: block, window: window}
		swa = append(swa, b)
		return b
	}
	var l Layout
	for _, ly := range layers {
		if ly.Kind != Compressed {
			return Layout{}, fieldErr("model", "mixes DeepSeek-V4 compressed layers with other kinds")
		}
		if ly.Window <= 0 || ly.LatentDim <= ly.RopeDim {
			return Layout{}, fieldErr("model", "DeepSeek-V4 layer without a sliding window or latent size")
		}
		sw := bucket(v4SWABlock, ly.Window)
		sw.add(v4Page(v4SWABlock, v4EntryBytes))
		sw.layers++
		l.StateBytes += float64(ly.Window) * v4EntryBytes
		r := ly.Compress
		if r <= 1 {
			continue
		}
		if r != 4 && r != 128 {
			return Layout{}, fieldErr("model", "DeepSeek-V4 compress ratio must be 4 or 128")
		}
		coff := v4Coff(r)
		full.add(v4Page(v4MainBlock/r, v4EntryBytes))
		full.layers++
		l.BytesPerToken += v4EntryBytes / float64(r)
		st := bucket(v4StateBlock(r), coff*r)
		row := float64(2*coff*ly.LatentDim) * v4StateDtypeB
		st.add(v4Page(v4StateBlock(r), row))
		st.layers++
		l.StateBytes += float64(coff*r) * row
		if r == 4 && ly.IndexerBytes > 0 {
			full.add(v4Page(v4MainBlock/r, ly.IndexerBytes))
			l.BytesPerToken += ly.IndexerBytes / float64(r)
			irow := float64(2*coff*ly.IndexerHeadDim) * v4StateDtypeB
			st.add(v4Page(v4StateBlock(r), irow))
			l.StateBytes += float64(coff*r) * irow
		}
	}
	buckets := swa
	lower := 1
	if len(full.pages) > 0 {
		buckets = append([]*v4Bucket{full}, swa...)
		lower = full.tuples()
	}
	values := make([]int, len(buckets))
	for i, b := range buckets {
		values[i] = b.tuples()
	}
	d := approximateGCD(values, lower)
	l.BlockSize = v4SWABlock
	if len(full.pages) > 0 {
		l.BlockSize = v4MainBlock
		var tuple float64
		for _, p := range full.pages {
			tuple += p
		}
		l.CheckBytesPerBlock = float64(d) * tuple
	}
	l.LayersPerBlock = 1
	for _, b := range buckets {
		t := b.tuples()
		parts := (t + d - 1) / d
		for i := 0; i < parts; i++ {
			// tuples[i::parts]: each page size contributes its layers
			// dealt round-robin over the parts.
			var sum float64
			for j, p := range b.pages {
				sum += float64(b.counts[j]/parts+boolInt(i < b.counts[j]%parts)) * p
			}
			layersIn := b.layers/parts + boolInt(i < b.layers%parts)
			l.PageBytes = math.Max(l.PageBytes, sum)
			l.Groups = append(l.Groups, Group{Kind: b.kind, Window: b.window, Layers: layersIn, BlockSize: b.block})
		}
	}
	return l, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
