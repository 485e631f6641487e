package hardware_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/internal/fielderr"
)

// validCustom is a custom accelerator that passes Validate.
func validCustom() hardware.Accelerator {
	return hardware.Accelerator{
		Name:                     "My GPU",
		MemoryBytes:              48 * hardware.GiB,
		MemoryReportedBytes:      47 * hardware.GiB,
		MemoryBandwidthBytesPerS: 1e12,
		PeakFLOPS:                hardware.PeakFLOPS{FP32: 50e12, BF16: 200e12, FP8: 400e12},
		Interconnect:             hardware.Interconnect{Name: "PCIe 4.0 x16", BandwidthBytesPerS: 32e9, LatencyS: 20e-6},
	}
}

func TestValidateAcceptsCustomAndFillsID(t *testing.T) {
	t.Parallel()
	a := validCustom()
	require.NoError(t, a.Validate())
	assert.Equal(t, "custom", a.ID)
	assert.Equal(t, hardware.CustomID, a.ID)

	b := validCustom()
	b.ID = "my-gpu"
	b.Interconnect = hardware.Interconnect{} // a single chip: no link
	b.MemoryReportedBytes = 0                // unknown
	require.NoError(t, b.Validate())
	assert.Equal(t, "my-gpu", b.ID)
}

func TestValidateRejectsEachBadField(t *testing.T) {
	t.Parallel()
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name    string
		mutate  func(a *hardware.Accelerator)
		field   string
		message string
	}{
		{"memory zero", func(a *hardware.Accelerator) { a.MemoryBytes = 0 }, "memory_bytes", "must be greater than 0 (got 0)"},
		{"memory negative", func(a *hardware.Accelerator) { a.MemoryBytes = -1 }, "memory_bytes", "must not be negative (got -1)"},
		{"memory NaN", func(a *hardware.Accelerator) { a.MemoryBytes = hardware.Bytes(nan) }, "memory_bytes", "must be a finite number (got NaN)"},
		{"memory Inf", func(a *hardware.Accelerator) { a.MemoryBytes = hardware.Bytes(inf) }, "memory_bytes", "must be a finite number (got +Inf)"},
		{"memory above 10 TB", func(a *hardware.Accelerator) { a.MemoryBytes = 2e13 }, "memory_bytes", "must be at most 1e+13 (10 TB) (got 20000000000000)"},
		{"reported negative", func(a *hardware.Accelerator) { a.MemoryReportedBytes = -5 }, "memory_reported_bytes", "must not be negative (got -5)"},
		{"reported above memory", func(a *hardware.Accelerator) { a.MemoryReportedBytes = 49 * hardware.GiB }, "memory_reported_bytes", "must not exceed memory_bytes (51539607552) (got 52613349376)"},
		{"reported NaN", func(a *hardware.Accelerator) { a.MemoryReportedBytes = hardware.Bytes(nan) }, "memory_reported_bytes", "must be a finite number (got NaN)"},
		// Free memory is part of the reported total: 47.5 GiB free of 47 GiB
		// reported (47 x 2^30 = 50465865728 bytes) is refused; without a
		// reported total it is measured against memory_bytes.
		{"free above reported", func(a *hardware.Accelerator) { a.MemoryFreeBytes = 47.5 * hardware.GiB }, "memory_free_bytes", "must not exceed memory_reported_bytes (50465865728) (got 51002736640)"},
		{"free above memory", func(a *hardware.Accelerator) {
			a.MemoryReportedBytes = 0
			a.MemoryFreeBytes = 49 * hardware.GiB
		}, "memory_free_bytes", "must not exceed memory_bytes (51539607552) (got 52613349376)"},
		{"free negative", func(a *hardware.Accelerator) { a.MemoryFreeBytes = -1 }, "memory_free_bytes", "must not be negative (got -1)"},
		{"free below 1 MiB", func(a *hardware.Accelerator) { a.MemoryFreeBytes = 1000 }, "memory_free_bytes", "must be at least 1048576 bytes (1 MiB), got 1000"},
		{"bandwidth zero", func(a *hardware.Accelerator) { a.MemoryBandwidthBytesPerS = 0 }, "memory_bandwidth_bytes_per_s", "must be greater than 0 (got 0)"},
		{"bandwidth fraction", func(a *hardware.Accelerator) { a.MemoryBandwidthBytesPerS = -0.5 }, "memory_bandwidth_bytes_per_s", "must not be negative (got -0.5)"},
		{"bandwidth -Inf", func(a *hardware.Accelerator) { a.MemoryBandwidthBytesPerS = math.Inf(-1) }, "memory_bandwidth_bytes_per_s", "must be a finite number (got -Inf)"},
		{"fp32 negative", func(a *hardware.Accelerator) { a.PeakFLOPS.FP32 = -1 }, "peak_flops.fp32", "must not be negative (got -1)"},
		{"tf32 NaN", func(a *hardware.Accelerator) { a.PeakFLOPS.TF32 = nan }, "peak_flops.tf32", "must be a finite number (got NaN)"},
		{"bf16 zero", func(a *hardware.Accelerator) { a.PeakFLOPS.BF16 = 0 }, "peak_flops.bf16", "must be greater than 0: every other precision falls back to it (got 0)"},
		{"bf16 Inf", func(a *hardware.Accelerator) { a.PeakFLOPS.BF16 = inf }, "peak_flops.bf16", "must be a finite number (got +Inf)"},
		{"fp8 negative", func(a *hardware.Accelerator) { a.PeakFLOPS.FP8 = -2 }, "peak_flops.fp8", "must not be negative (got -2)"},
		{"int8 NaN", func(a *hardware.Accelerator) { a.PeakFLOPS.INT8 = nan }, "peak_flops.int8", "must be a finite number (got NaN)"},
		{"fp4 negative", func(a *hardware.Accelerator) { a.PeakFLOPS.FP4 = -3 }, "peak_flops.fp4", "must not be negative (got -3)"},
		{"fp16_acc negative", func(a *hardware.Accelerator) { a.PeakFLOPS.FP16Acc = -3 }, "peak_flops.fp16_acc", "must not be negative (got -3)"},
		{"link bandwidth negative", func(a *hardware.Accelerator) { a.Interconnect.BandwidthBytesPerS = -1 }, "interconnect.bandwidth_bytes_per_s", "must not be negative (got -1)"},
		{"link latency NaN", func(a *hardware.Accelerator) { a.Interconnect.LatencyS = nan }, "interconnect.latency_s", "must be a finite number (got NaN)"},
		{"sms negative", func(a *hardware.Accelerator) { a.SMs = -4 }, "sms", "must not be negative (got -4)"},
		{"sms too many", func(a *hardware.Accelerator) { a.SMs = 1 << 30 }, "sms", "must be at most 100000, got 1073741824"},
		{"nvlink domain too large", func(a *hardware.Accelerator) { a.NVLinkDomainGPUs = 1000 }, "nvlink_domain_gpus", "must be at most 576, got 1000"},
		{"nvlink domain negative", func(a *hardware.Accelerator) { a.NVLinkDomainGPUs = -1 }, "nvlink_domain_gpus", "must not be negative (got -1)"},
		{"clock NaN", func(a *hardware.Accelerator) { a.BoostClockHz = nan }, "boost_clock_hz", "must be a finite number (got NaN)"},
		{"clock in GHz", func(a *hardware.Accelerator) { a.BoostClockHz = 1.98 }, "boost_clock_hz", "must be at least 1e6 Hz (1 MHz), got 1.98"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := validCustom()
			tt.mutate(&a)
			want := fielderr.Errors{{Field: tt.field, Message: tt.message}}
			assert.Equal(t, want, a.Problems())

			err := a.Validate()
			require.Error(t, err)
			assert.EqualError(t, err, tt.field+": "+tt.message)
			assert.ErrorIs(t, err, hardware.ErrInvalid)
			var fe fielderr.Errors
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, want, fe)
		})
	}
}

