package deploy

import (
	"testing"

	"github.com/modelrefs/throughput/calc/release"
	"github.com/modelrefs/throughput/calc/spec"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// vLLM on an AMD accelerator takes the ROCm build's step terms
// ((*profile("vllm").EffROCm)), under V1 and V0 alike; on an NVIDIA one the CUDA build's.
// One decode step of Llama 3.1 8B (bf16) on one MI300X at batch 1 and 1024
// tokens of context, from the fitted terms:
//
//	weights read = 16,060,522,496 B (8,030,261,248 params x 2)
//	               - 128,256 x 4,096 x 2 = 1,050,673,152 B (the embedding
//	               table, gathered, not read) = 15,009,849,344 B
//	GEMM FLOPs   = 2 x 7,504,924,672 weights read = 15,009,849,344 (plus
//	               the norm weights, under 1e-4 of it)
//	gemm         = max(15,009,849,344 / (5.3e12 B/s x 0.82) = 3.453716 ms,
//	                   15,009,849,344 x (1 + 264/1) / (1307.4e12 x 0.6)
//	                   = 5.070636 ms) = 5.070636 ms (the FLOPs bind)
//	KV read      = 32 layers x 8 KV heads x (128 + 128) x 2 B x 1,024
//	               tokens = 134,217,728 B
//	attention    = 134,217,728 / (5.3e12 x 0.563) = 0.044981 ms
//	overhead     = 3.83 ms + 32 x 7.6 us + 1 x 37.8 us = 4.1110 ms
//	step         = 5.070636 + 0.044981 + 4.1110 = 9.226617 ms
//
// and, with no context, each sequence from batch 64 to 128 adds its GEMM
// FLOPs at 0.6 of the peak and its overhead:
//
//	15,009,849,344 / (1307.4e12 x 0.6) + 37.8 us = 19.1345 + 37.8
//	                                             = 56.9345 us
//
// where the CUDA build's terms (bandwidth 0.82, KV 0.70, 0.71 ms, 5 us,
// 16 tokens of GEMM padding) would give 3.453716 + 0.036177 + 0.9582 =
// 4.448093 ms at batch 1.
func TestVLLMOnAMDUsesTheROCmStepTerms(t *testing.T) {
	t.Parallel()
	mi, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "mi300x"}})
	require.NoError(t, err)
	assert.Equal(t, (*profile("vllm").EffROCm), mi.Eff)
	h, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}})
	require.NoError(t, err)
	assert.Equal(t, profile("vllm").Eff, h.Eff)
	assert.NotEqual(t, (*profile("vllm").EffROCm), h.Eff)

	s := mi.DecodeStep(1, 1024)
	assert.InDelta(t, 15009849344, s.WeightsReadBytes, 0.5)
	assert.InDelta(t, 134217728, s.KVReadBytes, 0.5)
	gemm := 15009849344 * (1 + 264.0) / (1307.4e12 * 0.6)
	attn := 134217728 / (5.3e12 * 0.563)
	over := 3.83e-3 + 32*7.6e-6 + 37.8e-6
	assert.InDelta(t, over, s.OverheadS, 1e-12)
	assert.True(t, s.ComputeBound)
	assert.InEpsilon(t, gemm+attn+over, s.TimeS, 1e-4)
	assert.InEpsilon(t, 9.226617e-3, s.TimeS, 1e-4)
	perSeq := (mi.DecodeStep(128, 0).TimeS - mi.DecodeStep(64, 0).TimeS) / 64
	assert.InEpsilon(t, 56.9345e-6, perSeq, 1e-4)

	// V0 as 0.7 ran it on ROCm: the same kernel terms with V0's
	// per-sequence CPU work ((*profile("vllm").EffV0ROCm); TestVLLM07OnAMDPaysV0sCPUWork); 0.6 on ROCm: its
	// own (TestVLLM06OnAMDUsesItsOwnStepTerms); V0 on an H100: the CUDA
	// V0 terms under both.
	mi0, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "mi300x"}, EngineVersion: "0.7"})
	require.NoError(t, err)
	assert.Equal(t, (*profile("vllm").EffV0ROCm), mi0.Eff)
	assert.True(t, mi0.Version.V0)
	for _, v := range []string{"0.6", "0.7"} {
		h0, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, EngineVersion: v})
		require.NoError(t, err)
		assert.Equal(t, (*profile("vllm").EffV0), h0.Eff, v)
	}

	// Another engine on the MI300X keeps its own terms.
	sg, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "mi300x"}, Engine: "sglang"})
	require.NoError(t, err)
	assert.Equal(t, profile("sglang").Eff, sg.Eff)
}

