package hardware_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/hardware"
)

// relTol is the relative tolerance for comparing catalog figures with the
// datasheet values written below: they are the same decimal literals, so
// only float rounding may differ.
const relTol = 1e-9

func TestCatalogEntriesPassValidate(t *testing.T) {
	t.Parallel()
	for _, a := range hardware.Catalog() {
		t.Run(a.ID, func(t *testing.T) {
			t.Parallel()
			assert.Empty(t, a.Problems())
			assert.NoError(t, a.Validate())
		})
	}
}

func TestCatalogIDsAreUniqueAndWellFormed(t *testing.T) {
	t.Parallel()
	idPattern := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	seen := map[string]bool{}
	for _, id := range hardware.IDs() {
		assert.Regexp(t, idPattern, id)
		assert.False(t, seen[id], "duplicate id %q", id)
		seen[id] = true
	}
	assert.Len(t, seen, len(hardware.Catalog()))
}

func TestCatalogHasRequiredEntries(t *testing.T) {
	t.Parallel()
	required := []string{
		"t4", "a10g", "l4", "l40s",
		"a100-pcie-40gb", "a100-pcie-80gb", "a100-sxm-40gb", "a100-sxm-80gb",
		"h100-pcie-80gb", "h100-sxm-80gb", "h100-nvl-94gb", "h200-sxm-141gb", "h20",
		"b200", "gb200",
		"rtx-3090", "rtx-4090", "rtx-5090", "rtx-6000-ada", "rtx-a6000",
		"mi250x", "mi300x", "mi325x", "mi355x",
		"gaudi-3", "tpu-v5e", "tpu-v6e",
		"m2-ultra", "m3-max", "m4-max",
		// Extras, several of them in shared/validation/cases.json group C.
		"rtx-3070", "rtx-3080", "rtx-3080-ti", "rtx-4070-ti", "rtx-4080",
		"v100-sxm2-32gb", "h200-nvl-141gb", "a40", "l40", "a10",
		// Issue 15: the accelerators served in 2026.
		"rtx-pro-6000-server", "rtx-pro-6000-workstation", "rtx-pro-6000-max-q",
		"rtx-pro-5000", "rtx-pro-4500", "rtx-pro-4000", "b300", "gb300", "gb10",
		"rtx-a4000", "rtx-a4500", "rtx-a5000", "rtx-4000-ada", "rtx-5000-ada",
		"rtx-5060-ti-16gb", "rtx-5070-ti", "rtx-5080", "rtx-3060-12gb",
		"l20", "h800-sxm-80gb", "a800-sxm-80gb", "a2", "a16", "a30",
		"mi350x", "ryzen-ai-max-395", "jetson-agx-thor", "jetson-agx-orin-64gb",
		"m3-ultra", "m4-pro", "tpu-v7", "gaudi-2", "arc-pro-b60", "trainium-2", "inferentia-2",
		// Later additions (catalog_more.go).
		"gh200-96gb", "gh200-144gb",
		"rtx-4060-ti-16gb", "rtx-4070", "rtx-4070-super", "rtx-4080-super", "rtx-3060-ti", "rtx-3070-ti",
		"m1", "m1-pro", "m1-max", "m1-ultra", "m2", "m2-pro", "m2-max", "m3", "m3-pro", "m4",
	}
	ids := hardware.IDs()
	for _, id := range required {
		assert.Contains(t, ids, id)
	}
	assert.GreaterOrEqual(t, len(ids), 60, "issue 15 asks for at least 60 accelerators")
}

func TestCatalogOrderIsStableAndCatalogReturnsACopy(t *testing.T) {
	t.Parallel()
	first := hardware.Catalog()
	first[0].ID = "changed"
	first[0].MemoryBytes = 1
	second := hardware.Catalog()
	assert.Equal(t, "t4", second[0].ID)
	assert.Equal(t, 16*hardware.GiB, second[0].MemoryBytes)
	ids := hardware.IDs()
	for i, a := range second {
		assert.Equal(t, ids[i], a.ID)
	}
}

