package hardware

// JSON field names a Source can back. "peak_flops" covers every precision of
// PeakFLOPS; "interconnect" covers its name and bandwidth.
const (
	fieldMemory       = "memory_bytes"
	fieldReported     = "memory_reported_bytes"
	fieldFree         = "memory_free_bytes"
	fieldBandwidth    = "memory_bandwidth_bytes_per_s"
	fieldPeakFLOPS    = "peak_flops"
	fieldInterconnect = "interconnect"
	fieldLatency      = "interconnect.latency_s"
	fieldSMs          = "sms"
	fieldClock        = "boost_clock_hz"
)

// datasheet is the usual set of fields one vendor spec page backs.
var datasheet = []string{fieldMemory, fieldBandwidth, fieldPeakFLOPS, fieldInterconnect}

// The catalog's Source values are literals, not built by a helper: a
// composite literal of constants is laid out as static data by the
// compiler, while a function call in it makes the whole entry list
// initialisation code, which the browser engine would carry (about 150
// bytes of gzip per entry; scripts/wasm-size.sh).

// Shared citations for the all-reduce latency estimates (see the
// AllReduceLatency constants for the reasoning), each written into an entry
// as {Fields: latencyFields, Citation: citeLatency...}: a Source variable
// there instead, an element of a slice literal, is copied in by
// initialisation code in any build (the compiler lays out only literals and
// copies of slice and struct variables as static data): 1.1 KB of the
// browser engine's gzip for the 80 entries that cite one.
var latencyFields = []string{fieldLatency}

const (
	citeLatencyNVLink = "Estimate: NCCL LL-protocol and vLLM custom all-reduce small-message latency over NVLink/NVSwitch, about 5-10 µs on 8x A100/H100 (vLLM csrc/custom_all_reduce.cuh, https://github.com/vllm-project/vllm/pull/2192; NCCL tests https://github.com/NVIDIA/nccl-tests)"
	citeLatencyPCIe   = "Estimate: NCCL ring all-reduce small-message latency over PCIe without NVLink, about 15-25 µs (NCCL tests, https://github.com/NVIDIA/nccl-tests)"
	citeLatencyXGMI   = "Estimate: RCCL / vLLM ROCm custom all-reduce small-message latency over Infinity Fabric (xGMI), about 10 µs (https://github.com/ROCm/rccl)"
	citeLatencyICI    = "Estimate: small all-reduce over TPU inter-chip interconnect within one host, about 10 µs"
	citeLatencyRoCE   = "Estimate: small all-reduce over Gaudi on-die RoCE v2 scale-up ports, about 15 µs"
)

// GiB-versus-GB note shared by the HBM entries: HBM stacks come in binary
// sizes (16 GiB, 24 GiB, 36 GiB), so a vendor's "80 GB" part has 80 GiB. The
// reported totals prove it: an H200 "141 GB" reports 139.80 GiB to PyTorch,
// more than 141e9 bytes (131.3 GiB) could hold. GDDR and LPDDR parts are
// binary-sized for the same reason (24 GB GDDR6X = 24 GiB).

