package hardware

// NVIDIA datacenter GPUs. Tensor rates are dense: where a datasheet quotes
// the 2:4-sparsity figure (marked "*" there) it is halved here. BF16 is the
// fp16/bf16 tensor rate with fp32 accumulate.

var nvidiaDatacenter = []Accelerator{
	{
		ID:                       "t4",
		Name:                     "NVIDIA T4 16GB",
		Vendor:                   "NVIDIA",
		Aliases:                  []string{"Tesla T4", "T4 16GB"},
		MemoryBytes:              16 * GiB,
		MemoryReportedBytes:      14.58 * GiB,
		MemoryBandwidthBytesPerS: 320 * gbPerS,
		// Turing: no bf16 and no tf32; BF16 holds the fp16 mixed-precision
		// tensor rate (65 TFLOPS, dense: Turing has no sparsity).
		PeakFLOPS:    PeakFLOPS{FP32: 8.1 * teraFLOPS, BF16: 65 * teraFLOPS, INT8: 130 * teraFLOPS},
		Interconnect: pcie3x16,
		SMs:          40, BoostClockHz: 1.59 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeT4}, {Fields: []string{fieldReported}, Citation: citeRepT4}, {Fields: latencyFields, Citation: citeLatencyPCIe}, {Fields: smFields, Citation: citeSMT4}},
	},
	{
		ID:                       "a10",
		Name:                     "NVIDIA A10 24GB",
		Vendor:                   "NVIDIA",
		MemoryBytes:              24 * GiB,
		MemoryReportedBytes:      22.18 * GiB,
		MemoryBandwidthBytesPerS: 600 * gbPerS,
		PeakFLOPS:                PeakFLOPS{FP32: 31.2 * teraFLOPS, TF32: 62.5 * teraFLOPS, BF16: 125 * teraFLOPS, INT8: 250 * teraFLOPS},
		Interconnect:             pcie4x16,
		Sources:                  []Source{{Fields: datasheet, Citation: citeA10}, {Fields: []string{fieldReported}, Citation: citeRepA10}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		ID:                       "a10g",
		Name:                     "NVIDIA A10G 24GB (AWS G5)",
		Vendor:                   "NVIDIA",
		Aliases:                  []string{"A10G 24GB"},
		MemoryBytes:              24 * GiB,
		MemoryReportedBytes:      22.06 * GiB,
		MemoryBandwidthBytesPerS: 600 * gbPerS,
		// AWS-only variant: more CUDA-core throughput, GeForce-like tensor
		// rate (fp32 accumulate at half rate). No published INT8 figure.
		PeakFLOPS:    PeakFLOPS{FP32: 35 * teraFLOPS, TF32: 35 * teraFLOPS, BF16: 70 * teraFLOPS},
		Interconnect: pcie4x16,
		Sources:      []Source{{Fields: datasheet, Citation: citeA10G}, {Fields: []string{fieldReported}, Citation: citeRepA10G}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		ID:                       "l4",
		Name:                     "NVIDIA L4 24GB",
		Vendor:                   "NVIDIA",
		MemoryBytes:              24 * GiB,
		MemoryReportedBytes:      22.03 * GiB,
		MemoryBandwidthBytesPerS: 300 * gbPerS,
		// Datasheet (sparse): TF32 120, BF16 242, FP8 485, INT8 485.
		PeakFLOPS:    PeakFLOPS{FP32: 30.3 * teraFLOPS, TF32: 60 * teraFLOPS, BF16: 121 * teraFLOPS, FP8: 242.5 * teraFLOPS, INT8: 242.5 * teraFLOPS},
		Interconnect: pcie4x16,
		Sources:      []Source{{Fields: datasheet, Citation: citeL4}, {Fields: []string{fieldReported}, Citation: citeRepL4}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		ID:                       "l40s",
		Name:                     "NVIDIA L40S 48GB",
		Vendor:                   "NVIDIA",
		MemoryBytes:              48 * GiB,
		MemoryReportedBytes:      44.40 * GiB,
		MemoryBandwidthBytesPerS: 864 * gbPerS,
		// Datasheet (sparse): TF32 366, BF16 733, FP8 1466, INT8 1466.
		PeakFLOPS:    PeakFLOPS{FP32: 91.6 * teraFLOPS, TF32: 183 * teraFLOPS, BF16: 362.05 * teraFLOPS, FP8: 733 * teraFLOPS, INT8: 733 * teraFLOPS},
		Interconnect: pcie4x16,
		Sources:      []Source{{Fields: datasheet, Citation: citeL40S}, {Fields: []string{fieldReported}, Citation: citeRepL40S}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		ID:                       "l40",
		Name:                     "NVIDIA L40 48GB",
		Vendor:                   "NVIDIA",
		MemoryBytes:              48 * GiB,
		MemoryBandwidthBytesPerS: 864 * gbPerS,
		// Datasheet (sparse): TF32 181, BF16 362, FP8 724, INT8 724.
		PeakFLOPS:    PeakFLOPS{FP32: 90.5 * teraFLOPS, TF32: 90.5 * teraFLOPS, BF16: 181 * teraFLOPS, FP8: 362 * teraFLOPS, INT8: 362 * teraFLOPS},
		Interconnect: pcie4x16,
		Sources:      []Source{{Fields: datasheet, Citation: citeL40}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		ID:                       "a40",
		Name:                     "NVIDIA A40 48GB",
		Vendor:                   "NVIDIA",
		MemoryBytes:              48 * GiB,
		MemoryReportedBytes:      44.42 * GiB,
		MemoryBandwidthBytesPerS: 696 * gbPerS,
		PeakFLOPS:                PeakFLOPS{FP32: 37.4 * teraFLOPS, TF32: 74.8 * teraFLOPS, BF16: 149.7 * teraFLOPS, INT8: 299.3 * teraFLOPS},
		// An NVLink bridge (112.5 GB/s bidirectional) joins pairs only;
		// tensor parallelism beyond two cards runs over PCIe.
		Interconnect: pcie4x16,
		Sources:      []Source{{Fields: datasheet, Citation: citeA40}, {Fields: []string{fieldReported}, Citation: citeRepA40}, {Fields: latencyFields, Citation: citeLatencyPCIe}},
	},
	{
		ID:                       "v100-sxm2-32gb",
		Name:                     "NVIDIA V100 SXM2 32GB",
		Vendor:                   "NVIDIA",
		Aliases:                  []string{"Tesla V100", "V100 32GB"},
		MemoryBytes:              32 * GiB,
		MemoryBandwidthBytesPerS: 900 * gbPerS,
		// Volta: fp16 tensor cores only (no bf16, tf32 or int8 tensor
		// path); BF16 holds the fp16 tensor rate.
		PeakFLOPS:    PeakFLOPS{FP32: 15.7 * teraFLOPS, BF16: 125 * teraFLOPS},
		Interconnect: nvlink2,
		SMs:          80, BoostClockHz: 1.53 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeV100}, {Fields: latencyFields, Citation: citeLatencyNVLink}, {Fields: smFields, Citation: citeSMVolta}},
	},
	{
		ID:                       "a100-pcie-40gb",
		Name:                     "NVIDIA A100 PCIe 40GB",
		Vendor:                   "NVIDIA",
		Aliases:                  []string{"A100-PCIE-40GB"},
		MemoryBytes:              40 * GiB,
		MemoryBandwidthBytesPerS: 1555 * gbPerS,
		PeakFLOPS:                a100FLOPS,
		// An NVLink bridge joins pairs only; TP beyond two runs over PCIe.
		Interconnect: pcie4x16,
		SMs:          108, BoostClockHz: 1.41 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeA100}, {Fields: latencyFields, Citation: citeLatencyPCIe}, {Fields: smFields, Citation: citeSMA100}},
	},
	{
		ID:                       "a100-pcie-80gb",
		Name:                     "NVIDIA A100 PCIe 80GB",
		Vendor:                   "NVIDIA",
		Aliases:                  []string{"A100 80GB PCIe"},
		MemoryBytes:              80 * GiB,
		MemoryBandwidthBytesPerS: 1935 * gbPerS,
		PeakFLOPS:                a100FLOPS,
		Interconnect:             pcie4x16,
		SMs:                      108, BoostClockHz: 1.41 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeA100}, {Fields: latencyFields, Citation: citeLatencyPCIe}, {Fields: smFields, Citation: citeSMA100}},
	},
	{
		ID:                       "a100-sxm-40gb",
		Name:                     "NVIDIA A100 SXM4 40GB",
		Vendor:                   "NVIDIA",
		Aliases:                  []string{"A100-SXM4-40GB"},
		MemoryBytes:              40 * GiB,
		MemoryBandwidthBytesPerS: 1555 * gbPerS,
		PeakFLOPS:                a100FLOPS,
		Interconnect:             nvlink3,
		SMs:                      108, BoostClockHz: 1.41 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeA100}, {Fields: latencyFields, Citation: citeLatencyNVLink}, {Fields: smFields, Citation: citeSMA100}},
	},
	{
		ID:                       "a100-sxm-80gb",
		Name:                     "NVIDIA A100 SXM4 80GB",
		Vendor:                   "NVIDIA",
		Aliases:                  []string{"A100-SXM4-80GB"},
		MemoryBytes:              80 * GiB,
		MemoryReportedBytes:      79.15 * GiB,
		MemoryBandwidthBytesPerS: 2039 * gbPerS,
		PeakFLOPS:                a100FLOPS,
		Interconnect:             nvlink3,
		SMs:                      108, BoostClockHz: 1.41 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeA100}, {Fields: []string{fieldReported}, Citation: citeRepA100}, {Fields: latencyFields, Citation: citeLatencyNVLink}, {Fields: smFields, Citation: citeSMA100}},
	},
	{
		ID:                       "h100-pcie-80gb",
		Name:                     "NVIDIA H100 PCIe 80GB",
		Vendor:                   "NVIDIA",
		Aliases:                  []string{"H100 PCIe"},
		MemoryBytes:              80 * GiB,
		MemoryBandwidthBytesPerS: 2 * tbPerS,
		// Datasheet (sparse): TF32 756, BF16 1513, FP8 3026, INT8 3026.
		PeakFLOPS:    PeakFLOPS{FP32: 51 * teraFLOPS, TF32: 378 * teraFLOPS, BF16: 756.5 * teraFLOPS, FP8: 1513 * teraFLOPS, INT8: 1513 * teraFLOPS},
		Interconnect: pcie5x16,
		SMs:          114, BoostClockHz: 1.755 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeH100}, {Fields: latencyFields, Citation: citeLatencyPCIe}, {Fields: smFields, Citation: citeSMH100}},
	},
	{
		ID:     "h100-sxm-80gb",
		Name:   "NVIDIA H100 SXM5 80GB",
		Vendor: "NVIDIA",
		// "H100" alone names this part (the one clouds and HGX boards
		// carry); "H100 80GB HBM3" is what nvidia-smi prints for it.
		Aliases:                  []string{"H100", "H100 80GB HBM3", "H100 SXM5"},
		MemoryBytes:              80 * GiB,
		MemoryReportedBytes:      79.19 * GiB,
		MemoryBandwidthBytesPerS: 3.35 * tbPerS,
		PeakFLOPS:                hopperSXMFLOPS,
		Interconnect:             nvlink4,
		SMs:                      132, BoostClockHz: 1.98 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeH100}, {Fields: []string{fieldReported}, Citation: citeRepH100}, {Fields: latencyFields, Citation: citeLatencyNVLink}, {Fields: smFields, Citation: citeSMH100}},
	},
	{
		ID:                       "h100-nvl-94gb",
		Name:                     "NVIDIA H100 NVL 94GB",
		Vendor:                   "NVIDIA",
		Aliases:                  []string{"H100 NVL"},
		MemoryBytes:              94 * GiB,
		MemoryBandwidthBytesPerS: 3.9 * tbPerS,
		PeakFLOPS:                hopperNVLFLOPS,
		// NVLink bridge: 600 GB/s bidirectional between the two cards of a pair.
		Interconnect: Interconnect{Name: "NVLink 4 bridge (pairs)", BandwidthBytesPerS: 300 * gbPerS, LatencyS: AllReduceLatencyNVLinkS, BusBandwidthBytesPerS: 300 * gbPerS * busEfficiencyBridge},
		SMs:          132, BoostClockHz: 1.776 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeH100}, {Fields: latencyFields, Citation: citeLatencyNVLink}, {Fields: smFields, Citation: citeSMH100}},
	},
	{
		ID:                       "h200-sxm-141gb",
		Name:                     "NVIDIA H200 SXM 141GB",
		Vendor:                   "NVIDIA",
		Aliases:                  []string{"H200", "H200 SXM"},
		MemoryBytes:              141 * GiB,
		MemoryReportedBytes:      139.80 * GiB,
		MemoryBandwidthBytesPerS: 4.8 * tbPerS,
		PeakFLOPS:                hopperSXMFLOPS,
		Interconnect:             nvlink4,
		SMs:                      132, BoostClockHz: 1.98 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeH200}, {Fields: []string{fieldReported}, Citation: citeRepH200}, {Fields: latencyFields, Citation: citeLatencyNVLink}, {Fields: smFields, Citation: citeSMH100}},
	},
	{
		ID:                       "h200-nvl-141gb",
		Name:                     "NVIDIA H200 NVL 141GB",
		Vendor:                   "NVIDIA",
		Aliases:                  []string{"H200 NVL"},
		MemoryBytes:              141 * GiB,
		MemoryBandwidthBytesPerS: 4.8 * tbPerS,
		PeakFLOPS:                hopperNVLFLOPS,
		// NVLink bridge joins 2 or 4 cards at 900 GB/s bidirectional.
		Interconnect: Interconnect{Name: "NVLink 4 bridge (2- or 4-way)", BandwidthBytesPerS: 450 * gbPerS, LatencyS: AllReduceLatencyNVLinkS, BusBandwidthBytesPerS: 450 * gbPerS * busEfficiencyBridge},
		SMs:          132, BoostClockHz: 1.776 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeH200}, {Fields: latencyFields, Citation: citeLatencyNVLink}, {Fields: smFields, Citation: citeSMH100}},
	},
	{
		ID:                       "h20",
		Name:                     "NVIDIA H20 96GB",
		Vendor:                   "NVIDIA",
		MemoryBytes:              96 * GiB,
		MemoryBandwidthBytesPerS: 4 * tbPerS,
		PeakFLOPS:                PeakFLOPS{FP32: 44 * teraFLOPS, TF32: 74 * teraFLOPS, BF16: 148 * teraFLOPS, FP8: 296 * teraFLOPS, INT8: 296 * teraFLOPS},
		Interconnect:             nvlink4,
		Sources:                  []Source{{Fields: datasheet, Citation: citeH20}, {Fields: latencyFields, Citation: citeLatencyNVLink}},
	},
	{
		ID:     "b200",
		Name:   "NVIDIA B200 180GB (HGX)",
		Vendor: "NVIDIA",
		// 180 GiB enabled of 192 GiB of HBM3e; the 178.36 GiB PyTorch
		// reports exceeds 180e9 bytes, so the nominal figure is binary.
		Aliases:                  []string{"B200 180GB", "HGX B200", "DGX B200"},
		MemoryBytes:              180 * GiB,
		MemoryReportedBytes:      178.36 * GiB,
		MemoryBandwidthBytesPerS: 8 * tbPerS,
		// HGX B200 (8 GPUs, sparse): FP4 144 PF, FP8 72 PF, BF16 36 PF,
		// TF32 18 PF, INT8 72 POPS; FP32 600 TF.
		PeakFLOPS:    PeakFLOPS{FP32: 75 * teraFLOPS, TF32: 1125 * teraFLOPS, BF16: 2250 * teraFLOPS, FP8: 4500 * teraFLOPS, INT8: 4500 * teraFLOPS, FP4: 9000 * teraFLOPS},
		Interconnect: nvlink5,
		SMs:          148, BoostClockHz: 1.98 * ghz,
		Sources: []Source{{Fields: datasheet, Citation: citeB200}, {Fields: []string{fieldReported}, Citation: citeRepB200}, {Fields: latencyFields, Citation: citeLatencyNVLink}, {Fields: smFields, Citation: citeSMB200}},
	},
	{
		ID:     "gb200",
		Name:   "NVIDIA GB200 (per Blackwell GPU)",
		Vendor: "NVIDIA",
		// One of the two Blackwell GPUs of a Grace Blackwell superchip,
		// in an NVL72 rack: 372 GB HBM3e and 16 TB/s per superchip.
		Aliases:                  []string{"GB200 NVL72"},
		MemoryBytes:              186 * GiB,
		MemoryBandwidthBytesPerS: 8 * tbPerS,
		// GB200 superchip (2 GPUs, sparse): FP4 40 PF, FP8 20 PF, BF16
		// 10 PF, TF32 5 PF, INT8 20 POPS; FP32 160 TF.
		PeakFLOPS:    PeakFLOPS{FP32: 80 * teraFLOPS, TF32: 1250 * teraFLOPS, BF16: 2500 * teraFLOPS, FP8: 5000 * teraFLOPS, INT8: 5000 * teraFLOPS, FP4: 10000 * teraFLOPS},
		Interconnect: nvlink5,
		// NVL72: one NVLink domain of 72 GPUs (the specification's "72
		// GPUs", 130 TB/s of NVLink = 72 x 1.8 TB/s).
		NVLinkDomainGPUs: 72,
		Sources:          []Source{{Fields: datasheet, Citation: citeGB200}, {Fields: []string{fieldDomain}, Citation: citeGB200}, {Fields: latencyFields, Citation: citeLatencyNVLink}},
	},
}

