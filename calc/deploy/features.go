package deploy

import (
	"math"
	"strings"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/units"
	"github.com/modelrefs/throughput/kvcache"
	"github.com/modelrefs/throughput/models"
)

// The serving features beside a plain server (docs/MODEL.md section 10):
// prefix caching, speculative decoding, LoRA, KV offload to CPU memory,
// and expert and data parallelism. Each is off unless the request asks for
// it, so a request without them gets the plain server's report.

const (
	// eagle3DraftVocab is the draft vocabulary of the published EAGLE-3
	// heads (draft_vocab_size 32000 in yuhuili/EAGLE3-LLaMA3.1-Instruct-8B
	// config.json).
	eagle3DraftVocab = 32000
)

// featureState is a resolved request's features, with the per-rank
// constants their formulas need.
type featureState struct {
	// Prefix caching: on (vLLM's default), the prompt tokens of each
	// request served from the cache (whole blocks), the prefixes that
	// hold them, and the shared prefix the simulator replays.
	prefixOn     bool
	cachedTokens int
	prefixes     int
	prefixTokens int

	// Speculative decoding: k drafted tokens, acceptance a, expected
	// tokens per step E, and the draft's cost.
	specK      int
	specMethod string
	specAccept float64
	specE      float64
	draftModel *Deployment
	draftLayer draftHead
	// draftBytes is the draft's weights on one rank; draftKVPerToken its
	// cache per token on one rank (bytes).
	draftBytes      units.Bytes
	draftKVPerToken float64

	// LoRA: slots, rank, the adapters' bytes on one rank, their FLOPs per
	// token per rank and the bytes of one slot.
	loras, loraRank int
	loraModules     []string
	loraBytes       units.Bytes
	loraFLOPs       float64
	loraSlotBytes   float64
	// layers is the model's layers, over which the adapters' bytes
	// spread evenly (bytesOn).
	layers int

	// KV offload: the CPU tier per rank and its link, and whether loads
	// wait for the forward (a synchronous connector).
	offloadBytes, offloadBW float64
	offloadSync             bool

	// Expert and data parallelism, and the redundant expert replicas.
	dp, redundant int
	ep            bool
}

// draftHead is a one-layer draft (EAGLE, EAGLE-3, MTP) on one rank: the
// bytes one pass reads besides the KV (its layer, its fc, the LM head it
// uses) and its linear FLOPs per token; kvPerToken and attnFLOPs are one
// layer's cache bytes and attention FLOPs per attended token.
type draftHead struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	readBytes, flopsPerToken, kvPerToken, attnFLOPs float64
}

// resolveFeatures reads the features of req into d (d.Model is set; the
// rest of d is not built yet).
func resolveFeatures(e *spec.Errs, req spec.Request, d *Deployment, p *Ask) {
	f := &d.feat
	m := d.Model
	f.dp = e.IntAt("data_parallel_size", "Request.data_parallel_size", req.DataParallelSize, 1)
	f.ep = req.EnableExpertParallel != nil && *req.EnableExpertParallel
	f.redundant = e.IntAt("num_redundant_experts", "Request.num_redundant_experts", req.NumRedundantExperts, 0)
	if f.redundant > 0 && !f.ep {
		e.Add("num_redundant_experts", "applies with enable_expert_parallel only")
	}
	if f.ep && !m.IsMoE() {
		e.Add("enable_expert_parallel", "the model has no routed experts")
	} else if f.ep && d.TP > 0 && (m.Experts+f.redundant)%(d.TP*f.dp) != 0 {
		e.Add("enable_expert_parallel", "the model's "+itoa(m.Experts+f.redundant)+" experts (with num_redundant_experts) do not divide over tensor_parallel_size x data_parallel_size = "+itoa(d.TP*f.dp)+" ranks")
	}

	if s := req.SpeculativeConfig; s != nil {
		ResolveSpec(e, s, d)
	}
	if l := req.LoRA; l != nil {
		f.loras = e.IntAt("lora.max_loras", "LoRAConfig.max_loras", l.MaxLoRAs, 1)
		f.loraRank = e.IntAt("lora.max_lora_rank", "LoRAConfig.max_lora_rank", l.MaxLoRARank, 16)
		f.loraModules = spec.LoRAModules
		if len(l.TargetModules) > 0 {
			f.loraModules = nil
			for i, name := range l.TargetModules {
				n := strings.ToLower(strings.TrimSpace(name))
				ok := false
				for _, k := range spec.LoRAModules {
					ok = ok || k == n
				}
				if !ok {
					e.Add("lora.target_modules["+itoa(i)+"]", "unknown module "+fielderr.Quote(name)+"; one of "+strings.Join(spec.LoRAModules, ", "))
					continue
				}
				f.loraModules = append(f.loraModules, n)
			}
		}
		switch {
		case m.SSM.ValueHeads > 0 || m.SSM.Lightning:
			e.Add("lora", "LoRA is not modelled for gated-delta-net, Kimi Delta Attention or lightning-attention layers")
		case f.ep && m.IsMoE() && d.Version.MoELoRA:
			// vllm/lora/layers/fused_moe.py FusedMoEWithLoRA.__init__:
			// assert not base_layer.use_ep.
			e.Add("lora", "vLLM's fused-MoE LoRA does not support enable_expert_parallel")
		}
	}
	if o := req.KVOffload; o != nil {
		if o.CPUBytes == nil {
			e.Add("kv_offload.cpu_bytes", "is required: the CPU tier's size in bytes")
		}
		f.offloadBytes = e.FloatAt("kv_offload.cpu_bytes", "KVOffload.cpu_bytes", o.CPUBytes, 0)
		f.offloadBW = e.FloatAt("kv_offload.bandwidth_bytes_per_s", "KVOffload.bandwidth_bytes_per_s", o.BandwidthBytesPerS, spec.DefaultOffloadBandwidth)
		f.offloadSync = o.AsyncLoad != nil && !*o.AsyncLoad
	}
	ResolvePrefix(e, req, d, p)
}

