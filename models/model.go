// Package models derives everything the engine needs about a transformer from
// its architecture: parameter counts (total and active per token), the
// attention layout of every layer (full, sliding window, MLA, linear or SSM
// state) and the weight quantization. It imports Hugging Face config.json
// objects as published (text_config nesting, layer_types, MoE, MLA, Mamba and
// linear-attention fields, quantization_config) and looks up a catalog of
// popular open models, each citing where its config came from.
//
// The catalog is not linked in by this package: a Go program imports
// package models/catalog for the embedded catalog, as it imports
// time/tzdata for the time-zone database, and one that does not (the
// browser engines) installs it with SetCatalog.
//
// Nothing here uses a typed-in parameter count: counts are derived from the
// shapes of the weight matrices, the way the checkpoints store them.
package models

// LayerKind is how one decoder layer keeps its per-sequence state.
type LayerKind uint8

const (
	// FullAttention keeps K and V for every token of the sequence.
	FullAttention LayerKind = iota
	// SlidingAttention keeps K and V for the last Window tokens only
	// (sliding-window or chunked-local attention).
	SlidingAttention
	// MLAttention is DeepSeek's multi-head latent attention: one compressed
	// latent of KVLoraRank+QKRopeDim values per token, shared by all heads.
	MLAttention
	// LinearAttention is a recurrent layer (gated delta net, linear
	// attention) whose state has a constant size per sequence.
	LinearAttention
	// Mamba is a selective state-space layer (Mamba-2) with a constant-size
	// convolution and SSM state per sequence.
	Mamba
	// FeedForward is a layer with a feed-forward block (dense MLP or MoE)
	// and no token mixer, so no per-sequence state: Nemotron-H's "-" and
	// "E" layers (vLLM 0.19 nemotron_h.py NemotronHMLPDecoderLayer and
	// NemotronHMoEDecoderLayer).
	FeedForward
	// ShortConv is LFM2's gated short-convolution block: in_proj to B, C
	// and x, a depthwise causal convolution of conv_L_cache taps over B*x,
	// C times the result, out_proj. Its per-sequence state is the last
	// conv_L_cache-1 inputs of the convolution (vLLM vllm/model_executor/
	// layers/mamba/short_conv.py ShortConv, mamba_utils.py
	// short_conv_state_shape: conv_dim x (conv_kernel - 1)).
	ShortConv

	// NumLayerKinds is the number of layer kinds (for arrays indexed by kind).
	NumLayerKinds = int(ShortConv) + 1
)

// String returns the layer kind as the JSON schema spells it.
func (k LayerKind) String() string {
	switch k {
	case FullAttention:
		return "full_attention"
	case SlidingAttention:
		return "sliding_attention"
	case MLAttention:
		return "mla"
	case LinearAttention:
		return "linear_attention"
	case Mamba:
		return "mamba"
	case FeedForward:
		return "mlp"
	case ShortConv:
		return "short_conv"
	}
	return "unknown"
}

// Layer describes one decoder layer.
type Layer struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	Kind LayerKind
	// Window is the attention span in tokens of a SlidingAttention layer.
	Window int
	// MoE is true when the layer's feed-forward block is a mixture of experts.
	MoE bool
	// NoFFN is true for a layer that has a token mixer but no feed-forward
	// block (Nemotron-H's Mamba "M" and attention "*" layers).
	NoFFN bool
	// KVHeads and HeadDim, when positive, override the model's KV head count
	// and head size for this attention layer: Gemma 4's full-attention layers
	// use num_global_key_value_heads heads of global_head_dim (vLLM 0.19
	// gemma4.py Gemma4DecoderLayer).
	KVHeads, HeadDim int
	// SharedKV is true for an attention layer that reads the KV cache of an
	// earlier layer of the same type and keeps none of its own (Gemma 3n and
	// Gemma 4 num_kv_shared_layers: vLLM's kv_sharing_target_layer_name).
	SharedKV bool
	// Compress is a DeepSeek-V4 layer's compress ratio: 4 (compressed
	// sparse attention with an indexer), 128 (heavily compressed
	// attention) or 0 (sliding window only).
	Compress int
	// Intermediate, when positive, is this layer's dense MLP width
	// (Llama-Nemotron's per-block ffn_mult); 0 means the model's.
	Intermediate int
	// Keep is the layer's weight groups that a quantized checkpoint leaves
	// in the model dtype (Quantization.Excluded; models/exclude.go).
	Keep Keep
}

