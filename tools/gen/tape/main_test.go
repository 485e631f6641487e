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

type Fixture struct {
	Name  string   `json:"name"`
	Count int      `json:"count,omitempty"`
	Ratio float64  `json:"ratio"`
	Next  *Item    `json:"next"`
	Opt   *float64 `json:"opt,omitempty"`
	Items []Item   `json:"items,omitempty"`
	Skip  bool     `json:"-"`
}

type Item struct {
	On bool `json:"on"`
}

// funcs parses src, a Go file in package pkg, and lists its functions.
func funcs(t *testing.T, src []byte, pkg string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "gen.go", src, 0)
	require.NoError(t, err, "%s", src)
	require.Equal(t, pkg, f.Name.Name)
	var out []string
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			out = append(out, fd.Name.Name)
		}
	}
	return out
}

// TestGenerateFixture runs the generator on a small type: one tape
// function per struct, the keys in the order first met, the json:"-"
// field left out.
func TestGenerateFixture(t *testing.T) {
	t.Parallel()
	src, err := generateTape(reflect.TypeFor[Fixture](), header, "main")
	require.NoError(t, err)
	s := string(src)
	assert.True(t, strings.HasPrefix(s, header))
	assert.Equal(t, []string{"tapeFixture", "tapeItem"}, funcs(t, src, "main"))
	assert.Contains(t, s, "var tapeKeys = []string{\n\t\"name\",\n\t\"count\",\n\t\"ratio\",\n\t\"next\",\n\t\"opt\",\n\t\"items\",\n\t\"on\",\n}")
	assert.NotContains(t, s, `"Skip"`)
	assert.Contains(t, s, "if v.Count != 0 {")
	// A pointer to a scalar: recorded as the value it points to.
	assert.Contains(t, s, "if v.Opt != nil {\n\t\tt.key(4) // opt\n\t\tt.number(float64(*v.Opt))\n")
}

// TestGenerateReport: calc.Report's encoder starts with tapeReport.
func TestGenerateReport(t *testing.T) {
	t.Parallel()
	src, err := generateTape(reflect.TypeFor[calc.Report](), header, "main")
	require.NoError(t, err)
	fs := funcs(t, src, "main")
	require.NotEmpty(t, fs)
	assert.Equal(t, "tapeReport", fs[0])
	assert.Contains(t, string(src), "func tapeReport(t *tape, v *calc.Report) {")
	// The fields only the full engine fills are written under
	// calc.FullEngine, which is false in the light engine (-tags nosim).
	for _, cond := range []string{"v.Simulation != nil", "v.StartupLog != nil", "len(v.Bands) > 0", "v.Calibration != nil"} {
		assert.Contains(t, string(src), "\tif calc.FullEngine && "+cond+" {\n", cond)
	}
	assert.Len(t, fullEngineOnly, 4)
}

// TestGenerateTapeFailsLoudly: what the tape cannot record as
// encoding/json encodes it is an error, never different output.
func TestGenerateTapeFailsLoudly(t *testing.T) {
	t.Parallel()
	type withMap struct {
		V map[string]int `json:"v"`
	}
	type withMarshaler struct {
		V calc.HardwareRef `json:"v"`
	}
	type withBytes struct {
		V []byte `json:"v"`
	}
	type withPointer struct {
		V *map[string]int `json:"v"`
	}
	for _, typ := range []reflect.Type{
		reflect.TypeFor[withMap](), reflect.TypeFor[withMarshaler](), reflect.TypeFor[withBytes](), reflect.TypeFor[withPointer](),
	} {
		_, err := generateTape(typ, header, "main")
		assert.Error(t, err, typ.String())
	}
}