// ResolvePrefix reads the workload's shared prefix (after the block size
// is known: only whole blocks are cached).
func ResolvePrefix(e *spec.Errs, req spec.Request, d *Deployment, p *Ask) {
	f := &d.feat
	w := req.Workload
	if w == nil {
		w = &spec.Workload{}
	}
	if w.SharedPrefixTokens != nil && w.PrefixHitRate != nil {
		e.Add("workload.prefix_hit_rate", "give either shared_prefix_tokens or prefix_hit_rate, not both")
	}
	f.prefixes = e.IntAt("workload.num_prefixes", "Workload.num_prefixes", w.NumPrefixes, 1)
	shared := e.IntAt("workload.shared_prefix_tokens", "Workload.shared_prefix_tokens", w.SharedPrefixTokens, 0)
	if w.PrefixHitRate != nil {
		hit := e.FloatAt("workload.prefix_hit_rate", "Workload.prefix_hit_rate", w.PrefixHitRate, 0)
		shared = int(math.Round(hit * float64(p.In)))
		if shared >= p.In {
			shared = p.In - 1 // the last prompt token is always computed
		}
	} else if p.In > 0 && shared >= p.In {
		e.Add("workload.shared_prefix_tokens", "("+itoa(shared)+") must be less than input_tokens ("+itoa(p.In)+"): the prefix is part of every prompt")
		return
	}
	f.prefixTokens = shared
	// On when asked, or (not given) when the workload states a prefix:
	// vLLM V1 caches by default, but a plain request keeps the plain
	// server's figures, where a preempted request recomputes everything.
	f.prefixOn = shared > 0 || p.sessions != nil
	if req.EnablePrefixCaching != nil {
		f.prefixOn = *req.EnablePrefixCaching
	}
}