func TestProblemsListsEveryFieldInOrder(t *testing.T) {
	t.Parallel()
	a := hardware.Accelerator{
		MemoryBytes:              0,
		MemoryBandwidthBytesPerS: math.NaN(),
		PeakFLOPS:                hardware.PeakFLOPS{FP8: -1},
		Interconnect:             hardware.Interconnect{LatencyS: -1},
	}
	var fields []string
	for _, p := range a.Problems() {
		fields = append(fields, p.Field)
	}
	assert.Equal(t, []string{
		"memory_bytes",
		"memory_bandwidth_bytes_per_s",
		"peak_flops.bf16",
		"peak_flops.fp8",
		"interconnect.latency_s",
	}, fields)
	// Validate returns every problem, as Problems lists them.
	assert.Equal(t, a.Problems(), a.Validate())
}

func TestPeakFLOPSForFallbacks(t *testing.T) {
	t.Parallel()
	full := hardware.PeakFLOPS{FP32: 1, TF32: 2, BF16: 3, FP8: 4, INT8: 5, FP4: 6}
	bf16Only := hardware.PeakFLOPS{BF16: 3}
	noFP8 := hardware.PeakFLOPS{FP32: 1, BF16: 3, INT8: 5}
	tests := []struct {
		name  string
		peak  hardware.PeakFLOPS
		prec  hardware.Precision
		wantS float64
	}{
		{"native fp4", full, hardware.FP4, 6},
		{"native fp8", full, hardware.FP8, 4},
		{"native int8", full, hardware.INT8, 5},
		{"native tf32", full, hardware.TF32, 2},
		{"native fp32", full, hardware.FP32, 1},
		{"native bf16", full, hardware.BF16, 3},
		{"fp4 falls to fp8 to bf16", noFP8, hardware.FP4, 3},
		{"fp8 falls to bf16", noFP8, hardware.FP8, 3},
		{"tf32 falls to fp32", noFP8, hardware.TF32, 1},
		{"int8 falls to bf16", bf16Only, hardware.INT8, 3},
		{"tf32 falls to fp32 to bf16", bf16Only, hardware.TF32, 3},
		{"fp32 falls to bf16", bf16Only, hardware.FP32, 3},
		{"unknown precision is bf16", full, hardware.Precision("fp6"), 3},
		{"nothing known is 0", hardware.PeakFLOPS{}, hardware.FP8, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.wantS, tt.peak.For(tt.prec))
		})
	}
}

