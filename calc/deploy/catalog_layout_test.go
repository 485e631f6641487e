package deploy

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/kvcache"
	"github.com/modelrefs/throughput/models"
)

// The cache layouts of the catalog's models (docs/model-catalog.md), worked
// by hand from each entry's config: first one table of KV bytes per token
// and state bytes per sequence at tensor-parallel size 1, then one table of
// whole layouts (block size, groups, per-GPU bytes) as the report states
// them, then the checks that read more than a layout (weights, decode
// steps, published start-up logs).
//
// Attention layers keep K and V: layers * 2 * kv_heads * head_dim * 2 B in
// bf16. MLA layers keep one latent of kv_lora_rank + qk_rope_head_dim
// values (vLLM MLACommonImpl). Mamba-2 layers keep a conv state of
// (d_inner + 2 * n_groups * d_state) * (conv_kernel - 1) values and an SSM
// state of heads * head_dim * d_state values (vLLM 0.19
// MambaStateShapeCalculator.mamba2_state_shape), both in bf16 when the
// config names no mamba_ssm_cache_dtype.

// kvCase is a catalog model with its hand-derived KV bytes per token and
// state bytes per sequence (tp=1, bf16).
type kvCase struct {
	name        string
	model       string
	perToken    float64
	statePerSeq float64
}

