package hardware

// Units the catalog literals are written in. They are plain multipliers so
// that a datasheet figure reads as written: 989.4 * teraFLOPS, 3.35 * tbPerS.
const (
	teraFLOPS = 1e12 // operations per second
	gbPerS    = 1e9  // bytes per second (decimal GB, as every datasheet quotes bandwidth)
	tbPerS    = 1e12 // bytes per second (decimal TB)
	ghz       = 1e9  // hertz
)

// All-reduce latency estimates, in seconds, for one small (decode-sized,
// tens of KiB) all-reduce across a tensor-parallel group. These are
// engineering estimates, not datasheet figures: they set the fixed cost per
// all-reduce that the bandwidth term cannot capture.
const (
	// AllReduceLatencyNVLinkS is for GPUs joined by NVLink through NVSwitch
	// (HGX/DGX, NVL72) or an NVLink bridge. Basis: NCCL's LL protocol and
	// vLLM's custom all-reduce (one-shot over NVLink peer memory) both land
	// at about 5-10 µs per small all-reduce on 8x A100/H100; 8 µs is the
	// middle of that range.
	AllReduceLatencyNVLinkS = 8e-6
	// AllReduceLatencyPCIeS is for GPUs that reach each other over PCIe
	// only (no NVLink): NCCL ring all-reduce through the PCIe switch or the
	// CPU root complex. Measured: an 8-byte all_reduce_perf takes 40-42 µs
	// on 8 RTX 4090s (https://github.com/NVIDIA/nccl/issues/1530); vLLM
	// does not run its custom all-reduce on more than two PCIe-only GPUs
	// (vllm/distributed/device_communicators/custom_all_reduce.py), so
	// every decode all-reduce pays NCCL's latency; 40 µs.
	AllReduceLatencyPCIeS = 40e-6
	// AllReduceLatencyInfinityFabricS is for AMD Instinct GPUs on an xGMI
	// (Infinity Fabric) mesh: RCCL and vLLM's ROCm custom all-reduce run a
	// little slower than NVLink for small messages; 10 µs.
	AllReduceLatencyInfinityFabricS = 10e-6
	// AllReduceLatencyICIS is for TPU chips on the inter-chip interconnect
	// of one host (2D torus); 10 µs, the same order as NVLink.
	AllReduceLatencyICIS = 10e-6
	// AllReduceLatencyRoCES is for Intel Gaudi, whose scale-up links are
	// on-die RoCE v2 Ethernet ports (all-to-all inside an 8-card server):
	// an RDMA round trip adds a few µs over NVLink; 15 µs.
	AllReduceLatencyRoCES = 15e-6
)

// PCIe x16 bandwidth per direction, in bytes per second: NVIDIA datasheets
// quote the bidirectional figure ("PCIe Gen4: 64 GB/s"), halved here. Real
// transfers reach about 80 % of these (25 GB/s on Gen4).
const (
	pcie3x16BytesPerS = 16 * gbPerS
	pcie4x16BytesPerS = 32 * gbPerS
	pcie5x16BytesPerS = 64 * gbPerS
)

// Measured all-reduce bus bandwidth over the line rate (nccl-tests busbw,
// large messages), by kind of link:
//   - PCIe: 35 GB/s on 4 RTX 5090s and 28 GB/s on 8 over PCIe 5.0 x16
//     (64 GB/s per direction; https://github.com/NVIDIA/nccl/issues/1639):
//     35/64 = 0.55, the host bridge and CPU memory limiting (NCCL
//     maintainer's comment there);
//   - NVLink through NVSwitch: 370 GB/s ring busbw on H100 (450 GB/s line
//     rate; https://github.com/NVIDIA/nccl-tests/issues/212): 0.82;
//   - NVLink bridge pairs: 116 GB/s on two bridged H100 PCIe
//     (https://github.com/NVIDIA/nccl/issues/1161), 0.39 of 300 GB/s.
const (
	busEfficiencyPCIe   = 35.0 / 64
	busEfficiencyNVLink = 370.0 / 450
	busEfficiencyBridge = 116.0 / 300
)

// Interconnects shared by several entries.
var (
	pcie3x16 = Interconnect{Name: "PCIe 3.0 x16", BandwidthBytesPerS: pcie3x16BytesPerS, LatencyS: AllReduceLatencyPCIeS, BusBandwidthBytesPerS: pcie3x16BytesPerS * busEfficiencyPCIe}
	pcie4x16 = Interconnect{Name: "PCIe 4.0 x16", BandwidthBytesPerS: pcie4x16BytesPerS, LatencyS: AllReduceLatencyPCIeS, BusBandwidthBytesPerS: pcie4x16BytesPerS * busEfficiencyPCIe}
	pcie5x16 = Interconnect{Name: "PCIe 5.0 x16", BandwidthBytesPerS: pcie5x16BytesPerS, LatencyS: AllReduceLatencyPCIeS, BusBandwidthBytesPerS: pcie5x16BytesPerS * busEfficiencyPCIe}

	// NVLink 2 (V100 SXM2): 300 GB/s total bidirectional per GPU.
	nvlink2 = Interconnect{Name: "NVLink 2 (hybrid cube mesh)", BandwidthBytesPerS: 150 * gbPerS, LatencyS: AllReduceLatencyNVLinkS, BusBandwidthBytesPerS: 150 * gbPerS * busEfficiencyNVLink}
	// NVLink 3 (A100 SXM4): 600 GB/s total bidirectional per GPU.
	nvlink3 = Interconnect{Name: "NVLink 3 (NVSwitch)", BandwidthBytesPerS: 300 * gbPerS, LatencyS: AllReduceLatencyNVLinkS, BusBandwidthBytesPerS: 300 * gbPerS * busEfficiencyNVLink}
	// NVLink 4 (H100/H200/H20 SXM5): 900 GB/s total bidirectional per GPU.
	nvlink4 = Interconnect{Name: "NVLink 4 (NVSwitch)", BandwidthBytesPerS: 450 * gbPerS, LatencyS: AllReduceLatencyNVLinkS, BusBandwidthBytesPerS: 450 * gbPerS * busEfficiencyNVLink}
	// NVLink 5 (B200, GB200): 1.8 TB/s total bidirectional per GPU.
	nvlink5 = Interconnect{Name: "NVLink 5 (NVSwitch)", BandwidthBytesPerS: 900 * gbPerS, LatencyS: AllReduceLatencyNVLinkS, BusBandwidthBytesPerS: 900 * gbPerS * busEfficiencyNVLink}

	// noInterconnect is for single-chip machines (Apple silicon): there is
	// no tensor-parallel peer to talk to.
	noInterconnect = Interconnect{Name: "none (single chip)"}
)
