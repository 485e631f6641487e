package deploy

import (
	"testing"

	"github.com/modelrefs/throughput/calc/release"
	"github.com/modelrefs/throughput/calc/spec"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The step model's terms, each checked by hand on Llama 3.1 8B / 70B
// (hidden 4096 / 8192, 32 / 80 layers, bf16 activations).

// The GEMMs' efficiency saturates in the step's tokens M:
// efficiency(M) = compute_efficiency * M / (M + gemm_half_tokens), so a
// compute-bound prefill of M tokens takes linear FLOPs * (M + M_half) /
// (M * peak * compute_efficiency).
func TestGEMMEfficiencySaturatesInTokens(t *testing.T) {
	t.Parallel()
	d, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}})
	require.NoError(t, err)
	e := d.Eff
	require.Positive(t, e.GEMMHalfTokens)
	// 2 * (8,030,261,248 - 2 * 525,336,576 embedding and head) active
	// linear weights per token, plus the head's 2 * 128,256 * 4096 for
	// the one sampled sequence.
	linPerTok := 2 * (8_030_261_248.0 - 2*525_336_576)
	head := 2 * 128256 * 4096.0
	for _, m := range []int{512, 4096} {
		s := d.Step(StepLoad{PrefillTokens: m, PrefillSeqs: 1})
		mf := float64(m)
		want := (linPerTok*mf + head) * (mf + e.GEMMHalfTokens) / (mf * 989.4e12 * e.ComputeEfficiency)
		// ComputeS is the GEMMs plus the attention's FLOPs (span 0 here).
		assert.InDelta(t, want, s.ComputeS, want*0.002, "M = %d", m)
	}
	// Per token, the larger prefill is the more efficient: 4096 tokens
	// cost less than 8 times 512.
	a := d.Step(StepLoad{PrefillTokens: 512, PrefillSeqs: 1}).ComputeS
	b := d.Step(StepLoad{PrefillTokens: 4096, PrefillSeqs: 1}).ComputeS
	assert.Less(t, b, 8*a)
}

// Tensor parallelism's all-reduce: 2 per layer, each the link's latency
// plus a ring's 2(tp-1)/tp of the message at the measured bus bandwidth.
// NVLink 4 (H100 SXM): 8 µs and 370 GB/s; PCIe 4.0 (L40S): 40 µs and
// 32 GB/s * 35/64 = 17.5 GB/s. Then the LM head's logits, split by
// vocabulary, are all-gathered once: the latency plus a ring's (tp-1)/tp
// of b x 128,256 bf16 logits.
func TestAllReduceFromBusBandwidthAndLatency(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		gpu      string
		lat, bus float64
	}{
		{"h100-sxm", 8e-6, 370e9},
		{"l40s", 40e-6, 32e9 * 35 / 64},
	} {
		d, err := Resolve(spec.Request{Model: "meta-llama/Llama-3.1-70B-Instruct", Hardware: spec.HardwareRef{ID: c.gpu}, TensorParallelSize: spec.Int(4), MaxModelLen: spec.Int(4096)})
		require.NoError(t, err)
		for _, b := range []int{1, 64} {
			// b tokens of 8192 bf16 values: 16,384 bytes each.
			msg := float64(b) * 8192 * 2
			want := 160*(c.lat+2*3.0/4*msg/c.bus) + c.lat + 3.0/4*float64(b)*128256*2/c.bus
			assert.InDelta(t, want, d.DecodeStep(b, 1000).CommunicationS, want*1e-9, "%s batch %d", c.gpu, b)
		}
	}
}