// kvCases are the catalog's models with their KV bytes per token and state
// bytes per sequence at tensor-parallel size 1 and the default dtype (bf16:
// vLLM's dtype "auto" serves OLMo 2's float32 checkpoints in bfloat16,
// calc/deploy/resolve.go resolveDtypes), grouped by the catalog part that added
// them.
var kvCases = []kvCase{
	// Part 4 (2026).
	//
	// OLMo 2 7B: 32 layers of full multi-head attention (32 KV heads of
	// 4096 / 32 = 128): 32 * 2 * 32 * 128 * 2 = 524,288.
	{"OLMo 2 7B MHA", "allenai/OLMo-2-1124-7B", 524_288, 0},
	// OLMo 2 13B: 40 layers of 40 KV heads of 128: 40 * 2 * 40 * 128 *
	// 2 = 819,200.
	{"OLMo 2 13B MHA", "olmo-2-13b", 819_200, 0},
	// OLMo 2 32B: 64 layers of GQA, 8 KV heads of 5120 / 40 = 128:
	// 64 * 2 * 8 * 128 * 2 = 262,144.
	{"OLMo 2 32B GQA", "olmo-2-32b", 262_144, 0},
	// Ministral 3 3B: text_config 26 layers, 8 KV heads of head_dim 128
	// (not 3072 / 32 = 96): 26 * 2 * 8 * 128 * 2 = 106,496.
	{"Ministral 3 3B", "ministral-3-3b", 106_496, 0},
	// Mistral Small 3.1: text_config 40 layers, 8 KV heads of 128,
	// sliding_window null (full attention): 40 * 2 * 8 * 128 * 2 =
	// 163,840. The pixtral tower keeps no cache.
	{"Mistral Small 3.1", "mistral-small-3.1", 163_840, 0},
	// Seed-OSS-36B: 64 layers of 8 KV heads of head_dim 128 (not 5120 /
	// 80 = 64): 64 * 2 * 8 * 128 * 2 = 262,144.
	{"Seed-OSS 36B", "seed-oss-36b", 262_144, 0},
	// ERNIE-4.5-0.3B: 18 layers of 2 KV heads of 128: 18 * 2 * 2 * 128
	// * 2 = 18,432.
	{"ERNIE 4.5 0.3B", "ernie-4.5-0.3b", 18_432, 0},
	// ERNIE-4.5-21B-A3B: 28 layers of 4 KV heads of 128: 28 * 2 * 4 *
	// 128 * 2 = 57,344 (the MoE blocks keep no cache).
	{"ERNIE 4.5 21B-A3B", "ernie-4.5-21b-a3b", 57_344, 0},
	// Nemotron-H 8B: 4 attention blocks of 8 KV heads of 128: 4 * 2 * 8
	// * 128 * 2 = 16,384 per token. 24 Mamba-2 blocks, d_inner =
	// mamba_num_heads 128 * mamba_head_dim 64 = 8,192, n_groups 8,
	// ssm_state_size 128, conv_kernel 4:
	//   conv (8,192 + 2 * 8 * 128) * 3 = 30,720 values
	//   SSM  128 * 64 * 128 = 1,048,576 values
	//   (30,720 + 1,048,576) * 2 B = 2,158,592 B per layer
	//   24 * 2,158,592 = 51,806,208 B per sequence.
	// The 24 squared-ReLU MLP blocks keep nothing.
	{"Nemotron-H 8B", "nvidia/Nemotron-H-8B-Base-8K", 16_384, 51_806_208},
	// Nemotron 3 Nano 4B: 4 attention blocks of 8 KV heads of 128:
	// 16,384 per token. 21 Mamba-2 blocks, d_inner = 96 * 80 = 7,680:
	//   conv (7,680 + 2 * 8 * 128) * 3 = 29,184 values
	//   SSM  96 * 80 * 128 = 983,040 values
	//   (29,184 + 983,040) * 2 B = 2,024,448 B per layer
	//   21 * 2,024,448 = 42,513,408 B per sequence.
	{"Nemotron 3 Nano 4B", "nemotron-3-nano-4b", 16_384, 42_513_408},

	// Part 5 (2026).
	//
	// LFM2-1.2B: 6 attention layers of 8 KV heads of 2048 / 32 = 64:
	// 6 * 2 * 8 * 64 * 2 = 12,288 B per token. 10 short-conv layers,
	// each a conv state of conv_dim 2048 x (conv_L_cache 3 - 1) in bf16
	// (vLLM short_conv_state_shape): 2048 * 2 * 2 = 8,192 B, so 10 *
	// 8,192 = 81,920 B per sequence.
	{"LFM2 1.2B", "LiquidAI/LFM2-1.2B", 12_288, 81_920},
	// SmolLM3-3B: 36 layers of 4 KV heads of 128 (NoPE layers cache
	// like the others): 36 * 2 * 4 * 128 * 2 = 73,728.
	{"SmolLM3 3B", "smollm3-3b", 73_728, 0},
	// Devstral Small 2507 and Magistral Small 2509: 40 layers of 8 KV
	// heads of 128, no sliding window: 40 * 2 * 8 * 128 * 2 = 163,840.
	{"Devstral Small 2507", "devstral-small-2507", 163_840, 0},
	{"Magistral Small 2509", "magistral-small-2509", 163_840, 0},
	// ERNIE-4.5-21B-A3B-Thinking: 28 layers of 4 KV heads of 128:
	// 28 * 2 * 4 * 128 * 2 = 57,344.
	{"ERNIE 4.5 21B-A3B Thinking", "ernie-4.5-21b-a3b-thinking", 57_344, 0},
	// Ministral 3 3B Instruct: 26 layers of 8 KV heads of head_dim 128:
	// 26 * 2 * 8 * 128 * 2 = 106,496.
	{"Ministral 3 3B Instruct", "ministral-3-3b-instruct", 106_496, 0},

	// Part 6: commonly benchmarked checkpoints.
	//
	// Llama 2 7B Chat: 32 layers of 32 KV heads (MHA) of 4096 / 32 = 128:
	// 32 * 2 * 32 * 128 * 2 = 524,288.
	{"Llama 2 7B Chat", "meta-llama/Llama-2-7b-chat-hf", 524_288, 0},
	// Llama 2 70B Chat: 80 layers of 8 KV heads of 128:
	// 80 * 2 * 8 * 128 * 2 = 327,680.
	{"Llama 2 70B Chat", "llama-2-70b-chat", 327_680, 0},
	// Llama 3.2 1B: 16 layers of 8 KV heads of head_dim 64:
	// 16 * 2 * 8 * 64 * 2 = 32,768.
	{"Llama 3.2 1B", "meta-llama/Llama-3.2-1B", 32_768, 0},
	// Mistral 7B Instruct v0.2: 32 layers of 8 KV heads of 128, no
	// sliding window: 32 * 2 * 8 * 128 * 2 = 131,072.
	{"Mistral 7B Instruct v0.2", "mistral-7b-instruct-v0.2", 131_072, 0},
	// Mixtral 8x22B: 56 layers of 8 KV heads of 6144 / 48 = 128:
	// 56 * 2 * 8 * 128 * 2 = 229,376.
	{"Mixtral 8x22B v0.1", "mistralai/Mixtral-8x22B-v0.1", 229_376, 0},
	// Phi-3.5 mini: 32 layers of 32 KV heads of 3072 / 32 = 96:
	// 32 * 2 * 32 * 96 * 2 = 393,216.
	{"Phi-3.5 mini", "phi-3.5-mini", 393_216, 0},
	// Gemma 2B: 18 layers of 1 KV head (multi-query) of 256:
	// 18 * 2 * 1 * 256 * 2 = 18,432.
	{"Gemma 2B", "google/gemma-2b", 18_432, 0},
	// Gemma 7B: 28 layers of 16 KV heads (multi-head) of 256:
	// 28 * 2 * 16 * 256 * 2 = 458,752.
	{"Gemma 7B", "gemma-7b", 458_752, 0},
	// Mixtral 8x7B Instruct FP8 (NVIDIA): 32 layers of 8 KV heads of
	// 128 in bf16 (the checkpoint's FP8 covers weights only here):
	// 32 * 2 * 8 * 128 * 2 = 131,072.
	{"Mixtral 8x7B Instruct FP8", "nvidia/Mixtral-8x7B-Instruct-v0.1-FP8", 131_072, 0},
	// Qwen2.5 Coder 7B / 32B Instruct: 28 layers of 4 KV heads and 64
	// layers of 8 KV heads, of 128: 28 * 2 * 4 * 128 * 2 = 57,344 and
	// 64 * 2 * 8 * 128 * 2 = 262,144.
	{"Qwen2.5 Coder 7B Instruct", "qwen2.5-coder-7b", 57_344, 0},
	{"Qwen2.5 Coder 32B Instruct", "qwen2.5-coder-32b", 262_144, 0},
	// DeepSeek-R1-0528 (and its NVFP4 exports): 61 MLA layers of
	// 512 + 64 values: 61 * 576 * 2 = 70,272.
	{"DeepSeek-R1-0528", "deepseek-r1-0528", 70_272, 0},
	{"DeepSeek-R1 NVFP4", "nvidia/DeepSeek-R1-FP4", 70_272, 0},

	// Part 7: the Mistral 3 / 4, Phi-4 reasoning and OLMo 3 entries.
	// Mistral Large 3 and Mistral Small 4 run as DeepSeek-V3-style MLA
	// models (vLLM models/mistral_large_3.py over deepseek_v2.py).
	//
	// Mistral Large 3: 61 MLA layers of 512 + 64 values:
	// 61 * 576 * 2 = 70,272 (the same latent as DeepSeek-V3).
	{"Mistral Large 3", "mistralai/Mistral-Large-3-675B-Instruct-2512", 70_272, 0},
	// Mistral Small 4: 36 MLA layers of 256 + 64 values:
	// 36 * 320 * 2 = 23,040.
	{"Mistral Small 4", "mistral-small-4", 23_040, 0},
	// Ministral 3 8B: 34 layers of 8 KV heads of head_dim 128:
	// 34 * 2 * 8 * 128 * 2 = 139,264.
	{"Ministral 3 8B Base", "mistralai/Ministral-3-8B-Base-2512", 139_264, 0},
	{"Ministral 3 8B Reasoning", "ministral-3-8b-reasoning", 139_264, 0},
	// Ministral 3 14B: 40 layers of 8 KV heads of head_dim 128:
	// 40 * 2 * 8 * 128 * 2 = 163,840.
	{"Ministral 3 14B Base", "mistralai/Ministral-3-14B-Base-2512", 163_840, 0},
	{"Ministral 3 14B Reasoning", "ministral-3-14b-reasoning", 163_840, 0},
	// Phi-4-reasoning (-plus): 40 layers of 10 KV heads of 5120 / 40 =
	// 128: 40 * 2 * 10 * 128 * 2 = 204,800.
	{"Phi-4-reasoning", "microsoft/Phi-4-reasoning", 204_800, 0},
	{"Phi-4-reasoning-plus", "phi-4-reasoning-plus", 204_800, 0},
	// Phi-4-mini-reasoning: 32 layers of 8 KV heads of 3072 / 24 = 128:
	// 32 * 2 * 8 * 128 * 2 = 131,072.
	{"Phi-4-mini-reasoning", "phi-4-mini-reasoning", 131_072, 0},
	// OLMo 3 7B: 32 layers (24 sliding, 8 full, all as wide) of 32 KV
	// heads (MHA) of 128: 32 * 2 * 32 * 128 * 2 = 524,288.
	{"OLMo 3 7B", "allenai/Olmo-3-1025-7B", 524_288, 0},
	{"OLMo 3 7B Think", "olmo-3-7b-think", 524_288, 0},
	// OLMo 3 32B: 64 layers (48 sliding, 16 full) of 8 KV heads of 128:
	// 64 * 2 * 8 * 128 * 2 = 262,144.
	{"OLMo 3 32B", "allenai/Olmo-3-1125-32B", 262_144, 0},

	// Part 8: the models without a new layer kind.
	//
	// Hunyuan-A13B: 32 layers of 8 KV heads of 128 (use_cla false, so
	// every layer keeps its own K and V): 32 * 2 * 8 * 128 * 2 = 131,072.
	{"Hunyuan-A13B", "hunyuan-a13b", 131_072, 0},
	// MiMo-V2-Flash: K of 192 and V of 128 values a head (vLLM's
	// DiffKV spec). 9 full layers of 4 KV heads: 9 * 4 * (192 + 128)
	// * 2 = 23,040; 39 sliding layers of 8 KV heads: 39 * 8 * 320 * 2
	// = 199,680 a token, up to their 128-token window: 222,720.
	{"MiMo-V2-Flash", "mimo-v2-flash", 222_720, 0},
	// Kimi-Linear 48B-A3B Base: the instruct model's layout (the Kimi-Linear
	// cases of TestCacheLayout): 8,064 B per token, 43,417,600 B of state.
	{"Kimi-Linear Base", "moonshotai/Kimi-Linear-48B-A3B-Base", 8_064, 43_417_600},

	// The Command R7B and Granite 4.0 entries.
	//
	// Command R7B: 32 layers (24 sliding, 8 global), 8 KV heads of 128:
	// 32 * 2 * 8 * 128 * 2 = 131,072 per token.
	{"Command R7B", "CohereLabs/c4ai-command-r7b-12-2024", 131_072, 0},
	// Command A and Command A Vision (the same text model): 64 layers
	// (48 sliding, 16 global), 8 KV heads of 128: 64 * 2 * 8 * 128 * 2
	// = 262,144 per token; the SigLIP tower keeps no cache.
	{"Command A", "command-a", 262_144, 0},
	{"Command A Vision", "command-a-vision", 262_144, 0},
	// Granite 4.0 H Small: 4 attention layers of 8 KV heads of 128:
	// 4 * 2 * 8 * 128 * 2 = 16,384 per token. 36 Mamba-2 layers,
	// d_inner = 2 * 4,096 = 8,192, 1 group, d_state 128, conv 4, 128
	// heads of 64:
	//   conv (8,192 + 2 * 128) * 3 = 25,344 values
	//   SSM  128 * 64 * 128       = 1,048,576 values
	//   (25,344 + 1,048,576) * 2 B = 2,147,840 B per layer
	//   36 * 2,147,840 = 77,322,240 B per sequence.
	{"Granite 4.0 H Small", "ibm-granite/granite-4.0-h-small", 16_384, 77_322_240},
	// Granite 4.0 350M: 28 attention layers of 4 KV heads of 64:
	// 28 * 2 * 4 * 64 * 2 = 28,672 per token.
	{"Granite 4.0 350M", "granite-4.0-350m", 28_672, 0},
}

