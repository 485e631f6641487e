package models

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Checkpoint ids users deploy, each a real Hugging Face repository
// (huggingface.co/<id>): every one was found in public repositories'
// launch scripts, model tables and docs through the search index's
// find_string (vLLM, SGLang, TensorRT-LLM, AMD ROCm and Red Hat AI
// inference docs among them), none invented. Each row gives the catalog
// entry whose architecture the id has and the quantization method the
// rule applies, worked out by hand from the rule (checkpoint.go): the
// quantization suffix's entry of quantSuffixes, then the variant suffixes
// cut; "" is no quantization (16-bit weights), and a checkpoint of an
// entry that is already quantized in the same format keeps the entry's
// own (Kimi-K2's fp8, nvidia's ModelOpt fp8 Mixtral).
var checkpointIDs = []struct {
	id, base, method string
}{
	// Qwen's own quantized and dated checkpoints.
	{"Qwen/Qwen3-8B-FP8", "Qwen/Qwen3-8B", "fp8"},
	{"Qwen/Qwen3-4B-FP8", "Qwen/Qwen3-4B", "fp8"},
	{"Qwen/Qwen3-14B-FP8", "Qwen/Qwen3-14B", "fp8"},
	{"Qwen/Qwen3-0.6B-FP8", "Qwen/Qwen3-0.6B", "fp8"},
	{"Qwen/Qwen3-1.7B-FP8", "Qwen/Qwen3-1.7B", "fp8"},
	{"Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8", "Qwen/Qwen3-Coder-480B-A35B-Instruct", "fp8"},
	{"Qwen/Qwen3-Coder-30B-A3B-Instruct-FP8", "Qwen/Qwen3-Coder-30B-A3B-Instruct", "fp8"},
	{"Qwen/Qwen3-235B-A22B-Instruct-2507-FP8", "Qwen/Qwen3-235B-A22B-Instruct-2507", "fp8"},
	{"Qwen/Qwen3-235B-A22B-Thinking-2507", "Qwen/Qwen3-235B-A22B", ""},
	{"Qwen/Qwen3-235B-A22B-Thinking-2507-FP8", "Qwen/Qwen3-235B-A22B", "fp8"},
	{"unsloth/Qwen3-30B-A3B-Instruct-2507", "Qwen/Qwen3-30B-A3B-Instruct-2507", ""}, // a catalog entry since models300
	{"Qwen/Qwen3-30B-A3B-Thinking-2507", "Qwen/Qwen3-30B-A3B", ""},
	{"Qwen/Qwen3-30B-A3B-Instruct-2507-FP8", "Qwen/Qwen3-30B-A3B-Instruct-2507", "fp8"},
	{"Qwen/Qwen3-4B-Instruct-2507", "Qwen/Qwen3-4B", ""},
	{"Qwen/Qwen3-4B-Thinking-2507", "Qwen/Qwen3-4B", ""},
	{"Qwen/Qwen3-4B-Instruct-2507-FP8", "Qwen/Qwen3-4B", "fp8"},
	{"Qwen/Qwen3-8B-AWQ", "Qwen/Qwen3-8B", "awq"},
	{"zai-org/GLM-4.5-FP8", "zai-org/GLM-4.5", "fp8"}, // zai-org/GLM-4.5 is a catalog entry since models300b
	{"Qwen/Qwen3-14B-AWQ", "Qwen/Qwen3-14B", "awq"},
	{"Qwen/Qwen3-32B-AWQ", "Qwen/Qwen3-32B", "awq"},
	{"Qwen/Qwen3-4B-AWQ", "Qwen/Qwen3-4B", "awq"},
	{"Qwen/Qwen3-30B-A3B-GPTQ-Int4", "Qwen/Qwen3-30B-A3B", "gptq"},
	{"Qwen/Qwen3-235B-A22B-GPTQ-Int4", "Qwen/Qwen3-235B-A22B", "gptq"},
	{"Qwen/Qwen2.5-7B-Instruct-AWQ", "Qwen/Qwen2.5-7B-Instruct", "awq"},
	{"Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4", "Qwen/Qwen2.5-7B-Instruct", "gptq"},
	{"Qwen/Qwen2.5-14B-Instruct-AWQ", "Qwen/Qwen2.5-14B-Instruct", "awq"},
	{"Qwen/Qwen2.5-32B-Instruct-AWQ", "Qwen/Qwen2.5-32B-Instruct", "awq"},
	{"Qwen/Qwen2.5-72B-Instruct-GPTQ-Int4", "Qwen/Qwen2.5-72B-Instruct", "gptq"},
	{"Qwen/Qwen2.5-Coder-32B-Instruct-AWQ", "Qwen/Qwen2.5-Coder-32B-Instruct", "awq"},
	{"Qwen/QwQ-32B-AWQ", "Qwen/QwQ-32B", "awq"},
	{"Qwen/Qwen3-Next-80B-A3B-Instruct-FP8", "Qwen/Qwen3-Next-80B-A3B-Instruct", "fp8"},
	{"Qwen/Qwen3-Next-80B-A3B-Thinking-FP8", "Qwen/Qwen3-Next-80B-A3B-Thinking", "fp8"},
	{"Qwen/Qwen3-VL-235B-A22B-Instruct-FP8", "Qwen/Qwen3-VL-235B-A22B-Instruct", "fp8"},
	{"Qwen/Qwen3-VL-8B-Instruct-FP8", "Qwen/Qwen3-VL-8B-Instruct", "fp8"},
	{"Qwen/Qwen3-8B-Base", "Qwen/Qwen3-8B", ""},
	{"Qwen/Qwen3-30B-A3B-Base", "Qwen/Qwen3-30B-A3B", ""},
	// Other labs' own variants.
	{"moonshotai/Kimi-K2-Instruct-0905", "moonshotai/Kimi-K2-Instruct", "fp8"},
	{"moonshotai/Kimi-K2-Base", "moonshotai/Kimi-K2-Instruct", "fp8"},
	{"deepseek-ai/DeepSeek-V3-Base", "deepseek-ai/DeepSeek-V3", "fp8"},
	{"zai-org/GLM-4.5-Air-FP8", "zai-org/GLM-4.5-Air", "fp8"},
	{"mistralai/Devstral-Small-2505", "mistralai/Devstral-Small-2507", ""},
	// Red Hat AI (formerly Neural Magic): llm-compressor checkpoints.
	{"RedHatAI/Qwen3-8B-FP8-dynamic", "Qwen/Qwen3-8B", "fp8"},
	{"RedHatAI/Qwen3-32B-FP8-dynamic", "Qwen/Qwen3-32B", "fp8"},
	{"RedHatAI/Llama-3.3-70B-Instruct-quantized.w4a16", "meta-llama/Llama-3.3-70B-Instruct", "gptq"},
	{"RedHatAI/Llama-3.3-70B-Instruct-quantized.w8a8", "meta-llama/Llama-3.3-70B-Instruct", "int8"},
	{"RedHatAI/Mistral-Small-3.1-24B-Instruct-2503-FP8-dynamic", "mistralai/Mistral-Small-3.1-24B-Instruct-2503", "fp8"},
	{"RedHatAI/gemma-3-27b-it-FP8-dynamic", "google/gemma-3-27b-it", "fp8"},
	{"neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8", "meta-llama/Llama-3.1-8B-Instruct", "fp8"},
	{"neuralmagic/Mixtral-8x7B-Instruct-v0.1-FP8", "nvidia/Mixtral-8x7B-Instruct-v0.1-FP8", "modelopt"},
	// NVIDIA ModelOpt checkpoints ("-FP4" is NVFP4).
	{"nvidia/Qwen3-8B-FP8", "Qwen/Qwen3-8B", "fp8"},
	{"nvidia/Qwen3-14B-FP8", "Qwen/Qwen3-14B", "fp8"},
	{"nvidia/Qwen3-8B-FP4", "Qwen/Qwen3-8B", "nvfp4"},
	{"nvidia/DeepSeek-V3-0324-FP4", "deepseek-ai/DeepSeek-V3-0324", "nvfp4"},
	// AMD Quark checkpoints.
	{"amd/Llama-3.1-8B-Instruct-FP8-KV", "meta-llama/Llama-3.1-8B-Instruct", "fp8"},
	{"amd/Llama-3.3-70B-Instruct-FP8-KV", "meta-llama/Llama-3.3-70B-Instruct", "fp8"},
	{"amd/Mixtral-8x7B-Instruct-v0.1-FP8-KV", "mistralai/Mixtral-8x7B-Instruct-v0.1", "fp8"},
	{"amd/Llama-3.3-70B-Instruct-MXFP4-Preview", "meta-llama/Llama-3.3-70B-Instruct", "mxfp4"},
	{"amd/Llama-3.1-405B-Instruct-MXFP4-Preview", "meta-llama/Llama-3.1-405B-Instruct", "mxfp4"},
	// Unsloth's bitsandbytes checkpoints and republished ones.
	{"unsloth/Qwen3-8B-bnb-4bit", "Qwen/Qwen3-8B", "bitsandbytes"},
	{"unsloth/Qwen3-14B-unsloth-bnb-4bit", "Qwen/Qwen3-14B", "bitsandbytes"},
	{"unsloth/gemma-3-27b-it-bnb-4bit", "google/gemma-3-27b-it", "bitsandbytes"},
	{"unsloth/mistral-7b-instruct-v0.3-bnb-4bit", "mistralai/Mistral-7B-Instruct-v0.3", "bitsandbytes"},
	{"unsloth/gpt-oss-20b", "openai/gpt-oss-20b", "mxfp4"},
	// TheBloke's and hugging-quants' AWQ and GPTQ checkpoints.
	{"TheBloke/Llama-2-7B-Chat-AWQ", "meta-llama/Llama-2-7b-chat-hf", "awq"},
	{"TheBloke/TinyLlama-1.1B-Chat-v1.0-AWQ", "TinyLlama/TinyLlama-1.1B-Chat-v1.0", "awq"},
	{"hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4", "meta-llama/Llama-3.1-70B-Instruct", "awq"},
	{"hugging-quants/Meta-Llama-3.1-8B-Instruct-GPTQ-INT4", "meta-llama/Llama-3.1-8B-Instruct", "gptq"},
}

