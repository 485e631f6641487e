package deploy

import (
	"math"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/kvcache"
)

// Pool is a deployment's KV block pool as its scheduler hands it out: the
// tightest pipeline stage's layout and blocks (vLLM v1 sizes every
// worker's pool to the smallest), and the features that change what a
// sequence holds of it (speculation's lookahead slots, prefix caching's
// shared blocks). It is a view of the deployment (Deployment.Pool), valid
// while the deployment is unchanged.
type Pool struct {
	lay    *kvcache.Layout
	blocks int64
	f      *featureState
}

// Pool returns d's block pool.
func (d *Deployment) Pool() Pool { return Pool{&d.stages[d.tight].layout, d.NumBlocks, &d.feat} }

// BlocksPerSeq returns the blocks one sequence holds at ctx tokens in
// decode (one new token per step).
// Speculative decoding reserves k lookahead slots per sequence
// (allocate_slots num_lookahead_tokens).
func (p Pool) BlocksPerSeq(ctx float64) int64 {
	return p.lay.BlocksFor(int64(math.Ceil(ctx))+int64(p.f.specK), 1)
}

// Usable is the pool a scheduler can hand out: vLLM reserves block 0
// as the null block (vllm/v1/core/block_pool.py).
func (p Pool) Usable() int64 { return max(p.blocks-1, 0) }

// KVCapacity returns how many sequences of ctx tokens fit in the pool at
// once: floor(usable blocks / blocks per sequence), each shared prefix's
// blocks counted once (fitting).
func (p Pool) KVCapacity(ctx float64) int {
	per := p.BlocksPerSeq(ctx)
	if per <= 0 || p.Usable() <= 0 {
		return 0
	}
	if p.shared() > 0 {
		return int(min(p.fitting(float64(per)), spec.MaxSeqs))
	}
	return int(min(p.Usable()/per, spec.MaxSeqs))
}

// Onset is the preemption onset for sequences of meanBlocks blocks on
// average: usable blocks / meanBlocks, each shared prefix counted once.
func (p Pool) Onset(meanBlocks float64) int {
	if p.shared() > 0 {
		return int(min(p.fitting(meanBlocks), spec.MaxSeqs))
	}
	return int(min(float64(p.Usable())/meanBlocks, spec.MaxSeqs))
}

// MeanStaggered returns the mean blocks per sequence when sequences
// are spread evenly over their output (continuous batching in steady
// state): the average of BlocksPerSeq at the midpoints of 16 equal slices
// of [in, in+out].
func (p Pool) MeanStaggered(in, out int) float64 {
	const slices = 16
	var sum float64
	for i := 0; i < slices; i++ {
		ctx := float64(in) + (float64(i)+0.5)*float64(out)/slices
		sum += float64(p.BlocksPerSeq(ctx))
	}
	return sum / slices
}

// cachedFor returns the prompt tokens of an n-token prompt served from the
// prefix cache: the shared prefix in whole blocks, at most n-1 (vLLM
// get_computed_blocks: max_cache_hit_length = num_tokens - 1; only full
// blocks are hashed, kv_cache_utils.py hash_block_tokens).
func (p Pool) cachedFor(n int) int {
	f := p.f
	if !f.prefixOn || f.prefixTokens <= 0 || n <= 1 {
		return 0
	}
	bs := p.lay.BlockSize
	return min(f.prefixTokens/bs, (n-1)/bs) * bs
}

// shared is the blocks of one sequence at ctx tokens that live in a
// shared prefix (counted once per prefix in the pool): the prefix's whole
// blocks in every full-attention or latent group. Sliding-window and state
// groups keep their own.
func (p Pool) shared() int64 {
	c := p.f.cachedTokens
	if c <= 0 {
		return 0
	}
	return int64(c/p.lay.BlockSize) * int64(sharedGroups(*p.lay))
}

// fitting returns how many sequences fit in the pool when each holds
// per blocks of which shared live in one of `prefixes` shared prefixes:
// the larger of floor(pool / per) (no sharing) and, once every prefix is
// resident, floor((pool - prefixes*shared) / (per - shared)). Never fewer
// than without sharing.
func (p Pool) fitting(per float64) float64 {
	pool := float64(p.Usable())
	if per <= 0 || pool <= 0 {
		return 0
	}
	n := math.Floor(pool / per)
	s := float64(p.shared())
	if s > 0 && per > s {
		np := float64(p.f.prefixes)
		if m := math.Floor((pool - np*s) / (per - s)); m >= np && m > n {
			n = m
		}
	}
	return n
}

// share is the fraction of the pool b sequences of per blocks each
// hold, counting each resident prefix's blocks once.
func (p Pool) share(b int, per int64) float64 {
	s := p.shared()
	held := int64(b) * per
	if s > 0 && per >= s {
		held = int64(b)*(per-s) + int64(min(b, p.f.prefixes))*s
	}
	return float64(held) / float64(p.blocks)
}

// usage is the fraction of the block pool b sequences at ctx tokens hold.
func (p Pool) usage(b int, ctx float64) float64 {
	if p.shared() > 0 {
		return p.share(b, p.BlocksPerSeq(ctx))
	}
	return float64(int64(b)*p.BlocksPerSeq(ctx)) / float64(p.blocks)
}