// vLLM's V0 engine as the 0.7 releases ran it on an AMD accelerator runs
// the ROCm build's kernels and per-step cost ((*profile("vllm").EffROCm)) with V0's own
// per-sequence CPU work ((*profile("vllm").EffV0)'s): 53.8 us per sequence against V1's
// 37.8 us on ROCm. Llama 3.1 8B on one MI300X at batch 1 and 1024 tokens
// of context (the rest as in TestVLLMOnAMDUsesTheROCmStepTerms):
//
//	overhead = 3.83 ms + 32 x 7.6 us + 1 x 53.8 us = 4.127 ms
//	step     = 5.070636 + 0.044981 + 4.127 = 9.242617 ms
//
// and each sequence from batch 64 to 128, with no context, adds
// 19.1345 + 53.8 = 72.9345 us.
func TestVLLM07OnAMDPaysV0sCPUWork(t *testing.T) {
	t.Parallel()
	k, v1 := (*profile("vllm").EffV0ROCm), (*profile("vllm").EffROCm)
	assert.Equal(t, (*profile("vllm").EffV0).SequenceOverheadUs, k.SequenceOverheadUs, "V0's per-sequence CPU work")
	k.SequenceOverheadUs = v1.SequenceOverheadUs
	assert.Equal(t, v1, k, "every other term is the ROCm build's")
	d, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "mi300x"}, EngineVersion: "0.7"})
	require.NoError(t, err)
	s := d.DecodeStep(1, 1024)
	assert.InDelta(t, 3.83e-3+32*7.6e-6+53.8e-6, s.OverheadS, 1e-12)
	assert.InEpsilon(t, 9.242617e-3, s.TimeS, 1e-4)
	perSeq := (d.DecodeStep(128, 0).TimeS - d.DecodeStep(64, 0).TimeS) / 64
	assert.InEpsilon(t, 72.9345e-6, perSeq, 1e-4)
	// On an NVIDIA GPU 0.7 keeps the CUDA V0 terms.
	h, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, EngineVersion: "0.7"})
	require.NoError(t, err)
	assert.Equal(t, (*profile("vllm").EffV0), h.Eff)
}