// TestSourcesCoverEveryFigure checks that every figure an entry states is
// backed by a Source naming its JSON field, and that the datasheet figures
// (capacity, bandwidth) cite a URL.
func TestSourcesCoverEveryFigure(t *testing.T) {
	t.Parallel()
	for _, a := range hardware.Catalog() {
		t.Run(a.ID, func(t *testing.T) {
			t.Parallel()
			covered := map[string]bool{}
			for _, s := range a.Sources {
				require.NotEmpty(t, s.Citation)
				require.NotEmpty(t, s.Fields)
				for _, f := range s.Fields {
					covered[f] = true
					if f == "memory_bytes" || f == "memory_bandwidth_bytes_per_s" {
						assert.Contains(t, s.Citation, "https://", "source for %s", f)
					}
				}
			}
			want := []string{"memory_bytes", "memory_bandwidth_bytes_per_s", "peak_flops", "interconnect"}
			if a.MemoryReportedBytes > 0 {
				want = append(want, "memory_reported_bytes")
			}
			if a.MemoryFreeBytes > 0 {
				want = append(want, "memory_free_bytes")
			}
			if a.Interconnect.LatencyS > 0 {
				want = append(want, "interconnect.latency_s")
			}
			if a.SMs > 0 || a.BoostClockHz > 0 {
				want = append(want, "sms", "boost_clock_hz")
			}
			for _, f := range want {
				assert.True(t, covered[f], "no source backs %s", f)
			}
		})
	}
}

// TestPeakFLOPSAreDenseAndConsistent guards against sparse (2:4) figures
// slipping in: within one chip each halving of the format at most doubles
// the dense rate, and a narrower format is never slower than a wider one.
// slack absorbs datasheet rounding (the L40S lists 362.05 BF16 beside 733
// FP8). GeForce Blackwell is the one exception: its FP8 entry is the
// half-rate fp32-accumulate figure while FP4 accumulates in fp32 at full
// rate, so FP4 may reach four times FP8. Blackwell Ultra (B300, GB300)
// runs NVFP4 at 1.5x Blackwell's rate on the same FP8 units: three times
// FP8 (HGX B300: 108 PF dense FP4 beside 36 PF dense FP8).
func TestPeakFLOPSAreDenseAndConsistent(t *testing.T) {
	t.Parallel()
	const slack = 1.03
	for _, a := range hardware.Catalog() {
		f := a.PeakFLOPS
		if f.FP32 > 0 {
			assert.LessOrEqual(t, f.FP32, f.BF16*slack, "%s fp32 <= bf16", a.ID)
		}
		if f.TF32 > 0 {
			assert.LessOrEqual(t, f.TF32, f.BF16*slack, "%s tf32 <= bf16", a.ID)
			assert.LessOrEqual(t, f.BF16, 2*f.TF32*slack, "%s bf16 <= 2 tf32", a.ID)
		}
		if f.FP8 > 0 {
			assert.GreaterOrEqual(t, f.FP8*slack, f.BF16, "%s fp8 >= bf16", a.ID)
			assert.LessOrEqual(t, f.FP8, 2*f.BF16*slack, "%s fp8 <= 2 bf16", a.ID)
		}
		if f.FP4 > 0 {
			require.Positive(t, f.FP8, a.ID)
			ratio := 2.0
			switch {
			case strings.Contains(a.Name, "GeForce"):
				ratio = 4
			case strings.Contains(a.Name, "B300") || strings.Contains(a.Name, "Blackwell Ultra"):
				ratio = 3
			}
			assert.GreaterOrEqual(t, f.FP4*slack, f.FP8, "%s fp4 >= fp8", a.ID)
			assert.LessOrEqual(t, f.FP4, ratio*f.FP8*slack, "%s fp4 <= %v fp8", a.ID, ratio)
		}
		if f.INT8 > 0 {
			assert.LessOrEqual(t, f.INT8, 4*f.BF16*slack, "%s int8 <= 4 bf16", a.ID)
		}
	}
}

