package deploy

import (
	"testing"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// llama.cpp streams the weights through matrix-vector kernels on the CUDA
// cores, at most sm_bytes_per_cycle = 6 bytes per SM per cycle. Llama 3.1
// 8B in bf16 at batch 1, context 1024: 15,009,849,344 bytes of weights read
// (16,060,522,496 less the embedding table, gathered), 134,217,728 of KV
// (32 layers x 2 x 8 heads x 128 x 2 bytes x 1024).
//
//	H100 SXM  min(3.35e12 x 0.85, 6 x 132 x 1.98e9) = min(2.8475e12, 1.568e12) = 1.568e12 B/s: the SMs bind
//	RTX 4090  min(1.008e12 x 0.85, 6 x 128 x 2.52e9) = min(0.8568e12, 1.935e12) = 0.8568e12 B/s: DRAM binds
//
// KV at 0.70 of the bandwidth; overhead 1.33 ms + 32 x 9 us + 5 us.
//
// On an AMD accelerator llama.cpp runs its HIP build, whose matrix-vector
// kernels issue at most sm_bytes_per_cycle = 4 bytes per compute unit per
// cycle (llamacppROCmEff), over the catalog's CUs and peak engine clock:
//
//	MI300X       min(5.3e12 x 0.723, 4 x 304 x 2.1e9) = min(3.8319e12, 2.5536e12) = 2.5536e12 B/s: the CUs bind
//	RX 7900 XTX  min(0.96e12 x 0.723, 4 x 96 x 2.5e9) = min(0.69408e12, 0.96e12) = 0.69408e12 B/s: DRAM binds
//
// KV at 0.301 of the bandwidth; overhead 2.03 ms + 32 x 9 us + 5 us.
func TestLlamaCppStreamsWeightsAtItsSMIssueLimit(t *testing.T) {
	t.Parallel()
	cuda := 1.33e-3 + 32*9e-6 + 5e-6
	hip := 2.03e-3 + 32*9e-6 + 5e-6
	for _, c := range []struct {
		gpu                string
		bw, wbw, kvEff, ov float64
		perCycle           float64
	}{
		{"h100-sxm", 3.35e12, 6 * 132 * 1.98e9, 0.70, cuda, 6},
		{"rtx-4090", 1.008e12, 1.008e12 * 0.85, 0.70, cuda, 6},
		{"mi300x", 5.3e12, 4 * 304 * 2.1e9, 0.301, hip, 4},
		{"rx-7900-xtx", 0.96e12, 0.96e12 * 0.723, 0.301, hip, 4},
	} {
		d, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: c.gpu}, Engine: "llamacpp", MaxModelLen: spec.Int(4096)})
		require.NoError(t, err, c.gpu)
		require.InDelta(t, c.perCycle, d.Eff.SMBytesPerCycle, 0, c.gpu)
		s := d.DecodeStep(1, 1024)
		require.InDelta(t, 15009849344, s.WeightsReadBytes, 0.5, c.gpu)
		require.InDelta(t, 134217728, s.KVReadBytes, 0.5, c.gpu)
		want := 15009849344/c.wbw + 134217728/(c.bw*c.kvEff) + c.ov
		assert.InEpsilon(t, want, s.TimeS, 1e-9, c.gpu)
	}
}

// A server calibrated from its own measured steps fits the rate its
// weights actually stream at: the cap is lifted, and the fitted efficiency
// starts from the capped rate (1.568e12 / 3.35e12 = 0.468 on an H100).
func TestCalibrationStartsFromTheCappedRate(t *testing.T) {
	t.Parallel()
	d, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, Engine: "llamacpp", MaxModelLen: spec.Int(4096)})
	require.NoError(t, err)
	step := d.DecodeStep(1, 1024).TimeS * 1000
	rep, err := Calibrator.Fit(d, []spec.CalPoint{{Batch: 1, Context: 1024, TPOTMs: step}}, nil)
	require.NoError(t, err)
	require.NotNil(t, rep)
	assert.InDelta(t, 6*132*1.98e9/3.35e12, d.Eff.BandwidthEfficiency, 1e-3)
	assert.Zero(t, d.Eff.SMBytesPerCycle)
	assert.InEpsilon(t, step, d.DecodeStep(1, 1024).TimeS*1000, 1e-3)
}

// The per-CU cap leaves vLLM's ROCm build alone: its hipBLASLt GEMMs are
// not CU-issue bound (its terms have no sm_bytes_per_cycle), so on an
// MI300X its weights stream at the bandwidth times its efficiency.
func TestVLLMOnAMDHasNoCUIssueLimit(t *testing.T) {
	t.Parallel()
	v, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "mi300x"}, Engine: "vllm"})
	require.NoError(t, err)
	assert.Zero(t, v.Eff.SMBytesPerCycle)
	assert.InEpsilon(t, 5.3e12*v.Eff.BandwidthEfficiency, weightBandwidth(v, v.Eff), 1e-12)
}