// vLLM 0.6 on an AMD accelerator takes its upstream ROCm build's terms
// ((*profile("vllm").EffV06ROCm): GEMMs at 0.0623 of peak, 85.9 us more per all-reduce,
// and vLLM's own paged-attention kernels, which read each KV head once per
// query head: at 0.647 of the bandwidth partitioned (V2), at 0.306
// unpartitioned (V1), the kernel vLLM v0.6.1 picks once the context
// exceeds 512 tokens and sequences x query heads per GPU exceed 512).
// Llama 3.1 8B (bf16, 32 query heads, 8 KV heads) on MI300X at 1024
// tokens of context (weights and KV bytes as in
// TestVLLMOnAMDUsesTheROCmStepTerms; the KV cache of one sequence is
// 134,217,728 B, read 32/8 = 4 times: 536,870,912 B):
//
//	tp 1, batch 1:   gemm      = 15,009,849,344 / (5.3e12 x 0.525) = 5.394375 ms
//	                             (FLOPs 15,009,849,344 x 17 / (1307.4e12 x 0.0623)
//	                             = 3.133 ms, below it)
//	                 attention = 536,870,912 / (5.3e12 x 0.647) = 0.156563 ms
//	                             (1 x 32 heads <= 512: V2)
//	                 overhead  = 3.29 ms + 32 x 7.6 us + 1 x 36.2 us = 3.5694 ms
//	                 step      = 9.120339 ms
//	tp 1, batch 256: gemm      = 15,009,849,344 x 256 x (1 + 16/256)
//	                             / (1307.4e12 x 0.0623) = 50.124345 ms
//	                             (the FLOPs bind: the weights take 5.39 ms)
//	                 attention = 256 x 536,870,912 / (5.3e12 x 0.306) = 84.744699 ms
//	                             (256 x 32 > 512 and 1024 > 512: V1; its FLOPs,
//	                             2 x 32 x 256 x 32 x 1024 x 256 = 0.137 TFLOP at
//	                             0.4 of peak = 0.26 ms, below it)
//	                 overhead  = 3.29 + 32 x 0.0076 + 256 x 0.0362 = 12.8004 ms
//	                 step      = 147.669444 ms
//	    at 512 tokens: one partition, so V2 whatever the batch:
//	                 attention = 256 x 268,435,456 / (5.3e12 x 0.647) = 20.040091 ms
//	                 step      = 82.964836 ms
//	tp 1, batch 16 and 17 (16 x 32 = 512 is V2, 17 x 32 = 544 is V1):
//	                 gemm      = 15,009,849,344 x (b + 16) / (1307.4e12 x 0.0623)
//	                             = 5.896982 and 6.081262 ms
//	                 attention = 16 x 536,870,912 / (5.3e12 x 0.647) = 2.505011 ms
//	                             and 17 x 536,870,912 / (5.3e12 x 0.306) = 5.627578 ms
//	                 overhead  = 3.5316 + b x 0.0362 = 4.1124 and 4.1486 ms
//	                 step      = 12.514393 and 15.857440 ms
//	tp 2, batch 1:   gemm      = 15,009,849,344 / 2 / (5.3e12 x 0.525) = 2.697188 ms
//	                 attention = 268,435,456 / (5.3e12 x 0.647) = 0.078282 ms
//	                             (16 query heads per rank, each reading its
//	                             KV head: 4 of them per rank)
//	                 overhead  = 3.5694 ms
//	                 all-reduce = 2 x 32 layers x (10 us Infinity Fabric + 85.9 us)
//	                             = 6.1376 ms (+ 64 x 8 KiB at the bus bandwidth,
//	                             about 2 us)
//	                 step      = 12.482469 ms
//
// The GEMM FLOPs and TP 2's weights count the norm weights (266,240, some
// replicated on both ranks) only within 0.01 %.
func TestVLLM06OnAMDUsesItsOwnStepTerms(t *testing.T) {
	t.Parallel()
	d, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "mi300x"}, EngineVersion: "0.6"})
	require.NoError(t, err)
	assert.Equal(t, (*profile("vllm").EffV06ROCm), d.Eff)
	s := d.DecodeStep(1, 1024)
	assert.InDelta(t, 9.120339e-3, s.TimeS, 1e-8)
	s = d.DecodeStep(256, 1024)
	assert.InEpsilon(t, 147.669444e-3, s.TimeS, 1e-4)
	assert.InEpsilon(t, 82.964836e-3, d.DecodeStep(256, 512).TimeS, 1e-4)
	assert.InEpsilon(t, 12.514393e-3, d.DecodeStep(16, 1024).TimeS, 1e-4)
	assert.InEpsilon(t, 15.857440e-3, d.DecodeStep(17, 1024).TimeS, 1e-4)
	d2, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "mi300x"}, EngineVersion: "0.6", TensorParallelSize: spec.Int(2)})
	require.NoError(t, err)
	s = d2.DecodeStep(1, 1024)
	// The all-reduces, and the LM head's logits all-gathered once: the
	// link's 10 us + half of 128,256 bf16 logits over 448 GB/s x 0.8.
	gather := 10e-6 + 128256*2/2/(448e9*0.8)
	assert.InDelta(t, 6.1376e-3+gather, s.CommunicationS, 3e-6)
	assert.InEpsilon(t, 12.482469e-3, s.TimeS, 1e-3)
	// 0.7 on ROCm pays the link's 10 us alone, and its attention reads
	// each KV head once (0.563 of the bandwidth, no V1 switch).
	d7, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "mi300x"}, EngineVersion: "0.7", TensorParallelSize: spec.Int(2)})
	require.NoError(t, err)
	assert.InDelta(t, 64*10e-6+gather, d7.DecodeStep(1, 1024).CommunicationS, 3e-6)
	d7b, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "mi300x"}, EngineVersion: "0.7"})
	require.NoError(t, err)
	assert.Zero(t, d7b.Eff.PagedAttentionV1BandwidthEfficiency)
	at16 := d7b.DecodeStep(16, 1024).TimeS - d7b.DecodeStep(16, 0).TimeS
	at17 := d7b.DecodeStep(17, 1024).TimeS - d7b.DecodeStep(17, 0).TimeS
	// 17 x 134,217,728 / (5.3e12 x 0.563) - 16 x the same = 0.044981 ms.
	assert.InDelta(t, 0.044981e-3, at17-at16, 1e-7)
}