// Without P2P (p2p: false) NCCL stages each all-reduce through host memory
// (the SHM transport): the link's figures become those of
// hardware.Interconnect.WithoutP2P. By hand, Qwen2-7B (28 layers, hidden
// 3584, bf16) at TP 2 on two A100 PCIe (PCIe 4.0 x16, 32 GB/s per
// direction): 2 x 28 = 56 all-reduces a step, each of b x 3584 x 2 bytes,
// of which a two-rank ring moves 2(2-1)/2 = 1 times the message, at a
// quarter of the line rate (4.00 of 16 GB/s measured on PCIe 3.0: 8 GB/s
// on 4.0) after the 19.5 µs SHM latency:
//
//	b = 1:  56 x (19.5 µs + 7,168 B / 8 GB/s)   = 56 x 20.396 µs = 1.1422 ms
//	b = 64: 56 x (19.5 µs + 458,752 B / 8 GB/s) = 56 x 76.844 µs = 4.3033 ms
//
// and one all-gather of the LM head's logits (152,064 bf16 values a
// sequence, half of them from the other rank):
//
//	b = 1:  19.5 µs + 152,064 B / 8 GB/s      = 38.508 µs   -> 1.18068 ms
//	b = 64: 19.5 µs + 64 x 152,064 B / 8 GB/s = 1,236.01 µs -> 5.53928 ms
//
// With P2P the same link gives 56 x (40 µs + bytes / 17.5 GB/s) and
// 40 µs + logits / 2 / 17.5 GB/s. The
// report echoes p2p: false in its config, and TP 1 has nothing to stage.
func TestAllReduceWithoutP2PThroughHostMemory(t *testing.T) {
	t.Parallel()
	no := false
	req := spec.Request{Model: "Qwen/Qwen2-7B-Instruct", Hardware: spec.HardwareRef{ID: "a100-pcie-80gb"}, TensorParallelSize: spec.Int(2), MaxModelLen: spec.Int(4096), P2P: &no}
	d, err := Resolve(req)
	require.NoError(t, err)
	assert.InDelta(t, 1.18068e-3, d.DecodeStep(1, 1000).CommunicationS, 1e-7)
	assert.InDelta(t, 5.53928e-3, d.DecodeStep(64, 1000).CommunicationS, 1e-7)
	// A prompt's 512 tokens all-reduce every token but sample one:
	// 56 x (19.5 µs + 512 x 7,168 B / 8 GB/s) + 38.508 µs.
	pre := d.Step(StepLoad{PrefillTokens: 512, PrefillSpan: 512 * 256.5, PrefillSeqs: 1}).CommunicationS
	assert.InDelta(t, 56*(19.5e-6+512*7168/8e9)+38.508e-6, pre, 1e-8)

	req.P2P = nil
	p, err := Resolve(req)
	require.NoError(t, err)
	for _, b := range []int{1, 64} {
		msg := float64(b) * 3584 * 2
		want := 56*(40e-6+msg/(32e9*35/64)) + 40e-6 + float64(b)*152064*2/2/(32e9*35/64)
		assert.InDelta(t, want, p.DecodeStep(b, 1000).CommunicationS, want*1e-9, "p2p, batch %d", b)
	}

	rep, err := Evaluate(spec.Request{Model: "Qwen/Qwen2-7B-Instruct", Hardware: spec.HardwareRef{ID: "a100-pcie-80gb"}, TensorParallelSize: spec.Int(2), MaxModelLen: spec.Int(4096), P2P: &no})
	require.NoError(t, err)
	require.NotNil(t, rep.Config.P2P)
	assert.False(t, *rep.Config.P2P)
	rep, err = Evaluate(spec.Request{Model: "Qwen/Qwen2-7B-Instruct", Hardware: spec.HardwareRef{ID: "a100-pcie-80gb"}, MaxModelLen: spec.Int(4096)})
	require.NoError(t, err)
	assert.Nil(t, rep.Config.P2P)

	one, err := Resolve(spec.Request{Model: "Qwen/Qwen2-7B-Instruct", Hardware: spec.HardwareRef{ID: "a100-pcie-80gb"}, MaxModelLen: spec.Int(4096), P2P: &no})
	require.NoError(t, err)
	assert.Zero(t, one.DecodeStep(8, 1000).CommunicationS)
}

