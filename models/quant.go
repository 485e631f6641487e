package models

import "strings"

// Quantization describes how a checkpoint stores its weights.
type Quantization struct {
	// Method is the quantization_config.quant_method (or the request's
	// quantization), "" when the weights are in the model dtype.
	Method string `json:"method"`
	// Format is the stored weight format: "fp8", "int8", "int4", "fp4",
	// "nf4", or "" for the model dtype.
	Format string `json:"weight_format,omitempty"`
	// BitsPerWeight is the storage cost of one quantized weight in bits,
	// scales and zero points included (e.g. 4.25 for MXFP4: 4-bit values
	// plus one 8-bit scale per 32).
	BitsPerWeight float64 `json:"bits_per_weight,omitempty"`
	// ExpertsOnly is true when only the MoE expert weights are quantized
	// (gpt-oss's MXFP4 checkpoints).
	ExpertsOnly bool `json:"experts_only,omitempty"`
	// RestBitsPerWeight, with ExpertsOnly, is the storage cost in bits of
	// the other linear weights when they are quantized too, in another
	// format (DeepSeek-V4: MXFP4 experts, block-fp8 attention and shared
	// experts); 0 means the model dtype.
	RestBitsPerWeight float64 `json:"rest_bits_per_weight,omitempty"`
	// KVCacheFP8 is true when the checkpoint quantizes the KV cache to
	// fp8 too (a ModelOpt hf_quant_config's kv_cache_quant_algo "FP8"):
	// TensorRT-LLM then keeps its cache in fp8 unless told otherwise
	// (tensorrt_llm QuantConfig.kv_cache_quant_algo sets QuantMode
	// FP8_KV_CACHE; calc applies it for engine "trtllm").
	KVCacheFP8 bool `json:"-"`
	// Excluded lists the modules the checkpoint leaves unquantized, as its
	// quantization_config gives them (ModelOpt exclude_modules or ignore,
	// compressed-tensors ignore): fnmatch wildcards, or "re:" regular
	// expressions. markKept turns them into each layer's Keep.
	Excluded []string `json:"-"`
	// AllWeights is true when embeddings and the LM head are quantized too
	// (GGUF files).
	AllWeights bool `json:"all_weights,omitempty"`
	// Activations is the format the matmuls run in when it differs from the
	// model dtype: "fp8" (W8A8-FP8), "int8" (W8A8-INT8) or "" (weight-only
	// quantization dequantizes to the model dtype).
	Activations string `json:"activation_format,omitempty"`
}

// Quantized reports whether any weight is stored below the model dtype.
func (q Quantization) Quantized() bool { return q.BitsPerWeight > 0 }

// Bits per weight of the common group-wise formats. A g-wise group of 4-bit
// values carries one 16-bit scale (and, for asymmetric AWQ/GPTQ, a 4-bit
// zero point): 4 + 16/g + 4/g bits (AutoAWQ and AutoGPTQ storage layouts).
func groupBits(bits, group float64, zeros bool) float64 {
	if group <= 0 {
		return bits
	}
	b := bits + 16/group
	if zeros {
		b += bits / group
	}
	return b
}

// GGUF bits per weight, from the file sizes llama.cpp's quantize tool lists
// for Llama-3-8B (8.03e9 parameters): Q4_0 4.34 GiB, Q4_K_M 4.58 GiB,
// Q5_K_M 5.33 GiB, Q6_K 6.14 GiB, Q8_0 7.96 GiB, F16 14.96 GiB
// (ggml-org/llama.cpp tools/quantize/quantize.cpp, QUANT_OPTIONS). Bits =
// GiB * 2^30 * 8 / 8.03e9; they cover every tensor, embeddings included.
var ggufBits = map[string]float64{
	"q4_0":   4.64,
	"q4_k_m": 4.90,
	"q5_k_m": 5.70,
	"q6_k":   6.57,
	"q8_0":   8.52,
	"f16":    16,
}

