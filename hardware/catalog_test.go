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
	}
	ids := hardware.IDs()
	for _, id := range required {
		assert.Contains(t, ids, id)
	}
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
			if a.Interconnect.LatencyS > 0 {
				want = append(want, "interconnect.latency_s")
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
// rate, so FP4 may reach four times FP8.
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
			if strings.Contains(a.Name, "GeForce") {
				ratio = 4
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

// TestAppleReportedMemoryIsMetalWorkingSet checks the 75 % rule on every
// Apple entry (recommendedMaxWorkingSetSize on 64 GB+ machines).
func TestAppleReportedMemoryIsMetalWorkingSet(t *testing.T) {
	t.Parallel()
	n := 0
	for _, a := range hardware.Catalog() {
		if a.Vendor != "Apple" {
			continue
		}
		n++
		assert.InEpsilon(t, 0.75, float64(a.MemoryReportedBytes/a.MemoryBytes), relTol, a.ID)
		assert.Zero(t, a.Interconnect.BandwidthBytesPerS, a.ID)
	}
	assert.Equal(t, 3, n)
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
	assert.Equal(t, "m4-max", ids[len(ids)-1])
}
