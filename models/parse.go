package models

import (
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/internal/fielderr"
)

// ErrConfig is the sentinel every config import error wraps (the project's
// one field-error sentinel, fielderr.ErrInvalid).
var ErrConfig = fielderr.ErrInvalid

// configErr reports one unusable field of a config.json object as
// fielderr.Errors; path is the JSON path inside config.json ("hidden_size",
// "text_config.num_attention_heads"), empty for the config as a whole.
func configErr(path, msg string) error { return fielderr.New(path, msg) }

// Limits that keep every derived figure finite and meaningful. They are far
// beyond any published model (DeepSeek-V3: hidden 7168, 61 layers, 256
// experts; Llama 4: 10M-token context).
const (
	maxDim     = 1 << 20
	maxLayers  = 4096
	maxExperts = 1 << 14
	maxVocab   = 1 << 24
	maxContext = 1 << 30
	// maxParams bounds the derived parameter count so that every count
	// fits an int64 and every byte figure stays finite (1,000x DeepSeek-V3).
	maxParams = 1e15
)

// FromConfig imports a Hugging Face config.json object (as decoded by
// encoding/json). Multimodal configs are read through their text_config;
// the vision tower's parameters are estimated from vision_config when
// present. The result is validated: every error names its field.
func FromConfig(raw map[string]any) (*Model, error) {
	top := cfg(raw)
	c, prefix := top, ""
	if tc := top.obj("text_config"); tc != nil {
		c, prefix = tc, "text_config."
	}
	var bad fielderr.List
	checkInts(&bad, c, prefix, textIntFields)
	if prefix != "" {
		checkInts(&bad, top, "", topIntFields)
	}
	if vc := top.obj("vision_config"); vc != nil {
		checkInts(&bad, vc, "vision_config.", visionIntFields)
	}
	if qc := top.obj("quantization_config"); qc != nil {
		checkInts(&bad, qc, "quantization_config.", quantIntFields)
	} else if qc := c.obj("quantization_config"); qc != nil {
		checkInts(&bad, qc, prefix+"quantization_config.", quantIntFields)
	}
	if err := bad.Err(); err != nil {
		return nil, sortedErrs(err)
	}
	m := &Model{ID: "custom"}
	m.Type = c.str("model_type")
	if m.Type == "" {
		m.Type = top.str("model_type")
		if m.Type == "gemma3" && prefix != "" {
			m.Type = "gemma3_text"
		}
	}
	c, m.Defaults = withDefaults(c, m.Type, prefix)

	m.Hidden = c.int(0, "hidden_size", "n_embd", "d_model", "dim")
	m.NumLayers = c.int(0, "num_hidden_layers", "n_layer", "num_layers", "n_layers")
	m.Heads = c.int(0, "num_attention_heads", "n_head", "n_heads", "num_heads")
	m.KVHeads = c.int(0, "num_key_value_heads", "n_head_kv", "num_kv_heads", "multi_query_group_num", "n_kv_heads")
	if m.KVHeads == 0 {
		if c.boolean("multi_query", false) {
			m.KVHeads = 1
		} else {
			m.KVHeads = m.Heads
			m.Defaults = append(m.Defaults, Default{Field: prefix + "num_key_value_heads", Value: strconv.Itoa(m.Heads),
				Source: "num_attention_heads, as " + className(m.Type) + " takes it (multi-head attention)"})
		}
	}
	m.Vocab = c.int(0, "vocab_size", "padded_vocab_size", "n_vocab")
	if m.Vocab == 0 {
		m.Vocab = top.int(0, "vocab_size")
	}
	for _, chk := range []struct {
		name string
		v    int
		max  int
	}{
		{"hidden_size", m.Hidden, maxDim},
		{"num_hidden_layers", m.NumLayers, maxLayers},
		{"num_attention_heads", m.Heads, maxDim},
		{"vocab_size", m.Vocab, maxVocab},
	} {
		if chk.v <= 0 {
			return nil, configErr(prefix+chk.name, "is missing or not a positive integer")
		}
		if chk.v > chk.max {
			return nil, configErr(prefix+chk.name, "is "+strconv.Itoa(chk.v)+", above the supported maximum "+strconv.Itoa(chk.max))
		}
	}
	if m.KVHeads <= 0 || m.KVHeads > m.Heads || m.Heads%m.KVHeads != 0 {
		return nil, configErr(prefix+"num_key_value_heads", "must be a positive divisor of num_attention_heads ("+strconv.Itoa(m.Heads)+"), got "+strconv.Itoa(m.KVHeads))
	}
	m.HeadDim = c.int(0, "head_dim", "attention_head_dim", "kv_channels")
	if m.HeadDim == 0 {
		if m.Hidden%m.Heads != 0 {
			return nil, configErr(prefix+"head_dim", "is missing and hidden_size is not a multiple of num_attention_heads")
		}
		m.HeadDim = m.Hidden / m.Heads
		if !c.has("kv_lora_rank") { // MLA's heads are sized by qk_*_head_dim
			m.Defaults = append(m.Defaults, Default{Field: prefix + "head_dim", Value: strconv.Itoa(m.HeadDim),
				Source: "hidden_size / num_attention_heads, as " + className(m.Type) + " takes it"})
		}
	}
	if m.HeadDim <= 0 || m.HeadDim > 4096 {
		return nil, configErr(prefix+"head_dim", "must be between 1 and 4096")
	}
	m.MaxContext = c.int(0, "max_position_embeddings", "n_positions", "max_sequence_length", "seq_length", "max_seq_len")
	if m.MaxContext == 0 {
		m.MaxContext = top.int(0, "max_position_embeddings")
	}
	if m.MaxContext <= 0 || m.MaxContext > maxContext {
		return nil, configErr(prefix+"max_position_embeddings", "is missing or not a positive integer up to "+strconv.Itoa(maxContext))
	}
	m.Dtype = normDtype(c.str("torch_dtype"))
	if m.Dtype == "" {
		m.Dtype = normDtype(c.str("dtype"))
	}
	if m.Dtype == "" {
		m.Dtype = normDtype(top.str("torch_dtype"))
	}
	if m.Dtype == "" {
		m.Dtype = normDtype(top.str("dtype"))
	}
	if m.Dtype == "" {
		m.Dtype = "bfloat16"
	}

	m.readFamilyDetails(c)
	if err := m.readFeedForward(c, prefix); err != nil {
		return nil, err
	}
	m.readMLA(c)
	if err := m.readLayers(c, prefix); err != nil {
		return nil, err
	}

	qc := top.obj("quantization_config")
	if qc == nil {
		qc = c.obj("quantization_config")
	}
	q, ok := parseQuantization(qc)
	if !ok {
		return nil, configErr("quantization_config.quant_method", "unsupported method "+fielderr.Quote(qc.str("quant_method"))+"; supported: fp8, compressed-tensors, awq, gptq, bitsandbytes, mxfp4, modelopt")
	}
	m.Quant = q
	if vc := top.obj("vision_config"); vc != nil {
		m.visionParams = visionParams(vc)
	}
	m.tally()
	if r := m.roughParams(); r > maxParams {
		return nil, configErr("", "implies about "+strconv.FormatFloat(r, 'g', 3, 64)+" parameters, above the supported "+strconv.FormatFloat(maxParams, 'g', 3, 64))
	}
	m.Params = m.countParams()
	return m, nil
}

