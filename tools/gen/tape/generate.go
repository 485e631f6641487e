package main

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/internal/jsongen"
)

// tapeGenerator writes tapeKeys, tapeTypes, tapeFullKeys and tapeFullTypes: the
// description, by index, of every type the root reaches, which the tape's
// one recorder (tape.value in wasm/js/bridge/tape.go) follows. A table
// instead of one function per struct: the light engine's code is its
// largest cost, and the table is a few KB of data. The types that only
// the full engine's sections reach (fullEngineOnly) come last, in their
// own table, tapeFullTypes, and the keys only they use in tapeFullKeys,
// which only the full engine's main links in (bridge.WriteFullSections).
type tapeGenerator struct {
	*jsongen.Walker
	keys     []string
	keyIndex map[string]int
	// types are the entries of tapeTypes, by index; index finds a type's.
	types []string
	index map[reflect.Type]int
	// scalar finds the entry of a scalar kind (every named string type
	// shares the entry of string).
	scalar map[reflect.Kind]int
	// full are the types of the full-engine-only fields, indexed after
	// every other type; fullAt marks where each one's index goes in the
	// entries.
	full []reflect.Type
}

// fullAt stands in an entry for the index of g.full[i] until it is known.
func fullAt(i int) string { return "\x00full" + strconv.Itoa(i) + "\x00" }

// generateTape returns the source, in package pkg and under header, of
// tapeKeys, tapeTypes and tapeReport for root and every type it reaches,
// or why one cannot be generated.
func generateTape(root reflect.Type, header, pkg string) ([]byte, error) {
	g := &tapeGenerator{
		Walker:   jsongen.NewWalker(root, "tools/gen/tape"),
		keyIndex: map[string]int{},
		index:    map[reflect.Type]int{},
		scalar:   map[reflect.Kind]int{},
	}
	g.Import("unsafe")
	rootName := g.TypeName(root)
	g.structIndex(root)
	for t, fields, ok := g.Next(); ok; t, fields, ok = g.Next() {
		g.structEntry(t, fields)
	}
	// Then what only the full-engine-only fields reach.
	base, keyBase := len(g.types), len(g.keys)
	fullIndex := make([]string, len(g.full))
	for i, t := range g.full {
		fullIndex[i] = strconv.Itoa(g.typeIndex(t))
	}
	for t, fields, ok := g.Next(); ok; t, fields, ok = g.Next() {
		g.structEntry(t, fields)
	}
	if err := g.Err(); err != nil {
		return nil, err
	}
	for i := range g.types {
		for j, at := range fullIndex {
			g.types[i] = strings.ReplaceAll(g.types[i], fullAt(j), at)
		}
	}
	var b strings.Builder
	b.WriteString("\n// tapeKeys are the object keys of the tape, by index.\nvar tapeKeys = []string{\n")
	for _, k := range g.keys[:keyBase] {
		b.WriteString("\t" + strconv.Quote(k) + ",\n")
	}
	b.WriteString("}\n")
	b.WriteString("\n// tapeFullKeys are the keys only tapeFullTypes' fields use, by index from\n" +
		"// len(tapeKeys); only the full engine links them in (WriteFullSections).\nvar tapeFullKeys = []string{\n")
	for _, k := range g.keys[keyBase:] {
		b.WriteString("\t" + strconv.Quote(k) + ",\n")
	}
	b.WriteString("}\n")
	b.WriteString("\n// tapeReport records a " + rootName + " (tapeTypes[0]).\n")
	b.WriteString("func tape" + root.Name() + "(t *tape, v *" + rootName + ") { t.value(unsafe.Pointer(v), 0) }\n")
	b.WriteString("\n// tapeTypes describes, by index, every type the tape records (tape.value)\n" +
		"// but those only the full engine's sections reach (tapeFullTypes).\nvar tapeTypes = [...]tapeType{\n")
	for i, e := range g.types[:base] {
		b.WriteString("\t" + strconv.Itoa(i) + ": " + e + ",\n")
	}
	b.WriteString("}\n")
	b.WriteString("\n// tapeFullBase is the index of tapeFullTypes' first entry: the types only\n" +
		"// the full engine's sections reach continue tapeTypes' indices.\nconst tapeFullBase = " + strconv.Itoa(base) + "\n")
	b.WriteString("\n// tapeFullTypes describes the types only the full engine's sections reach\n" +
		"// (tapeOmitFull), by index from tapeFullBase; only the full engine links\n// it in (WriteFullSections).\nvar tapeFullTypes = [...]tapeType{\n")
	for i, e := range g.types[base:] {
		b.WriteString("\t" + strconv.Itoa(base+i) + " - tapeFullBase: " + e + ",\n")
	}
	b.WriteString("}\n")
	return g.Source(header, pkg, b.String())
}

func (g *tapeGenerator) key(name string) string {
	i, ok := g.keyIndex[name]
	if !ok {
		i = len(g.keys)
		g.keyIndex[name] = i
		g.keys = append(g.keys, name)
	}
	return strconv.Itoa(i)
}

