package citations

// The citations of the accelerator catalog's figures (Source.Citation),
// each named as the catalog's entries name it (hardware/citations_gen.go
// declares the names there). tools/gen/hwcites writes table_gen.go, each
// accelerator's citations in the order of its sources, from the entries;
// this file holds only the constants (the generator reads their values).

// From catalog_amd.go.
const citeRepMI300X = "vLLM (ROCm) on 8x MI300X, PyTorch OOM \"HIP out of memory ... GPU 0 has a total capacity of 191.98 GiB\", https://github.com/vllm-project/vllm/issues/7951"

// From catalog_more.go.
const (
	citeGH200 = "NVIDIA GH200 Grace Hopper Superchip datasheet (GPU: 96GB HBM3 at 4 TB/s or 144GB HBM3e at 4.9 TB/s; FP32 67 TFLOPS; TF32 989, BF16/FP16 1,979, FP8 3,958 TFLOPS with sparsity, halved here; the H100 SXM's compute), https://resources.nvidia.com/en-us-grace-cpu/grace-hopper-superchip ; https://www.nvidia.com/en-us/data-center/grace-hopper-superchip/"
	// citeAda40 covers the GeForce RTX 40 cards added here, whose rates the
	// Ada whitepaper does not tabulate: SMs x boost clock x 128 FP32 lanes
	// x 2; fp32-accumulate BF16 at 2x, FP8 at 4x and INT8 at 8x that (the
	// 4090 row of the whitepaper: 82.6, 165.2, 330.3, 660.6). NVIDIA's
	// "AI TOPS" (sparse FP8 with FP16 accumulate = 2x the INT8 figure
	// here) checks each: 353, 466, 568 and 836.
	citeAda40 = "NVIDIA GeForce RTX 40 series specifications (CUDA cores, boost clock, memory, AI TOPS), https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/ ; per-SM rates of the Ada whitepaper, https://images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-architecture.pdf"
	// citeAmpere30 covers the GeForce RTX 30 cards added here: SMs x boost
	// clock x 128 x 2 FP32; fp32-accumulate BF16 at 2x, INT8 at 8x (the
	// 3090 row of the GA102 whitepaper: 35.6, 71, 284).
	citeAmpere30 = "NVIDIA GeForce RTX 30 series specifications (CUDA cores, boost clock, memory), https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/ ; per-SM rates of the GA102 whitepaper, https://www.nvidia.com/content/PDF/nvidia-ampere-ga-102-gpu-architecture-whitepaper-v2.pdf"

	citeM1      = "Apple M1 announcement (8-core GPU, 2.6 TFLOPS, up to 16GB unified memory), https://www.apple.com/newsroom/2020/11/apple-unleashes-m1/ ; bandwidth: LPDDR4X-4266 on a 128-bit bus, 68.25 GB/s (Apple: M1 Pro's 200GB/s is \"nearly 3x\" M1's), https://www.apple.com/newsroom/2021/10/introducing-m1-pro-and-m1-max-the-most-powerful-chips-apple-has-ever-built/"
	citeM1Pro   = "Apple M1 Pro and M1 Max announcement (M1 Pro: 16-core GPU, up to 32GB, 200GB/s; M1 Max: 32-core GPU, up to 64GB, 400GB/s), https://www.apple.com/newsroom/2021/10/introducing-m1-pro-and-m1-max-the-most-powerful-chips-apple-has-ever-built/"
	citeM1Ultra = "Apple M1 Ultra announcement (64-core GPU, up to 128GB, 800GB/s), https://www.apple.com/newsroom/2022/03/apple-unveils-m1-ultra-the-worlds-most-powerful-chip-for-a-personal-computer/"
	citeM2      = "Apple M2 announcement (10-core GPU, up to 24GB, 100GB/s), https://www.apple.com/newsroom/2022/06/apple-unveils-m2-with-breakthrough-performance-and-capabilities/"
	citeM2Pro   = "Apple M2 Pro and M2 Max announcement (M2 Pro: 19-core GPU, up to 32GB, 200GB/s; M2 Max: 38-core GPU, up to 96GB, 400GB/s), https://www.apple.com/newsroom/2023/01/apple-unveils-m2-pro-and-m2-max-next-generation-chips-for-next-level-workflows/"
	citeM3      = "Apple M3 family announcement (M3: 10-core GPU, up to 24GB; M3 Pro: 18-core GPU, up to 36GB), https://www.apple.com/newsroom/2023/10/apple-unveils-m3-m3-pro-and-m3-max-the-most-advanced-chips-for-a-personal-computer/ ; memory bandwidth (M3 100GB/s, M3 Pro 150GB/s): Apple's Mac comparison, https://www.apple.com/mac/compare/"
	citeM4      = "Apple M4 announcement (10-core GPU, 120GB/s), https://www.apple.com/newsroom/2024/05/apple-introduces-m4-chip/ ; M4 Mac mini up to 32GB, https://www.apple.com/newsroom/2024/10/apples-all-new-mac-mini-is-more-mighty-more-mini-and-built-for-apple-intelligence/"
	// citeMetalWSetSmall: below 64 GB Metal's working set is 2/3 of the
	// unified memory, where citeMetalWSet's 75 % holds from 64 GB (a 64 GB
	// M1 Max logs 49152 MiB, 75 %).
	citeMetalWSetSmall = "Metal MTLDevice.recommendedMaxWorkingSetSize is 2/3 of unified memory below 64 GB: llama.cpp logs \"recommendedMaxWorkingSetSize = 10922.67 MB\" on a 16 GB M1 Pro (https://github.com/abetlen/llama-cpp-python/issues/687) and \"= 21845.34 MB\" on a 32 GB M1 Max (https://github.com/ggml-org/llama.cpp/pull/2011); 75 % from 64 GB: \"= 49152.00 MiB\" on a 64 GB M1 Max (https://github.com/ggml-org/llama.cpp/issues/1870)"
)

