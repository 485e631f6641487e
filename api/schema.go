package api

import (
	"math"
	"reflect"
	"strings"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/contract"
)

// schemas builds the JSON Schemas (OpenAPI 3.1 dialect) of /openapi.json
// from package calc/contract, the one description of the request and
// report: a contract type becomes a component and a $ref to it. Request
// types are strict (additionalProperties: false) and state their fields'
// bounds, enums, defaults and units (calc.Fields); answer types list their
// always-present (non-omitempty) fields as required.
type schemas struct {
	components obj
}

// hardwareDoc describes calc.HardwareRef, whose Go doc speaks of Go.
const hardwareDoc = "A catalog id or name (\"h100-sxm\", \"A100 80GB SXM\"), or a custom accelerator given by its figures."

// schemaOf returns the $ref of Go struct type t (calc.Request, calc.Report,
// an answer type of this package or of the catalogs), adding the components
// of every type it reaches. The request's and the report's types come from
// contract.Request and contract.Report, anything else from contract.Of.
func (s *schemas) schemaOf(t reflect.Type) obj {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t {
	case reflect.TypeFor[calc.Request]():
		s.add(contract.Request())
	case reflect.TypeFor[calc.Report]():
		s.add(contract.Report())
	default:
		s.add(contract.Of(false, t))
	}
	return ref(contract.TypeName(t))
}

// add adds a component for each type of c not yet present. The request's
// types go first (openAPIDocument adds them first), so a type that is both
// request input and an answer (hardware.Accelerator, the custom
// accelerator and GET /v1/hardware's entries) keeps its strict schema.
func (s *schemas) add(c *contract.Contract) {
	for _, t := range c.Types {
		if _, done := s.components[componentName(t.Name)]; !done {
			s.components[componentName(t.Name)] = typeSchema(t)
		}
	}
}

// calcPkg is package calc's import path. Its request types' non-omitempty
// fields are required (hardware, a length distribution's distribution);
// the custom accelerator's are not (its id, name and interconnect may be
// left out).
var calcPkg = reflect.TypeFor[calc.Request]().PkgPath()

// typeSchema is the schema of one contract type: answer types require
// their non-omitempty fields, which are always present.
func typeSchema(t *contract.Type) obj {
	props := obj{}
	var required []string
	for _, f := range t.Fields {
		props[f.Name] = fieldSchema(f)
		if !f.Optional && (!t.Strict || t.Go.PkgPath() == calcPkg) {
			required = append(required, f.Name)
		}
	}
	out := obj{"type": "object", "properties": props}
	if t.Doc != "" {
		out["description"] = t.Doc
	}
	if len(required) > 0 {
		out["required"] = required
	}
	if t.Strict {
		out["additionalProperties"] = false
	}
	return out
}

// fieldSchema is the schema of one field: its shape, its calc.Fields
// entry (on the items of an array of numbers) and its description (the
// doc comment, the unit and how its default is chosen).
func fieldSchema(f contract.Field) obj {
	p := valueSchema(f.Value)
	target := p
	if f.Kind == contract.Array && f.Elem != nil && f.Elem.Kind != contract.Object {
		target = p["items"].(obj)
	}
	applySpec(target, f.Spec)
	doc := f.Doc
	if f.Kind == contract.IDOrObject && doc == "" {
		doc = hardwareDoc
	}
	if f.Spec.Unit != "" {
		doc = sentence(doc, "Unit: "+f.Spec.Unit+".")
	}
	if f.Spec.DefaultText != "" {
		doc = sentence(doc, "Default: "+f.Spec.DefaultText+".")
	}
	if doc == "" {
		return p
	}
	if _, isRef := p["$ref"]; isRef {
		p = obj{"allOf": []any{p}}
	}
	p["description"] = doc
	return p
}

// valueSchema is the schema of one JSON value's shape.
func valueSchema(v contract.Value) obj {
	switch v.Kind {
	case contract.Object:
		return ref(v.Ref)
	case contract.IDOrObject:
		return obj{"oneOf": []any{obj{"type": "string"}, ref(v.Ref)}}
	case contract.Array:
		return obj{"type": "array", "items": valueSchema(*v.Elem)}
	case contract.Map:
		return obj{"type": "object", "additionalProperties": valueSchema(*v.Elem)}
	case contract.Any:
		return obj{}
	}
	return obj{"type": string(v.Kind)}
}

// applySpec states a calc.Fields entry in JSON Schema: enum, minimum or
// exclusiveMinimum, maximum, default, and a power of two as the enum of
// the powers in range.
func applySpec(p obj, s calc.FieldSpec) {
	if len(s.Enum) > 0 {
		enum := make([]any, len(s.Enum))
		for i, e := range s.Enum {
			enum[i] = e
		}
		p["enum"] = enum
	}
	if s.HasMin {
		if s.ExclusiveMin {
			p["exclusiveMinimum"] = s.Min
		} else {
			p["minimum"] = s.Min
		}
	}
	if s.HasMax {
		p["maximum"] = s.Max
	}
	if s.PowerOfTwo {
		var enum []any
		for x := 1.0; !s.HasMax || x <= s.Max; x *= 2 {
			if !s.HasMin || x >= s.Min {
				enum = append(enum, x)
			}
			if x > math.MaxInt32 {
				break
			}
		}
		p["enum"] = enum
	}
	if s.Default != nil {
		p["default"] = s.Default
	}
}

func ref(name string) obj { return obj{"$ref": "#/components/schemas/" + componentName(name)} }

// componentName is a contract type's component: its contract name, with
// a capital (the problem type of this package is "Problem").
func componentName(name string) string {
	if name == "" {
		return name
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// sentence appends s to doc, a space apart.
func sentence(doc, s string) string {
	if doc == "" {
		return s
	}
	return doc + " " + s
}
