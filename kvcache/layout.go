package kvcache

import (
	"math"
	"slices"
)

// DefaultBlockSize is vLLM's default block_size in tokens (CacheConfig).
const DefaultBlockSize = 16

// blockAlignment is the granularity, in tokens, vLLM rounds an attention
// block size up to when it enlarges blocks so one attention page can hold a
// Mamba state (HybridAttentionMambaModelConfig.verify_and_update_config:
// kernel_block_alignment_size = 16).
const blockAlignment = 16

// Group is a set of layers with the same cache spec that share block ids
// (vLLM's KVCacheGroupSpec).
type Group struct {
	Kind Kind
	// Window is the span of a Sliding group in tokens.
	Window int
	// Layers is the number of layers in the group.
	Layers int
	// BlockSize is the tokens one block of this group holds: the layout's
	// BlockSize, or a multiple of it for an attention group whose layers
	// cost fewer bytes per token than the widest, so that its page has the
	// uniform size (vLLM 0.19 kv_cache_utils.py
	// unify_kv_cache_spec_page_size: block_size * max_page // page).
	BlockSize int
}

// Options are the inputs of NewLayout besides the layers.
type Options struct {
	// TP is the tensor-parallel size (>= 1).
	TP int
	// ElemBytes is the size of one cached K/V element (2 for bf16/fp16, 1
	// for fp8).
	ElemBytes float64
	// StateElemBytes is the size of one Mamba/linear-attention state
	// element (the model dtype in vLLM by default).
	StateElemBytes float64
	// BlockSize is the requested block size in tokens (0 means 16).
	BlockSize int
}

// Layout is the paged cache of one pipeline stage on one tensor rank.
type Layout struct {
	// BlockSize is the tokens per block, after vLLM enlarges it for hybrid
	// Mamba models.
	BlockSize int
	// PageBytes is the memory of one block of one layer, uniform across
	// groups (Mamba pages are padded to it).
	PageBytes float64
	// LayersPerBlock is the number of layers that share one block id: the
	// largest group (vLLM allocates one tensor per position in a group,
	// shared by one layer of every group).
	LayersPerBlock int
	// Groups are the layer groups.
	Groups []Group
	// BytesPerToken is the unpaged cost of one token over this stage's
	// attention layers on one rank, in bytes.
	BytesPerToken float64
	// StateBytes is the unpaged per-sequence state over this stage's State
	// layers on one rank, in bytes.
	StateBytes float64
	// CheckBytesPerBlock, when positive, is what vLLM's start-up check
	// (_check_enough_kv_cache_memory) prices each block of a
	// max_model_len request at, where that differs from one block's
	// PageBytes * LayersPerBlock (DeepSeek-V4's packed layout; see
	// newV4Layout).
	CheckBytesPerBlock float64
}

// RequestCheckBytes returns the KV memory vLLM's start-up check requires
// for one request of maxModelLen tokens with maxNumBatchedTokens in
// flight: MaxBlocksPerRequest blocks at CheckBytesPerBlock each (or
// PageBytes * LayersPerBlock). vLLM refuses to start when the pool is
// smaller ("To serve at least one request with the model's max seq len
// ... KV cache is needed").
func (l Layout) RequestCheckBytes(maxModelLen, maxNumBatchedTokens int64) float64 {
	per := l.CheckBytesPerBlock
	if per <= 0 {
		per = l.PageBytes * float64(l.LayersPerBlock)
	}
	return float64(l.MaxBlocksPerRequest(maxModelLen, maxNumBatchedTokens)) * per
}

type specKey struct {
	kind   Kind
	window int
	perTok float64 // bytes per token on one rank (attention kinds)
}