// From catalog_nvidia.go.
// Sources for the memory totals engines report (cudaMemGetInfo total, as
// vLLM's "total_gpu_memory" and PyTorch's "GPU 0 has a total capacity of"
// print it). GDDR datacenter cards ship with ECC on, which hides 1/16 of the
// memory: an "24 GB" L4 shows 23034 MiB in nvidia-smi and 22.03 GiB to
// PyTorch.
const (
	citeRepT4   = "vLLM on 4x T4, PyTorch OOM \"GPU 0 has a total capacty of 14.58 GiB\", https://github.com/datawhalechina/self-llm/issues/162 (other T4 logs: 14.56-14.74 GiB by driver)"
	citeRepA10  = "vLLM on A10, PyTorch OOM \"GPU 0 has a total capacity of 22.18 GiB\", https://github.com/OpenBMB/MiniCPM-V/issues/640"
	citeRepA10G = "PyTorch OOM \"GPU 0 has a total capacity of 22.06 GiB\" on AWS g5.2xlarge (A10G), public run log found by GitHub code search"
	citeRepL4   = "PyTorch OOM \"GPU 0 has a total capacity of 22.03 GiB\" on NVIDIA L4 (several public logs, e.g. Hugging Face Spaces on L4), found by GitHub code search"
	citeRepL40S = "PyTorch OOM \"GPU 0 has a total capacity of 44.40 GiB\" on AWS g6e (L40S) and in vLLM issue https://github.com/vllm-project/vllm/issues/38486"
	citeRepA40  = "PyTorch OOM \"GPU 0 has a total capacity of 44.42 GiB\" on rented A40s (SGLang/trainer logs), found by GitHub code search"
	citeRepA100 = "vLLM on A100 80GB (form factor not stated), PyTorch OOM \"GPU 0 has a total capacity of 79.15 GiB\", https://github.com/vllm-project/vllm/issues/4408"
	citeRepH100 = "vLLM 0.19 start-up logs on H100 80GB HBM3 (SXM): total 79.19 GiB, https://github.com/llm-d-incubation/llm-d-planner/pull/205 (shared/validation/cases.json A001)"
	citeRepH200 = "PyTorch OOM \"GPU 0 has a total capacity of 139.80 GiB\" on 8x H200, https://github.com/PrimeIntellect-ai/prime-rl benchmark results (2026-01-13)"
	citeRepB200 = "PyTorch OOM \"GPU 2 has a total capacity of 178.36 GiB\" on 8x B200, https://github.com/PrimeIntellect-ai/prime-rl benchmark results (2026-01-13)"
)