// NamedQuantization returns the quantization a request can ask for by name
// when the checkpoint is unquantized (vLLM's --quantization for online
// quantization, or a GGUF type for llama.cpp). ok is false for unknown names.
func NamedQuantization(name string) (q Quantization, ok bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	switch n {
	case "", "none", "auto":
		return Quantization{}, true
	case "fp8":
		// vLLM's online fp8: per-tensor e4m3 weights, dynamic per-token
		// activations; embeddings and LM head stay in the model dtype.
		return Quantization{Method: "fp8", Format: "fp8", BitsPerWeight: 8, Activations: "fp8"}, true
	case "int8", "w8a8":
		return Quantization{Method: "int8", Format: "int8", BitsPerWeight: 8, Activations: "int8"}, true
	case "awq", "gptq", "int4", "w4a16":
		return Quantization{Method: n, Format: "int4", BitsPerWeight: groupBits(4, 128, true)}, true
	case "bitsandbytes", "nf4":
		// NF4 with double-quantized absmax: 4 + 8/64 + 32/(64*256) bits.
		return Quantization{Method: "bitsandbytes", Format: "nf4", BitsPerWeight: 4 + 8.0/64 + 32.0/(64*256)}, true
	case "mxfp4":
		return Quantization{Method: "mxfp4", Format: "fp4", BitsPerWeight: 4.25, ExpertsOnly: true}, true
	case "nvfp4":
		// NVFP4: 4-bit values, one fp8 scale per 16 (NVIDIA ModelOpt).
		return Quantization{Method: "nvfp4", Format: "fp4", BitsPerWeight: 4.5, Activations: "fp4"}, true
	}
	if b, ok := ggufBits[n]; ok {
		if n == "f16" {
			return Quantization{}, true
		}
		format := "int4"
		if b > 7 {
			format = "int8"
		}
		return Quantization{Method: "gguf-" + n, Format: format, BitsPerWeight: b, AllWeights: true}, true
	}
	return Quantization{}, false
}

// QuantizationNames lists the names NamedQuantization accepts (a shared
// list, not to be modified: a new slice at each call would link its array
// type's equality function into the .wasm engines).
func QuantizationNames() []string { return quantizationNames[:] }

var quantizationNames = [...]string{"none", "fp8", "int8", "awq", "gptq", "bitsandbytes", "mxfp4", "nvfp4", "q4_0", "q4_k_m", "q5_k_m", "q6_k", "q8_0", "f16"}

// parseQuantization reads a quantization_config object. An unknown method
// returns ok=false so the importer can report the field.
func parseQuantization(q cfg) (Quantization, bool) {
	if q == nil {
		return Quantization{}, true
	}
	method := q.str("quant_method")
	switch method {
	case "fp8", "fbgemm_fp8", "ptpc_fp8":
		// Block-wise fp8 (DeepSeek-V3: 128x128 blocks, fp32 scales) adds
		// 32/16384 bits; per-tensor and per-channel scales are negligible.
		bits := 8.0
		if bs := q.ints("weight_block_size"); len(bs) == 2 && bs[0] > 0 && bs[1] > 0 {
			bits += 32 / float64(bs[0]*bs[1])
		}
		return Quantization{Method: "fp8", Format: "fp8", BitsPerWeight: bits, Activations: "fp8"}, true
	case "modelopt", "modelopt_fp4":
		algo := q.str("quant_algo")
		if algo == "mixed_precision" {
			return mixedModelOpt(q), true
		}
		kv := strings.EqualFold(q.str("kv_cache_quant_algo"), "fp8")
		// exclude_modules in hf_quant_config.json, ignore in config.json
		// (vLLM ModelOptQuantConfigBase.from_config).
		ex := q.strs("exclude_modules")
		if ex == nil {
			ex = q.strs("ignore")
		}
		if strings.Contains(algo, "fp4") || method == "modelopt_fp4" {
			return Quantization{Method: "modelopt", Format: "fp4", BitsPerWeight: 4.5, Activations: "fp4", KVCacheFP8: kv, Excluded: ex}, true
		}
		return Quantization{Method: "modelopt", Format: "fp8", BitsPerWeight: 8, Activations: "fp8", KVCacheFP8: kv, Excluded: ex}, true
	case "compressed-tensors":
		return parseCompressedTensors(q), true
	case "awq", "awq_marlin":
		bits := float64(q.int(4, "bits", "w_bit"))
		group := float64(q.int(128, "group_size", "q_group_size"))
		return Quantization{Method: "awq", Format: intFormat(bits), BitsPerWeight: groupBits(bits, group, q.boolean("zero_point", true))}, true
	case "gptq", "gptq_marlin":
		bits := float64(q.int(4, "bits"))
		group := float64(q.int(128, "group_size"))
		return Quantization{Method: "gptq", Format: intFormat(bits), BitsPerWeight: groupBits(bits, group, !q.boolean("sym", true))}, true
	case "bitsandbytes":
		if q.boolean("load_in_8bit", false) {
			return Quantization{Method: "bitsandbytes", Format: "int8", BitsPerWeight: 8}, true
		}
		bits := 4 + 32.0/64 // one fp32 absmax per 64-value block
		if q.boolean("bnb_4bit_use_double_quant", false) {
			bits = 4 + 8.0/64 + 32.0/(64*256)
		}
		return Quantization{Method: "bitsandbytes", Format: "nf4", BitsPerWeight: bits}, true
	case "mxfp4":
		// OCP MX: 32 fp4 (e2m1) values share one 8-bit exponent scale.
		experts := false
		for _, m := range q.strs("modules_to_not_convert") {
			if strings.Contains(m, "self_attn") {
				experts = true
			}
		}
		return Quantization{Method: "mxfp4", Format: "fp4", BitsPerWeight: 4.25, ExpertsOnly: experts}, true
	}
	return Quantization{}, false
}