func normDtype(s string) string {
	switch strings.TrimPrefix(s, "torch.") {
	case "bfloat16", "bf16":
		return "bfloat16"
	case "float16", "fp16", "half":
		return "float16"
	case "float32", "fp32", "float":
		return "float32"
	}
	return ""
}

// readFamilyDetails sets the per-family shape details that matter for exact
// parameter counts: biases, q/k norms, norms per layer, tied embeddings.
func (m *Model) readFamilyDetails(c cfg) {
	t := m.Type
	m.normsPer = 2
	m.GatedMLP = true
	switch {
	case strings.HasPrefix(t, "gemma2"), strings.HasPrefix(t, "gemma3"):
		m.normsPer = 4
	case t == "phi", t == "phi-msft", t == "gpt2", t == "gpt_neox", t == "gpt_bigcode", t == "starcoder2", t == "falcon", t == "opt", t == "bloom":
		m.GatedMLP = false
		m.normBias = true
		m.mlpBias = true
		m.attnBias = true
		m.oBias = true
	}
	switch t {
	case "qwen2", "qwen2_moe", "qwen2_vl", "qwen2_5_vl":
		m.attnBias = true
	case "qwen3", "qwen3_moe", "qwen3_next", "gemma3", "gemma3_text":
		m.qkNorm = true
	case "gpt_oss":
		m.attnBias, m.oBias, m.sinks, m.expertBias = true, true, true, true
	case "llama4_text", "llama4":
		m.qkNorm = false // Llama 4's qk norm has no weights (L2 norm)
	}
	if c.has("attention_bias") {
		m.attnBias = c.boolean("attention_bias", m.attnBias)
		if t != "gpt_oss" {
			m.oBias = m.oBias && m.attnBias
		}
		if t == "gpt_oss" {
			m.oBias = m.attnBias
		}
	}
	if c.has("mlp_bias") {
		m.mlpBias = c.boolean("mlp_bias", m.mlpBias)
	}
	if t == "qwen3_next" {
		m.gatedQ = true
	}
	// transformers' PretrainedConfig defaults tie_word_embeddings to true;
	// most families override it to false in their config class.
	defTie := strings.HasPrefix(t, "gemma")
	m.Tied = c.boolean("tie_word_embeddings", defTie)
}

