package calc_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// llama8b is Llama 3.1 8B on one H100 SXM with the default 1024+256
// workload; mod changes it.
func llama8b(mod func(*calc.Request)) calc.Request {
	r := calc.Request{Model: "meta-llama/Llama-3.1-8B-Instruct", Hardware: calc.HardwareRef{ID: "h100-sxm"}}
	if mod != nil {
		mod(&r)
	}
	return r
}

func eval(t *testing.T, r calc.Request) calc.Report {
	t.Helper()
	rep, err := calc.Evaluate(r)
	require.NoError(t, err)
	return rep
}

// Prefix caching, by hand: a 512-token system prompt in 1024-token
// prompts, block size 16, one full-attention group (Llama).
//
//	cached per request   512 (32 whole blocks, and 512 <= 1023)
//	blocks at the end    ceil((1024 + 256) / 16) = 80 per sequence
//	ceiling without      floor(U / 80)              (U = num_blocks - 1)
//	ceiling with         floor((U - 32) / (80 - 32)), the prefix once
func TestPrefixCachingByHand(t *testing.T) {
	t.Parallel()
	rep := eval(t, llama8b(func(r *calc.Request) {
		r.Workload = &calc.Workload{InputTokens: calc.Int(1024), OutputTokens: calc.Int(256), SharedPrefixTokens: calc.Int(512)}
	}))
	pc := rep.Features.PrefixCaching
	require.NotNil(t, pc)
	u := rep.KVCache.NumBlocks - 1
	assert.Equal(t, 512, pc.CachedTokensPerRequest)
	assert.Equal(t, int64(32), pc.SharedBlocks)
	assert.Equal(t, int(u/80), pc.KVCeilingWithout)
	assert.Equal(t, int((u-32)/48), pc.KVCeiling)
	// TTFT: the prompt's 512 uncached tokens, chunked after the prefix,
	// is less than half the work of 1024 from scratch (attention spans
	// grow with position) and more than a quarter.
	assert.Less(t, pc.TTFTMs, pc.TTFTMsWithout)
	assert.Greater(t, pc.TTFTMs, pc.TTFTMsWithout/4)
	assert.InDelta(t, pc.TTFTMs, rep.Prefill.TTFTMs, 1e-12)

	// A prefix of 520 tokens caches 32 whole blocks too; a hit rate of
	// 0.5 of 1024 tokens is the same 512.
	for _, w := range []*calc.Workload{
		{SharedPrefixTokens: calc.Int(520)},
		{PrefixHitRate: calc.Float(0.5)},
	} {
		got := eval(t, llama8b(func(r *calc.Request) { r.Workload = w }))
		assert.Equal(t, 512, got.Features.PrefixCaching.CachedTokensPerRequest)
	}
	// Turned off, a stated prefix changes nothing.
	off := eval(t, llama8b(func(r *calc.Request) {
		r.Workload = &calc.Workload{SharedPrefixTokens: calc.Int(512)}
		r.EnablePrefixCaching = new(bool)
	}))
	plain := eval(t, llama8b(nil))
	assert.Nil(t, off.Features)
	assert.Equal(t, plain.Prefill, off.Prefill)
}

// Prefix caching never lowers capacity, whatever the prefix and the number
// of distinct prefixes, and never raises TTFT.
func TestPrefixCachingNeverLowersCapacity(t *testing.T) {
	t.Parallel()
	for _, prefix := range []int{1, 15, 16, 100, 512, 1000, 1023} {
		for _, n := range []int{1, 2, 8, 64, 1000, 100000} {
			rep := eval(t, llama8b(func(r *calc.Request) {
				r.Workload = &calc.Workload{SharedPrefixTokens: calc.Int(prefix), NumPrefixes: calc.Int(n)}
			}))
			pc := rep.Features
			if prefix < 16 {
				assert.Nil(t, pc, "prefix %d: no whole block, nothing cached", prefix)
				continue
			}
			p := pc.PrefixCaching
			assert.GreaterOrEqual(t, p.KVCeiling, p.KVCeilingWithout, "prefix %d, %d prefixes", prefix, n)
			assert.GreaterOrEqual(t, p.OnsetConcurrency, p.OnsetConcurrencyWithout, "prefix %d, %d prefixes", prefix, n)
			assert.LessOrEqual(t, p.TTFTMs, p.TTFTMsWithout)
		}
	}
}

