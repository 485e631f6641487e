package models

import "strings"

// Params is a model's parameter count by component, derived from the shapes
// of its weight matrices. All counts are numbers of scalar weights.
type Params struct {
	Embedding int64 `json:"embedding"`
	// LMHead is 0 when the head is tied to the embedding.
	LMHead int64 `json:"lm_head"`
	// Attention covers q/k/v/o (or MLA's projections), their biases, q/k
	// norms and attention sinks, over all attention layers.
	Attention int64 `json:"attention"`
	// Mixer covers the Mamba-2 and linear-attention layers' projections,
	// convolutions and state parameters.
	Mixer int64 `json:"mixer"`
	// DenseMLP covers the feed-forwards of dense layers.
	DenseMLP int64 `json:"dense_mlp"`
	// RoutedExperts covers every routed expert of every MoE layer.
	RoutedExperts int64 `json:"routed_experts"`
	// SharedExperts covers always-active shared experts.
	SharedExperts int64 `json:"shared_experts"`
	// Router covers the MoE gating matrices.
	Router int64 `json:"router"`
	// Norms covers the layer norms and the final norm.
	Norms int64 `json:"norms"`
	// Vision is the estimated vision tower of a multimodal checkpoint
	// (with Gemma 3n's audio tower: both load beside the text model and
	// neither is in Active).
	Vision int64 `json:"vision"`
	// AltUp is Gemma 3n's alternating updates: altup_projections and
	// altup_unembed_projections and each layer's Gemma3nAltUp (see
	// countParams), in Total and Active.
	AltUp int64 `json:"altup,omitempty"`
	// Laurel is Gemma 3n's learned augmented residual blocks (LAuReL), in
	// Total and Active.
	Laurel int64 `json:"laurel,omitempty"`
	// PerLayerEmbedding is Gemma 4 / 3n's per-layer embeddings (table and
	// projections; see countParams), in Total.
	PerLayerEmbedding int64 `json:"per_layer_embedding,omitempty"`
	// PLETable is its lookup table, not in Active.
	PLETable int64 `json:"per_layer_embedding_table,omitempty"`
	// MTP is the multi-token-prediction layers' weights. They are not in
	// Total: vLLM loads them only when speculative decoding uses them
	// (vllm/model_executor/models/deepseek_mtp.py, qwen3_next_mtp.py).
	MTP int64 `json:"mtp"`
	// ExpertParams is the size of one routed expert in one layer.
	ExpertParams int64 `json:"params_per_expert"`
	// Total is the sum of all components.
	Total int64 `json:"total"`
	// Active is what one token uses: Total less the vision tower and the
	// routed experts not selected (top-k of E in each MoE layer).
	Active int64 `json:"active_per_token"`
}

// mlpParams returns one feed-forward block's weights for intermediate size
// inter: 3*h*inter for gated (SwiGLU/GeGLU) blocks, 2*h*inter otherwise, plus
// biases when the family has them.
func (m *Model) mlpParams(inter int) int64 { return m.mlpParamsAt(m.Hidden, inter) }

// mlpParamsAt is mlpParams for a block working in width hidden (the latent
// width of Nemotron 3's routed experts).
func (m *Model) mlpParamsAt(hidden, inter int) int64 {
	h, f := int64(hidden), int64(inter)
	if !m.GatedMLP {
		p := 2 * h * f
		if m.mlpBias {
			p += f + h
		}
		return p
	}
	p := 3 * h * f
	if m.mlpBias {
		p += 2*f + h
	}
	return p
}

