package deploy

import (
	"strings"

	"math"

	"github.com/modelrefs/throughput/calc/release"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/internal/units"
	"github.com/modelrefs/throughput/kvcache"
	"github.com/modelrefs/throughput/models"
)

// Deployment is a resolved request: one model on tensor- and
// pipeline-parallel ranks of one accelerator under one engine profile, with
// every per-rank quantity the formulas need precomputed. It is immutable
// after Resolve and safe for concurrent use. The simulator drives its Step
// cost model.
type Deployment struct {
	Model    *models.Model
	Hardware hardware.Accelerator
	Engine   *release.Engine
	// Version is the engine release's profile (versions.go).
	Version release.EngineVersion
	Eff     spec.Efficiencies
	// schedSteps is vLLM V0's num_scheduler_steps (1: single-step).
	schedSteps int

	TP, PP int
	// graphMaxBatch is the largest decode batch the engine replays as a
	// CUDA graph where a larger one costs more (SGLang:
	// release.SGLangDefaults; 0: no such limit modelled).
	graphMaxBatch int
	// noP2P is the request's p2p: false: the GPUs all-reduce through host
	// memory (hardware.Interconnect.WithoutP2P).
	noP2P bool
	// flashInferSampler is the request's flashinfer_sampler: true.
	flashInferSampler bool
	// v0Chunkable: vLLM V0 would turn chunked prefill on above a 32K
	// max_model_len for this deployment; v0Chunked: it does
	// (release.EngineVersion.V0BatchedTokens).
	v0Chunkable, v0Chunked bool
	// Dtype is the activation dtype; ActBytes its size in bytes.
	Dtype    string
	ActBytes float64
	// Quant is the effective weight quantization.
	Quant models.Quantization
	// KVDtype and KVBytes are the cache element type and size in bytes.
	KVDtype string
	KVBytes float64

	Utilization                         float64
	BlockSize                           int
	MaxModelLen, MaxNumSeqs, MaxBatched int

	// Precision is the format the matmuls run in; PeakFLOPS its dense peak
	// per GPU in operations per second.
	Precision hardware.Precision
	PeakFLOPS float64

	stages []stage
	tight  int // index of the stage with the fewest blocks
	// NumBlocks is the block pool (the minimum over stages, as vLLM v1
	// unifies the KV cache configs of all workers).
	NumBlocks int64

	cost  costModel
	feat  featureState
	shard sharding
	// layouts is the planner's cache of KV layouts (nil: none).
	layouts map[LayoutKey][]kvcache.Layout
	// startupLog is the request's parsed startup_log (nil without one);
	// ApplyStartupLog calibrates the memory budget with it. batchedGiven: the
	// request sets max_num_batched_tokens.
	startupLog   *spec.StartupLog
	batchedGiven bool
	// kvFromCheckpoint is true when the KV dtype is the checkpoint's
	// (TensorRT-LLM and kv_cache_quant_algo FP8, resolveDtypes).
	kvFromCheckpoint bool
}

// sharding is the model's weights and cache laid out on the parallel
// ranks: what one tensor rank holds of each layer, of each pipeline
// stage's weights and of its cache geometry. It holds the resolved
// request's model, weight quantization, tensor-parallel and data-parallel
// sizes, redundant experts and element sizes (copies of the Deployment's,
// fixed once resolved), and memoises the per-layer shapes.
type sharding struct {
	model *models.Model
	quant models.Quantization
	tp    int
	// actBytes and kvBytes are the activation and cache element sizes in
	// bytes.
	actBytes, kvBytes float64
	// dp is the attention data-parallel ranks the experts also spread
	// over, redundant the redundant expert replicas (featureState's).
	dp, redundant int
	// cache memoises rankParams per layer kind and MoE flag: layers of
	// one type hold identical shapes.
	cache [models.NumLayerKinds][2]struct {
		_                     [0]func() // incomparable: no equality function in the .wasm engines (size budget)
		linear, other, expert float64
		ok                    bool
	}
}

// stage is one pipeline stage on one tensor rank.
type stage struct {
	lo, hi         int // layers [lo, hi)
	first, last    bool
	weightsBytes   units.Bytes
	activation     units.Bytes
	nonTorch       units.Bytes
	cudaGraph      units.Bytes // the profiler's CUDA-graph estimate, when the release subtracts it
	kvBytes        units.Bytes
	requestedBytes units.Bytes
	layout         kvcache.Layout
	blocks         int64
	// modelled holds the engine's own terms where a start-up log replaced
	// them (ApplyStartupLog); sources labels the terms then (nil: all modelled).
	modelled memTerms
	sources  *spec.MemorySources
}

