package main

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
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
	src := generate("models", []byte(raw))
	assert.True(t, strings.HasPrefix(string(src), header))
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "catalog_data.go", src, parser.ParseComments)
	require.NoError(t, err, "%s", src)
	assert.Equal(t, "models", f.Name.Name)
	assert.True(t, ast.IsGenerated(f))
	pkg, err := new(types.Config).Check("models", fset, []*ast.File{f}, nil)
	require.NoError(t, err)
	c, ok := pkg.Scope().Lookup("catalogData").(*types.Const)
	require.True(t, ok, "catalogData is a constant")
	assert.Equal(t, raw, constant.StringVal(c.Val()))
}
