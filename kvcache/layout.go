package kvcache

import (
	"math"
	"strconv"
)

// DefaultBlockSize is vLLM's default block_size in tokens (CacheConfig).
const DefaultBlockSize = 16

// blockAlignment is the granularity, in tokens, vLLM rounds an attention
// block size up to when it enlarges blocks so one attention page can hold a
// Mamba state (HybridAttentionMambaModelConfig.verify_and_update_config:
// kernel_block_alignment_size = 16).
const blockAlignment = 16

// MaxGroups is the most KV-cache groups a layout may form. vLLM groups
// layers so that every group holds the same number of layers
// (kv_cache_utils.py _get_kv_cache_groups_uniform_page_size), so a model
// whose rarest layer type has few layers gets many groups: 1 full-attention
// layer beside 4,095 sliding ones makes 4,096. Published models form a
// handful (gpt-oss 2, Gemma 3 27B 7, Qwen3-Next 4; the catalog's most is
// 10, granite-4.0-h-tiny's 4 attention and 36 Mamba layers), while every
// block event of the simulator walks every group, so the cost of a request
// grows with their number. 64 leaves six times the catalog's most; a
// layout that needs more is refused naming the model (issue 35).
const MaxGroups = 64

// Group is a set of layers with the same cache spec that share block ids
// (vLLM's KVCacheGroupSpec).
type Group struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	Kind Kind
	// Window is the span of a Sliding group in tokens (the chunk size of a
	// ChunkedLocal group).
	Window int
	// Layers is the number of this stage's layers in the group (vLLM's
	// group projected onto the worker; 0 when the group's layers all lie on
	// other pipeline stages).
	Layers int
	// BlockSize is the tokens one block of this group holds: the layout's
	// BlockSize, or a multiple of it for an attention group whose layers
	// cost fewer bytes per token than the widest, so that its page has the
	// uniform size (vLLM kv_cache_utils.py unify_kv_cache_spec_page_size,
	// since PR #29143: block_size * max_page // page).
	BlockSize int
}

// Rules are the parts of vLLM's grouping that changed between releases;
// calc's release profiles (calc/versions.go) choose them.
type Rules struct {
	// MaxOverMin: with several layer types, the group size is the largest
	// type's layer count when that is under MaxOverMin times the smallest's,
	// else the smallest's (vLLM _get_kv_cache_groups_uniform_page_size: 1.25
	// since PR #29303, 1.5 since PR #36684). 0: always the smallest's (before
	// PR #29303).
	MaxOverMin float64
	// UniformType: layers that all have one kind (and window) but different
	// widths form a single group whose page is the sum of their pages (vLLM
	// UniformTypeKVCacheSpecs, PR #25101). Without it each width is its own
	// type.
	UniformType bool
}

// NewestRules are the grouping rules of the newest release modelled.
var NewestRules = Rules{MaxOverMin: 1.5, UniformType: true}

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
	// Rules are the release's grouping rules (nil: NewestRules).
	Rules *Rules
}