// TestCheckpointIDsResolve: each id resolves to its catalog entry and
// quantization, keeps the id as given, and says so in its message.
func TestCheckpointIDsResolve(t *testing.T) {
	t.Parallel()
	require.GreaterOrEqual(t, len(checkpointIDs), 60)
	for _, tt := range checkpointIDs {
		m, err := Lookup(tt.id)
		require.NoError(t, err, tt.id)
		e, err := LookupEntry(tt.id)
		require.NoError(t, err, tt.id)
		assert.Equal(t, tt.base, e.ID, tt.id)
		assert.Equal(t, tt.method, m.Quant.Method, tt.id)
		assert.Equal(t, tt.id, m.ID, tt.id)
		assert.Contains(t, m.Checkpoint, "modelled as "+tt.base, tt.id)
		base, err := Lookup(tt.base)
		require.NoError(t, err)
		assert.Equal(t, base.Params, m.Params, "%s has %s's architecture", tt.id, tt.base)
		assert.Empty(t, base.Checkpoint, "the catalog entry itself is not rewritten")
	}
}

// TestCheckpointQuantization: the formats the suffixes name, in bits per
// weight (NamedQuantization's, worked out in quant.go): fp8 8, AWQ and
// GPTQ int4 with a 16-bit scale and a 4-bit zero per 128 (4 + 20/128 =
// 4.15625), NF4 with double-quantized scales (4 + 8/64 + 32/16384 =
// 4.126953125), NVFP4 4.5, MXFP4 4.25 on every linear layer of a dense
// model; an "-FP8" id of an fp8 entry keeps the entry's block-fp8 format
// (8 + 32/(128*128) = 8.001953125 bits; "DeepSeek-R1-0528-FP8", the
// served model name of SGLang launch scripts), and "-BF16" none (the
// bf16 copy of DeepSeek-V3-0324's fp8 weights). Ids as found above.
func TestCheckpointQuantization(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]struct {
		bits          float64
		expertsOnly   bool
		suffixMessage string
	}{
		"Qwen/Qwen3-8B-FP8":                        {8, false, `quantization fp8 (read from the suffix -FP8)`},
		"Qwen/Qwen3-8B-AWQ":                        {4.15625, false, `quantization awq (read from the suffix -AWQ)`},
		"unsloth/Qwen3-8B-bnb-4bit":                {4.126953125, false, `quantization bitsandbytes (read from the suffix -bnb-4bit)`},
		"nvidia/Qwen3-8B-FP4":                      {4.5, false, `quantization nvfp4 (read from the suffix -FP4)`},
		"amd/Llama-3.3-70B-Instruct-MXFP4-Preview": {4.25, false, `quantization mxfp4 (read from the suffix -MXFP4-Preview)`},
		"DeepSeek-R1-0528-FP8":                     {8.001953125, false, `quantization fp8 (read from the suffix -FP8)`},
		"unsloth/gpt-oss-20b":                      {4.25, true, `quantization mxfp4 (the entry's own)`},
		"RedHatAI/Qwen3-8B-FP8-dynamic":            {8, false, `(read from the suffix -FP8-dynamic)`},
		"unsloth/DeepSeek-V3-0324-BF16":            {0, false, `quantization none (read from the suffix -BF16)`},
		"QWEN/QWEN3-8B-FP8":                        {8, false, `(read from the suffix -FP8)`},
		"unsloth/Llama-3.2-1B-Instruct":            {0, false, `quantization none (the entry's own)`},
	} {
		m, err := Lookup(id)
		require.NoError(t, err, id)
		assert.InDelta(t, want.bits, m.Quant.BitsPerWeight, 1e-12, id)
		assert.Equal(t, want.expertsOnly, m.Quant.ExpertsOnly, id)
		assert.Contains(t, m.Checkpoint, want.suffixMessage, id)
	}
}