// Datasheets and spec pages.
const (
	citeT4        = "NVIDIA T4 Tensor Core GPU datasheet, https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/tesla-t4/t4-tensor-core-datasheet-951643.pdf"
	citeA10       = "NVIDIA A10 Tensor Core GPU datasheet, https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a10/pdf/a10-datasheet.pdf"
	citeA10G      = "Amazon EC2 G5 instances (NVIDIA A10G, 24 GB, 600 GB/s), https://aws.amazon.com/ec2/instance-types/g5/ ; tensor and FP32 rates: Baseten, \"NVIDIA A10 vs A10G for ML model inference\", https://www.baseten.co/blog/nvidia-a10-vs-a10g-for-ml-model-inference/ (NVIDIA publishes no A10G datasheet)"
	citeL4        = "NVIDIA L4 Tensor Core GPU datasheet, https://www.nvidia.com/en-us/data-center/l4/"
	citeL40S      = "NVIDIA L40S GPU datasheet, https://www.nvidia.com/en-us/data-center/l40s/"
	citeL40       = "NVIDIA L40 GPU datasheet, https://www.nvidia.com/en-us/data-center/l40/"
	citeA40       = "NVIDIA A40 GPU datasheet, https://www.nvidia.com/en-us/data-center/a40/"
	citeA100      = "NVIDIA A100 Tensor Core GPU datasheet, https://www.nvidia.com/en-us/data-center/a100/"
	citeH100      = "NVIDIA H100 Tensor Core GPU datasheet, https://www.nvidia.com/en-us/data-center/h100/ ; dense rates: NVIDIA H100 Tensor Core GPU Architecture whitepaper, https://resources.nvidia.com/en-us-tensor-core"
	citeH200      = "NVIDIA H200 Tensor Core GPU datasheet, https://www.nvidia.com/en-us/data-center/h200/"
	citeH20       = "NVIDIA H20 (China export part): no public NVIDIA datasheet; figures as reported by the trade press, e.g. https://willitrunai.com/es/gpus/h20-96gb (96 GB HBM3, 4.0 TB/s, 148 TFLOPS FP16, 296 TFLOPS FP8/INT8, 44 TFLOPS FP32, 74 TFLOPS TF32, NVLink 900 GB/s)"
	citeB200      = "NVIDIA HGX B200 datasheet (per-GPU = 8-GPU figures / 8; tensor figures quoted with sparsity, halved here), https://www.nvidia.com/en-us/data-center/hgx/ ; per-GPU table: https://glennklockwood.com/garden/processors/B200"
	citeGB200     = "NVIDIA GB200 NVL72 specifications (per-GPU = superchip figures / 2; tensor figures quoted with sparsity, halved here), https://www.nvidia.com/en-us/data-center/gb200-nvl72/"
	citeV100      = "NVIDIA V100 Tensor Core GPU datasheet, https://images.nvidia.com/content/technologies/volta/pdf/volta-v100-datasheet-update-us-1165301-r5.pdf"
	citeGA102     = "NVIDIA Ampere GA102 GPU Architecture whitepaper (GeForce RTX 30 series; Peak FP16 Tensor TFLOPS with FP32 Accumulate), https://www.nvidia.com/content/PDF/nvidia-ampere-ga-102-gpu-architecture-whitepaper-v2.pdf"
	citeAda       = "NVIDIA Ada GPU Architecture whitepaper (GeForce RTX 40 series; Peak FP16/FP8 Tensor TFLOPS with FP32 Accumulate), https://images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-architecture.pdf"
	citeRTX50     = "NVIDIA RTX Blackwell GPU Architecture whitepaper (GeForce RTX 5090; Peak FP16/FP8 Tensor TFLOPS with FP32 Accumulate, FP4 dense), https://images.nvidia.com/aem-dam/Solutions/geforce/blackwell/nvidia-rtx-blackwell-gpu-architecture.pdf"
	citeRTX6000   = "NVIDIA RTX 6000 Ada Generation datasheet, https://www.nvidia.com/en-us/design-visualization/rtx-6000/"
	citeRTXA6000  = "NVIDIA RTX A6000 datasheet, https://www.nvidia.com/en-us/design-visualization/rtx-a6000/"
	citeMI250X    = "AMD Instinct MI250X accelerator specifications (per-OAM figures; per-GCD = OAM / 2), https://www.amd.com/en/products/accelerators/instinct/mi200/mi250x.html"
	citeMI300X    = "AMD Instinct MI300X accelerator specifications, https://www.amd.com/en/products/accelerators/instinct/mi300/mi300x.html"
	citeMI325X    = "AMD Instinct MI325X accelerator specifications, https://www.amd.com/en/products/accelerators/instinct/mi300/mi325x.html"
	citeMI355X    = "AMD Instinct MI355X accelerator specifications, https://www.amd.com/en/products/accelerators/instinct/mi350/mi355x.html ; AMD CDNA 4 architecture whitepaper, https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/white-papers/amd-cdna-4-architecture-whitepaper.pdf"
	citeGaudi3    = "Intel Gaudi 3 AI Accelerator white paper, https://www.intel.com/content/www/us/en/content-details/817486/intel-gaudi-3-ai-accelerator-white-paper.html ; Hot Chips 2024, \"Intel Gaudi 3 AI Accelerator: Architected for Gen AI Training and Inference\" (3.67 TB/s, 1835 TFLOPS BF16/FP8 matrix, 24x 200 GbE = 1200 GB/s bidirectional)"
	citeTPUv5e    = "Google Cloud TPU v5e documentation, https://cloud.google.com/tpu/docs/v5e"
	citeTPUv6e    = "Google Cloud TPU v6e (Trillium) documentation, https://cloud.google.com/tpu/docs/v6e"
	citeM2Ultra   = "Apple M2 Ultra announcement (up to 192GB unified memory, 800GB/s, 76-core GPU), https://www.apple.com/newsroom/2023/06/apple-introduces-m2-ultra/"
	citeM3Max     = "Apple M3 family announcement (M3 Max up to 128GB, 400GB/s with the 40-core GPU), https://www.apple.com/newsroom/2023/10/apple-unveils-m3-m3-pro-and-m3-max-the-most-advanced-chips-for-a-personal-computer/"
	citeM4Max     = "Apple M4 Pro and M4 Max announcement (M4 Pro up to 64GB, 273GB/s, 20-core GPU; M4 Max up to 128GB, 546GB/s with the 40-core GPU), https://www.apple.com/newsroom/2024/10/apple-introduces-m4-pro-and-m4-max/"
	citeAppleGPU  = "Estimate: Apple publishes no GPU TFLOPS; FP32 = GPU cores x 128 ALUs x 2 (FMA) x GPU clock; FP16 runs at the FP32 rate (no matrix units outside the Neural Engine, which llama.cpp/MLX do not use)"
	citeMetalWSet = "Metal MTLDevice.recommendedMaxWorkingSetSize is 75 % of unified memory on 64 GB+ machines: llama.cpp logs \"recommendedMaxWorkingSetSize = 73728.00 MB\" on an M2 Max 96 GB (https://github.com/ggml-org/llama.cpp/issues/3213) and \"= 103079.22 MB\" (96 GiB) on an M4 Max 128 GB"
)