// TestDatasheetSpotChecks compares entries with figures copied by hand from
// the datasheets named in each row (dense rates; the datasheet's sparse
// figure halved where it only gives that).
func TestDatasheetSpotChecks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id              string
		source          string
		memoryGiB       float64
		reportedGiB     float64 // 0: not checked
		bandwidthBPerS  float64
		bf16FLOPS       float64
		fp8FLOPS        float64 // 0: not checked
		fp4FLOPS        float64 // 0: not checked
		linkBytesPerS   float64
		linkNameContain string
	}{
		// NVIDIA H100 datasheet: 80GB HBM3, 3.35 TB/s, BF16 1979* TFLOPS
		// (sparse) = 989.4 dense (H100 whitepaper), FP8 3958* = 1978.9,
		// NVLink 900 GB/s bidirectional. Reported: vLLM 0.19 log, 79.19 GiB.
		{id: "h100-sxm-80gb", source: "H100 datasheet", memoryGiB: 80, reportedGiB: 79.19, bandwidthBPerS: 3.35e12, bf16FLOPS: 989.4e12, fp8FLOPS: 1978.9e12, linkBytesPerS: 450e9, linkNameContain: "NVLink 4"},
		// NVIDIA A100 datasheet: 80GB SXM 2,039 GB/s, BF16 312 TFLOPS
		// (624* sparse), NVLink 600 GB/s bidirectional.
		{id: "a100-sxm-80gb", source: "A100 datasheet", memoryGiB: 80, reportedGiB: 79.15, bandwidthBPerS: 2039e9, bf16FLOPS: 312e12, linkBytesPerS: 300e9, linkNameContain: "NVLink 3"},
		// A100 datasheet: 40GB PCIe 1,555 GB/s; PCIe Gen4 64 GB/s.
		{id: "a100-pcie-40gb", source: "A100 datasheet", memoryGiB: 40, bandwidthBPerS: 1555e9, bf16FLOPS: 312e12, linkBytesPerS: 32e9, linkNameContain: "PCIe 4.0"},
		// Ada whitepaper: RTX 4090 1008 GB/s, FP16 tensor with FP32
		// accumulate 165.2 TFLOPS dense, FP8 with FP32 accumulate 330.3.
		{id: "rtx-4090", source: "Ada whitepaper", memoryGiB: 24, bandwidthBPerS: 1008e9, bf16FLOPS: 165.2e12, fp8FLOPS: 330.3e12, linkBytesPerS: 32e9, linkNameContain: "PCIe 4.0"},
		// GA102 whitepaper: RTX 3090 936 GB/s, FP16 tensor with FP32
		// accumulate 71 TFLOPS dense. Reported: vLLM log, 23.58 GiB.
		{id: "rtx-3090", source: "GA102 whitepaper", memoryGiB: 24, reportedGiB: 23.58, bandwidthBPerS: 936e9, bf16FLOPS: 71e12, linkBytesPerS: 32e9, linkNameContain: "PCIe"},
		// AMD MI300X specifications: 192 GB HBM3, 5.3 TB/s, FP16 1307.4
		// TFLOPS dense (2614.9 with sparsity), FP8 2614.9.
		{id: "mi300x", source: "AMD MI300X spec page", memoryGiB: 192, reportedGiB: 191.98, bandwidthBPerS: 5.3e12, bf16FLOPS: 1307.4e12, fp8FLOPS: 2614.9e12, linkBytesPerS: 448e9, linkNameContain: "Infinity Fabric"},
		// NVIDIA H200 datasheet: 141GB HBM3e, 4.8 TB/s, same compute as H100 SXM.
		{id: "h200-sxm-141gb", source: "H200 datasheet", memoryGiB: 141, reportedGiB: 139.80, bandwidthBPerS: 4.8e12, bf16FLOPS: 989.4e12, fp8FLOPS: 1978.9e12, linkBytesPerS: 450e9, linkNameContain: "NVLink 4"},
		// HGX B200: 8 TB/s, FP4 18 PF sparse per GPU = 9 PF dense.
		{id: "b200", source: "HGX B200 datasheet", memoryGiB: 180, bandwidthBPerS: 8e12, bf16FLOPS: 2250e12, fp8FLOPS: 4500e12, fp4FLOPS: 9000e12, linkBytesPerS: 900e9, linkNameContain: "NVLink 5"},
		// GB200 NVL72: per superchip 10 PF BF16 sparse, 2 GPUs: 2.5 PF dense per GPU.
		{id: "gb200", source: "GB200 NVL72 spec page", memoryGiB: 186, bandwidthBPerS: 8e12, bf16FLOPS: 2500e12, fp8FLOPS: 5000e12, fp4FLOPS: 10000e12, linkBytesPerS: 900e9, linkNameContain: "NVLink 5"},
		// L40S datasheet: 864 GB/s, BF16 362.05 TFLOPS (733* sparse).
		{id: "l40s", source: "L40S datasheet", memoryGiB: 48, reportedGiB: 44.40, bandwidthBPerS: 864e9, bf16FLOPS: 362.05e12, fp8FLOPS: 733e12, linkBytesPerS: 32e9, linkNameContain: "PCIe 4.0"},
		// Cloud TPU v5e docs: 16 GB HBM2, 819 GBps, 197 TFLOPs bf16, ICI 400 GBps bidirectional.
		{id: "tpu-v5e", source: "Cloud TPU v5e docs", memoryGiB: 16, bandwidthBPerS: 819e9, bf16FLOPS: 197e12, linkBytesPerS: 200e9, linkNameContain: "ICI"},
		// Intel Gaudi 3 (Hot Chips 2024): 128 GB HBM2e, 3.67 TB/s, 1835 TFLOPS BF16 and FP8.
		{id: "gaudi-3", source: "Gaudi 3 white paper", memoryGiB: 128, bandwidthBPerS: 3.67e12, bf16FLOPS: 1835e12, fp8FLOPS: 1835e12, linkBytesPerS: 525e9, linkNameContain: "RoCE"},
		// Apple M4 Max: 128GB, 546GB/s; GPU working set 75 % = 96 GiB; single chip.
		{id: "m4-max", source: "Apple newsroom; llama.cpp Metal log", memoryGiB: 128, reportedGiB: 96, bandwidthBPerS: 546e9, bf16FLOPS: 16.2e12, linkBytesPerS: 0, linkNameContain: "none"},
		// Issue 15's parts. RTX PRO 6000 Blackwell Workstation: 96 GB
		// GDDR7, 1792 GB/s, 4000 AI TOPS (sparse FP4) = 2000 dense FP4,
		// 1000 FP8, 500 BF16; PCIe 5.0 x16 = 64 GB/s per direction.
		// Reported: PyTorch logs, 94.97 GiB.
		{id: "rtx-pro-6000-workstation", source: "RTX PRO 6000 spec page", memoryGiB: 96, reportedGiB: 94.97, bandwidthBPerS: 1792e9, bf16FLOPS: 500e12, fp8FLOPS: 1000e12, fp4FLOPS: 2000e12, linkBytesPerS: 64e9, linkNameContain: "PCIe 5.0"},
		// HGX B300 / 8: 8 TB/s, FP4 108 PF dense / 8 = 13.5 PF, FP8 72 PF
		// sparse / 8 / 2 = 4.5 PF, BF16 36 / 16 = 2.25 PF; NVLink 1.8 TB/s
		// bidirectional. Reported: vLLM log, 267.69 GiB.
		{id: "b300", source: "HGX B300 spec page", memoryGiB: 288, reportedGiB: 267.69, bandwidthBPerS: 8e12, bf16FLOPS: 2250e12, fp8FLOPS: 4500e12, fp4FLOPS: 13500e12, linkBytesPerS: 900e9, linkNameContain: "NVLink 5"},
		// DGX Spark: 128 GB, 273 GB/s, 1 PFLOP FP4 sparse = 500 TF dense;
		// ConnectX-7 200 Gb/s = 25 GB/s. Reported: vLLM log, 121.69 GiB.
		{id: "gb10", source: "DGX Spark spec page; vLLM log", memoryGiB: 128, reportedGiB: 121.69, bandwidthBPerS: 273e9, bf16FLOPS: 125e12, fp8FLOPS: 250e12, fp4FLOPS: 500e12, linkBytesPerS: 25e9, linkNameContain: "ConnectX-7"},
		// AMD MI350X: 288 GB, 8 TB/s, FP16 4613.7 sparse = 2306.9 dense,
		// FP8 4613.7, MXFP4 9227.5 dense; 7 xGMI links as MI355X.
		{id: "mi350x", source: "AMD MI350X spec page", memoryGiB: 288, bandwidthBPerS: 8e12, bf16FLOPS: 2306.9e12, fp8FLOPS: 4613.7e12, fp4FLOPS: 9227.5e12, linkBytesPerS: 537.6e9, linkNameContain: "Infinity Fabric"},
		// Cloud TPU7x: 192 GiB, 7.37 TB/s, 2307 BF16, 4614 FP8; ICI 1.2
		// TB/s bidirectional.
		{id: "tpu-v7", source: "Cloud TPU7x docs", memoryGiB: 192, bandwidthBPerS: 7.37e12, bf16FLOPS: 2307e12, fp8FLOPS: 4614e12, linkBytesPerS: 600e9, linkNameContain: "ICI"},
		// H800: H100 SXM compute and bandwidth, NVLink cut to 400 GB/s
		// bidirectional = 200 per direction.
		{id: "h800-sxm-80gb", source: "H800 product page", memoryGiB: 80, bandwidthBPerS: 3.35e12, bf16FLOPS: 989.4e12, fp8FLOPS: 1978.9e12, linkBytesPerS: 200e9, linkNameContain: "NVLink 4"},
		// RTX 5080: 84 SMs x 128 x 2 x 2.617 GHz = 56.28 TFLOPS FP32;
		// fp32-accumulate BF16 2x = 112.6; FP8 4x = 225.1; 1801 AI TOPS /
		// 2 = 900.5 FP4; 960 GB/s; PCIe 5.0.
		{id: "rtx-5080", source: "GeForce RTX 50 spec page", memoryGiB: 16, bandwidthBPerS: 960e9, bf16FLOPS: 112.6e12, fp8FLOPS: 225.1e12, fp4FLOPS: 900.5e12, linkBytesPerS: 64e9, linkNameContain: "PCIe 5.0"},
		// RTX A5000 datasheet: 24 GB, 768 GB/s, 222.2 TFLOPS tensor
		// (sparse) = 111.1 dense.
		{id: "rtx-a5000", source: "RTX A5000 datasheet", memoryGiB: 24, bandwidthBPerS: 768e9, bf16FLOPS: 111.1e12, linkBytesPerS: 32e9, linkNameContain: "PCIe 4.0"},
		// Apple M3 Ultra: 512GB, 819GB/s; working set 75 % = 384 GiB.
		{id: "m3-ultra", source: "Apple newsroom", memoryGiB: 512, reportedGiB: 384, bandwidthBPerS: 819e9, bf16FLOPS: 28.4e12, linkBytesPerS: 0, linkNameContain: "none"},
		// GH200 datasheet: 144GB HBM3e, 4.9 TB/s; BF16 1,979 TFLOPS and
		// FP8 3,958 with sparsity = 989.4 and 1978.9 dense (the H100
		// whitepaper's dense figures); NVLink 4, 900 GB/s bidirectional.
		{id: "gh200-144gb", source: "GH200 datasheet", memoryGiB: 144, bandwidthBPerS: 4.9e12, bf16FLOPS: 989.4e12, fp8FLOPS: 1978.9e12, linkBytesPerS: 450e9, linkNameContain: "NVLink 4"},
		// GH200 datasheet: 96GB HBM3, 4 TB/s; the same compute.
		{id: "gh200-96gb", source: "GH200 datasheet", memoryGiB: 96, bandwidthBPerS: 4e12, bf16FLOPS: 989.4e12, fp8FLOPS: 1978.9e12, linkBytesPerS: 450e9, linkNameContain: "NVLink 4"},
		// RTX 4070 SUPER: 7168 CUDA cores = 56 SMs at 2.48 GHz boost:
		// 56 x 128 x 2 x 2.48e9 = 35.55 TFLOPS FP32; BF16 (fp32 acc) 2x =
		// 71.1; FP8 4x = 142.2 (NVIDIA: 568 AI TOPS = sparse FP8 with fp16
		// accumulate = 2 x 2 x 142.2); 12GB GDDR6X at 504 GB/s; PCIe 4.0.
		{id: "rtx-4070-super", source: "GeForce RTX 40 spec page", memoryGiB: 12, bandwidthBPerS: 504e9, bf16FLOPS: 71.1e12, fp8FLOPS: 142.2e12, linkBytesPerS: 32e9, linkNameContain: "PCIe 4.0"},
		// RTX 4060 Ti 16GB: 288 GB/s; 34 SMs x 128 x 2 x 2.54e9 = 22.1
		// TFLOPS, BF16 44.2, FP8 88.4; its eight lanes: 16 GB/s.
		{id: "rtx-4060-ti-16gb", source: "GeForce RTX 40 spec page", memoryGiB: 16, bandwidthBPerS: 288e9, bf16FLOPS: 44.2e12, fp8FLOPS: 88.4e12, linkBytesPerS: 16e9, linkNameContain: "PCIe 4.0 x8"},
		// Apple M1 Max: 64GB, 400GB/s; 32 cores x 128 x 2 x 1.278 GHz =
		// 10.47 TFLOPS; working set 49152 MiB logged = 48 GiB (75 %).
		{id: "m1-max", source: "Apple newsroom; llama.cpp issue 1870", memoryGiB: 64, reportedGiB: 48, bandwidthBPerS: 400e9, bf16FLOPS: 10.5e12, linkBytesPerS: 0, linkNameContain: "none"},
		// Apple M1 (16GB): LPDDR4X-4266 on 128 bits, 68.25 GB/s; Apple's
		// 2.6 TFLOPS; working set 2/3 of 16 GiB (10922.67 MiB logged).
		{id: "m1", source: "Apple newsroom; llama-cpp-python issue 687", memoryGiB: 16, reportedGiB: 16.0 * 2 / 3, bandwidthBPerS: 68.25e9, bf16FLOPS: 2.6e12, linkBytesPerS: 0, linkNameContain: "none"},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			t.Parallel()
			a, err := hardware.Lookup(tt.id)
			require.NoError(t, err)
			assert.InEpsilon(t, tt.memoryGiB, a.MemoryBytes.GiB(), relTol, tt.source)
			if tt.reportedGiB > 0 {
				assert.InEpsilon(t, tt.reportedGiB, a.MemoryReportedBytes.GiB(), relTol, tt.source)
			}
			assert.InEpsilon(t, tt.bandwidthBPerS, a.MemoryBandwidthBytesPerS, relTol, tt.source)
			assert.InEpsilon(t, tt.bf16FLOPS, a.PeakFLOPS.BF16, relTol, tt.source)
			if tt.fp8FLOPS > 0 {
				assert.InEpsilon(t, tt.fp8FLOPS, a.PeakFLOPS.FP8, relTol, tt.source)
			}
			if tt.fp4FLOPS > 0 {
				assert.InEpsilon(t, tt.fp4FLOPS, a.PeakFLOPS.FP4, relTol, tt.source)
			}
			if tt.linkBytesPerS == 0 {
				assert.Zero(t, a.Interconnect.BandwidthBytesPerS)
				assert.Zero(t, a.Interconnect.LatencyS)
			} else {
				assert.InEpsilon(t, tt.linkBytesPerS, a.Interconnect.BandwidthBytesPerS, relTol, tt.source)
				assert.Positive(t, a.Interconnect.LatencyS)
			}
			assert.Contains(t, a.Interconnect.Name, tt.linkNameContain)
		})
	}
}

