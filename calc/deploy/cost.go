package deploy

import (
	"math"
	"slices"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/kvcache"
	"github.com/modelrefs/throughput/models"
)

// StepLoad is the work of one scheduler step: decode sequences producing
// one token each, plus prompt (or recomputed) tokens being prefilled.
type StepLoad struct {
	// DecodeSeqs is the number of sequences decoding one token.
	DecodeSeqs int
	// DecodeContext is the sum over those sequences of their context
	// length in tokens (what their attention reads).
	DecodeContext float64
	// PrefillTokens is the number of prompt tokens computed this step.
	PrefillTokens int
	// PrefillSpan is the sum over those tokens of the positions each one
	// attends to: a chunk of n tokens starting at position a spans
	// n*(a + (n+1)/2).
	PrefillSpan float64
	// PrefillSeqs is the number of sequences whose prompt finishes this
	// step (each samples one token through the LM head).
	PrefillSeqs int
	// SpecTokens is the drafted tokens the decoding sequences verify
	// besides their own (speculative decoding): each attends to its
	// sequence's context and is scored by the LM head; the draft's passes
	// are added to the step.
	SpecTokens int
}

// StepCost is the modelled duration of one step and its parts, per GPU.
type StepCost struct {
	// TimeS is the step's duration in seconds:
	// overhead + max(memory, compute) + communication.
	TimeS          float64
	MemoryS        float64
	ComputeS       float64
	CommunicationS float64
	OverheadS      float64
	// WeightsReadBytes and KVReadBytes are the bytes one GPU reads.
	WeightsReadBytes float64
	KVReadBytes      float64
	// FLOPs is one GPU's arithmetic.
	FLOPs float64
	// ComputeBound is true when compute time exceeds memory time.
	ComputeBound bool
	// DraftS is the draft's passes (speculative decoding), in TimeS;
	// AllToAllS the MoE dispatch and combine under expert or data
	// parallelism, in CommunicationS; LoRAFLOPs and LoRAReadBytes the
	// adapters' share of FLOPs and of the bytes read.
	DraftS, AllToAllS        float64
	LoRAFLOPs, LoRAReadBytes float64
	// TokensPerSeq is the tokens a decode step yields per sequence: 1, or
	// (1 - a^(k+1)) / (1 - a) with speculation (set by DecodeStep).
	TokensPerSeq float64
}

// costModel holds per-rank constants of the step formulas, summed over
// pipeline stages (a step passes through every stage in turn).
type costModel struct {
	denseReadBytes   float64   // weights read every step except routed experts, bytes
	expertBytes      float64   // one routed expert of one layer on one rank, bytes
	moeLayers        float64   // number of MoE layers
	experts, topK    float64   // routed experts per layer, experts per token
	linearFLOPs      float64   // 2 * active linear weights per rank, per token
	headFLOPs        float64   // 2 * vocab * hidden / tp, per sampled sequence
	windows          []float64 // attention span cap per layer class (0 = none)
	kvPerTok         []float64 // cache bytes per attended token per class
	kvQueryPerTok    []float64 // bytes per attended token per class read once per query head (vLLM's own paged attention)
	attnFLOPsPerTok  []float64 // attention FLOPs per attended token per class
	stateBytes       float64   // recurrent state per sequence, bytes
	allReduces       float64   // all-reduces per step (2 per layer when tp > 1)
	msgBytesPerToken float64   // all-reduce payload per token, bytes
	bw, peak         float64   // bytes/s and FLOP/s of one GPU
	linkBW, linkLat  float64   // interconnect bytes/s and seconds (interconnect)
	busBW            float64   // its all-reduce bus bandwidth, bytes/s
	tp, pp           float64
	eff              spec.Efficiencies
	// The step's terms with the efficiencies folded in at resolve time
	// (Step divides by these and adds them):
	// (reciprocals: Step multiplies)
	invWeightBW, invKVBW float64 // s/byte: 1 / the bytes/s the GEMMs' and attention's reads achieve
	// vLLM's own paged-attention kernels (Efficiencies.
	// PagedAttentionV1BandwidthEfficiency > 0): invPagedV1BW is 1 / the
	// bytes/s of the unpartitioned kernel, qHeads the query heads per rank.
	invPagedV1BW, qHeads float64
	// perQueryHead: the decode reads each KV head once per query head at
	// the attention bandwidth (EngineVersion.KVReadPerQueryHead).
	perQueryHead  bool
	invGemmPeak   float64 // s/FLOP: 1 / the FLOP/s the GEMMs approach at large M
	gemmHalf      float64 // tokens at which the GEMMs reach half of that
	invVectorPeak float64 // s/FLOP: 1 / the FLOP/s GEMV kernels reach on the FP32 vector units (0: no FP32 figure)
	invAttnPeak   float64 // s/FLOP: 1 / the FLOP/s the attention kernels achieve
	fixedS        float64 // step overhead + layers * layer overhead, seconds
	prefillFixedS float64 // layers * prefill layer overhead, seconds, in a step with prompt tokens
	eagerAbove    float64 // decode batch above which a decode step runs eagerly and pays prefillFixedS too (0: none)
	seqS          float64 // CPU time per scheduled sequence, seconds
	arFixedS      float64 // all-reduces per step * latency, seconds
	arPerTokenS   float64 // all-reduce seconds per token in the step
	// The LM head's logits all-gather (tp > 1): one collective per step
	// that samples, and its seconds per sampled token (Step).
	gatherFixedS, gatherPerTokenS float64
	// Expert and data parallelism: dp replicas' tokens reach every
	// expert rank; expertFLOPs is 2 * top_k * one expert's share per
	// token over the MoE layers (split out of linearFLOPs only then).
	dp, epRanks, expertFLOPs float64
	moeSplit                 bool
	// ep: the experts are whole on their ranks (enable_expert_parallel),
	// so the busiest rank's load is imbalanced (loadImbalance).
	ep bool
	// keptFLOPs is 2 * the rank's linear weights per token that the
	// checkpoint leaves in the model dtype (its exclude_modules or ignore
	// list: keptRankParams), and invKeptPeak 1 / the FLOP/s their 16-bit
	// GEMMs approach (0 when that is the GEMMs' own peak; foldEfficiencies).
	keptFLOPs, invKeptPeak float64
	// llama.cpp's CUDA build (llamacppMMQMaxBatch): accScale is peak over
	// the fp16-accumulate peak its cuBLAS GEMMs run at (PeakFLOPS.FP16Acc;
	// 0: none), dequantBytes the bytes one dequantization of the rank's
	// quantized linear weights to fp16 moves, and dequantS its seconds at
	// the weights' bandwidth (0: none).
	accScale, dequantBytes, dequantS float64
}

