package hardware

// AMD Instinct accelerators. FP32 is the matrix-core rate (twice the vector
// rate on CDNA 3); tensor rates are dense (AMD quotes sparse ones apart).

// Infinity Fabric (xGMI) per-GPU bandwidth in an 8-GPU platform: each GPU has
// 7 links, one to every peer; AMD quotes each link's peak bidirectionally.
var (
	// MI300X, MI325X: 7 links x 128 GB/s bidirectional = 896 GB/s; 448 per direction.
	xgmiCDNA3 = Interconnect{Name: "Infinity Fabric (xGMI, 7 links)", BandwidthBytesPerS: 448 * gbPerS, LatencyS: AllReduceLatencyInfinityFabricS}
	// MI355X: 7 links x 153.6 GB/s bidirectional = 1075.2 GB/s; 537.6 per direction.
	xgmiCDNA4 = Interconnect{Name: "Infinity Fabric (xGMI, 7 links)", BandwidthBytesPerS: 537.6 * gbPerS, LatencyS: AllReduceLatencyInfinityFabricS}
)

// cdna3FLOPS is the dense peak of MI300X and MI325X (304 CUs at 2.1 GHz):
// FP32 matrix 163.4, TF32 653.7, FP16/BF16 1307.4, FP8 2614.9, INT8 2614.9
// (sparse FP16 2614.9, FP8 5229.8).
var cdna3FLOPS = PeakFLOPS{FP32: 163.4 * teraFLOPS, TF32: 653.7 * teraFLOPS, BF16: 1307.4 * teraFLOPS, FP8: 2614.9 * teraFLOPS, INT8: 2614.9 * teraFLOPS}

var amd = []Accelerator{
	{
		ID:     "mi250x",
		Name:   "AMD Instinct MI250X (per GCD)",
		Vendor: "AMD",
		// The OAM package holds two graphics compute dies that software
		// sees as two GPUs (64 GiB each); an engine's tensor-parallel rank
		// is one GCD, so the figures here are per GCD: half of the
		// package's 128 GB, 3.2768 TB/s, 383 TFLOPS FP16/BF16 and 383 TOPS
		// INT8, 95.7 TFLOPS FP32 matrix. CDNA 2 has no TF32 or FP8.
		Aliases:                  []string{"MI250X GCD"},
		MemoryBytes:              64 * GiB,
		MemoryBandwidthBytesPerS: 1.6384 * tbPerS,
		PeakFLOPS:                PeakFLOPS{FP32: 47.85 * teraFLOPS, BF16: 191.5 * teraFLOPS, INT8: 191.5 * teraFLOPS},
		// 8 Infinity Fabric links of 100 GB/s per package (800 GB/s
		// aggregate): about 400 GB/s per GCD, 200 per direction; the
		// topology between the 8 GCDs of a node is not uniform.
		Interconnect: Interconnect{Name: "Infinity Fabric (xGMI)", BandwidthBytesPerS: 200 * gbPerS, LatencyS: AllReduceLatencyInfinityFabricS},
		Sources:      []Source{{Fields: datasheet, Citation: citeMI250X}, {Fields: latencyFields, Citation: citeLatencyXGMI}},
	},
	{
		ID:                       "mi300x",
		Name:                     "AMD Instinct MI300X 192GB",
		Vendor:                   "AMD",
		MemoryBytes:              192 * GiB,
		MemoryReportedBytes:      191.98 * GiB,
		MemoryBandwidthBytesPerS: 5.3 * tbPerS,
		PeakFLOPS:                cdna3FLOPS,
		Interconnect:             xgmiCDNA3,
		Sources:                  []Source{{Fields: datasheet, Citation: citeMI300X}, {Fields: []string{fieldReported}, Citation: citeRepMI300X}, {Fields: latencyFields, Citation: citeLatencyXGMI}},
	},
	{
		ID:                       "mi325x",
		Name:                     "AMD Instinct MI325X 256GB",
		Vendor:                   "AMD",
		MemoryBytes:              256 * GiB,
		MemoryBandwidthBytesPerS: 6 * tbPerS,
		PeakFLOPS:                cdna3FLOPS,
		Interconnect:             xgmiCDNA3,
		Sources:                  []Source{{Fields: datasheet, Citation: citeMI325X}, {Fields: latencyFields, Citation: citeLatencyXGMI}},
	},
	{
		ID:                       "mi355x",
		Name:                     "AMD Instinct MI355X 288GB",
		Vendor:                   "AMD",
		MemoryBytes:              288 * GiB,
		MemoryBandwidthBytesPerS: 8 * tbPerS,
		// 256 CUs at 2.4 GHz: FP32 matrix 157.3, FP16/BF16 2516.6, FP8
		// 5033.2, INT8 5033.2, MXFP4 10066.3 TFLOPS dense. CDNA 4 drops
		// the TF32 matrix path (TF32 falls back to FP32).
		PeakFLOPS:    PeakFLOPS{FP32: 157.3 * teraFLOPS, BF16: 2516.6 * teraFLOPS, FP8: 5033.2 * teraFLOPS, INT8: 5033.2 * teraFLOPS, FP4: 10066.3 * teraFLOPS},
		Interconnect: xgmiCDNA4,
		Sources:      []Source{{Fields: datasheet, Citation: citeMI355X}, {Fields: latencyFields, Citation: citeLatencyXGMI}},
	},
}