// a100FLOPS is every A100's dense peak (datasheet, sparse in brackets): FP32
// 19.5, TF32 156 (312), BF16 312 (624), INT8 624 (1248) TFLOPS.
var a100FLOPS = PeakFLOPS{FP32: 19.5 * teraFLOPS, TF32: 156 * teraFLOPS, BF16: 312 * teraFLOPS, INT8: 624 * teraFLOPS}

// hopperSXMFLOPS is the dense peak of H100 SXM5 and H200 SXM (H100
// whitepaper dense figures; datasheets quote sparse TF32 989, BF16 1979,
// FP8 3958, INT8 3958).
var hopperSXMFLOPS = PeakFLOPS{FP32: 67 * teraFLOPS, TF32: 494.7 * teraFLOPS, BF16: 989.4 * teraFLOPS, FP8: 1978.9 * teraFLOPS, INT8: 1978.9 * teraFLOPS}

// hopperNVLFLOPS is the dense peak of H100 NVL and H200 NVL (datasheet
// sparse: TF32 835, BF16 1671, FP8 3341, INT8 3341).
var hopperNVLFLOPS = PeakFLOPS{FP32: 60 * teraFLOPS, TF32: 417.5 * teraFLOPS, BF16: 835.5 * teraFLOPS, FP8: 1670.5 * teraFLOPS, INT8: 1670.5 * teraFLOPS}