// addAttnClass adds one layer's attention reads to the class of span w
// (0 = the whole context): kvb cache bytes and fl FLOPs per attended token.
func (c *costModel) addAttnClass(w int, kvb, fl float64) { c.addAttnClassQ(w, kvb, kvb, fl) }

// addAttnClassQ is addAttnClass with qb, the bytes per attended token a
// kernel that reads each KV head once per query head reads (kvb times the
// query heads per KV head).
func (c *costModel) addAttnClassQ(w int, kvb, qb, fl float64) {
	i := slices.Index(c.windows, float64(w))
	if i < 0 {
		i = len(c.windows)
		c.windows = append(c.windows, float64(w))
		c.kvPerTok = append(c.kvPerTok, 0)
		c.kvQueryPerTok = append(c.kvQueryPerTok, 0)
		c.attnFLOPsPerTok = append(c.attnFLOPsPerTok, 0)
	}
	c.kvPerTok[i] += kvb
	c.kvQueryPerTok[i] += qb
	c.attnFLOPsPerTok[i] += fl
}

// attnRead is one stream of cache a decode step reads: over the last
// window tokens (0 = all), bytes and FLOPs per token of it.
type attnRead struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	window       int
	bytes, flops float64
}

// v4Reads returns what one DeepSeek-V4 layer reads per decoded token, from
// its cache layout (kvcache newV4Layout): every layer attends its
// sliding window of 584-byte latents; a ratio-128 layer attends every
// compressed latent (one per 128 tokens); a ratio-4 layer scores every
// indexer key (one per 4 tokens, index_n_heads x index_head_dim FLOPs
// each, the indexer replicated on every rank) and attends the index_topk
// latents it picks, which reads like a window of index_topk*4 tokens at a
// quarter latent each. Attention on a latent of head_dim d costs
// 2*heads/tp*2d FLOPs (scores and values over the shared 512-wide K = V).
func v4Reads(m *models.Model, l models.Layer, tp float64) []attnRead {
	const entry = 584 // fp8_ds_mla latent (kvcache newV4Layout)
	per := 2 * float64(m.Heads) / tp * float64(2*m.HeadDim)
	out := []attnRead{{window: m.V4.Window, bytes: entry, flops: per}}
	switch l.Compress {
	case 128:
		out = append(out, attnRead{bytes: entry / 128.0, flops: per / 128})
	case 4:
		ix := m.Indexer
		out = append(out,
			attnRead{bytes: kvcache.IndexerKeyBytes(ix.HeadDim) / 4, flops: 2 * float64(ix.Heads*ix.HeadDim) / 4},
			attnRead{window: ix.TopK * 4, bytes: entry / 4.0, flops: per / 4})
	}
	return out
}

