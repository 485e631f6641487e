// Package jsongen is the part the generators of reflection-free report
// encoders share (tools/gen/tape writes the bridge's tape,
// wasm/js/bridge/report_tape.go; tools/gen/reportjson the API's JSON text,
// api/report_json.go; each from calc.Report's types, run by go generate):
// which struct types a root type reaches, their JSON fields as
// encoding/json sees them, encoding/json's omitempty test, and the
// generated file's imports and formatting. It also fills values at random
// (Fill) for the tests in api and wasm/js/bridge that check the generated
// encoders against encoding/json.
//
// Only the generator programs and tests import it; it is never linked into
// the engine, the bridge or the worker. What it does not handle (embedded
// fields, tag options other than omitempty, types with their own
// MarshalJSON or MarshalText) is an error, never a silent difference from
// encoding/json.
package jsongen

import (
	"bytes"
	"encoding"
	"encoding/json"
	"go/format"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/internal/jsonx"
)

// Field is one JSON field of a struct as encoding/json sees it.
type Field struct {
	// GoName is the struct field's name; Name its JSON key.
	GoName, Name string
	Type         reflect.Type
	// OmitEmpty is true when the field is left out while empty
	// (encoding/json never leaves out a struct, whatever its tag says).
	OmitEmpty bool
}

// Walker hands out, one at a time, the struct types a generator needs:
// the root and every named struct a generator asks for with Need. It
// records the first error and the packages the generated code names.
type Walker struct {
	// generator names the generator in error messages
	// ("tools/gen/reportjson").
	generator string
	imports   map[string]bool
	done      map[reflect.Type]bool
	queue     []reflect.Type
	err       error
}

// NewWalker starts a walk at root, a named struct type; generator names
// the generator to teach in error messages.
func NewWalker(root reflect.Type, generator string) *Walker {
	w := &Walker{generator: generator, imports: map[string]bool{}, done: map[reflect.Type]bool{}}
	w.Need(root)
	return w
}

// Need queues the named struct type t, once, for a later Next.
func (w *Walker) Need(t reflect.Type) {
	if !w.done[t] {
		w.done[t] = true
		w.queue = append(w.queue, t)
	}
}

// Next returns the next queued struct type and its JSON fields; ok is
// false when none is left or an error has been recorded.
func (w *Walker) Next() (t reflect.Type, fields []Field, ok bool) {
	for len(w.queue) > 0 && w.err == nil {
		t = w.queue[0]
		w.queue = w.queue[1:]
		switch {
		case t.Kind() != reflect.Struct || t.Name() == "":
			w.Fail(t, "only named structs get encoder functions")
		case CustomMarshaler(t):
			w.Fail(t, "has its own MarshalJSON or MarshalText")
		default:
			if fields = w.fields(t); w.err == nil {
				return t, fields, true
			}
		}
	}
	return nil, nil, false
}

// Fail records that t cannot be generated, and why; the first failure is
// the one Err returns.
func (w *Walker) Fail(t reflect.Type, why string) {
	if w.err == nil {
		w.err = &generateError{t.String() + ": " + why + " (teach " + w.generator + ", or keep the report plain)"}
	}
}

// Err is the first failure, or nil.
func (w *Walker) Err() error { return w.err }

type generateError struct{ msg string }

func (e *generateError) Error() string { return e.msg }

// TypeName is t as generated code names it ("calc.Report"), noting the
// import it needs.
//
// A type of calc's engine room (a package under calc/ but calc/contract
// and calc/validation) is named as package calc names it, "calc.Report":
// calc is the doors' one entry to the engine.
func (w *Walker) TypeName(t reflect.Type) string {
	pkg := t.PkgPath()
	if strings.HasPrefix(pkg, calcPath+"/") && !strings.HasPrefix(pkg, calcPath+"/contract") && !strings.HasPrefix(pkg, calcPath+"/validation") {
		w.imports[calcPath] = true
		return "calc." + t.Name()
	}
	if pkg != "" {
		w.imports[pkg] = true
	}
	return t.String()
}

// calcPath is package calc's import path.
const calcPath = "github.com/modelrefs/throughput/calc"

// Import notes a package the generated code uses.
func (w *Walker) Import(path string) { w.imports[path] = true }

// Source assembles a generated file: header, package clause, the imports
// noted with TypeName and Import, and body, formatted by gofmt.
func (w *Walker) Source(header, pkg, body string) ([]byte, error) {
	paths := make([]string, 0, len(w.imports))
	for p := range w.imports {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var src strings.Builder
	src.WriteString(header + "package " + pkg + "\n\nimport (\n")
	for _, p := range paths {
		src.WriteString("\t" + strconv.Quote(p) + "\n")
	}
	src.WriteString(")\n" + body)
	return format.Source([]byte(src.String()))
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// CustomMarshaler reports whether encoding/json would encode t (or *t)
// with its own MarshalJSON or MarshalText rather than by its kind.
func CustomMarshaler(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(marshalerType) || t.Implements(textMarshalerType) || p.Implements(marshalerType) || p.Implements(textMarshalerType)
}

// plainKey reports whether encoding/json takes name as the key as it is:
// letters, digits and a few punctuation marks (it would fall back to the
// Go name for some others; the generators keep to the plain ones).
func plainKey(name string) bool {
	for _, c := range name {
		if !(c == '_' || c == '-' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return name != ""
}

// fields lists t's JSON fields in order, failing on what the generators
// do not handle (embedded structs, tag options other than omitempty,
// unusual or repeated keys).
func (w *Walker) fields(t reflect.Type) []Field {
	var out []Field
	seen := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, opts, ok := jsonx.FieldName(f)
		switch {
		case !ok:
			continue
		case f.Anonymous:
			w.Fail(t, "embedded field "+f.Name)
			return nil
		case !plainKey(name) || seen[name]:
			w.Fail(t, "field "+f.Name+" has an unusual or repeated JSON key "+strconv.Quote(name))
			return nil
		}
		seen[name] = true
		fd := Field{GoName: f.Name, Name: name, Type: f.Type}
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "":
			case "omitempty":
				fd.OmitEmpty = f.Type.Kind() != reflect.Struct
			default:
				w.Fail(t, "field "+f.Name+" has tag option "+o)
				return nil
			}
		}
		out = append(out, fd)
	}
	return out
}

// NotEmpty is the Go condition under which encoding/json's omitempty
// keeps expr, a value of type t.
func (w *Walker) NotEmpty(t reflect.Type, expr string) string {
	switch t.Kind() {
	case reflect.String:
		return expr + ` != ""`
	case reflect.Bool:
		return expr
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return expr + " != 0"
	case reflect.Pointer, reflect.Interface:
		return expr + " != nil"
	case reflect.Slice, reflect.Map:
		return "len(" + expr + ") > 0"
	}
	w.Fail(t, "omitempty on an unsupported kind")
	return "false"
}

// OrNull writes to b the statements that run null when expr is nil and
// those body writes otherwise; only body's when nonNil says expr is known
// not to be nil there (an omitempty field inside its emptiness test).
func OrNull(b *bytes.Buffer, expr string, nonNil bool, null string, body func()) {
	if nonNil {
		body()
		return
	}
	b.WriteString("\tif " + expr + " == nil {\n\t" + null + "\n\t} else {\n")
	body()
	b.WriteString("\t}\n")
}