// SSM holds the state geometry of Mamba-2 and gated-delta-net layers.
type SSM struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	// Mamba-2: d_inner = expand*hidden, heads of HeadDim, state size DState,
	// NGroups B/C groups, convolution kernel ConvKernel.
	DInner, DState, NGroups, Heads, HeadDim, ConvKernel int
	// Gated delta net (Qwen3-Next, Qwen3.5): key/value heads and head sizes.
	KeyHeads, KeyHeadDim, ValueHeads, ValueHeadDim int
	// SSMDtype is the dtype vLLM keeps the Mamba SSM (temporal) state in
	// when the config names one (mamba_ssm_cache_dtype, read by vLLM's
	// NemotronHForCausalLMConfig.verify_and_update_config); "" means the
	// model dtype. The convolution state always uses the model dtype.
	SSMDtype string
	// Lightning marks MiniMax-Text-01 / M1 lightning attention: KeyHeads
	// = ValueHeads heads of KeyHeadDim = ValueHeadDim, ConvKernel 1, and
	// the projections of vLLM's MiniMaxText01LinearAttention.
	Lightning bool
	// KDA marks Kimi Delta Attention (Kimi-Linear, vLLM
	// vllm/model_executor/layers/kda.py KimiDeltaAttention):
	// KeyHeads = ValueHeads = linear_attn_config.num_heads of KeyHeadDim =
	// ValueHeadDim = head_dim, ConvKernel short_conv_kernel_size, separate
	// q/k/v short convolutions and a float32 recurrent state.
	KDA bool
	// ConvDim is LFM2's conv_dim (ShortConv channels).
	ConvDim int
	// RecurrentDtype is the dtype of the gated-delta-net recurrent state
	// when the config fixes it (Qwen3.5's mamba_ssm_dtype "float32"); ""
	// means the model dtype.
	RecurrentDtype string
	// convBias is LFM2's conv_bias: biases on the short-convolution
	// projections.
	convBias bool
}

// Indexer is DeepSeek sparse attention's lightning indexer (DeepSeek-V3.2,
// GLM-5): per layer it scores past tokens with Heads heads of HeadDim over
// its own per-token key cache, and attention reads only the TopK best.
type Indexer struct {
	Heads, HeadDim, TopK int
}

