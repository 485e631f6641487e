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
		// 110 compute units per GCD (220 per package) at 1.7 GHz.
		SMs: 110, BoostClockHz: 1.7 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeMI250X}, {Fields: latencyFields, Citation: citeLatencyXGMI}, {Fields: smFields, Citation: citeCUMI250X}},
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
		SMs:                      304, BoostClockHz: 2.1 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeMI300X}, {Fields: []string{fieldReported}, Citation: citeRepMI300X}, {Fields: latencyFields, Citation: citeLatencyXGMI}, {Fields: smFields, Citation: citeCUMI300X}},
	},
	{
		ID:                       "mi325x",
		Name:                     "AMD Instinct MI325X 256GB",
		Vendor:                   "AMD",
		MemoryBytes:              256 * GiB,
		MemoryBandwidthBytesPerS: 6 * tbPerS,
		PeakFLOPS:                cdna3FLOPS,
		Interconnect:             xgmiCDNA3,
		SMs:                      304, BoostClockHz: 2.1 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeMI325X}, {Fields: latencyFields, Citation: citeLatencyXGMI}, {Fields: smFields, Citation: citeCUMI300X}},
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
		SMs:          256, BoostClockHz: 2.4 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeMI355X}, {Fields: latencyFields, Citation: citeLatencyXGMI}, {Fields: smFields, Citation: citeCUMI355X}},
	},
	{
		ID:     "mi100",
		Name:   "AMD Instinct MI100 32GB",
		Vendor: "AMD",
		// CDNA 1 (gfx908): 120 CUs at 1.502 GHz. FP32 is the matrix
		// rate, 46.1 TFLOPS; the 16-bit figure is bfloat16's 92.3 (FP16
		// matrix runs at 184.6); INT8 184.6 TOPS. No TF32 or FP8.
		MemoryBytes:              32 * GiB,
		MemoryBandwidthBytesPerS: 1.2288 * tbPerS,
		PeakFLOPS:                PeakFLOPS{FP32: 46.1 * teraFLOPS, BF16: 92.3 * teraFLOPS, INT8: 184.6 * teraFLOPS},
		// 3 Infinity Fabric links of 92 GB/s (276 GB/s aggregate peak,
		// bidirectional) to the other GPUs of a 4-GPU hive: 138 GB/s per
		// direction.
		Interconnect: Interconnect{Name: "Infinity Fabric (xGMI, 3 links)", BandwidthBytesPerS: 138 * gbPerS, LatencyS: AllReduceLatencyInfinityFabricS},
		SMs:          120, BoostClockHz: 1.502 * ghz,
		Sources: []Source{{Fields: []string{fieldMemory, fieldBandwidth, fieldPeakFLOPS, fieldInterconnect, fieldSMs, fieldClock}, Citation: citeMI100}, {Fields: latencyFields, Citation: citeLatencyXGMI}},
	},
	{
		// RDNA 3 (gfx1100), wave32: 96 CUs at a 2.5 GHz boost.
		ID: "rx-7900-xtx", Name: "AMD Radeon RX 7900 XTX 24GB", Vendor: "AMD",
		Aliases:     []string{"7900 XTX", "gfx1100"},
		MemoryBytes: 24 * GiB, MemoryBandwidthBytesPerS: 960 * gbPerS,
		// FP32 61.4 (dual issue); 16-bit WMMA 122.8 TFLOPS.
		PeakFLOPS:    PeakFLOPS{FP32: 61.4 * teraFLOPS, BF16: 122.8 * teraFLOPS},
		Interconnect: pcie4x16,
		SMs:          96, BoostClockHz: 2.5 * ghz,
		Sources: []Source{{Fields: []string{fieldMemory, fieldBandwidth, fieldPeakFLOPS, fieldInterconnect, fieldSMs, fieldClock}, Citation: citeRX7900XTX}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
}