// TestAppleReportedMemoryIsMetalWorkingSet checks Metal's
// recommendedMaxWorkingSetSize rule on every Apple entry: 75 % of the
// unified memory on 64 GB+ machines, 2/3 below (llama.cpp logs 49152 MiB
// on 64 GB, 21845.34 on 32 GB, 10922.67 on 16 GB).
func TestAppleReportedMemoryIsMetalWorkingSet(t *testing.T) {
	t.Parallel()
	n := 0
	for _, a := range hardware.Catalog() {
		if a.Vendor != "Apple" {
			continue
		}
		n++
		want := 0.75
		if a.MemoryBytes < 64*hardware.GiB {
			want = 2.0 / 3
		}
		assert.InEpsilon(t, want, float64(a.MemoryReportedBytes/a.MemoryBytes), relTol, a.ID)
		assert.Zero(t, a.Interconnect.BandwidthBytesPerS, a.ID)
	}
	assert.Equal(t, 15, n)
	m1, err := hardware.Lookup("m1")
	require.NoError(t, err)
	assert.InEpsilon(t, 10922.67, m1.MemoryReportedBytes.GiB()*1024, 1e-6)
}

// TestGeForceUsesFP32AccumulateRate: consumer GeForce cards run fp16 with
// fp32 accumulate at half the fp16-accumulate rate, which equals twice the
// dense TF32 (= FP32) rate on Ampere, Ada and Blackwell GeForce.
func TestGeForceUsesFP32AccumulateRate(t *testing.T) {
	t.Parallel()
	for _, a := range hardware.Catalog() {
		if !strings.Contains(a.Name, "GeForce") {
			continue
		}
		assert.InEpsilon(t, 2*a.PeakFLOPS.FP32, a.PeakFLOPS.BF16, 0.01, a.ID)
	}
}