// Model is a decoder-only transformer's architecture.
type Model struct {
	// ID is the catalog id (Hugging Face id), the checkpoint id as given
	// for one Lookup resolved (Checkpoint), or "custom" for an imported
	// config.
	ID   string `json:"id"`
	Name string `json:"name"`
	// Type is config.json's model_type (of the text model for multimodal ones).
	Type string `json:"model_type"`

	Hidden       int `json:"hidden_size"`
	NumLayers    int `json:"num_hidden_layers"`
	Heads        int `json:"num_attention_heads"`
	KVHeads      int `json:"num_key_value_heads"`
	HeadDim      int `json:"head_dim"`
	VHeadDim     int `json:"v_head_dim"`
	Vocab        int `json:"vocab_size"`
	Intermediate int `json:"intermediate_size"`
	// GatedMLP is true for SwiGLU/GeGLU feed-forwards (three matrices).
	GatedMLP bool `json:"gated_mlp"`
	// Tied is true when the LM head shares the embedding matrix.
	Tied bool `json:"tie_word_embeddings"`
	// MaxContext is max_position_embeddings, the longest supported sequence.
	MaxContext int `json:"max_position_embeddings"`
	// Dtype is the checkpoint's torch_dtype ("bfloat16", "float16", "float32").
	Dtype string `json:"dtype"`

	// Mixture of experts.
	Experts         int `json:"num_experts,omitempty"`
	TopK            int `json:"num_experts_per_tok,omitempty"`
	MoEIntermediate int `json:"moe_intermediate_size,omitempty"`
	// SharedIntermediate is the total intermediate size of the always-on
	// shared expert(s) in each MoE layer (0 when none).
	SharedIntermediate int `json:"shared_expert_intermediate_size,omitempty"`
	// DenseIntermediate is the intermediate size of the dense (non-MoE)
	// layers of an MoE model.
	DenseIntermediate int `json:"dense_intermediate_size,omitempty"`
	// MoELatent is the width routed experts work in when it differs from
	// hidden_size (Nemotron 3 Super/Ultra moe_latent_size: fc1_latent_proj
	// maps hidden to it before the experts, fc2_latent_proj back).
	MoELatent int `json:"moe_latent_size,omitempty"`

	// Multi-head latent attention.
	QLoraRank  int `json:"q_lora_rank,omitempty"`
	KVLoraRank int `json:"kv_lora_rank,omitempty"`
	QKNopeDim  int `json:"qk_nope_head_dim,omitempty"`
	QKRopeDim  int `json:"qk_rope_head_dim,omitempty"`

	// Indexer is the sparse-attention indexer of every MLA layer (zero when
	// the model has none).
	Indexer Indexer `json:"-"`
	// MTPLayers is the number of multi-token-prediction layers the
	// checkpoint ships beside the model (num_nextn_predict_layers,
	// mtp_num_hidden_layers); they run only for speculative decoding.
	MTPLayers int `json:"mtp_layers,omitempty"`

	SSM SSM `json:"-"`

	// V4 is DeepSeek-V4's attention geometry (zero for other models).
	V4 V4 `json:"-"`

	// Layers describes every decoder layer in order.
	Layers []Layer `json:"-"`

	// Quant is the weight quantization of the checkpoint.
	Quant Quantization `json:"quantization"`
	// Defaults are the values taken from transformers' defaults because
	// the config omits them (withDefaults, FromConfig), in the order
	// read; the report names each in a warning. Nil for catalog models.
	Defaults []Default `json:"-"`

	// Params is the derived parameter breakdown.
	Params Params `json:"params"`

	// Checkpoint, for a checkpoint id Lookup resolved to a catalog entry
	// (checkpoint.go), says what it resolved to and the quantization its
	// name gave: the report's checkpoint_resolved warning. "" otherwise.
	Checkpoint string `json:"-"`

	// flags for the few per-family shape details that change counts.
	attnBias     bool // q/k/v (and o for gpt-oss) biases
	oBias        bool
	qkNorm       bool // per-head q/k RMSNorm (Qwen3, Gemma 3)
	qkNormFull   bool // q/k RMSNorm over all heads (MiniMax-M2 per_layer)
	sharedGate   bool // a sigmoid gate (one h-vector) on the shared expert
	mtpOwnHead   bool // each MTP layer stores its own embedding and LM head
	mlpBias      bool
	normsPer     int // norm vectors per layer (2 for Llama, 4 for Gemma 2/3)
	normBias     bool
	sinks        bool  // gpt-oss attention sinks
	swaSinks     bool  // MiMo-V2-Flash sink biases on sliding layers only
	expertBias   bool  // gpt-oss expert biases
	pleDim       int   // Gemma 4 hidden_size_per_layer_input (0: no per-layer embeddings)
	pleVocab     int   // Gemma 4 vocab_size_per_layer_input
	heteroFFN    bool  // per-layer MLP widths differ (Gemma 4 use_double_wide_mlp, Gemma 3n lists)
	v4           bool  // DeepSeek-V4, read by readV4 (RegisterDeepSeekV4 linked it in): its per-layer compressors
	interList    []int // Gemma 3n's per-layer intermediate_size
	gatedQ       bool  // Qwen3-Next output gate folded into q_proj
	kEqV         bool  // Gemma 4: full-attention layers have no v_proj (V = K)
	routerBias   bool  // router e_score_correction_bias (Nemotron-H)
	gemma4MoE    bool  // Gemma 4 MoE block beside the dense MLP
	visionParams int64 // vision (and, for Gemma 3n, audio) towers
	altupInputs  int   // Gemma 3n altup_num_inputs (0: no AltUp)
	laurelRank   int   // Gemma 3n laurel_rank (0: no LAuReL block)

	kindCount   [NumLayerKinds]int // layers of each kind
	moeLayers   int
	denseLayers int // layers with a dense feed-forward block
}