// NewLayout groups layers the way vLLM 0.19 does for a uniform page size:
// layers of one spec (kind and window) form a type; with several types,
// each is split into groups of g layers where g is the smallest type's
// layer count (or the largest's when that is under 1.25 times the
// smallest), and one block id covers one layer of every group. Pages are
// BlockSize * bytes-per-token of the widest attention layer; when Mamba or
// linear-attention states exist beside attention, the block size grows to
// the smallest multiple of 16 whose page holds one state. An attention type
// narrower than the widest holds proportionally more tokens per block
// (Group.BlockSize) so that every page has the same size.
//
// Edge cases: no layers, or a non-positive TP or element size, is an error
// naming the request field; a model without attention layers gets pages of
// one state each.
func NewLayout(layers []Layer, o Options) (Layout, error) {
	if len(layers) == 0 {
		return Layout{}, fieldErr("model", "has no layers on this pipeline stage")
	}
	if o.TP < 1 {
		return Layout{}, fieldErr("tensor_parallel_size", "must be at least 1")
	}
	if !finitePos(o.ElemBytes) {
		return Layout{}, fieldErr("kv_cache_dtype", "element size must be positive")
	}
	if o.StateElemBytes <= 0 {
		o.StateElemBytes = o.ElemBytes
	}
	if v4Built && layers[0].Kind == Compressed {
		return newV4Layout(layers)
	}
	bs := o.BlockSize
	if bs == 0 {
		bs = DefaultBlockSize
	}
	if bs < 1 {
		return Layout{}, fieldErr("block_size", "must be a positive number of tokens")
	}
	var l Layout
	var attnPerToken, statePerSeq float64
	// The layer types in first-seen order and their counts (a model has a
	// handful: a linear search beats a map).
	var orderBuf [8]specKey
	var countBuf [8]int
	order, counts := orderBuf[:0], countBuf[:0]
	for _, ly := range layers {
		b := ly.BytesPerToken(o.TP, o.ElemBytes)
		k := specKey{kind: ly.Kind, perTok: b}
		if ly.Kind == Sliding {
			k.window = ly.Window
			if ly.Window <= 0 {
				return Layout{}, fieldErr("model", "sliding-window layer without a window")
			}
		}
		i := slices.Index(order, k)
		if i < 0 {
			i = len(order)
			order, counts = append(order, k), append(counts, 0)
		}
		counts[i]++
		l.BytesPerToken += b
		attnPerToken = math.Max(attnPerToken, b)
		s := ly.StateBytes(o.TP, o.StateElemBytes)
		l.StateBytes += s
		statePerSeq = math.Max(statePerSeq, s)
	}
	switch {
	case attnPerToken == 0:
		// Pure state model: one page per sequence and layer.
		l.PageBytes = statePerSeq
	case statePerSeq > 0:
		need := blockAlignment * int(math.Ceil(statePerSeq/(blockAlignment*attnPerToken)))
		bs = max(bs, need)
		l.PageBytes = float64(bs) * attnPerToken
	default:
		l.PageBytes = float64(bs) * attnPerToken
	}
	l.BlockSize = bs

	minN, maxN := len(layers), 0
	for _, n := range counts {
		minN = min(minN, n)
		maxN = max(maxN, n)
	}
	g := minN
	if float64(maxN) < 1.25*float64(minN) {
		g = maxN
	}
	for j, k := range order {
		n := counts[j]
		parts := (n + g - 1) / g
		gbs := bs
		if k.kind != State && k.perTok > 0 && k.perTok < attnPerToken {
			// A narrower attention type (Gemma 4's full-attention layers
			// beside its sliding ones) fills the same page with more
			// tokens when the widths divide; otherwise its page is padded
			// (vLLM refuses that case).
			if r := attnPerToken / k.perTok; r == math.Trunc(r) {
				gbs = bs * int(r)
			}
		}
		for i := 0; i < parts; i++ {
			// layers[i::parts] of this type: sizes differ by at most one.
			size := n / parts
			if i < n%parts {
				size++
			}
			l.Groups = append(l.Groups, Group{Kind: k.kind, Window: k.window, Layers: size, BlockSize: gbs})
			l.LayersPerBlock = max(l.LayersPerBlock, size)
		}
	}
	return l, nil
}

