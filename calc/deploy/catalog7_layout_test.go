package deploy

import (
	"testing"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// KV bytes per token of the Mistral 3 / 4, Phi-4 reasoning and OLMo 3 entries added in part 7
// (docs/model-catalog.md), worked by hand from each entry's config at
// tensor-parallel size 1 in bf16: layers * 2 (K and V) * kv_heads *
// head_dim * 2 B; MLA layers keep one latent of kv_lora_rank +
// qk_rope_head_dim values (vLLM MLACommonImpl; Mistral Large 3 and
// Mistral Small 4 run as DeepSeek-V3-style MLA models, vLLM
// models/mistral_large_3.py over deepseek_v2.py).
func TestKVBytesPerTokenCatalogPart7(t *testing.T) {
	t.Parallel()
	assertKVPerTokenAndState(t, []kvCase{
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
	})
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
