package hardware

// NVIDIA parts added for issue 15: Blackwell Ultra, RTX PRO Blackwell, the
// Ampere and Ada workstation cards, GeForce RTX 50, the China export parts,
// the small datacenter cards, and the unified-memory machines (DGX Spark,
// Jetson). Rates are dense, as everywhere in the catalog: NVIDIA's "AI
// TOPS" of RTX Blackwell is the sparse FP4 rate, halved here, and the
// lower formats follow it at 1/2 per doubling of width (FP8 = FP4/2,
// BF16 = FP4/4, TF32 = BF16/2), the 5th-generation tensor core's ratios.

// PCIe links narrower or more shared than x16.
var (
	pcie4x8   = Interconnect{Name: "PCIe 4.0 x8", BandwidthBytesPerS: pcie4x16BytesPerS / 2, LatencyS: AllReduceLatencyPCIeS, BusBandwidthBytesPerS: pcie4x16BytesPerS / 2 * busEfficiencyPCIe}
	pcie4x16q = Interconnect{Name: "PCIe 4.0 x16 (shared by 4 GPUs)", BandwidthBytesPerS: pcie4x16BytesPerS / 4, LatencyS: AllReduceLatencyPCIeS, BusBandwidthBytesPerS: pcie4x16BytesPerS / 4 * busEfficiencyPCIe}
	// NVLink 4 with the China export cut: 400 GB/s bidirectional.
	nvlink4China = Interconnect{Name: "NVLink 4 (NVSwitch, 400 GB/s export part)", BandwidthBytesPerS: 200 * gbPerS, LatencyS: AllReduceLatencyNVLinkS, BusBandwidthBytesPerS: 200 * gbPerS * busEfficiencyNVLink}
	nvlink3China = Interconnect{Name: "NVLink 3 (NVSwitch, 400 GB/s export part)", BandwidthBytesPerS: 200 * gbPerS, LatencyS: AllReduceLatencyNVLinkS, BusBandwidthBytesPerS: 200 * gbPerS * busEfficiencyNVLink}
)

// blackwellUltraFLOPS is the dense peak of one B300 (HGX B300 / 8): FP4
// 13.5 PF dense (NVFP4 runs 1.5x Blackwell's), FP8 4.5, BF16 2.25, TF32
// 1.125 PF; FP32 75 TF. Blackwell Ultra cuts the INT8 tensor path and
// NVIDIA gives no per-GPU figure: int8 falls back to the bf16 rate.
var blackwellUltraFLOPS = PeakFLOPS{FP32: 75 * teraFLOPS, TF32: 1125 * teraFLOPS, BF16: 2250 * teraFLOPS, FP8: 4500 * teraFLOPS, FP4: 13500 * teraFLOPS}

// RTX PRO Blackwell rates below come from each card's sparse FP4 "AI TOPS"
// and FP32 TFLOPS: FP4 = AI/2, FP8 = INT8 = AI/4, BF16 = AI/8, TF32 =
// AI/16 (workstation cards accumulate in fp32 at full rate). GeForce RTX 50
// rates: FP32 = SMs x 128 x 2 x boost clock; fp32-accumulate BF16 at 2x,
// FP8 at 4x, INT8 at 8x that; FP4 = AI TOPS / 2 (as for the 5090 entry).
// They are written out as literals so that the lists stay static data.

