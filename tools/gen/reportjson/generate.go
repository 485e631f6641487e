package main

import (
	"bytes"
	"reflect"
	"strconv"
	"unicode"

	"github.com/modelrefs/throughput/internal/jsongen"
)

// jsonGenerator writes, for every struct type T reachable from the root,
// appendT(w *jsonWriter, v *T), which appends v's JSON text through
// jsonWriter's methods (api/jsonwriter.go).
type jsonGenerator struct {
	*jsongen.Walker
	b bytes.Buffer
}

// localPkg is the package whose types the generated code names without a
// qualifier: this program's own, the fixture's (fixture.go), which the
// generated file's package declares as well (fixture_types_test.go). No
// type of calc.Report can be in it: a main package cannot be imported.
var localPkg = reflect.TypeFor[genFixture]().PkgPath()

// generateJSON returns the source, in package pkg and under header, of
// the encoder functions of root and every struct type it reaches, or why
// one cannot be generated.
func generateJSON(root reflect.Type, header, pkg string) ([]byte, error) {
	g := &jsonGenerator{Walker: jsongen.NewWalker(root, "tools/gen/reportjson")}
	for t, fields, ok := g.Next(); ok; t, fields, ok = g.Next() {
		g.structFunc(t, fields)
	}
	if err := g.Err(); err != nil {
		return nil, err
	}
	return g.Source(header, pkg, g.b.String())
}

// key is the JSON text a value is written after (`,"name":`, `:` in a
// map, "" for an array element): known when the code is generated (text),
// or, when expr is set, a Go expression that holds it at run time.
type key struct{ text, expr string }

// code is k as a Go expression.
func (k key) code() string {
	if k.expr != "" {
		return k.expr
	}
	return goString(k.text)
}

// goString is s as a Go string literal, raw where that reads better.
func goString(s string) string {
	if s == "" {
		return `""`
	}
	for _, c := range s {
		if c == '`' || !unicode.IsPrint(c) {
			return strconv.Quote(s)
		}
	}
	return "`" + s + "`"
}

// line writes one statement of generated code.
func (g *jsonGenerator) line(s string) { g.b.WriteString("\t" + s + "\n") }

// lit writes the statement(s) that append k and then the JSON text s.
func (g *jsonGenerator) lit(k key, s string) {
	if k.expr == "" {
		if k.text+s != "" {
			g.line("w.lit(" + goString(k.text+s) + ")")
		}
		return
	}
	g.line("w.lit(" + k.expr + ")")
	if s != "" {
		g.line("w.lit(" + goString(s) + ")")
	}
}

// funcName is the generated function that appends a value of struct type t.
func funcName(t reflect.Type) string {
	name := []rune(t.Name())
	name[0] = unicode.ToUpper(name[0])
	return "append" + string(name)
}

// typeName is t as the generated file names it.
func (g *jsonGenerator) typeName(t reflect.Type) string {
	if t.PkgPath() == localPkg {
		return t.Name()
	}
	return g.TypeName(t)
}

// structFunc writes appendT for struct type t with the given fields: one
// jsonWriter call per field where the field's key and value allow.
func (g *jsonGenerator) structFunc(t reflect.Type, fields []jsongen.Field) {
	name := g.typeName(t)
	g.b.WriteString("\n// " + funcName(t) + " appends a " + name + " as encoding/json does.\n")
	g.b.WriteString("func " + funcName(t) + "(w *jsonWriter, v *" + name + ") {\n")
	// Until a field that is always written has been, whether a key needs
	// a comma before it may only be known at run time: skip is then 1
	// while no field has been written.
	wrote, dynamic := false, false
	for _, f := range fields {
		expr := "v." + f.GoName
		if !wrote && !dynamic && f.OmitEmpty {
			g.line(`w.lit("{")`)
			g.line("skip := 1")
			dynamic = true
		}
		k := key{text: `,"` + f.Name + `":`}
		switch {
		case !wrote && !dynamic:
			k.text = "{" + k.text[1:]
		case !wrote:
			k.expr = goString(k.text) + "[skip:]"
		}
		if f.OmitEmpty {
			g.line("if " + g.NotEmpty(f.Type, expr) + " {")
		}
		g.value(f.Type, k, expr, f.OmitEmpty, 0)
		if f.OmitEmpty {
			if dynamic && !wrote {
				g.line("skip = 0")
			}
			g.line("}")
		} else {
			wrote = true
		}
	}
	switch {
	case !wrote && !dynamic:
		g.line(`w.lit("{}")`)
	default:
		g.line(`w.lit("}")`)
	}
	g.b.WriteString("}\n")
}

