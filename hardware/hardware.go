// Package hardware is the accelerator catalog: memory capacity, memory
// bandwidth, dense peak throughput per precision and the tensor-parallel
// interconnect of the chips people serve LLMs on, each figure with its source.
//
// It is a leaf package: it imports nothing from this module but the units
// its figures are in (internal/units).
//
// Units: memory in bytes (GB means 10^9 bytes, GiB means 2^30 bytes; both are
// spelled out wherever a figure is quoted), bandwidth in bytes per second,
// throughput in floating-point (or integer) operations per second, latency in
// seconds.
package hardware

import "github.com/modelrefs/throughput/internal/units"

// Bytes is an amount of memory in bytes (the engine's units.Bytes).
type Bytes = units.Bytes

// Binary and decimal byte multiples.
const (
	KiB = units.KiB
	MiB = units.MiB
	GiB = units.GiB
	GB  = units.GB
	TB  = units.TB
)

// Precision names a numeric format a chip's matrix units execute.
type Precision string

// The precisions the catalog records. BF16 stands for both bf16 and fp16,
// which every listed chip runs at the same dense rate.
const (
	FP32 Precision = "fp32"
	TF32 Precision = "tf32"
	BF16 Precision = "bf16"
	FP8  Precision = "fp8"
	INT8 Precision = "int8"
	FP4  Precision = "fp4"
)

// PeakFLOPS is the dense (no structured sparsity) peak of a chip's matrix
// units in operations per second for each precision. Zero means the chip has
// no native support for that precision.
type PeakFLOPS struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	FP32 float64 `json:"fp32"`
	TF32 float64 `json:"tf32"`
	BF16 float64 `json:"bf16"`
	FP8  float64 `json:"fp8"`
	INT8 float64 `json:"int8"`
	FP4  float64 `json:"fp4"`
	// FP16Acc is the dense fp16 rate of the tensor cores with fp16
	// accumulate where it exceeds BF16's (the fp32-accumulate rate the
	// serving engines multiply at): on GeForce cards it is twice that
	// (Ampere GA102, Ada and Blackwell GeForce whitepapers: RTX 3090 142
	// against 71, RTX 4090 330.3 against 165.2 TFLOPS). llama.cpp's cuBLAS
	// GEMMs accumulate in fp16 (ggml-cuda.cu ggml_cuda_op_mul_mat_cublas:
	// cublasGemmEx with CUBLAS_COMPUTE_16F on NVIDIA). 0: BF16's rate.
	FP16Acc float64 `json:"fp16_acc,omitempty"`
}

// For returns the dense peak for p in operations per second, falling back to
// the next wider format the chip runs natively (fp4 to fp8 to bf16, int8 to
// bf16, tf32 to fp32 to bf16): a chip without fp8 units computes an fp8 model
// at its bf16 rate after upcasting. It returns 0 only when no format is known.
func (f PeakFLOPS) For(p Precision) float64 {
	switch p {
	case FP4:
		if f.FP4 > 0 {
			return f.FP4
		}
		return f.For(FP8)
	case FP8:
		if f.FP8 > 0 {
			return f.FP8
		}
		return f.BF16
	case INT8:
		if f.INT8 > 0 {
			return f.INT8
		}
		return f.BF16
	case TF32:
		if f.TF32 > 0 {
			return f.TF32
		}
		return f.For(FP32)
	case FP32:
		if f.FP32 > 0 {
			return f.FP32
		}
		return f.BF16
	default:
		return f.BF16
	}
}

// Interconnect is the link tensor-parallel ranks all-reduce over.
type Interconnect struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	// Name of the link, e.g. "NVLink 4 (NVSwitch)" or "PCIe 4.0 x16".
	Name string `json:"name"`
	// BandwidthBytesPerS is the unidirectional bandwidth one GPU can drive
	// to its peers, in bytes per second.
	BandwidthBytesPerS float64 `json:"bandwidth_bytes_per_s"`
	// LatencyS is the end-to-end latency of one small all-reduce step, in
	// seconds.
	LatencyS float64 `json:"latency_s"`
	// BusBandwidthBytesPerS is the all-reduce bus bandwidth measured on
	// this kind of link (nccl-tests' busbw for a large ring all-reduce, in
	// bytes per second): the line rate less NCCL's protocol overhead and,
	// on PCIe, the host bridge's limits. 0 (custom hardware): the line rate
	// times DefaultBusEfficiency. Not part of the JSON contract.
	BusBandwidthBytesPerS float64 `json:"-"`
}