// Layout is the paged cache of one pipeline stage on one tensor rank.
type Layout struct {
	// BlockSize is the tokens per block, after vLLM enlarges it for hybrid
	// Mamba models.
	BlockSize int
	// PageBytes is the memory of one block of one layer, uniform across
	// groups (Mamba pages are padded to it); for one group of layers of
	// different widths (Rules.UniformType) the sum of their pages.
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

// NewLayout groups layers the way vLLM's v1 engine does for a uniform page
// size: layers of one spec (kind, window and width) form a type; with
// several types, each is split into groups of g layers where g is the
// smallest type's layer count (or the largest's when that is under
// Rules.MaxOverMin times the smallest), and one block id covers one layer
// of every group. Pages are BlockSize * bytes-per-token of the widest
// attention layer; when Mamba or linear-attention states exist beside
// attention, the block size grows to the smallest multiple of 16 whose page
// holds one state. An attention type narrower than the widest holds
// proportionally more tokens per block (Group.BlockSize) so that every page
// has the same size. Layers of a single kind and window but different
// widths form one group under Rules.UniformType.
//
// Edge cases: no layers, or a non-positive TP or element size, is an error
// naming the request field; a model without attention layers gets pages of
// one state each.
func NewLayout(layers []Layer, o Options) (Layout, error) {
	ls, err := NewStageLayouts([][]Layer{layers}, o)
	if err != nil {
		return Layout{}, err
	}
	return ls[0], nil
}

// NewStageLayouts lays out a model split into pipeline stages (stages[i]
// holds the cache layers of stage i, in model order) the way vLLM has since
// PR #23974: the groups are formed once over the whole model and each stage
// holds its layers of every group (get_kv_cache_configs,
// _project_kv_cache_groups_to_worker). Every stage's Layout has all the
// groups (a sequence holds blocks in each), Group.Layers counting that
// stage's layers; LayersPerBlock is the stage's largest group. A stage
// without layers gets an empty Layout (LayersPerBlock 0).
func NewStageLayouts(stages [][]Layer, o Options) ([]Layout, error) {
	if o.TP < 1 {
		return nil, fieldErr("tensor_parallel_size", "must be at least 1")
	}
	if !finitePos(o.ElemBytes) {
		return nil, fieldErr("kv_cache_dtype", "element size must be positive")
	}
	if o.StateElemBytes <= 0 {
		o.StateElemBytes = o.ElemBytes
	}
	if v4Layouts != nil && len(stages) > 0 && len(stages[0]) > 0 && stages[0][0].Kind == Compressed {
		return v4Layouts(stages) // DeepSeek-V4's packed layout (deepseek_v4.go)
	}
	rules := NewestRules
	if o.Rules != nil {
		rules = *o.Rules
	}
	bs := o.BlockSize
	if bs == 0 {
		bs = DefaultBlockSize
	}
	if bs < 1 {
		return nil, fieldErr("block_size", "must be a positive number of tokens")
	}
	var attnPerToken, statePerSeq float64
	// The layer types in order of first layer: n layers, groups first to
	// first+parts-1, seen layers assigned so far.
	var types []layerType
	var typ []int // each layer's type
	for _, st := range stages {
		for _, ly := range st {
			b := ly.BytesPerToken(o.TP, o.ElemBytes)
			k := specKey{kind: ly.Kind, perTok: b}
			if ly.Kind == Sliding || ly.Kind == ChunkedLocal {
				k.window = ly.Window
				if ly.Window <= 0 {
					return nil, fieldErr("model", "sliding-window layer without a window")
				}
			}
			t := 0
			for t < len(types) && types[t].key != k {
				t++
			}
			if t == len(types) {
				types = append(types, layerType{key: k})
			}
			types[t].n++
			typ = append(typ, t)
			attnPerToken = math.Max(attnPerToken, b)
			statePerSeq = math.Max(statePerSeq, ly.StateBytes(o.TP, o.StateElemBytes))
		}
	}
	if len(typ) == 0 {
		return nil, fieldErr("model", "has no layers on this pipeline stage")
	}
	var page float64
	switch {
	case attnPerToken == 0:
		// Pure state model: one page per sequence and layer.
		page = statePerSeq
	case statePerSeq > 0:
		need := blockAlignment * int(math.Ceil(statePerSeq/(blockAlignment*attnPerToken)))
		bs = max(bs, need)
		page = float64(bs) * attnPerToken
	default:
		page = float64(bs) * attnPerToken
	}
	uniform := rules.UniformType && uniformType(types)
	if uniform {
		// One group; a block holds one page of every layer, each of its
		// own width (UniformTypeKVCacheSpecs: page_size_bytes is the sum,
		// get_kv_cache_config_from_groups divides the memory by it).
		clear(typ)
		types = []layerType{{key: specKey{kind: types[0].key.kind, window: types[0].key.window}, n: len(typ)}}
	}
	minN, maxN := len(typ), 0
	for _, t := range types {
		minN = min(minN, t.n)
		maxN = max(maxN, t.n)
	}
	g := minN
	if rules.MaxOverMin > 0 && float64(maxN) < rules.MaxOverMin*float64(minN) {
		g = maxN
	}
	parts := 0
	for _, t := range types {
		parts += (t.n + g - 1) / g
	}
	if parts > MaxGroups {
		return nil, fieldErr("model", "its layer_types form "+strconv.Itoa(parts)+" KV-cache groups, above the "+strconv.Itoa(MaxGroups)+" supported: too few layers of one type beside many of another")
	}
	var groups []Group
	for t := range types {
		ty := &types[t]
		k := ty.key
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
		ty.first, ty.parts = len(groups), (ty.n+g-1)/g
		for range ty.parts {
			groups = append(groups, Group{Kind: k.kind, Window: k.window, BlockSize: gbs})
		}
	}
	out := make([]Layout, len(stages))
	i := 0
	for s, st := range stages {
		l := &out[s]
		l.BlockSize, l.PageBytes = bs, page
		l.Groups = append([]Group(nil), groups...)
		for _, ly := range st {
			// The j-th layer of a type goes to its group j mod parts
			// (vLLM's layers[i::parts]).
			ty := &types[typ[i]]
			gr := &l.Groups[ty.first+ty.seen%ty.parts]
			ty.seen++
			i++
			gr.Layers++
			l.LayersPerBlock = max(l.LayersPerBlock, gr.Layers)
			l.BytesPerToken += ly.BytesPerToken(o.TP, o.ElemBytes)
			l.StateBytes += ly.StateBytes(o.TP, o.StateElemBytes)
		}
		if uniform {
			l.PageBytes = float64(bs) * l.BytesPerToken
			l.LayersPerBlock = min(l.LayersPerBlock, 1)
		}
	}
	return out, nil
}

// layerType is one spec's layers in NewStageLayouts.
type layerType struct {
	key                   specKey
	n, first, parts, seen int
}

// uniformType reports whether the layer types differ only in width: one
// attention kind and window (vLLM UniformTypeKVCacheSpecs.is_uniform_type),
// at least two widths.
func uniformType(types []layerType) bool {
	for _, t := range types {
		if k := t.key; k.kind == State || k.kind != types[0].key.kind || k.window != types[0].key.window {
			return false
		}
	}
	return len(types) > 1
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
// decode, the chunk in prefill), summed over groups; it is the most the
// sequence has held up to that point, so it never decreases as the
// sequence grows (sched.BlockCounter):
//
//	Full, Latent:  ceil(L / B)
//	Sliding:       min(ceil(L / B), ceil((window - 1 + new + B - 1) / B))
//	Chunked local: min(ceil(L / B), ceil((chunk - 1 + new) / B) + [chunk % B != 0])
//	State:         1
//
// where L is contextTokens and B the group's block size (Group.BlockSize).
//
// vLLM frees the blocks that fall out of the window before it allocates a
// step's (SingleTypeKVCacheManager.remove_skipped_blocks, called from
// allocate_slots): a sliding layer at c = L - new computed tokens drops
// floor(max(0, c - window + 1) / B) of its ceil(L / B) blocks; the
// largest value of what is left over the contexts up to L is the sliding formula
// above, one block under the window bound ceil((window-1+new)/B)+1 when
// window - 1 + new is one past a block boundary. A chunked-local layer
// drops the blocks before its current chunk, floor(c / chunk) * chunk
// tokens; its formula is exact when the chunk is a multiple of B and an
// upper bound otherwise. Context 0 holds no blocks.
func (l Layout) BlocksFor(contextTokens, newTokens int64) int64 {
	if contextTokens <= 0 {
		return 0
	}
	newTokens = max(newTokens, 1)
	var n int64
	for _, g := range l.Groups {
		bs := l.groupBlock(g)
		full := cdiv(contextTokens, bs)
		switch g.Kind {
		case ChunkedLocal:
			peak := cdiv(int64(g.Window)-1+newTokens, bs)
			if int64(g.Window)%bs != 0 {
				peak++
			}
			n += min(full, peak)
		case Sliding:
			n += min(full, cdiv(int64(g.Window)-1+newTokens+bs-1, bs))
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
// ceil(min(window-1+maxNumBatchedTokens, maxModelLen)/B)+1 blocks and a
// chunked-local group ceil(min(chunk+maxNumBatchedTokens, maxModelLen)/B)
// (vllm/v1/kv_cache_interface.py SlidingWindowSpec and
// ChunkedLocalAttentionSpec, unchanged from v0.10.0 to v0.22).
func (l Layout) MaxBlocksPerRequest(maxModelLen, maxNumBatchedTokens int64) int64 {
	var n int64
	for _, g := range l.Groups {
		bs := l.groupBlock(g)
		switch g.Kind {
		case ChunkedLocal:
			n += cdiv(min(int64(g.Window)+maxNumBatchedTokens, maxModelLen), bs)
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