// From catalog_nvidia_2026.go.
const (
	citeRTXProBW = "NVIDIA RTX PRO Blackwell specifications (AI TOPS = sparse FP4), https://www.nvidia.com/en-us/products/workstations/professional-desktop-gpus/ ; Server Edition (1597 GB/s; tensor rates scaled by its FP32, 120 vs 125 TFLOPS), https://www.nvidia.com/en-us/data-center/rtx-pro-6000-blackwell-server-edition/"
	citeRepPro6K = "PyTorch OOM \"total capacity of 94.97 GiB\" on RTX PRO 6000 Blackwell (vLLM 0.15.1 and trainer logs, found by GitHub code search); nvidia-smi 97887 MiB on the Workstation Edition, https://github.com/MarcoPizeta/flash-next-rtxpro6000-bench (HARDWARE.md)"
	citeB300     = "NVIDIA HGX B300 specifications (8 GPUs; FP4 108 PF dense, FP8 72, BF16 36, TF32 18 PF sparse), https://www.nvidia.com/en-us/data-center/hgx/"
	citeRepB300  = "vLLM on 8x B300 SXM6: \"Free memory on device (264.8/267.69 GiB)\" (blog post \"Benchmarking DeepSeek-V4.1-Flash on 8x B300\", 2026-09-11, found by GitHub code search)"
	citeGB300    = "NVIDIA GB300 NVL72 specifications (72 GPUs; FP4 1080 PF dense, FP8 720, BF16 360, TF32 180 PF sparse, FP32 6 PF), https://www.nvidia.com/en-us/data-center/gb300-nvl72/"
	citeGB10     = "NVIDIA DGX Spark specifications (1 PFLOP FP4 sparse; lower formats at 1/2 per doubling), https://www.nvidia.com/en-us/products/workstations/dgx-spark/"
	citeRepGB10  = "vLLM start-up check on DGX Spark: total 121.69 GiB, 101.3-102.2 GiB free on fresh headless boots; 0.87 \"wants 105.87 GiB\" and is refused, 0.83 starts, https://github.com/MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks/issues/47"
	citeThor     = "NVIDIA Jetson AGX Thor (T5000: 2070 FP4 TFLOPS sparse; lower formats at 1/2 per doubling; FP32 = 2560 x 2 x 1.575 GHz), https://www.nvidia.com/en-us/autonomous-machines/embedded-systems/jetson-thor/"
	citeOrin     = "NVIDIA Jetson AGX Orin 64GB (GPU 170 INT8 TOPS sparse; FP16 = INT8/2; FP32 = 2048 x 2 x 1.3 GHz), https://www.nvidia.com/en-us/autonomous-machines/embedded-systems/jetson-orin/"
	citeRTXA4000 = "NVIDIA RTX A4000 datasheet (tensor TFLOPS sparse), https://www.nvidia.com/en-us/design-visualization/rtx-a4000/"
	citeRTXA4500 = "NVIDIA RTX A4500 datasheet (tensor TFLOPS sparse), https://www.nvidia.com/en-us/design-visualization/rtx-a4500/"
	citeRTXA5000 = "NVIDIA RTX A5000 datasheet (tensor TFLOPS sparse), https://www.nvidia.com/en-us/design-visualization/rtx-a5000/"
	citeRTX4KAda = "NVIDIA RTX 4000 Ada Generation datasheet (tensor TFLOPS sparse FP8), https://www.nvidia.com/en-us/design-visualization/rtx-4000/"
	citeRTX5KAda = "NVIDIA RTX 5000 Ada Generation datasheet (tensor TFLOPS sparse FP8), https://www.nvidia.com/en-us/design-visualization/rtx-5000/"
	citeRepA4000 = "PyTorch OOM \"total capacity of 15.61 GiB\" on an RTX A4000, https://github.com/DengKaiCQ/VGGT-Long/issues/6"
	citeRepA30   = "PyTorch OOM \"total capacty of 23.53 GiB\" on an A30, https://github.com/google/RB-Modulation/issues/5"
	citeL20      = "NVIDIA L20 (China export part; no English datasheet), https://www.nvidia.cn/data-center/products/l20/ and trade-press tables"
	citeH800     = "NVIDIA H800 (H100 SXM5 with NVLink cut to 400 GB/s), https://www.nvidia.cn/data-center/h800/"
	citeA800     = "NVIDIA A800 (A100 SXM4 80GB with NVLink cut to 400 GB/s), https://www.nvidia.cn/data-center/a800/"
	citeA2       = "NVIDIA A2 datasheet (tensor TFLOPS sparse), https://www.nvidia.com/en-us/data-center/products/a2/"
	citeA16      = "NVIDIA A16 datasheet (4 GPUs per board; tensor TFLOPS sparse), https://www.nvidia.com/en-us/data-center/products/a16-gpu/"
	citeA30      = "NVIDIA A30 datasheet, https://www.nvidia.com/en-us/data-center/products/a30-gpu/"
	// citeRTX50Derived covers the GeForce RTX 50 cards below the 5090:
	// SMs x boost clock x 128 FP32 lanes x 2, fp32-accumulate tensor
	// rates at 2x / 4x that, FP4 from the "AI TOPS" (sparse) halved.
	citeRTX50Derived = "NVIDIA GeForce RTX 50 specifications (AI TOPS = sparse FP4), https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/ ; per-SM rates of the RTX Blackwell whitepaper"
	citeRTX3060      = "NVIDIA GeForce RTX 3060 specifications, https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3060-3060ti/ ; per-SM rates of the GA102 whitepaper"
)

