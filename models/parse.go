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
	if bt := c.strs("layers_block_type"); m.NumLayers == 0 && m.Type == "nemotron_h" && len(bt) > 0 {
		// transformers' NemotronHConfig (4.57) derives num_hidden_layers
		// from layers_block_type; newer configs omit it.
		m.NumLayers = len(bt)
	}
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
	// model_max_length last: Kimi-Linear's config states only it, and
	// vLLM's _get_and_verify_max_len (vllm/config/model.py) lists it among
	// the keys it takes the model's length from.
	m.MaxContext = c.int(0, "max_position_embeddings", "n_positions", "max_sequence_length", "seq_length", "max_seq_len", "model_max_length")
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

	r := &reader{c: c, prefix: prefix, m: m}
	r.readFamilyDetails()
	if err := r.readFeedForward(); err != nil {
		return nil, err
	}
	r.readMLA()
	if err := r.readLayers(); err != nil {
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
	if m.v4 {
		dsv4.quant(r, qc)
	} else {
		m.markKept()
	}
	if vc := top.obj("vision_config"); vc != nil {
		m.visionParams = visionParams(vc)
	}
	if top.str("model_type") == "gemma3n" && prefix != "" {
		m.visionParams = gemma3nTowerParams(top, m.Hidden)
	}
	m.tally()
	pc := &counter{m: m}
	if r := pc.roughParams(); r > maxParams {
		return nil, configErr("", "implies about "+strconv.FormatFloat(r, 'g', 3, 64)+" parameters, above the supported "+strconv.FormatFloat(maxParams, 'g', 3, 64))
	}
	m.Params = pc.countParams()
	return m, nil
}