// TestKVBytesPerTokenCatalog: kvCases, each resolved on bigAccelerator.
func TestKVBytesPerTokenCatalog(t *testing.T) {
	t.Parallel()
	assertKVPerTokenAndState(t, kvCases)
}

// assertKVPerTokenAndState resolves each model on a large accelerator at a
// 4,096-token context and compares its layout with the hand derivation.
func assertKVPerTokenAndState(t *testing.T, tests []kvCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, err := Resolve(spec.Request{Model: tc.model, Hardware: spec.HardwareRef{Custom: &bigAccelerator}, MaxModelLen: spec.Int(4096)})
			require.NoError(t, err)
			lay := d.Layout()
			assert.InDelta(t, tc.perToken, lay.BytesPerToken, 1e-6)
			assert.InDelta(t, tc.statePerSeq, lay.StateBytes, 1e-6)
		})
	}
}

// layoutCase is a request and the cache layout its report should state,
// worked by hand. A figure left nil (or 0, "", nil map) is not checked.
type layoutCase struct {
	name string
	req  spec.Request
	// KVCache.BytesPerToken, BytesPerTokenPerGPU and StateBytesPerSequence.
	perToken, perGPU, statePerSeq *float64
	block                         int              // KVCache.BlockSize
	nGroups                       int              // len(KVCache.Groups), required before the rest
	groups                        map[string][]int // the layers of each group, by kind
	windows                       map[int]bool     // the groups' windows (0: full attention)
	arch                          string           // Model.Architecture
	more                          func(t *testing.T, rep spec.Report)
}

// gemma3nE4BConfig is the E4B-shaped Gemma 3n config of TestCacheLayout's
// "Gemma 3n pasted E4B-shaped config" case.
func gemma3nE4BConfig() map[string]any {
	types := make([]any, 35)
	inter := make([]any, 35)
	for i := range types {
		types[i] = "sliding_attention"
		if (i+1)%5 == 0 {
			types[i] = "full_attention"
		}
		inter[i] = 16384.0
	}
	return map[string]any{
		"architectures": []any{"Gemma3nForConditionalGeneration"}, "model_type": "gemma3n",
		"text_config": map[string]any{
			"model_type": "gemma3n_text", "vocab_size": 262400.0, "vocab_size_per_layer_input": 262144.0,
			"hidden_size": 2048.0, "hidden_size_per_layer_input": 256.0, "intermediate_size": inter,
			"num_hidden_layers": 35.0, "num_attention_heads": 8.0, "num_key_value_heads": 2.0, "head_dim": 256.0,
			"max_position_embeddings": 32768.0, "sliding_window": 512.0, "num_kv_shared_layers": 15.0,
			"altup_num_inputs": 4.0, "laurel_rank": 64.0, "layer_types": types,
		},
	}
}

// olmo3Config is the OLMo 3-shaped config of TestCacheLayout's "OLMo 3
// pasted config" case.
func olmo3Config() map[string]any {
	slide, full := "sliding_attention", "full_attention"
	return map[string]any{
		"architectures": []any{"Olmo3ForCausalLM"}, "model_type": "olmo3",
		"hidden_size": 512.0, "intermediate_size": 1024.0, "num_hidden_layers": 8.0,
		"num_attention_heads": 8.0, "num_key_value_heads": 2.0, "max_position_embeddings": 4096.0,
		"sliding_window": 64.0, "vocab_size": 1000.0, "tie_word_embeddings": false, "torch_dtype": "bfloat16",
		"layer_types": []any{slide, slide, slide, full, slide, slide, slide, full},
	}
}

