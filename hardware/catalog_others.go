package hardware

// Intel Gaudi, Google TPU and Apple silicon.

var intel = []Accelerator{
	{
		ID:                       "gaudi-3",
		Name:                     "Intel Gaudi 3 128GB",
		Vendor:                   "Intel",
		Aliases:                  []string{"Gaudi3", "HL-325L"},
		MemoryBytes:              128 * GiB,
		MemoryBandwidthBytesPerS: 3.67 * tbPerS,
		// MME matrix engines: 1835 TFLOPS BF16 and FP8 (no sparsity).
		// Intel quotes no INT8, TF32 or FP32 matrix figure: they fall
		// back to the BF16 rate.
		PeakFLOPS: PeakFLOPS{BF16: 1835 * teraFLOPS, FP8: 1835 * teraFLOPS},
		// 24 on-die 200 GbE RoCE ports; an 8-card server wires 21 of them
		// all-to-all (3 per peer): 21 x 25 GB/s = 525 GB/s per direction.
		Interconnect: Interconnect{Name: "RoCE v2 (21x 200 GbE scale-up)", BandwidthBytesPerS: 525 * gbPerS, LatencyS: AllReduceLatencyRoCES},
		Sources:      []Source{{Fields: datasheet, Citation: citeGaudi3}, {Fields: latencyFields, Citation: citeLatencyRoCE}},
	},
}

var google = []Accelerator{
	{
		ID:                       "tpu-v5e",
		Name:                     "Google Cloud TPU v5e",
		Vendor:                   "Google",
		Aliases:                  []string{"v5e", "TPU v5 lite", "v5litepod"},
		MemoryBytes:              16 * GiB,
		MemoryBandwidthBytesPerS: 819 * gbPerS,
		PeakFLOPS:                PeakFLOPS{BF16: 197 * teraFLOPS, INT8: 393 * teraFLOPS},
		// ICI: 400 GB/s bidirectional per chip over 4 ports (2D torus).
		Interconnect: Interconnect{Name: "ICI (2D torus, 4 ports)", BandwidthBytesPerS: 200 * gbPerS, LatencyS: AllReduceLatencyICIS},
		Sources:      []Source{{Fields: datasheet, Citation: citeTPUv5e}, {Fields: latencyFields, Citation: citeLatencyICI}},
	},
	{
		ID:                       "tpu-v6e",
		Name:                     "Google Cloud TPU v6e (Trillium)",
		Vendor:                   "Google",
		Aliases:                  []string{"v6e", "Trillium"},
		MemoryBytes:              32 * GiB,
		MemoryBandwidthBytesPerS: 1638 * gbPerS,
		PeakFLOPS:                PeakFLOPS{BF16: 918 * teraFLOPS, INT8: 1836 * teraFLOPS},
		// ICI: 800 GB/s bidirectional per chip over 4 ports (2D torus).
		Interconnect: Interconnect{Name: "ICI (2D torus, 4 ports)", BandwidthBytesPerS: 400 * gbPerS, LatencyS: AllReduceLatencyICIS},
		Sources:      []Source{{Fields: datasheet, Citation: citeTPUv6e}, {Fields: latencyFields, Citation: citeLatencyICI}},
	},
}

