package hardware

// AMD, Intel, Google and AWS parts added for issue 15; the Apple ones are
// in the apple list (catalog_others.go), in generation order.

var amd2026 = []Accelerator{
	{
		ID: "mi350x", Name: "AMD Instinct MI350X 288GB", Vendor: "AMD",
		MemoryBytes: 288 * GiB, MemoryBandwidthBytesPerS: 8 * tbPerS,
		// CDNA 4 at 2.2 GHz (air-cooled MI355X sibling); no TF32 matrix path.
		PeakFLOPS:    PeakFLOPS{FP32: 144.2 * teraFLOPS, BF16: 2306.9 * teraFLOPS, FP8: 4613.7 * teraFLOPS, INT8: 4613.7 * teraFLOPS, FP4: 9227.5 * teraFLOPS},
		Interconnect: xgmiCDNA4,
		SMs:          256, BoostClockHz: 2.2 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeMI350X}, {Fields: latencyFields, Citation: citeLatencyXGMI}, {Fields: smFields, Citation: citeCUMI350X}},
	},
	{
		// Strix Halo: the GPU uses the carve-out the firmware dedicates
		// to it; the rest stays with the OS.
		ID: "ryzen-ai-max-395", Name: "AMD Ryzen AI Max+ 395 128GB (Radeon 8060S)", Vendor: "AMD",
		Aliases:     []string{"Strix Halo", "Ryzen AI Max+ 395", "Radeon 8060S", "gfx1151"},
		MemoryBytes: 128 * GiB, MemoryReportedBytes: 96 * GiB, UnifiedMemory: true,
		MemoryBandwidthBytesPerS: 256 * gbPerS,
		PeakFLOPS:                PeakFLOPS{FP32: 29.7 * teraFLOPS, BF16: 59.4 * teraFLOPS},
		Interconnect:             noInterconnect,
		// 40 RDNA 3.5 compute units at 2.9 GHz (the figures its FP32 peak
		// is built from).
		SMs: 40, BoostClockHz: 2.9 * ghz,
		Sources: []Source{{Fields: []string{fieldMemory, fieldBandwidth, fieldPeakFLOPS, fieldInterconnect, fieldSMs, fieldClock}, Citation: citeStrix}, {Fields: []string{fieldReported}, Citation: citeStrixGM}},
	},
}

var intel2026 = []Accelerator{
	{
		ID: "gaudi-2", Name: "Intel Gaudi 2 96GB", Vendor: "Intel",
		Aliases:     []string{"Gaudi2", "HL-225"},
		MemoryBytes: 96 * GiB, MemoryBandwidthBytesPerS: 2.45 * tbPerS,
		PeakFLOPS: PeakFLOPS{BF16: 432 * teraFLOPS, FP8: 865 * teraFLOPS},
		// An 8-card server wires 21 of the 24 100 GbE ports all-to-all:
		// 21 x 12.5 GB/s = 262.5 GB/s per direction.
		Interconnect: Interconnect{Name: "RoCE v2 (21x 100 GbE scale-up)", BandwidthBytesPerS: 262.5 * gbPerS, LatencyS: AllReduceLatencyRoCES},
		Sources:      []Source{{Fields: datasheet, Citation: citeGaudi2}, {Fields: latencyFields, Citation: citeLatencyRoCE}},
	},
	{
		ID: "arc-pro-b60", Name: "Intel Arc Pro B60 24GB", Vendor: "Intel",
		MemoryBytes: 24 * GiB, MemoryBandwidthBytesPerS: 456 * gbPerS,
		PeakFLOPS:    PeakFLOPS{FP32: 12.29 * teraFLOPS, BF16: 98.5 * teraFLOPS, INT8: 197 * teraFLOPS},
		Interconnect: Interconnect{Name: "PCIe 5.0 x8", BandwidthBytesPerS: pcie5x16BytesPerS / 2, LatencyS: AllReduceLatencyPCIeS, BusBandwidthBytesPerS: pcie5x16BytesPerS / 2 * busEfficiencyPCIe},
		Sources:      []Source{{Fields: datasheet, Citation: citeArcB60}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
}

var google2026 = []Accelerator{
	{
		ID: "tpu-v7", Name: "Google Cloud TPU v7 (Ironwood)", Vendor: "Google",
		Aliases:     []string{"v7", "tpu7x", "Ironwood"},
		MemoryBytes: 192 * GiB, MemoryBandwidthBytesPerS: 7.37 * tbPerS,
		PeakFLOPS: PeakFLOPS{BF16: 2307 * teraFLOPS, FP8: 4614 * teraFLOPS},
		// ICI: 1.2 TB/s bidirectional per chip.
		Interconnect: Interconnect{Name: "ICI (3D torus)", BandwidthBytesPerS: 600 * gbPerS, LatencyS: AllReduceLatencyICIS},
		Sources:      []Source{{Fields: datasheet, Citation: citeTPUv7}, {Fields: latencyFields, Citation: citeLatencyICI}},
	},
}

var aws = []Accelerator{
	{
		ID: "trainium-2", Name: "AWS Trainium2 96GB", Vendor: "AWS",
		Aliases:     []string{"Trainium2", "trn2"},
		MemoryBytes: 96 * GiB, MemoryBandwidthBytesPerS: 2.9 * tbPerS,
		// Neuron docs: 1,299 FP8, 667 BF16/FP16/TF32, 181 FP32 TFLOPS
		// dense; 4 NeuronLink-v3 links, 1.28 TB/s per chip (640 GB/s
		// per direction).
		PeakFLOPS:    PeakFLOPS{FP32: 181 * teraFLOPS, BF16: 667 * teraFLOPS, FP8: 1299 * teraFLOPS},
		Interconnect: Interconnect{Name: "NeuronLink-v3 (2D torus)", BandwidthBytesPerS: 640 * gbPerS, LatencyS: AllReduceLatencyICIS},
		Sources:      []Source{{Fields: datasheet, Citation: citeTrn2}, {Fields: latencyFields, Citation: citeLatencyNeuronLink}},
	},
	{
		ID: "inferentia-2", Name: "AWS Inferentia2 32GB", Vendor: "AWS",
		Aliases:     []string{"Inferentia2", "inf2"},
		MemoryBytes: 32 * GiB, MemoryBandwidthBytesPerS: 820 * gbPerS,
		// NeuronCore-v2 x 2: 190 FP16/BF16/cFP8/TF32, 380 INT8, 47.5 FP32.
		PeakFLOPS:    PeakFLOPS{FP32: 47.5 * teraFLOPS, BF16: 190 * teraFLOPS, INT8: 380 * teraFLOPS},
		Interconnect: Interconnect{Name: "NeuronLink-v2 (ring)", BandwidthBytesPerS: 96 * gbPerS, LatencyS: AllReduceLatencyICIS},
		Sources:      []Source{{Fields: datasheet, Citation: citeInf2}, {Fields: latencyFields, Citation: citeLatencyNeuronLink}},
	},
}