// layoutCases are the layouts, with the derivation of each above it.
var layoutCases = []layoutCase{
	// LFM2-1.2B's paged layout: an attention page of one layer holds 16 tokens
	// of 2 * 8 * 64 * 2 = 2,048 B, 32,768 B, which already holds one 8,192 B
	// conv state, so the block stays 16 tokens (16 * ceil(8,192 / (16 *
	// 2,048)) = 16). Groups: 6 attention and 10 conv layers; 10 >= 1.25 * 6,
	// so groups of 6: one attention group and ceil(10 / 6) = 2 state groups of
	// 5 (vLLM's uniform-page grouping). At tp=2 each rank keeps 4 of the 8 KV
	// heads (6,144 B per token) and half of every conv state's channels.
	{
		name: "LFM2 1.2B", req: spec.Request{Model: "lfm2-1.2b", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192)},
		perToken: spec.Float(12_288), statePerSeq: spec.Float(81_920), block: 16,
		groups: map[string][]int{"full_attention": {6}, "state": {5, 5}}, arch: "hybrid",
	},
	{
		name: "LFM2 1.2B tp=2", req: spec.Request{Model: "lfm2-1.2b", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192), TensorParallelSize: spec.Int(2)},
		perGPU: spec.Float(6_144),
	},

	// Gemma 4 E2B (vLLM gemma4.py): of 35 layers only the first 15 keep a
	// cache; layers 15-34 read the cache of the last earlier layer of their
	// type (num_kv_shared_layers 20, kv_sharing_target_layer_name). Of those
	// 15, layers 4, 9 and 14 are full attention (1 KV head of global_head_dim
	// 512) and 12 slide over 512 tokens (1 KV head of 256):
	//
	//	sliding: 12 * 2 * 1 * 256 * 2 B = 12 * 1,024 = 12,288 B per token
	//	full:     3 * 2 * 1 * 512 * 2 B =  3 * 2,048 =  6,144 B per token
	//	total                                         = 18,432 B per token
	//
	// Pages are 16 tokens of the widest layer (2,048 B): 32,768 B; a sliding
	// block then holds 32 tokens. 12 >= 1.25 * 3, so groups of 3: one full
	// group and four sliding groups.
	{
		name: "Gemma 4 E2B shared KV", req: spec.Request{Model: "gemma-4-e2b", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192)},
		perToken: spec.Float(18_432), statePerSeq: spec.Float(0),
		groups: map[string][]int{"full_attention": {3}, "sliding_attention": {3, 3, 3, 3}},
		more: func(t *testing.T, rep spec.Report) {
			// The weights hold the per-layer embeddings too: 4,647,449,891
			// parameters (models/gemma4_ple_test.go) in bf16 = 9,294,899,782 B.
			assert.InEpsilon(t, 9_294_899_782, rep.Memory.WeightsBytes, 1e-4)
		},
	},

	// OLMo 3 (model_type olmo3, served by vLLM's olmo2.py): a layer whose
	// layer_types entry is "sliding_attention" attends over sliding_window
	// tokens (Olmo2Attention: per_layer_sliding_window), the others over the
	// whole sequence. No Hub config.json of OLMo 3 was found to put in the
	// catalog, so this pastes an OLMo 3-shaped config (the toy of a public
	// parity harness: 8 layers of 512, 8 heads / 2 KV heads of 64, window 64 (its context
	// raised from 1,024 to 4,096 to fit the default workload),
	// full attention at layers 3 and 7) and checks the pattern a pasted
	// Olmo-3 config gets:
	//
	//	sliding: 6 * 2 * 2 * 64 * 2 B = 6 * 512 = 3,072 B per token
	//	full:    2 * 2 * 2 * 64 * 2 B = 2 * 512 = 1,024 B per token
	//
	// Both types are as wide, so blocks stay 16 tokens; 6 >= 1.25 * 2, so
	// groups of 2: one full group and three sliding groups of 2.
	{
		name: "OLMo 3 pasted config", req: spec.Request{ModelConfig: olmo3Config(), Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(4096)},
		perToken: spec.Float(4_096), block: 16,
		groups:  map[string][]int{"full_attention": {2}, "sliding_attention": {2, 2, 2}},
		windows: map[int]bool{0: true, 64: true},
	},

	// Gemma 3n (vLLM gemma3n.py Gemma3nAttention): the last
	// num_kv_shared_layers layers read the cache of layer first-2 (sliding) or
	// first-1 (full) and keep none (kv_sharing_target_layer_name), so only the
	// first num_hidden_layers - num_kv_shared_layers layers cost cache. No Hub
	// config.json of Gemma 3n was found to put in the catalog; this pastes the
	// E4B-shaped text_config a public loader's tests restate (code-index file
	// id 58141470368: 35 layers of 2048, 8 heads / 2 KV heads of 256, window
	// 512, num_kv_shared_layers 15, hidden_size_per_layer_input 256), with
	// Gemma3nTextConfig's default layer_types (every 5th layer full) and
	// intermediate_size as the per-layer list Gemma 3n configs carry:
	//
	//	cached layers: 35 - 15 = 20, full at 4, 9, 14, 19, the other 16 sliding
	//	per layer:     2 * 2 * 256 * 2 B = 2,048 B per token
	//	total:         20 * 2,048 = 40,960 B per token
	//
	// Both types are as wide; 16 >= 1.25 * 4, so groups of 4: one full group
	// and four sliding groups. The per-layer embeddings count in the weights:
	// table 262,144 * 35 * 256 = 2,348,810,240.
	{
		name: "Gemma 3n pasted E4B-shaped config", req: spec.Request{ModelConfig: gemma3nE4BConfig(), Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192)},
		perToken: spec.Float(40_960),
		groups:   map[string][]int{"full_attention": {4}, "sliding_attention": {4, 4, 4, 4}},
		more: func(t *testing.T, _ spec.Report) {
			m, err := models.FromConfig(gemma3nE4BConfig())
			require.NoError(t, err)
			assert.Equal(t, int64(2_348_810_240), m.Params.PLETable)
			assert.Equal(t, 16384, m.Intermediate)
			assert.False(t, m.Heterogeneous(), "every layer lists the same width")
		},
	},

	// Gemma 3n E2B / E4B from the catalog (vLLM gemma3n.py @034f08e65e,
	// Gemma3nAttention): the last num_kv_shared_layers layers set
	// kv_sharing_target_layer_name to the last sliding (first shared layer - 2)
	// or full (first shared layer - 1) layer before them and allocate no
	// cache. E2B shares its last 10 of 30 layers, E4B its last 15 of 35, so
	// both keep 20 cached layers: full at 4, 9, 14 and 19, the other 16
	// sliding over 512 tokens; 2 KV heads of 256 in bf16:
	//
	//	per layer  2 (K and V) * 2 * 256 * 2 B = 2,048 B per token
	//	total      20 * 2,048                  = 40,960 B per token
	//
	// Both kinds are as wide, so pages stay 16 tokens; 16 >= 1.5 * 4, so
	// groups of 4: one full group and four sliding groups. The weights are
	// the 5,445,311,360 (E2B) parameters of models/gemma3n_test.go in bf16,
	// towers included: 10,890,622,720 B.
	gemma3nCatalogCase("google/gemma-3n-E2B-it"),
	gemma3nCatalogCase("google/gemma-3n-E2B"),
	gemma3nCatalogCase("google/gemma-3n-E4B-it"),
	gemma3nCatalogCase("google/gemma-3n-E4B"),
	{
		name: "Gemma 3n gemma-3n-e2b-it weights", req: spec.Request{Model: "gemma-3n-e2b-it", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192)},
		more: func(t *testing.T, rep spec.Report) {
			assert.InEpsilon(t, 10_890_622_720, rep.Memory.WeightsBytes, 1e-6)
		},
	},

	// Kimi-Linear 48B-A3B's cache, worked by hand from its config (vLLM
	// vllm/model_executor/models/kimi_linear.py, vllm/model_executor/layers/
	// kda.py and mamba/mamba_utils.py):
	//
	//   - 7 MLA layers (full_attn_layers) keep one latent of kv_lora_rank 512 +
	//     qk_rope_head_dim 64 = 576 values per token, replicated on every
	//     tensor rank: 7 * 576 * 2 B = 8,064 B per token in bf16, on each GPU.
	//   - 20 KDA layers keep per sequence (kda_state_shape, kda_state_dtype)
	//     q, k and v conv states of 32*128 = 4,096 channels x (4 - 1) taps in
	//     bf16, 3 * 4,096 * 3 * 2 = 73,728 B, and a float32 recurrent state of
	//     32 x 128 x 128 = 524,288 values, 2,097,152 B: 2,170,880 B a layer,
	//     20 * 2,170,880 = 43,417,600 B per sequence, split across tensor
	//     ranks by heads.
	//
	// Groups (0.31's rules, largest / smallest < 1.5 or groups of the smallest
	// count): 20 >= 1.5 * 7, so groups of 7 layers, one MLA group and ceil(20
	// / 7) = 3 state groups (7, 7, 6). A page must hold one layer's state: at
	// tp=1 the MLA page is 16 tokens * 1,152 B = 18,432 B, and 16 *
	// ceil(2,170,880 / 18,432) = 16 * 118 = 1,888 tokens a block; at tp=4 a
	// rank's state is 542,720 B, 16 * ceil(542,720 / 18,432) = 16 * 30 = 480.
	// (The Base model's layout is in kvCases.)
	kimiLinearCase(1, 1_888),
	kimiLinearCase(4, 480),

	// MiMo-V2-Flash at tp=8: the full layers' 4 KV heads are replicated, one a
	// rank (vLLM max(1, 4 // 8)), the sliding layers' 8 split one a rank: 9 *
	// 320 * 2 + 39 * 320 * 2 = 5,760 + 24,960 = 30,720 bytes per token per GPU.
	// (tp=4: TestMiMoV2FlashMatchesPublishedPoolSizes.)
	{
		name: "MiMo-V2-Flash tp=8", req: spec.Request{Model: "mimo-v2-flash", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(65536), TensorParallelSize: spec.Int(8)},
		perGPU: spec.Float(30_720),
	},

	// Nemotron 3 Nano (nemotron_h, vLLM 0.19 nemotron_h.py): 52 blocks, of
	// which only the 6 attention blocks keep KV and the 23 Mamba-2 blocks a
	// state; the 23 MoE blocks keep nothing. Worked by hand from the config
	// (hidden 2688, 2 KV heads of 128, mamba_num_heads 64 x mamba_head_dim 64
	// = d_inner 4096, n_groups 8, ssm_state_size 128, conv_kernel 4,
	// mamba_ssm_cache_dtype float32, bf16 model):
	//
	//	KV per token:  6 layers * 2 (K,V) * 2 heads * 128 * 2 B     =      6,144 B
	//	conv state:    (4096 + 2*8*128) * (4-1) = 18,432 elems * 2 B =     36,864 B
	//	SSM state:     64 * 64 * 128 = 524,288 elems * 4 B (fp32)   =  2,097,152 B
	//	state/layer:                                                  2,134,016 B
	//	state/seq:     23 * 2,134,016                                = 49,082,368 B
	//	block size:    16 * ceil(2,134,016 / (16 * 1,024 B))         = 16 * 131 = 2,096
	//
	// (vLLM HybridAttentionMambaModelConfig: the attention block grows until
	// one attention page, 1,024 B per token of one layer, holds a Mamba
	// state.) Groups: 6 attention layers and 23 Mamba layers; 23 >= 1.25 * 6,
	// so groups of 6: one attention group and ceil(23/6) = 4 Mamba groups.
	{
		name: "Nemotron 3 Nano 30B-A3B", req: spec.Request{Model: "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192)},
		perToken: spec.Float(6144), statePerSeq: spec.Float(49_082_368), block: 2096, nGroups: 5,
		groups: map[string][]int{"full_attention": {6}, "state": {6, 6, 6, 5}}, arch: "hybrid+moe",
	},
	// At tp=2 each rank keeps one of the 2 KV heads and half the Mamba
	// heads and groups: 6 * 2 * 1 * 128 * 2 = 3,072 B per token per GPU,
	// and 1,067,008 B of state per layer, so the block stays
	// 16 * ceil(1,067,008 / (16 * 512)) = 2,096 tokens.
	{
		name: "Nemotron 3 Nano 30B-A3B tp=2", req: spec.Request{Model: "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192), TensorParallelSize: spec.Int(2)},
		perGPU: spec.Float(3072), statePerSeq: spec.Float(49_082_368), block: 2096,
	},

	// Nemotron-H 56B: the config names no mamba_ssm_cache_dtype, so the SSM
	// state is kept in the model dtype here (bf16):
	//
	//	KV per token:  10 * 2 * 8 heads * 128 * 2 B                         =      40,960 B
	//	state/layer:   ((16384 + 2*8*256) * 3 + 256 * 64 * 256) * 2 B
	//	             = (61,440 + 4,194,304) * 2                             =   8,511,488 B
	//	state/seq:     54 * 8,511,488                                       = 459,620,352 B
	//
	// The 54 squared-ReLU MLP blocks keep nothing.
	{
		name: "Nemotron-H 56B", req: spec.Request{Model: "nvidia/Nemotron-H-56B-Base-8K", Hardware: spec.HardwareRef{ID: "h200"}, TensorParallelSize: spec.Int(2), MaxModelLen: spec.Int(8192)},
		perToken: spec.Float(40960), statePerSeq: spec.Float(459_620_352), arch: "hybrid",
	},

	// Layers that share an earlier layer's cache (num_kv_shared_layers, vLLM
	// kv_sharing_target_layer_name) keep none: a Gemma 4 text config of 6
	// layers whose last 2 share holds 4 layers' KV, 2 * 2 * 256 * 2 B each.
	{
		name: "shared KV layers keep no cache",
		req: spec.Request{ModelConfig: map[string]any{
			"model_type": "gemma4_text", "hidden_size": 512.0, "intermediate_size": 1024.0,
			"num_hidden_layers": 6.0, "num_attention_heads": 4.0, "num_key_value_heads": 2.0,
			"head_dim": 256.0, "vocab_size": 1000.0, "max_position_embeddings": 4096.0,
			"sliding_window": 512.0, "num_kv_shared_layers": 2.0,
			"layer_types": []any{"sliding_attention", "sliding_attention", "full_attention", "sliding_attention", "sliding_attention", "full_attention"},
		}, Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(4096)},
		perToken: spec.Float(4 * 2 * 2 * 256 * 2),
	},

	// Llama 3.3 Nemotron Super 49B (DeciLM, vLLM 0.19 nemotron_nas.py): 49 of
	// its 80 blocks attend, each with 64 / n_heads_in_group 8 = 8 KV heads of
	// 128; the 31 no-op attention blocks keep no cache:
	// 49 * 2 * 8 * 128 * 2 B = 200,704 B per token, one group of 49 layers.
	{
		name: "Llama 3.3 Nemotron Super 49B", req: spec.Request{Model: "nvidia/Llama-3_3-Nemotron-Super-49B-v1", Hardware: spec.HardwareRef{ID: "h200"}, TensorParallelSize: spec.Int(2), MaxModelLen: spec.Int(8192)},
		perToken: spec.Float(200_704), perGPU: spec.Float(100_352),
		more: func(t *testing.T, rep spec.Report) {
			assert.Equal(t, []spec.KVGroup{{Kind: "full_attention", Layers: 49}}, rep.KVCache.Groups)
		},
	},

	// MiniMax-M1 (minimax_text_01 lightning attention, vLLM
	// minimax_text_01.py; state shape from vllm/model_executor/layers/mamba/
	// mamba_utils.py linear_attention_state_shape, dtype the model's): of 80
	// layers, attn_type_list makes every 8th a softmax GQA layer (10 layers, 8
	// KV heads of 128) and the other 70 lightning layers, each with one
	// (64 heads, 128, 128) state and no convolution state. Worked by hand, bf16:
	//
	//	KV per token:  10 * 2 (K,V) * 8 heads * 128 * 2 B            =      40,960 B
	//	state/layer:   64 * 128 * 128 = 1,048,576 elems * 2 B        =   2,097,152 B
	//	state/seq:     70 * 2,097,152                                 = 146,800,640 B
	//
	// At tp=8 each rank keeps 1 KV head (10 * 2 * 1 * 128 * 2 = 5,120 B per token)
	// and 8 of the 64 state heads (262,144 B per layer), so the attention block
	// grows to 16 * ceil(262,144 / (16 * 512 B)) = 16 * 32 = 512 tokens.
	{
		name: "MiniMax-M1 lightning tp=8", req: spec.Request{Model: "MiniMaxAI/MiniMax-M1-80k", Hardware: spec.HardwareRef{ID: "h200"}, TensorParallelSize: spec.Int(8), MaxModelLen: spec.Int(8192)},
		perToken: spec.Float(40960), perGPU: spec.Float(5120), statePerSeq: spec.Float(146_800_640), block: 512, arch: "hybrid+moe",
	},

	// Command R7B (vLLM commandr.py CohereAttention over Cohere2Config's
	// layer_types): with sliding_window_pattern 4, layers 3, 7, ..., 31 are
	// global and the other 24 slide over 4,096 tokens. Both kinds have the same
	// page, so blocks stay 16 tokens; 24 >= 1.5 * 8, so groups of 8: one full
	// group and three sliding groups, the sliding ones of window 4,096.
	{
		name: "Command R7B sliding groups", req: spec.Request{Model: "command-r7b", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(32768)},
		block:   16,
		groups:  map[string][]int{"full_attention": {8}, "sliding_attention": {8, 8, 8}},
		windows: map[int]bool{0: true, 4096: true},
	},
	// Command A: 48 sliding and 16 global layers; 48 >= 1.5 * 16, so groups of
	// 16: one full group and three sliding groups. Four ranks split the 8 KV
	// heads: 262,144 / 4 = 65,536 B per token each.
	{
		name: "Command A sliding groups tp=4", req: spec.Request{Model: "command-a", Hardware: spec.HardwareRef{ID: "h200"}, TensorParallelSize: spec.Int(4), MaxModelLen: spec.Int(32768)},
		groups: map[string][]int{"full_attention": {16}, "sliding_attention": {16, 16, 16}},
		perGPU: spec.Float(65_536),
	},
}

// gemma3nCatalogCase is the layout of a Gemma 3n catalog entry (above).
func gemma3nCatalogCase(id string) layoutCase {
	return layoutCase{
		name: "Gemma 3n catalog " + id, req: spec.Request{Model: id, Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192)},
		perToken: spec.Float(40_960), statePerSeq: spec.Float(0), block: 16,
		groups: map[string][]int{"full_attention": {4}, "sliding_attention": {4, 4, 4, 4}},
	}
}