// bytesPerParam returns the storage of one unquantized weight in bytes for
// the activation dtype.
func dtypeBytes(dtype string) float64 {
	if dtype == "float32" {
		return 4
	}
	return 2
}

// weightBytes returns the bytes of n weights of a component: quantized
// components at Quant.BitsPerWeight/8 bytes, others at the dtype size.
func (sh *sharding) weightBytes(n float64, quantizable bool) float64 {
	if quantizable && sh.quant.Quantized() {
		return n * sh.quant.BitsPerWeight / 8
	}
	return n * sh.actBytes
}

// restBytes returns the bytes of n non-expert linear weights of an
// experts-only quantized checkpoint: in Quant.RestBitsPerWeight when the
// checkpoint stores them quantized too (DeepSeek-V4's block fp8), else in
// the model dtype.
func (sh *sharding) restBytes(n float64) float64 {
	if sh.quant.ExpertsOnly && sh.quant.RestBitsPerWeight > 0 {
		return n * sh.quant.RestBitsPerWeight / 8
	}
	return n * sh.actBytes
}

// layerSplit returns the first layer of each pipeline stage: layers are
// split as evenly as possible, earlier stages taking the remainder last
// (vLLM get_pp_indices).
func layerSplit(n, pp int) []int {
	out := make([]int, pp+1)
	per, rem := n/pp, n%pp
	for s := 0; s < pp; s++ {
		size := per
		if s >= pp-rem {
			size++
		}
		out[s+1] = out[s] + size
	}
	return out
}

// rankParams returns one layer's weights held by one tensor rank, split
// into quantizable linear weights and the rest, and (for MoE layers) one
// routed expert's share on the rank.
//
// Attention q/o, MLP and expert matrices are split across ranks; K/V
// projections are split by head, replicated when tp exceeds the KV heads
// (vLLM QKVParallelLinear); MLA's q_a and kv_a projections and all norms are
// replicated (ReplicatedLinear); routers are replicated.
func (sh *sharding) rankParams(l models.Layer) (linear, other, expert float64) {
	moe := 0
	if l.MoE {
		moe = 1
	}
	if sh.model.Heterogeneous() {
		return sh.rankParamsOf(l)
	}
	c := &sh.cache[l.Kind][moe]
	if !c.ok {
		c.linear, c.other, c.expert = sh.rankParamsOf(l)
		c.ok = true
	}
	return c.linear, c.other, c.expert
}

// rankParamsOf computes rankParams for one layer type.
func (sh *sharding) rankParamsOf(l models.Layer) (linear, other, expert float64) {
	m, tp := sh.model, float64(sh.tp)
	h := float64(m.Hidden)
	// Gemma 3n's per-layer AltUp (replicated) and LAuReL (its two
	// projections split by rank, its norm replicated) weights, all in the
	// model dtype: vLLM builds them without the quantization config.
	repl, split := m.LayerExtraParams()
	other += float64(repl) + float64(split)/tp
	switch l.Kind {
	case models.Mamba, models.LinearAttention, models.ShortConv:
		p := float64(m.Params.Mixer) / float64(max(1, m.CountKind(l.Kind)))
		linear += p / tp
	case models.FeedForward:
		// no token mixer (Nemotron-H MLP and MoE blocks)
	case models.MLAttention:
		if m.IsDeepSeekV4() {
			// fused_wqa_wkv, the compressors and the indexer's
			// weights_proj are replicated; wq_b, wo_a and wo_b are split
			// (vLLM deepseek_v4.py DeepseekV4Attention).
			repl := float64(m.V4ReplicatedParams(l))
			linear += repl + (float64(m.AttentionParamsOf(l))-repl)/tp
			break
		}
		repl := h*float64(m.QLoraRank) + h*float64(m.KVLoraRank+m.QKRopeDim)
		attn := float64(m.Params.Attention) / float64(m.AttentionLayers())
		linear += repl + (attn-repl)/tp
	default:
		attn, kv, perRankKV, _ := sh.attentionParams(l)
		linear += (attn-kv)/tp + perRankKV
	}
	if l.NoFFN {
		return linear, other, expert
	}
	if l.MoE {
		// Experts spread over tp x dp ranks (data-parallel attention), with
		// their redundant replicas: (E+R)/E of each expert's weights.
		expert = float64(m.Params.ExpertParams) / (tp * float64(max(sh.dp, 1)))
		if r := sh.redundant; r > 0 {
			expert *= float64(m.Experts+r) / float64(m.Experts)
		}
		linear += float64(m.Experts) * expert
		if m.SharedIntermediate > 0 {
			linear += float64(m.Params.SharedExperts) / float64(max(1, m.MoELayers())) / tp
		}
		other += float64(m.Params.Router) / float64(max(1, m.MoELayers()))
	} else {
		linear += float64(m.DenseMLPParamsOf(l)) / tp
	}
	// The layer's share of the norms: all but the final norm (hidden
	// values, which stageWeights adds on the last stage).
	other += max(float64(m.Params.Norms-int64(m.Hidden)), 0) / float64(m.NumLayers)
	return linear, other, expert
}