// AttentionParamsOf returns attention layer l's parameters.
//
// Standard (MHA/GQA/MQA): q = h*nh*d, k = h*nkv*d, v = h*nkv*dv, o = nh*dv*h, plus
// biases and q/k norms (2*d) where the family has them; nkv and d are the
// layer's own (Model.LayerKVHeads, LayerHeadDims). Gemma 4's
// attention_k_eq_v full-attention layers have no v_proj: the checkpoint
// holds k only and vLLM 0.19 (gemma4.py) loads it into both the K and V
// slots, so v costs no weights.
// MLA (DeepSeek-V2/V3, arXiv:2405.04434 section 2.1): q_a = h*r_q, q_norm =
// r_q, q_b = r_q*nh*(d_nope+d_rope) (or q = h*nh*(d_nope+d_rope) without
// q_lora), kv_a = h*(r_kv+d_rope), kv_norm = r_kv, kv_b =
// r_kv*nh*(d_nope+d_v), o = nh*d_v*h.
func (m *Model) AttentionParamsOf(l Layer) int64 {
	if m.v4 {
		return dsv4.attention(m, l)
	}
	dk, dvl := m.LayerHeadDims(l)
	h, nh, nkv, d, dv := int64(m.Hidden), int64(m.Heads), int64(m.LayerKVHeads(l)), int64(dk), int64(dvl)
	if m.KVLoraRank > 0 {
		rq, rkv := int64(m.QLoraRank), int64(m.KVLoraRank)
		dn, dr, dv := int64(m.QKNopeDim), int64(m.QKRopeDim), int64(m.HeadDimV())
		var p int64
		if rq > 0 {
			p += h*rq + rq + rq*nh*(dn+dr)
		} else {
			p += h * nh * (dn + dr)
		}
		p += h*(rkv+dr) + rkv + rkv*nh*(dn+dv)
		p += nh * dv * h
		return p + m.Indexer.params(m.Hidden, m.QLoraRank)
	}
	q := h * nh * d
	if m.gatedQ {
		q *= 2
	}
	kvMats := int64(2)
	if m.kEqV && l.Kind == FullAttention {
		kvMats = 1
	}
	// v and o use the value head size (MiMo-V2-Flash: 192-wide keys,
	// 128-wide values, vLLM mimo_v2_flash.py QKVParallelLinear with
	// v_head_size); it equals d for the other families.
	p := q + h*nkv*d + nh*dv*h
	if kvMats == 2 {
		p += h * nkv * dv
	}
	if m.attnBias {
		p += nh*d + nkv*d
		if kvMats == 2 {
			p += nkv * dv
		}
	}
	if m.oBias {
		p += h
	}
	if m.qkNorm {
		p += 2 * d
	}
	if m.qkNormFull {
		p += nh*d + nkv*d
	}
	if m.sinks || m.swaSinks && l.Kind == SlidingAttention {
		p += nh
	}
	return p
}

// params returns one layer's sparse-attention indexer weights, as
// vLLM v0.11.0 builds them (vllm/model_executor/models/deepseek_v2.py,
// class Indexer): wq_b = q_lora_rank*heads*head_dim, wk = h*head_dim,
// k_norm = 2*head_dim (a LayerNorm with bias), weights_proj = h*heads.
// Zero without an indexer. hidden is the model's hidden size, qLoraRank
// its q_lora_rank (0: the indexer's queries come from the hidden state).
func (ix *Indexer) params(hidden, qLoraRank int) int64 {
	if ix.Heads == 0 {
		return 0
	}
	h, n, d := int64(hidden), int64(ix.Heads), int64(ix.HeadDim)
	rq := int64(qLoraRank)
	if rq == 0 {
		rq = h
	}
	return rq*n*d + h*d + 2*d + h*n
}

