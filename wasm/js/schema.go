package main

import (
	"reflect"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/internal/jsonx"
)

// requestSchema describes calc.Request's JSON fields for throughput.js's
// boundary checks, derived from the Go types so that the two cannot drift:
//
//	"integer" | "number" | "string" | "bool"   a JSON scalar
//	"object"                                   any JSON object (model_config)
//	"any"                                      not checked
//	[T]                                        an array of T
//	{"key": T, ...}                            an object with these keys only
//	{"$string_or": {...}}                      a string or that object (hardware)
func requestSchema() string {
	b, err := jsonx.Marshal(schemaOf(reflect.TypeFor[calc.Request]()))
	if err != nil {
		panic("wasm/js: request schema: " + err.Error())
	}
	return string(b)
}

var (
	hardwareRefType = reflect.TypeFor[calc.HardwareRef]()
	unmarshalerType = reflect.TypeFor[jsonx.Unmarshaler]()
)

func schemaOf(t reflect.Type) any {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == hardwareRefType {
		// UnmarshalJSON accepts an id or hardware.Accelerator's figures.
		return map[string]any{"$string_or": schemaOf(reflect.TypeOf(calc.HardwareRef{}.Custom))}
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return "any" // its own decoding: left to the engine
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "bool"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return []any{schemaOf(t.Elem())}
	case reflect.Map:
		return "object"
	case reflect.Struct:
		fields := map[string]any{}
		for i := 0; i < t.NumField(); i++ {
			if name, _, ok := jsonx.FieldName(t.Field(i)); ok {
				fields[name] = schemaOf(t.Field(i).Type)
			}
		}
		return fields
	}
	return "any"
}