// attentionParams returns a (non-MLA) attention layer's weights, its K/V
// projections' share of them, those projections' weights on one tensor
// rank (split by head, replicated when tp exceeds the KV heads: vLLM
// QKVParallelLinear), and its head size. This layer's own: Gemma 4's full
// and sliding layers differ in KV heads and head size.
func (sh *sharding) attentionParams(l models.Layer) (attn, kv, perRankKV, headDim float64) {
	m := sh.model
	h := float64(m.Hidden)
	hdk, _ := m.LayerHeadDims(l)
	hd, nkv := float64(hdk), m.LayerKVHeads(l)
	attn = float64(m.AttentionParamsOf(l))
	kv = 2 * h * hd * float64(nkv)
	perRankKV = 2 * h * hd * float64(kvcache.HeadsPerRank(nkv, sh.tp))
	return attn, kv, perRankKV, hd
}

// keptRankParams returns the weights of layer l, on one tensor rank, that
// the checkpoint leaves in the model dtype (l.Keep, from its
// exclude_modules or ignore list), split as rankParamsOf splits them: MLA's
// q_a and kv_a projections replicated, K/V by head, the rest by tp. The
// routed experts are never excluded by the checkpoints the engine reads
// (their fp4/fp8 storage is the point of the format).
//
// Units: parameters. Source: vLLM v0.19.0
// vllm/model_executor/layers/quantization/modelopt.py get_quant_method
// (an excluded LinearBase gets UnquantizedLinearMethod).
func (sh *sharding) keptRankParams(l models.Layer) float64 {
	k := l.Keep
	if k == 0 || !sh.quant.Quantized() {
		return 0
	}
	m, tp := sh.model, float64(sh.tp)
	h := float64(m.Hidden)
	nh := float64(m.Heads)
	var p float64
	switch l.Kind {
	case models.Mamba, models.LinearAttention, models.ShortConv:
		if k&models.KeepMixer != 0 {
			p += float64(m.Params.Mixer) / float64(max(1, m.CountKind(l.Kind))) / tp
		}
	case models.FeedForward:
	case models.MLAttention:
		if m.IsDeepSeekV4() {
			break
		}
		rq, rkv := float64(m.QLoraRank), float64(m.KVLoraRank)
		dn, dr, dv := float64(m.QKNopeDim), float64(m.QKRopeDim), float64(m.HeadDimV())
		qa, kva := h*rq, h*(rkv+dr)
		qb := rq * nh * (dn + dr)
		if rq == 0 {
			qb = h * nh * (dn + dr)
		}
		kvb, o := rkv*nh*(dn+dv), nh*dv*h
		attn := float64(m.Params.Attention) / float64(m.AttentionLayers())
		rest := attn - qa - kva - qb - kvb - o
		p += pick(k, models.KeepQA, qa) + pick(k, models.KeepKV, kva) +
			(pick(k, models.KeepQ, qb)+pick(k, models.KeepKVB, kvb)+pick(k, models.KeepO, o)+pick(k, models.KeepAttnRest, rest))/tp
	default:
		attn, kv, perRankKV, hd := sh.attentionParams(l)
		o := nh * hd * h
		q := attn - kv - o // q_proj (gated: twice), biases and norms
		p += pick(k, models.KeepKV, perRankKV) + (pick(k, models.KeepQ, q)+pick(k, models.KeepO, o))/tp
	}
	if l.NoFFN {
		return p
	}
	if l.MoE {
		if m.SharedIntermediate > 0 && k&models.KeepShared != 0 {
			p += float64(m.Params.SharedExperts) / float64(max(1, m.MoELayers())) / tp
		}
	} else if k&models.KeepMLP != 0 {
		p += float64(m.DenseMLPParamsOf(l)) / tp
	}
	return p
}

