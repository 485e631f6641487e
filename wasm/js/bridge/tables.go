package bridge

import (
	"github.com/modelrefs/throughput/calc/contract"
	"github.com/modelrefs/throughput/internal/jsonx"
)

// The bridge hands throughput.js two tables as JSON text. Both are derived
// from package calc through calc/contract by tools/gen/jstables at
// generate time and compiled into the .wasm as constants
// (tables_gen.go), so that the browser engine carries neither the
// contract walker nor the reflection it needs (about 12 KB of gzip).

// RequestSchema describes calc.Request's JSON fields for throughput.js's
// boundary checks, derived from the request contract:
//
//	"integer" | "number" | "string" | "bool"   a JSON scalar
//	"object"                                   any JSON object (model_config)
//	"any"                                      not checked
//	[T]                                        an array of T
//	{"key": T, ...}                            an object with these keys only
//	{"$string_or": {...}}                      a string or that object (hardware)
func RequestSchema() string {
	c := contract.Request()
	return mustJSON(schemaOf(c, c.Type("Request")))
}

// ContractJSON is NewContract as JSON.
func ContractJSON() string { return mustJSON(NewContract()) }

func mustJSON(v any) string {
	b, err := jsonx.Marshal(v)
	if err != nil {
		panic("bridge: " + err.Error())
	}
	return string(b)
}

// schemaOf is the schema of one contract type: its fields' shapes.
func schemaOf(c *contract.Contract, t *contract.Type) map[string]any {
	fields := make(map[string]any, len(t.Fields))
	for _, f := range t.Fields {
		fields[f.Name] = shapeOf(c, f.Value)
	}
	return fields
}

func shapeOf(c *contract.Contract, v contract.Value) any {
	switch v.Kind {
	case contract.String, contract.Integer, contract.Number:
		return string(v.Kind)
	case contract.Boolean:
		return "bool"
	case contract.Array:
		return []any{shapeOf(c, *v.Elem)}
	case contract.Map:
		return "object"
	case contract.Object:
		return schemaOf(c, c.Type(v.Ref))
	case contract.IDOrObject:
		// calc.HardwareRef: an id or hardware.Accelerator's figures.
		return map[string]any{"$string_or": schemaOf(c, c.Type(v.Ref))}
	}
	return "any" // its own decoding: left to the engine
}