// kimiLinearCase is Kimi-Linear 48B-A3B's layout at tensor-parallel size
// tp, whose blocks hold block tokens (above).
func kimiLinearCase(tp, block int) layoutCase {
	return layoutCase{
		name:   "Kimi-Linear 48B-A3B tp=" + strconv.Itoa(tp),
		req:    spec.Request{Model: "kimi-linear", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(65536), TensorParallelSize: spec.Int(tp)},
		perGPU: spec.Float(8_064), statePerSeq: spec.Float(43_417_600), block: block,
		groups: map[string][]int{"mla": {7}, "state": {7, 7, 6}}, arch: "hybrid+moe",
	}
}

// TestCacheLayout: layoutCases, each evaluated; every figure a case states
// is compared with its report.
func TestCacheLayout(t *testing.T) {
	t.Parallel()
	for _, tc := range layoutCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rep := eval(t, tc.req)
			k := rep.KVCache
			if tc.perToken != nil {
				assert.InDelta(t, *tc.perToken, k.BytesPerToken, 0, "bytes per token")
			}
			if tc.perGPU != nil {
				assert.InDelta(t, *tc.perGPU, k.BytesPerTokenPerGPU, 0, "bytes per token per GPU")
			}
			if tc.statePerSeq != nil {
				assert.InDelta(t, *tc.statePerSeq, k.StateBytesPerSequence, 0, "state bytes per sequence")
			}
			if tc.block != 0 {
				assert.Equal(t, tc.block, k.BlockSize, "block size")
			}
			if tc.nGroups != 0 {
				require.Len(t, k.Groups, tc.nGroups)
			}
			layers := map[string][]int{}
			windows := map[int]bool{}
			for _, g := range k.Groups {
				layers[g.Kind] = append(layers[g.Kind], g.Layers)
				windows[g.Window] = true
			}
			if tc.groups != nil {
				assert.Equal(t, tc.groups, layers, "layers per group, by kind")
			}
			if tc.windows != nil {
				assert.Equal(t, tc.windows, windows, "the groups' windows")
			}
			if tc.arch != "" {
				assert.Equal(t, tc.arch, rep.Model.Architecture)
			}
			if tc.more != nil {
				tc.more(t, rep)
			}
		})
	}
}