// keptGroups names the weight groups the checkpoint keeps in the model
// dtype in any layer, for the report's warning ("" when none).
func (sh *sharding) keptGroups() string {
	if !sh.quant.Quantized() {
		return ""
	}
	var all models.Keep
	for _, l := range sh.model.Layers {
		all |= l.Keep
	}
	if all == 0 {
		return ""
	}
	var names []string
	if all&(models.KeepQ|models.KeepQA|models.KeepKV|models.KeepKVB|models.KeepO|models.KeepAttnRest) != 0 {
		names = append(names, "attention projections")
	}
	if all&models.KeepMixer != 0 {
		names = append(names, "linear-attention mixers")
	}
	if all&models.KeepShared != 0 {
		names = append(names, "shared experts")
	}
	if all&models.KeepMLP != 0 {
		names = append(names, "dense feed-forwards")
	}
	return strings.Join(names, ", ")
}

// pick returns n when k holds group g, else 0.
func pick(k, g models.Keep, n float64) float64 {
	if k&g != 0 {
		return n
	}
	return 0
}

// stageWeights returns the weight bytes of one rank of stage s: its
// layers, plus the embedding (first stage) and LM head (last stage; a tied
// head costs nothing extra unless the stages differ, when vLLM's last rank
// holds its own copy). Embedding and head are vocab-parallel (split by tp).
func (sh *sharding) stageWeights(lo, hi int, first, last bool) float64 {
	m := sh.model
	var b float64
	expertsOnly := sh.quant.ExpertsOnly
	for _, l := range m.Layers[lo:hi] {
		lin, oth, exp := sh.rankParams(l)
		if kept := sh.keptRankParams(l); kept > 0 {
			b += kept * sh.actBytes
			lin -= kept
		}
		if expertsOnly {
			routed := float64(m.Experts) * exp
			if sh.quant.RestBitsPerWeight > 0 {
				b += sh.weightBytes(routed, true) + sh.restBytes(lin-routed) + sh.weightBytes(oth, false)
			} else {
				b += sh.weightBytes(routed, true) + sh.weightBytes(lin-routed+oth, false)
			}
		} else {
			b += sh.weightBytes(lin, true) + sh.weightBytes(oth, false)
		}
	}
	vh := float64(m.Vocab) * float64(m.Hidden) / float64(sh.tp)
	all := sh.quant.AllWeights
	if first {
		b += sh.weightBytes(vh, all)
	}
	if last {
		if !m.Tied || !first {
			b += sh.weightBytes(vh, all)
		}
		b += float64(m.Hidden) * sh.actBytes // final norm
	}
	if first && m.Params.Vision > 0 {
		b += float64(m.Params.Vision) * sh.actBytes / float64(sh.tp)
	}
	if p := float64(m.AltUpProjectionParams()); p > 0 {
		// Gemma 3n's altup_projections (first stage) and
		// altup_unembed_projections (last stage), each half of p and split
		// by tp (vLLM gemma3n.py @034f08e65e builds them as
		// ColumnParallelLinear with gather_output).
		if first {
			b += sh.weightBytes(p/2/float64(sh.tp), true)
		}
		if last {
			b += sh.weightBytes(p/2/float64(sh.tp), true)
		}
	}
	if first && m.Params.PerLayerEmbedding > 0 {
		// Gemma 4's per-layer embeddings: the table is vocab-parallel
		// like the embedding; the projections (small beside it) are
		// held on the first stage at full size (vLLM gemma4.py builds the
		// per-layer gate and projection as ReplicatedLinear).
		tab := float64(m.Params.PLETable)
		b += sh.weightBytes(tab/float64(sh.tp), all) + float64(m.Params.PerLayerEmbedding-m.Params.PLETable)*sh.actBytes
	}
	return b
}

