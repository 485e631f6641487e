// Package models derives everything the engine needs about a transformer from
// its architecture: parameter counts (total and active per token), the
// attention layout of every layer (full, sliding window, MLA, linear or SSM
// state) and the weight quantization. It imports Hugging Face config.json
// objects as published (text_config nesting, layer_types, MoE, MLA, Mamba and
// linear-attention fields, quantization_config) and holds a catalog of popular
// open models, each citing where its config came from.
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
	}
	return "unknown"
}

// Layer describes one decoder layer.
type Layer struct {
	Kind LayerKind
	// Window is the attention span in tokens of a SlidingAttention layer.
	Window int
	// MoE is true when the layer's feed-forward block is a mixture of experts.
	MoE bool
}

// SSM holds the state geometry of Mamba-2 and gated-delta-net layers.
type SSM struct {
	// Mamba-2: d_inner = expand*hidden, heads of HeadDim, state size DState,
	// NGroups B/C groups, convolution kernel ConvKernel.
	DInner, DState, NGroups, Heads, HeadDim, ConvKernel int
	// Gated delta net (Qwen3-Next): key/value heads and head sizes.
	KeyHeads, KeyHeadDim, ValueHeads, ValueHeadDim int
}

// Model is a decoder-only transformer's architecture.
type Model struct {
	// ID is the catalog id (Hugging Face id) or "custom" for an imported config.
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

	// Multi-head latent attention.
	QLoraRank  int `json:"q_lora_rank,omitempty"`
	KVLoraRank int `json:"kv_lora_rank,omitempty"`
	QKNopeDim  int `json:"qk_nope_head_dim,omitempty"`
	QKRopeDim  int `json:"qk_rope_head_dim,omitempty"`

	SSM SSM `json:"-"`

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

	// flags for the few per-family shape details that change counts.
	attnBias     bool // q/k/v (and o for gpt-oss) biases
	oBias        bool
	qkNorm       bool // per-head q/k RMSNorm (Qwen3, Gemma 3)
	mlpBias      bool
	normsPer     int // norm vectors per layer (2 for Llama, 4 for Gemma 2/3)
	normBias     bool
	sinks        bool // gpt-oss attention sinks
	expertBias   bool // gpt-oss expert biases
	gatedQ       bool // Qwen3-Next output gate folded into q_proj
	visionParams int64

	kindCount [Mamba + 1]int // layers of each kind
	moeLayers int
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

// CountKind returns the number of layers of kind k.
func (m *Model) CountKind(k LayerKind) int {
	if int(k) >= len(m.kindCount) {
		return 0
	}
	return m.kindCount[k]
}

// tally caches the per-kind and MoE layer counts.
func (m *Model) tally() {
	m.kindCount = [Mamba + 1]int{}
	m.moeLayers = 0
	for _, l := range m.Layers {
		m.kindCount[l.Kind]++
		if l.MoE {
			m.moeLayers++
		}
	}
}
