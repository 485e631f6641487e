package deploy

import (
	"math"
	"testing"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The attention's matmuls run in the KV cache's format, never above the
// GEMMs' (the attention peak, costModel.foldEfficiencies). DeepSeek-R1 (FP8 block-scaled weights and
// activations) on an H200 SXM: with the default 16-bit cache the MLA
// decode multiplies on the BF16 tensor cores (989.4e12 dense, datasheet),
// with an FP8 cache on the FP8 ones (1978.9e12), as the GEMMs do.
//
// The two deployments differ only in that: the same weights, so the same
// GEMM time, and the MLA decode's FLOPs per cached token per layer are
// 2 * 128 heads * (2 * 512 + 64) = 278,528, over 61 layers 16,990,208. A
// decode of 128 sequences at 2,048 tokens attends 262,144 tokens:
// 4.4539e12 FLOPs, which take 4.4539e12 / (989.4e12 * ae) at BF16 and
// 4.4539e12 / (1978.9e12 * ae) at FP8, ae the engine's
// attention_efficiency. So the BF16 cache's compute is longer by
// 4.4539e12 / ae * (1/989.4e12 - 1/1978.9e12) = 2.2508e-3 / ae s.
func TestAttentionRunsInTheCacheFormat(t *testing.T) {
	t.Parallel()
	ep := true
	req := spec.Request{Model: "deepseek-ai/DeepSeek-R1", Hardware: spec.HardwareRef{ID: "h200-sxm-141gb"}, Engine: "trtllm",
		DataParallelSize: spec.Int(8), EnableExpertParallel: &ep, MaxModelLen: spec.Int(4096)}
	bf, err := Resolve(req)
	require.NoError(t, err)
	req.KVCacheDtype = "fp8"
	f8, err := Resolve(req)
	require.NoError(t, err)
	require.InDelta(t, 1978.9e12, bf.PeakFLOPS, 1e9, "the GEMMs run in FP8 either way")
	require.InDelta(t, 1978.9e12, f8.PeakFLOPS, 1e9)

	ae := bf.Eff.AttentionEfficiency
	require.Positive(t, ae)
	assert.InDelta(t, 989.4e12, 1/(bf.cost.invAttnPeak*ae), 1e9)
	assert.InDelta(t, 1978.9e12, 1/(f8.cost.invAttnPeak*ae), 1e9)
	flops := 16_990_208.0 * 128 * 2048
	assert.InDelta(t, 4.4539e12, flops, 0.0001e12)
	want := flops / ae * (1/989.4e12 - 1/1978.9e12)
	sb, s8 := bf.DecodeStep(128, 2048), f8.DecodeStep(128, 2048)
	assert.InDelta(t, want, sb.ComputeS-s8.ComputeS, 1e-6)
	assert.InDelta(t, 2.2508e-3/ae, want, 1e-6)
}

// A 16-bit model attends at its own peak: the cache's format cannot lift
// the attention above the GEMMs' (Llama 3.1 8B in BF16 with an FP8 cache
// on an H100 SXM: 989.4e12, not the FP8 1978.9e12).
func TestAttentionPeakNotAboveTheGEMMs(t *testing.T) {
	t.Parallel()
	d, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, KVCacheDtype: "fp8"})
	require.NoError(t, err)
	assert.InDelta(t, 989.4e12, d.PeakFLOPS, 1e9)
	assert.InDelta(t, 989.4e12, 1/(d.cost.invAttnPeak*d.Eff.AttentionEfficiency), 1e9)
}

// The modules a quantized checkpoint leaves unquantized multiply in 16
// bits (costModel.invKeptPeak). nvidia/DeepSeek-V3-0324-NVFP4 excludes every self_attn
// module; one MLA layer's projections are q_a 7168*1536 = 11,010,048,
// q_b 1536*128*192 = 37,748,736, kv_a 7168*576 = 4,128,768, kv_b
// 512*128*256 = 16,777,216 and o 128*128*7168 = 117,440,512, with the
// q_a and kv_a norms (1,536 + 512): 187,107,328 weights, over 61 layers
// 11,413,547,008, all on each rank under attention DP (tp 1). A decode of
// 384 sequences multiplies them at the BF16 2.25e15 of a B200 instead of
// its FP4 9e15: the GEMMs' compute grows by
// 2 * 11,413,547,008 * 384 * (1 + 20/384) * (1/2.25e15 - 1/9e15) / ce
// = 3.0741e-3 / ce s (ce the engine's compute_efficiency; gemm_half_tokens
// 20).
func TestUnquantizedModulesMultiplyIn16Bits(t *testing.T) {
	t.Parallel()
	ep := true
	d, err := Resolve(spec.Request{Model: "nvidia/DeepSeek-V3-0324-NVFP4", Hardware: spec.HardwareRef{ID: "b200"}, Engine: "trtllm",
		DataParallelSize: spec.Int(8), EnableExpertParallel: &ep, MaxModelLen: spec.Int(4096)})
	require.NoError(t, err)
	require.InDelta(t, 9000e12, d.PeakFLOPS, 1e9)
	require.InDelta(t, 20, d.Eff.GEMMHalfTokens, 1e-9)
	ce := d.Eff.ComputeEfficiency
	assert.InDelta(t, 2250e12, 1/(d.cost.invKeptPeak*ce), 1e9)
	assert.InDelta(t, 2*11_413_547_008.0, d.cost.keptFLOPs, 1)
	want := 2 * 11_413_547_008.0 * 384 * (1 + 20.0/384) * (1/2250e12 - 1/9000e12) / ce
	assert.InDelta(t, 3.0741e-3/ce, want, 1e-6)
	with := d.DecodeStep(384, 2048)
	d.cost.invKeptPeak = 0 // the GEMMs all at the FP4 peak
	without := d.DecodeStep(384, 2048)
	assert.InDelta(t, want, with.ComputeS-without.ComputeS, 1e-7)
}

