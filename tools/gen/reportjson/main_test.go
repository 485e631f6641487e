package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// funcsAndTypes parses src, a whole Go file in package pkg, and lists the
// functions and types it declares.
func funcsAndTypes(t *testing.T, src []byte, pkg string) (funcs, types []string) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "gen.go", src, parser.ParseComments)
	require.NoError(t, err, "%s", src)
	require.Equal(t, pkg, f.Name.Name)
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			funcs = append(funcs, d.Name.Name)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok {
					types = append(types, ts.Name.Name)
				}
			}
		}
	}
	return funcs, types
}

// TestGenerateFixture runs the generator on the fixture (fixture.go): one
// encoder per struct it reaches, naming the fixture's types without a
// qualifier, as the package they are copied into declares them.
func TestGenerateFixture(t *testing.T) {
	t.Parallel()
	src, err := generateJSON(reflect.TypeFor[genFixture](), header, "api")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(src), header))
	funcs, _ := funcsAndTypes(t, src, "api")
	assert.ElementsMatch(t, []string{"appendGenFixture", "appendGenFixtureItem", "appendFixtureEmpty"}, funcs)
	assert.Contains(t, string(src), "func appendGenFixture(w *jsonWriter, v *genFixture) {")
	assert.NotContains(t, string(src), "main.")
	assert.Contains(t, string(src), `"slices"`, "the map keys are sorted")
}

// TestGenerateReport: calc.Report's encoder names calc's types with their
// package and starts with appendReport.
func TestGenerateReport(t *testing.T) {
	t.Parallel()
	src, err := generateJSON(reflect.TypeFor[calc.Report](), header, "api")
	require.NoError(t, err)
	funcs, _ := funcsAndTypes(t, src, "api")
	require.NotEmpty(t, funcs)
	assert.Equal(t, "appendReport", funcs[0])
	assert.Contains(t, string(src), "func appendReport(w *jsonWriter, v *calc.Report) {")
	assert.Contains(t, string(src), `"github.com/modelrefs/throughput/calc"`)
}

// TestFixtureTypesSource: the copy of fixture.go declares the same types
// in the package asked for.
func TestFixtureTypesSource(t *testing.T) {
	t.Parallel()
	src, err := fixtureTypesSource("api")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(src), header))
	_, types := funcsAndTypes(t, src, "api")
	assert.Equal(t, []string{"genFixture", "fixtureLabel", "genFixtureItem", "fixtureEmpty"}, types)
}

// TestGenerateJSONFailsLoudly: a type the generator cannot encode as
// encoding/json does is an error naming it, never different output.
// (The error names the field's type, the one the generator cannot encode.)
func TestGenerateJSONFailsLoudly(t *testing.T) {
	t.Parallel()
	type withAny struct {
		V any `json:"v"`
	}
	type withMarshaler struct {
		V calc.HardwareRef `json:"v"`
	}
	type withIntKeys struct {
		V map[int]string `json:"v"`
	}
	type withBytes struct {
		V []byte `json:"v"`
	}
	type withString struct {
		V int `json:"v,string"`
	}
	for _, typ := range []reflect.Type{
		reflect.TypeFor[withAny](), reflect.TypeFor[withMarshaler](), reflect.TypeFor[withIntKeys](),
		reflect.TypeFor[withBytes](), reflect.TypeFor[withString](),
	} {
		_, err := generateJSON(typ, header, "api")
		assert.Error(t, err, typ.String())
	}
}