// The terms that do not shrink with tensor parallelism (the step's and
// the layers' fixed time, the all-reduces) keep TP from scaling linearly:
// at batch 1, TP4 is well under twice as fast as TP2 on H100s, and on PCIe
// cards the all-reduce latency alone (160 * 40 µs = 6.4 ms per step) is a
// large part of the step.
func TestTensorParallelScalesSublinearly(t *testing.T) {
	t.Parallel()
	step := func(gpu string, tp int) StepCost {
		d, err := Resolve(spec.Request{Model: "meta-llama/Llama-3.1-70B-Instruct", Hardware: spec.HardwareRef{ID: gpu}, TensorParallelSize: spec.Int(tp), MaxModelLen: spec.Int(4096), Quantization: "fp8"})
		require.NoError(t, err)
		return d.DecodeStep(1, 1000)
	}
	s2, s4 := step("h100-sxm", 2), step("h100-sxm", 4)
	assert.Less(t, s2.TimeS/s4.TimeS, 1.75)
	assert.Greater(t, s2.TimeS/s4.TimeS, 1.0)
	p4 := step("l40s", 4)
	assert.GreaterOrEqual(t, p4.CommunicationS, 6.4e-3)
	assert.Greater(t, p4.CommunicationS/p4.TimeS, 0.2)
}

// Every scheduled sequence adds the engine's sequence overhead to the
// step: two memory-bound decode steps differ by their KV reads over the
// attention bandwidth and (b2 - b1) sequence overheads.
func TestSequenceOverheadPerScheduledSequence(t *testing.T) {
	t.Parallel()
	d, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}})
	require.NoError(t, err)
	s1, s8 := d.DecodeStep(1, 128), d.DecodeStep(8, 128)
	require.False(t, s8.ComputeBound)
	// 7 more sequences of 128 tokens, 128 KiB of KV per token.
	kv := 7 * 128 * 131072.0 / (3.35e12 * d.Eff.AttentionBandwidthEfficiency)
	assert.InDelta(t, kv+7*d.Eff.SequenceOverheadUs/1e6, s8.TimeS-s1.TimeS, 1e-9)
}

// TTFT on an idle server is the front end plus the prompt's chunk steps:
// one step for a prompt within max_num_batched_tokens. Under vLLM the
// front end is the API server's 11.7 ms per request and the tokenizer's
// 1.1 µs per prompt token (no context-phase term): a 128-token prompt
// pays 11.7 + 128 * 0.0011 = 11.8408 ms before its prefill step. The
// serving section at concurrency 1 is the same request: the front end,
// no wait (nothing else runs), and the prompt's own step.
func TestTTFTIncludesTheFrontEnd(t *testing.T) {
	t.Parallel()
	d, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}})
	require.NoError(t, err)
	require.Equal(t, "vllm", d.Engine.Name)
	require.Zero(t, d.Eff.ContextOverheadMs)
	const frontEndS = 11.7e-3 + 128*1.1e-6
	assert.InDelta(t, frontEndS, d.Eff.FrontEndS(128), 1e-12)
	// 128 tokens from position 0 span 128 * (0 + 129/2).
	s := d.Step(StepLoad{PrefillTokens: 128, PrefillSpan: 128 * 64.5, PrefillSeqs: 1})
	got, chunks, _ := Analyse(d, nil).prefillTime(128, 0, 0)
	assert.Equal(t, 1, chunks)
	assert.InDelta(t, frontEndS+s.TimeS, got, 1e-12)
	// A 4,096-token prompt: 11.7 + 4096 * 0.0011 = 16.2056 ms of front end.
	assert.InDelta(t, 16.2056e-3, d.Eff.FrontEndS(4096), 1e-12)
	r := Analyse(d, nil).Steady(128, 64, 1, 0, d.MaxNumSeqs, "max_num_seqs")
	assert.InDelta(t, (frontEndS+s.TimeS)*1000, r.TTFTMs, 1e-6)
	// One user's first request is any other: nothing else waits.
	assert.InDelta(t, r.TTFTMs, r.FirstWaveTTFTMs, 1e-9)
	// E2E = TTFT + 63 decode steps of one sequence at a mean context.
	assert.Greater(t, r.E2EMs, r.TTFTMs)
	// TensorRT-LLM's front end is its fitted context phase alone.
	trt, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, Engine: "trtllm"})
	require.NoError(t, err)
	assert.InDelta(t, 4.7e-3, trt.Eff.FrontEndS(4096), 1e-12)
}