// kvLayers converts a stage's layers to the cache geometry.
func (sh *sharding) kvLayers(lo, hi int) []kvcache.Layer {
	m := sh.model
	out := make([]kvcache.Layer, 0, hi-lo)
	for _, l := range m.Layers[lo:hi] {
		if l.SharedKV {
			continue // reads an earlier layer's cache (kv_sharing_target_layer_name)
		}
		kvHeads := m.LayerKVHeads(l)
		hdk, hdv := m.LayerHeadDims(l)
		switch l.Kind {
		case models.FeedForward:
			// no mixer, no cache
		case models.MLAttention:
			if m.IsDeepSeekV4() {
				out = append(out, kvcache.Layer{Kind: kvcache.Compressed, Window: m.V4.Window, LatentDim: m.HeadDim, RopeDim: m.QKRopeDim, Compress: l.Compress,
					IndexerBytes: kvcache.IndexerKeyBytes(m.Indexer.HeadDim), IndexerHeadDim: m.Indexer.HeadDim})
				continue
			}
			kl := kvcache.Layer{Kind: kvcache.Latent, LatentDim: m.KVLoraRank + m.QKRopeDim, RopeDim: m.QKRopeDim}
			if m.Indexer.Heads > 0 {
				kl.IndexerBytes = kvcache.IndexerKeyBytes(m.Indexer.HeadDim)
			}
			out = append(out, kl)
		case models.SlidingAttention:
			k := kvcache.Sliding
			if strings.HasPrefix(m.Type, "llama4") {
				// Llama 4's local layers attend within chunks of
				// attention_chunk_size (models/parse.go reads it into
				// Window): vLLM's ChunkedLocalAttentionSpec.
				k = kvcache.ChunkedLocal
			}
			out = append(out, kvcache.Layer{Kind: k, KVHeads: kvHeads, HeadDimK: hdk, HeadDimV: hdv, Window: l.Window})
		case models.Mamba:
			s := m.SSM
			// conv state (d_inner + 2*g*n) x (k-1) plus SSM state heads x
			// head_dim x n (vLLM MambaStateShapeCalculator.mamba2_state_shape).
			conv := int64(s.DInner+2*s.NGroups*s.DState) * int64(s.ConvKernel-1)
			ssm := int64(s.Heads) * int64(s.HeadDim) * int64(s.DState)
			// The SSM state is kept in mamba_ssm_cache_dtype where the
			// config names one (Nemotron-H: float32); it is counted here in
			// model-dtype elements, so a float32 state over a bf16 model
			// weighs two elements each.
			if s.SSMDtype != "" {
				ssm = int64(float64(ssm) * dtypeBytes(s.SSMDtype) / sh.actBytes)
			}
			out = append(out, kvcache.Layer{Kind: kvcache.State, StateElems: conv + ssm})
		case models.LinearAttention:
			s := m.SSM
			// gated delta net: conv state (2*kd + vd) x (k-1) plus recurrent
			// state vh x khd x vhd (vLLM gated_delta_net_state_shape).
			// MiniMax lightning attention is read with k = 1 (no conv
			// state) and heads x head_dim x head_dim, vLLM's
			// linear_attention_state_shape, in the model dtype. Kimi
			// Delta Attention (Kimi-Linear) has the same elements: q, k
			// and v conv states of heads*head_dim x (k-1) each and a
			// heads x head_dim x head_dim recurrent state, the latter
			// float32 (vLLM mamba_utils.py kda_state_shape and
			// kda_state_dtype; models/parse.go sets RecurrentDtype).
			kd, vd := s.KeyHeads*s.KeyHeadDim, s.ValueHeads*s.ValueHeadDim
			conv := int64(2*kd+vd) * int64(s.ConvKernel-1)
			rec := int64(s.ValueHeads) * int64(s.KeyHeadDim) * int64(s.ValueHeadDim)
			// Qwen3.5 keeps the recurrent state in its config's
			// mamba_ssm_dtype (float32): vLLM's mamba_ssm_cache_dtype "auto"
			// takes hf_text_config.mamba_ssm_dtype
			// (vllm/model_executor/models/config.py, Qwen3.5 entry, v0.22.1).
			out = append(out, kvcache.Layer{Kind: kvcache.State, StateElems: conv, RecurrentElems: rec, RecurrentElemBytes: recurrentBytes(s.RecurrentDtype)})
		case models.ShortConv:
			// LFM2 short convolution: a conv state of conv_dim x
			// (conv_L_cache - 1) in the model dtype, split across ranks
			// (vLLM mamba_utils.py short_conv_state_shape and
			// short_conv_state_dtype).
			out = append(out, kvcache.Layer{Kind: kvcache.State, StateElems: int64(m.SSM.ConvDim) * int64(m.SSM.ConvKernel-1)})
		default:
			out = append(out, kvcache.Layer{Kind: kvcache.Full, KVHeads: kvHeads, HeadDimK: hdk, HeadDimV: hdv})
		}
	}
	return out
}

// isFinite reports whether x is neither NaN nor infinite.
func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// recurrentBytes is the element size of a recurrent state whose dtype the
// config fixes, 0 (the state dtype) when it does not.
func recurrentBytes(dtype string) float64 {
	if dtype == "" {
		return 0
	}
	return dtypeBytes(dtype)
}