// fullEngineOnly are the report fields only the full engine fills: the
// simulation (calc/simulate), the start-up log's comparison and the
// calibration's fit (calc/calibrate), which the light engine's main does
// not import. The tape skips them unless the full engine's main asked
// for them (tapeOmitFull, bridge.WriteFullSections), and describes their
// types in tapeFullTypes, which the light engine leaves out.
var fullEngineOnly = map[string]bool{
	"calc.Report.Simulation":  true,
	"calc.Report.StartupLog":  true,
	"calc.Report.Calibration": true,
}

// add reserves the next index of tapeTypes for t.
func (g *tapeGenerator) add(t reflect.Type) int {
	i := len(g.types)
	g.types = append(g.types, "")
	g.index[t] = i
	return i
}

// structIndex is the index of the named struct t, queued for structEntry.
func (g *tapeGenerator) structIndex(t reflect.Type) int {
	if i, ok := g.index[t]; ok {
		return i
	}
	g.Need(t)
	return g.add(t)
}

// scalarKinds are the kinds the tape records as a scalar, with the name
// of their tapeKind.
var scalarKinds = map[reflect.Kind]string{
	reflect.String: "tapeKindString", reflect.Bool: "tapeKindBool",
	reflect.Int: "tapeKindInt", reflect.Int8: "tapeKindInt8", reflect.Int16: "tapeKindInt16",
	reflect.Int32: "tapeKindInt32", reflect.Int64: "tapeKindInt64",
	reflect.Uint8: "tapeKindUint8", reflect.Uint16: "tapeKindUint16", reflect.Uint32: "tapeKindUint32",
	reflect.Float64: "tapeKindFloat64",
}

// typeIndex is the index of the entry describing t, adding it (and what
// it reaches) when new.
func (g *tapeGenerator) typeIndex(t reflect.Type) int {
	if t.Kind() != reflect.Pointer && jsongen.CustomMarshaler(t) {
		g.Fail(t, "has its own MarshalJSON or MarshalText")
		return 0
	}
	if kind, ok := scalarKinds[t.Kind()]; ok {
		i, ok := g.scalar[t.Kind()]
		if !ok {
			i = len(g.types)
			g.scalar[t.Kind()] = i
			g.types = append(g.types, "{kind: "+kind+"}")
		}
		return i
	}
	switch t.Kind() {
	case reflect.Struct:
		return g.structIndex(t)
	case reflect.Pointer:
		if i, ok := g.index[t]; ok {
			return i
		}
		i := g.add(t)
		elem := g.typeIndex(t.Elem())
		g.types[i] = "{kind: tapeKindPointer, elem: " + strconv.Itoa(elem) + "}"
		return i
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			g.Fail(t, "[]byte (base64)")
			return 0
		}
		if i, ok := g.index[t]; ok {
			return i
		}
		i := g.add(t)
		elem := g.typeIndex(t.Elem())
		g.types[i] = "{kind: tapeKindSlice, elem: " + strconv.Itoa(elem) + ", size: unsafe.Sizeof(*new(" + g.typeString(t.Elem()) + "))}"
		return i
	}
	g.Fail(t, "unsupported kind "+t.Kind().String())
	return 0
}

// typeString is t as Go source names it.
func (g *tapeGenerator) typeString(t reflect.Type) string {
	if t.Name() == "" {
		switch t.Kind() {
		case reflect.Pointer:
			return "*" + g.typeString(t.Elem())
		case reflect.Slice:
			return "[]" + g.typeString(t.Elem())
		}
	}
	return g.TypeName(t)
}

// structEntry fills the entry of the struct t: its fields in order.
func (g *tapeGenerator) structEntry(t reflect.Type, fields []jsongen.Field) {
	name := g.TypeName(t)
	var b strings.Builder
	b.WriteString("{kind: tapeKindStruct, fields: []tapeField{ // " + name + "\n")
	for _, f := range fields {
		omit := ""
		switch {
		case fullEngineOnly[name+"."+f.GoName]:
			if !f.OmitEmpty {
				g.Fail(t, "field "+f.GoName+" is full-engine only but not omitempty")
				return
			}
			omit = ", omit: tapeOmitFull"
			b.WriteString("\t\t{off: unsafe.Offsetof(" + name + "{}." + f.GoName + "), typ: " + fullAt(len(g.full)) +
				", key: " + g.key(f.Name) + omit + "}, // " + f.Name + "\n")
			g.NotEmpty(f.Type, "v")
			g.full = append(g.full, f.Type)
			continue
		case f.OmitEmpty:
			omit = ", omit: tapeOmitEmpty"
		}
		if f.OmitEmpty {
			g.NotEmpty(f.Type, "v") // fails on a kind omitempty cannot test
		}
		typ := g.typeIndex(f.Type)
		b.WriteString("\t\t{off: unsafe.Offsetof(" + name + "{}." + f.GoName + "), typ: " + strconv.Itoa(typ) +
			", key: " + g.key(f.Name) + omit + "}, // " + f.Name + "\n")
	}
	b.WriteString("\t}}")
	g.types[g.index[t]] = b.String()
}