func TestIDsAreSortedByCatalogNotAlphabet(t *testing.T) {
	t.Parallel()
	ids := hardware.IDs()
	assert.False(t, slices.IsSorted(ids), "catalog order groups by vendor, not alphabet")
	assert.Equal(t, "t4", ids[0])
	assert.Equal(t, "m4", ids[len(ids)-1])
}

// TestUnifiedMemoryFigures checks the unified-memory rule's figures on
// the catalog: the GB10's free memory is the 101.3 GiB a headless DGX
// Spark showed at vLLM start-up (of 121.69 GiB; MiaAI-Lab issue 47); a
// unified-memory machine without a logged total reports the DGX Spark's
// fraction, 121.69/128 of nominal (Jetson AGX Thor: 128 GiB x 121.69/128
// = 121.69 GiB; Orin 64 GiB: 60.845 GiB), and has it all free (no figure
// is known); a discrete GPU has all its reported memory free.
func TestUnifiedMemoryFigures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id                string
		unified           bool
		reportedGiB, free float64
	}{
		{"gb10", true, 121.69, 101.3},
		{"jetson-agx-thor", true, 121.69, 121.69},
		{"jetson-agx-orin-64gb", true, 60.845, 60.845},
		{"ryzen-ai-max-395", true, 96, 96},
		{"m4-max", true, 96, 96},
		{"h100-sxm-80gb", false, 79.19, 79.19},
		{"l20", false, 48 * 79.19 / 80, 48 * 79.19 / 80},
	}
	for _, tt := range tests {
		a, err := hardware.Lookup(tt.id)
		require.NoError(t, err)
		assert.Equal(t, tt.unified, a.UnifiedMemory, tt.id)
		assert.InEpsilon(t, tt.reportedGiB, a.ReportedMemory().GiB(), relTol, tt.id)
		assert.InEpsilon(t, tt.free, a.FreeMemory().GiB(), relTol, tt.id)
	}
	// A free figure above the total is clipped to it (Validate refuses
	// such a custom accelerator; FreeMemory stays a part of the total).
	a := hardware.Accelerator{MemoryBytes: 64 * hardware.GiB, MemoryReportedBytes: 60 * hardware.GiB, MemoryFreeBytes: 62 * hardware.GiB}
	assert.InEpsilon(t, 60, a.FreeMemory().GiB(), relTol)
}

