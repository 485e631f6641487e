package calc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// vLLM on an AMD accelerator takes the ROCm build's step terms
// (vllmROCmEff), under V1 and V0 alike; on an NVIDIA one the CUDA build's.
// One decode step of Llama 3.1 8B (bf16) on one MI300X at batch 1 and 1024
// tokens of context, from the fitted terms:
//
//	weights read = 16,060,522,496 B (8,030,261,248 params x 2)
//	               - 128,256 x 4,096 x 2 = 1,050,673,152 B (the embedding
//	               table, gathered, not read) = 15,009,849,344 B
//	gemm         = 15,009,849,344 / (5.3e12 B/s x 0.525) = 5.394375 ms
//	               (the GEMM FLOPs, about 15 GFLOP x (1 + 16/1) / (1307.4e12
//	               x 0.6) = 0.33 ms, are below it)
//	KV read      = 32 layers x 8 KV heads x (128 + 128) x 2 B x 1,024
//	               tokens = 134,217,728 B
//	attention    = 134,217,728 / (5.3e12 x 0.306) = 0.082758 ms
//	overhead     = 3.29 ms + 32 x 7.6 us + 1 x 36.2 us = 3.5694 ms
//	step         = 5.394375 + 0.082758 + 3.5694 = 9.046534 ms
//
// where the CUDA build's terms (bandwidth 0.82, KV 0.70, 0.71 ms, 5 us)
// would give 3.453716 + 0.036177 + 0.9582 = 4.448093 ms.
func TestVLLMOnAMDUsesTheROCmStepTerms(t *testing.T) {
	t.Parallel()
	mi, err := Resolve(Request{Model: "llama-3.1-8b", Hardware: HardwareRef{ID: "mi300x"}})
	require.NoError(t, err)
	assert.Equal(t, vllmROCmEff, mi.Eff)
	h, err := Resolve(Request{Model: "llama-3.1-8b", Hardware: HardwareRef{ID: "h100-sxm"}})
	require.NoError(t, err)
	assert.Equal(t, engines["vllm"].Eff, h.Eff)
	assert.NotEqual(t, vllmROCmEff, h.Eff)

	s := mi.DecodeStep(1, 1024)
	assert.InDelta(t, 15009849344, s.WeightsReadBytes, 0.5)
	assert.InDelta(t, 134217728, s.KVReadBytes, 0.5)
	gemm := 15009849344 / (5.3e12 * 0.525)
	attn := 134217728 / (5.3e12 * 0.306)
	over := 3.29e-3 + 32*7.6e-6 + 36.2e-6
	assert.InDelta(t, over, s.OverheadS, 1e-12)
	assert.InDelta(t, gemm+attn+over, s.TimeS, 1e-9)
	assert.InDelta(t, 9.046534e-3, s.TimeS, 1e-9)

	// V0 as 0.7 ran it on ROCm: the same terms (the 0.7.3 V0 MI300X
	// cases, held out of the fit, support them); 0.6 on ROCm: its own
	// (TestVLLM06OnAMDUsesItsOwnStepTerms); V0 on an H100: the CUDA V0
	// terms under both.
	mi0, err := Resolve(Request{Model: "llama-3.1-8b", Hardware: HardwareRef{ID: "mi300x"}, EngineVersion: "0.7"})
	require.NoError(t, err)
	assert.Equal(t, vllmROCmEff, mi0.Eff)
	assert.True(t, mi0.Version.V0)
	for _, v := range []string{"0.6", "0.7"} {
		h0, err := Resolve(Request{Model: "llama-3.1-8b", Hardware: HardwareRef{ID: "h100-sxm"}, EngineVersion: v})
		require.NoError(t, err)
		assert.Equal(t, vllmV0Eff, h0.Eff, v)
	}

	// Another engine on the MI300X keeps its own terms.
	sg, err := Resolve(Request{Model: "llama-3.1-8b", Hardware: HardwareRef{ID: "mi300x"}, Engine: "sglang"})
	require.NoError(t, err)
	assert.Equal(t, engines["sglang"].Eff, sg.Eff)
}