// llama.cpp on an AMD accelerator takes its HIP back end's step terms
// ((*profile("llamacpp").EffROCm)). One decode step of Llama 2 7B (F16) on a Ryzen AI
// Max+ 395 (256 GB/s) at batch 1 and 1024 tokens of context:
//
//	weights read = (6,738,415,616 params - 32,000 x 4,096 = 131,072,000
//	               embedding, gathered, not read) x 2 B = 13,214,687,232 B
//	gemm         = 13,214,687,232 / (256e9 x 0.723) = 71.397 ms (the DRAM
//	               binds: the CU cap, 4 x 40 CUs x 2.9e9 = 464e9 B/s, is
//	               above 256e9 x 0.723 = 185e9; the FLOPs,
//	               13.2e9 x (1 + 16) / (59.4e12 x 0.53) = 7.1 ms, below it)
//	KV read      = 32 layers x 32 KV heads x (128 + 128) x 2 B x 1,024
//	               = 536,870,912 B
//	attention    = 536,870,912 / (256e9 x 0.301) = 6.9673 ms
//	overhead     = 2.03 ms + 32 x 9 us + 1 x 5 us = 2.323 ms
//	step         = 71.397 + 6.967 + 2.323 = 80.687 ms
func TestLlamaCppOnAMDUsesTheHIPStepTerms(t *testing.T) {
	t.Parallel()
	d, err := Resolve(spec.Request{Model: "meta-llama/Llama-2-7b-hf", Hardware: spec.HardwareRef{ID: "ryzen-ai-max-395"}, Engine: "llamacpp"})
	require.NoError(t, err)
	assert.Equal(t, (*profile("llamacpp").EffROCm), d.Eff)
	s := d.DecodeStep(1, 1024)
	assert.InDelta(t, 13214687232, s.WeightsReadBytes, 0.5)
	assert.InDelta(t, 536870912, s.KVReadBytes, 0.5)
	want := 13214687232/(256e9*0.723) + 536870912/(256e9*0.301) + 2.03e-3 + 32*9e-6 + 5e-6
	assert.InDelta(t, want, s.TimeS, 1e-9)
	assert.InDelta(t, 80.687e-3, s.TimeS, 0.001e-3)

	// On a GeForce card llama.cpp keeps its CUDA terms.
	g, err := Resolve(spec.Request{Model: "meta-llama/Llama-2-7b-hf", Hardware: spec.HardwareRef{ID: "rtx-4090"}, Engine: "llamacpp"})
	require.NoError(t, err)
	assert.Equal(t, profile("llamacpp").Eff, g.Eff)
}

// Only vLLM 0.6's ROCm build decodes through vLLM's own paged-attention
// kernels; every other profile's attention reads each KV head once (its
// FlashAttention, FlashInfer or custom ROCm kernel), so none has the term.
func TestOnlyVLLM06OnROCmHasThePagedAttentionTerm(t *testing.T) {
	t.Parallel()
	for _, e := range release.Engines() {
		assert.Zero(t, e.Eff.PagedAttentionV1BandwidthEfficiency, e.Name)
		for _, p := range []*spec.Efficiencies{e.EffV0, e.EffMetal, e.EffROCm, e.EffV0ROCm, e.EffSync} {
			if p != nil {
				assert.Zero(t, p.PagedAttentionV1BandwidthEfficiency, e.Name)
			}
		}
		if e.EffV06ROCm != nil {
			assert.Positive(t, e.EffV06ROCm.PagedAttentionV1BandwidthEfficiency, e.Name)
		}
	}
}