// buildCost precomputes the cost model. Formulas, per GPU:
//
//	weights read  = dense weights (all but the embedding table and the
//	                routed experts) + MoE layers * expert bytes *
//	                E*(1-(1-k/E)^N) for N tokens in the step: the expected
//	                number of distinct experts N tokens route to when each
//	                picks k of E uniformly (one read serves every token)
//	KV read       = sum over layers of bytes/token * tokens attended
//	                (capped at the window for sliding layers); a decode
//	                reads a layer's cache heads/tp / kv heads per rank
//	                times where the release's kernel reads it once per
//	                query head (EngineVersion.KVReadPerQueryHead)
//	FLOPs         = 2 * active linear weights * tokens + 2 * vocab *
//	                hidden/tp * sampled sequences + attention
//	                (2 * heads/tp * (d_k + d_v) per attended token per
//	                layer; MLA decodes on the latent: 2*heads/tp*(2*r_kv+d_rope))
func (d *Deployment) buildCost() costModel {
	m := d.Model
	c := costModel{
		experts: float64(m.Experts), topK: float64(m.TopK),
		tp: float64(d.TP), pp: float64(d.PP), eff: d.Eff,
		bw: d.Hardware.MemoryBandwidthBytesPerS, peak: d.PeakFLOPS,
	}
	link := interconnect(&d.Hardware, d.noP2P)
	c.linkBW, c.linkLat, c.busBW = link.BandwidthBytesPerS, link.LatencyS, link.AllReduceBusBandwidth()
	var weights float64
	for i := range d.stages {
		weights += float64(d.stages[i].weightsBytes)
	}
	vh := float64(m.Vocab) * float64(m.Hidden) / c.tp
	embed := d.shard.weightBytes(vh, d.Quant.AllWeights)
	if !m.Tied || d.PP > 1 {
		weights -= embed // the table is gathered, not read
	}
	weights -= float64(m.Params.Vision) * d.ActBytes / c.tp
	// Gemma 4's per-layer embedding table is gathered too (one row per
	// token), not read.
	weights -= d.shard.weightBytes(float64(m.Params.PLETable)/c.tp, d.Quant.AllWeights)
	var activeLinear, moeExp, kept, allLinear float64
	// The window classes, in first-seen order (a planner's deployment,
	// built again, hands its slices back for reuse).
	c.windows, c.kvPerTok, c.kvQueryPerTok, c.attnFLOPsPerTok = d.cost.windows[:0], d.cost.kvPerTok[:0], d.cost.kvQueryPerTok[:0], d.cost.attnFLOPsPerTok[:0]
	for _, l := range m.Layers {
		lin, _, exp := d.shard.rankParams(l)
		allLinear += lin
		if l.MoE {
			c.moeLayers++
			c.expertBytes = d.shard.weightBytes(exp, true)
			moeExp = exp
			routed := float64(m.Experts) * exp
			weights -= d.shard.weightBytes(routed, true)
			activeLinear += lin - routed + c.topK*exp
		} else {
			activeLinear += lin
		}
		kept += d.shard.keptRankParams(l)
		var kvb, qb, fl float64
		w := 0
		hdk, hdv := m.LayerHeadDims(l)
		switch l.Kind {
		case models.Mamba, models.LinearAttention, models.FeedForward, models.ShortConv:
			continue
		case models.MLAttention:
			if m.IsDeepSeekV4() {
				for _, r := range v4Reads(m, l, c.tp) {
					c.addAttnClass(r.window, r.bytes, r.flops)
				}
				continue
			}
			kvb = float64(m.KVLoraRank+m.QKRopeDim) * d.KVBytes
			fl = 2 * float64(m.Heads) / c.tp * float64(2*m.KVLoraRank+m.QKRopeDim)
		default:
			kvHeads := kvcache.HeadsPerRank(m.LayerKVHeads(l), d.TP)
			kvb = float64(kvHeads*(hdk+hdv)) * d.KVBytes
			fl = 2 * float64(m.Heads) / c.tp * float64(hdk+hdv)
			// vLLM's own paged attention: each of the rank's query heads
			// reads its KV head's cache.
			qb = float64(m.Heads) / c.tp * float64(hdk+hdv) * d.KVBytes
			if l.Kind == models.SlidingAttention {
				w = l.Window
			}
		}
		c.addAttnClassQ(w, kvb, max(qb, kvb), fl) // qb 0: a layer the kernel does not run
	}
	for i := range d.stages {
		c.stateBytes += d.stages[i].layout.StateBytes
	}
	c.denseReadBytes = weights
	c.dp = float64(max(d.feat.dp, 1))
	c.epRanks = c.tp * c.dp
	c.ep = d.feat.ep
	if m.IsMoE() && (d.feat.dp > 1 || d.feat.ep) {
		c.moeSplit = true
		c.expertFLOPs = 2 * c.topK * c.moeLayers * float64(m.Params.ExpertParams) / c.epRanks
		activeLinear -= c.topK * c.moeLayers * moeExp // the share rankParams gave
	}
	c.linearFLOPs = 2 * activeLinear
	c.keptFLOPs = 2 * kept
	c.headFLOPs = 2 * vh
	if d.TP > 1 {
		c.allReduces = 2 * float64(m.NumLayers)
	}
	c.msgBytesPerToken = float64(m.Hidden) * d.ActBytes
	if d.TP > 1 {
		// The LM head's logits all-gather (the formulas above foldEfficiencies).
		c.gatherFixedS = c.linkLat
		if c.busBW > 0 {
			c.gatherPerTokenS = (c.tp - 1) / c.tp * float64(m.Vocab) * d.ActBytes / c.busBW
		}
	}
	if d.Engine != nil && d.Engine.Name == "llamacpp" && d.Hardware.Vendor == "NVIDIA" && d.Precision == hardware.BF16 {
		if p := d.Hardware.PeakFLOPS.FP16Acc; p > c.peak {
			c.accScale = c.peak / p
		}
		if d.Quant.Quantized() {
			c.dequantBytes = d.shard.weightBytes(allLinear, true) + 2*allLinear
		}
	}
	c.foldEfficiencies(d)
	return c
}