// scalars maps a basic kind to the jsonWriter method that writes it and
// the Go type that method takes.
var scalars = map[reflect.Kind]struct{ method, goType string }{
	reflect.String:  {"string", "string"},
	reflect.Bool:    {"bool", "bool"},
	reflect.Int:     {"int", "int64"},
	reflect.Int8:    {"int", "int64"},
	reflect.Int16:   {"int", "int64"},
	reflect.Int32:   {"int", "int64"},
	reflect.Int64:   {"int", "int64"},
	reflect.Uint:    {"uint", "uint64"},
	reflect.Uint8:   {"uint", "uint64"},
	reflect.Uint16:  {"uint", "uint64"},
	reflect.Uint32:  {"uint", "uint64"},
	reflect.Uint64:  {"uint", "uint64"},
	reflect.Float32: {"float32", "float32"},
	reflect.Float64: {"float64", "float64"},
}

// value writes the statements that append k and then expr, of type t, as
// JSON. nonNil says a pointer, slice or map is known not to be nil there;
// depth numbers the loop variables of nested slices and maps.
func (g *jsonGenerator) value(t reflect.Type, k key, expr string, nonNil bool, depth int) {
	if jsongen.CustomMarshaler(t) {
		g.Fail(t, "has its own MarshalJSON or MarshalText")
		return
	}
	if s, ok := scalars[t.Kind()]; ok {
		if t.Name() != s.goType || t.PkgPath() != "" {
			expr = s.goType + "(" + expr + ")"
		}
		g.line("w." + s.method + "(" + k.code() + ", " + expr + ")")
		return
	}
	d := strconv.Itoa(depth)
	null := "w.lit(" + goString(k.text+"null") + ")"
	if k.expr != "" {
		null = "w.lit(" + k.expr + ")\n\tw.lit(`null`)"
	}
	switch t.Kind() {
	case reflect.Struct:
		g.Need(t)
		g.lit(k, "")
		g.line(funcName(t) + "(w, &" + expr + ")")
	case reflect.Pointer:
		jsongen.OrNull(&g.b, expr, nonNil, null, func() {
			switch t.Elem().Kind() {
			case reflect.Struct:
				g.Need(t.Elem())
				g.lit(k, "")
				g.line(funcName(t.Elem()) + "(w, " + expr + ")")
			case reflect.Slice, reflect.Array, reflect.Map:
				g.value(t.Elem(), k, "(*"+expr+")", false, depth)
			default:
				g.value(t.Elem(), k, "*"+expr, false, depth)
			}
		})
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice {
			g.Fail(t, "[]byte (base64)")
			return
		}
		elems := func() {
			g.lit(k, "[")
			g.line("for i" + d + " := range " + expr + " {")
			g.line("if i" + d + ` > 0 { w.lit(",") }`)
			g.value(t.Elem(), key{}, expr+"[i"+d+"]", false, depth+1)
			g.line("}")
			g.line(`w.lit("]")`)
		}
		if t.Kind() == reflect.Array {
			elems()
			return
		}
		jsongen.OrNull(&g.b, expr, nonNil, null, elems)
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			g.Fail(t, "map keys other than strings")
			return
		}
		jsongen.OrNull(&g.b, expr, nonNil, null, func() {
			// encoding/json sorts the keys, as strings of bytes.
			g.Import("slices")
			keys, mk := "keys"+d, "mk"+d
			g.lit(k, "{")
			g.line(keys + " := make([]" + g.typeName(t.Key()) + ", 0, len(" + expr + "))")
			g.line("for " + mk + " := range " + expr + " { " + keys + " = append(" + keys + ", " + mk + ") }")
			g.line("slices.Sort(" + keys + ")")
			g.line("for i" + d + ", " + mk + " := range " + keys + " {")
			g.line("if i" + d + ` > 0 { w.lit(",") }`)
			g.line("mv" + d + " := " + expr + "[" + mk + "]")
			g.value(t.Key(), key{}, mk, false, depth+1)
			g.value(t.Elem(), key{text: ":"}, "mv"+d, false, depth+1)
			g.line("}")
			g.line(`w.lit("}")`)
		})
	default:
		g.Fail(t, "unsupported kind "+t.Kind().String())
	}
}