// Gemma 4 31B (vLLM 0.19 gemma4.py): 50 sliding layers (window 1024) of
// 16 KV heads x 256 and 10 full-attention layers of
// num_global_key_value_heads 4 x global_head_dim 512 (attention_k_eq_v:
// the checkpoint has no v_proj but vLLM stores V, a copy of K, in the
// cache):
//
//	sliding: 50 * 2 * 16 * 256 * 2 B = 50 * 16,384 = 819,200 B per token
//	full:    10 * 2 *  4 * 512 * 2 B = 10 *  8,192 =  81,920 B per token
//	total                                           = 901,120 B per token
//
// Pages are uniform (vLLM unify_kv_cache_spec_page_size): a sliding page
// is 16 tokens * 16,384 B = 262,144 B; a full-attention layer costs half
// as much per token, so its blocks hold 32 tokens. Groups of the smallest
// type's 10 layers: 5 sliding groups and 1 full group.
func TestGemma4Layout(t *testing.T) {
	t.Parallel()
	rep := eval(t, spec.Request{Model: "google/gemma-4-31B-it", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192)})
	k := rep.KVCache
	assert.InDelta(t, 901_120, k.BytesPerToken, 0)
	assert.Equal(t, 16, k.BlockSize)
	require.Len(t, k.Groups, 6)
	assert.Equal(t, spec.KVGroup{Kind: "sliding_attention", Layers: 10, Window: 1024}, k.Groups[0])
	assert.Equal(t, spec.KVGroup{Kind: "full_attention", Layers: 10}, k.Groups[5])

	d, err := Resolve(spec.Request{Model: "google/gemma-4-31B-it", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192)})
	require.NoError(t, err)
	lay := d.Layout()
	assert.InDelta(t, 16*16384.0, lay.PageBytes, 0)
	assert.Equal(t, 32, lay.Groups[5].BlockSize)
	// One 8,000-token sequence in decode: each sliding group keeps
	// ceil((1024-1+1)/16) + 1 = 65 blocks, the full group ceil(8000/32) =
	// 250: 5 * 65 + 250 = 575.
	assert.Equal(t, int64(575), lay.BlocksFor(8000, 1))
	// Per request of 8,192 tokens with 8,192 batched: sliding
	// ceil(min(1023+8192, 8192)/16)+1 = 513 per group, full 8192/32 = 256.
	assert.Equal(t, int64(5*513+256), lay.MaxBlocksPerRequest(8192, 8192))
}