// vLLM's V0 engine (engine_version 0.6) runs the same kernels behind a CPU
// path that costs more per step and per sequence: its own terms apply, and
// a batch-64 decode step takes longer than under V1 by at least the
// difference of those overheads.
func TestV0EngineHasItsOwnStepTerms(t *testing.T) {
	t.Parallel()
	v1, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}})
	require.NoError(t, err)
	v0, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, EngineVersion: "0.6"})
	require.NoError(t, err)
	assert.Equal(t, (*profile("vllm").EffV0), v0.Eff)
	assert.Equal(t, profile("vllm").Eff, v1.Eff)
	s0, s1 := v0.DecodeStep(64, 512), v1.DecodeStep(64, 512)
	over := func(e spec.Efficiencies) float64 {
		return e.StepOverheadMs/1000 + 32*e.LayerOverheadUs/1e6 + 64*e.SequenceOverheadUs/1e6
	}
	assert.InDelta(t, over(v0.Eff), s0.OverheadS, 1e-12)
	assert.InDelta(t, over(v1.Eff), s1.OverheadS, 1e-12)
	assert.Greater(t, s0.OverheadS, s1.OverheadS)
}

// Under V0 the driver worker prepares each step's inputs and broadcasts
// them to the other tensor-parallel ranks: once per step, whatever the
// layers or the batch. Llama 3.1 8B on H100 at batch 8 (32 layers):
//
//	TP 1: overhead = 3.09 ms + 32 x 9.61 us + 8 x 53.8 us = 3.82792 ms
//	TP 2: overhead = 3.82792 + 0.391 = 4.21892 ms
//
// V1 (0.19) pays the same overhead at TP 1 and TP 2: its ranks each
// schedule from the same broadcast request (no per-step input broadcast).
func TestV0BroadcastsEachStepToTheOtherRanks(t *testing.T) {
	t.Parallel()
	at := func(v string, tp int) StepCost {
		d, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, EngineVersion: v, TensorParallelSize: spec.Int(tp)})
		require.NoError(t, err)
		return d.DecodeStep(8, 512)
	}
	assert.InDelta(t, 3.82792e-3, at("0.6", 1).OverheadS, 1e-9)
	assert.InDelta(t, 4.21892e-3, at("0.6", 2).OverheadS, 1e-9)
	assert.InDelta(t, 4.21892e-3, at("0.6", 4).OverheadS, 1e-9)
	assert.InDelta(t, at("0.19", 1).OverheadS, at("0.19", 2).OverheadS, 1e-12)
	for _, e := range release.Engines() {
		for _, p := range []*spec.Efficiencies{&e.Eff, e.EffMetal, e.EffROCm, e.EffSync, e.EffV06ROCm} {
			if p != nil {
				assert.Zero(t, p.TPStepOverheadMs, e.Name)
			}
		}
	}
}

// vLLM V1 before 0.14 schedules synchronously (EngineVersion.SyncScheduling):
// the CPU's step work sits between the GPU's steps, so those releases take
// EffSync and the same batch-64 decode step is longer than under 0.14 by
// exactly the difference of the overheads, (2.59 - 0.71) ms + 64 x (37 -
// 5) us = 3.928 ms, with the kernels' time unchanged. 0.14 and later, and
// V0, do not take these terms.
func TestSyncReleasesPayTheSchedulersCPUTime(t *testing.T) {
	t.Parallel()
	at := func(v string) *Deployment {
		d, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, EngineVersion: v})
		require.NoError(t, err)
		return d
	}
	sync, async := at("0.13"), at("0.14")
	assert.True(t, sync.Version.SyncScheduling)
	assert.False(t, async.Version.SyncScheduling)
	assert.Equal(t, (*profile("vllm").EffSync), sync.Eff)
	assert.Equal(t, profile("vllm").Eff, async.Eff)
	assert.Equal(t, (*profile("vllm").EffSync), at("0.10").Eff)
	assert.Equal(t, (*profile("vllm").EffV0), at("0.6").Eff)
	s, a := sync.DecodeStep(64, 512), async.DecodeStep(64, 512)
	assert.InDelta(t, (2.59-0.71)/1e3+64*(37-5)/1e6, s.OverheadS-a.OverheadS, 1e-9)
	assert.InDelta(t, a.TimeS-a.OverheadS, s.TimeS-s.OverheadS, 1e-12)
	assert.True(t, profile("vllm").SyncRelease("0.10"))
	assert.False(t, profile("vllm").SyncRelease("0.21"))
	assert.False(t, profile("sglang").SyncRelease(""))
	// The sync terms are the V1 kernel terms with only the CPU's two
	// overheads refitted: a refit of Eff must carry over to them.
	kernels := (*profile("vllm").EffSync)
	kernels.StepOverheadMs, kernels.SequenceOverheadUs = profile("vllm").Eff.StepOverheadMs, profile("vllm").Eff.SequenceOverheadUs
	assert.Equal(t, profile("vllm").Eff, kernels)
}