// Speculation, by hand: k = 3 drafts accepted with probability 0.7 until
// the first rejection yield 1 + 0.7 + 0.7^2 + 0.7^3 = (1 - 0.7^4) / 0.3 =
// 0.7599 / 0.3 = 2.533 tokens per step (Leviathan et al. 2023, eq. 1); a
// mean acceptance length of 2.533 gives back 0.7.
func TestSpeculationTokensPerStepByHand(t *testing.T) {
	t.Parallel()
	rep := eval(t, llama8b(func(r *calc.Request) {
		r.SpeculativeConfig = &calc.SpeculativeConfig{NumSpeculativeTokens: calc.Int(3), AcceptanceRate: calc.Float(0.7)}
	}))
	s := rep.Features.Speculative
	require.NotNil(t, s)
	assert.InDelta(t, 1+0.7+0.49+0.343, s.TokensPerStep, 1e-12)
	assert.InDelta(t, s.TPOTMs, rep.Decode.StepTimeMs/2.533, 1e-9)
	assert.InDelta(t, rep.Decode.TokensPerS, float64(rep.Decode.BatchSize)*2.533/rep.Decode.StepTimeMs*1000, 1e-6)

	back := eval(t, llama8b(func(r *calc.Request) {
		r.SpeculativeConfig = &calc.SpeculativeConfig{NumSpeculativeTokens: calc.Int(3), MeanAcceptanceLength: calc.Float(2.533)}
	}))
	assert.InDelta(t, 0.7, back.Features.Speculative.AcceptanceRate, 1e-9)

	// The EAGLE head's weights: one Llama 3.1 8B decoder layer (attention
	// 4096*(4096+1024+1024+4096) = 41,943,040, MLP 3*4096*14336 =
	// 176,160,768, two norms 8,192) plus the fc 2*4096*4096 = 33,554,432,
	// all bf16: 2 * 251,666,432 = 503,332,864 bytes less the norms' share
	// that rankParams spreads over the model (norms are counted per layer
	// as params.norms / (layers + 1)).
	assert.InDelta(t, 503332864, float64(s.DraftWeightsBytes), 8192*2)
	// They come out of the KV pool, and the head's cache joins every block
	// (33 layers instead of 32).
	plain := eval(t, llama8b(nil))
	assert.Equal(t, plain.Memory.KVCacheBytes-s.DraftWeightsBytes, rep.Memory.KVCacheBytes)
	assert.Equal(t, int64(math.Floor(float64(rep.Memory.KVCacheBytes)/(33*16*2*8*128*2))), rep.KVCache.NumBlocks)
}

// Speculation raises batch-1 decode speed, and the sweep shows where it
// stops paying: at large batches the step is compute-bound and verifying
// k+1 tokens to keep 2.5 costs more than it gives. Short sequences keep the
// GEMMs, not the attention's KV reads (which the drafted tokens share),
// the larger part of those steps.
func TestSpeculationPaysAtSmallBatchOnly(t *testing.T) {
	t.Parallel()
	rep := eval(t, llama8b(func(r *calc.Request) {
		r.Workload = &calc.Workload{InputTokens: calc.Int(128), OutputTokens: calc.Int(128)}
		r.SpeculativeConfig = &calc.SpeculativeConfig{NumSpeculativeTokens: calc.Int(3), AcceptanceRate: calc.Float(0.7)}
		r.Sweep = &calc.SweepOptions{MaxBatchSize: calc.Int(1024)}
		r.MaxNumSeqs = calc.Int(1024)
		r.MaxNumBatchedTokens = calc.Int(16384)
	}))
	s := rep.Features.Speculative
	assert.Greater(t, s.Batch1Speedup, 1.0)
	require.Positive(t, s.CrossoverBatchSize)
	first := rep.Sweep[0]
	assert.Equal(t, 1, first.BatchSize)
	assert.Greater(t, first.TokensPerS, first.TokensPerSWithoutSpeculation)
	for _, pt := range rep.Sweep {
		if pt.BatchSize < s.CrossoverBatchSize {
			assert.Greater(t, pt.TokensPerS, pt.TokensPerSWithoutSpeculation, "batch %d", pt.BatchSize)
		} else {
			assert.LessOrEqual(t, pt.TokensPerS, pt.TokensPerSWithoutSpeculation, "batch %d", pt.BatchSize)
		}
	}
	assert.Less(t, s.CrossoverBatchSize, 1024)
	// ngram drafts cost nothing but the verification.
	ng := eval(t, llama8b(func(r *calc.Request) {
		r.SpeculativeConfig = &calc.SpeculativeConfig{Method: "ngram", NumSpeculativeTokens: calc.Int(3), AcceptanceRate: calc.Float(0.7)}
	}))
	assert.Zero(t, ng.Features.Speculative.DraftWeightsBytes)
	assert.Greater(t, ng.Features.Speculative.Batch1Speedup, s.Batch1Speedup)
}