// vLLM 0.6 on an AMD accelerator takes its upstream ROCm build's terms
// (vllmV06ROCmEff: GEMMs at 0.0623 of peak, KV read at 0.0908 of the
// bandwidth, 82.8 us more per all-reduce). Llama 3.1 8B (bf16) on MI300X
// at 1024 tokens of context (weights and KV bytes as in
// TestVLLMOnAMDUsesTheROCmStepTerms):
//
//	tp 1, batch 1:   gemm      = 15,009,849,344 / (5.3e12 x 0.525) = 5.394375 ms
//	                             (FLOPs 15,009,849,344 x 17 / (1307.4e12 x 0.0623)
//	                             = 3.133 ms, below it)
//	                 attention = 134,217,728 / (5.3e12 x 0.0908) = 0.278900 ms
//	                 overhead  = 3.29 ms + 32 x 7.6 us + 1 x 36.2 us = 3.5694 ms
//	                 step      = 9.242675 ms
//	tp 1, batch 256: gemm      = 15,009,849,344 x 256 x (1 + 16/256)
//	                             / (1307.4e12 x 0.0623) = 50.124345 ms
//	                             (the FLOPs bind: the weights take 5.39 ms)
//	                 attention = 256 x 134,217,728 / (5.3e12 x 0.0908) = 71.398343 ms
//	                             (its FLOPs, 2 x 32 x 256 x 32 x 1024 x 256 =
//	                             0.137 TFLOP at 0.4 of peak = 0.26 ms, below it)
//	                 overhead  = 3.29 + 32 x 0.0076 + 256 x 0.0362 = 12.8004 ms
//	                 step      = 134.323088 ms
//	tp 2, batch 1:   gemm      = 15,009,849,344 / 2 / (5.3e12 x 0.525) = 2.697188 ms
//	                 attention = 67,108,864 / (5.3e12 x 0.0908) = 0.139450 ms
//	                 overhead  = 3.5694 ms
//	                 all-reduce = 2 x 32 layers x (10 us Infinity Fabric + 82.8 us)
//	                             = 5.9392 ms (+ 64 x 8 KiB at the bus bandwidth,
//	                             about 2 us)
//	                 step      = 12.345238 ms
//
// The GEMM FLOPs and TP 2's weights count the norm weights (266,240, some
// replicated on both ranks) only within 0.01 %.
func TestVLLM06OnAMDUsesItsOwnStepTerms(t *testing.T) {
	t.Parallel()
	d, err := Resolve(Request{Model: "llama-3.1-8b", Hardware: HardwareRef{ID: "mi300x"}, EngineVersion: "0.6"})
	require.NoError(t, err)
	assert.Equal(t, vllmV06ROCmEff, d.Eff)
	s := d.DecodeStep(1, 1024)
	assert.InDelta(t, 9.242675e-3, s.TimeS, 1e-8)
	s = d.DecodeStep(256, 1024)
	assert.InEpsilon(t, 134.323088e-3, s.TimeS, 1e-4)
	d2, err := Resolve(Request{Model: "llama-3.1-8b", Hardware: HardwareRef{ID: "mi300x"}, EngineVersion: "0.6", TensorParallelSize: Int(2)})
	require.NoError(t, err)
	s = d2.DecodeStep(1, 1024)
	assert.InDelta(t, 5.9392e-3, s.CommunicationS, 3e-6)
	assert.InEpsilon(t, 12.345238e-3, s.TimeS, 1e-3)
	// 0.7 on ROCm pays the link's 10 us alone.
	d7, err := Resolve(Request{Model: "llama-3.1-8b", Hardware: HardwareRef{ID: "mi300x"}, EngineVersion: "0.7", TensorParallelSize: Int(2)})
	require.NoError(t, err)
	assert.InDelta(t, 64*10e-6, d7.DecodeStep(1, 1024).CommunicationS, 3e-6)
}

// llama.cpp on an AMD accelerator takes its HIP back end's step terms
// (llamacppROCmEff). One decode step of Llama 2 7B (F16) on a Ryzen AI
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
	d, err := Resolve(Request{Model: "meta-llama/Llama-2-7b-hf", Hardware: HardwareRef{ID: "ryzen-ai-max-395"}, Engine: "llamacpp"})
	require.NoError(t, err)
	assert.Equal(t, llamacppROCmEff, d.Eff)
	s := d.DecodeStep(1, 1024)
	assert.InDelta(t, 13214687232, s.WeightsReadBytes, 0.5)
	assert.InDelta(t, 536870912, s.KVReadBytes, 0.5)
	want := 13214687232/(256e9*0.723) + 536870912/(256e9*0.301) + 2.03e-3 + 32*9e-6 + 5e-6
	assert.InDelta(t, want, s.TimeS, 1e-9)
	assert.InDelta(t, 80.687e-3, s.TimeS, 0.001e-3)

	// On a GeForce card llama.cpp keeps its CUDA terms.
	g, err := Resolve(Request{Model: "meta-llama/Llama-2-7b-hf", Hardware: HardwareRef{ID: "rtx-4090"}, Engine: "llamacpp"})
	require.NoError(t, err)
	assert.Equal(t, engines["llamacpp"].Eff, g.Eff)
}