var nvidiaDatacenter2026 = []Accelerator{
	{
		ID: "a2", Name: "NVIDIA A2 16GB", Vendor: "NVIDIA",
		MemoryBytes: 16 * GiB, MemoryBandwidthBytesPerS: 200 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 4.5 * teraFLOPS, TF32: 9 * teraFLOPS, BF16: 18 * teraFLOPS, INT8: 36 * teraFLOPS},
		Interconnect: pcie4x8,
		Sources:      []Source{{Fields: datasheet, Citation: citeA2}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		// One of the four GPUs of the board, as software sees them.
		ID: "a16", Name: "NVIDIA A16 16GB (per GPU)", Vendor: "NVIDIA",
		MemoryBytes: 16 * GiB, MemoryBandwidthBytesPerS: 200 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 4.5 * teraFLOPS, TF32: 9 * teraFLOPS, BF16: 17.95 * teraFLOPS, INT8: 35.9 * teraFLOPS},
		Interconnect: pcie4x16q,
		Sources:      []Source{{Fields: datasheet, Citation: citeA16}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		ID: "a30", Name: "NVIDIA A30 24GB", Vendor: "NVIDIA",
		MemoryBytes: 24 * GiB, MemoryReportedBytes: 23.53 * GiB, MemoryBandwidthBytesPerS: 933 * gbPerS,
		PeakFLOPS: PeakFLOPS{FP32: 10.3 * teraFLOPS, TF32: 82 * teraFLOPS, BF16: 165 * teraFLOPS, INT8: 330 * teraFLOPS},
		// An NVLink bridge (200 GB/s) joins pairs only.
		Interconnect: pcie4x16,
		Sources:      []Source{{Fields: datasheet, Citation: citeA30}, {Fields: []string{fieldReported}, Citation: citeRepA30}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		ID: "l20", Name: "NVIDIA L20 48GB", Vendor: "NVIDIA",
		MemoryBytes: 48 * GiB, MemoryBandwidthBytesPerS: 864 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 59.8 * teraFLOPS, TF32: 59.8 * teraFLOPS, BF16: 119.5 * teraFLOPS, FP8: 239 * teraFLOPS, INT8: 239 * teraFLOPS},
		Interconnect: pcie4x16,
		Sources:      []Source{{Fields: datasheet, Citation: citeL20}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		ID: "a800-sxm-80gb", Name: "NVIDIA A800 SXM4 80GB", Vendor: "NVIDIA",
		Aliases:     []string{"A800", "A800-SXM4-80GB"},
		MemoryBytes: 80 * GiB, MemoryBandwidthBytesPerS: 2039 * gbPerS,
		PeakFLOPS: a100FLOPS, Interconnect: nvlink3China,
		SMs: 108, BoostClockHz: 1.41 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeA800}, {Fields: latencyFields, Citation: citeLatencyNVLink}, {Fields: smFields, Citation: citeSMA100}},
	},
	{
		ID: "h800-sxm-80gb", Name: "NVIDIA H800 SXM5 80GB", Vendor: "NVIDIA",
		Aliases:     []string{"H800", "H800 80GB HBM3"},
		MemoryBytes: 80 * GiB, MemoryBandwidthBytesPerS: 3.35 * tbPerS,
		PeakFLOPS: hopperSXMFLOPS, Interconnect: nvlink4China,
		SMs: 132, BoostClockHz: 1.98 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeH800}, {Fields: latencyFields, Citation: citeLatencyNVLink}, {Fields: smFields, Citation: citeSMH100}},
	},
	{
		// 288 GiB of HBM3e (8 stacks of 36 GiB), of which the driver
		// exposes 275,040 MiB and vLLM sees 267.69 GiB.
		ID: "b300", Name: "NVIDIA B300 288GB (HGX)", Vendor: "NVIDIA",
		Aliases:     []string{"B300", "HGX B300", "DGX B300", "B300 SXM6 AC"},
		MemoryBytes: 288 * GiB, MemoryReportedBytes: 267.69 * GiB, MemoryBandwidthBytesPerS: 8 * tbPerS,
		PeakFLOPS: blackwellUltraFLOPS, Interconnect: nvlink5,
		Sources: []Source{{Fields: datasheet, Citation: citeB300}, {Fields: []string{fieldReported}, Citation: citeRepB300}, {Fields: latencyFields, Citation: citeLatencyNVLink}},
	},
	{
		// One of the two Blackwell Ultra GPUs of a GB300 superchip in an
		// NVL72 rack; per GPU = rack figures / 72, dense = sparse / 2
		// (FP4: the dense figure NVIDIA gives).
		ID: "gb300", Name: "NVIDIA GB300 (per Blackwell Ultra GPU)", Vendor: "NVIDIA",
		Aliases:     []string{"GB300 NVL72"},
		MemoryBytes: 288 * GiB, MemoryBandwidthBytesPerS: 8 * tbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 83.3 * teraFLOPS, TF32: 1250 * teraFLOPS, BF16: 2500 * teraFLOPS, FP8: 5000 * teraFLOPS, FP4: 15000 * teraFLOPS},
		Interconnect: nvlink5,
		// NVL72: one NVLink domain of 72 GPUs (the specification's "72
		// GPUs", 130 TB/s of NVLink = 72 x 1.8 TB/s).
		NVLinkDomainGPUs: 72,
		Sources:          []Source{{Fields: datasheet, Citation: citeGB300}, {Fields: []string{fieldDomain}, Citation: citeGB300}, {Fields: latencyFields, Citation: citeLatencyNVLink}},
	},
}

