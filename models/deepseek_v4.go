package models

// V4 is DeepSeek-V4's attention and residual geometry (model_type
// deepseek_v4; vLLM vllm/model_executor/models/deepseek_v4.py and
// vllm/model_executor/layers/deepseek_v4_attention.py, as of v0.27.1):
// every layer keeps a sliding window of uncompressed KV (one 512-wide
// latent per token, K = V, shared by all heads) and, by its
// compress_ratios entry, attends also to a compressed stream of one latent
// per 4 tokens (CSA, with a lightning indexer that picks index_topk of
// them) or per 128 tokens (HCA, attended densely). Queries go through a
// q_lora_rank bottleneck; the output is a grouped low-rank projection
// (o_groups groups of o_lora_rank). The residual stream is hc_mult wide
// (manifold-constrained hyper-connections), and the first num_hash_layers
// MoE layers route by a token-id table instead of a learned score.
type V4 struct {
	OLoraRank, OGroups, HCMult, Window, HashLayers int
}

// IsDeepSeekV4 reports whether the model is DeepSeek-V4.
func (m *Model) IsDeepSeekV4() bool { return m.Type == "deepseek_v4" }

// dsv4 holds DeepSeek-V4's config reader, quantization and parameter
// counts, which RegisterDeepSeekV4 sets; nil in a program that does not
// import package models/deepseekv4 (the browser's light engine, to keep
// within its size budget), which refuses model_type deepseek_v4 naming
// the full engine and so never holds a DeepSeek-V4 model. Only
// RegisterDeepSeekV4 refers to the DeepSeek-V4 code, so the linker leaves
// it out of such a program. Past read, which sets Model.v4, each hook is
// called from one place, for a model with v4 set: every call site is code
// the light engine carries without running it.
var dsv4 *deepSeekV4

type deepSeekV4 struct {
	read      func(r *reader) error         // readLayers
	quant     func(r *reader, qc cfg)       // FromConfig
	attention func(m *Model, l Layer) int64 // AttentionParamsOf
	params    func(pc *counter)             // countParams
}

// RegisterDeepSeekV4 links DeepSeek-V4 (model_type deepseek_v4: its
// config reader, quantization and parameter model) into this program.
// Package models/deepseekv4 calls it from its init: a program imports
// that package (the full engine, the API, the tools) rather than calling
// this.
func RegisterDeepSeekV4() {
	dsv4 = &deepSeekV4{
		read: func(r *reader) error {
			if err := r.readV4(); err != nil {
				return err
			}
			r.placeExperts()
			return nil
		},
		quant: func(r *reader, qc cfg) {
			r.m.Quant = v4Quantization(r.m.Quant, qc, r.c.str("expert_dtype"))
		},
		attention: (*Model).v4AttentionParams,
		params:    (*counter).v4Params,
	}
}

// v4Params turns the parameter counts of the other architectures
// (countParams) into DeepSeek-V4's: the hyper-connection mixing weights
// (fp32, never quantized) of the head and of every layer are counted with
// the norms, each MoE layer's router is v4RouterParams in place of the
// learned gate's E x h, and the MTP layers are v4MTPParams.
func (pc *counter) v4Params() {
	m, p := pc.m, &pc.p
	p.Norms += pc.v4HCHeadParams() + int64(len(m.Layers))*pc.v4HCParams()
	gate := int64(m.Hidden) * int64(m.Experts)
	for i, l := range m.Layers {
		if l.MoE && !l.NoFFN {
			p.Router += pc.v4RouterParams(i) - gate
		}
	}
	p.MTP = pc.v4MTPParams()
}

// Built reports whether this program models the entry's architecture:
// one that does not import package models/deepseekv4 (the browser's light
// engine) leaves DeepSeek-V4 out, and the catalog files every deepseek_v4
// entry under the family "DeepSeek-V4" (models/catalog/deepseek-v4.json;
// TestDeepSeekV4FamilyHoldsEveryV4Entry).
func (e *Entry) Built() bool { return dsv4 != nil || e.Family != "DeepSeek-V4" }

