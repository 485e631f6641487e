// Package kvcache models the KV cache the way vLLM's v1 engine lays it out:
// bytes per token per layer kind, tensor- and pipeline-parallel sharding,
// paged blocks with hybrid models split into layer groups of a uniform page
// size, the memory budget that sizes the pool, and the capacity that follows
// (blocks, tokens, maximum concurrency).
//
// It is a leaf package: it imports nothing from this module. Sizes are bytes
// (float64 where they come from multiplications that may exceed 2^53 only in
// absurd inputs, int64 for block and token counts).
//
// Reference: vllm/v1/core/kv_cache_utils.py and vllm/v1/kv_cache_interface.py
// (vLLM 0.19): FullAttentionSpec, SlidingWindowSpec,
// ChunkedLocalAttentionSpec, MLAAttentionSpec, MambaSpec, get_num_blocks,
// _get_kv_cache_groups_uniform_page_size, get_max_concurrency_for_kv_cache_config.
package kvcache

import (
	"math"

	"github.com/modelrefs/throughput/internal/fielderr"
)

// Kind is how a layer's cache grows with the sequence.
type Kind uint8

const (
	// Full keeps K and V for every token.
	Full Kind = iota
	// Sliding keeps K and V for the last Window tokens.
	Sliding
	// Latent keeps one compressed latent per token shared by all heads
	// (DeepSeek MLA); it is replicated, not split, across tensor ranks.
	Latent
	// State keeps a constant-size recurrent state per sequence (Mamba,
	// linear attention).
	State
	// ChunkedLocal keeps K and V for the tokens of the current chunk of
	// Window tokens (Llama 4's attention_chunk_size): vLLM's
	// ChunkedLocalAttentionSpec, its own kind of group since PR #19351
	// (v0.10.0).
	ChunkedLocal
	// Compressed is a DeepSeek-V4 attention layer: a sliding window of
	// latents, plus (Compress 4 or 128) a compressed latent stream, an
	// indexer's keys (ratio 4) and the compressors' states; see
	// newV4Layout. Only a layer's input kind: its caches form Latent and
	// Sliding groups.
	Compressed
)

// String returns the kind's schema name.
func (k Kind) String() string {
	switch k {
	case Full:
		return "full_attention"
	case Sliding:
		return "sliding_attention"
	case Latent:
		return "mla"
	case State:
		return "state"
	case ChunkedLocal:
		return "chunked_local_attention"
	case Compressed:
		return "compressed_mla"
	}
	return "unknown"
}

// Layer is one decoder layer's cache geometry for the whole model (before
// tensor-parallel sharding).
type Layer struct {
	Kind Kind
	// KVHeads is the number of key/value heads (Full, Sliding,
	// ChunkedLocal).
	KVHeads int
	// HeadDimK and HeadDimV are the key and value head sizes (Full, Sliding).
	HeadDimK, HeadDimV int
	// Window is the span in tokens of a Sliding layer, the chunk of a
	// ChunkedLocal one.
	Window int
	// LatentDim is the per-token latent width of a Latent layer
	// (kv_lora_rank + qk_rope_head_dim).
	LatentDim int
	// StateElems is the per-sequence state of a State layer in elements,
	// before tensor-parallel sharding (the state is split across ranks).
	StateElems int64
	// RecurrentElems is the part of a State layer's state held in its own
	// dtype of RecurrentElemBytes bytes (Qwen3.5's gated-delta-net state in
	// float32 beside a bf16 convolution state); 0 bytes means the state
	// dtype. Split across ranks like StateElems.
	RecurrentElems     int64
	RecurrentElemBytes float64
	// IndexerBytes is the per-token key cache of a Latent layer's
	// sparse-attention indexer, in bytes (DeepSeek-V3.2, GLM-5); it has
	// its own fp8 format whatever the KV dtype and is replicated on every
	// rank like the latent.
	IndexerBytes float64
	// Compress is a Compressed layer's compress ratio (0 for a
	// sliding-window-only layer, 4 or 128).
	Compress int
	// IndexerHeadDim is a Compressed layer's indexer head size (the
	// model's; used on ratio-4 layers, whose indexer compressor state is
	// 2*2*IndexerHeadDim float32 wide), and IndexerBytes there the
	// indexer's key size.
	IndexerHeadDim int
	// RopeDim is the rotary part of LatentDim. It matters only for a
	// sparse-attention Latent layer (IndexerBytes > 0) with a 1-byte KV
	// dtype, which vLLM stores as fp8_ds_mla (see BytesPerToken).
	RopeDim int
}

