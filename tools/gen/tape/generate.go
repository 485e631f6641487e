package main

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/internal/jsongen"
)

// tapeGenerator writes, for every struct type reachable from the root, one
// tapeT function.
type tapeGenerator struct {
	*jsongen.Walker
	tape     bytes.Buffer
	keys     []string
	keyIndex map[string]int
}

// generateTape returns the source, in package pkg and under header, of
// tapeKeys and the tape functions of root and every struct type it
// reaches, or why one cannot be generated.
func generateTape(root reflect.Type, header, pkg string) ([]byte, error) {
	g := &tapeGenerator{Walker: jsongen.NewWalker(root, "tools/gen/tape"), keyIndex: map[string]int{}}
	for t, fields, ok := g.Next(); ok; t, fields, ok = g.Next() {
		g.structFunc(t, fields)
	}
	if err := g.Err(); err != nil {
		return nil, err
	}
	var keys strings.Builder
	keys.WriteString("\n// tapeKeys are the object keys of the tape, by index.\nvar tapeKeys = []string{\n")
	for _, k := range g.keys {
		keys.WriteString("\t" + strconv.Quote(k) + ",\n")
	}
	keys.WriteString("}\n")
	return g.Source(header, pkg, keys.String()+g.tape.String())
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

// fullEngineOnly are the report fields only the full engine fills
// (calc.FullEngine says why): their writer runs under that constant, so
// that the light engine's linker drops it (about 4 KB of the light
// engine's gzip; scripts/wasm-size.sh).
var fullEngineOnly = map[string]bool{
	"calc.Report.Simulation":  true,
	"calc.Report.StartupLog":  true,
	"calc.Report.Bands":       true,
	"calc.Report.Calibration": true,
}

func (g *tapeGenerator) structFunc(t reflect.Type, fields []jsongen.Field) {
	name := g.TypeName(t)
	tp := &g.tape
	tp.WriteString("\n// tape" + t.Name() + " records a " + name + " as an object.\n")
	tp.WriteString("func tape" + t.Name() + "(t *tape, v *" + name + ") {\n\tat, n := t.object(), 0\n")
	for _, f := range fields {
		expr := "v." + f.GoName
		guard := ""
		if fullEngineOnly[name+"."+f.GoName] {
			if !f.OmitEmpty {
				g.Fail(t, "field "+f.GoName+" is full-engine only but not omitempty")
				return
			}
			guard = "calc.FullEngine && "
		}
		if f.OmitEmpty {
			tp.WriteString("\tif " + guard + g.NotEmpty(f.Type, expr) + " {\n")
		}
		tp.WriteString("\tt.key(" + g.key(f.Name) + ") // " + f.Name + "\n")
		g.tapeValue(f.Type, expr, f.OmitEmpty)
		tp.WriteString("\tn++\n")
		if f.OmitEmpty {
			tp.WriteString("\t}\n")
		}
	}
	tp.WriteString("\tt.end(at, n)\n}\n")
}

// tapeValue writes the statements that record expr of type t on the tape.
func (g *tapeGenerator) tapeValue(t reflect.Type, expr string, nonNil bool) {
	b := &g.tape
	if t.Kind() != reflect.Pointer && jsongen.CustomMarshaler(t) {
		g.Fail(t, "has its own MarshalJSON or MarshalText")
		return
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool:
		b.WriteString("\tt." + t.Kind().String() + "(" + t.Kind().String() + "(" + expr + "))\n")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Float64:
		b.WriteString("\tt.number(float64(" + expr + "))\n")
	case reflect.Struct:
		g.Need(t)
		b.WriteString("\ttape" + t.Name() + "(t, &" + expr + ")\n")
	case reflect.Pointer:
		if t.Elem().Kind() != reflect.Struct {
			// A pointer to a scalar (an optional figure): null or the value.
			jsongen.OrNull(b, expr, nonNil, "t.null()", func() { g.tapeValue(t.Elem(), "*"+expr, false) })
			return
		}
		g.Need(t.Elem())
		jsongen.OrNull(b, expr, nonNil, "t.null()", func() {
			b.WriteString("\ttape" + t.Elem().Name() + "(t, " + expr + ")\n")
		})
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			g.Fail(t, "[]byte (base64)")
			return
		}
		jsongen.OrNull(b, expr, nonNil, "t.null()", func() {
			b.WriteString("\tt.array(len(" + expr + "))\n\tfor i := range " + expr + " {\n")
			g.tapeValue(t.Elem(), expr+"[i]", false)
			b.WriteString("\t}\n")
		})
	default:
		g.Fail(t, "unsupported kind "+t.Kind().String())
	}
}
