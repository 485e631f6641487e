package models

import (
	"errors"
	"fmt"
	"strings"
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

// TestRegisterBoundedByBytes: models padded to about 1 MiB of config.json
// each (a valid config with a long extra string, as a hostile Hub repo can
// serve) are kept at most MaxRegisteredBytes' worth, plus the newest: of
// twenty, the last seven or eight, since each is charged its 1 MiB of
// JSON, its Model and an overhead. The one looked up most recently
// survives the next registrations (least recently used first out).
func TestRegisterBoundedByBytes(t *testing.T) {
	cfg := func(pad int) map[string]any {
		return map[string]any{
			"model_type": "llama", "hidden_size": 1024.0, "num_hidden_layers": 4.0, "num_attention_heads": 8.0,
			"intermediate_size": 2048.0, "vocab_size": 1000.0, "pad": strings.Repeat("p", pad),
		}
	}
	id := func(i int) string { return fmt.Sprintf("BoundOrg/padded-%d", i) }
	for i := 0; i < 20; i++ {
		_, err := Register(id(i), cfg(1<<20-200), Source{})
		require.NoError(t, err)
		if i == 10 {
			_, err := Lookup(id(5)) // id(5) becomes the most recently used
			require.NoError(t, err)
		}
		n, bytes := RegisteredBytes()
		assert.LessOrEqual(t, bytes, int64(MaxRegisteredBytes+1<<20+64<<10), "after %d: %d models", i, n)
	}
	assert.True(t, Registered(id(19)), "the newest is kept")
	assert.False(t, Registered(id(0)), "the oldest is dropped")
	assert.False(t, Registered(id(5)), "used at 10, then seven newer ones pushed it out")
	kept := 0
	for i := 0; i < 20; i++ {
		if Registered(id(i)) {
			kept++
		}
	}
	// 8 MiB / (1 MiB of JSON + the Model + overhead): 7 whole models.
	assert.Equal(t, 7, kept)
	// A kept model's entry gives its config back, parsed from the kept JSON.
	e, err := LookupEntry(id(19))
	require.NoError(t, err)
	assert.Equal(t, 1024.0, e.Config["hidden_size"])
	assert.Len(t, e.Config["pad"], 1<<20-200)

	// LRU: of three small models, the one looked up survives a flood.
	for i := 0; i < 3; i++ {
		_, err := Register(fmt.Sprintf("LruOrg/small-%d", i), cfg(0), Source{})
		require.NoError(t, err)
	}
	_, err = Lookup("LruOrg/small-0")
	require.NoError(t, err)
	for i := 0; i < 8; i++ { // past the seven padded ones kept before
		_, err := Register(id(100+i), cfg(1<<20-200), Source{})
		require.NoError(t, err)
		_, err = Lookup("LruOrg/small-0")
		require.NoError(t, err)
	}
	assert.True(t, Registered("LruOrg/small-0"))
	assert.False(t, Registered("LruOrg/small-1"))
}