// readFeedForward reads the dense MLP and MoE fields.
func (m *Model) readFeedForward(c cfg, prefix string) error {
	m.Intermediate = c.int(0, "intermediate_size", "n_inner", "ffn_hidden_size", "ffn_dim")
	if m.Intermediate == 0 && !m.GatedMLP {
		m.Intermediate = 4 * m.Hidden
	}
	m.Experts = c.int(0, "num_local_experts", "n_routed_experts", "num_experts", "moe_num_experts")
	m.TopK = c.int(0, "num_experts_per_tok", "experts_per_token", "moe_topk", "num_experts_per_token")
	if m.Experts > 0 {
		if m.Experts > maxExperts {
			return configErr(prefix+"num_experts", "is above the supported maximum "+strconv.Itoa(maxExperts))
		}
		if m.TopK <= 0 || m.TopK > m.Experts {
			return configErr(prefix+"num_experts_per_tok", "must be between 1 and the number of experts ("+strconv.Itoa(m.Experts)+")")
		}
		m.MoEIntermediate = c.int(0, "moe_intermediate_size", "expert_intermediate_size")
		if m.MoEIntermediate == 0 {
			m.MoEIntermediate = m.Intermediate
		}
		m.DenseIntermediate = c.int(m.Intermediate, "intermediate_size_mlp", "dense_intermediate_size")
		switch {
		case c.has("n_shared_experts"):
			m.SharedIntermediate = c.int(0, "n_shared_experts") * m.MoEIntermediate
		case c.has("shared_expert_intermediate_size"):
			m.SharedIntermediate = c.int(0, "shared_expert_intermediate_size")
		case c.has("shared_intermediate_size"): // Granite 4.0 hybrid
			m.SharedIntermediate = c.int(0, "shared_intermediate_size")
		case strings.HasPrefix(m.Type, "llama4"):
			m.SharedIntermediate = m.Intermediate // one shared expert
		}
		if m.MoEIntermediate <= 0 || m.MoEIntermediate > maxDim {
			return configErr(prefix+"moe_intermediate_size", "is missing or not a positive integer")
		}
	} else {
		m.TopK = 0
	}
	if m.Intermediate <= 0 && m.Experts == 0 {
		return configErr(prefix+"intermediate_size", "is missing or not a positive integer")
	}
	if m.Intermediate > maxDim {
		return configErr(prefix+"intermediate_size", "is above the supported maximum "+strconv.Itoa(maxDim))
	}
	return nil
}