// v4Quantization returns DeepSeek-V4's mixed checkpoint format. Its
// quant_method "fp8" covers the linear and attention weights (128x128
// block fp8); the routed experts are stored as config.json's expert_dtype
// says: "fp4" (the default) is MXFP4, 4.25 bits (vLLM
// vllm/model_executor/models/deepseek_v4.py DeepseekV4FP8Config:
// Mxfp4MoEMethod for expert_dtype fp4, Fp8MoEMethod for fp8), and a
// ModelOpt export with moe_quant_algo NVFP4 (nvidia/DeepSeek-V4-*-NVFP4)
// stores them as NVFP4, 4.5 bits.
func v4Quantization(q Quantization, qc cfg, expertDtype string) Quantization {
	if q.Method != "fp8" {
		return q
	}
	rest := q.BitsPerWeight
	switch {
	case qc.str("moe_quant_algo") == "nvfp4":
		return Quantization{Method: "fp8", Format: "fp4", BitsPerWeight: 4.5, ExpertsOnly: true, RestBitsPerWeight: rest, Activations: "fp8"}
	case expertDtype == "" || expertDtype == "fp4":
		return Quantization{Method: "fp8", Format: "fp4", BitsPerWeight: 4.25, ExpertsOnly: true, RestBitsPerWeight: rest, Activations: "fp8"}
	}
	return q
}

func intFormat(bits float64) string {
	if bits <= 4 {
		return "int4"
	}
	return "int8"
}

// parseCompressedTensors reads the first config group of a
// compressed-tensors (llm-compressor) quantization_config.
func parseCompressedTensors(q cfg) Quantization {
	groups := q.obj("config_groups")
	var w, a cfg
	for _, g := range groups {
		if gm, ok := g.(map[string]any); ok {
			w = cfg(gm).obj("weights")
			a = cfg(gm).obj("input_activations")
			break
		}
	}
	out := Quantization{Method: "compressed-tensors", Excluded: q.strs("ignore")}
	if w == nil {
		out.Format, out.BitsPerWeight, out.Activations = "fp8", 8, "fp8"
		return out
	}
	bits := float64(w.int(8, "num_bits"))
	isFloat := w.str("type") == "float"
	group := float64(w.int(0, "group_size"))
	switch {
	case isFloat && bits == 8:
		out.Format, out.BitsPerWeight = "fp8", 8
	case isFloat && bits == 4:
		// NVFP4 in compressed-tensors: one fp8 scale per group of 16.
		out.Format, out.BitsPerWeight = "fp4", 4.5
		if group > 0 {
			out.BitsPerWeight = 4 + 8/group
		}
	default:
		out.Format = intFormat(bits)
		out.BitsPerWeight = groupBits(bits, group, !w.boolean("symmetric", true))
	}
	if a != nil {
		ab := a.int(0, "num_bits")
		switch {
		case ab == 8 && a.str("type") == "float":
			out.Activations = "fp8"
		case ab == 8:
			out.Activations = "int8"
		case ab == 4 && a.str("type") == "float":
			out.Activations = "fp4"
		}
	}
	return out
}

// mixedModelOpt reads a ModelOpt MIXED_PRECISION quantization_config, whose
// quantized_layers name each module's algorithm (nvidia/Qwen3.6-35B-A3B-NVFP4:
// FP8 attention, W4A16_NVFP4 feed-forwards). The engine keeps one format per
// checkpoint, so it takes the feed-forwards' (the bulk of the weights):
// NVFP4 when any module is NVFP4 (4.5 bits; weight-only when every NVFP4
// module is W4A16), FP8 otherwise.
func mixedModelOpt(q cfg) Quantization {
	fp4, w4a16 := false, true
	for _, v := range q.obj("quantized_layers") {
		l, ok := v.(map[string]any)
		if !ok {
			continue
		}
		a := cfg(l).str("quant_algo")
		if strings.Contains(a, "fp4") {
			fp4 = true
			w4a16 = w4a16 && strings.Contains(a, "w4a16")
		}
	}
	if !fp4 {
		return Quantization{Method: "modelopt", Format: "fp8", BitsPerWeight: 8, Activations: "fp8"}
	}
	out := Quantization{Method: "modelopt", Format: "fp4", BitsPerWeight: 4.5, Activations: "fp4"}
	if w4a16 {
		out.Activations = ""
	}
	return out
}