var nvidiaWorkstation2026 = []Accelerator{
	{
		ID: "rtx-a4000", Name: "NVIDIA RTX A4000 16GB", Vendor: "NVIDIA",
		MemoryBytes: 16 * GiB, MemoryReportedBytes: 15.61 * GiB, MemoryBandwidthBytesPerS: 448 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 19.2 * teraFLOPS, TF32: 38.35 * teraFLOPS, BF16: 76.7 * teraFLOPS, INT8: 153.4 * teraFLOPS},
		Interconnect: pcie4x16,
		Sources:      []Source{{Fields: datasheet, Citation: citeRTXA4000}, {Fields: []string{fieldReported}, Citation: citeRepA4000}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		ID: "rtx-a4500", Name: "NVIDIA RTX A4500 20GB", Vendor: "NVIDIA",
		MemoryBytes: 20 * GiB, MemoryBandwidthBytesPerS: 640 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 23.7 * teraFLOPS, TF32: 47.3 * teraFLOPS, BF16: 94.6 * teraFLOPS, INT8: 189.2 * teraFLOPS},
		Interconnect: pcie4x16,
		Sources:      []Source{{Fields: datasheet, Citation: citeRTXA4500}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		ID: "rtx-a5000", Name: "NVIDIA RTX A5000 24GB", Vendor: "NVIDIA",
		MemoryBytes: 24 * GiB, MemoryBandwidthBytesPerS: 768 * gbPerS,
		PeakFLOPS: PeakFLOPS{FP32: 27.8 * teraFLOPS, TF32: 55.55 * teraFLOPS, BF16: 111.1 * teraFLOPS, INT8: 222.2 * teraFLOPS},
		// An NVLink bridge (112.5 GB/s bidirectional) joins pairs only.
		Interconnect: pcie4x16,
		Sources:      []Source{{Fields: datasheet, Citation: citeRTXA5000}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		ID: "rtx-4000-ada", Name: "NVIDIA RTX 4000 Ada Generation 20GB", Vendor: "NVIDIA",
		MemoryBytes: 20 * GiB, MemoryBandwidthBytesPerS: 360 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 26.7 * teraFLOPS, TF32: 38.35 * teraFLOPS, BF16: 76.7 * teraFLOPS, FP8: 153.4 * teraFLOPS, INT8: 153.4 * teraFLOPS},
		Interconnect: pcie4x16,
		Sources:      []Source{{Fields: datasheet, Citation: citeRTX4KAda}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		ID: "rtx-5000-ada", Name: "NVIDIA RTX 5000 Ada Generation 32GB", Vendor: "NVIDIA",
		MemoryBytes: 32 * GiB, MemoryBandwidthBytesPerS: 576 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 65.3 * teraFLOPS, TF32: 130.55 * teraFLOPS, BF16: 261.1 * teraFLOPS, FP8: 522.2 * teraFLOPS, INT8: 522.2 * teraFLOPS},
		Interconnect: pcie4x16,
		Sources:      []Source{{Fields: datasheet, Citation: citeRTX5KAda}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		// "RTX PRO 6000" alone names this edition, the one clouds rent.
		ID: "rtx-pro-6000-server", Name: "NVIDIA RTX PRO 6000 Blackwell Server Edition 96GB", Vendor: "NVIDIA",
		Aliases:     []string{"RTX PRO 6000", "RTX PRO 6000 Blackwell", "RTX PRO 6000 Server"},
		MemoryBytes: 96 * GiB, MemoryReportedBytes: 94.97 * GiB, MemoryBandwidthBytesPerS: 1597 * gbPerS,
		PeakFLOPS: PeakFLOPS{FP32: 120 * teraFLOPS, TF32: 240 * teraFLOPS, BF16: 480 * teraFLOPS, FP8: 960 * teraFLOPS, INT8: 960 * teraFLOPS, FP4: 1920 * teraFLOPS}, Interconnect: pcie5x16,
		Sources: []Source{{Fields: datasheet, Citation: citeRTXProBW}, {Fields: []string{fieldReported}, Citation: citeRepPro6K}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		ID: "rtx-pro-6000-workstation", Name: "NVIDIA RTX PRO 6000 Blackwell Workstation Edition 96GB", Vendor: "NVIDIA",
		Aliases:     []string{"RTX PRO 6000 Workstation", "RTX PRO 6000 Blackwell Workstation Edition"},
		MemoryBytes: 96 * GiB, MemoryReportedBytes: 94.97 * GiB, MemoryBandwidthBytesPerS: 1792 * gbPerS,
		PeakFLOPS: PeakFLOPS{FP32: 125 * teraFLOPS, TF32: 250 * teraFLOPS, BF16: 500 * teraFLOPS, FP8: 1000 * teraFLOPS, INT8: 1000 * teraFLOPS, FP4: 2000 * teraFLOPS}, Interconnect: pcie5x16,
		Sources: []Source{{Fields: datasheet, Citation: citeRTXProBW}, {Fields: []string{fieldReported}, Citation: citeRepPro6K}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		ID: "rtx-pro-6000-max-q", Name: "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition 96GB", Vendor: "NVIDIA",
		MemoryBytes: 96 * GiB, MemoryBandwidthBytesPerS: 1792 * gbPerS,
		PeakFLOPS: PeakFLOPS{FP32: 110 * teraFLOPS, TF32: 219.4 * teraFLOPS, BF16: 438.9 * teraFLOPS, FP8: 877.75 * teraFLOPS, INT8: 877.75 * teraFLOPS, FP4: 1755.5 * teraFLOPS}, Interconnect: pcie5x16,
		Sources: []Source{{Fields: datasheet, Citation: citeRTXProBW}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		ID: "rtx-pro-5000", Name: "NVIDIA RTX PRO 5000 Blackwell 48GB", Vendor: "NVIDIA",
		MemoryBytes: 48 * GiB, MemoryBandwidthBytesPerS: 1344 * gbPerS,
		PeakFLOPS: PeakFLOPS{FP32: 73.7 * teraFLOPS, TF32: 129 * teraFLOPS, BF16: 258 * teraFLOPS, FP8: 516 * teraFLOPS, INT8: 516 * teraFLOPS, FP4: 1032 * teraFLOPS}, Interconnect: pcie5x16,
		Sources: []Source{{Fields: datasheet, Citation: citeRTXProBW}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		ID: "rtx-pro-4500", Name: "NVIDIA RTX PRO 4500 Blackwell 32GB", Vendor: "NVIDIA",
		MemoryBytes: 32 * GiB, MemoryBandwidthBytesPerS: 896 * gbPerS,
		PeakFLOPS: PeakFLOPS{FP32: 54.9 * teraFLOPS, TF32: 105.4 * teraFLOPS, BF16: 210.9 * teraFLOPS, FP8: 421.75 * teraFLOPS, INT8: 421.75 * teraFLOPS, FP4: 843.5 * teraFLOPS}, Interconnect: pcie5x16,
		Sources: []Source{{Fields: datasheet, Citation: citeRTXProBW}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		ID: "rtx-pro-4000", Name: "NVIDIA RTX PRO 4000 Blackwell 24GB", Vendor: "NVIDIA",
		MemoryBytes: 24 * GiB, MemoryBandwidthBytesPerS: 672 * gbPerS,
		PeakFLOPS: PeakFLOPS{FP32: 46.9 * teraFLOPS, TF32: 77.9 * teraFLOPS, BF16: 155.9 * teraFLOPS, FP8: 311.75 * teraFLOPS, INT8: 311.75 * teraFLOPS, FP4: 623.5 * teraFLOPS}, Interconnect: pcie5x16,
		Sources: []Source{{Fields: datasheet, Citation: citeRTXProBW}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
}

var nvidiaGeForce2026 = []Accelerator{
	{
		ID: "rtx-3060-12gb", Name: "NVIDIA GeForce RTX 3060 12GB", Vendor: "NVIDIA",
		MemoryBytes: 12 * GiB, MemoryBandwidthBytesPerS: 360 * gbPerS,
		// 28 SMs at 1.777 GHz: FP32 12.74; fp32-accumulate tensor 25.5.
		PeakFLOPS:    PeakFLOPS{FP32: 12.74 * teraFLOPS, TF32: 12.74 * teraFLOPS, BF16: 25.5 * teraFLOPS, INT8: 102 * teraFLOPS},
		Interconnect: pcie4x16,
		Sources:      []Source{{Fields: datasheet, Citation: citeRTX3060}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		// 36 SMs at 2.572 GHz; 759 AI TOPS.
		ID: "rtx-5060-ti-16gb", Name: "NVIDIA GeForce RTX 5060 Ti 16GB", Vendor: "NVIDIA",
		MemoryBytes: 16 * GiB, MemoryBandwidthBytesPerS: 448 * gbPerS,
		PeakFLOPS: PeakFLOPS{FP32: 23.7 * teraFLOPS, TF32: 23.7 * teraFLOPS, BF16: 47.4 * teraFLOPS, FP8: 94.8 * teraFLOPS, INT8: 189.6 * teraFLOPS, FP4: 379.5 * teraFLOPS}, Interconnect: pcie5x16,
		Sources: []Source{{Fields: datasheet, Citation: citeRTX50Derived}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		// 70 SMs at 2.452 GHz; 1406 AI TOPS.
		ID: "rtx-5070-ti", Name: "NVIDIA GeForce RTX 5070 Ti 16GB", Vendor: "NVIDIA",
		MemoryBytes: 16 * GiB, MemoryBandwidthBytesPerS: 896 * gbPerS,
		PeakFLOPS: PeakFLOPS{FP32: 43.9 * teraFLOPS, TF32: 43.9 * teraFLOPS, BF16: 87.9 * teraFLOPS, FP8: 175.8 * teraFLOPS, INT8: 351.5 * teraFLOPS, FP4: 703 * teraFLOPS}, Interconnect: pcie5x16,
		Sources: []Source{{Fields: datasheet, Citation: citeRTX50Derived}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		// 84 SMs at 2.617 GHz; 1801 AI TOPS.
		ID: "rtx-5080", Name: "NVIDIA GeForce RTX 5080 16GB", Vendor: "NVIDIA",
		MemoryBytes: 16 * GiB, MemoryBandwidthBytesPerS: 960 * gbPerS,
		PeakFLOPS: PeakFLOPS{FP32: 56.3 * teraFLOPS, TF32: 56.3 * teraFLOPS, BF16: 112.6 * teraFLOPS, FP8: 225.1 * teraFLOPS, INT8: 450.2 * teraFLOPS, FP4: 900.5 * teraFLOPS}, Interconnect: pcie5x16,
		Sources: []Source{{Fields: datasheet, Citation: citeRTX50Derived}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
}

// nvidiaUnified are the NVIDIA machines whose GPU uses the system's memory:
// UnifiedMemory is set, and FreeMemory (what vLLM's start-up check sees)
// is below the total by what the OS holds.
var nvidiaUnified = []Accelerator{
	{
		ID: "gb10", Name: "NVIDIA GB10 (DGX Spark) 128GB", Vendor: "NVIDIA",
		Aliases:     []string{"GB10", "DGX Spark", "NVIDIA DGX Spark", "ASUS Ascent GX10"},
		MemoryBytes: 128 * GiB, MemoryReportedBytes: 121.69 * GiB, UnifiedMemory: true, MemoryFreeBytes: 101.3 * GiB,
		MemoryBandwidthBytesPerS: 273 * gbPerS,
		// 48 SMs (6144 CUDA cores, sm_121, the RTX 5070's count); NVIDIA
		// gives only 1 PFLOP FP4 sparse and 31 TFLOPS FP32. BF16 and FP8
		// follow the datacenter ratios; should GB10 accumulate fp32 at
		// half rate as GeForce does, BF16 would be 62.5 (decode, which is
		// bandwidth-bound at 273 GB/s, does not depend on it).
		PeakFLOPS: PeakFLOPS{FP32: 31 * teraFLOPS, BF16: 125 * teraFLOPS, FP8: 250 * teraFLOPS, INT8: 250 * teraFLOPS, FP4: 500 * teraFLOPS},
		// Two Sparks join over their ConnectX-7 ports: 200 Gb/s.
		Interconnect: Interconnect{Name: "ConnectX-7 200 GbE (two machines)", BandwidthBytesPerS: 25 * gbPerS, LatencyS: AllReduceLatencyRoCES},
		Sources:      []Source{{Fields: datasheet, Citation: citeGB10}, {Fields: []string{fieldReported, fieldFree}, Citation: citeRepGB10}, {Fields: latencyFields, Citation: citeLatencyNIC}},
	},
	{
		ID: "jetson-agx-thor", Name: "NVIDIA Jetson AGX Thor (T5000) 128GB", Vendor: "NVIDIA",
		Aliases:     []string{"Jetson Thor", "Thor", "T5000"},
		MemoryBytes: 128 * GiB, UnifiedMemory: true, MemoryBandwidthBytesPerS: 273 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 8.06 * teraFLOPS, BF16: 258.75 * teraFLOPS, FP8: 517.5 * teraFLOPS, FP4: 1035 * teraFLOPS},
		Interconnect: noInterconnect,
		Sources:      []Source{{Fields: datasheet, Citation: citeThor}},
	},
	{
		ID: "jetson-agx-orin-64gb", Name: "NVIDIA Jetson AGX Orin 64GB", Vendor: "NVIDIA",
		Aliases:     []string{"Jetson AGX Orin", "Orin"},
		MemoryBytes: 64 * GiB, UnifiedMemory: true, MemoryBandwidthBytesPerS: 204.8 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 5.3 * teraFLOPS, BF16: 42.5 * teraFLOPS, INT8: 85 * teraFLOPS},
		Interconnect: noInterconnect,
		Sources:      []Source{{Fields: datasheet, Citation: citeOrin}},
	},
}