// LoRA, by hand, for Llama 3.1 8B at tp 1, rank 16, 4 slots, all seven
// modules. Per layer, input + output elements of each packed slice:
//
//	q 4096+4096, k 4096+1024, v 4096+1024, o 4096+4096,
//	gate 4096+14336, up 4096+14336, down 14336+4096  = 81,920
//
// times 32 layers, rank 16 and 2 bytes: 83,886,080 bytes per slot; 4
// slots 335,544,320 bytes, taken from the KV pool exactly.
func TestLoRAReservationByHand(t *testing.T) {
	t.Parallel()
	rep := eval(t, llama8b(func(r *calc.Request) { r.LoRA = &calc.LoRAConfig{MaxLoRAs: calc.Int(4)} }))
	plain := eval(t, llama8b(nil))
	l := rep.Features.LoRA
	require.NotNil(t, l)
	assert.Equal(t, int64(335544320), l.Bytes)
	assert.Equal(t, plain.Memory.KVCacheBytes-335544320, rep.Memory.KVCacheBytes)
	assert.Equal(t, plain.Memory.KVCacheBytes, l.KVCacheBytesWithout)
	// The GEMMs: 2 * 16 * 81,920 * 32 FLOPs per token.
	assert.InDelta(t, 2*16*81920*32*float64(rep.Decode.BatchSize), l.FLOPsPerStep, 1)
	assert.Positive(t, l.ExtraStepTimeMs)

	// Only q and v: 16 * 32 * (8192 + 5120) * 2 bytes per slot.
	qv := eval(t, llama8b(func(r *calc.Request) {
		r.LoRA = &calc.LoRAConfig{TargetModules: []string{"q_proj", "v_proj"}}
	}))
	assert.Equal(t, int64(16*32*(8192+5120)*2), qv.Features.LoRA.Bytes)
}

// Expert parallelism: Mixtral 8x7B over 2 GPUs as 2 data-parallel
// attention replicas with experts spread over both holds half the routed
// experts per GPU: 8 experts * 32 layers * 3*4096*14336 weights * 2 bytes
// / 2 fewer bytes than one GPU holding everything.
func TestExpertParallelLowersWeightsPerGPU(t *testing.T) {
	t.Parallel()
	base := calc.Request{Model: "mistralai/Mixtral-8x7B-v0.1", Hardware: calc.HardwareRef{ID: "h200"}}
	one := eval(t, base)
	ep := base
	ep.DataParallelSize = calc.Int(2)
	yes := true
	ep.EnableExpertParallel = &yes
	two := eval(t, ep)
	routed := 8.0 * 32 * 3 * 4096 * 14336 * 2
	assert.InDelta(t, float64(one.Memory.WeightsBytes)-routed/2, float64(two.Memory.WeightsBytes), 2)
	p := two.Features.Parallel
	require.NotNil(t, p)
	assert.Equal(t, 2, p.ExpertParallelSize)
	assert.InDelta(t, 4, p.ExpertsPerRank, 0)
	assert.Equal(t, 2, p.GPUs)
	assert.Positive(t, p.AllToAllMs)
	assert.Greater(t, p.LoadImbalance, 1.0)
	assert.InDelta(t, two.Decode.TokensPerS*2, p.TokensPerSTotal, 1e-6)
	// Eight experts do not divide over three ranks.
	ep.DataParallelSize = calc.Int(3)
	_, err := calc.Evaluate(ep)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "enable_expert_parallel")
}