// The attention peak (foldEfficiencies) is the dense FLOP/s the
// attention's matmuls run at: those of the KV cache's format (FP8 for an
// 8-bit cache, else BF16), never above the GEMMs' (the weights' compute
// precision; a float32 model's FP32 peak caps a 32-bit cache's
// attention). A 16-bit cache is multiplied on the 16-bit tensor cores whatever the weights' format: FlashAttention-2/3
// and FlashInfer take 16-bit Q, K and V; TensorRT-LLM runs "FP8 KV cache and
// FP8 attention, rather than BF16" only with an FP8 cache (TensorRT-LLM
// docs/source/blogs/tech_blog/blog3_Optimizing_DeepSeek_R1_Throughput_on_
// NVIDIA_Blackwell_GPUs.md, "Precision strategy" and "FP8 KV Cache": "In
// the generation phase, both Q and KV are quantized to FP8, and FP8
// Multi-Query Attention (MQA) is used"). So FP8 or NVFP4 weights with a
// BF16 cache (DeepSeek-R1 FP8 on H200: 1.98e15 FP8 vs 0.99e15 BF16 dense)
// attend at the BF16 peak. It binds where the attention is compute-bound:
// long prefills, and MLA's decode, whose 128 query heads share one latent
// (2*128*(2*512+64) = 278,528 FLOPs per cached token per layer over its
// 576 BF16 values, 1,152 bytes: 242 FLOP/B, above an H200's BF16 ridge of
// 989e12 / 4.8e12 = 206 FLOP/B).
//
// The unquantized modules' peak (foldEfficiencies, invKeptPeak) is the
// dense FLOP/s, at most the GEMMs', of the GEMMs of the modules a
// quantized checkpoint leaves unquantized (its exclude_modules or ignore list, models.Layer.Keep): they hold 16-bit
// weights, so they multiply on the model dtype's tensor cores, not the
// quantized format's. vLLM gives an excluded layer UnquantizedLinearMethod
// (vllm/model_executor/layers/quantization/modelopt.py get_quant_method at
// v0.19.0); TensorRT-LLM's DeepSeek-R1 NVFP4 recipe runs its "64x
// Attention Modules" in bf16 and only the dense and MoE feed-forwards in
// nvfp4 (TensorRT-LLM docs/source/blogs/tech_blog/blog1_Pushing_Latency_
// Boundaries_Optimizing_DeepSeek-R1_Performance_on_NVIDIA_B200_GPUs.md,
// "Precision Strategy"; the throughput recipe is "almost the same", blog3).
// On a B200 that is 2.25e15 BF16 against 9e15 FP4 dense FLOP/s (a float32
// model's GEMMs are at its FP32 peak already, below the cap).
//
// foldEfficiencies precomputes the step's per-deployment constants from
// the engine's efficiencies (docs/MODEL.md section 4 gives each term's
// source and fit):
//
//	weightBW    = min(bandwidth * bandwidth_efficiency,
//	                  sm_bytes_per_cycle * SMs (CUs) * boost clock) (bytes/s)
//	kvBW        = bandwidth * attention_bandwidth_efficiency        (bytes/s)
//	pagedV1BW   = bandwidth * paged_attention_v1_bandwidth_efficiency (bytes/s, when > 0)
//	gemmPeak    = peak * compute_efficiency                         (FLOP/s)
//	vectorPeak  = fp32 peak * compute_efficiency                    (FLOP/s)
//	attnPeak    = the KV cache format's peak (at most peak)
//	              * attention_efficiency                            (FLOP/s)
//	prefillFixedS = decoder layers * prefill_layer_overhead        (s, steps with prompt tokens,
//	                and decode steps of more sequences than the largest CUDA graph)
//	fixedS      = step_overhead + decoder layers * layer_overhead
//	              + MoE layers * moe_layer_overhead                 (s)
//	arFixedS    = 2 * layers * (all-reduce latency + all_reduce_latency_us) (s)
//	arPerTokenS = 2 * layers * 2(tp-1)/tp * hidden * b / bus bandwidth (s per token)
//	gatherFixedS    = all-reduce latency                           (s, steps that sample; buildCost)
//	gatherPerTokenS = (tp-1)/tp * vocab * b / bus bandwidth          (s per sampled token; buildCost)
//
// The all-reduce is a ring's: each rank sends and receives 2(tp-1)/tp of
// the message, at the bus bandwidth nccl-tests measures for the link
// (hardware.Interconnect.AllReduceBusBandwidth). b is the activations'
// bytes per value.
//
// The gather is the LM head's: under tensor parallelism the head is split
// by vocabulary (vLLM's ParallelLMHead, a VocabParallelEmbedding), so each
// rank computes its vocab/tp slice of every sampled token's logits and
// the slices are all-gathered before sampling (vLLM
// vllm/model_executor/layers/logits_processor.py LogitsProcessor.
// _gather_logits at v0.10.1 and v0.19.0: tensor_model_parallel_all_gather,
// or a gather to rank 0 under V0, which moves the same bytes into one
// rank; SGLang's LogitsProcessor all-gathers too, TensorRT-LLM's lm_head
// is a ColumnLinear with gather_output). The logits are in the model
// dtype (the head's output; vLLM casts them to float32 in the sampler,
// after the gather). A ring all-gather moves (tp-1)/tp of the result
// through each rank at the link's bus bandwidth (nccl-tests'
// all_gather_perf busbw = algbw * (n-1)/n). One sampled token of a
// 152,064-word vocabulary (Qwen2) in bf16 is 304 KB of logits: 19 us a
// token between two GPUs without P2P (8 GB/s, Interconnect.WithoutP2P)
// and under 0.5 us over NVLink 4 (370 GB/s).
func (c *costModel) foldEfficiencies(d *Deployment) {
	e := c.eff
	attnBW := e.AttentionBandwidthEfficiency
	if attnBW <= 0 {
		attnBW = e.BandwidthEfficiency
	}
	attn := e.AttentionEfficiency
	if attn <= 0 {
		attn = e.ComputeEfficiency
	}
	c.invWeightBW = 1 / weightBandwidth(d, e)
	c.dequantS = c.dequantBytes * c.invWeightBW
	c.invKVBW = 1 / (c.bw * attnBW)
	c.perQueryHead = d.Version.KVReadPerQueryHead
	c.invPagedV1BW, c.qHeads = 0, float64(d.Model.Heads)/c.tp
	if v1 := e.PagedAttentionV1BandwidthEfficiency; v1 > 0 {
		c.invPagedV1BW = 1 / (c.bw * v1)
	}
	c.invGemmPeak = 1 / (c.peak * e.ComputeEfficiency)
	// The attention's peak: its KV cache format's, at most the GEMMs'; the
	// unquantized modules' GEMMs: BF16's, where below the GEMMs' (0: no
	// correction).
	f := &d.Hardware.PeakFLOPS
	ap := f.BF16
	if d.KVBytes <= 1 && f.FP8 > 0 {
		ap = f.FP8
	}
	if ap <= 0 || ap > c.peak {
		ap = c.peak
	}
	c.invKeptPeak = 0
	if c.keptFLOPs > 0 && f.BF16 > 0 && f.BF16 < c.peak {
		c.invKeptPeak = 1 / (f.BF16 * e.ComputeEfficiency)
	}
	c.gemmHalf = max(e.GEMMHalfTokens, 0)
	c.invVectorPeak = 0
	if fp32 := d.Hardware.PeakFLOPS.FP32; fp32 > 0 && fp32 >= c.peak {
		// No matrix units for the precision (an Apple GPU: its FP16 peak
		// is its FP32 peak): nothing to pad (Step).
		c.invVectorPeak = 1 / (fp32 * e.ComputeEfficiency)
	}
	c.invAttnPeak = 1 / (ap * attn)
	c.fixedS = e.StepOverheadMs/1000 + float64(d.Model.NumLayers)*e.LayerOverheadUs/1e6
	// Each MoE layer's block beyond its bytes (Efficiencies.
	// MoELayerOverheadUs; docs/MODEL.md section 4, "The MoE block").
	c.fixedS += c.moeLayers * max(e.MoELayerOverheadUs, 0) / 1e6
	c.seqS = e.SequenceOverheadUs / 1e6
	if c.tp > 1 {
		// V0's per-step input broadcast to the other ranks
		// (Efficiencies.TPStepOverheadMs).
		c.fixedS += e.TPStepOverheadMs / 1000
	}
	c.prefillFixedS = float64(d.Model.NumLayers) * e.PrefillLayerOverheadUs / 1e6
	c.eagerAbove = float64(d.graphMaxBatch)
	if c.tp > 1 {
		c.arFixedS = c.allReduces * (c.linkLat + max(e.AllReduceLatencyUs, 0)/1e6)
		if c.busBW > 0 {
			c.arPerTokenS = c.allReduces * 2 * (c.tp - 1) / c.tp * c.msgBytesPerToken / c.busBW
		}
	}
}

