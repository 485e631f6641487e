package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGenerateFixture runs the generator on a module of its own: doc
// comments of exported struct types and of their JSON fields, keyed by
// JSON name and prefixed per package; test files, *_gen.go, json:"-" and
// unexported names left out; a leading Go name written as its JSON name.
func TestGenerateFixture(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	files := map[string]string{
		"calc/spec/report.go": `package calc

// Report is what Evaluate answers.
type Report struct {
	// Fits says whether the model fits.
	Fits bool ` + "`json:\"fits\"`" + `
	// Secret is not in the JSON.
	Secret int ` + "`json:\"-\"`" + `
	Plain string // Plain has no tag.
	// hidden is unexported.
	hidden int
}

// notExported is left out.
type notExported struct{ A int }
`,
		"calc/report_test.go": "package calc\n\n// TestOnly is left out.\ntype TestOnly struct{}\n",
		"calc/docs_gen.go":    "package calc\n\n// Generated is left out.\ntype Generated struct{}\n",
		"models/entry.go": `package models

// Entry is one catalog model.
type Entry struct {
	ID string ` + "`json:\"id,omitempty\"`" + ` // ID is the model's name.
}
`,
		"hardware/doc.go":          "// Package hardware has no struct types here.\npackage hardware\n",
		"api/api.go":               "package api\n",
		"wasm/js/bridge/bridge.go": "package bridge\n",
	}
	for name, src := range files {
		path := filepath.Join(root, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	}
	src, err := Generate(root)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(src), header))
	assert.Equal(t, header+`package docs

import "github.com/modelrefs/throughput/calc/contract"

func init() { contract.Docs = docs }

// docs holds the doc comments of the contract's types ("Type") and
// their JSON fields ("Type.json_name").
var docs = map[string]string{
	"ModelsEntry":    "Entry is one catalog model.",
	"ModelsEntry.id": "id is the model's name.",
	"Report":         "Report is what Evaluate answers.",
	"Report.Plain":   "Plain has no tag.",
	"Report.fits":    "fits says whether the model fits.",
}
`, string(src))
}

// TestGenerateMissingPackage: a module root without the packages is an
// error, not an empty table.
func TestGenerateMissingPackage(t *testing.T) {
	t.Parallel()
	_, err := Generate(t.TempDir())
	assert.Error(t, err)
}