// Gemma 4 26B-A4B: 25 sliding layers of 8 KV heads x 256 and 5 full
// layers of 2 x 512: 25 * 2*8*256*2 + 5 * 2*2*512*2 = 204,800 + 20,480 =
// 225,280 B per token. A full layer costs 4,096 B per token against
// 8,192 for a sliding one: 32-token blocks.
func TestGemma4MoELayout(t *testing.T) {
	t.Parallel()
	d, err := Resolve(spec.Request{Model: "google/gemma-4-26B-A4B", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192)})
	require.NoError(t, err)
	lay := d.Layout()
	assert.InDelta(t, 225_280, lay.BytesPerToken, 0)
	require.Len(t, lay.Groups, 6)
	assert.Equal(t, kvcache.Group{Kind: kvcache.Full, Layers: 5, BlockSize: 32}, lay.Groups[5])
}

// A published vLLM report for Gemma 4 31B (vllm-project/vllm issue
// #43308: cyankiwi/gemma-4-31B-it-AWQ-4bit on an A100 80GB,
// gpu_memory_utilization 0.9): with about 50 GB of KV cache memory vLLM
// v0.20.0 reported a "GPU KV cache size" of about 55k tokens (v0.21.0
// changed the allocation and reported about 525k; the engine models the
// 0.19/0.20 layout). By hand: 50 GiB / (262,144 B per page * 10 layers per
// block) = 20,480 blocks; 20,480 / 6 groups * 16 = 54,608 tokens. The
// report's figures are rounded ("~50 GB", "~55k"), so the check allows 5 %.
func TestGemma4MatchesPublishedVLLMReport(t *testing.T) {
	t.Parallel()
	d, err := Resolve(spec.Request{Model: "google/gemma-4-31B-it", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192)})
	require.NoError(t, err)
	lay := d.Layout()
	blocks := lay.NumBlocks(50 * (1 << 30))
	assert.Equal(t, int64(20480), blocks)
	assert.Equal(t, int64(54_608), lay.CapacityTokens(blocks))
	assert.InEpsilon(t, 55_000, float64(lay.CapacityTokens(blocks)), 0.05)
}

// MiMo-V2-Flash at tp=4 against a published start-up log (SGLang, whose
// per-token layout is vLLM's: one K and one V cache per layer, heads split
// across ranks). sgl-project/sglang PR #15464
// (https://github.com/sgl-project/sglang/pull/15464), ranks TP0-TP3: "KV
// Cache is allocated. #tokens: 1496958, K size: 4.82 GB, V size: 3.21 GB"
// (the full layers), "K size: 41.76 GB, V size: 27.84 GB" (the sliding
// layers) and "SWAKVPool mem usage: 77.63 GB", sizes in GiB. By hand a rank
// keeps 1 of the full layers' 4 KV heads and 2 of the sliding layers' 8:
// 9 * 1 * (192 + 128) * 2 + 39 * 2 * (192 + 128) * 2 = 5,760 + 49,920 =
// 55,680 bytes per token; the log's 77.63 GiB over 1,496,958 tokens is
// 55,681, within its two-decimal rounding (0.005 GiB / 1,496,958 tokens =
// 3.6 bytes).
func TestMiMoV2FlashMatchesPublishedPoolSizes(t *testing.T) {
	t.Parallel()
	rep := eval(t, spec.Request{Model: "mimo-v2-flash", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(65536), TensorParallelSize: spec.Int(4)})
	assert.InDelta(t, 55_680, rep.KVCache.BytesPerTokenPerGPU, 0)
	const gib, tokens = 1 << 30, 1_496_958.0
	assert.InDelta(t, rep.KVCache.BytesPerTokenPerGPU, 77.63*gib/tokens, 0.005*gib/tokens)
}

// A pipeline stage made only of MLP blocks keeps no cache: Llama 3.3
// Nemotron Super 49B at pp=8 has layers 60-69 all no-op attention, so
// that stage does not bound the pool (10 layers per stage; the other
// stages hold 2 to 10 attention layers each).
func TestStageWithoutCacheLayers(t *testing.T) {
	t.Parallel()
	d, err := Resolve(spec.Request{Model: "nvidia/Llama-3_3-Nemotron-Super-49B-v1", Hardware: spec.HardwareRef{ID: "h200"}, PipelineParallelSize: spec.Int(8), MaxModelLen: spec.Int(8192)})
	require.NoError(t, err)
	assert.Positive(t, d.NumBlocks)
	assert.Empty(t, d.stages[6].layout.Groups)
	assert.NotEqual(t, 6, d.tight)
}