// weightBandwidth returns the rate in bytes/s at which a step's kernels
// stream the weights: the datasheet bandwidth times bandwidth_efficiency,
// capped, where the engine's terms give sm_bytes_per_cycle and the catalog
// gives the chip's SMs and clock, at sm_bytes_per_cycle bytes per SM per
// cycle. The cap is the issue limit of kernels that run on the CUDA cores
// rather than the DRAM: llama.cpp's matrix-vector kernels dequantize and
// dot each weight in registers (ggml-cuda mmv.cu / mmvq.cu), so on an HBM
// chip, whose bandwidth per SM-cycle is 2-4x a GeForce card's (H100 SXM
// 3.35e12 B/s over 132 x 1.98e9 SM-cycles/s: 12.8 bytes per SM-cycle; RTX
// 4090: 1.01e12 over 128 x 2.52e9: 3.1), they cannot draw the bandwidth.
// On AMD chips the catalog's SMs are compute units and the clock their
// peak engine clock; the HIP build has its own rate (llamacppROCmEff: 4),
// which binds on the HBM Instinct parts (MI300X 5.3e12 over 304 x 2.1e9:
// 8.3 bytes per CU-cycle) and not on the Radeon and Strix Halo GPUs (RX
// 7900 XTX: 0.96e12 over 96 x 2.5e9: 4.0).
func weightBandwidth(d *Deployment, e spec.Efficiencies) float64 {
	bw := d.Hardware.MemoryBandwidthBytesPerS * e.BandwidthEfficiency
	if e.SMBytesPerCycle > 0 {
		if sm := d.Hardware.SMCyclesPerS(); sm > 0 {
			bw = min(bw, e.SMBytesPerCycle*sm)
		}
	}
	return bw
}

// distinctExperts returns E*(1-(1-k/E)^n): the expected number of distinct
// experts n tokens select when each picks k of E uniformly at random.
// n = 0 gives 0; n large gives E.
func distinctExperts(e, k, n float64) float64 {
	if e <= 0 || n <= 0 {
		return 0
	}
	return e * (1 - math.Pow(1-k/e, n))
}

