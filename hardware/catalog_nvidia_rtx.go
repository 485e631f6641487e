package hardware

// NVIDIA GeForce and workstation (RTX) cards. GeForce tensor cores run fp16
// and bf16 with fp32 accumulate at HALF the fp16-accumulate rate; serving
// engines accumulate in fp32, so BF16 (and FP8 on Ada/Blackwell) below is the
// "with FP32 Accumulate" dense figure of the architecture whitepaper, not the
// headline one. Dense TF32 equals the FP32 rate on GeForce. Workstation
// cards (RTX 6000 Ada, RTX A6000) run fp32 accumulate at full rate.

var nvidiaRTX = []Accelerator{
	{
		ID:                       "rtx-3070",
		Name:                     "NVIDIA GeForce RTX 3070 8GB",
		Vendor:                   "NVIDIA",
		MemoryBytes:              8 * GiB,
		MemoryBandwidthBytesPerS: 448 * gbPerS,
		PeakFLOPS:                PeakFLOPS{FP32: 20.3 * teraFLOPS, TF32: 20.3 * teraFLOPS, BF16: 40.6 * teraFLOPS, INT8: 162.6 * teraFLOPS},
		Interconnect:             pcie4x16,
		SMs:                      46, BoostClockHz: 1.73 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeGA102}, {Fields: latencyFields, Citation: citeLatencyPCIe}, {Fields: smFields, Citation: citeSMGeForce}},
	},
	{
		ID:                       "rtx-3080",
		Name:                     "NVIDIA GeForce RTX 3080 10GB",
		Vendor:                   "NVIDIA",
		MemoryBytes:              10 * GiB,
		MemoryBandwidthBytesPerS: 760 * gbPerS,
		PeakFLOPS:                PeakFLOPS{FP32: 29.8 * teraFLOPS, TF32: 29.8 * teraFLOPS, BF16: 59.5 * teraFLOPS, INT8: 238 * teraFLOPS},
		Interconnect:             pcie4x16,
		SMs:                      68, BoostClockHz: 1.71 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeGA102}, {Fields: latencyFields, Citation: citeLatencyPCIe}, {Fields: smFields, Citation: citeSMGeForce}},
	},
	{
		ID:                       "rtx-3080-ti",
		Name:                     "NVIDIA GeForce RTX 3080 Ti 12GB",
		Vendor:                   "NVIDIA",
		MemoryBytes:              12 * GiB,
		MemoryBandwidthBytesPerS: 912 * gbPerS,
		// 80 SMs at 1.665 GHz.
		PeakFLOPS:    PeakFLOPS{FP32: 34.1 * teraFLOPS, TF32: 34.1 * teraFLOPS, BF16: 68.2 * teraFLOPS, INT8: 272.8 * teraFLOPS},
		Interconnect: pcie4x16,
		SMs:          80, BoostClockHz: 1.67 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeDerivedRTX}, {Fields: latencyFields, Citation: citeLatencyPCIe}, {Fields: smFields, Citation: citeSMGeForce}},
	},
	{
		ID:                       "rtx-3090",
		Name:                     "NVIDIA GeForce RTX 3090 24GB",
		Vendor:                   "NVIDIA",
		MemoryBytes:              24 * GiB,
		MemoryReportedBytes:      23.58 * GiB,
		MemoryBandwidthBytesPerS: 936 * gbPerS,
		// Whitepaper: FP16 tensor 142 (fp16 acc) / 71 (fp32 acc) dense.
		PeakFLOPS:    PeakFLOPS{FP32: 35.6 * teraFLOPS, TF32: 35.6 * teraFLOPS, BF16: 71 * teraFLOPS, INT8: 284 * teraFLOPS},
		Interconnect: pcie4x16,
		SMs:          82, BoostClockHz: 1.7 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeGA102}, {Fields: []string{fieldReported}, Citation: citeRepRTX3090}, {Fields: latencyFields, Citation: citeLatencyPCIe}, {Fields: smFields, Citation: citeSMGeForce}},
	},
	{
		ID:                       "rtx-4070-ti",
		Name:                     "NVIDIA GeForce RTX 4070 Ti 12GB",
		Vendor:                   "NVIDIA",
		MemoryBytes:              12 * GiB,
		MemoryBandwidthBytesPerS: 504 * gbPerS,
		// 60 SMs at 2.61 GHz.
		PeakFLOPS:    PeakFLOPS{FP32: 40.1 * teraFLOPS, TF32: 40.1 * teraFLOPS, BF16: 80.2 * teraFLOPS, FP8: 160.4 * teraFLOPS, INT8: 320.8 * teraFLOPS},
		Interconnect: pcie4x16,
		SMs:          60, BoostClockHz: 2.61 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeDerivedRTX}, {Fields: latencyFields, Citation: citeLatencyPCIe}, {Fields: smFields, Citation: citeSMGeForce}},
	},
	{
		ID:                       "rtx-4080",
		Name:                     "NVIDIA GeForce RTX 4080 16GB",
		Vendor:                   "NVIDIA",
		MemoryBytes:              16 * GiB,
		MemoryBandwidthBytesPerS: 716.8 * gbPerS,
		PeakFLOPS:                PeakFLOPS{FP32: 48.7 * teraFLOPS, TF32: 48.7 * teraFLOPS, BF16: 97.5 * teraFLOPS, FP8: 194.9 * teraFLOPS, INT8: 389.9 * teraFLOPS},
		Interconnect:             pcie4x16,
		SMs:                      76, BoostClockHz: 2.51 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeAda}, {Fields: latencyFields, Citation: citeLatencyPCIe}, {Fields: smFields, Citation: citeSMGeForce}},
	},
	{
		ID:                       "rtx-4090",
		Name:                     "NVIDIA GeForce RTX 4090 24GB",
		Vendor:                   "NVIDIA",
		MemoryBytes:              24 * GiB,
		MemoryReportedBytes:      23.68 * GiB,
		MemoryBandwidthBytesPerS: 1008 * gbPerS,
		// Whitepaper: FP16 tensor 330.3 (fp16 acc) / 165.2 (fp32 acc);
		// FP8 660.6 / 330.3; INT8 660.6, all dense.
		PeakFLOPS:    PeakFLOPS{FP32: 82.6 * teraFLOPS, TF32: 82.6 * teraFLOPS, BF16: 165.2 * teraFLOPS, FP8: 330.3 * teraFLOPS, INT8: 660.6 * teraFLOPS},
		Interconnect: pcie4x16,
		SMs:          128, BoostClockHz: 2.52 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeAda}, {Fields: []string{fieldReported}, Citation: citeRepRTX4090}, {Fields: latencyFields, Citation: citeLatencyPCIe}, {Fields: smFields, Citation: citeSMGeForce}},
	},
	{
		ID:                       "rtx-5090",
		Name:                     "NVIDIA GeForce RTX 5090 32GB",
		Vendor:                   "NVIDIA",
		MemoryBytes:              32 * GiB,
		MemoryReportedBytes:      31.37 * GiB,
		MemoryBandwidthBytesPerS: 1792 * gbPerS,
		// 170 SMs at 2.407 GHz: FP16 tensor 419 (fp16 acc) / 209.5 (fp32
		// acc); FP8 838 / 419; FP4 1676 (3352 "AI TOPS" is sparse).
		PeakFLOPS:    PeakFLOPS{FP32: 104.8 * teraFLOPS, TF32: 104.8 * teraFLOPS, BF16: 209.5 * teraFLOPS, FP8: 419 * teraFLOPS, INT8: 838 * teraFLOPS, FP4: 1676 * teraFLOPS},
		Interconnect: pcie5x16,
		SMs:          170, BoostClockHz: 2.41 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeRTX50}, {Fields: []string{fieldReported}, Citation: citeRepRTX5090}, {Fields: latencyFields, Citation: citeLatencyPCIe}, {Fields: smFields, Citation: citeSMGeForce}},
	},
	{
		ID:                       "rtx-6000-ada",
		Name:                     "NVIDIA RTX 6000 Ada Generation 48GB",
		Vendor:                   "NVIDIA",
		MemoryBytes:              48 * GiB,
		MemoryBandwidthBytesPerS: 960 * gbPerS,
		// Datasheet: 1457 TFLOPS FP8 (sparse); 142 SMs at 2.505 GHz.
		PeakFLOPS:    PeakFLOPS{FP32: 91.1 * teraFLOPS, TF32: 182.1 * teraFLOPS, BF16: 364.2 * teraFLOPS, FP8: 728.5 * teraFLOPS, INT8: 728.5 * teraFLOPS},
		Interconnect: pcie4x16,
		SMs:          142, BoostClockHz: 2.505 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeRTX6000}, {Fields: latencyFields, Citation: citeLatencyPCIe}, {Fields: smFields, Citation: citeSMGeForce}},
	},
	{
		ID:                       "rtx-a6000",
		Name:                     "NVIDIA RTX A6000 48GB",
		Vendor:                   "NVIDIA",
		MemoryBytes:              48 * GiB,
		MemoryBandwidthBytesPerS: 768 * gbPerS,
		// Datasheet: 309.7 TFLOPS tensor (sparse fp16).
		PeakFLOPS: PeakFLOPS{FP32: 38.7 * teraFLOPS, TF32: 77.4 * teraFLOPS, BF16: 154.8 * teraFLOPS, INT8: 309.7 * teraFLOPS},
		// An NVLink bridge (112.5 GB/s bidirectional) joins pairs only.
		Interconnect: pcie4x16,
		SMs:          84, BoostClockHz: 1.8 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeRTXA6000}, {Fields: latencyFields, Citation: citeLatencyPCIe}, {Fields: smFields, Citation: citeSMGeForce}},
	},
}