// IndexerKeyBytes returns the per-token bytes of DeepSeek-V3.2's indexer
// key cache for an indexer head of headDim: headDim fp8 values plus one
// float32 scale per 128 of them, headDim + headDim/128*4 (132 for
// index_head_dim 128). vLLM v0.11.0 vllm/model_executor/models/deepseek_v2.py:
// Indexer passes head_dim + head_dim // quant_block_size * 4 (quant_block_size
// 128) to DeepseekV32IndexerCache, whose get_kv_cache_spec is an
// MLAAttentionSpec of num_kv_heads 1, that head size and dtype uint8.
func IndexerKeyBytes(headDim int) float64 {
	return float64(headDim + headDim/128*4)
}

// HeadsPerRank returns the KV heads one tensor-parallel rank stores:
// kvHeads/tp when tp divides them, else 1 when tp is a multiple of kvHeads
// (the heads are replicated: vLLM's max(1, num_kv_heads // tp_size)).
func HeadsPerRank(kvHeads, tp int) int {
	if tp <= 1 {
		return kvHeads
	}
	return max(1, kvHeads/tp)
}

// BytesPerToken returns the cache bytes one token costs in this layer on one
// tensor-parallel rank, for elements of elemBytes bytes:
//
//	Full, Sliding, ChunkedLocal: HeadsPerRank(KVHeads, tp) * (HeadDimK + HeadDimV) * elemBytes
//	Latent:        LatentDim * elemBytes + IndexerBytes (replicated)
//	State:         0 (the state does not grow with the sequence)
//	Compressed:    584/Compress + IndexerBytes/4 for ratio 4 (the
//	               compressed streams; the window and states are bounded)
//
// A sparse-attention latent (IndexerBytes > 0) in a 1-byte KV dtype is
// vLLM's fp8_ds_mla layout: the no-rope part in fp8 with one float32 scale
// per 128 values, the rope part kept in bf16: r + r/128*4 + 2*rope bytes
// (656 for DeepSeek-V3.2's 512 + 64). vLLM v0.11.0
// vllm/model_executor/models/config.py DeepseekV32ForCausalLM turns an fp8
// kv_cache_dtype into fp8_ds_mla; vllm/v1/kv_cache_interface.py
// MLAAttentionSpec.real_page_size_bytes gives 656 bytes per token for it.
func (l Layer) BytesPerToken(tp int, elemBytes float64) float64 {
	switch l.Kind {
	case Full, Sliding, ChunkedLocal:
		return float64(HeadsPerRank(l.KVHeads, tp)*(l.HeadDimK+l.HeadDimV)) * elemBytes
	case Latent:
		if l.IndexerBytes > 0 && elemBytes == 1 {
			r := l.LatentDim - l.RopeDim
			return float64(r+r/128*4+2*l.RopeDim) + l.IndexerBytes
		}
		return float64(l.LatentDim)*elemBytes + l.IndexerBytes
	case Compressed:
		if v4Layouts == nil || l.Compress <= 1 {
			return 0
		}
		b := float64(v4EntryBytes) / float64(l.Compress)
		if l.Compress == 4 {
			b += l.IndexerBytes / 4
		}
		return b
	}
	return 0
}

// StateBytes returns the per-sequence state of a State layer on one rank,
// in bytes: (StateElems * elemBytes + RecurrentElems * RecurrentElemBytes)
// / tp, RecurrentElemBytes defaulting to elemBytes. Zero for attention
// layers.
func (l Layer) StateBytes(tp int, elemBytes float64) float64 {
	if l.Kind != State {
		return 0
	}
	rb := l.RecurrentElemBytes
	if rb <= 0 {
		rb = elemBytes
	}
	return (float64(l.StateElems)*elemBytes + float64(l.RecurrentElems)*rb) / float64(max(tp, 1))
}

// ErrInvalid is wrapped by every error of this package (the project's one
// field-error sentinel, fielderr.ErrInvalid).
var ErrInvalid = fielderr.ErrInvalid

// fieldErr reports an unusable input as fielderr.Errors, naming the request
// field.
func fieldErr(field, msg string) error { return fielderr.New(field, msg) }

// finitePos reports whether x is a finite number > 0.
func finitePos(x float64) bool { return x > 0 && !math.IsInf(x, 0) && !math.IsNaN(x) }