// A GPU without matrix units for the precision (an Apple GPU: its FP16
// peak is its FP32 peak) runs the GEMMs on its vector units, where a few
// tokens pad nothing: one decoding sequence of Llama 3.1 8B on an M3 Max
// (14.2 TFLOP/s FP32 = FP16) costs its FLOPs at peak * compute_efficiency,
// not 1 + gemm_half_tokens = 17 times that, and the step is bound by the
// weights' read, as llama.cpp's Metal decode is. A tensor-core GPU keeps
// the tile padding: the RTX 4090's 165.2 TFLOP/s FP16 tensor peak.
func TestVectorUnitsPadNoTile(t *testing.T) {
	t.Parallel()
	linPerTok := 2 * (8_030_261_248.0 - 2*525_336_576)
	head := 2 * 128256 * 4096.0
	load := StepLoad{DecodeSeqs: 1, DecodeContext: 0}

	d, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "m3-max"}, Engine: "llamacpp"})
	require.NoError(t, err)
	s := d.Step(load)
	want := (linPerTok + head) / (14.2e12 * d.Eff.ComputeEfficiency)
	assert.InDelta(t, want, s.ComputeS, want*0.002)
	// 15.01e9 bf16 bytes read at 400 GB/s * 0.711 (llama.cpp's Metal
	// terms, (*profile("llamacpp").EffMetal)) take 53 ms; the FLOPs at 14.2e12 * 0.6
	// take 1.8 ms.
	assert.False(t, s.ComputeBound)

	d, err = Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "rtx-4090"}, Engine: "llamacpp"})
	require.NoError(t, err)
	s = d.Step(load)
	want = (linPerTok + head) * (1 + d.Eff.GEMMHalfTokens) / (165.2e12 * d.Eff.ComputeEfficiency)
	assert.InDelta(t, want, s.ComputeS, want*0.002)
}

// llama.cpp on an Apple GPU runs its Metal back end, with its own fitted
// terms ((*profile("llamacpp").EffMetal), `calibrate -fit llamacpp@metal`); the GeForce
// cards keep the CUDA profile. One decoding sequence of Llama 3.1 8B in
// BF16 on an M3 Max (400 GB/s) from an empty context reads every weight
// but the input embedding table (one row of it is gathered),
// 2 * (8,030,261,248 - 128256 * 4096) = 15.00985e9 bytes, and no KV cache:
//
//	weights  15.00985e9 B / (400e9 B/s * 0.711) = 52.777 ms
//	overhead 2.17 ms + 32 layers * 12.7 us + 1 sequence * 5 us
//	         = 2.17 + 0.4064 + 0.005            =  2.581 ms
//	step                                        = 55.359 ms (18.1 tok/s)
//
// The FLOPs, 15.0e9 at 14.2e12 * 0.6, take 1.8 ms: the step is the read.
// Under the CUDA terms (0.85, 1.33 ms, 9.0 us) it would be 44.15 + 1.62 =
// 45.77 ms.
func TestLlamaCppMetalTerms(t *testing.T) {
	t.Parallel()
	d, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "m3-max"}, Engine: "llamacpp"})
	require.NoError(t, err)
	assert.Equal(t, (*profile("llamacpp").EffMetal), d.Eff)
	assert.Equal(t, 0.711, d.Eff.BandwidthEfficiency)
	assert.Equal(t, 2.17, d.Eff.StepOverheadMs)
	assert.Equal(t, 12.7, d.Eff.LayerOverheadUs)
	assert.Equal(t, 5.0, d.Eff.SequenceOverheadUs)
	s := d.Step(StepLoad{DecodeSeqs: 1, DecodeContext: 0})
	assert.InDelta(t, 2*(8_030_261_248.0-128256*4096), s.WeightsReadBytes, 1e6)
	assert.InDelta(t, 2.581e-3, s.OverheadS, 1e-6)
	assert.InDelta(t, 55.359e-3, s.TimeS, 55.359e-3*0.001)

	g, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "rtx-4090"}, Engine: "llamacpp"})
	require.NoError(t, err)
	assert.Equal(t, profile("llamacpp").Eff, g.Eff, "a GeForce card keeps the CUDA profile")
}