// Step returns the modelled cost of one step on this deployment, per GPU,
// in seconds: the kernels of a layer run one after another, so each class
// of kernel is its own roofline and the step is their sum:
//
//	gemm      = max(weights read / weightBW,
//	                linear FLOPs / (gemmPeak * M / (M + gemm_half_tokens)))
//	attention = max(KV read / kvBW, decode attention FLOPs / attnPeak)
//	            + prefill attention FLOPs / attnPeak
//	            (vLLM's own paged-attention kernels, vLLM 0.6 on ROCm: the
//	            decode's KV read once per query head, at kvBW or, in the
//	            unpartitioned V1 kernel, bandwidth *
//	            paged_attention_v1_bandwidth_efficiency: pagedAttentionS)
//	comm      = tp > 1: 2 * layers * (latency + 2(tp-1)/tp * M*h*b / bus bandwidth)
//	            + pp > 1: (pp-1) * (latency + M*h*b / link bandwidth)
//	overhead  = step_overhead + layers * layer_overhead
//	            + (tp > 1) * tp_step_overhead
//	            + sequence_overhead * scheduled sequences
//	            + (prompt tokens > 0) * layers * prefill_layer_overhead
//	time      = overhead + gemm + attention + comm (+ draft passes)
//
// with M the tokens of the step (decodes, drafted tokens and prefill
// tokens). The GEMM efficiency saturates in M: a GEMM of M rows is tiled
// in blocks of 64-256 rows spread over the SMs in waves, so small M pays for
// padded tiles and partial waves (NVIDIA, "Matrix Multiplication
// Background User's Guide", sections on tile and wave quantization,
// https://docs.nvidia.com/deeplearning/performance/dl-performance-matrix-multiplication/);
// M / (M + M_half) is the smooth form of that loss, with M_half fitted.
// Decode attention is bound by its KV-cache reads at the attention
// kernels' own bandwidth efficiency (FlashAttention/FlashInfer decode);
// prefill attention by its FLOPs (FlashAttention-2/3, arXiv:2307.08691,
// arXiv:2407.08608). An empty step costs the overhead and one read of the
// weights.
func (d *Deployment) Step(l StepLoad) StepCost {
	c := &d.cost
	b := float64(max(l.DecodeSeqs, 0))
	n := float64(max(l.PrefillTokens, 0))
	spec := float64(max(l.SpecTokens, 0))
	tokens := b + n + spec
	var out StepCost
	// Under data parallelism the dp replicas' tokens (in lockstep, each
	// with this load) all route to this rank's experts.
	dist := distinctExperts(c.experts, c.topK, tokens*c.dp)
	out.WeightsReadBytes = c.denseReadBytes + c.moeLayers*c.expertBytes*dist

	var attnDecode, attnPrefill, kv float64
	var kvq, kvd float64 // decode reads: once per query head, and once
	for i, w := range c.windows {
		dc, ps := l.DecodeContext, l.PrefillSpan
		if w > 0 {
			if b > 0 {
				dc = b * math.Min(dc/b, w)
			}
			if n > 0 {
				ps = n * math.Min(ps/n, w)
			}
		}
		kv += c.kvPerTok[i] * (dc + n)
		kvq += c.kvQueryPerTok[i] * dc
		kvd += c.kvPerTok[i] * dc
		attnDecode += c.attnFLOPsPerTok[i] * dc
		attnPrefill += c.attnFLOPsPerTok[i] * ps
	}
	kv += 2 * c.stateBytes * (b + float64(l.PrefillSeqs))
	out.KVReadBytes = kv

	// The GEMMs (linear layers, LM head, experts, adapters) and the
	// attention's own FLOPs.
	sampled := b + float64(l.PrefillSeqs)
	linFLOPs := c.linearFLOPs*tokens + c.headFLOPs*(sampled+spec)
	if spec > 0 && b > 0 {
		// Each drafted token attends to its sequence's context (the mean).
		attnDecode += attnDecode * spec / b
	}
	var expFLOPs float64
	if c.moeSplit {
		expFLOPs = c.expertFLOPs * tokens * c.dp * c.loadImbalance(tokens)
		linFLOPs += expFLOPs
	}
	if f := &d.feat; f.loras > 0 {
		// Each step's adapters: one slot per sequence up to max_loras.
		out.LoRAFLOPs = f.loraFLOPs * tokens
		out.LoRAReadBytes = f.loraSlotBytes * math.Min(float64(f.loras), b+float64(l.PrefillSeqs)+boolF(n > 0))
		linFLOPs += out.LoRAFLOPs
		out.WeightsReadBytes += out.LoRAReadBytes
	}
	out.FLOPs = linFLOPs + attnDecode + attnPrefill

	linMem := out.WeightsReadBytes * c.invWeightBW
	var linComp float64
	if tokens > 0 {
		// efficiency(M) = compute_efficiency * M / (M + gemm_half_tokens):
		// a matrix-unit GEMM pads a few tokens to its tile (fitted on
		// tensor-core GPUs, docs/MODEL.md section 4).
		linComp = linFLOPs * (1 + c.gemmHalf/tokens) * c.invGemmPeak
		if c.invKeptPeak > 0 {
			// The checkpoint's unquantized modules multiply in 16 bits.
			linComp += c.keptFLOPs * tokens * (1 + c.gemmHalf/tokens) * (c.invKeptPeak - c.invGemmPeak)
		}
		if c.invVectorPeak > 0 {
			// A GPU without matrix units for the precision (an Apple GPU,
			// whose FP16 peak is its FP32 peak) runs the GEMMs on its
			// vector units, with no tile to pad: at one token its
			// GEMV kernels (llama.cpp's Metal kernel_mul_mv_*) are
			// bound by the weights' read, not by 17 tokens of padding.
			linComp = linFLOPs * c.invVectorPeak
		}
	}
	var deq float64
	if tokens > llamacppMMQMaxBatch {
		// llama.cpp's CUDA build multiplies by more than
		// llamacppMMQMaxBatch token columns in cuBLAS, at its
		// fp16-accumulate rate (its matrix-vector kernels at a few tokens
		// run on the CUDA cores, bound by the weights' read); a quantized
		// matrix it first dequantizes whole to fp16 (reading its quantized
		// bytes, writing 2 bytes a weight), once per ubatch of
		// llamacppUBatch tokens, a kernel before the GEMM.
		if c.accScale > 0 {
			linComp *= c.accScale
		}
		deq = math.Ceil(tokens/llamacppUBatch) * c.dequantS
	}
	attnMem := out.KVReadBytes * c.invKVBW
	switch {
	case c.invPagedV1BW > 0:
		// The decode reads under vLLM's own kernels; the rest (prompt
		// tokens' cache, recurrent state) as before.
		attnMem = c.pagedAttentionS(b, l.DecodeContext, kvq) + (kv-kvd)*c.invKVBW
		out.KVReadBytes = kv - kvd + kvq
	case c.perQueryHead:
		// A kernel that reads each KV head once per query head
		// (EngineVersion.KVReadPerQueryHead), at the attention's rate.
		out.KVReadBytes = kv - kvd + kvq
		attnMem = out.KVReadBytes * c.invKVBW
	}
	attnDecodeS := attnDecode * c.invAttnPeak
	attnPrefillS := attnPrefill * c.invAttnPeak
	out.MemoryS = linMem + attnMem + deq
	out.ComputeS = linComp + attnDecodeS + attnPrefillS
	if c.tp > 1 {
		out.CommunicationS = c.arFixedS + c.arPerTokenS*tokens
		if logits := sampled + spec; logits > 0 {
			// The LM head's vocab slices, all-gathered for sampling.
			out.CommunicationS += c.gatherFixedS + c.gatherPerTokenS*logits
		}
	}
	if c.pp > 1 {
		msg := tokens * c.msgBytesPerToken
		out.CommunicationS += (c.pp - 1) * (c.linkLat + msg/c.linkBW)
	}
	if c.moeSplit && c.epRanks > 1 {
		out.AllToAllS = c.allToAll(tokens)
		out.CommunicationS += out.AllToAllS
	}
	if d.feat.specK > 0 && b > 0 {
		out.DraftS = float64(d.feat.specK) * d.feat.draftPass(c, b, l.DecodeContext/b)
	}
	seqs := b + float64(l.PrefillSeqs)
	if n > 0 && l.PrefillSeqs == 0 {
		seqs++ // a chunk of a prompt that goes on next step
	}
	out.OverheadS = c.fixedS + c.seqS*seqs
	if n > 0 || (c.eagerAbove > 0 && b > c.eagerAbove) {
		// A forward outside the captured CUDA graphs: prompt tokens, or
		// a decode batch beyond the largest graph (release.SGLangDefaults).
		out.OverheadS += c.prefillFixedS
	}
	out.ComputeBound = out.ComputeS > out.MemoryS
	gemm := math.Max(linMem, linComp) + deq
	if c.moeSplit && tokens > 0 && c.invVectorPeak == 0 {
		// Under expert or data parallelism the routed experts' grouped
		// GEMM is its own roofline, after the dense GEMMs':
		//
		//	max(dense read, dense FLOPs) + max(expert read, expert FLOPs
		//	    * (1 + gemm_half_tokens / M_e) / gemmPeak)
		//	M_e = N * top_k / (E * (1 - (1 - top_k/E)^N))
		//
		// The dense GEMMs (attention projections, shared expert, dense
		// layers, LM head) and the grouped GEMM of the rank's experts are
		// different kernels run one after the other, and the grouped GEMM
		// tiles each expert's rows apart, so its padding is that of M_e
		// rows: the N * top_k token-expert pairs of the dp replicas' N =
		// tokens * dp tokens over the distinct experts they select
		// (dist), the rows one selected expert receives on average
		// (TensorRT-LLM blog3, "Expert parallel for MOE": "Expert-
		// Parallelism achieves better GEMM FLOPS because it has better
		// GEMM problem sizes", sparse_fc1 / sparse_fc2 grouped over the
		// experts). Written out here, not called: a call costs the
		// browser engine about 500 bytes.
		expRead := c.moeLayers * c.expertBytes * dist * c.invWeightBW
		expComp := expFLOPs * (1 + c.gemmHalf*dist/(tokens*c.dp*c.topK)) * c.invGemmPeak
		gemm = math.Max(linMem-expRead, linComp-expFLOPs*(1+c.gemmHalf/tokens)*c.invGemmPeak) + math.Max(expRead, expComp)
	}
	out.TimeS = out.OverheadS + gemm + math.Max(attnMem, attnDecodeS) + attnPrefillS + out.CommunicationS + out.DraftS
	out.TokensPerSeq = 1
	return out
}

