package api

import (
	"reflect"
	"strings"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/contract"
	"github.com/modelrefs/throughput/hardware"
)

// schemas builds JSON Schemas (OpenAPI 3.1 dialect) from Go types: a named
// struct becomes a component and a $ref to it.
type schemas struct {
	components obj
}

// strictTypes decode with unknown keys rejected: their schemas say so.
var strictTypes = map[reflect.Type]bool{
	reflect.TypeFor[calc.Request]():      true,
	reflect.TypeFor[calc.Workload]():     true,
	reflect.TypeFor[calc.SLO]():          true,
	reflect.TypeFor[calc.SweepOptions](): true,
}

// schemaOf returns the schema of t, adding components as needed.
func (s *schemas) schemaOf(t reflect.Type) obj {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == reflect.TypeFor[calc.HardwareRef]():
		return obj{
			"description": "A catalog id or name (\"h100-sxm\", \"A100 80GB SXM\"), or a custom accelerator given by its figures.",
			"oneOf":       []any{obj{"type": "string"}, s.schemaOf(reflect.TypeFor[hardware.Accelerator]())},
		}
	case t.Kind() == reflect.Struct:
		name := componentName(t)
		if _, done := s.components[name]; !done {
			s.components[name] = obj{} // reserve: types may recurse
			s.components[name] = s.structSchema(t)
		}
		return obj{"$ref": "#/components/schemas/" + name}
	case t.Kind() == reflect.Slice:
		return obj{"type": "array", "items": s.schemaOf(t.Elem())}
	case t.Kind() == reflect.Map:
		return obj{"type": "object", "additionalProperties": s.schemaOf(t.Elem())}
	case t.Kind() == reflect.Interface:
		return obj{}
	}
	return kindSchema(t.Kind())
}

// structSchema lists t's JSON fields. In the answers of calc and this
// package, fields without omitempty are required (always present); request
// types and the hardware types, which are also custom-accelerator input,
// list none.
func (s *schemas) structSchema(t reflect.Type) obj {
	props := obj{}
	var required []string
	name := componentName(t)
	for f := range t.Fields() {
		key := jsonName(f)
		if key == "" {
			continue
		}
		p := s.schemaOf(f.Type)
		if doc := contract.Docs[name+"."+key]; doc != "" {
			if _, isRef := p["$ref"]; isRef {
				p = obj{"allOf": []any{p}}
			}
			p["description"] = doc
		}
		props[key] = p
		if !strings.Contains(f.Tag.Get("json"), "omitempty") && !strictTypes[t] && componentName(t) == t.Name() {
			required = append(required, key)
		}
	}
	out := obj{"type": "object", "properties": props}
	if doc := contract.Docs[name]; doc != "" {
		out["description"] = doc
	}
	if len(required) > 0 {
		out["required"] = required
	}
	if strictTypes[t] {
		out["additionalProperties"] = false
	}
	return out
}

func kindSchema(k reflect.Kind) obj {
	switch {
	case k == reflect.String:
		return obj{"type": "string"}
	case k == reflect.Bool:
		return obj{"type": "boolean"}
	case k >= reflect.Int && k <= reflect.Uint64:
		return obj{"type": "integer"}
	case k == reflect.Float32 || k == reflect.Float64:
		return obj{"type": "number"}
	}
	panic("api: no schema for kind " + k.String())
}

// componentName names a type's schema: calc and api types by their Go
// name, others prefixed with their package ("HardwareAccelerator",
// "ModelsSource") so that hardware.Source and models.Source stay apart.
func componentName(t reflect.Type) string {
	pkg := t.PkgPath()
	pkg = pkg[strings.LastIndexByte(pkg, '/')+1:]
	switch pkg {
	case "calc", "api":
		return t.Name()
	}
	return strings.ToUpper(pkg[:1]) + pkg[1:] + t.Name()
}