func TestCatalogPeakFLOPSFor(t *testing.T) {
	t.Parallel()
	// T4 (Turing): no fp8 or tf32 units; fp8 runs at the fp16 tensor rate
	// (65 TFLOPS), tf32 at the fp32 CUDA-core rate (8.1 TFLOPS).
	t4, err := hardware.Lookup("t4")
	require.NoError(t, err)
	assert.Equal(t, 65e12, t4.PeakFLOPS.For(hardware.FP8))
	assert.Equal(t, 65e12, t4.PeakFLOPS.For(hardware.FP4))
	assert.InEpsilon(t, 8.1e12, t4.PeakFLOPS.For(hardware.TF32), relTol)
	// H100: fp4 falls back to its native fp8.
	h100, err := hardware.Lookup("h100")
	require.NoError(t, err)
	assert.InEpsilon(t, 1978.9e12, h100.PeakFLOPS.For(hardware.FP4), relTol)
}

func TestReportedMemory(t *testing.T) {
	t.Parallel()
	h100, err := hardware.Lookup("h100-sxm-80gb")
	require.NoError(t, err)
	assert.InEpsilon(t, 79.19, h100.ReportedMemory().GiB(), relTol, "logged figure")

	l40, err := hardware.Lookup("l40")
	require.NoError(t, err)
	require.Zero(t, l40.MemoryReportedBytes, "no logged figure for the L40")
	assert.InEpsilon(t, 48*79.19/80, l40.ReportedMemory().GiB(), relTol, "H100 ratio fallback")
}

