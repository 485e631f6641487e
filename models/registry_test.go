package models

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRegister: a model outside the catalog is found by its full id,
// case-insensitively, but not by its name alone; a catalog id and a name
// that is not owner/name are refused. Its KV heads come from the config:
// 2 x 24 layers x 16 KV heads x 128 x 2 bytes = 196,608 bytes per token.
func TestRegister(t *testing.T) {
	t.Parallel()
	cfg := map[string]any{
		"model_type": "qwen2_moe", "hidden_size": 2048.0, "num_hidden_layers": 24.0, "num_attention_heads": 16.0,
		"num_key_value_heads": 16.0, "intermediate_size": 5632.0, "vocab_size": 151936.0, "max_position_embeddings": 8192.0,
		"num_experts": 60.0, "num_experts_per_tok": 4.0, "moe_intermediate_size": 1408.0, "shared_expert_intermediate_size": 5632.0,
	}
	m, err := Register("TestOrg/Registered-MoE-1B", cfg, Source{URL: "http://hub/x"})
	require.NoError(t, err)
	assert.Equal(t, "TestOrg/Registered-MoE-1B", m.ID)
	got, err := Lookup("testorg/registered-moe-1b")
	require.NoError(t, err)
	assert.Same(t, m, got)
	assert.Equal(t, 16, got.KVHeads)
	assert.Equal(t, 128, got.HeadDim)
	e, err := LookupEntry("TestOrg/Registered-MoE-1B")
	require.NoError(t, err)
	assert.Equal(t, "http://hub/x", e.Source.URL)
	_, err = Lookup("Registered-MoE-1B")
	assert.True(t, errors.Is(err, ErrUnknownModel), "the name alone does not find it")

	_, err = Register("meta-llama/Llama-3.1-8B-Instruct", cfg, Source{})
	assert.ErrorContains(t, err, "is a catalog model")
	_, err = Register("no-owner", cfg, Source{})
	assert.ErrorContains(t, err, "needs a Hugging Face id")
	_, err = Register("TestOrg/bad", map[string]any{"model_type": "phi3"}, Source{})
	assert.ErrorContains(t, err, "hidden_size")
}

func TestIsHubID(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"Qwen/Qwen1.5-MoE-A2.7B", "google/gemma-2-2b", "a/b", "org_1/m.v2"} {
		assert.True(t, IsHubID(ok), ok)
	}
	for _, bad := range []string{"", "qwen", "a/b/c", "../x", "x/..", "a/-b", "a-/b", "a--b/c", "a/b..c", "/x", "x/", "a b/c", "a/b?c"} {
		assert.False(t, IsHubID(bad), bad)
	}
}

// TestSetCatalog: a text that is not a catalog is refused and changes
// nothing; the embedded text installs the same catalog again.
func TestSetCatalog(t *testing.T) {
	t.Parallel()
	require.True(t, CatalogEmbedded())
	n := len(mustCatalog(t))
	assert.ErrorContains(t, SetCatalog(`{"not": "an array"}`), "the model catalog")
	assert.ErrorContains(t, SetCatalog(`[{"name": "no id"}]`), "has no id")
	assert.Len(t, mustCatalog(t), n)
	require.NoError(t, SetCatalog(embedded))
	assert.Len(t, mustCatalog(t), n)
	m, err := Lookup("llama-3.1-8b")
	require.NoError(t, err)
	assert.Equal(t, "meta-llama/Llama-3.1-8B-Instruct", m.ID)
	assert.Nil(t, m.Defaults, "a catalog model carries no default warnings")
}

func mustCatalog(t *testing.T) []Entry {
	t.Helper()
	e, err := Catalog()
	require.NoError(t, err)
	return e
}