// From catalog_nvidia_2026.go.
// {Fields: latencyFields, Citation: citeLatencyNIC} covers two machines joined by their RDMA network ports.
const citeLatencyNIC = "Estimate: small all-reduce between two hosts over RoCE v2 NICs, about 15 µs as for Gaudi"

// From catalog_nvidia_rtx.go.
const (
	citeRepRTX3090 = "vLLM on RTX 3090: total_gpu_memory 23.58 GiB, https://github.com/vllm-project/vllm/issues/10517 (comment 2024-12-02; shared/validation/cases.json A074)"
	citeRepRTX5090 = "PyTorch OOM \"GPU 0 has a total capacity of 31.37 GiB\" on an RTX 5090 32GB, https://github.com/Wan-Video/Wan2.1/issues/465"
	citeRepRTX4090 = "PyTorch OOM on RTX 4090 \"23.68 GiB total capacity\", https://github.com/zai-org/CogVideo/issues/36 (other logs: 23.52-23.68 GiB)"
	// citeDerivedRTX covers rates the whitepaper does not tabulate for a
	// card released after it: SMs x boost clock x the per-SM rate of the
	// same die (GA102: 256 fp32-accumulate tensor FLOP/clk/SM; AD10x: 512).
	citeDerivedRTX = "Derived from SM count and boost clock with the per-SM tensor rates of the architecture whitepaper (NVIDIA GeForce product page specifications, https://www.nvidia.com/en-us/geforce/graphics-cards/)"
)