// A chip's FP32 peak is its SMs x FP32 cores per SM x 2 (a fused
// multiply-add) x boost clock. The SM counts and clocks the catalog gives
// are checked against the FP32 peaks it takes from the datasheets, with the
// cores per SM of each architecture's whitepaper: 64 on Volta, Turing and
// GA100 (A100), 128 on GA10x, Ada, Hopper and Blackwell. An AMD compute
// unit counts as an SM: 128 FP32 lanes per CU-cycle on CDNA 1-4 (the
// catalog's FP32 is the matrix rate, twice the 64-lane vector rate: MI300X
// 304 x 128 x 2 x 2.1e9 = 163.4 TFLOPS) and on RDNA 3 / 3.5 (64 lanes,
// dual issue: RX 7900 XTX 96 x 128 x 2 x 2.5e9 = 61.4 TFLOPS).
func TestSMCountsAndClocksGiveTheFP32Peak(t *testing.T) {
	t.Parallel()
	coresPerSM := map[string]float64{
		"v100-sxm2-32gb": 64, "t4": 64,
		"a100-pcie-40gb": 64, "a100-pcie-80gb": 64, "a100-sxm-40gb": 64, "a100-sxm-80gb": 64, "a800-sxm-80gb": 64,
	}
	n := 0
	for _, a := range hardware.Catalog() {
		if a.SMs == 0 && a.BoostClockHz == 0 {
			continue
		}
		n++
		require.Positive(t, a.SMs, a.ID)
		require.Positive(t, a.BoostClockHz, a.ID)
		cores, ok := coresPerSM[a.ID]
		if !ok {
			cores = 128
		}
		assert.InEpsilon(t, a.PeakFLOPS.FP32, float64(a.SMs)*cores*2*a.BoostClockHz, 0.03, a.ID)
		assert.InDelta(t, float64(a.SMs)*a.BoostClockHz, a.SMCyclesPerS(), 1, a.ID)
	}
	assert.GreaterOrEqual(t, n, 34)
}

// GeForce cards multiply fp16 with fp16 accumulate at twice the
// fp32-accumulate rate (GA102 whitepaper: RTX 3090 142 against 71 TFLOPS
// dense; Ada whitepaper: RTX 4090 330.3 against 165.2); datacenter and
// workstation parts have no separate figure.
func TestGeForceFP16AccumulateRate(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]float64{"rtx-3090": 142e12, "rtx-4090": 330.3e12} {
		a, err := hardware.Lookup(id)
		require.NoError(t, err)
		assert.InEpsilon(t, want, a.PeakFLOPS.FP16Acc, 0.005, id)
	}
	for _, id := range []string{"a100-sxm-80gb", "h100-sxm-80gb", "rtx-6000-ada", "l40s"} {
		a, err := hardware.Lookup(id)
		require.NoError(t, err)
		assert.Zero(t, a.PeakFLOPS.FP16Acc, id)
	}
}