// Streaming-multiprocessor counts and boost clocks (sms, boost_clock_hz).
var smFields = []string{fieldSMs, fieldClock}

const (
	citeSMVolta   = "NVIDIA Tesla V100 GPU Architecture whitepaper (2017), Table 1: Tesla V100 SXM2 80 SMs (5120 FP32 cores), GPU boost clock 1530 MHz, https://images.nvidia.com/content/volta-architecture/pdf/volta-architecture-whitepaper.pdf"
	citeSMT4      = "NVIDIA T4 datasheet: 2,560 CUDA cores (40 Turing SMs of 64), 8.1 TFLOPS FP32; boost clock = 8.1e12 / (2 x 2560) = 1.59 GHz, https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/tesla-t4/t4-tensor-core-datasheet-951643.pdf"
	citeSMA100    = "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020), Table 1: A100 108 SMs (6912 FP32 cores), GPU boost clock 1410 MHz (every A100 and the A800, the same GA100 configuration at 19.5 TFLOPS FP32), https://images.nvidia.com/aem-dam/en-zz/Solutions/data-center/nvidia-ampere-architecture-whitepaper.pdf"
	citeSMH100    = "NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022), Table 3: H100 SXM5 132 SMs (16896 FP32 cores), H100 PCIe 114 SMs (14592); H200, H800 and GH200 carry the SXM5 configuration. Boost clock = datasheet FP32 peak / (2 x 128 FP32 cores x SMs): 67 TFLOPS -> 1.98 GHz (SXM5), 51 -> 1.75 GHz (PCIe), 60 -> 1.78 GHz (NVL), https://resources.nvidia.com/en-us-tensor-core"
	citeSMB200    = "B200: 148 SMs (https://glennklockwood.com/garden/processors/B200); boost clock = FP32 peak 75 TFLOPS / (2 x 128 FP32 cores x 148) = 1.98 GHz"
	citeSMGeForce = "NVIDIA GeForce RTX 30/40/50 series and RTX A6000 / RTX 6000 Ada spec pages: CUDA cores and boost clock (SMs = CUDA cores / 128 FP32 cores per Ampere GA10x, Ada and Blackwell SM), https://www.nvidia.com/en-us/geforce/graphics-cards/ ; RTX A6000 10752 cores and RTX 6000 Ada 18176 cores, boost clock = datasheet FP32 peak / (2 x cores)"
)