// KV offload delays the onset of recomputation: preempted sequences fit
// in the CPU tier until it too is full, and reloading one costs less than
// prefilling it again (PCIe 5.0 x16 against H100 compute).
func TestKVOffloadDelaysRecompute(t *testing.T) {
	t.Parallel()
	rep := eval(t, llama8b(func(r *calc.Request) { r.KVOffload = &calc.KVOffload{CPUBytes: calc.Float(100e9)} }))
	o := rep.Features.KVOffload
	require.NotNil(t, o)
	assert.Greater(t, o.RecomputeOnsetConcurrency, rep.Preemption.OnsetConcurrency)
	// 100e9 bytes / (2 KiB per token per layer... ) = 100e9 / (16 tokens *
	// 32 layers * 8 heads * 128 * 2 (K,V) * 2 bytes) blocks.
	assert.Equal(t, int64(math.Floor(100e9/(16*32*8*128*2*2))), o.CPUBlocks)
	assert.Less(t, o.ReloadMsPerSequence, o.RecomputeMsPerSequence)

	// In the simulator: a burst that preempts recomputes less with the
	// tier, loads the rest back, and finishes sooner.
	sim := func(cpu *float64) *calc.SimulationReport {
		return eval(t, llama8b(func(r *calc.Request) {
			r.GPUMemoryUtilization = calc.Float(0.3)
			r.Simulate = &calc.SimulateOptions{NumRequests: calc.Int(400), Arrival: "burst", TimelinePoints: calc.Int(0)}
			if cpu != nil {
				r.KVOffload = &calc.KVOffload{CPUBytes: cpu}
			}
		})).Simulation
	}
	without, with := sim(nil), sim(calc.Float(100e9))
	require.Positive(t, without.Preemptions)
	assert.Positive(t, with.ReloadedTokens)
	assert.Less(t, with.RecomputedTokens, without.RecomputedTokens)
	assert.Less(t, with.DurationS, without.DurationS)
	assert.Equal(t, 400, with.CompletedRequests)
}

// The simulator with every feature on (prefix caching, speculation, LoRA,
// the CPU tier, two data-parallel replicas): every request
// finishes with its output, the pool never overflows, the cache serves the
// prefix, drafts are accepted at about the stated rate, and a seed
// repeats exactly.
func TestSimulationInvariantsWithFeatures(t *testing.T) {
	t.Parallel()
	req := llama8b(func(r *calc.Request) {
		r.Workload = &calc.Workload{InputTokens: calc.Int(1024), OutputTokens: calc.Int(256), SharedPrefixTokens: calc.Int(512), NumPrefixes: calc.Int(4)}
		r.SpeculativeConfig = &calc.SpeculativeConfig{NumSpeculativeTokens: calc.Int(3), AcceptanceRate: calc.Float(0.7)}
		r.LoRA = &calc.LoRAConfig{MaxLoRAs: calc.Int(2)}
		r.KVOffload = &calc.KVOffload{CPUBytes: calc.Float(20e9)}
		r.DataParallelSize = calc.Int(2)
		r.Simulate = &calc.SimulateOptions{NumRequests: calc.Int(600), Arrival: "burst",
			InputTokens: &calc.LengthDistribution{Distribution: "uniform", Min: calc.Int(600), Max: calc.Int(3000)}}
		r.GPUMemoryUtilization = calc.Float(0.3) // a small pool, so it preempts
	})
	a := eval(t, req)
	s := a.Simulation
	require.NotNil(t, s)
	assert.Equal(t, 600, s.CompletedRequests)
	assert.Zero(t, s.RejectedRequests)
	assert.LessOrEqual(t, s.PeakKVCacheUsage, 1.0)
	assert.InDelta(t, 256, s.MeanOutputTokens, 0)
	assert.Positive(t, s.Preemptions)
	// At least every prefix after its first computation: 596 * 512.
	assert.GreaterOrEqual(t, s.CachedTokens, int64(596*512))
	rate := float64(s.AcceptedTokens) / float64(s.DraftedTokens)
	// Draws per draft position: 0.7, then 0.7 given the first; the share
	// accepted of all drafted is (0.7 + 0.49 + 0.343)/3 = 0.511.
	assert.InDelta(t, (0.7+0.49+0.343)/3, rate, 0.02)
	b := eval(t, req)
	assert.Equal(t, a.Simulation, b.Simulation)
}