// ResolveSpec reads the speculative config.
func ResolveSpec(e *spec.Errs, s *spec.SpeculativeConfig, d *Deployment) {
	f := &d.feat
	method := strings.ToLower(strings.TrimSpace(s.Method))
	if method == "" {
		method = "eagle"
		if s.Model != "" {
			method = "draft_model"
		}
	}
	known := false
	for _, k := range spec.SpecMethods {
		known = known || k == method
	}
	if !known {
		e.Add("speculative_config.method", "unknown method "+fielderr.Quote(s.Method)+"; one of "+strings.Join(spec.SpecMethods, ", "))
	}
	f.specMethod = method
	if s.NumSpeculativeTokens == nil {
		e.Add("speculative_config.num_speculative_tokens", "is required: the tokens drafted per step")
	}
	k := e.IntAt("speculative_config.num_speculative_tokens", "SpeculativeConfig.num_speculative_tokens", s.NumSpeculativeTokens, 1)
	switch {
	case s.AcceptanceRate != nil && s.MeanAcceptanceLength != nil:
		e.Add("speculative_config.mean_acceptance_length", "give either acceptance_rate or mean_acceptance_length, not both")
	case s.AcceptanceRate != nil:
		f.specAccept = e.FloatAt("speculative_config.acceptance_rate", "SpeculativeConfig.acceptance_rate", s.AcceptanceRate, 0)
	case s.MeanAcceptanceLength != nil:
		l := e.FloatAt("speculative_config.mean_acceptance_length", "SpeculativeConfig.mean_acceptance_length", s.MeanAcceptanceLength, 1)
		if l > float64(k+1) {
			e.Add("speculative_config.mean_acceptance_length", "("+fielderr.Number(l)+") cannot exceed num_speculative_tokens + 1 ("+itoa(k+1)+")")
		}
		f.specAccept = acceptanceForLength(k, l)
	default:
		e.Add("speculative_config.acceptance_rate", "is required (or mean_acceptance_length)")
	}
	switch {
	case method == "draft_model" && s.Model == "":
		e.Add("speculative_config.model", "is required for method draft_model: the draft model's catalog id")
	case method == "draft_model":
		// An unknown draft model is listed here, beside the request's
		// other problems; buildFeatures, which sizes the draft, runs only
		// when there are none.
		if _, err := models.Lookup(s.Model); err != nil {
			e.Add("speculative_config.model", err.Error())
		}
	case method != "draft_model" && s.Model != "":
		e.Add("speculative_config.model", "applies to method draft_model only")
	case method == "mtp" && d.Model != nil && !hasMTP(d.Model):
		// Allowed: the module is costed as one layer of the model's.
	}
	f.specK = k
	f.specE = tokensPerStep(k, f.specAccept)
}

// hasMTP reports whether the model ships multi-token-prediction layers
// (DeepSeek-V3's and V4's num_nextn_predict_layers); informational only.
func hasMTP(m *models.Model) bool {
	return m.KVLoraRank > 0 || m.IsDeepSeekV4()
}

// tokensPerStep is the expected tokens one verification step yields per
// sequence when each of k drafts is accepted with probability a until the
// first rejection, plus the model's own token: (1 - a^(k+1)) / (1 - a)
// (Leviathan, Kalman and Matias 2023, "Fast Inference from Transformers
// via Speculative Decoding", eq. 1); k+1 at a = 1.
func tokensPerStep(k int, a float64) float64 {
	if a >= 1 {
		return float64(k + 1)
	}
	return (1 - math.Pow(a, float64(k+1))) / (1 - a)
}