// DefaultBusEfficiency is the all-reduce bus bandwidth over the line rate
// taken for a link without a measured figure: NCCL's protocol overhead is
// about 20 % ("450GB/s is the line rate. With the protocol overhead (~20%)
// NCCL can get an effective NVLink bandwidth of 370GB/s", NCCL maintainer,
// https://github.com/NVIDIA/nccl-tests/issues/212).
const DefaultBusEfficiency = 0.8

// AllReduceBusBandwidth returns the bus bandwidth a ring all-reduce over
// this link achieves, in bytes per second: the measured figure, or the
// line rate times DefaultBusEfficiency.
func (i Interconnect) AllReduceBusBandwidth() float64 {
	if i.BusBandwidthBytesPerS > 0 {
		return i.BusBandwidthBytesPerS
	}
	return i.BandwidthBytesPerS * DefaultBusEfficiency
}

// Source says where one or more figures of an entry come from.
type Source struct {
	// Fields lists the JSON field names the source backs, e.g.
	// ["memory_bandwidth_bytes_per_s", "peak_flops"].
	Fields []string `json:"fields"`
	// Citation is a datasheet title, URL or document reference.
	Citation string `json:"citation"`
}

// Accelerator is one chip (per GPU for multi-die packages such as GB200).
type Accelerator struct {
	// ID is the canonical catalog id, lower-case and dash-separated, e.g.
	// "h100-sxm-80gb".
	ID string `json:"id"`
	// Name is the marketing name, e.g. "NVIDIA H100 SXM5 80GB".
	Name string `json:"name"`
	// Vendor is the maker as it spells itself: "NVIDIA", "AMD", "Intel",
	// "Google", "AWS" or "Apple".
	Vendor string `json:"vendor"`
	// Aliases are extra spellings lookup accepts besides the id and name.
	Aliases []string `json:"aliases,omitempty"`
	// MemoryBytes is the nominal memory capacity in bytes as the vendor
	// states it (an "80 GB" H100 has 80 GiB of HBM).
	MemoryBytes Bytes `json:"memory_bytes"`
	// MemoryReportedBytes is the total the driver reports to a serving
	// engine (cudaMemGetInfo total, torch.cuda.mem_get_info), which is what
	// gpu_memory_utilization multiplies. Zero when unknown: see
	// ReportedMemory.
	MemoryReportedBytes Bytes `json:"memory_reported_bytes,omitempty"`
	// UnifiedMemory is true when the chip's memory is system memory shared
	// with the CPU and the operating system (DGX Spark, Jetson, Apple
	// silicon, Strix Halo): the engine can use only what is free when it
	// starts, not the nominal total. See FreeMemory.
	UnifiedMemory bool `json:"unified_memory,omitempty"`
	// MemoryFreeBytes is the memory free to a serving engine when it
	// starts, in bytes, on a machine at rest (the operating system, its
	// services and the driver resident): what vLLM's start-up check
	// compares gpu_memory_utilization x total against. Zero when unknown:
	// see FreeMemory.
	MemoryFreeBytes Bytes `json:"memory_free_bytes,omitempty"`
	// MemoryBandwidthBytesPerS is the peak memory bandwidth in bytes per
	// second (datasheet).
	MemoryBandwidthBytesPerS float64 `json:"memory_bandwidth_bytes_per_s"`
	// PeakFLOPS is the dense peak per precision.
	PeakFLOPS PeakFLOPS `json:"peak_flops"`
	// Interconnect is the tensor-parallel link.
	Interconnect Interconnect `json:"interconnect"`
	// NVLinkDomainGPUs is how many GPUs one scale-up domain joins at the
	// Interconnect's bandwidth when it spans more than one node: 72 in a
	// GB200 or GB300 NVL72 rack, whose NVLink Switch trays join all 72
	// GPUs at 1.8 TB/s each (NVIDIA's GB200 and GB300 NVL72
	// specifications). 0: one node of up to 8 GPUs, the HGX and PCIe
	// servers'. The planner spreads an MoE model's experts over that many
	// GPUs (calc/planner shapes).
	NVLinkDomainGPUs int `json:"nvlink_domain_gpus,omitempty"`
	// SMs is the number of streaming multiprocessors (NVIDIA) or compute
	// units (AMD) the chip runs its kernels on; 0 when the catalog does
	// not give it.
	SMs int `json:"sms,omitempty"`
	// BoostClockHz is their boost clock in hertz (the clock the datasheet
	// peak rates assume); 0 when not given.
	BoostClockHz float64 `json:"boost_clock_hz,omitempty"`
	// Sources cites every figure above.
	Sources []Source `json:"sources,omitempty"`
}

