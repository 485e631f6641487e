package hardware

// Parts users asked for that the issue 15 lists lacked: the Grace Hopper
// superchip, the GeForce RTX 40 cards below the 4070 Ti and the 4080 Super,
// two more GeForce RTX 30 cards, and the Apple silicon chips below the
// largest of each generation.

// nvidiaGH200 is the GPU of the GH200 superchip: an H100 SXM's compute
// with more and faster HBM; the Grace CPU's LPDDR5X behind NVLink-C2C is
// not the GPU's memory for an engine (vLLM sizes the KV cache in HBM).
var nvidiaGH200 = []Accelerator{
	{
		ID: "gh200-96gb", Name: "NVIDIA GH200 Grace Hopper Superchip 96GB (HBM3)", Vendor: "NVIDIA",
		// nvidia-smi names this part "NVIDIA GH200 480GB", after the
		// superchip's LPDDR5X, and reports about 96 GiB.
		Aliases:     []string{"GH200 96GB", "GH200 480GB"},
		MemoryBytes: 96 * GiB, MemoryBandwidthBytesPerS: 4 * tbPerS,
		PeakFLOPS: hopperSXMFLOPS,
		// GPU-to-GPU: 18 NVLink 4 links, 900 GB/s bidirectional (NVL32
		// and the 2- and 4-superchip nodes), as the H100 SXM.
		Interconnect: nvlink4,
		SMs:          132, BoostClockHz: 1.98 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeGH200}, {Fields: latencyFields, Citation: citeLatencyNVLink}, {Fields: smFields, Citation: citeSMH100}},
	},
	{
		ID: "gh200-144gb", Name: "NVIDIA GH200 Grace Hopper Superchip 144GB (HBM3e)", Vendor: "NVIDIA",
		Aliases:     []string{"GH200 144GB"},
		MemoryBytes: 144 * GiB, MemoryBandwidthBytesPerS: 4.9 * tbPerS,
		PeakFLOPS:    hopperSXMFLOPS,
		Interconnect: nvlink4,
		SMs:          132, BoostClockHz: 1.98 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeGH200}, {Fields: latencyFields, Citation: citeLatencyNVLink}, {Fields: smFields, Citation: citeSMH100}},
	},
}