// llama.cpp's CUDA build (cuBLAS builds, before its PR #8075): a prompt
// of more than 32 tokens multiplies in cuBLAS with fp16 accumulate, which
// a GeForce card runs at twice its fp32-accumulate rate (RTX 4090: 330.3
// against 165.2 TFLOPS dense, Ada whitepaper), and dequantizes each
// quantized matrix to fp16 first, once per 512-token ubatch: its
// quantized bytes read plus 2 bytes a weight written, at the weights'
// bandwidth. Decode (one token) keeps the fp32-accumulate peak.
func TestLlamaCppCUDAPrefillRunsFP16AccumulateAndDequantizes(t *testing.T) {
	t.Parallel()
	req := spec.Request{Model: "meta-llama/Meta-Llama-3-8B", Hardware: spec.HardwareRef{ID: "rtx-4090"}, Engine: "llamacpp", Quantization: "q4_k_m", MaxModelLen: spec.Int(4096)}
	d, err := Resolve(req)
	require.NoError(t, err)
	e := d.Eff
	// 8,030,261,248 parameters less the 128,256 x 4096 embedding table
	// and LM head: 6,979,588,096 linear weights.
	const lin = 8_030_261_248.0 - 2*525_336_576
	linPerTok := 2 * lin
	head := 2 * 128256 * 4096.0
	s := d.Step(StepLoad{PrefillTokens: 512, PrefillSeqs: 1})
	want := (linPerTok*512 + head) * (512 + e.GEMMHalfTokens) / (512 * 330.3e12 * e.ComputeEfficiency)
	assert.InDelta(t, want, s.ComputeS, want*0.002)
	// One token: the fp32-accumulate peak, 165.2 TFLOPS.
	s1 := d.Step(StepLoad{DecodeSeqs: 1, DecodeContext: 1})
	want1 := (linPerTok + head) * (1 + e.GEMMHalfTokens) / (165.2e12 * e.ComputeEfficiency)
	assert.InDelta(t, want1, s1.ComputeS, want1*0.002)

	// The dequantization: lin * (bits/8 + 2) bytes at min(1008 GB/s *
	// bandwidth_efficiency, sm_bytes_per_cycle * 128 SMs * 2.52 GHz).
	bw := min(1008e9*e.BandwidthEfficiency, e.SMBytesPerCycle*128*2.52e9)
	deq := lin * (d.Quant.BitsPerWeight/8 + 2) / bw
	assert.InDelta(t, deq, d.cost.dequantS, deq*0.002)
	// 1024 tokens are two ubatches: the step grows by one more
	// dequantization besides twice the GEMM and the cache writes.
	s2 := d.Step(StepLoad{PrefillTokens: 1024, PrefillSeqs: 1})
	assert.InDelta(t, 2*deq, s2.MemoryS-(s2.KVReadBytes*d.cost.invKVBW+s2.WeightsReadBytes*d.cost.invWeightBW), deq*0.01)

	// F16 weights: no dequantization; an A100 (fp16 accumulate at the
	// fp32 rate): the BF16 peak.
	req.Quantization = ""
	f, err := Resolve(req)
	require.NoError(t, err)
	assert.Zero(t, f.cost.dequantS)
	req.Hardware = spec.HardwareRef{ID: "a100-sxm-80gb"}
	a, err := Resolve(req)
	require.NoError(t, err)
	assert.Zero(t, a.cost.accScale)
	// vLLM on the 4090 multiplies at the fp32-accumulate rate.
	v, err := Resolve(spec.Request{Model: "meta-llama/Meta-Llama-3-8B", Hardware: spec.HardwareRef{ID: "rtx-4090"}, MaxModelLen: spec.Int(4096)})
	require.NoError(t, err)
	assert.Zero(t, v.cost.accScale)
}