// LoRA on an MoE model, by hand: Mixtral 8x7B at tp 1, rank 16, one slot.
// Per layer, attention q 4096+4096, k and v 4096+1024 each, o 4096+4096
// = 26,624 elements; the routed experts, wrapped by vLLM's fused-MoE LoRA
// (vllm/lora/layers/fused_moe.py: w13 a [2, r, h], w13 b [2, I, r], w2 a
// [r, I], w2 b [h, r] per expert), 8 x (2 x (4096+14336) + 14336+4096) =
// 8 x 55,296 = 442,368. So 32 x (26,624 + 442,368) x 16 x 2 bytes =
// 480,247,808 bytes. A token runs top-2 experts: 2 x 16 x (26,624 + 2 x
// 55,296) x 32 FLOPs. Before fused-MoE LoRA (engine_version 0.10) only
// attention is wrapped: 32 x 26,624 x 16 x 2 = 27,262,976 bytes.
func TestLoRAOnMoEByHand(t *testing.T) {
	t.Parallel()
	base := calc.Request{Model: "mistralai/Mixtral-8x7B-v0.1", Hardware: calc.HardwareRef{ID: "h200"},
		LoRA: &calc.LoRAConfig{MaxLoRAs: calc.Int(1)}}
	rep := eval(t, base)
	l := rep.Features.LoRA
	require.NotNil(t, l)
	assert.Equal(t, int64(32*(26624+442368)*16*2), l.Bytes)
	assert.Equal(t, int64(480247808), l.Bytes)
	assert.InDelta(t, 2*16*(26624+2*55296)*32*float64(rep.Decode.BatchSize), l.FLOPsPerStep, 1)

	old := base
	old.EngineVersion = "0.10"
	assert.Equal(t, int64(27262976), eval(t, old).Features.LoRA.Bytes)

	// Expert parallelism with LoRA: vLLM asserts it away (FusedMoEWithLoRA:
	// "EP support for Fused MoE LoRA is not implemented yet").
	ep := base
	ep.DataParallelSize = calc.Int(2)
	yes := true
	ep.EnableExpertParallel = &yes
	_, err := calc.Evaluate(ep)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "lora: vLLM's fused-MoE LoRA does not support enable_expert_parallel")
}

// LoRA on MLA, by hand: DeepSeek-V2-Lite (hidden 2048, 16 heads, no
// q_lora_rank, kv_lora_rank 512, rope 64, nope 128, v 128, 27 layers), the
// attention modules only, rank 16, one slot at tp 1:
//
//	q_proj              2048 + 16 x (128+64)  = 5,120
//	kv_a_proj_with_mqa  2048 + 512 + 64       = 2,624  (replicated)
//	kv_b_proj           512 + 16 x (128+128)  = 4,608
//	o_proj              16 x 128 + 2048       = 4,096
//
// 16,448 elements x 27 layers x 16 x 2 bytes = 14,211,072 bytes; at tp 2
// every part but kv_a's and the full sides halves: q 2048+1536, kv_a
// 2,624, kv_b 512+2048, o 1024+2048 = 11,840 x 27 x 32 = 10,229,760.
func TestLoRAOnMLAByHand(t *testing.T) {
	t.Parallel()
	req := calc.Request{Model: "deepseek-v2-lite", Hardware: calc.HardwareRef{ID: "h100-sxm"},
		LoRA: &calc.LoRAConfig{TargetModules: []string{"q_proj", "kv_a_proj_with_mqa", "kv_b_proj", "o_proj"}}}
	assert.Equal(t, int64(14211072), eval(t, req).Features.LoRA.Bytes)
	req.TensorParallelSize = calc.Int(2)
	assert.Equal(t, int64(11840*27*16*2), eval(t, req).Features.LoRA.Bytes)
}

// LoRA on a hybrid, by hand: Nemotron-H 8B (hidden 4096; pattern
// M-M-M-M*-... of 24 Mamba-2, 4 attention and 24 MLP blocks; d_inner 2 x
// 4096 = 8192, 8 groups of state 128, 128 heads), the Mamba mixers only,
// rank 16, one slot: in_proj 4096 + (2 x 8192 + 2 x 8 x 128 + 128) =
// 22,656 and out_proj 8192 + 4096 = 12,288 per Mamba layer:
// 24 x 34,944 x 16 x 2 = 26,836,992 bytes. Its relu² MLP has no gate:
// up and down alone, 2 x (4096 + 21504) x 24 x 16 x 2 = 39,321,600 bytes.
func TestLoRAOnHybridByHand(t *testing.T) {
	t.Parallel()
	req := calc.Request{Model: "nemotron-h-8b", Hardware: calc.HardwareRef{ID: "h100-sxm"},
		LoRA: &calc.LoRAConfig{TargetModules: []string{"in_proj", "out_proj"}}}
	assert.Equal(t, int64(26836992), eval(t, req).Features.LoRA.Bytes)
	req.LoRA.TargetModules = []string{"gate_proj", "up_proj", "down_proj"}
	assert.Equal(t, int64(39321600), eval(t, req).Features.LoRA.Bytes)
}