// acceptanceForLength inverts tokensPerStep for k drafts: the acceptance
// rate whose expected tokens per step is l (bisection; tokensPerStep
// rises with a from 1 to k+1).
func acceptanceForLength(k int, l float64) float64 {
	if l >= float64(k+1) {
		return 1
	}
	lo, hi := 0.0, 1.0
	for i := 0; i < 60; i++ {
		mid := (lo + hi) / 2
		if tokensPerStep(k, mid) < l {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// build sizes the features' memory and costs on the ranks of sh, once the
// stages are split (before the memory budget); maxModelLen is the
// target's, moeLoRA the release's EngineVersion.MoELoRA. It returns an
// error only for a draft model that cannot be resolved.
func (f *featureState) build(req spec.Request, sh *sharding, maxModelLen int, moeLoRA bool) error {
	f.layers = len(sh.model.Layers)
	if f.specK > 0 {
		switch f.specMethod {
		case "draft_model":
			dr := spec.Request{
				Model: req.SpeculativeConfig.Model, Hardware: req.Hardware, Engine: req.Engine,
				TensorParallelSize: spec.Int(sh.tp), Dtype: req.Dtype, KVCacheDtype: req.KVCacheDtype,
				MaxModelLen: spec.Int(min(maxModelLen, spec.MaxModelLen)),
			}
			dm, _, err := resolve(dr)
			if err != nil {
				return fielderr.Under("speculative_config", err) // "model" -> "speculative_config.model"
			}
			f.draftModel = dm
			for i := range dm.stages {
				f.draftBytes += dm.stages[i].weightsBytes
				f.draftKVPerToken += dm.stages[i].layout.BytesPerToken
			}
		case "eagle", "eagle3", "mtp":
			f.draftLayer, f.draftBytes = sh.headDraft(f.specMethod)
			f.draftKVPerToken = f.draftLayer.kvPerToken
		}
	}
	if f.loras > 0 {
		f.loraSlotBytes, f.loraFLOPs = sh.loraPerSlot(f.loraModules, f.loraRank, moeLoRA)
		f.loraBytes = units.Bytes(f.loraSlotBytes * float64(f.loras))
	}
	return nil
}

// headDraft sizes a one-layer draft head on one rank. EAGLE (Li et al.
// 2024, arXiv 2401.15077) is one decoder layer of the target's shape plus
// an fc of 2h x h, using the target's LM head; EAGLE-3 (Li et al. 2025,
// arXiv 2503.01840) takes 3h of fused features (fc 3h x h, attention
// projections on 2h) and has its own LM head over a 32,000-token draft
// vocabulary; MTP (DeepSeek-V3 technical report, arXiv 2412.19437,
// section 2.2) is one transformer block of the target's plus a 2h x h
// projection, sharing embedding and head. One pass reads the layer, the
// fc and the head; the head and the fc are split over tp ranks.
func (sh *sharding) headDraft(method string) (draftHead, units.Bytes) {
	m := sh.model
	tp := float64(sh.tp)
	h := float64(m.Hidden)
	l := m.Layers[len(m.Layers)-1]
	if method != "mtp" {
		// EAGLE heads are dense decoder layers.
		l = models.Layer{Kind: models.FullAttention}
		if m.KVLoraRank > 0 {
			l.Kind = models.MLAttention
		}
	}
	lin, oth, exp := sh.rankParams(l)
	var layer, active float64
	if l.MoE {
		routed := float64(m.Experts) * exp
		layer = sh.weightBytes(lin, true) + sh.weightBytes(oth, false)
		active = lin - routed + float64(m.TopK)*exp
	} else {
		if m.IsMoE() {
			// A dense layer in place of a routed one: the MLP of the
			// model's dense layers, or its experts' active width.
			lin -= float64(m.Experts) * exp
			di := m.DenseIntermediate
			if di == 0 {
				di = m.MoEIntermediate * max(m.TopK, 1)
			}
			lin += 3 * h * float64(di) / tp
		}
		layer = sh.weightBytes(lin, true) + sh.weightBytes(oth, false)
		active = lin
	}
	fc := 2 * h * h / tp
	own := 0.0 // weights the draft holds beyond the target's
	head := float64(m.Vocab) * h / tp
	if method == "eagle3" {
		fc = 3 * h * h / tp
		// q, k, v read 2h instead of h.
		hd := float64(m.HeadDim)
		extra := h * hd * (float64(m.Heads)/tp + 2*float64(kvcache.HeadsPerRank(m.KVHeads, sh.tp)))
		layer += extra * sh.actBytes
		active += extra
		head = eagle3DraftVocab * h / tp
		own = head * sh.actBytes
	}
	var g draftHead
	g.readBytes = layer + fc*sh.actBytes + head*sh.actBytes
	g.flopsPerToken = 2 * (active + fc + head)
	switch l.Kind {
	case models.MLAttention:
		g.kvPerToken = float64(m.KVLoraRank+m.QKRopeDim) * sh.kvBytes
		g.attnFLOPs = 2 * float64(m.Heads) / tp * float64(2*m.KVLoraRank+m.QKRopeDim)
	default:
		g.kvPerToken = float64(kvcache.HeadsPerRank(m.KVHeads, sh.tp)*(m.HeadDim+m.HeadDimV())) * sh.kvBytes
		g.attnFLOPs = 2 * float64(m.Heads) / tp * float64(m.HeadDim+m.HeadDimV())
	}
	return g, units.Bytes(layer + fc*sh.actBytes + own)
}

// loraPerSlot returns one adapter slot's bytes on one rank and its FLOPs
// per token, for adapters of rank `rank` on the named modules (moeLoRA:
// the release wraps the routed experts, EngineVersion.MoELoRA). vLLM
// allocates, for every wrapped linear layer and every slot, lora_a
// [max_lora_rank, input] and lora_b [output, max_lora_rank] per packed
// slice, in the model dtype (vllm/lora/layers/base_linear.py
// create_lora_weights, vLLM 0.19): a column-parallel layer (q, k, v, gate,
// up, MLA's q_b and kv_b, a Mamba mixer's in_proj) keeps its full input
// and 1/tp of its output, a row-parallel one (o, down, out_proj) 1/tp of
// its input and its full output, a replicated one (MLA's q_a and
// kv_a_proj_with_mqa) both in full. A token costs 2 * r * (input + output)
// FLOPs per module (the shrink and expand GEMMs). Routed experts, from the
// release with fused-MoE LoRA (EngineVersion.MoELoRA), hold per slot and
// per local expert w13 lora_a [2, r, h], w13 lora_b [2, I/tp, r], w2
// lora_a [r, I/tp] and w2 lora_b [h, r] (vllm/lora/layers/fused_moe.py
// FusedMoEWithLoRA._create_lora_a_weights / _create_lora_b_weights, main
// at 0002540c): all E experts are allocated, a token runs top_k of them.
func (sh *sharding) loraPerSlot(modules []string, rank int, moeLoRA bool) (bytes, flops float64) {
	m := sh.model
	tp := float64(sh.tp)
	h := float64(m.Hidden)
	on := map[string]bool{}
	for _, mod := range modules {
		on[mod] = true
	}
	// held and active are elements in + out per rank over the modules:
	// held are allocated, active run per token.
	var held, active float64
	add := func(mod string, in, out float64) {
		if on[mod] {
			held += in + out
			active += in + out
		}
	}
	// A non-gated MLP (relu², GELU) has no gate_proj; vLLM's fused-MoE
	// LoRA then allocates one w13 slice (_w13_slices = 1).
	gated := m.GatedMLP
	mlp := func(inter float64) {
		if gated {
			add("gate_proj", h, inter/tp)
		}
		add("up_proj", h, inter/tp)
		add("down_proj", inter/tp, h)
	}
	for _, l := range m.Layers {
		switch l.Kind {
		case models.MLAttention:
			hq := float64(m.Heads) / tp
			if m.QLoraRank > 0 {
				add("q_a_proj", h, float64(m.QLoraRank))
				add("q_b_proj", float64(m.QLoraRank), hq*float64(m.QKNopeDim+m.QKRopeDim))
			} else {
				add("q_proj", h, hq*float64(m.QKNopeDim+m.QKRopeDim))
			}
			add("kv_a_proj_with_mqa", h, float64(m.KVLoraRank+m.QKRopeDim))
			add("kv_b_proj", float64(m.KVLoraRank), hq*float64(m.QKNopeDim+m.HeadDimV()))
			add("o_proj", hq*float64(m.HeadDimV()), h)
		case models.Mamba:
			s := m.SSM
			add("in_proj", h, float64(2*s.DInner+2*s.NGroups*s.DState+s.Heads)/tp)
			add("out_proj", float64(s.DInner)/tp, h)
		case models.FullAttention, models.SlidingAttention:
			hdk, hdv := m.LayerHeadDims(l)
			q := float64(m.Heads*hdk) / tp
			kvh := float64(kvcache.HeadsPerRank(m.LayerKVHeads(l), sh.tp))
			add("q_proj", h, q)
			add("k_proj", h, kvh*float64(hdk))
			add("v_proj", h, kvh*float64(hdv))
			add("o_proj", float64(m.Heads*hdv)/tp, h)
		}
		switch {
		case l.NoFFN:
		case l.MoE:
			if m.SharedIntermediate > 0 {
				mlp(float64(m.SharedIntermediate))
			}
			if !moeLoRA {
				continue // experts not wrapped before fused-MoE LoRA
			}
			eh := h
			if m.MoELatent > 0 {
				eh = float64(m.MoELatent)
			}
			inter := float64(m.MoEIntermediate) / tp
			for _, e := range [...]struct {
				mod     string
				in, out float64
			}{{"gate_proj", eh, inter}, {"up_proj", eh, inter}, {"down_proj", inter, eh}} {
				if on[e.mod] && (gated || e.mod != "gate_proj") {
					held += float64(m.Experts) * (e.in + e.out)
					active += float64(m.TopK) * (e.in + e.out)
				}
			}
		default:
			inter := float64(m.Intermediate)
			if m.IsMoE() && m.DenseIntermediate > 0 {
				inter = float64(m.DenseIntermediate)
			}
			if l.Intermediate > 0 {
				inter = float64(l.Intermediate)
			}
			mlp(inter)
		}
	}
	r := float64(rank)
	return r * held * sh.actBytes, 2 * r * active
}

// bytesOn are the features' weights on stage s of one rank, taken
// from the KV budget as vLLM does: they are loaded before the profile run
// that sizes the pool (gpu_worker.py determine_available_memory).
func (f *featureState) bytesOn(s *stage) units.Bytes {
	var b units.Bytes
	if s.last {
		b += f.draftBytes
	}
	if f.loras > 0 && f.layers > 0 {
		b += f.loraBytes * units.Bytes(s.hi-s.lo) / units.Bytes(f.layers)
	}
	return b
}

// draftShare is the fraction of a block's bytes that holds the model's
// own KV when a draft keeps its cache in the same blocks (vLLM adds the
// draft's attention layers to the KV cache spec, so every block holds
// both): bytes per token / (bytes per token + draft's).
func (f *featureState) draftShare(lay kvcache.Layout) float64 {
	if f.draftKVPerToken <= 0 || lay.BytesPerToken <= 0 {
		return 1
	}
	return lay.BytesPerToken / (lay.BytesPerToken + f.draftKVPerToken)
}

// draftPass is the duration of one draft forward pass over b sequences at
// ctx tokens of context, in seconds: its reads over bandwidth or its FLOPs
// over peak, whichever binds, plus the engine's step overhead (each pass
// launches its own kernels and samples its own token, as a step does; the
// fitted step_overhead_ms, not a figure of its own). ngram drafts cost
// nothing on the GPU. c is the target's cost model (its overhead, its
// bandwidth and peak).
func (f *featureState) draftPass(c *costModel, b, ctx float64) float64 {
	if b <= 0 || f.specMethod == "ngram" {
		return 0
	}
	over := c.eff.StepOverheadMs / 1000
	if f.draftModel != nil {
		return f.draftModel.DecodeStep(int(b), ctx).TimeS
	}
	g := f.draftLayer
	bytes := g.readBytes + g.kvPerToken*b*ctx
	flops := g.flopsPerToken*b + g.attnFLOPs*b*ctx
	return over + math.Max(bytes*c.invWeightBW, flops/(c.peak*c.eff.ComputeEfficiency))
}

// sharedGroups counts a layout's full-attention and latent groups.
func sharedGroups(lay kvcache.Layout) int {
	n := 0
	for _, g := range lay.Groups {
		if g.Kind == kvcache.Full || g.Kind == kvcache.Latent {
			n++
		}
	}
	return n
}

// tokensPerSeq is the tokens of the step budget each decode takes: 1 + k
// with k drafted tokens to verify.
func (f *featureState) tokensPerSeq() int { return 1 + f.specK }

// offloadBlocks is the CPU tier in blocks of layout lay (the tightest
// stage's): its bytes per rank (of tp ranks) over a block's.
func (f *featureState) offloadBlocks(lay kvcache.Layout, tp int) int64 {
	return lay.NumBlocks(f.offloadBytes / float64(tp) * f.draftShare(lay))
}

// TPOT is the time per output token at batch b and ctx tokens of
// context, in seconds: the decode step over the tokens it yields per
// sequence.
func (sv Serving) TPOT(b int, ctx float64) float64 {
	t, tok := sv.DecodeTime(b, ctx)
	return t / tok
}

// without returns a copy of the deployment with the features named off,
// for the figures a report shows beside them (same pool and memory).
func (a *reporter) without(spec, lora bool) *Deployment {
	c := *a.d
	if spec {
		c.feat.specK, c.feat.specE = 0, 1
	}
	if lora {
		c.feat.loras = 0
	}
	return &c
}

// featuresReport fills the features section (nil when none is on).
func (a *reporter) featuresReport(kvCap, onset int, meanBlocks float64) *spec.FeaturesReport {
	d, p, r, pool := a.d, a.p, a.r, a.pool
	f := &d.feat
	var out spec.FeaturesReport
	any := false
	in, out2 := p.In, p.Out
	mean := float64(in) + float64(out2)/2
	batch := r.Decode.BatchSize
	if f.cachedTokens > 0 {
		any = true
		ttft0, _, _ := a.sv.prefillFrom(0, in, 0, 0)
		ttft0 += d.Eff.FrontEndS(in) // as prefillTime's
		pc := &spec.PrefixCachingReport{
			CachedTokensPerRequest: f.cachedTokens, SharedBlocks: pool.shared(), NumPrefixes: f.prefixes,
			TTFTMs: r.Prefill.TTFTMs, TTFTMsWithout: ms(ttft0), KVCeiling: kvCap, OnsetConcurrency: onset,
		}
		if per := pool.BlocksPerSeq(float64(in + out2)); per > 0 {
			pc.KVCeilingWithout = int(min(pool.Usable()/per, spec.MaxSeqs))
		}
		pc.OnsetConcurrencyWithout = int(min(float64(pool.Usable())/meanBlocks, spec.MaxSeqs))
		out.PrefixCaching = pc
	}
	if f.specK > 0 {
		any = true
		plain := a.without(true, false) // copied once for every comparison below
		s := d.DecodeStep(batch, mean)
		s0 := plain.DecodeStep(batch, mean)
		b1, b10 := d.DecodeStep(1, mean), plain.DecodeStep(1, mean)
		sr := &spec.SpeculativeReport{
			Method: f.specMethod, NumSpeculativeTokens: f.specK, AcceptanceRate: f.specAccept, TokensPerStep: f.specE,
			DraftWeightsBytes: f.draftBytes.Int64(), DraftTimeMs: ms(s.DraftS),
			TPOTMs: ms(s.TimeS / s.TokensPerSeq), TPOTMsWithout: ms(s0.TimeS),
			TokensPerS: batchRate(batch, s), TokensPerSWithout: batchRate(batch, s0),
			Batch1Speedup: ratio(decodeRate(b1), decodeRate(b10)),
		}
		sr.Speedup = ratio(sr.TokensPerS, sr.TokensPerSWithout)
		hi := max(kvCap, d.MaxNumSeqs)
		pays := func(b int) bool { return decodeRate(d.DecodeStep(b, mean)) > decodeRate(plain.DecodeStep(b, mean)) }
		if last := LargestBatch(hi, pays); last < hi {
			sr.CrossoverBatchSize = last + 1
		}
		out.Speculative = sr
	}
	if f.loras > 0 {
		any = true
		st := &d.stages[d.tight]
		s := d.DecodeStep(batch, mean)
		s0 := a.without(false, true).DecodeStep(batch, mean)
		lb := d.feat.bytesOn(st) - func() units.Bytes {
			if st.last {
				return f.draftBytes
			}
			return 0
		}()
		out.LoRA = &spec.LoRAReport{
			MaxLoRAs: f.loras, MaxLoRARank: f.loraRank, Bytes: lb.Int64(),
			KVCacheBytesWithout: (st.kvBytes + lb).Int64(),
			FLOPsPerStep:        s.LoRAFLOPs, ReadBytesPerStep: int64(s.LoRAReadBytes),
			ExtraStepTimeMs: ms(s.TimeS - s0.TimeS),
		}
	}
	if f.offloadBytes > 0 {
		any = true
		lay := d.stages[d.tight].layout
		blocks := d.feat.offloadBlocks(lay, d.TP)
		blockBytes := lay.PageBytes * float64(lay.LayersPerBlock)
		re, _, _ := a.sv.prefillFrom(0, int(mean), 0, 0)
		out.KVOffload = &spec.KVOffloadReport{
			CPUBlocks: blocks, CapacityTokens: lay.CapacityTokens(blocks),
			RecomputeOnsetConcurrency: int(min(float64(pool.Usable()+blocks)/meanBlocks, spec.MaxSeqs)),
			ReloadMsPerSequence:       ms(meanBlocks * blockBytes / f.offloadBW),
			RecomputeMsPerSequence:    ms(re),
		}
	}
	if f.dp > 1 || f.ep {
		any = true
		c := &d.cost
		s := d.DecodeStep(batch, mean)
		pr := &spec.ParallelReport{
			DataParallelSize: f.dp, ExpertParallel: f.ep, GPUs: d.TP * d.PP * f.dp,
			TokensPerSTotal: r.Decode.TokensPerS * float64(f.dp), AllToAllMs: ms(s.AllToAllS),
			LoadImbalance: 1,
		}
		if d.Model.IsMoE() {
			tok := float64(batch) * float64(1+f.specK)
			pr.ExpertParallelSize = int(c.epRanks)
			pr.ExpertsPerRank = (c.experts + float64(f.redundant)) / c.epRanks
			pr.ExpertsTouchedPerRank = distinctExperts(c.experts, c.topK, tok*c.dp) / c.epRanks
			pr.LoadImbalance = c.loadImbalance(tok)
		}
		out.Parallel = pr
	}
	if !any {
		return nil
	}
	return &out
}