// From catalog_others_2026.go.
const (
	citeMI350X  = "AMD Instinct MI350X specifications (sparse and dense rates), https://www.amd.com/en/products/accelerators/instinct/mi350/mi350x.html"
	citeStrix   = "AMD Ryzen AI Max+ 395 specifications (LPDDR5X-8000, 256-bit; 40 RDNA 3.5 CUs at 2.9 GHz: FP32 40x64x2x2x2.9 GHz, FP16 WMMA 40x512x2.9 GHz), https://www.amd.com/en/products/processors/laptop/ryzen/ai-300-series/amd-ryzen-ai-max-plus-395.html"
	citeStrixGM = "AMD Variable Graphics Memory: up to 96 GB of 128 GB dedicated to the GPU, https://www.amd.com/en/blogs/2025/amd-ryzen-ai-max-395-processor-breakthrough-ai-.html"
	citeGaudi2  = "Intel Gaudi 2 white paper, https://www.intel.com/content/www/us/en/content-details/784827/gaudi-2-white-paper.html"
	citeArcB60  = "Intel Arc Pro B60 specifications (197 INT8 TOPS; BF16 = INT8/2; FP32 20x128x2x2.4 GHz), https://www.intel.com/content/www/us/en/products/sku/243916/intel-arc-pro-b60-graphics/specifications.html"
	citeTPUv7   = "Google Cloud TPU7x (Ironwood) documentation, https://cloud.google.com/tpu/docs/tpu7x"
	citeTrn2    = "AWS Neuron, Trainium2 architecture, https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/arch/neuron-hardware/trainium2.html"
	citeInf2    = "AWS Neuron, Inferentia2 architecture, https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/arch/neuron-hardware/inferentia2.html ; NeuronLink 192 GB/s, https://aws.amazon.com/ec2/instance-types/inf2/"
	citeM3Ultra = "Apple M3 Ultra announcement, https://www.apple.com/newsroom/2025/03/apple-reveals-m3-ultra-taking-apple-silicon-to-a-new-extreme/"
)

// From catalog_others_2026.go.
// {Fields: latencyFields, Citation: citeLatencyNeuronLink}: no published small all-reduce figure.
const citeLatencyNeuronLink = "Estimate: small all-reduce over AWS NeuronLink, a chip-to-chip torus as TPU ICI, about 10 µs"

// From sources.go.
const (
	citeLatencyNVLink = "Estimate: NCCL LL-protocol and vLLM custom all-reduce small-message latency over NVLink/NVSwitch, about 5-10 µs on 8x A100/H100 (vLLM csrc/custom_all_reduce.cuh, https://github.com/vllm-project/vllm/pull/2192; NCCL tests https://github.com/NVIDIA/nccl-tests)"
	citeLatencyPCIe   = "Estimate: NCCL ring all-reduce small-message latency over PCIe without NVLink, about 15-25 µs (NCCL tests, https://github.com/NVIDIA/nccl-tests)"
	citeLatencyXGMI   = "Estimate: RCCL / vLLM ROCm custom all-reduce small-message latency over Infinity Fabric (xGMI), about 10 µs (https://github.com/ROCm/rccl)"
	citeLatencyICI    = "Estimate: small all-reduce over TPU inter-chip interconnect within one host, about 10 µs"
	citeLatencyRoCE   = "Estimate: small all-reduce over Gaudi on-die RoCE v2 scale-up ports, about 15 µs"
)

// From sources.go.
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