// readV4 reads DeepSeek-V4's fields: the per-layer compress_ratios (one
// entry per decoder layer, and one more for the MTP layer in the published
// configs), the indexer of the ratio-4 layers, and the output and
// hyper-connection widths. Every layer is an MLAttention layer with
// Layer.Compress set to its ratio (0 for a sliding-window-only layer).
func (r *reader) readV4() error {
	m, c, prefix := r.m, r.c, r.prefix
	v := V4{
		OLoraRank:  c.int(0, "o_lora_rank"),
		OGroups:    c.int(0, "o_groups"),
		HCMult:     c.int(1, "hc_mult"),
		Window:     c.int(0, "sliding_window"),
		HashLayers: c.int(0, "num_hash_layers"),
	}
	m.QLoraRank = c.int(0, "q_lora_rank")
	m.QKRopeDim = c.int(64, "qk_rope_head_dim")
	m.Indexer = Indexer{Heads: c.int(64, "index_n_heads"), HeadDim: c.int(128, "index_head_dim"), TopK: c.int(512, "index_topk")}
	ix, bad := m.Indexer, ""
	switch {
	case v.OLoraRank <= 0 || v.OLoraRank > maxDim:
		bad = "o_lora_rank"
	case v.OGroups <= 0 || m.Heads%v.OGroups != 0:
		bad = "o_groups"
	case v.Window <= 0 || v.Window > maxDim:
		bad = "sliding_window"
	case m.QLoraRank <= 0 || m.QLoraRank > maxDim:
		bad = "q_lora_rank"
	case m.QKRopeDim <= 0 || m.QKRopeDim >= m.HeadDim:
		bad = "qk_rope_head_dim"
	case min(ix.Heads, ix.HeadDim, ix.TopK) <= 0 || max(ix.Heads, ix.HeadDim) > 4096 || ix.TopK > maxDim:
		bad = "index_n_heads"
	case v.HCMult < 1 || v.HCMult > 64:
		bad = "hc_mult"
	case v.HashLayers < 0 || v.HashLayers > m.NumLayers:
		bad = "num_hash_layers"
	}
	if bad != "" {
		return configErr(prefix+bad, "is missing or out of range for model_type deepseek_v4 (o_groups must divide the heads, qk_rope_head_dim stay below head_dim)")
	}
	ratios := c.ints("compress_ratios")
	if len(ratios) < m.NumLayers {
		return configErr(prefix+"compress_ratios", "needs one entry (0, 4 or 128) per layer")
	}
	m.V4, m.v4 = v, true
	m.QKNopeDim = m.HeadDim - m.QKRopeDim
	m.VHeadDim = m.HeadDim
	for i := range m.Layers {
		r := ratios[i]
		if r == 1 {
			r = 0
		}
		if r != 0 && r != 4 && r != 128 {
			return configErr(prefix+"compress_ratios", "needs one entry (0, 4 or 128) per layer")
		}
		m.Layers[i] = Layer{Kind: MLAttention, Compress: r}
	}
	return nil
}

// v4CompressorParams returns one DeepseekCompressor's weights for a
// compress ratio and head size d (vLLM
// vllm/model_executor/layers/deepseek_compressor.py): ape = ratio x
// coff*d, fused_wkv_wgate = h x 2*coff*d, norm = d, where coff is 2 for
// the overlapping ratio-4 compressor and 1 for ratio 128.
func (m *Model) v4CompressorParams(ratio, d int) int64 {
	coff := int64(1)
	if ratio == 4 {
		coff = 2
	}
	h, dd := int64(m.Hidden), int64(d)
	return int64(ratio)*coff*dd + h*2*coff*dd + dd
}