// readMLA reads DeepSeek's multi-head latent attention fields.
func (m *Model) readMLA(c cfg) {
	m.KVLoraRank = c.int(0, "kv_lora_rank")
	if m.KVLoraRank == 0 {
		return
	}
	m.QLoraRank = c.int(0, "q_lora_rank")
	m.QKNopeDim = c.int(128, "qk_nope_head_dim")
	m.QKRopeDim = c.int(64, "qk_rope_head_dim")
	m.VHeadDim = c.int(m.QKNopeDim, "v_head_dim")
	m.HeadDim = m.QKNopeDim + m.QKRopeDim
	m.KVHeads = m.Heads
}

// readLayers builds the per-layer description: attention kind, sliding
// window, MoE placement.
func (m *Model) readLayers(c cfg, prefix string) error {
	n := m.NumLayers
	m.Layers = make([]Layer, n)
	window := c.int(0, "sliding_window", "sliding_window_size", "attention_window_size")
	types := c.strs("layer_types")
	if len(types) != 0 && len(types) != n {
		return configErr(prefix+"layer_types", "has "+strconv.Itoa(len(types))+" entries for "+strconv.Itoa(n)+" layers")
	}
	if err := m.readSSM(c, prefix); err != nil {
		return err
	}
	for i := range m.Layers {
		l := &m.Layers[i]
		switch {
		case m.KVLoraRank > 0:
			l.Kind = MLAttention
		case len(types) == n:
			switch t := types[i]; {
			case strings.Contains(t, "sliding"), strings.Contains(t, "chunk"), strings.Contains(t, "local"):
				l.Kind = SlidingAttention
			case strings.Contains(t, "linear"):
				l.Kind = LinearAttention
			case strings.Contains(t, "mamba"):
				l.Kind = Mamba
			default:
				l.Kind = FullAttention
			}
		case strings.HasPrefix(m.Type, "gemma2"):
			// Gemma 2: even layers slide (transformers Gemma2DecoderLayer).
			if i%2 == 0 {
				l.Kind = SlidingAttention
			}
		case strings.HasPrefix(m.Type, "gemma3"):
			p := c.int(6, "sliding_window_pattern")
			if p > 0 && (i+1)%p != 0 {
				l.Kind = SlidingAttention
			}
		case strings.HasPrefix(m.Type, "llama4"):
			// Llama 4: every 4th layer is global NoPE attention, the rest
			// chunked local attention over attention_chunk_size tokens.
			if ch := c.int(0, "attention_chunk_size"); ch > 0 {
				if (i+1)%4 != 0 {
					l.Kind, l.Window = SlidingAttention, ch
				}
			}
		case m.Type == "qwen3_next":
			if iv := c.int(4, "full_attention_interval"); iv > 0 && (i+1)%iv != 0 {
				l.Kind = LinearAttention
			}
		case window > 0 && slidesEverywhere(m.Type, c):
			l.Kind = SlidingAttention
		}
		if l.Kind == SlidingAttention && l.Window == 0 {
			if window <= 0 {
				return configErr(prefix+"sliding_window", "is required when layers use sliding-window attention")
			}
			l.Window = window
		}
	}
	if mixed := c.ints("no_rope_layers"); strings.HasPrefix(m.Type, "llama4") && len(mixed) == n {
		ch := c.int(0, "attention_chunk_size")
		for i, v := range mixed {
			// no_rope_layers[i] == 0 marks a NoPE (global) layer.
			if ch > 0 && v != 0 {
				m.Layers[i] = Layer{Kind: SlidingAttention, Window: ch}
			} else {
				m.Layers[i] = Layer{Kind: FullAttention}
			}
		}
	}
	m.placeExperts(c)
	return nil
}

// slidesEverywhere reports whether a config with a sliding_window applies it
// to every layer: Mistral v0.1, Phi-3 and Starcoder2 do; Qwen2/Qwen3 only
// when use_sliding_window is true.
func slidesEverywhere(t string, c cfg) bool {
	if c.has("use_sliding_window") {
		return c.boolean("use_sliding_window", false)
	}
	switch t {
	case "mistral", "mixtral", "phi3", "starcoder2", "phimoe":
		return true
	}
	return false
}