// llamacppMMQMaxBatch and llamacppUBatch are llama.cpp's CUDA build's
// switch from its own quantized kernels to cuBLAS and its default micro-
// batch, both in tokens. Builds before PR #8075 ("CUDA: use MMQ instead of
// cuBLAS by default", merged 2024-06-24) define CUDA_USE_TENSOR_CORES, so
// on a GPU with fp16 tensor cores (compute capability >= 7.0) a quantized
// matrix times more than MMQ_MAX_BATCH_SIZE = 32 columns is dequantized to
// fp16 (ggml_get_to_fp16_cuda) and multiplied by cublasGemmEx with
// CUBLAS_COMPUTE_16F (ggml-cuda.cu ggml_cuda_mul_mat and
// ggml_cuda_op_mul_mat_cublas, e.g. at ggerganov/llama.cpp 005de59); a
// graph runs one ubatch of n_ubatch tokens, 512 by default (common.h
// gpt_params n_ubatch, llama-bench -ub). Builds after #8075 run the k- and
// legacy quants through int8-tensor-core MMQ instead; the catalog's
// validation (llama-bench, May 2024) is of the cuBLAS builds, which the
// engine models.
const (
	llamacppMMQMaxBatch = 32
	llamacppUBatch      = 512
)

// pagedV1MaxContext, pagedPartition and pagedV1Work are the constants of
// vLLM's choice between its paged-attention kernels (vLLM v0.6.1
// vllm/attention/ops/paged_attn.py PagedAttention.forward_decode, the
// decode path of the ROCm backend, vllm/attention/backends/
// rocm_flash_attn.py, until the custom ROCm kernel of vLLM PR #8310, merged
// after v0.6.1): use_v1 = max_seq_len <= 8192 and (max_num_partitions == 1
// or num_seqs * num_heads > 512), max_num_partitions = ceil(max_seq_len /
// _PARTITION_SIZE), _PARTITION_SIZE = 512, num_heads the query heads on
// the rank.
const (
	pagedV1MaxContext = 8192
	pagedPartition    = 512
	pagedV1Work       = 512
)