// mixerParams returns the parameters of one Mamba-2, linear-attention or
// short-convolution layer of kind with this state geometry, in a model of
// width hidden.
//
// Mamba-2 (arXiv:2405.21060; transformers' Mamba2Mixer): in_proj =
// h*(2*d_in + 2*g*n + heads), conv = (d_in+2*g*n)*(k+1) with bias, dt_bias,
// A_log and D = 3*heads, norm = d_in, out_proj = d_in*h.
// Lightning attention (MiniMax-Text-01 / M1, vLLM minimax_text_01.py
// MiniMaxText01LinearAttention): qkv_proj h*3*d, output_gate h*d, norm d,
// out_proj d*h, where d = heads*head_dim; no biases.
// Gated delta net (Qwen3-Next): in_proj_qkvz = h*(2*kd+2*vd), in_proj_ba =
// h*2*vh, conv = (2*kd+vd)*k, dt_bias and A_log = 2*vh, norm = vhd,
// out_proj = vd*h, where kd = kh*khd and vd = vh*vhd.
// Kimi Delta Attention (Kimi-Linear, vLLM vllm/model_executor/layers/kda.py
// KimiDeltaAttention), for n heads of d, P = n*d and k taps: q/k/v_proj
// 3*h*P, f_a_proj h*d and f_b_proj d*P (the decay gate), dt_bias P, b_proj
// h*n, q/k/v_conv1d 3*P*k, A_log n, g_a_proj h*d and g_b_proj d*P (the
// output gate), o_norm d, o_proj P*h; no biases.
// Short convolution (LFM2, vLLM short_conv.py ShortConv): in_proj h*3*c,
// a depthwise conv of c*k, out_proj c*h, for c = conv_dim and k =
// conv_L_cache; biases (conv_bias) add 3*c + c + h.
func (s *SSM) mixerParams(kind LayerKind, hidden int) int64 {
	h := int64(hidden)
	switch kind {
	case Mamba:
		din, gn, nh, k := int64(s.DInner), int64(s.NGroups*s.DState), int64(s.Heads), int64(s.ConvKernel)
		return h*(2*din+2*gn+nh) + (din+2*gn)*(k+1) + 3*nh + din + din*h
	case LinearAttention:
		if s.Lightning {
			d := int64(s.ValueHeads * s.ValueHeadDim)
			return h*3*d + h*d + d + d*h
		}
		if s.KDA {
			n, d, k := int64(s.ValueHeads), int64(s.ValueHeadDim), int64(s.ConvKernel)
			pr := n * d
			return 3*h*pr + 2*(h*d+d*pr) + pr + h*n + 3*pr*k + n + d + pr*h
		}
		kd := int64(s.KeyHeads * s.KeyHeadDim)
		vd := int64(s.ValueHeads * s.ValueHeadDim)
		vh, k := int64(s.ValueHeads), int64(s.ConvKernel)
		return h*(2*kd+2*vd) + h*2*vh + (2*kd+vd)*k + 2*vh + int64(s.ValueHeadDim) + vd*h
	case ShortConv:
		c, k := int64(s.ConvDim), int64(s.ConvKernel)
		p := h*3*c + c*k + c*h
		if s.convBias {
			p += 3*c + c + h
		}
		return p
	}
	return 0
}

// counter derives a model's parameter breakdown: m is the model counted,
// p the breakdown as counted so far (the MTP layers reuse its per-expert
// size).
type counter struct {
	m *Model
	p Params
}

// roughParams returns an upper estimate of the parameter count in float64
// (no integer overflow), used to reject absurd configs before counting.
func (pc *counter) roughParams() float64 {
	m := pc.m
	h, n := float64(m.Hidden), float64(m.NumLayers)
	attn := 4 * h * float64(m.Heads) * float64(max(m.HeadDim, m.QKNopeDim+m.QKRopeDim, 1))
	if m.KVLoraRank > 0 {
		attn += h*float64(m.QLoraRank+m.KVLoraRank) + float64(m.QLoraRank+m.KVLoraRank)*float64(m.Heads)*float64(m.HeadDim+m.HeadDimV())
	}
	ffn := 3 * h * float64(max(m.Intermediate, m.DenseIntermediate))
	if m.Experts > 0 {
		ffn += 3 * h * (float64(m.Experts)*float64(m.MoEIntermediate) + float64(m.SharedIntermediate))
	}
	s := m.SSM
	mixer := 3 * h * float64(max(s.DInner, s.ValueHeads*s.ValueHeadDim, s.KeyHeads*s.KeyHeadDim)) * 2
	return n*(attn+ffn+mixer) + 2*float64(m.Vocab)*h
}

