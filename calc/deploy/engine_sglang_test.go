package deploy

import (
	"testing"

	"github.com/modelrefs/throughput/calc/release"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/hardware"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/internal/units"
)

// SGLang's defaults by release, GPU memory (MiB of device capacity) and
// TP, worked by hand from ServerArgs:
//   - 0.4 on an H200 (more than 25,000 MiB) at TP 8: fraction 0.81,
//     chunked prefill 8192, graphs up to 160;
//   - 0.4 on a 24 GB card (under 25,000 MiB): 2048 and 8 at TP 1, 80 at
//     TP 4 (fraction 0.85 there);
//   - 0.5 on an 80 GB-class GPU of 81,090 MiB at TP 1: 8192 and 256,
//     reserved 512 + 1.5 x 8192 + 2 x 256 + 1024 / 8 = 13,440 MiB,
//     fraction (81,090 - 13,440) / 81,090 = 0.834;
//   - 0.5 at TP 4 on a 143,771 MiB H200: graphs 512, reserved 512 +
//     12,288 + 1,024 + 512 = 14,336, fraction 129,435 / 143,771 = 0.900;
//   - 0.5 on a 16 GiB card: 2048 and 8, reserved 512 + 3,072 + 16 + 128
//     = 3,728 MiB (no 10 GiB floor under 60 GiB): (16,384 - 3,728) /
//     16,384 = 0.772;
//   - 0.5 on a 192 GiB MI300X: 16384 and 512, reserved 512 + 24,576 +
//     1,024 + 128 = 26,240: (196,608 - 26,240) / 196,608 = 0.867.
func TestSGLangDefaultsFollowTheReleaseAndTheGPU(t *testing.T) {
	t.Parallel()
	v04, _ := release.LookupVersion("sglang", "0.4")
	v05, _ := release.LookupVersion("sglang", "")
	mib := func(m float64) units.Bytes { return units.Bytes(m * (1 << 20)) }
	for _, c := range []struct {
		v        release.EngineVersion
		mem      units.Bytes
		tp       int
		fraction float64
		chunked  int
		graphs   int
	}{
		{v04, mib(143771), 8, 0.81, 8192, 160},
		{v04, mib(24000), 1, 0.88, 2048, 8},
		{v04, mib(24000), 4, 0.85, 2048, 80},
		{v05, mib(81090), 1, 0.834, 8192, 256},
		{v05, mib(143771), 4, 0.900, 8192, 512},
		{v05, mib(16384), 1, 0.772, 2048, 8},
		{v05, mib(196608), 1, 0.867, 16384, 512},
	} {
		f, ch, g := release.SGLangDefaults(c.v.GraphMaxByMemory, c.mem, c.tp, 1)
		assert.InDelta(t, c.fraction, f, 1e-9, "%+v", c)
		assert.Equal(t, []int{c.chunked, c.graphs}, []int{ch, g}, "%+v", c)
	}
}

// The running-request cap: min(max(pool / context x 512, 2048), 4096),
// then at most half the pool.
func TestSGLangRunningRequestsFollowThePool(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pool        int64
		context     int
		want        int
		explanation string
	}{
		{1_000_000, 131072, 3906, "1,000,000 / 131,072 x 512 = 3,906.25"},
		{3000, 131072, 1500, "the 2048 floor, then half of 3,000 tokens"},
		{1_000_000, 8192, 4096, "a short context: the 4096 cap"},
		{1, 8192, 1, "at least one request"},
	} {
		assert.Equal(t, c.want, release.SGLangMaxRunningRequests(c.pool, c.context), c.explanation)
	}

	// Resolved: Llama 3.1 8B on an H100 under 0.5 keeps the pool's cap,
	// an explicit max_num_seqs wins, and vLLM keeps its own.
	d, err := Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, Engine: "sglang", MaxModelLen: spec.Int(131072)})
	require.NoError(t, err)
	pool := d.NumBlocks * int64(d.BlockSize)
	assert.Equal(t, int(min(max(float64(pool)/131072*512, 2048), 4096)), d.MaxNumSeqs)
	d, err = Resolve(spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}, Engine: "sglang", MaxNumSeqs: spec.Int(64)})
	require.NoError(t, err)
	assert.Equal(t, 64, d.MaxNumSeqs)
}