// HeadDimV returns the value head size (equal to HeadDim unless the config
// says otherwise, as MLA models do).
func (m *Model) HeadDimV() int {
	if m.VHeadDim > 0 {
		return m.VHeadDim
	}
	return m.HeadDim
}

// IsMoE reports whether any layer is a mixture of experts.
func (m *Model) IsMoE() bool { return m.Experts > 0 && m.TopK > 0 }

// MoELayers returns the number of layers whose feed-forward is MoE.
func (m *Model) MoELayers() int { return m.moeLayers }

// Heterogeneous reports whether layers of one kind differ in shape (per-
// layer MLP widths or KV heads within a kind, DeepSeek-V4's per-layer
// compressors), so that per-kind caches of layer weights do not apply.
func (m *Model) Heterogeneous() bool {
	return m.Type == "nemotron-nas" || m.heteroFFN || m.v4
}

// DenseMLPParamsOf returns layer l's dense feed-forward weights (0 for a
// layer without one or with an MoE block).
func (m *Model) DenseMLPParamsOf(l Layer) int64 {
	if l.NoFFN || l.MoE {
		return 0
	}
	inter := m.Intermediate
	if m.IsMoE() && m.DenseIntermediate > 0 {
		inter = m.DenseIntermediate
	}
	if l.Intermediate > 0 {
		inter = l.Intermediate
	}
	if inter <= 0 {
		return 0
	}
	return m.mlpParams(inter)
}

// DenseLayers returns the number of layers with a dense (non-MoE)
// feed-forward block.
func (m *Model) DenseLayers() int { return m.denseLayers }

// AttentionLayers returns the number of layers with an attention mixer
// (full, sliding or MLA), at least 1 so it can divide.
func (m *Model) AttentionLayers() int {
	return max(1, m.NumLayers-m.kindCount[Mamba]-m.kindCount[LinearAttention]-m.kindCount[FeedForward]-m.kindCount[ShortConv])
}

// LayerKVHeads returns the KV heads of attention layer l (its override or
// the model's).
func (m *Model) LayerKVHeads(l Layer) int {
	if l.KVHeads > 0 {
		return l.KVHeads
	}
	return m.KVHeads
}

// LayerHeadDims returns the key and value head sizes of attention layer l.
func (m *Model) LayerHeadDims(l Layer) (k, v int) {
	if l.HeadDim > 0 {
		return l.HeadDim, l.HeadDim
	}
	return m.HeadDim, m.HeadDimV()
}

// CountKind returns the number of layers of kind k.
func (m *Model) CountKind(k LayerKind) int {
	if int(k) >= len(m.kindCount) {
		return 0
	}
	return m.kindCount[k]
}

// tally caches the per-kind and MoE layer counts.
func (m *Model) tally() {
	m.kindCount = [NumLayerKinds]int{}
	m.moeLayers, m.denseLayers = 0, 0
	for _, l := range m.Layers {
		m.kindCount[l.Kind]++
		switch {
		case l.MoE:
			m.moeLayers++
		case !l.NoFFN:
			m.denseLayers++
		}
	}
}