// TestValidateRejectsTinyFigures: figures far below any real chip are
// refused with their unit (issue 16, point 2: 1e-300 gave +Inf reports).
func TestValidateRejectsTinyFigures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		edit func(*hardware.Accelerator)
		want fielderr.Error
	}{
		{func(a *hardware.Accelerator) { a.MemoryBandwidthBytesPerS = 1e-300 },
			fielderr.Error{Field: "memory_bandwidth_bytes_per_s", Message: "must be at least 1e9 bytes/s (1 GB/s), got 1e-300"}},
		{func(a *hardware.Accelerator) { a.MemoryBandwidthBytesPerS = 1e300 },
			fielderr.Error{Field: "memory_bandwidth_bytes_per_s", Message: "must be at most 1e18 bytes/s (1 EB/s), got 1e+300"}},
		{func(a *hardware.Accelerator) { a.PeakFLOPS.BF16 = 1e-300 },
			fielderr.Error{Field: "peak_flops.bf16", Message: "must be at least 1e9 FLOP/s (1 GFLOP/s), got 1e-300"}},
		{func(a *hardware.Accelerator) { a.PeakFLOPS.FP8 = 5e-324 },
			fielderr.Error{Field: "peak_flops.fp8", Message: "must be at least 1e9 FLOP/s (1 GFLOP/s), got 5e-324"}},
		{func(a *hardware.Accelerator) { a.PeakFLOPS.FP4 = 1e30 },
			fielderr.Error{Field: "peak_flops.fp4", Message: "must be at most 1e18 FLOP/s (1 EFLOP/s), got 1e+30"}},
		{func(a *hardware.Accelerator) { a.Interconnect.BandwidthBytesPerS = 1e-300 },
			fielderr.Error{Field: "interconnect.bandwidth_bytes_per_s", Message: "must be at least 1e6 bytes/s (1 MB/s), got 1e-300"}},
		{func(a *hardware.Accelerator) { a.Interconnect.LatencyS = 1e300 },
			fielderr.Error{Field: "interconnect.latency_s", Message: "must be at most 1 s, got 1e+300"}},
		{func(a *hardware.Accelerator) { a.MemoryBytes = 1000; a.MemoryReportedBytes = 0 },
			fielderr.Error{Field: "memory_bytes", Message: "must be at least 1048576 bytes (1 MiB), got 1000"}},
		{func(a *hardware.Accelerator) { a.MemoryReportedBytes = 1 },
			fielderr.Error{Field: "memory_reported_bytes", Message: "must be at least 1048576 bytes (1 MiB), got 1"}},
	}
	for _, tc := range tests {
		a := validCustom()
		tc.edit(&a)
		err := a.Validate()
		var list fielderr.Errors
		require.ErrorAs(t, err, &list, tc.want.Field)
		assert.Equal(t, fielderr.Errors{tc.want}, list)
	}
	// The floors themselves are accepted.
	a := validCustom()
	a.MemoryBytes, a.MemoryReportedBytes = hardware.MinMemoryBytes, 0
	a.MemoryBandwidthBytesPerS = hardware.MinMemoryBandwidth
	a.PeakFLOPS = hardware.PeakFLOPS{BF16: hardware.MinPeakFLOPS, FP4: hardware.MaxRate}
	a.Interconnect = hardware.Interconnect{BandwidthBytesPerS: hardware.MinInterconnectBandwidth, LatencyS: hardware.MaxInterconnectLatency}
	assert.NoError(t, a.Validate())
}