// Apple silicon entries describe the largest configuration of each chip
// (most GPU cores and memory). The GPU may wire only
// recommendedMaxWorkingSetSize of the unified memory, 75 % on machines with
// 64 GB or more (sysctl iogpu.wired_limit_mb can raise it): that is
// MemoryReportedBytes. The memory is the system's (UnifiedMemory). No
// interconnect: one chip per machine.
var apple = []Accelerator{
	{
		ID:                       "m2-ultra",
		Name:                     "Apple M2 Ultra 192GB (76-core GPU)",
		Vendor:                   "Apple",
		UnifiedMemory:            true,
		MemoryBytes:              192 * GiB,
		MemoryReportedBytes:      144 * GiB,
		MemoryBandwidthBytesPerS: 800 * gbPerS,
		// 76 cores x 128 ALUs x 2 x 1.398 GHz.
		PeakFLOPS:    PeakFLOPS{FP32: 27.2 * teraFLOPS, BF16: 27.2 * teraFLOPS},
		Interconnect: noInterconnect,
		Sources:      []Source{{Fields: []string{fieldMemory, fieldBandwidth, fieldInterconnect}, Citation: citeM2Ultra}, {Fields: []string{fieldPeakFLOPS}, Citation: citeAppleGPU}, {Fields: []string{fieldReported}, Citation: citeMetalWSet}},
	},
	{
		ID:                       "m3-max",
		Name:                     "Apple M3 Max 128GB (40-core GPU)",
		Vendor:                   "Apple",
		UnifiedMemory:            true,
		MemoryBytes:              128 * GiB,
		MemoryReportedBytes:      96 * GiB,
		MemoryBandwidthBytesPerS: 400 * gbPerS,
		// 40 cores x 128 ALUs x 2 x about 1.38 GHz.
		PeakFLOPS:    PeakFLOPS{FP32: 14.2 * teraFLOPS, BF16: 14.2 * teraFLOPS},
		Interconnect: noInterconnect,
		Sources:      []Source{{Fields: []string{fieldMemory, fieldBandwidth, fieldInterconnect}, Citation: citeM3Max}, {Fields: []string{fieldPeakFLOPS}, Citation: citeAppleGPU}, {Fields: []string{fieldReported}, Citation: citeMetalWSet}},
	},
	{
		ID:                       "m3-ultra",
		Name:                     "Apple M3 Ultra 512GB (80-core GPU)",
		Vendor:                   "Apple",
		UnifiedMemory:            true,
		MemoryBytes:              512 * GiB,
		MemoryReportedBytes:      384 * GiB,
		MemoryBandwidthBytesPerS: 819 * gbPerS,
		// Two M3 Max dies: 80 cores x 128 ALUs x 2 x about 1.38 GHz.
		PeakFLOPS:    PeakFLOPS{FP32: 28.4 * teraFLOPS, BF16: 28.4 * teraFLOPS},
		Interconnect: noInterconnect,
		Sources:      []Source{{Fields: []string{fieldMemory, fieldBandwidth, fieldInterconnect}, Citation: citeM3Ultra}, {Fields: []string{fieldPeakFLOPS}, Citation: citeAppleGPU}, {Fields: []string{fieldReported}, Citation: citeMetalWSet}},
	},
	{
		ID:                       "m4-pro",
		Name:                     "Apple M4 Pro 64GB (20-core GPU)",
		Vendor:                   "Apple",
		UnifiedMemory:            true,
		MemoryBytes:              64 * GiB,
		MemoryReportedBytes:      48 * GiB,
		MemoryBandwidthBytesPerS: 273 * gbPerS,
		// 20 cores x 128 ALUs x 2 x about 1.58 GHz.
		PeakFLOPS:    PeakFLOPS{FP32: 8.1 * teraFLOPS, BF16: 8.1 * teraFLOPS},
		Interconnect: noInterconnect,
		Sources:      []Source{{Fields: []string{fieldMemory, fieldBandwidth, fieldInterconnect}, Citation: citeM4Max}, {Fields: []string{fieldPeakFLOPS}, Citation: citeAppleGPU}, {Fields: []string{fieldReported}, Citation: citeMetalWSet}},
	},
	{
		ID:                       "m4-max",
		Name:                     "Apple M4 Max 128GB (40-core GPU)",
		Vendor:                   "Apple",
		UnifiedMemory:            true,
		MemoryBytes:              128 * GiB,
		MemoryReportedBytes:      96 * GiB,
		MemoryBandwidthBytesPerS: 546 * gbPerS,
		// 40 cores x 128 ALUs x 2 x about 1.58 GHz.
		PeakFLOPS:    PeakFLOPS{FP32: 16.2 * teraFLOPS, BF16: 16.2 * teraFLOPS},
		Interconnect: noInterconnect,
		Sources:      []Source{{Fields: []string{fieldMemory, fieldBandwidth, fieldInterconnect}, Citation: citeM4Max}, {Fields: []string{fieldPeakFLOPS}, Citation: citeAppleGPU}, {Fields: []string{fieldReported}, Citation: citeMetalWSet}},
	},
}
