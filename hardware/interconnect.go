package hardware

import "strings"

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

// Without peer-to-peer access (PCIe ACS or an IOMMU blocking it, a
// virtual machine, consumer cards, or vLLM's P2P test failing), GPUs of one
// machine cannot write each other's memory, so NCCL moves the all-reduce
// through the SHM transport: each rank's kernel writes its chunks into
// pinned host memory and the peer's kernel reads them back over its own
// PCIe link, two PCIe crossings and host memory in place of one direct
// write. nccl-tests all_reduce_perf -g 2 on two RTX 2080 Ti over PCIe 3.0
// x16 whose topology reports P2P "NS" (not supported; NCCL 2.x, CUDA 12.4;
// Anthony-Hoo/Anthony-Hoo.github.io posts/AutoDL_Multi-GPU_Interconnection_Test.md
// at commit 37e805e8e56f839f6557756d76503d45af6ab47e) measures, out of place:
//
//	size   8 B     16 KiB  64 KiB  128 KiB  256 KiB  512 KiB  1 MiB   >= 16 MiB
//	time   12.3 µs 17.1 µs 40.1 µs 56.9 µs  86.0 µs  150 µs   280 µs
//	busbw  -       0.96    1.63    2.30     3.05     3.49     3.75    4.00 GB/s
//
// The same host's copies through host memory reach 5.7 GB/s one way
// (p2pBandwidthLatencyTest, P2P=Disabled) and 12-13 GB/s host to device
// (bandwidthTest): the SHM all-reduce keeps a quarter of the PCIe 3.0 x16
// line rate (4.00 of 16 GB/s per direction), where a P2P ring over PCIe keeps
// 0.55 (busEfficiencyPCIe).
const (
	// busEfficiencyPCIeSHM is the SHM all-reduce's large-message busbw
	// over the per-direction PCIe line rate: 4.00 / 16 GB/s. It is taken
	// to hold for every PCIe generation (the transport crosses the same
	// link twice and host memory once, so it scales with the link).
	busEfficiencyPCIeSHM = 4.00 / 16
	// AllReduceLatencySHMS is the fixed time of one SHM all-reduce between
	// two GPUs, in seconds: the intercept of a straight line through the
	// table's 16 KiB to 1 MiB rows (the decode all-reduces of 1 to 140
	// tokens of a 4096-wide model), least squares on the times: 19.5 µs
	// with 4.02 GB/s for the slope, which is the table's large-message
	// busbw, so the line is latency + bytes / busbw. The 8-byte all-reduce
	// alone takes 12 µs; the staging's extra flag round trips through
	// host memory make the mid sizes slower than that plus bytes / busbw.
	AllReduceLatencySHMS = 19.5e-6
)

// WithoutP2P returns the link tensor-parallel all-reduces run over when the
// GPUs lack peer-to-peer access: NCCL's SHM transport through host memory,
// at AllReduceLatencySHMS and busEfficiencyPCIeSHM of the PCIe line rate.
// vLLM's custom all-reduce needs P2P: CustomAllreduce (vllm/distributed/
// device_communicators/custom_all_reduce.py, read at vllm-project/vllm
// commit 00d618aab604) disables itself with "Custom allreduce is disabled
// because your platform lacks GPU P2P capability or P2P test failed" when
// _can_p2p fails (with VLLM_SKIP_P2P_CHECK, when the driver's
// can_device_access_peer says no), and every all-reduce then goes to NCCL
// through pynccl, whatever its size; with P2P on two PCIe GPUs it would
// take the messages under its 8 MiB max_size (should_custom_ar: world size
// 2 or fully connected). vLLM 0.10.1.1 logs the same two lines
// (custom_all_reduce.py:35 "Skipping P2P check and trusting the driver's
// P2P report", :147 the warning) in dennislee22/vLLM-benchmarking
// log/vllm-7B-2gpuA10080GB-0.25GRAM-same-node.log at commit b474d1e053c3,
// with nccl==2.26.2.
// ok is false for a link that is not PCIe (NVLink, Infinity Fabric, ICI,
// Ethernet: without P2P those GPUs would fall back to their host PCIe
// link, whose generation the catalog does not give).
func (i Interconnect) WithoutP2P() (Interconnect, bool) {
	if !strings.HasPrefix(i.Name, "PCIe") || i.BandwidthBytesPerS <= 0 {
		return i, false
	}
	return Interconnect{
		Name:                  i.Name + ", no P2P (NCCL SHM through host memory)",
		BandwidthBytesPerS:    i.BandwidthBytesPerS * busEfficiencyPCIeSHM,
		LatencyS:              AllReduceLatencySHMS,
		BusBandwidthBytesPerS: i.BandwidthBytesPerS * busEfficiencyPCIeSHM,
	}, true
}

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