// nvidiaGeForceMore: rates as the citations derive them, rounded to 0.1
// TFLOPS (NVIDIA's listed boost clocks).
var nvidiaGeForceMore = []Accelerator{
	{
		// 38 SMs (4864 cores) at 1.67 GHz: 16.25 TFLOPS FP32.
		ID: "rtx-3060-ti", Name: "NVIDIA GeForce RTX 3060 Ti 8GB", Vendor: "NVIDIA",
		MemoryBytes: 8 * GiB, MemoryBandwidthBytesPerS: 448 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 16.2 * teraFLOPS, TF32: 16.2 * teraFLOPS, BF16: 32.5 * teraFLOPS, INT8: 130 * teraFLOPS},
		Interconnect: pcie4x16,
		Sources:      []Source{{Fields: datasheet, Citation: citeAmpere30}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		// 48 SMs (6144 cores) at 1.77 GHz: 21.75 TFLOPS FP32; 608 GB/s
		// GDDR6X.
		ID: "rtx-3070-ti", Name: "NVIDIA GeForce RTX 3070 Ti 8GB", Vendor: "NVIDIA",
		MemoryBytes: 8 * GiB, MemoryBandwidthBytesPerS: 608 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 21.7 * teraFLOPS, TF32: 21.7 * teraFLOPS, BF16: 43.5 * teraFLOPS, INT8: 174 * teraFLOPS},
		Interconnect: pcie4x16,
		Sources:      []Source{{Fields: datasheet, Citation: citeAmpere30}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		// 34 SMs (4352 cores) at 2.54 GHz: 22.11 TFLOPS FP32; 288 GB/s
		// on a 128-bit bus; the card has eight PCIe lanes.
		ID: "rtx-4060-ti-16gb", Name: "NVIDIA GeForce RTX 4060 Ti 16GB", Vendor: "NVIDIA",
		MemoryBytes: 16 * GiB, MemoryBandwidthBytesPerS: 288 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 22.1 * teraFLOPS, TF32: 22.1 * teraFLOPS, BF16: 44.2 * teraFLOPS, FP8: 88.4 * teraFLOPS, INT8: 176.9 * teraFLOPS},
		Interconnect: pcie4x8,
		Sources:      []Source{{Fields: datasheet, Citation: citeAda40}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		// 46 SMs (5888 cores) at 2.48 GHz: 29.20 TFLOPS FP32.
		ID: "rtx-4070", Name: "NVIDIA GeForce RTX 4070 12GB", Vendor: "NVIDIA",
		MemoryBytes: 12 * GiB, MemoryBandwidthBytesPerS: 504 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 29.2 * teraFLOPS, TF32: 29.2 * teraFLOPS, BF16: 58.4 * teraFLOPS, FP8: 116.8 * teraFLOPS, INT8: 233.6 * teraFLOPS},
		Interconnect: pcie4x16,
		Sources:      []Source{{Fields: datasheet, Citation: citeAda40}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		// 56 SMs (7168 cores) at 2.48 GHz: 35.55 TFLOPS FP32.
		ID: "rtx-4070-super", Name: "NVIDIA GeForce RTX 4070 SUPER 12GB", Vendor: "NVIDIA",
		MemoryBytes: 12 * GiB, MemoryBandwidthBytesPerS: 504 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 35.5 * teraFLOPS, TF32: 35.5 * teraFLOPS, BF16: 71.1 * teraFLOPS, FP8: 142.2 * teraFLOPS, INT8: 284.4 * teraFLOPS},
		Interconnect: pcie4x16,
		Sources:      []Source{{Fields: datasheet, Citation: citeAda40}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		// 80 SMs (10240 cores) at 2.55 GHz: 52.22 TFLOPS FP32; 23 Gbps
		// GDDR6X on 256 bits = 736 GB/s.
		ID: "rtx-4080-super", Name: "NVIDIA GeForce RTX 4080 SUPER 16GB", Vendor: "NVIDIA",
		MemoryBytes: 16 * GiB, MemoryBandwidthBytesPerS: 736 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 52.2 * teraFLOPS, TF32: 52.2 * teraFLOPS, BF16: 104.4 * teraFLOPS, FP8: 208.9 * teraFLOPS, INT8: 417.8 * teraFLOPS},
		Interconnect: pcie4x16,
		Sources:      []Source{{Fields: datasheet, Citation: citeAda40}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
}

// appleMore are the other Apple chips, each in its largest memory
// configuration and most GPU cores, as the apple list. FP32 = GPU cores x
// 128 ALUs x 2 x GPU clock (citeAppleGPU): 1.278 GHz on M1 (8 cores: 2.6
// TFLOPS, Apple's own figure), 1.398 GHz on M2, about 1.38 GHz on M3 and
// 1.58 GHz on M4, the clocks of the apple list. MemoryReportedBytes is
// Metal's working set: 75 % from 64 GB, 2/3 below.
var appleMore = []Accelerator{
	{
		ID: "m1", Name: "Apple M1 16GB (8-core GPU)", Vendor: "Apple", UnifiedMemory: true,
		MemoryBytes: 16 * GiB, MemoryReportedBytes: 16 * GiB * 2 / 3, MemoryBandwidthBytesPerS: 68.25 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 2.6 * teraFLOPS, BF16: 2.6 * teraFLOPS},
		Interconnect: noInterconnect,
		Sources:      []Source{{Fields: []string{fieldMemory, fieldBandwidth, fieldInterconnect}, Citation: citeM1}, {Fields: []string{fieldPeakFLOPS}, Citation: citeAppleGPU}, {Fields: []string{fieldReported}, Citation: citeMetalWSetSmall}},
	},
	{
		ID: "m1-pro", Name: "Apple M1 Pro 32GB (16-core GPU)", Vendor: "Apple", UnifiedMemory: true,
		MemoryBytes: 32 * GiB, MemoryReportedBytes: 32 * GiB * 2 / 3, MemoryBandwidthBytesPerS: 200 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 5.2 * teraFLOPS, BF16: 5.2 * teraFLOPS},
		Interconnect: noInterconnect,
		Sources:      []Source{{Fields: []string{fieldMemory, fieldBandwidth, fieldInterconnect}, Citation: citeM1Pro}, {Fields: []string{fieldPeakFLOPS}, Citation: citeAppleGPU}, {Fields: []string{fieldReported}, Citation: citeMetalWSetSmall}},
	},
	{
		ID: "m1-max", Name: "Apple M1 Max 64GB (32-core GPU)", Vendor: "Apple", UnifiedMemory: true,
		MemoryBytes: 64 * GiB, MemoryReportedBytes: 48 * GiB, MemoryBandwidthBytesPerS: 400 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 10.5 * teraFLOPS, BF16: 10.5 * teraFLOPS},
		Interconnect: noInterconnect,
		Sources:      []Source{{Fields: []string{fieldMemory, fieldBandwidth, fieldInterconnect}, Citation: citeM1Pro}, {Fields: []string{fieldPeakFLOPS}, Citation: citeAppleGPU}, {Fields: []string{fieldReported}, Citation: citeMetalWSetSmall}},
	},
	{
		ID: "m1-ultra", Name: "Apple M1 Ultra 128GB (64-core GPU)", Vendor: "Apple", UnifiedMemory: true,
		MemoryBytes: 128 * GiB, MemoryReportedBytes: 96 * GiB, MemoryBandwidthBytesPerS: 800 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 20.9 * teraFLOPS, BF16: 20.9 * teraFLOPS},
		Interconnect: noInterconnect,
		Sources:      []Source{{Fields: []string{fieldMemory, fieldBandwidth, fieldInterconnect}, Citation: citeM1Ultra}, {Fields: []string{fieldPeakFLOPS}, Citation: citeAppleGPU}, {Fields: []string{fieldReported}, Citation: citeMetalWSet}},
	},
	{
		ID: "m2", Name: "Apple M2 24GB (10-core GPU)", Vendor: "Apple", UnifiedMemory: true,
		MemoryBytes: 24 * GiB, MemoryReportedBytes: 16 * GiB, MemoryBandwidthBytesPerS: 100 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 3.6 * teraFLOPS, BF16: 3.6 * teraFLOPS},
		Interconnect: noInterconnect,
		Sources:      []Source{{Fields: []string{fieldMemory, fieldBandwidth, fieldInterconnect}, Citation: citeM2}, {Fields: []string{fieldPeakFLOPS}, Citation: citeAppleGPU}, {Fields: []string{fieldReported}, Citation: citeMetalWSetSmall}},
	},
	{
		ID: "m2-pro", Name: "Apple M2 Pro 32GB (19-core GPU)", Vendor: "Apple", UnifiedMemory: true,
		MemoryBytes: 32 * GiB, MemoryReportedBytes: 32 * GiB * 2 / 3, MemoryBandwidthBytesPerS: 200 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 6.8 * teraFLOPS, BF16: 6.8 * teraFLOPS},
		Interconnect: noInterconnect,
		Sources:      []Source{{Fields: []string{fieldMemory, fieldBandwidth, fieldInterconnect}, Citation: citeM2Pro}, {Fields: []string{fieldPeakFLOPS}, Citation: citeAppleGPU}, {Fields: []string{fieldReported}, Citation: citeMetalWSetSmall}},
	},
	{
		ID: "m2-max", Name: "Apple M2 Max 96GB (38-core GPU)", Vendor: "Apple", UnifiedMemory: true,
		MemoryBytes: 96 * GiB, MemoryReportedBytes: 72 * GiB, MemoryBandwidthBytesPerS: 400 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 13.6 * teraFLOPS, BF16: 13.6 * teraFLOPS},
		Interconnect: noInterconnect,
		Sources:      []Source{{Fields: []string{fieldMemory, fieldBandwidth, fieldInterconnect}, Citation: citeM2Pro}, {Fields: []string{fieldPeakFLOPS}, Citation: citeAppleGPU}, {Fields: []string{fieldReported}, Citation: citeMetalWSet}},
	},
	{
		ID: "m3", Name: "Apple M3 24GB (10-core GPU)", Vendor: "Apple", UnifiedMemory: true,
		MemoryBytes: 24 * GiB, MemoryReportedBytes: 16 * GiB, MemoryBandwidthBytesPerS: 100 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 3.5 * teraFLOPS, BF16: 3.5 * teraFLOPS},
		Interconnect: noInterconnect,
		Sources:      []Source{{Fields: []string{fieldMemory, fieldBandwidth, fieldInterconnect}, Citation: citeM3}, {Fields: []string{fieldPeakFLOPS}, Citation: citeAppleGPU}, {Fields: []string{fieldReported}, Citation: citeMetalWSetSmall}},
	},
	{
		ID: "m3-pro", Name: "Apple M3 Pro 36GB (18-core GPU)", Vendor: "Apple", UnifiedMemory: true,
		MemoryBytes: 36 * GiB, MemoryReportedBytes: 24 * GiB, MemoryBandwidthBytesPerS: 150 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 6.4 * teraFLOPS, BF16: 6.4 * teraFLOPS},
		Interconnect: noInterconnect,
		Sources:      []Source{{Fields: []string{fieldMemory, fieldBandwidth, fieldInterconnect}, Citation: citeM3}, {Fields: []string{fieldPeakFLOPS}, Citation: citeAppleGPU}, {Fields: []string{fieldReported}, Citation: citeMetalWSetSmall}},
	},
	{
		ID: "m4", Name: "Apple M4 32GB (10-core GPU)", Vendor: "Apple", UnifiedMemory: true,
		MemoryBytes: 32 * GiB, MemoryReportedBytes: 32 * GiB * 2 / 3, MemoryBandwidthBytesPerS: 120 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 4 * teraFLOPS, BF16: 4 * teraFLOPS},
		Interconnect: noInterconnect,
		Sources:      []Source{{Fields: []string{fieldMemory, fieldBandwidth, fieldInterconnect}, Citation: citeM4}, {Fields: []string{fieldPeakFLOPS}, Citation: citeAppleGPU}, {Fields: []string{fieldReported}, Citation: citeMetalWSetSmall}},
	},
}