// An unquantized model has nothing kept apart: its GEMMs are 16-bit
// already (Llama 3.1 8B on an H100 SXM).
func TestNoKeptModulesWithoutQuantization(t *testing.T) {
	t.Parallel()
	d, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}})
	require.NoError(t, err)
	assert.Zero(t, d.cost.keptFLOPs)
	assert.Zero(t, d.cost.invKeptPeak)
}

// Under expert parallelism the routed experts' grouped GEMM is its own
// roofline, padded per expert (Deployment.Step). DeepSeek-R1 FP8 on an
// H200 SXM at attention DP 8, EP 8, a prefill step of 1,151 tokens per
// rank (1,151 * 1,152 / 2 attended positions). One expert's 3 * 7168 *
// 2048 = 44,040,192 weights are 5,506,368 bytes per rank-share (an
// eighth: 256 experts over 8 ranks; fp8 with one fp32 scale per 128 x 128
// block, 8 + 32/16384 bits a weight), 58 MoE layers. The step routes N =
// 9,208 tokens: every expert is selected (256 * (1 - (1 - 8/256)^9208) =
// 256), M_e = 9,208 * 8 / 256 = 287.75 rows each; the rank's expert
// FLOPs are 2 * 8 * 58 * 44,040,192 / 8 = 5,108,662,272 per token of the
// group, times N and the load imbalance 1 + sqrt(2 ln 8 / 9,208). The
// expert read is 58 * 256 * 5,506,368 bytes at 4.8e12 * bw_eff; their
// compute takes FLOPs * (1 + 20/287.75) / (1978.9e12 * ce) against the
// step's 1 + 20/1151 for the dense GEMMs. The GEMM time is
// max(dense read, dense compute) + max(expert read, expert compute), the
// rest of the step being its overhead, all-to-all, KV read and the
// prefill attention's 16,990,208 FLOPs per attended position at the BF16
// peak (its 16-bit cache).
func TestExpertGEMMIsItsOwnRoofline(t *testing.T) {
	t.Parallel()
	ep := true
	d, err := Resolve(spec.Request{Model: "deepseek-ai/DeepSeek-R1", Hardware: spec.HardwareRef{ID: "h200-sxm-141gb"}, Engine: "trtllm",
		DataParallelSize: spec.Int(8), EnableExpertParallel: &ep, MaxModelLen: spec.Int(4096)})
	require.NoError(t, err)
	c := d.cost
	require.InDelta(t, 44_040_192*8.001953125/8/8, c.expertBytes, 1)
	require.InDelta(t, 58, c.moeLayers, 0)
	require.InDelta(t, 20, c.gemmHalf, 0)
	require.Zero(t, c.keptFLOPs, "the FP8 checkpoint excludes no layer module")
	e := d.Eff
	bw, kvBW := 4.8e12*e.BandwidthEfficiency, 4.8e12*e.AttentionBandwidthEfficiency
	peak, attnPeak := 1978.9e12*e.ComputeEfficiency, 989.4e12*e.AttentionEfficiency

	span := 1151 * 1152 / 2.0
	s := d.Step(StepLoad{PrefillTokens: 1151, PrefillSpan: span, PrefillSeqs: 1})
	attnFLOPs := 16_990_208 * span
	gemm := s.TimeS - s.OverheadS - s.CommunicationS - s.KVReadBytes/kvBW - attnFLOPs/attnPeak

	expFLOPs := 5_108_662_272.0 * 9208 * (1 + math.Sqrt(2*math.Log(8)/9208))
	expRead := 58 * 256 * 5_506_368.0 / bw
	linMem := s.WeightsReadBytes / bw
	linComp := (s.FLOPs - attnFLOPs) * (1 + 20.0/1151) / peak
	expShare := expFLOPs * (1 + 20.0/1151) / peak
	expComp := expFLOPs * (1 + 20/287.75) / peak
	want := max(linMem-expRead, linComp-expShare) + max(expRead, expComp)
	assert.InDelta(t, want, gemm, 1e-6)
	// Both parts are compute-bound here, so the split costs the experts'
	// extra padding of 287.75 rows against 1,151 over one roofline.
	assert.Greater(t, want, max(linMem, linComp))
}