// NumBlocks returns the blocks that fit in availableBytes of cache memory on
// one rank: floor(available / PageBytes / LayersPerBlock) (vLLM
// get_num_blocks). Zero when nothing fits or available is not positive.
func (l Layout) NumBlocks(availableBytes float64) int64 {
	if !finitePos(availableBytes) || !finitePos(l.PageBytes) || l.LayersPerBlock == 0 {
		return 0
	}
	return int64(math.Floor(availableBytes / l.PageBytes / float64(l.LayersPerBlock)))
}

// CapacityTokens returns the token capacity vLLM logs as "GPU KV cache size"
// for numBlocks blocks: numBlocks / len(groups) * BlockSize (integer
// division; BlockSize is the smallest group block size, the one vLLM's
// report uses), for the whole tensor-parallel group.
func (l Layout) CapacityTokens(numBlocks int64) int64 {
	if len(l.Groups) == 0 || numBlocks <= 0 {
		return 0
	}
	return numBlocks / int64(len(l.Groups)) * int64(l.BlockSize)
}

func cdiv(a, b int64) int64 { return (a + b - 1) / b }

// groupBlock returns the tokens per block of group g (at least 1).
func (l Layout) groupBlock(g Group) int64 {
	if g.BlockSize > 0 {
		return int64(g.BlockSize)
	}
	return int64(max(l.BlockSize, 1))
}

// BlocksFor returns the blocks one sequence holds at contextTokens tokens
// while newTokens of them are being computed in the current step (1 in
// decode, the chunk in prefill), summed over groups:
//
//	Full, Latent: ceil(context / B)
//	Sliding:      min(ceil(context / B), ceil((window-1+new) / B) + 1)
//	State:        1
//
// where B is the group's block size (Group.BlockSize).
//
// Blocks that fall out of a sliding window are freed (vLLM
// SlidingWindowManager.remove_skipped_blocks). Context 0 holds no blocks.
func (l Layout) BlocksFor(contextTokens, newTokens int64) int64 {
	if contextTokens <= 0 {
		return 0
	}
	var n int64
	for _, g := range l.Groups {
		bs := l.groupBlock(g)
		full := cdiv(contextTokens, bs)
		switch g.Kind {
		case Sliding:
			n += min(full, cdiv(int64(g.Window)-1+max(newTokens, 1), bs)+1)
		case State:
			n++
		default:
			n += full
		}
	}
	return n
}

// MaxBlocksPerRequest returns the blocks vLLM reserves in its concurrency
// estimate for one request of maxModelLen tokens: the sum over groups of
// each spec's max_memory_usage_bytes in pages, where a sliding group needs
// ceil(min(window-1+maxNumBatchedTokens, maxModelLen)/BlockSize)+1 blocks.
func (l Layout) MaxBlocksPerRequest(maxModelLen, maxNumBatchedTokens int64) int64 {
	var n int64
	for _, g := range l.Groups {
		bs := l.groupBlock(g)
		switch g.Kind {
		case Sliding:
			n += cdiv(min(int64(g.Window)-1+maxNumBatchedTokens, maxModelLen), bs) + 1
		case State:
			n++
		default:
			n += cdiv(maxModelLen, bs)
		}
	}
	return n
}

// MaxConcurrency returns vLLM's "Maximum concurrency for N tokens per
// request": numBlocks / MaxBlocksPerRequest. Zero when nothing fits.
func (l Layout) MaxConcurrency(numBlocks, maxModelLen, maxNumBatchedTokens int64) float64 {
	per := l.MaxBlocksPerRequest(maxModelLen, maxNumBatchedTokens)
	if per <= 0 || numBlocks <= 0 {
		return 0
	}
	return float64(numBlocks) / float64(per)
}
