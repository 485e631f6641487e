package models

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The exclusion lists of published checkpoints, read as vLLM's
// is_layer_excluded reads them (fnmatch, or a wildcard-free substring).
func TestExclusionListsMarkTheLayersWeightGroups(t *testing.T) {
	t.Parallel()
	cases := []struct {
		id   string
		want Keep // in every decoder layer
	}{
		// "model.layers.*.self_attn*": every attention projection,
		// the MLA norms with them; "model.layers.*.mlp.gate" is the
		// router, which is never quantized anyway.
		{"nvidia/DeepSeek-R1-FP4", KeepQ | KeepQA | KeepKV | KeepKVB | KeepO | KeepAttnRest},
		// q_a, q_b, kv_a, kv_b named one by one: o_proj is fp4.
		{"nvidia/DeepSeek-R1-FP4-v2", KeepQ | KeepQA | KeepKV | KeepKVB},
		// "model.layers.**" (a masked layer index) excludes nothing.
		{"nvidia/DeepSeek-V3.1-NVFP4", KeepQ | KeepQA | KeepKV | KeepKVB},
		// Only lm_head: every layer is fp4.
		{"nvidia/Llama-3.1-8B-Instruct-FP4", 0},
	}
	for _, c := range cases {
		m, err := Lookup(c.id)
		require.NoError(t, err, c.id)
		for i, l := range m.Layers {
			require.Equal(t, c.want, l.Keep, "%s layer %d", c.id, i)
		}
	}
}

func TestExclusionPatternsFollowVLLMsMatching(t *testing.T) {
	t.Parallel()
	pats := compileExcludes([]string{
		"lm_head",
		"model.language_model.layers.*.linear_attn*", // prefix before layers. ignored
		"model.layers.**", "model.layers.*.*", // masked indices: dropped
		"model.layers.3.self_attn.o_proj", // literal: substring
		"re:.*shared_expert.*",            // compressed-tensors regex
		"re:.*mlp\\.gate$",                // anchored at the end
		"re:.*(q|k)_proj",                 // alternation: not read
	})
	assert.Len(t, pats, 5)
	assert.True(t, excluded(pats, "layers.0.linear_attn.in_proj_qkvz"))
	assert.False(t, excluded(pats, "layers.0.self_attn.o_proj"))
	assert.True(t, excluded(pats, "layers.3.self_attn.o_proj"))
	assert.False(t, excluded(pats, "layers.30.self_attn.o_proj"), "a literal is a substring of the name, not a prefix of the index")
	assert.True(t, excluded(pats, "layers.7.mlp.shared_expert.gate_proj"))
	assert.False(t, excluded(pats, "layers.7.mlp.experts.0.gate_proj"))
	assert.True(t, excluded(pats, "layers.7.mlp.gate"))
	assert.False(t, excluded(pats, "layers.7.mlp.gate_proj"), "$ anchors the end")
}

// Qwen3.5's NVFP4 export keeps its Gated DeltaNet mixers, its full-attention
// layers and its shared experts in bf16: each layer gets the groups of its
// own kind.
func TestExclusionListsFollowTheLayerKind(t *testing.T) {
	t.Parallel()
	m, err := Lookup("nvidia/Qwen3.5-122B-A10B-NVFP4")
	require.NoError(t, err)
	var linear, full int
	for i, l := range m.Layers {
		switch l.Kind {
		case LinearAttention:
			linear++
			assert.Equal(t, KeepMixer|KeepShared, l.Keep, "layer %d", i)
		case FullAttention:
			full++
			assert.Equal(t, keepAttention|KeepShared, l.Keep, "layer %d", i)
		}
	}
	assert.Positive(t, linear)
	assert.Positive(t, full)
}