// A block list with neither attention nor Mamba blocks has no cache to
// size: the error names the model.
func TestModelWithoutCacheLayers(t *testing.T) {
	t.Parallel()
	cfg := map[string]any{
		"model_type": "nemotron_h", "hidden_size": 256.0, "num_hidden_layers": 2.0,
		"num_attention_heads": 4.0, "intermediate_size": 512.0, "vocab_size": 1000.0,
		"max_position_embeddings": 4096.0, "hybrid_override_pattern": "--",
	}
	_, err := Resolve(spec.Request{ModelConfig: cfg, Hardware: spec.HardwareRef{ID: "h200"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no attention or state layers")
}

// TensorRT-LLM keeps the KV cache in the format the checkpoint quantized it
// to: nvidia/Qwen3-30B-A3B-NVFP4's hf_quant_config says kv_cache_quant_algo
// FP8. Qwen3-30B-A3B: 48 layers, 4 KV heads of 128, so
//
//	fp8:  48 x 2 (K and V) x 4 x 128 x 1 B = 49,152 B per token
//	bf16: 48 x 2 x 4 x 128 x 2 B           = 98,304 B per token
//
// TensorRT-LLM with kv_cache_dtype left out: fp8, with a warning naming the
// checkpoint; asked for bfloat16: bf16; vLLM's "auto" is the model dtype.
func TestTensorRTLLMTakesTheCheckpointsFP8KVCache(t *testing.T) {
	t.Parallel()
	req := spec.Request{Model: "nvidia/Qwen3-30B-A3B-NVFP4", Hardware: spec.HardwareRef{ID: "b200"}, Engine: "trtllm"}
	r := eval(t, req)
	assert.InDelta(t, 49_152, r.KVCache.BytesPerToken, 0)
	codes := map[string]bool{}
	for _, w := range r.Warnings {
		codes[w.Code] = true
	}
	assert.True(t, codes["kv_cache_dtype_from_checkpoint"])

	req.KVCacheDtype = "bfloat16"
	r = eval(t, req)
	assert.InDelta(t, 98_304, r.KVCache.BytesPerToken, 0)

	req.KVCacheDtype, req.Engine = "", "vllm"
	r = eval(t, req)
	assert.InDelta(t, 98_304, r.KVCache.BytesPerToken, 0)
	for _, w := range r.Warnings {
		assert.NotEqual(t, "kv_cache_dtype_from_checkpoint", w.Code)
	}
}

// nvidia/Llama-3.3-70B-Instruct-FP4 (ModelOpt NVFP4, lm_head excluded) at
// tensor-parallel size 1 with an fp8 KV cache, worked from the config
// (hidden 8192, 80 layers, 64 heads / 8 KV heads of 128, intermediate
// 28672, vocabulary 128256, untied head).
//
// NVFP4 stores each quantized weight in 4 bits plus one fp8 scale per 16
// weights: 4 + 8/16 = 4.5 bits = 0.5625 B (the per-tensor fp32 scales are
// negligible). The quantized weights are the linear layers of the
// transformer blocks:
//
//	q, o:        2 * 8192 * 8192         = 134,217,728
//	k, v:        2 * 8192 * 8 * 128      =  16,777,216
//	MLP:         3 * 8192 * 28672        = 704,643,072
//	per layer                            = 855,638,016
//	80 layers                            = 68,451,041,280 weights
//	at 0.5625 B                          = 38,503,710,720 B
//
// The rest stays bf16 (2 B): the embedding and the excluded lm_head,
// 2 * 128256 * 8192 = 2,101,346,304, and the norms, 80 * 2 * 8192 + 8192
// = 1,318,912: 2,102,665,216 weights = 4,205,330,432 B. Weights in all:
// 38,503,710,720 + 4,205,330,432 = 42,709,041,152 B (the parameters add
// up to the published 70,553,706,496). The check allows 2 B of rounding
// (weights bytes are a float sum over layers).
//
// fp8 KV cache: 80 layers * 2 (K and V) * 8 KV heads * 128 * 1 B =
// 163,840 B per token.
func TestNVFP4Llama33_70BWeightsAndFP8KV(t *testing.T) {
	t.Parallel()
	rep := eval(t, spec.Request{Model: "nvidia/Llama-3.3-70B-Instruct-FP4", Hardware: spec.HardwareRef{ID: "b200"}, KVCacheDtype: "fp8", TensorParallelSize: spec.Int(1)})
	assert.Equal(t, "fp4", rep.Model.WeightFormat)
	assert.InDelta(t, 4.5, rep.Model.WeightBits, 0)
	assert.InDelta(t, 42_709_041_152, float64(rep.Memory.WeightsBytes), 2)
	assert.InDelta(t, 163_840, rep.KVCache.BytesPerToken, 0)

	// The bf16 checkpoint it was made from holds 2 B per weight:
	// 70,553,706,496 * 2 = 141,107,412,992 B, against which NVFP4 keeps
	// 42,709,041,152 / 141,107,412,992 = 30.3 %.
	bf16 := eval(t, spec.Request{Model: "meta-llama/Llama-3.3-70B-Instruct", Hardware: spec.HardwareRef{ID: "b200"}, TensorParallelSize: spec.Int(1)})
	assert.InDelta(t, 141_107_412_992, float64(bf16.Memory.WeightsBytes), 2)
}

// NVIDIA's two DeepSeek-R1 NVFP4 exports differ only in their exclusion
// lists: the first keeps all of self_attn in bf16 ("model.layers.*.self_attn*"),
// v2 only q_a/q_b/kv_a/kv_b, so its o_proj is fp4. On one of 8 tensor
// ranks, per layer (DeepSeek-V3 shapes: 128 heads, v_head_dim 128, hidden
// 7168; q_a_layernorm 1536 and kv_a_layernorm 512, which v1's self_attn*
// keeps too):
//
//	o_proj        128*128*7168 / 8 = 14,680,064 params
//	MLA norms     (1536+512) / 8    =        256 params
//	bytes         (2 - 4.5/8) = 1.4375 per param more in bf16 than NVFP4
//	61 layers     61 * 14,680,320 * 1.4375 = 1,287,280,560 bytes
func TestNVFP4ExclusionListsKeepAttentionInBF16(t *testing.T) {
	t.Parallel()
	req := spec.Request{Model: "nvidia/DeepSeek-R1-FP4", Hardware: spec.HardwareRef{ID: "b200"}, TensorParallelSize: spec.Int(8)}
	v1 := eval(t, req)
	req.Model = "nvidia/DeepSeek-R1-FP4-v2"
	v2 := eval(t, req)
	assert.InDelta(t, 1_287_280_560, float64(v1.Memory.WeightsBytes-v2.Memory.WeightsBytes), 64)
	codes := map[string]bool{}
	for _, w := range v1.Warnings {
		codes[w.Code] = true
	}
	assert.True(t, codes["unquantized_modules"])

	// The attention kept in bf16 is read every step: v1's decode step
	// reads those extra bytes.
	d1, err := Resolve(spec.Request{Model: "nvidia/DeepSeek-R1-FP4", Hardware: spec.HardwareRef{ID: "b200"}, TensorParallelSize: spec.Int(8)})
	require.NoError(t, err)
	d2, err := Resolve(spec.Request{Model: "nvidia/DeepSeek-R1-FP4-v2", Hardware: spec.HardwareRef{ID: "b200"}, TensorParallelSize: spec.Int(8)})
	require.NoError(t, err)
	assert.InDelta(t, 1_287_280_560, d1.DecodeStep(1, 1024).WeightsReadBytes-d2.DecodeStep(1, 1024).WeightsReadBytes, 64)
}