// placeExperts marks the MoE layers.
func (m *Model) placeExperts(c cfg) {
	if m.Experts == 0 {
		return
	}
	firstDense := c.int(0, "first_k_dense_replace")
	freq := c.int(1, "moe_layer_freq", "decoder_sparse_step", "interleave_moe_layer_step")
	if freq <= 0 {
		freq = 1
	}
	dense := map[int]bool{}
	for _, i := range c.ints("mlp_only_layers") {
		dense[i] = true
	}
	for i := range m.Layers {
		moe := i >= firstDense && !dense[i]
		switch {
		case c.has("first_k_dense_replace"):
			moe = moe && (i-firstDense)%freq == 0
		default:
			moe = moe && (i+1)%freq == 0
		}
		m.Layers[i].MoE = moe
	}
}

// readSSM reads Mamba-2 and gated-delta-net state geometry; every size
// must be a positive integer up to maxDim.
func (m *Model) readSSM(c cfg, prefix string) error {
	s := &m.SSM
	if c.has("mamba_d_state") || c.has("ssm_state_size") || c.has("mamba_n_heads") {
		expand := c.int(2, "mamba_expand", "expand")
		s.DState = c.int(128, "mamba_d_state", "ssm_state_size", "state_size")
		s.NGroups = c.int(1, "mamba_n_groups", "n_groups")
		s.ConvKernel = c.int(4, "mamba_d_conv", "conv_kernel")
		s.HeadDim = c.int(64, "mamba_d_head", "mamba_head_dim")
		s.DInner = expand * m.Hidden
		s.Heads = c.int(s.DInner/max(1, s.HeadDim), "mamba_n_heads")
	}
	if c.has("linear_num_value_heads") {
		s.KeyHeads = c.int(16, "linear_num_key_heads")
		s.KeyHeadDim = c.int(128, "linear_key_head_dim")
		s.ValueHeads = c.int(32, "linear_num_value_heads")
		s.ValueHeadDim = c.int(128, "linear_value_head_dim")
		s.ConvKernel = c.int(4, "linear_conv_kernel_dim")
	}
	for _, f := range []struct {
		name string
		v    int
	}{
		{"mamba_d_state", s.DState}, {"mamba_n_groups", s.NGroups}, {"mamba_d_conv", s.ConvKernel},
		{"mamba_d_head", s.HeadDim}, {"mamba_n_heads", s.Heads}, {"mamba_expand", s.DInner / max(m.Hidden, 1)},
		{"linear_num_key_heads", s.KeyHeads}, {"linear_key_head_dim", s.KeyHeadDim},
		{"linear_num_value_heads", s.ValueHeads}, {"linear_value_head_dim", s.ValueHeadDim},
	} {
		if f.v < 0 || f.v > maxDim/16 {
			return configErr(prefix+f.name, "must be an integer between 1 and "+strconv.Itoa(maxDim/16))
		}
	}
	if (s.DInner > 0 || s.ValueHeads > 0) && s.ConvKernel < 1 {
		return configErr(prefix+"mamba_d_conv", "must be at least 1")
	}
	return nil
}

// visionParams estimates a ViT tower's parameters from its width, depth and
// MLP size: per block 4*d^2 attention + 2*d*f MLP, plus patch embedding.
func visionParams(v cfg) int64 {
	d := int64(v.int(0, "hidden_size", "width", "embed_dim"))
	l := int64(v.int(0, "num_hidden_layers", "depth", "num_layers"))
	f := int64(v.int(int(4*d), "intermediate_size", "mlp_dim"))
	p := int64(v.int(14, "patch_size"))
	if d <= 0 || l <= 0 || d > maxDim || l > maxLayers {
		return 0
	}
	return l*(4*d*d+2*d*f) + 3*p*p*d
}

// roughParams returns an upper estimate of the parameter count in float64
// (no integer overflow), used to reject absurd configs before counting.
func (m *Model) roughParams() float64 {
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