// pagedAttentionS is the decode attention's memory time, in seconds, under
// vLLM's own paged-attention kernels (csrc/attention/attention_kernels.cu
// at v0.6.1): their grid is (num_heads, num_seqs, partitions), one thread
// block per query head, which reads its KV head's keys and values itself,
// so a decode step reads the cache once per query head (kvq bytes: the
// query heads per KV head times the cache it attends). The partitioned
// kernel (V2: a block per 512 tokens, then a reduction) reads at
// attention_bandwidth_efficiency; the unpartitioned one (V1: one block
// walks the whole context), which vLLM picks once b sequences x query
// heads exceed 512 with a context of 513-8192 tokens, at
// paged_attention_v1_bandwidth_efficiency. A context of one partition runs
// V1 too, but then a block does a V2 block's work, so it reads at V2's
// rate. The step's mean context stands for its max_seq_len (equal in a
// static batch; a serving step's longest sequence can be longer).
func (c *costModel) pagedAttentionS(b, decodeContext, kvq float64) float64 {
	if b <= 0 {
		return kvq * c.invKVBW
	}
	ctx := decodeContext / b
	v1Long := ctx > pagedPartition && ctx <= pagedV1MaxContext && b*c.qHeads > pagedV1Work
	if !v1Long {
		return kvq * c.invKVBW
	}
	return kvq * c.invPagedV1BW
}

// allToAll is the MoE dispatch and combine of one step on one rank, in
// seconds: per MoE layer, each of its tokens' hidden state goes to top_k
// experts, (EP-1)/EP of them on other ranks, and comes back:
// 2 * (latency + tokens * top_k * h * b * (EP-1)/EP / link bandwidth)
// (the all-to-all of DeepEP and vLLM's all2all backends).
func (c *costModel) allToAll(tokens float64) float64 {
	if c.linkBW <= 0 {
		return 0
	}
	bytes := tokens * c.topK * c.msgBytesPerToken * (c.epRanks - 1) / c.epRanks
	return 2 * c.moeLayers * (c.linkLat + bytes/c.linkBW)
}

// loadImbalance is the busiest expert rank's share of the step's
// token-expert assignments over the mean, when N = tokens x dp tokens
// each pick top_k experts uniformly and experts sit on EP ranks: a rank's
// load is about binomial with mean mu = N k / EP, and the largest of EP
// such loads lies near mu + sqrt(2 mu ln EP) (the maximum of EP normal
// variables), so imbalance = 1 + sqrt(2 ln(EP) / mu). Only whole experts
// per rank (enable_expert_parallel) are imbalanced; sliced experts share
// every token evenly. Real routers are more skewed than uniform, which
// vLLM's EPLB (--enable-eplb) corrects by replicating hot experts.
func (c *costModel) loadImbalance(tokens float64) float64 {
	if !c.ep || c.epRanks <= 1 || tokens <= 0 {
		return 1
	}
	mu := tokens * c.dp * c.topK / c.epRanks
	return 1 + math.Sqrt(2*math.Log(c.epRanks)/mu)
}

func boolF(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// DecodeStep returns the cost of a pure decode step of batch sequences at
// contextTokens each.
//
// With speculative decoding each sequence verifies k drafted tokens too,
// and the step yields TokensPerSeq = (1 - a^(k+1)) / (1 - a) tokens per
// sequence on average.
func (d *Deployment) DecodeStep(batch int, contextTokens float64) StepCost {
	s := d.Step(StepLoad{DecodeSeqs: batch, DecodeContext: float64(batch) * contextTokens, SpecTokens: batch * d.feat.specK})
	if d.feat.specK > 0 {
		s.TokensPerSeq = d.feat.specE
	}
	return s
}

// decodeRate is the output tokens per second of one sequence in a decode
// step s: tokens per step over its time.
func decodeRate(s StepCost) float64 { return ratio(s.TokensPerSeq, s.TimeS) }

// batchRate is the output tokens per second of b sequences in s.
func batchRate(b int, s StepCost) float64 { return ratio(float64(b)*s.TokensPerSeq, s.TimeS) }

// interconnect is the link the parallel ranks of hw talk over: the
// catalog's, or with p2p: false (noP2P) its host-memory staging (NCCL's
// SHM transport, hardware.Interconnect.WithoutP2P), which every
// all-reduce, pipeline send and all-to-all then takes.
func interconnect(hw *hardware.Accelerator, noP2P bool) hardware.Interconnect {
	if noP2P {
		if l, ok := hw.Interconnect.WithoutP2P(); ok {
			return l
		}
	}
	return hw.Interconnect
}