// SMCyclesPerS returns the streaming multiprocessors' cycles per second,
// SMs x BoostClockHz: what a kernel whose rate is set by per-SM issue, not
// by DRAM, scales with (calc's llama.cpp weight-streaming limit). 0 when
// either figure is unknown.
func (a *Accelerator) SMCyclesPerS() float64 {
	if a.SMs <= 0 || a.BoostClockHz <= 0 {
		return 0
	}
	return float64(a.SMs) * a.BoostClockHz
}

// ReportedMemory returns the total memory a serving engine sees, in bytes:
// MemoryReportedBytes when the catalog knows it, else the nominal capacity
// less the driver's reservation, estimated as the 1 % that an 80 GiB H100
// loses (80 GiB nominal, 79.19 GiB reported by vLLM 0.19 on H100 SXM).
//
// A unified-memory machine without a known figure loses more: the kernel,
// its carve-outs and the firmware's reservations come out of the same
// memory. Its estimate is the fraction a DGX Spark reports (121.69 GiB of
// 128 GiB, unifiedReportedFraction).
func (a *Accelerator) ReportedMemory() Bytes {
	if a.MemoryReportedBytes > 0 {
		return a.MemoryReportedBytes
	}
	if a.UnifiedMemory {
		return a.MemoryBytes * unifiedReportedFraction
	}
	return a.MemoryBytes * driverReportedFraction
}

// FreeMemory returns the memory free to a serving engine when it starts,
// in bytes: MemoryFreeBytes when known, else ReportedMemory (a discrete
// GPU with nothing else on it has all of its memory free).
//
// The rule is vLLM's (vllm-project/vllm commit a6d5c39009eb,
// vllm/utils/mem_utils.py MemorySnapshot.measure, and
// vllm/v1/worker/gpu_worker.py init_device): total is cudaMemGetInfo's
// total; on the unified-memory CUDA devices (compute capability 8.7 Orin,
// 11.0 Thor, 12.1 GB10; later mains ask current_platform.is_integrated_gpu)
// the free figure is psutil.virtual_memory().available, the system memory
// the OS can still hand out, after NVIDIA's CUDA for Tegra note
// (https://docs.nvidia.com/cuda/cuda-for-tegra-appnote/#estimating-total-allocatable-device-memory-on-an-integrated-gpu-device).
// init_device then refuses to start ("Free memory on device ... on startup
// is less than desired GPU memory utilization") when free < total x
// gpu_memory_utilization. On a unified-memory machine the OS, its services
// and every other process hold part of the total, so the largest
// utilization that starts is free / total, not the default 0.9.
func (a *Accelerator) FreeMemory() Bytes {
	if a.MemoryFreeBytes > 0 {
		return min(a.MemoryFreeBytes, a.ReportedMemory())
	}
	return a.ReportedMemory()
}

// driverReportedFraction is reported/nominal memory on an H100 80GB:
// 79.19 GiB / 80 GiB (vLLM start-up logs, ../shared/validation/cases.json A001).
const driverReportedFraction = 79.19 / 80.0

// unifiedReportedFraction is reported/nominal memory on a DGX Spark (GB10,
// 128 GiB LPDDR5x): 121.69 GiB, the total vLLM prints in its start-up
// check on two independent 2x DGX Spark kits
// (https://github.com/MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks/issues/47,
// /issues/204).
const unifiedReportedFraction = 121.69 / 128.0