// countParams derives the parameter breakdown.
func (pc *counter) countParams() Params {
	m, p := pc.m, &pc.p
	h := int64(m.Hidden)
	p.Embedding = int64(m.Vocab) * h
	if !m.Tied {
		p.LMHead = int64(m.Vocab) * h
	}
	normVec := h
	if m.normBias {
		normVec = 2 * h
	}
	p.Norms = normVec // final norm
	if m.IsMoE() {
		p.ExpertParams = m.mlpParams(m.MoEIntermediate)
		if m.MoELatent > 0 {
			p.ExpertParams = m.mlpParamsAt(m.MoELatent, m.MoEIntermediate)
		}
		if m.expertBias {
			p.ExpertParams += 2*int64(m.MoEIntermediate) + h
		}
	}
	var activeExperts int64
	for _, l := range m.Layers {
		p.Norms += int64(m.normsPer) * normVec
		switch l.Kind {
		case Mamba, LinearAttention, ShortConv:
			p.Mixer += m.SSM.mixerParams(l.Kind, m.Hidden)
		case FeedForward:
			// no token mixer
		default:
			p.Attention += m.AttentionParamsOf(l)
		}
		if strings.HasPrefix(m.Type, "gemma4") {
			p.Norms++ // layer_scalar
		}
		if l.NoFFN {
			continue
		}
		if l.MoE {
			p.RoutedExperts += int64(m.Experts) * p.ExpertParams
			activeExperts += int64(m.TopK) * p.ExpertParams
			p.Router += h * int64(m.Experts)
			if m.expertBias || m.routerBias {
				p.Router += int64(m.Experts)
			}
			if m.gemma4MoE {
				// Gemma4Router.scale (h), Gemma4MoE.per_expert_scale (E) and
				// three more norms (post_feedforward_layernorm_1/_2,
				// pre_feedforward_layernorm_2).
				p.Router += h + int64(m.Experts)
				p.Norms += 3 * normVec
			}
			if m.MoELatent > 0 {
				// fc1_latent_proj (h x latent) and fc2_latent_proj (latent x h).
				p.SharedExperts += 2 * h * int64(m.MoELatent)
			}
			if m.SharedIntermediate > 0 {
				p.SharedExperts += m.mlpParams(m.SharedIntermediate)
				if m.sharedGate {
					p.SharedExperts += h // shared_expert_gate
				}
			}
			continue
		}
		p.DenseMLP += m.DenseMLPParamsOf(l)
	}
	p.Vision = m.visionParams
	p.MTP = pc.mtpParams(pc.mtpAttentionParams())
	if m.pleDim > 0 {
		// Per-layer embeddings (vLLM gemma4.py and gemma3n.py): the table
		// embed_tokens_per_layer of vocab_size_per_layer_input x (layers x
		// e), per_layer_model_projection (h x layers*e) and
		// per_layer_projection_norm (e), and in every layer
		// per_layer_input_gate (h x e), per_layer_projection (e x h) and
		// post_per_layer_input_norm (h), for e =
		// hidden_size_per_layer_input. The table, a lookup, is left out of
		// Active, as Google's "effective" count leaves it out.
		e, l := int64(m.pleDim), int64(m.NumLayers)
		p.PLETable = int64(m.pleVocab) * e * l
		p.PerLayerEmbedding = p.PLETable + h*e*l + e + l*(2*h*e+h)
	}
	if n := int64(m.altupInputs); n > 0 {
		// AltUp (vLLM gemma3n.py @034f08e65e Gemma3nTextModel and
		// Gemma3nAltUp, the modules of transformers modeling_gemma3n.py):
		// altup_projections and altup_unembed_projections, n-1 matrices
		// h x h each, and in every layer correct_output_scale (h),
		// correction_coefs (n x n), prediction_coefs (n x n^2),
		// modality_router (h x n) and router_norm (h), for n =
		// altup_num_inputs.
		l := int64(m.NumLayers)
		p.AltUp = 2*(n-1)*h*h + l*(2*h+n*n+n*n*n+h*n)
	}
	if r := int64(m.laurelRank); r > 0 {
		// LAuReL (Gemma3nLaurelBlock): linear_left h x r, linear_right
		// r x h and post_laurel_norm (h) in every layer, r = laurel_rank.
		p.Laurel = int64(m.NumLayers) * (2*h*r + h)
	}
	if m.v4 {
		dsv4.params(pc) // DeepSeek-V4's hyper-connections, routers and MTP layers
	}
	p.Total = p.Embedding + p.LMHead + p.Attention + p.Mixer + p.DenseMLP + p.RoutedExperts + p.SharedExperts + p.Router + p.Norms + p.Vision + p.PerLayerEmbedding + p.AltUp + p.Laurel
	p.Active = p.Total - p.Vision - p.RoutedExperts + activeExperts - p.PLETable
	return *p
}