// A decode batch beyond the largest CUDA graph runs eagerly and pays the
// prefill forward's per-layer cost: Llama 3.1 70B (80 layers) at TP 4 on
// H200s under SGLang 0.4 (graphs up to 160), 80 x 282 us = 22.56 ms more
// from 161 sequences; under 0.5 (graphs up to 512) not until 513; vLLM,
// whose eager forward costs nothing extra in its terms, never.
func TestSGLangEagerDecodeBeyondItsGraphs(t *testing.T) {
	t.Parallel()
	at := func(engine, version string) *Deployment {
		d, err := Resolve(spec.Request{Model: "meta-llama/Llama-3.3-70B-Instruct", Hardware: spec.HardwareRef{ID: "h200-sxm-141gb"}, Engine: engine, EngineVersion: version, TensorParallelSize: spec.Int(4), MaxModelLen: spec.Int(4096)})
		require.NoError(t, err)
		return d
	}
	extra := func(d *Deployment, b int) float64 {
		return d.DecodeStep(b+1, 1000).OverheadS - d.DecodeStep(b, 1000).OverheadS
	}
	perSeq := profile("sglang").Eff.SequenceOverheadUs / 1e6
	eager := 80 * profile("sglang").Eff.PrefillLayerOverheadUs / 1e6 // 80 x 282 us
	d4 := at("sglang", "0.4")
	assert.InDelta(t, eager+perSeq, extra(d4, 160), 1e-9)
	assert.InDelta(t, perSeq, extra(d4, 159), 1e-9)
	d5 := at("sglang", "0.5")
	assert.InDelta(t, perSeq, extra(d5, 160), 1e-9)
	assert.InDelta(t, eager+perSeq, extra(d5, 512), 1e-9)
	v := at("vllm", "")
	assert.InDelta(t, profile("vllm").Eff.SequenceOverheadUs/1e6, extra(v, 512), 1e-9)
}

// SGLang 0.5's own table of its defaults, as a conformance suite: the
// comments of ServerArgs._handle_gpu_memory_settings (python/sglang/srt/
// server_args.py, the 2026 tree of code-index file id 271536807) name the
// GPUs of each memory tier and their chunked_prefill_size and
// cuda_graph_max_bs: "T4, 4080 (chunked_prefill_size 2k, cuda_graph_max_bs
// 8)"; "A10, 4090, 5090 (chunked_prefill_size 2k, cuda_graph_max_bs 24 if
// tp < 4 else 80)"; "A100 (40GB), L40 (chunked_prefill_size 4k,
// cuda_graph_max_bs 32 if tp < 4 else 160)"; "H100, A100" and "H20, H200"
// (8k, 256 if tp < 4 else 512); "B200, MI300" (16k, 512). Each catalog
// part of those names resolves to its row at TP 1 and TP 4.
func TestSGLangTiersAsItsServerArgsNameThem(t *testing.T) {
	t.Parallel()
	v, ok := release.LookupVersion("sglang", "0.5.20")
	require.True(t, ok)
	for _, c := range []struct {
		ids             []string
		chunked         int
		graphs, graphs4 int
	}{
		{[]string{"t4", "rtx-4080"}, 2048, 8, 8},
		{[]string{"a10", "rtx-4090", "rtx-5090"}, 2048, 24, 80},
		{[]string{"a100-pcie-40gb", "a100-sxm-40gb", "l40"}, 4096, 32, 160},
		{[]string{"h100-sxm-80gb", "a100-sxm-80gb"}, 8192, 256, 512},
		{[]string{"h20", "h200-sxm-141gb"}, 8192, 256, 512},
		{[]string{"b200", "mi300x"}, 16384, 512, 512},
	} {
		for _, id := range c.ids {
			hw, err := hardware.Lookup(id)
			require.NoError(t, err, id)
			_, ch, g := release.SGLangDefaults(v.GraphMaxByMemory, hw.ReportedMemory(), 1, 1)
			_, ch4, g4 := release.SGLangDefaults(v.GraphMaxByMemory, hw.ReportedMemory(), 4, 1)
			assert.Equal(t, []int{c.chunked, c.graphs, c.chunked, c.graphs4}, []int{ch, g, ch4, g4}, id)
		}
	}
}