// reader fills a Model from one config.json object: c is the text model's
// config (its text_config for a multimodal one, transformers' defaults
// filled in by withDefaults), prefix the JSON path to it ("" or
// "text_config.") that every error names its field under.
type reader struct {
	c      cfg
	prefix string
	m      *Model
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
func (r *reader) readFamilyDetails() {
	m, c := r.m, r.c
	t := m.Type
	m.normsPer = 2
	m.GatedMLP = true
	switch {
	case strings.HasPrefix(t, "gemma2"), strings.HasPrefix(t, "gemma3"), strings.HasPrefix(t, "gemma4"):
		m.normsPer = 4
	case t == "nemotron_h":
		// One pre-norm per layer, squared-ReLU MLPs of two matrices
		// (vLLM 0.19 nemotron_h.py NemotronHMLP: up_proj, down_proj).
		m.normsPer = 1
		m.GatedMLP = false
		m.routerBias = true
	case t == "lfm2":
		// LFM2 (vLLM vllm/model_executor/models/lfm2.py): per-head
		// q_layernorm / k_layernorm, operator_norm and ffn_norm per layer,
		// and an LM head tied to the embedding whatever the config says
		// (Lfm2ForCausalLM calls lm_head.tie_weights unconditionally).
		m.qkNorm = true
		m.SSM.convBias = c.boolean("conv_bias", false)
	case t == "cohere", t == "cohere2":
		// Command R / R7B / A (vLLM commandr.py CohereDecoderLayer): one
		// input_layernorm per layer feeds attention and MLP in parallel;
		// use_qk_norm adds LayerNorms over all heads (param_shape
		// (heads, head_dim)); the head is always tied (CohereForCausalLM
		// asserts tie_word_embeddings).
		m.normsPer = 1
		m.qkNormFull = c.boolean("use_qk_norm", false)
	case t == "kimi_linear":
		// Kimi-Linear's MoE gate carries e_score_correction_bias of
		// num_experts values (vLLM kimi_linear.py KimiMoE).
		m.routerBias = true
	case t == "mimo_v2_flash":
		// MiMo-V2-Flash (vLLM mimo_v2_flash.py): keys of head_dim and
		// values of v_head_dim, a gate with e_score_correction_bias, and
		// a per-head attention sink bias on the sliding layers when
		// add_swa_attention_sink_bias is set.
		m.VHeadDim = c.int(0, "v_head_dim")
		m.routerBias = true
		m.swaSinks = c.boolean("add_swa_attention_sink_bias", false)
	case t == "ernie4_5_moe":
		// Ernie4_5_MoeMoE's gate carries e_score_correction_bias of
		// moe_num_experts values (vLLM vllm/model_executor/models/
		// ernie45_moe.py @0028a75108).
		m.routerBias = true
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
	case "qwen3", "qwen3_moe", "qwen3_next", "gemma3", "gemma3_text", "gemma3n", "gemma3n_text",
		"qwen3_5", "qwen3_5_text", "qwen3_5_moe", "qwen3_5_moe_text",
		// Qwen3-VL's text model is Qwen3 / Qwen3-MoE (vLLM v0.11.0
		// qwen3_vl.py builds it from Qwen3Model / Qwen3MoeModel).
		"qwen3_vl", "qwen3_vl_text", "qwen3_vl_moe", "qwen3_vl_moe_text":
		m.qkNorm = true
	case "gemma4", "gemma4_text":
		// Gemma4Attention: q_norm and k_norm with weights, v_norm without;
		// attention_k_eq_v drops v_proj on full-attention layers.
		m.qkNorm = true
		m.kEqV = c.boolean("attention_k_eq_v", false)
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
	switch {
	case t == "qwen3_next":
		m.gatedQ = true
	case c.has("attn_output_gate"):
		// Qwen3.5: the output gate doubles q_proj (Qwen3_5Attention).
		m.gatedQ = c.boolean("attn_output_gate", false)
	}
	switch t {
	case "qwen2_moe", "qwen3_next", "qwen3_5_moe", "qwen3_5_moe_text":
		m.sharedGate = true
	case "deepseek_v3", "deepseek_v32", "kimi_k2", "glm4_moe", "glm_moe_dsa":
		m.mtpOwnHead = true
	}
	// GLM-4.5 (use_qk_norm: per-head q/k norms) and MiniMax-M2
	// (qk_norm_type "per_layer": one norm over all heads' q and k,
	// MiniMaxM2Attention q_norm/k_norm of nh*d and nkv*d).
	if c.boolean("use_qk_norm", false) && !strings.HasPrefix(t, "cohere") {
		if c.str("qk_norm_type") == "per_layer" {
			m.qkNormFull = true
		} else {
			m.qkNorm = true
		}
	}
	m.MTPLayers = c.int(0, "num_nextn_predict_layers", "mtp_num_hidden_layers")
	if m.MTPLayers == 0 && c.boolean("use_mtp", false) {
		// MiniMax-M2: num_mtp_modules modules of mtp_transformer_layers.
		m.MTPLayers = c.int(0, "num_mtp_modules") * c.int(1, "mtp_transformer_layers")
	}
	// transformers' PretrainedConfig defaults tie_word_embeddings to true;
	// most families override it to false in their config class. Gemma's
	// and SmolLM3's classes keep true (transformers modular_smollm3.py
	// SmolLM3Config: tie_word_embeddings True; HuggingFaceTB/SmolLM3-3B's
	// config.json omits it and its 3,075,098,624 parameters count one
	// embedding matrix).
	defTie := strings.HasPrefix(t, "gemma") || t == "smollm3"
	m.Tied = c.boolean("tie_word_embeddings", defTie) || t == "lfm2" || t == "cohere" || t == "cohere2"
}

// readFeedForward reads the dense MLP and MoE fields.
func (r *reader) readFeedForward() error {
	m, c, prefix := r.m, r.c, r.prefix
	m.Intermediate = c.int(0, "intermediate_size", "n_inner", "ffn_hidden_size", "ffn_dim")
	if m.Intermediate == 0 && m.Type == "nemotron-nas" {
		// DeciLM sizes each layer's MLP from block_configs; the widest
		// stands for the model (readNASLayers sets each layer's).
		for _, b := range nasBlocks(c) {
			m.Intermediate = max(m.Intermediate, nasIntermediate(b.obj("ffn"), m.Hidden))
		}
	}
	if m.Intermediate == 0 && !m.GatedMLP {
		m.Intermediate = 4 * m.Hidden
	}
	if m.Type == "lfm2" {
		m.Intermediate = lfm2FFDim(c)
	}
	if xs := c.ints("intermediate_size"); m.Intermediate == 0 && len(xs) > 0 {
		// A per-layer list (Gemma 3n): the widest stands for the model,
		// readGemma4Layers sets each layer's.
		m.interList = xs
		for _, x := range xs {
			m.Intermediate = max(m.Intermediate, min(x, maxDim+1))
		}
	}
	m.Experts = c.int(0, "num_local_experts", "n_routed_experts", "num_experts", "moe_num_experts")
	m.TopK = c.int(0, "num_experts_per_tok", "experts_per_token", "moe_topk", "num_experts_per_token", "top_k_experts", "moe_k")
	if m.Experts > 0 && m.TopK == 0 {
		k, err := r.perLayerInt("moe_topk")
		if err != nil {
			return err
		}
		m.TopK = k
	}
	if m.Experts > 0 {
		if m.Experts > maxExperts {
			return configErr(prefix+"num_experts", "is above the supported maximum "+strconv.Itoa(maxExperts))
		}
		if m.TopK <= 0 || m.TopK > m.Experts {
			return configErr(prefix+"num_experts_per_tok", "must be between 1 and the number of experts ("+strconv.Itoa(m.Experts)+")")
		}
		m.MoEIntermediate = c.int(0, "moe_intermediate_size", "expert_intermediate_size")
		if m.MoEIntermediate == 0 && c.ints("moe_intermediate_size") != nil {
			w, err := r.perLayerInt("moe_intermediate_size")
			if err != nil {
				return err
			}
			m.MoEIntermediate = w
		}
		if m.MoEIntermediate == 0 {
			m.MoEIntermediate = m.Intermediate
		}
		m.DenseIntermediate = c.int(m.Intermediate, "intermediate_size_mlp", "dense_intermediate_size")
		switch {
		case strings.HasPrefix(m.Type, "gemma4") && c.boolean("enable_moe_block", false):
			// Gemma 4: every layer runs its dense MLP of intermediate_size
			// and, in parallel, the routed experts; the dense MLP acts as an
			// always-on shared expert (vLLM 0.19 gemma4.py
			// Gemma4DecoderLayer: mlp + router + moe).
			m.SharedIntermediate = m.Intermediate
			m.gemma4MoE = true
		case c.has("moe_shared_expert_intermediate_size"):
			// Nemotron-H: shared MLP of moe_shared_expert_intermediate_size
			// * n_shared_experts (vLLM 0.19 nemotron_h.py NemotronHMoE).
			m.SharedIntermediate = c.int(0, "moe_shared_expert_intermediate_size") * c.int(1, "n_shared_experts")
		case c.has("n_shared_experts"):
			m.SharedIntermediate = c.int(0, "n_shared_experts") * m.MoEIntermediate
		case m.Type == "kimi_linear" && c.has("num_shared_experts"):
			// Kimi-Linear: one shared MLP of moe_intermediate_size *
			// num_shared_experts (vLLM kimi_linear.py KimiMoE.shared_experts).
			m.SharedIntermediate = c.int(0, "num_shared_experts") * m.MoEIntermediate
		case c.has("num_shared_expert") && c.boolean("use_mixed_mlp_moe", false):
			// Hunyuan: a shared MLP of intermediate_size *
			// num_shared_expert (vLLM hunyuan_v1.py HunYuanSparseMoeBlock
			// shared_mlp), the count possibly given per layer.
			n := c.int(-1, "num_shared_expert")
			if n < 0 {
				var err error
				if n, err = r.perLayerInt("num_shared_expert"); err != nil {
					return err
				}
			}
			m.SharedIntermediate = n * m.Intermediate
		case c.has("moe_num_shared_experts"):
			// ERNIE 4.5 MoE: one shared MLP of moe_intermediate_size *
			// moe_num_shared_experts (vLLM ernie45_moe.py @0028a75108
			// Ernie4_5_MoeMoE.shared_experts).
			m.SharedIntermediate = c.int(0, "moe_num_shared_experts") * m.MoEIntermediate
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
		m.MoELatent = c.int(0, "moe_latent_size")
		if m.MoELatent < 0 || m.MoELatent > maxDim {
			return configErr(prefix+"moe_latent_size", "must be a positive integer up to "+strconv.Itoa(maxDim))
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

// perLayerInt reads a per-layer list that the engine models as one value
// for every layer (Hunyuan's moe_topk, moe_intermediate_size and
// num_shared_expert, of which vLLM hunyuan_v1.py takes entry layer_id): it
// must give a value for each of the num_hidden_layers layers, all equal.
func (r *reader) perLayerInt(key string) (int, error) {
	m, c, prefix := r.m, r.c, r.prefix
	xs := c.ints(key)
	if len(xs) == 0 {
		return 0, nil
	}
	if len(xs) < m.NumLayers {
		return 0, configErr(prefix+key, "lists "+strconv.Itoa(len(xs))+" values for "+strconv.Itoa(m.NumLayers)+" layers")
	}
	for i, x := range xs[:m.NumLayers] {
		if x != xs[0] {
			return 0, configErr(prefix+key+"["+strconv.Itoa(i)+"]", "differs from layer 0's "+strconv.Itoa(xs[0])+"; per-layer values that differ are not supported")
		}
	}
	return xs[0], nil
}

// lfm2FFDim returns the SwiGLU width of an LFM2 block as vLLM's Lfm2MLP
// sizes it (vllm/model_executor/models/lfm2.py): from intermediate_size
// (block_ff_dim in the Hub configs, which transformers' Lfm2Config reads
// as intermediate_size) and, when block_auto_adjust_ff_dim is set,
// int(2*f/3), times block_ffn_dim_multiplier, rounded up to a multiple of
// block_multiple_of. LFM2-1.2B: block_ff_dim 12288 -> 8192. Absent
// fields take transformers' Lfm2Config defaults (block_auto_adjust_ff_dim
// true, block_ffn_dim_multiplier 1.0, block_multiple_of 256).
func lfm2FFDim(c cfg) int {
	f := c.int(0, "intermediate_size", "block_ff_dim")
	if f <= 0 || f > maxDim || !c.boolean("block_auto_adjust_ff_dim", true) {
		return f
	}
	f = 2 * f / 3
	if mult, ok := c.num("block_ffn_dim_multiplier"); ok && mult > 0 && mult <= 16 {
		f = int(mult * float64(f))
	}
	if mo := c.int(256, "block_multiple_of"); mo > 1 && mo <= maxDim {
		f = mo * ((f + mo - 1) / mo)
	}
	return f
}

// readMLA reads DeepSeek's multi-head latent attention fields.
func (r *reader) readMLA() {
	m, c := r.m, r.c
	m.KVLoraRank = c.int(0, "kv_lora_rank")
	if m.KVLoraRank == 0 {
		return
	}
	m.QLoraRank = c.int(0, "q_lora_rank")
	if c.has("index_topk") {
		// DeepSeek sparse attention (DeepSeek-V3.2, GLM-5): a lightning
		// indexer on every layer (DeepseekV32ForCausalLM's Indexer).
		m.Indexer = Indexer{
			Heads:   c.int(64, "index_n_heads"),
			HeadDim: c.int(128, "index_head_dim"),
			TopK:    c.int(2048, "index_topk"),
		}
	}
	m.QKNopeDim = c.int(128, "qk_nope_head_dim")
	m.QKRopeDim = c.int(64, "qk_rope_head_dim")
	m.VHeadDim = c.int(m.QKNopeDim, "v_head_dim")
	m.HeadDim = m.QKNopeDim + m.QKRopeDim
	m.KVHeads = m.Heads
}

// readLayers builds the per-layer description: attention kind, sliding
// window, MoE placement.
func (r *reader) readLayers() error {
	m, c, prefix := r.m, r.c, r.prefix
	n := m.NumLayers
	m.Layers = make([]Layer, n)
	window := c.int(0, "sliding_window", "sliding_window_size", "attention_window_size")
	types := c.strs("layer_types")
	if len(types) != 0 && len(types) != n {
		return configErr(prefix+"layer_types", "has "+strconv.Itoa(len(types))+" entries for "+strconv.Itoa(n)+" layers")
	}
	if err := r.readSSM(); err != nil {
		return err
	}
	if c.boolean("use_cla", false) && c.int(1, "cla_share_factor") > 1 {
		// Hunyuan cross-layer attention: layers off the share factor
		// read the previous layer's K and V (vLLM hunyuan_v1.py
		// HunYuanCrossAttention); not modelled.
		return configErr(prefix+"use_cla", "cross-layer attention (use_cla with cla_share_factor > 1) is not supported")
	}
	// MiniMax: without attn_type_list every layer is softmax attention
	// (vLLM MiniMaxText01Model's default [1] * num_hidden_layers).
	lightning := c.ints("attn_type_list")
	if m.SSM.Lightning && len(lightning) != 0 && len(lightning) != n {
		return configErr(prefix+"attn_type_list", "has "+strconv.Itoa(len(lightning))+" entries for "+strconv.Itoa(n)+" layers")
	}
	switch m.Type {
	case "deepseek_v4":
		if dsv4 == nil {
			return configErr(prefix+"model_type", "deepseek_v4 needs the full engine (load({ planner: true }) or the API), not the light engine")
		}
		return dsv4.read(r)
	case "nemotron_h":
		return r.readNemotronHLayers()
	case "nemotron-nas":
		return r.readNASLayers()
	}
	if m.Type == "mimo_v2_flash" {
		if err := r.readMiMoLayers(); err != nil {
			return err
		}
		return r.placeExpertsChecked()
	}
	kda := map[int]bool{}
	if m.SSM.KDA {
		// Kimi-Linear: linear_attn_config.kda_layers lists the KDA layers
		// 1-based; every other layer is MLA (vLLM KimiLinearConfig.is_kda_layer:
		// layer_idx + 1 in kda_layers).
		for _, i := range c.obj("linear_attn_config").ints("kda_layers") {
			if i < 1 || i > n {
				return configErr(prefix+"linear_attn_config.kda_layers", "has layer "+strconv.Itoa(i)+", outside 1.."+strconv.Itoa(n))
			}
			kda[i-1] = true
		}
	}
	for i := range m.Layers {
		l := &m.Layers[i]
		switch {
		case kda[i]:
			l.Kind = LinearAttention
		case m.KVLoraRank > 0:
			l.Kind = MLAttention
		case m.SSM.Lightning && len(lightning) == n:
			// MiniMax-Text-01 / M1: attn_type_list 0 is a lightning
			// (linear) attention layer, 1 a softmax attention layer (vLLM
			// minimax_text_01.py MiniMaxText01DecoderLayer).
			if lightning[i] == 0 {
				l.Kind = LinearAttention
			}
		case m.Type == "lfm2":
			// LFM2: layer_types "conv" / "full_attention", or in older
			// configs full_attn_idxs listing the attention layers (vLLM's
			// Lfm2Model picks Lfm2AttentionDecoderLayer for
			// "full_attention" and Lfm2ShortConvDecoderLayer otherwise).
			if len(types) == n {
				if types[i] != "full_attention" {
					l.Kind = ShortConv
				}
			} else if !containsInt(c.ints("full_attn_idxs"), i) {
				l.Kind = ShortConv
			}
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
		case m.Type == "cohere2":
			// Cohere2 configs without layer_types: transformers'
			// Cohere2Config derives them from sliding_window_pattern
			// (default 4), sliding unless (i+1) % pattern == 0; vLLM's
			// CohereAttention then slides where layer_types says so.
			if p := c.int(4, "sliding_window_pattern"); p > 0 && (i+1)%p != 0 {
				l.Kind = SlidingAttention
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
	if err := r.placeExpertsChecked(); err != nil {
		return err
	}
	r.readGemma4Layers()
	return nil
}

// readMiMoLayers reads MiMo-V2-Flash's hybrid_layer_pattern (vLLM
// mimo_v2_flash.py MiMoV2FlashDecoderLayer.is_compressed_softmax_layer): a
// 1 is a sliding-window layer of sliding_window_size tokens with its own
// swa_num_key_value_heads, a 0 a full-attention layer. The sliding layers'
// query heads and head sizes must equal the full layers' (as in the
// published config); the engine keeps one of each per model.
func (r *reader) readMiMoLayers() error {
	m, c, prefix := r.m, r.c, r.prefix
	pat := c.ints("hybrid_layer_pattern")
	if len(pat) != m.NumLayers {
		return configErr(prefix+"hybrid_layer_pattern", "has "+strconv.Itoa(len(pat))+" entries for "+strconv.Itoa(m.NumLayers)+" layers")
	}
	for _, f := range []struct {
		key  string
		want int
	}{{"swa_num_attention_heads", m.Heads}, {"swa_head_dim", m.HeadDim}, {"swa_v_head_dim", m.HeadDimV()}} {
		if v := c.int(f.want, f.key); v != f.want {
			return configErr(prefix+f.key, "is "+strconv.Itoa(v)+", unlike the full-attention layers' "+strconv.Itoa(f.want)+"; not supported")
		}
	}
	if c.boolean("add_full_attention_sink_bias", false) {
		return configErr(prefix+"add_full_attention_sink_bias", "sink biases on the full-attention layers are not supported")
	}
	kv := c.int(m.KVHeads, "swa_num_key_value_heads")
	if kv <= 0 || kv > m.Heads || m.Heads%kv != 0 {
		return configErr(prefix+"swa_num_key_value_heads", "must be a positive divisor of num_attention_heads ("+strconv.Itoa(m.Heads)+")")
	}
	window := c.int(0, "sliding_window_size", "sliding_window")
	for i, p := range pat {
		if p == 1 {
			if window <= 0 {
				return configErr(prefix+"sliding_window_size", "is required when hybrid_layer_pattern has sliding layers")
			}
			m.Layers[i] = Layer{Kind: SlidingAttention, Window: window, KVHeads: kv}
		}
	}
	return nil
}

// placeExpertsChecked marks the MoE layers; a moe_layer_freq list (MiMo-V2-
// Flash, vLLM mimo_v2_flash.py is_moe_layer: layer i routes when entry i is
// non-zero) must give one entry per layer.
func (r *reader) placeExpertsChecked() error {
	m, c, prefix := r.m, r.c, r.prefix
	if xs := c.ints("moe_layer_freq"); len(xs) > 0 && m.Experts > 0 {
		if len(xs) != m.NumLayers {
			return configErr(prefix+"moe_layer_freq", "lists "+strconv.Itoa(len(xs))+" entries for "+strconv.Itoa(m.NumLayers)+" layers")
		}
		for i, x := range xs {
			m.Layers[i].MoE = x != 0
		}
		return nil
	}
	r.placeExperts()
	return nil
}

// readNemotronHLayers reads Nemotron-H's block list: each decoder layer is
// one block, a Mamba-2 mixer ("M" / "mamba"), an attention mixer ("*" /
// "attention"), a dense MLP ("-" / "mlp") or an MoE ("E" / "moe"), from
// hybrid_override_pattern or layers_block_type (vLLM 0.19 nemotron_h.py
// ALL_DECODER_LAYER_TYPES). Mixer layers have no feed-forward block and
// feed-forward layers no mixer, so only "*" layers keep a KV cache and only
// "M" layers a Mamba state.
func (r *reader) readNemotronHLayers() error {
	m, c, prefix := r.m, r.c, r.prefix
	var kinds []byte
	field := "hybrid_override_pattern"
	if p, ok := c["hybrid_override_pattern"].(string); ok {
		kinds = []byte(p)
	} else if bt := c.strs("layers_block_type"); len(bt) > 0 {
		field = "layers_block_type"
		for _, t := range bt {
			switch t {
			case "mamba":
				kinds = append(kinds, 'M')
			case "attention":
				kinds = append(kinds, '*')
			case "mlp":
				kinds = append(kinds, '-')
			case "moe":
				kinds = append(kinds, 'E')
			default:
				return configErr(prefix+field, "has unknown block type "+fielderr.Quote(t)+"; expected mamba, attention, mlp or moe")
			}
		}
	} else {
		return configErr(prefix+field, "is required for model_type nemotron_h")
	}
	if len(kinds) != m.NumLayers {
		return configErr(prefix+field, "has "+strconv.Itoa(len(kinds))+" blocks for "+strconv.Itoa(m.NumLayers)+" layers")
	}
	for i, k := range kinds {
		l := &m.Layers[i]
		switch k {
		case 'M':
			l.Kind, l.NoFFN = Mamba, true
		case '*':
			l.Kind, l.NoFFN = FullAttention, true
		case '-':
			l.Kind = FeedForward
		case 'E':
			if m.Experts == 0 {
				return configErr(prefix+"n_routed_experts", "is required when "+field+" has MoE blocks")
			}
			l.Kind, l.MoE = FeedForward, true
		default:
			return configErr(prefix+field, "has unknown block "+fielderr.Quote(string(k))+" at position "+strconv.Itoa(i)+"; expected M, *, - or E")
		}
	}
	if m.SSM.DInner == 0 && strings.IndexByte(string(kinds), 'M') >= 0 {
		return configErr(prefix+"mamba_num_heads", "is required when "+field+" has Mamba blocks")
	}
	return nil
}

// nasBlocks returns a DeciLM config's block_configs objects.
func nasBlocks(c cfg) []cfg {
	a, _ := c["block_configs"].([]any)
	out := make([]cfg, 0, len(a))
	for _, v := range a {
		if o, ok := v.(map[string]any); ok {
			out = append(out, cfg(o))
		}
	}
	return out
}

// nasIntermediate returns a DeciLM block's MLP width: ffn_mult * 2/3 of
// hidden, rounded up to a multiple of 256 (vLLM 0.19 nemotron_nas.py
// _ffn_mult_to_intermediate_size), or 0 for a no-op or missing MLP.
func nasIntermediate(ffn cfg, hidden int) int {
	if ffn == nil || ffn.boolean("no_op", false) || ffn.boolean("replace_with_linear", false) {
		return 0
	}
	mult, ok := ffn.num("ffn_mult")
	if !ok || mult <= 0 || mult > 1024 {
		return 0
	}
	n := int(2 * mult * float64(hidden) / 3)
	if r := n % 256; r != 0 {
		n += 256 - r
	}
	return n
}

// readNASLayers reads a Llama-Nemotron (DeciLM, model_type nemotron-nas)
// block list (vLLM 0.19 nemotron_nas.py DeciLMDecoderLayer): each layer's
// attention is GQA with num_attention_heads / n_heads_in_group KV heads or
// a no-op (no cache, no weights), and its MLP is a SwiGLU of
// nasIntermediate width or a no-op.
func (r *reader) readNASLayers() error {
	m, c, prefix := r.m, r.c, r.prefix
	blocks := nasBlocks(c)
	if len(blocks) != m.NumLayers {
		return configErr(prefix+"block_configs", "has "+strconv.Itoa(len(blocks))+" blocks for "+strconv.Itoa(m.NumLayers)+" layers")
	}
	for i, b := range blocks {
		l := &m.Layers[i]
		at := b.obj("attention")
		switch {
		case at == nil || at.boolean("no_op", false):
			l.Kind = FeedForward
		case at.boolean("replace_with_linear", false):
			return configErr(prefix+"block_configs", "block "+strconv.Itoa(i)+" replaces attention with a linear layer, which is not supported")
		default:
			g := at.int(0, "n_heads_in_group")
			if g <= 0 || m.Heads%g != 0 {
				return configErr(prefix+"block_configs", "block "+strconv.Itoa(i)+": attention.n_heads_in_group must divide num_attention_heads ("+strconv.Itoa(m.Heads)+")")
			}
			l.KVHeads = m.Heads / g
		}
		ffn := b.obj("ffn")
		if ffn != nil && ffn.boolean("replace_with_linear", false) {
			return configErr(prefix+"block_configs", "block "+strconv.Itoa(i)+" replaces the MLP with a linear layer, which is not supported")
		}
		if l.Intermediate = nasIntermediate(ffn, m.Hidden); l.Intermediate == 0 {
			l.NoFFN = true
		}
	}
	return nil
}

// readGemma4Layers applies Gemma 4's per-layer attention geometry (vLLM
// 0.19 gemma4.py Gemma4DecoderLayer and Gemma4Attention): full-attention
// layers use global_head_dim, and num_global_key_value_heads heads when
// attention_k_eq_v is set; the last num_kv_shared_layers layers read the
// cache of the last earlier layer of their type and keep none. The same
// sharing rule applies to Gemma 3n (vLLM gemma3n.py Gemma3nAttention),
// whose configs may list intermediate_size per layer. Both families may
// carry per-layer embeddings (hidden_size_per_layer_input).
func (r *reader) readGemma4Layers() {
	m, c := r.m, r.c
	g4 := strings.HasPrefix(m.Type, "gemma4")
	if !g4 && !strings.HasPrefix(m.Type, "gemma3n") {
		return
	}
	if g4 {
		gd := c.int(0, "global_head_dim")
		gkv := c.int(0, "num_global_key_value_heads")
		for i := range m.Layers {
			l := &m.Layers[i]
			if l.Kind != FullAttention {
				continue
			}
			if gd > 0 && gd <= 4096 {
				l.HeadDim = gd
			}
			if m.kEqV && gkv > 0 && gkv <= m.Heads && m.Heads%gkv == 0 {
				l.KVHeads = gkv
			}
		}
	}
	if n := c.int(0, "num_kv_shared_layers"); n > 0 && n < m.NumLayers {
		// Gemma 4 use_double_wide_mlp: the KV-shared layers' MLPs are
		// twice intermediate_size wide (Gemma4DecoderLayer).
		wide := g4 && c.boolean("use_double_wide_mlp", false) && m.Intermediate <= maxDim/2
		for i := m.NumLayers - n; i < m.NumLayers; i++ {
			m.Layers[i].SharedKV = true
			if wide {
				m.Layers[i].Intermediate = 2 * m.Intermediate
				m.heteroFFN = true
			}
		}
	}
	if len(m.interList) == m.NumLayers {
		for i, x := range m.interList {
			if x != m.Intermediate {
				m.heteroFFN = true
			}
			m.Layers[i].Intermediate = x
		}
	}
	if !g4 {
		// Gemma 3n's AltUp and LAuReL blocks (transformers
		// Gemma3nTextConfig defaults: altup_num_inputs 4, laurel_rank 64;
		// vLLM gemma3n.py Gemma3nAltUp, Gemma3nLaurelBlock), counted in
		// Params.AltUp and Params.Laurel.
		if n := c.int(4, "altup_num_inputs"); n >= 1 && n <= 64 {
			m.altupInputs = n
		}
		if r := c.int(64, "laurel_rank"); r > 0 && r <= maxDim {
			m.laurelRank = r
		}
	}
	// Per-layer embeddings (Gemma4Model and Gemma3nTextModel:
	// embed_tokens_per_layer, per_layer_model_projection and the per-layer
	// gates and projections, counted in Params.PerLayerEmbedding).
	if e := c.int(0, "hidden_size_per_layer_input"); e > 0 && e <= maxDim/16 {
		m.pleDim = e
		m.pleVocab = min(c.int(m.Vocab, "vocab_size_per_layer_input"), maxVocab)
	}
}

// containsInt reports whether xs holds x.
func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
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
func (r *reader) placeExperts() {
	m, c := r.m, r.c
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
	if c.has("moe_layer_start_index") || c.has("moe_layer_end_index") {
		// ERNIE 4.5 MoE: layer i routes when moe_layer_start_index <= i
		// <= moe_layer_end_index and (i+1) % moe_layer_interval == 0;
		// the others run a dense MLP of intermediate_size (vLLM
		// ernie45_moe.py @0028a75108 Ernie4_5_MoeDecoderLayer).
		start := c.int(0, "moe_layer_start_index")
		end := c.int(len(m.Layers)-1, "moe_layer_end_index")
		iv := max(c.int(1, "moe_layer_interval"), 1)
		for i := range m.Layers {
			m.Layers[i].MoE = i >= start && i <= end && (i+1)%iv == 0
		}
		return
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
func (r *reader) readSSM() error {
	m, c, prefix := r.m, r.c, r.prefix
	s := &m.SSM
	if c.has("mamba_d_state") || c.has("ssm_state_size") || c.has("mamba_n_heads") || c.has("mamba_num_heads") {
		expand := c.int(2, "mamba_expand", "expand")
		s.DState = c.int(128, "mamba_d_state", "ssm_state_size", "state_size")
		s.NGroups = c.int(1, "mamba_n_groups", "n_groups")
		s.ConvKernel = c.int(4, "mamba_d_conv", "conv_kernel")
		s.HeadDim = c.int(64, "mamba_d_head", "mamba_head_dim")
		s.DInner = expand * m.Hidden
		s.Heads = c.int(s.DInner/max(1, s.HeadDim), "mamba_n_heads", "mamba_num_heads")
		if c.has("mamba_num_heads") {
			// Nemotron-H: the mixer width is heads * head_dim, not
			// expand * hidden (vLLM 0.19 nemotron_h.py
			// NemotronHMambaDecoderLayer: intermediate_size =
			// mamba_num_heads * mamba_head_dim).
			s.DInner = s.Heads * s.HeadDim
		}
		s.SSMDtype = normDtype(c.str("mamba_ssm_cache_dtype"))
	}
	if m.Type == "minimax_text_01" || m.Type == "minimax_m1" {
		// Lightning attention keeps one (heads, head_dim, head_dim) state
		// per layer and sequence and no convolution state (vLLM
		// vllm/model_executor/layers/mamba/mamba_utils.py
		// MambaStateShapeCalculator.linear_attention_state_shape); it is
		// held as a linear-attention state of heads key and value heads
		// of head_dim with a convolution kernel of 1 (no conv state).
		heads := c.int(0, "num_attention_heads")
		hd := c.int(m.Hidden/max(heads, 1), "head_dim")
		s.Lightning = true
		s.KeyHeads, s.ValueHeads, s.KeyHeadDim, s.ValueHeadDim, s.ConvKernel = heads, heads, hd, hd, 1
	}
	if la := c.obj("linear_attn_config"); m.Type == "kimi_linear" && la != nil {
		// Kimi Delta Attention: num_heads heads of head_dim for q, k and
		// v alike, short convolutions of short_conv_kernel_size taps (vLLM
		// kda.py KimiDeltaAttention reads these three keys of
		// linear_attn_config); the recurrent state is float32 whatever the
		// model dtype (mamba_utils.py MambaStateDtypeCalculator.kda_state_dtype).
		heads, hd := la.int(0, "num_heads"), la.int(0, "head_dim")
		s.KDA = true
		s.KeyHeads, s.ValueHeads, s.KeyHeadDim, s.ValueHeadDim = heads, heads, hd, hd
		s.ConvKernel = la.int(4, "short_conv_kernel_size")
		s.RecurrentDtype = "float32"
		if heads <= 0 || hd <= 0 {
			return configErr(prefix+"linear_attn_config.num_heads", "num_heads and head_dim must be positive integers")
		}
	}
	if m.Type == "lfm2" {
		// LFM2 short convolutions: conv_dim channels (hidden_size when
		// absent) and conv_L_cache taps (vLLM short_conv.py ShortConv).
		s.ConvDim = c.int(m.Hidden, "conv_dim")
		s.ConvKernel = c.int(3, "conv_L_cache")
	}
	if c.has("linear_num_value_heads") {
		s.KeyHeads = c.int(16, "linear_num_key_heads")
		s.KeyHeadDim = c.int(128, "linear_key_head_dim")
		s.ValueHeads = c.int(32, "linear_num_value_heads")
		s.ValueHeadDim = c.int(128, "linear_value_head_dim")
		s.ConvKernel = c.int(4, "linear_conv_kernel_dim")
		s.RecurrentDtype = normDtype(c.str("mamba_ssm_dtype"))
	}
	for _, f := range []struct {
		name string
		v    int
	}{
		{"mamba_d_state", s.DState}, {"mamba_n_groups", s.NGroups}, {"mamba_d_conv", s.ConvKernel},
		{"mamba_d_head", s.HeadDim}, {"mamba_n_heads", s.Heads}, {"mamba_expand", s.DInner / max(m.Hidden, 1)},
		{"linear_num_key_heads", s.KeyHeads}, {"linear_key_head_dim", s.KeyHeadDim},
		{"linear_num_value_heads", s.ValueHeads}, {"linear_value_head_dim", s.ValueHeadDim},
		{"conv_dim", s.ConvDim},
	} {
		if f.v < 0 || f.v > maxDim/16 {
			return configErr(prefix+f.name, "must be an integer between 1 and "+strconv.Itoa(maxDim/16))
		}
	}
	if (s.DInner > 0 || s.ValueHeads > 0 || s.ConvDim > 0) && s.ConvKernel < 1 {
		return configErr(prefix+"mamba_d_conv", "must be at least 1")
	}
	return nil
}

// visionParams estimates a ViT tower's parameters from its width, depth and
// MLP size: per block 4*d^2 attention + 2*d*f MLP, plus patch embedding.
// A Qwen3-VL tower (vision_config with deepstack_visual_indexes) is counted
// exactly instead, by qwen3VLVisionParams.
func visionParams(v cfg) int64 {
	if v.has("deepstack_visual_indexes") {
		return qwen3VLVisionParams(v)
	}
	d := int64(v.int(0, "hidden_size", "width", "embed_dim"))
	l := int64(v.int(0, "num_hidden_layers", "depth", "num_layers"))
	f := int64(v.int(int(4*d), "intermediate_size", "mlp_dim"))
	p := int64(v.int(14, "patch_size"))
	if d <= 0 || l <= 0 || d > maxDim || l > maxLayers {
		return 0
	}
	return l*(4*d*d+2*d*f) + 3*p*p*d
}

// qwen3VLVisionParams counts a Qwen3-VL vision tower (parameters) module by
// module, as vLLM v0.11.0 builds it (vllm/model_executor/models/qwen3_vl.py,
// Qwen3_VisionTransformer; the same modules as transformers'
// modeling_qwen3_vl.py Qwen3VLVisionModel), for width d, MLP width f, depth
// L, output width o (the text model's hidden size) and merge size m:
//   - patch_embed: Conv3d(in_channels, d, kernel temporal_patch x p x p) with bias;
//   - pos_embed: Embedding(num_position_embeddings, d);
//   - L blocks: LayerNorm norm1/norm2 (weight and bias), attn.qkv d -> 3d and
//     attn.proj d -> d, mlp.linear_fc1 d -> f and linear_fc2 f -> d, all with bias;
//   - merger: LayerNorm(d), linear_fc1 m^2 d -> m^2 d, linear_fc2 m^2 d -> o, with bias;
//   - one deepstack merger per deepstack_visual_indexes entry, the same but with
//     its LayerNorm over m^2 d (use_postshuffle_norm).
func qwen3VLVisionParams(v cfg) int64 {
	d := int64(v.int(0, "hidden_size"))
	l := int64(v.int(0, "depth", "num_hidden_layers"))
	f := int64(v.int(int(4*d), "intermediate_size"))
	o := int64(v.int(int(d), "out_hidden_size"))
	p := int64(v.int(16, "patch_size"))
	tp := int64(v.int(2, "temporal_patch_size"))
	in := int64(v.int(3, "in_channels"))
	ms := int64(v.int(2, "spatial_merge_size"))
	pos := int64(v.int(0, "num_position_embeddings"))
	deep := int64(len(v.ints("deepstack_visual_indexes")))
	if d <= 0 || l <= 0 || d > maxDim || l > maxLayers || f > maxDim*4 || o > maxDim || p > 64 || tp > 64 || in > 64 || ms > 64 || pos > maxDim*maxDim || deep > maxLayers {
		return 0
	}
	patch := in*tp*p*p*d + d
	block := 2*2*d + (d*3*d + 3*d) + (d*d + d) + (d*f + f) + (f*d + d)
	md := ms * ms * d
	mlp := (md*md + md) + (md*o + o)
	return patch + pos*d + l*block + (2*d + mlp) + deep*(2*md+mlp)
}

// gemma3nTowerParams counts Gemma 3n's multimodal towers (parameters) as
// vLLM's Gemma3nForConditionalGeneration loads them
// (vllm/model_executor/models/gemma3n_mm.py: vision_tower and audio_tower
// from AutoModel.from_config, embed_vision and embed_audio), for a text
// model of width h. Missing fields take transformers' Gemma3nAudioConfig /
// Gemma3nVisionConfig defaults (configuration_gemma3n.py at 0185480976).
//
// Audio (transformers modeling_gemma3n.py Gemma3nAudioEncoder), width d,
// conf_num_hidden_layers L, conf_conv_kernel_size k, head width d/heads:
//   - subsample_conv_projection: conv_0 1 -> c0 (3x3) and conv_1 c0 -> c1
//     (3x3) without bias, each with a norm of its channels, and
//     input_proj_linear (c1 * f) -> d, f the input_feat_size left after
//     two stride-2 convolutions (128 -> 64 -> 32);
//   - L conformer blocks of 24 d^2 + (9 + k) d + d/heads: two macaron
//     feed-forwards (d -> 4d -> d and two norms each: 8 d^2 + 2d), attention
//     (q, k, v, post and the relative-position pos_proj: 5 d^2, two norms,
//     per_dim_scale d/heads), the light convolution (linear_start d -> 2d,
//     linear_end d -> d, depthwise conv k d, two norms: 3 d^2 + (2 + k) d)
//     and the block norm d.
//
// Vision: a timm MobileNetV5 whose size only its name states
// ("mobilenetv5_300m_enc": 300M parameters, Google's "MobileNet-V5-300M"),
// taken at that figure; a name without a size counts 0.
//
// Each tower's Gemma3nMultimodalEmbedder: an embedding of vocab_size x its
// width, two norms of its width and a projection to h (its post-projection
// norm has no weight).
func gemma3nTowerParams(top cfg, h int) int64 {
	hh := int64(h)
	var p int64
	// A missing or null sub-config is the default one (Gemma3nConfig).
	a, v := top.obj("audio_config"), top.obj("vision_config")
	if a == nil {
		a = cfg{}
	}
	if v == nil {
		v = cfg{}
	}
	{
		d := int64(a.int(1536, "hidden_size"))
		l := int64(a.int(12, "conf_num_hidden_layers"))
		k := int64(a.int(5, "conf_conv_kernel_size"))
		heads := int64(a.int(8, "conf_num_attention_heads"))
		feat := int64(a.int(128, "input_feat_size"))
		c0, c1 := int64(128), int64(32)
		if ch := a.ints("sscp_conv_channel_size"); len(ch) == 2 && ch[0] > 0 && ch[1] > 0 {
			c0, c1 = int64(ch[0]), int64(ch[1])
		}
		if d > 0 && d <= maxDim && l > 0 && l <= maxLayers && heads > 0 && k > 0 && k <= 64 && feat > 0 && c0 <= maxDim && c1 <= maxDim {
			// Each 3x3 stride-2 convolution (the default
			// sscp_conv_kernel_size / sscp_conv_stride_size) pads the
			// frequency axis by one on each side: f -> (f + 2 - 3) / 2 + 1.
			f := feat
			for range 2 {
				f = (f-1)/2 + 1
			}
			p += 9*c0 + c0 + 9*c0*c1 + c1 + c1*f*d
			p += l * (24*d*d + (9+k)*d + d/heads)
			p += int64(a.int(128, "vocab_size"))*d + 2*d + d*hh
		}
	}
	{
		arch := v.str("architecture")
		if arch == "" {
			arch = "mobilenetv5_300m_enc"
		}
		p += timmSizeFromName(arch)
		d := int64(v.int(2048, "hidden_size"))
		if d > 0 && d <= maxDim {
			p += int64(v.int(128, "vocab_size"))*d + 2*d + d*hh
		}
	}
	return p
}

// timmSizeFromName reads the parameter count a timm model name states
// ("mobilenetv5_300m_enc" -> 300,000,000): the first part of digits
// followed by m (millions) or b (billions); 0 when none does.
func timmSizeFromName(name string) int64 {
	for _, part := range strings.Split(strings.ToLower(name), "_") {
		if len(part) < 2 {
			continue
		}
		unit := part[len(part)-1]
		n, err := strconv.ParseInt(part[:len(part)-1], 10, 64)
		if err != nil || n <= 0 || n > 100000 {
			continue
		}
		switch unit {
		case 'm':
			return n * 1_000_000
		case 'b':
			return n * 1_000_000_000
		}
	}
	return 0
}
