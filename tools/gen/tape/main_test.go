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

// TestGenerateFixture runs the generator on a small type: one entry per
// type (the struct first, scalars shared by kind), the keys in the order
// first met, the json:"-" field left out.
func TestGenerateFixture(t *testing.T) {
	t.Parallel()
	src, err := generateTape(reflect.TypeFor[Fixture](), header, "main")
	require.NoError(t, err)
	s := string(src)
	assert.True(t, strings.HasPrefix(s, header))
	assert.Equal(t, []string{"tapeFixture"}, funcs(t, src, "main"))
	assert.Contains(t, s, "var tapeKeys = []string{\n\t\"name\",\n\t\"count\",\n\t\"ratio\",\n\t\"next\",\n\t\"opt\",\n\t\"items\",\n\t\"on\",\n}")
	assert.NotContains(t, s, `"Skip"`)
	for _, want := range []string{
		"func tapeFixture(t *tape, v *main.Fixture) { t.value(unsafe.Pointer(v), 0) }",
		"0: {kind: tapeKindStruct, fields: []tapeField{ // main.Fixture",
		"{off: unsafe.Offsetof(main.Fixture{}.Name), typ: 1, key: 0},",
		"{off: unsafe.Offsetof(main.Fixture{}.Count), typ: 2, key: 1, omit: tapeOmitEmpty},",
		"{off: unsafe.Offsetof(main.Fixture{}.Ratio), typ: 3, key: 2},",
		// A pointer to a struct, then to a scalar (recorded as the value
		// it points to: the float64 entry).
		"{off: unsafe.Offsetof(main.Fixture{}.Next), typ: 4, key: 3},",
		"{off: unsafe.Offsetof(main.Fixture{}.Opt), typ: 6, key: 4, omit: tapeOmitEmpty},",
		"{off: unsafe.Offsetof(main.Fixture{}.Items), typ: 7, key: 5, omit: tapeOmitEmpty},",
		"1: {kind: tapeKindString},", "2: {kind: tapeKindInt},", "3: {kind: tapeKindFloat64},",
		"4: {kind: tapeKindPointer, elem: 5},",
		"5: {kind: tapeKindStruct, fields: []tapeField{ // main.Item",
		"6: {kind: tapeKindPointer, elem: 3},",
		"7: {kind: tapeKindSlice, elem: 5, size: unsafe.Sizeof(*new(main.Item))},",
	} {
		assert.Contains(t, s, want)
	}
}

// TestGenerateReport: calc.Report is the first entry, written by
// tapeReport.
func TestGenerateReport(t *testing.T) {
	t.Parallel()
	src, err := generateTape(reflect.TypeFor[calc.Report](), header, "main")
	require.NoError(t, err)
	assert.Equal(t, []string{"tapeReport"}, funcs(t, src, "main"))
	assert.Contains(t, string(src), "func tapeReport(t *tape, v *calc.Report) { t.value(unsafe.Pointer(v), 0) }")
	assert.Contains(t, string(src), "0: {kind: tapeKindStruct, fields: []tapeField{ // calc.Report\n")
	// The fields only the full engine fills are left out unless the full
	// engine's main asks for them (bridge.WriteFullSections), and the types
	// only they reach are in tapeFullTypes, after every other type.
	for _, field := range []string{"Simulation", "StartupLog", "Calibration"} {
		assert.Regexp(t, `\{off: unsafe\.Offsetof\(calc\.Report\{\}\.`+field+`\), typ: \d+, key: \d+, omit: tapeOmitFull\}`, string(src), field)
	}
	assert.Len(t, fullEngineOnly, 3)
	// Every engine writes the bands.
	assert.Regexp(t, `\{off: unsafe\.Offsetof\(calc\.Report\{\}\.Bands\), typ: \d+, key: \d+, omit: tapeOmitEmpty\}`, string(src))
	full := strings.Index(string(src), "var tapeFullTypes")
	require.Positive(t, full)
	for _, typ := range []string{"calc.SimulationReport", "calc.StartupLogReport", "calc.CalibrationReport"} {
		assert.Greater(t, strings.Index(string(src), "// "+typ+"\n"), full, typ)
	}
	for _, typ := range []string{"calc.Band", "calc.DecodeReport"} {
		at := strings.Index(string(src), "// "+typ+"\n")
		assert.True(t, at > 0 && at < full, typ)
	}
	// The keys only those types use are in tapeFullKeys (the simulation's
	// "arrival"); a key the light engine's types use stays in tapeKeys.
	keys, fullKeys := strings.Index(string(src), "var tapeKeys"), strings.Index(string(src), "var tapeFullKeys")
	require.True(t, keys > 0 && fullKeys > keys)
	at := func(k string) int { return strings.Index(string(src), "\t\""+k+"\",\n") }
	assert.Greater(t, at("arrival"), fullKeys)
	for _, k := range []string{"figure", "version"} {
		assert.True(t, at(k) > keys && at(k) < fullKeys, k)
	}
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
