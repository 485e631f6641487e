package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// llamaConfig is Llama-3.1-8B's architecture (hidden 4096, 32 layers, 32
// heads, 8 KV heads, intermediate 14336, vocab 128256, untied): 8,030,261,248
// parameters by hand (models.TestLlama31_8BBreakdown). Keys are in a
// deliberately unsorted order, which the import must keep.
const llamaConfig = `{"vocab_size": 128256, "model_type": "llama", "hidden_size": 4096,
 "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
 "intermediate_size": 14336, "max_position_embeddings": 131072, "tie_word_embeddings": false}`

// setup writes a catalog folder with one family file and a config to import.
func setup(t *testing.T) (dir, config string) {
	t.Helper()
	root := t.TempDir()
	dir = filepath.Join(root, "catalog")
	require.NoError(t, os.Mkdir(dir, 0o755))
	existing := `[
 {
  "id": "org/Existing-1B",
  "aliases": ["existing-1b"],
  "name": "Existing 1B",
  "published_params": 8030261248,
  "params_source": "test",
  "source": {"url": "https://example.com/config.json"},
  "config": ` + llamaConfig + `
 }
]
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "test-family.json"), []byte(existing), 0o644))
	config = filepath.Join(root, "config.json")
	require.NoError(t, os.WriteFile(config, []byte(llamaConfig), 0o644))
	return dir, config
}

func importArgs(dir, config string, extra ...string) []string {
	return append([]string{"import", "-no-generate", "-dir", dir, "-config", config,
		"-id", "org/New-8B", "-family", "Test Family", "-aliases", "new-8b,new8b",
		"-repo", "owner/repo", "-path", "configs/new.json", "-commit", "0123abcd",
		"-source-url", "https://huggingface.co/org/New-8B/blob/main/config.json",
		"-params", "8.03e9", "-params-source", "model card: 8.03B"}, extra...)
}

func TestImportAppendsToFamilyFile(t *testing.T) {
	t.Parallel()
	dir, config := setup(t)
	var out, errOut bytes.Buffer
	require.NoError(t, run(importArgs(dir, config), &out, &errOut), errOut.String())
	assert.Contains(t, out.String(), "org/New-8B added (derived 8.03B parameters, published 8.03B)")

	raw, err := os.ReadFile(filepath.Join(dir, "test-family.json"))
	require.NoError(t, err)
	var list []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &list))
	require.Len(t, list, 2, "the family file is test-family.json: Test Family lower-cased, spaces as dashes")
	var e entry
	require.NoError(t, json.Unmarshal(mustJSON(t, list[1]), &e))
	assert.Equal(t, "org/New-8B", e.ID)
	assert.Equal(t, "New-8B", e.Name, "the name defaults to the id's part after the /")
	assert.Equal(t, []string{"new-8b", "new8b"}, e.Aliases)
	assert.Equal(t, "owner/repo", e.Source.Repo)
	assert.Equal(t, "configs/new.json", e.Source.Path)
	assert.Equal(t, "0123abcd", e.Source.Commit)
	assert.InDelta(t, 8.03e9, e.PublishedParams, 0)
	// The config keeps the published key order.
	cfg := string(list[1]["config"])
	assert.Less(t, strings.Index(cfg, "vocab_size"), strings.Index(cfg, "model_type"))
	// The first entry's text is kept.
	assert.Contains(t, string(raw), `"id": "org/Existing-1B"`)

	// check accepts the result.
	out.Reset()
	require.NoError(t, run([]string{"check", "-dir", dir}, &out, &errOut))
	assert.Contains(t, out.String(), "2 entries")
}

// A former Hub id is a valid alias; a name one entry claims as an alias and
// another as its id suffix is not ambiguous (the alias wins the lookup).
func TestValidAliasAndRanks(t *testing.T) {
	t.Parallel()
	assert.True(t, validAlias("meta-llama/meta-llama-3.1-8b"))
	assert.True(t, validAlias("llama-3.1-8b"))
	assert.False(t, validAlias("/llama"))
	assert.False(t, validAlias("meta-llama/"))
	assert.False(t, validAlias("a_b"))
	base := entry{ID: "meta-llama/Llama-3.1-8B"}
	instruct := entry{ID: "meta-llama/Llama-3.1-8B-Instruct", Aliases: []string{"llama-3.1-8b"}}
	assert.Empty(t, collisions(base, []entry{base, instruct}))
	other := entry{ID: "someone/Llama-3.1-8B"}
	assert.Equal(t, []string{`name "llama-3.1-8b" is also claimed by someone/Llama-3.1-8B`}, collisions(base, []entry{base, other}))
}

func TestImportRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		extra []string
		want  string
	}{
		// 8.030B derived vs 8.2B published: -2.07 %.
		{"params off", []string{"-params", "8.2e9"}, "-2.07 % off the published 8.20B (more than 1 %)"},
		{"alias taken", []string{"-aliases", "existing-1b"}, `name "existing-1b" is also claimed by org/Existing-1B`},
		{"upper-case alias", []string{"-aliases", "New-8B-Chat"}, `alias "New-8B-Chat" must be lower-case`},
		{"alias with two slashes", []string{"-aliases", "org/old/name"}, `alias "org/old/name" must be lower-case without spaces or underscores, with a slash only as a former Hub id`},
		{"id suffix taken", []string{"-id", "other/Existing-1B"}, `name "existing-1b" is also claimed by org/Existing-1B`},
		{"duplicate id", []string{"-id", "org/Existing-1B"}, "org/Existing-1B is already in test-family.json (use -replace)"},
		{"no source", []string{"-repo", "", "-path", "", "-source-url", ""}, "source cites neither a URL nor a repository"},
		{"repo without path", []string{"-path", ""}, "source.repo without source.path"},
		{"tolerance without reason", []string{"-params", "8.15e9", "-params-tolerance", "0.02"}, "the notes do not justify it"},
		{"tolerance too wide", []string{"-params-tolerance", "0.05", "-notes", "params_tolerance: why"}, "above the most allowed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir, config := setup(t)
			before, err := os.ReadFile(filepath.Join(dir, "test-family.json"))
			require.NoError(t, err)
			err = run(importArgs(dir, config, tc.extra...), &bytes.Buffer{}, &bytes.Buffer{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			after, err := os.ReadFile(filepath.Join(dir, "test-family.json"))
			require.NoError(t, err)
			assert.Equal(t, string(before), string(after), "a refused import writes nothing")
		})
	}
}

// A justified tolerance admits a count published only rounded: 8.03B
// derived against 8.15B is -1.47 %.
func TestImportToleranceWithReason(t *testing.T) {
	t.Parallel()
	dir, config := setup(t)
	err := run(importArgs(dir, config, "-params", "8.15e9", "-params-tolerance", "0.02",
		"-notes", "params_tolerance 0.02: the publisher rounds"), &bytes.Buffer{}, &bytes.Buffer{})
	require.NoError(t, err)
}

// An unusable config is refused with the engine's field error.
func TestImportBadConfig(t *testing.T) {
	t.Parallel()
	dir, _ := setup(t)
	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"model_type": "unknown_family", "hidden_size": 4096}`), 0o644))
	err := run(importArgs(dir, bad), &bytes.Buffer{}, &bytes.Buffer{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the engine refuses its config")
	assert.Contains(t, err.Error(), "num_hidden_layers")
}

// The committed catalog passes the same validation as an import.
func TestCheckCommittedCatalog(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run([]string{"check", "-dir", "../../models/catalog"}, &out, &bytes.Buffer{}))
	assert.Contains(t, out.String(), "entries in ../../models/catalog")
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// -hf-quant-config makes the hf_quant_config.json's quantization object the
// config's quantization_config (quant_method modelopt first), and
// -collapse-layer-lists names each per-layer module once: 14 entries
// model.layers.0.self_attn* ... model.layers.13.self_attn* plus lm_head
// become model.layers.*.self_attn* and lm_head. The notes say both.
func TestImportModelOptAndCollapse(t *testing.T) {
	t.Parallel()
	dir, config := setup(t)
	var exclude []string
	for i := 0; i < 14; i++ {
		exclude = append(exclude, fmt.Sprintf("model.layers.%d.self_attn*", i))
	}
	exclude = append(exclude, "lm_head")
	hq, err := json.Marshal(map[string]any{
		"producer":     map[string]any{"name": "modelopt"},
		"quantization": map[string]any{"quant_algo": "NVFP4", "group_size": 16, "exclude_modules": exclude},
	})
	require.NoError(t, err)
	hqPath := filepath.Join(t.TempDir(), "hf_quant_config.json")
	require.NoError(t, os.WriteFile(hqPath, hq, 0o644))
	require.NoError(t, run(importArgs(dir, config, "-hf-quant-config", hqPath, "-collapse-layer-lists"), &bytes.Buffer{}, &bytes.Buffer{}))

	raw, err := os.ReadFile(filepath.Join(dir, "test-family.json"))
	require.NoError(t, err)
	var list []entry
	require.NoError(t, json.Unmarshal(raw, &list))
	var c struct {
		Q struct {
			Method  string   `json:"quant_method"`
			Algo    string   `json:"quant_algo"`
			Exclude []string `json:"exclude_modules"`
		} `json:"quantization_config"`
	}
	require.NoError(t, json.Unmarshal(list[1].Config, &c))
	assert.Equal(t, "modelopt", c.Q.Method)
	assert.Equal(t, "NVFP4", c.Q.Algo)
	assert.Equal(t, []string{"model.layers.*.self_attn*", "lm_head"}, c.Q.Exclude)
	assert.Contains(t, list[1].Notes, "hf_quant_config.json's 'quantization' object")
	assert.Contains(t, list[1].Notes, "collapsed to patterns")
	// The engine reads it as NVFP4.
	m, err := derive(list[1])
	require.NoError(t, err)
	assert.InDelta(t, 4.5, m.Quant.BitsPerWeight, 0)
}