// From sources.go.
const (
	citeSMVolta = "NVIDIA Tesla V100 GPU Architecture whitepaper (2017), Table 1: Tesla V100 SXM2 80 SMs (5120 FP32 cores), GPU boost clock 1530 MHz, https://images.nvidia.com/content/volta-architecture/pdf/volta-architecture-whitepaper.pdf"
	citeSMT4    = "NVIDIA T4 datasheet: 2,560 CUDA cores (40 Turing SMs of 64), 8.1 TFLOPS FP32; boost clock = 8.1e12 / (2 x 2560) = 1.59 GHz, https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/tesla-t4/t4-tensor-core-datasheet-951643.pdf"
	citeSMA100  = "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020), Table 1: A100 108 SMs (6912 FP32 cores), GPU boost clock 1410 MHz (every A100 and the A800, the same GA100 configuration at 19.5 TFLOPS FP32), https://images.nvidia.com/aem-dam/en-zz/Solutions/data-center/nvidia-ampere-architecture-whitepaper.pdf"
	// AMD compute units and peak engine clocks (sms, boost_clock_hz: a CU
	// is the AMD counterpart of an SM, the unit a kernel's workgroups are
	// issued to). Each is checked against its FP32 peak: 128 FP32 lanes per
	// CU-cycle (CDNA 2/3/4 matrix FP32 x2 over vector; RDNA 3.5 dual issue).
	citeMI100     = "AMD Instinct MI100 accelerator specifications: 120 compute units, peak engine clock 1502 MHz, 32 GB HBM2 at 1.2288 TB/s, FP32 matrix 46.1 TFLOPS (vector 23.1), FP16 matrix 184.6, bfloat16 92.3 TFLOPS, INT8 184.6 TOPS, 3 Infinity Fabric links of 92 GB/s (276 GB/s peak aggregate), https://www.amd.com/en/products/accelerators/instinct/mi100.html"
	citeRX7900XTX = "AMD Radeon RX 7900 XTX specifications: 96 compute units, boost clock up to 2500 MHz, 24 GB GDDR6 at 960 GB/s (20 Gbps, 384-bit), peak single precision 61.4 TFLOPS (96 x 128 x 2 x 2.5 GHz, dual issue), peak half precision 122.8 TFLOPS, PCIe 4.0 x16, https://www.amd.com/en/products/graphics/desktops/radeon/7000-series/amd-radeon-rx-7900xtx.html"
	citeCUMI250X  = "AMD Instinct MI250X specifications: 220 compute units, peak engine clock 1700 MHz (per OAM; 110 CUs per GCD), https://www.amd.com/en/products/accelerators/instinct/mi200/mi250x.html"
	citeCUMI300X  = "AMD Instinct MI300X and MI325X specifications: 304 compute units, peak engine clock 2100 MHz, https://www.amd.com/en/products/accelerators/instinct/mi300/mi300x.html , https://www.amd.com/en/products/accelerators/instinct/mi300/mi325x.html"
	citeCUMI355X  = "AMD Instinct MI355X specifications: 256 compute units, peak engine clock 2400 MHz, https://www.amd.com/en/products/accelerators/instinct/mi350/mi355x.html"
	citeCUMI350X  = "AMD Instinct MI350X specifications: 256 compute units, peak engine clock 2200 MHz, https://www.amd.com/en/products/accelerators/instinct/mi350/mi350x.html"
	citeSMH100    = "NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022), Table 3: H100 SXM5 132 SMs (16896 FP32 cores), H100 PCIe 114 SMs (14592); H200, H800 and GH200 carry the SXM5 configuration. Boost clock = datasheet FP32 peak / (2 x 128 FP32 cores x SMs): 67 TFLOPS -> 1.98 GHz (SXM5), 51 -> 1.75 GHz (PCIe), 60 -> 1.78 GHz (NVL), https://resources.nvidia.com/en-us-tensor-core"
	citeSMB200    = "B200: 148 SMs (https://glennklockwood.com/garden/processors/B200); boost clock = FP32 peak 75 TFLOPS / (2 x 128 FP32 cores x 148) = 1.98 GHz"
	citeSMGeForce = "NVIDIA GeForce RTX 30/40/50 series and RTX A6000 / RTX 6000 Ada spec pages: CUDA cores and boost clock (SMs = CUDA cores / 128 FP32 cores per Ampere GA10x, Ada and Blackwell SM), https://www.nvidia.com/en-us/geforce/graphics-cards/ ; RTX A6000 10752 cores and RTX 6000 Ada 18176 cores, boost clock = datasheet FP32 peak / (2 x cores)"
)
