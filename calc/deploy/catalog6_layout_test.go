package deploy

import (
	"testing"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/stretchr/testify/assert"
)

// KV bytes per token of the commonly benchmarked checkpoints added in part 6
// (docs/model-catalog.md), worked by hand from each entry's config at
// tensor-parallel size 1 in bf16: layers * 2 (K and V) * kv_heads *
// head_dim * 2 B; MLA layers keep one latent of kv_lora_rank +
// qk_rope_head_dim values (vLLM MLACommonImpl).
func TestKVBytesPerTokenCatalogPart6(t *testing.T) {
	t.Parallel()
	assertKVPerTokenAndState(t, []kvCase{
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
	})
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