// v4AttentionParams returns one DeepSeek-V4 attention layer's weights
// (vLLM deepseek_v4.py DeepseekV4Attention), for hidden h, heads nh of
// head_dim d, q_lora_rank rq, o_lora_rank ro and o_groups g:
//
//	wq_a + wkv (fused_wqa_wkv)  h*(rq + d)
//	q_norm, kv_norm             rq + d
//	wq_b                        rq*nh*d
//	wo_a                        (nh*d/g) x (g*ro) = ro*nh*d
//	wo_b                        g*ro*h
//	attn_sink                   nh
//
// plus, for a compressed layer, its compressor (v4CompressorParams at d)
// and, for a ratio-4 layer, the indexer (DeepseekV4Indexer): wq_b
// rq*ni*di, weights_proj h*ni and its own ratio-4 compressor at di.
func (m *Model) v4AttentionParams(l Layer) int64 {
	h, nh, d := int64(m.Hidden), int64(m.Heads), int64(m.HeadDim)
	rq, ro, g := int64(m.QLoraRank), int64(m.V4.OLoraRank), int64(m.V4.OGroups)
	p := h*(rq+d) + rq + d + rq*nh*d + ro*nh*d + g*ro*h + nh
	if l.Compress > 1 {
		p += m.v4CompressorParams(l.Compress, m.HeadDim)
	}
	if l.Compress == 4 {
		ni, di := int64(m.Indexer.Heads), int64(m.Indexer.HeadDim)
		p += rq*ni*di + h*ni + m.v4CompressorParams(4, m.Indexer.HeadDim)
	}
	return p
}

// V4ReplicatedParams returns the attention weights of layer l that every
// tensor rank holds whole: fused_wqa_wkv (a ReplicatedLinear), the
// compressors (disable_tp) and the indexer's weights_proj.
func (m *Model) V4ReplicatedParams(l Layer) int64 {
	h := int64(m.Hidden)
	p := h * int64(m.QLoraRank+m.HeadDim)
	if l.Compress > 1 {
		p += m.v4CompressorParams(l.Compress, m.HeadDim)
	}
	if l.Compress == 4 {
		p += h*int64(m.Indexer.Heads) + m.v4CompressorParams(4, m.Indexer.HeadDim)
	}
	return p
}

// v4HCParams returns one decoder layer's hyper-connection weights (vLLM
// deepseek_v4.py DeepseekV4DecoderLayer): for attention and for the
// feed-forward, fn of (2+m)*m x m*h, base of (2+m)*m and scale of 3, for
// hc_mult m.
func (pc *counter) v4HCParams() int64 {
	m := pc.m
	hm := int64(m.V4.HCMult)
	mix := (2 + hm) * hm
	return 2 * (mix*hm*int64(m.Hidden) + mix + 3)
}

// v4HCHeadParams returns the hc_head weights that fold the hc_mult streams
// back into one before the final norm: fn m x m*h, base m and scale 1
// (DeepseekV4Model; each MTP layer has its own).
func (pc *counter) v4HCHeadParams() int64 {
	m := pc.m
	hm := int64(m.V4.HCMult)
	return hm*hm*int64(m.Hidden) + hm + 1
}

// v4RouterParams returns one MoE layer's gate: E x h, plus the
// e_score_correction_bias (E) of a learned-routing layer or, for one of
// the first num_hash_layers layers, the token-to-expert table tid2eid of
// vocab x top_k entries (an integer parameter vLLM holds beside the gate;
// DeepseekV4MoE).
func (pc *counter) v4RouterParams(layer int) int64 {
	m := pc.m
	p := int64(m.Hidden) * int64(m.Experts)
	if layer < m.V4.HashLayers {
		return p + int64(m.Vocab)*int64(m.TopK)
	}
	return p + int64(m.Experts)
}

// v4MTPParams returns the MTP layers' weights (vLLM
// vllm/model_executor/models/deepseek_v4_mtp.py
// DeepSeekV4MultiTokenPredictorLayer): enorm and hnorm (2h), e_proj and
// h_proj (2h^2), its own hc_head, shared_head (norm h and head vocab*h),
// the predictor's embedding (vocab*h), and one decoder layer built with
// compress ratio 1 (sliding window only; a learned-routing MoE layer)
// whose experts are each Params.ExpertParams as counted.
func (pc *counter) v4MTPParams() int64 {
	m := pc.m
	n := int64(m.MTPLayers)
	if n == 0 {
		return 0
	}
	h := int64(m.Hidden)
	layer := m.v4AttentionParams(Layer{Kind: MLAttention}) + int64(m.normsPer)*h + pc.v4HCParams()
	layer += int64(m.Experts)*pc.p.ExpertParams + m.mlpParams(m.SharedIntermediate) + pc.v4RouterParams(m.NumLayers)
	per := layer + 2*h + 2*h*h + pc.v4HCHeadParams() + h + 2*int64(m.Vocab)*h
	return n * per
}