// Ids that must not resolve, each refused with a suggestion: an
// architecture the catalog does not hold (GLM-4.6, MiniMax-M2,
// Qwen2.5-VL, Qwen2.5-1M's long-context variant, DeepSeek-V3.1-Terminus),
// a format no engine here models (GGUF files, MLX's 4-bit, 8-bit
// weight-only GPTQ), an owner that neither published the model nor is a
// known republisher. All real Hugging Face ids, found as above. (No
// catalog name matches two entries: ids, aliases and id suffixes are
// unique, TestCatalogAliasesUnique.)
func TestCheckpointIDsRefused(t *testing.T) {
	t.Parallel()
	for id, reason := range map[string]string{
		"zai-org/GLM-4.6-FP8":                          "",
		"MiniMaxAI/MiniMax-M2":                         "",
		"Qwen/Qwen2.5-VL-7B-Instruct-AWQ":              "",
		"Qwen/Qwen2.5-7B-Instruct-1M":                  "",
		"deepseek-ai/DeepSeek-V3.1-Terminus":           "",
		"unsloth/Qwen3-8B-GGUF":                        "GGUF",
		"bartowski/Meta-Llama-3.1-8B-Instruct-GGUF":    "GGUF",
		"TheBloke/Llama-2-7B-Chat-GGUF":                "GGUF",
		"unsloth/gpt-oss-20b-GGUF":                     "GGUF",
		"mlx-community/Qwen3-8B-4bit":                  "mlx-lm",
		"mlx-community/Llama-3.2-3B-Instruct-4bit":     "mlx-lm",
		"Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8":           "8-bit weight-only",
		"Qwen/Qwen2.5-72B-Instruct-GPTQ-Int8":          "8-bit weight-only",
		"cpatonn/Qwen3-30B-A3B-Instruct-2507-AWQ-4bit": "republisher",
	} {
		_, err := Lookup(id)
		require.Error(t, err, id)
		assert.ErrorIs(t, err, ErrUnknownModel, id)
		var u *UnknownModelError
		require.True(t, errors.As(err, &u), id)
		assert.NotEmpty(t, u.Suggest, "%s: refused with suggestions", id)
		assert.Contains(t, err.Error(), "did you mean", id)
		if reason != "" {
			assert.Contains(t, u.Reason, reason, id)
		} else {
			assert.Empty(t, u.Reason, id)
		}
	}
	// A refused format names the model it would have resolved to.
	_, err := Lookup("unsloth/Qwen3-8B-GGUF")
	assert.ErrorContains(t, err, `did you mean "Qwen/Qwen3-8B"?`)
}

// TestCheckpointExactIDWins: an id the catalog holds is never rewritten,
// even when the rule would read it otherwise.
func TestCheckpointExactIDWins(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"nvidia/Llama-3.1-8B-Instruct-FP8", "Qwen/Qwen3-32B-FP8", "Qwen/Qwen3-235B-A22B-Instruct-2507", "RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", "unsloth/llama-3-8b-Instruct-bnb-4bit"} {
		m, err := Lookup(id)
		require.NoError(t, err, id)
		assert.Equal(t, id, m.ID)
		assert.Empty(t, m.Checkpoint, id)
		assert.False(t, strings.Contains(m.ID, " "))
	}
}