// mtpAttentionParams returns the attention weights of one MTP layer: those
// of the model's last attention layer (an MTP layer repeats the model's
// last decoder layer kind).
func (pc *counter) mtpAttentionParams() int64 {
	m := pc.m
	for i := len(m.Layers) - 1; i >= 0; i-- {
		switch m.Layers[i].Kind {
		case Mamba, LinearAttention, FeedForward, ShortConv:
			continue
		}
		return m.AttentionParamsOf(m.Layers[i])
	}
	return 0
}

// mtpParams returns the weights of the multi-token-prediction layers. Each
// is one decoder layer of the model's last kind (full or MLA attention and,
// in an MoE model, an MoE feed-forward) plus a projection of the
// concatenated [embedding; hidden] (2h*h) and three RMSNorms (3h):
// DeepSeek's enorm, hnorm and shared_head.norm (vLLM v0.11.0
// deepseek_mtp.py DeepSeekMultiTokenPredictorLayer), Qwen3-Next's
// pre_fc_norm_embedding, pre_fc_norm_hidden and norm (qwen3_next_mtp.py).
// DeepSeek-style checkpoints (DeepSeek-V3, GLM-4.5) also store an embedding
// and an LM head per MTP layer (2*vocab*h): that is how DeepSeek-V3's MTP
// module comes to 14B (its README: 671B main model + 14B MTP = 685B).
func (pc *counter) mtpParams(attn int64) int64 {
	m, p := pc.m, &pc.p
	n := int64(m.MTPLayers)
	if n == 0 {
		return 0
	}
	h := int64(m.Hidden)
	layer := attn + int64(m.normsPer)*h
	if m.IsMoE() {
		layer += int64(m.Experts)*p.ExpertParams + h*int64(m.Experts)
		if m.SharedIntermediate > 0 {
			layer += m.mlpParams(m.SharedIntermediate)
			if m.sharedGate {
				layer += h
			}
		}
		if m.expertBias {
			layer += int64(m.Experts)
		}
	} else {
		layer += m.mlpParams(m.Intermediate)
	}
	per := layer + 2*h*h + 3*h
	if m.mtpOwnHead {
		per += 2 * int64(m.Vocab) * h
	}
	return n * per
}

// AltUpProjectionParams returns the weights of Gemma 3n's
// altup_projections and altup_unembed_projections together: 2 (n-1) h^2
// for n = altup_num_inputs (the rest of Params.AltUp is spread over the
// layers), 0 without AltUp.
func (m *Model) AltUpProjectionParams() int64 {
	if m.altupInputs <= 0 {
		return 0
	}
	h := int64(m.Hidden)
	return 2 * int64(m.altupInputs-1) * h * h
}

// LayerExtraParams returns one layer's weights kept beside its attention
// and feed-forward blocks, split as vLLM places them (gemma3n.py @034f08e65e):
// replicated, Gemma 3n's per-layer AltUp (ReplicatedLinear coefficients and
// router, Params.AltUp less AltUpProjectionParams, spread over the layers)
// and LAuReL's post_laurel_norm (h); split across tensor ranks, LAuReL's
// linear_left (ColumnParallelLinear, h x r) and linear_right
// (RowParallelLinear, r x h). None of them takes the quantization config.
func (m *Model) LayerExtraParams() (replicated, split int64) {
	if m.NumLayers <= 0 {
		return 0, 0
	}
	replicated = (m.Params.AltUp - m.AltUpProjectionParams()) / int64(m.NumLayers)
	if r := int64(m.laurelRank); r > 0 {
		h := int64(m.Hidden)
		replicated += h
		split = 2 * h * r
	}
	return replicated, split
}
