package main

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGenerate runs the generator on a small catalog: the file is Go in
// the package asked for, and its constant holds the JSON text exactly
// (quotes, newlines and non-ASCII included).
func TestGenerate(t *testing.T) {
	t.Parallel()
	raw := "[\n {\"id\": \"org/Model-\\\"7B\\\"\", \"name\": \"Modèle\\t7B\"}\n]\n"
	src := generate("catalog", []byte(raw))
	assert.True(t, strings.HasPrefix(string(src), header))
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "catalog_data.go", src, parser.ParseComments)
	require.NoError(t, err, "%s", src)
	assert.Equal(t, "catalog", f.Name.Name)
	assert.True(t, ast.IsGenerated(f))
	assert.NotContains(t, string(src), "//go:build", "a program leaves the catalog out by not importing the package, not by a build tag")
	pkg, err := new(types.Config).Check("catalog", fset, []*ast.File{f}, nil)
	require.NoError(t, err)
	c, ok := pkg.Scope().Lookup("data").(*types.Const)
	require.True(t, ok, "data is a constant")
	assert.Equal(t, raw, constant.StringVal(c.Val()))
}

// TestJoin reads two family files in file-name order (b.json is written
// first, a.json sorts first) into one array holding their three entries.
func TestJoin(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.json"), []byte("[\n {\"id\": \"b1\"},\n {\"id\": \"b2\"}\n]\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.json"), []byte("[{\"id\": \"a1\"}]"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a catalog file"), 0o644))
	raw, err := join(dir)
	require.NoError(t, err)
	assert.Equal(t, "[\n{\"id\": \"a1\"},\n{\"id\": \"b1\"},\n{\"id\": \"b2\"}\n]\n", string(raw))

	require.NoError(t, os.WriteFile(filepath.Join(dir, "c.json"), []byte("{\"id\": \"not an array\"}"), 0o644))
	_, err = join(dir)
	assert.ErrorContains(t, err, "c.json")

	_, err = join(t.TempDir())
	assert.ErrorContains(t, err, "no *.json files")
}
