package calc

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
)

// MaxRequestBytes bounds a JSON request (a config.json of a large model is
// under 20 KiB; the HTTP API enforces the same limit).
const MaxRequestBytes = 64 << 10

// ParseRequest decodes a JSON request strictly: unknown keys, wrong types,
// trailing data and bodies over MaxRequestBytes are errors naming the field.
func ParseRequest(data []byte) (Request, error) {
	var r Request
	if len(data) > MaxRequestBytes {
		return r, Errors{{"", "request is " + strconv.Itoa(len(data)) + " bytes, above the limit of " + strconv.Itoa(MaxRequestBytes)}}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Request{}, Errors{jsonFieldError(err)}
	}
	if _, err := dec.Token(); err != io.EOF {
		return Request{}, Errors{{"", "unexpected data after the request object"}}
	}
	return r, nil
}

// jsonFieldError turns an encoding/json error into a FieldError that names
// the offending key.
func jsonFieldError(err error) FieldError {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "(request)"
		}
		return FieldError{field, "must be " + jsonKind(te.Type.Kind().String()) + ", got " + te.Value}
	case errors.As(err, &se):
		return FieldError{"", "invalid JSON at byte " + strconv.FormatInt(se.Offset, 10) + ": " + strings.TrimPrefix(se.Error(), "json: ")}
	case errors.Is(err, io.EOF):
		return FieldError{"", "empty request: expected a JSON object"}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return FieldError{"", "truncated JSON"}
	}
	msg := err.Error()
	if i := strings.Index(msg, "unknown field "); i >= 0 {
		name, _ := strconv.Unquote(msg[i+len("unknown field "):])
		if name == "" {
			name = msg[i+len("unknown field "):]
		}
		return FieldError{name, "unknown field"}
	}
	return FieldError{"", strings.TrimPrefix(msg, "json: ")}
}

func jsonKind(k string) string {
	switch k {
	case "int", "int64", "int32":
		return "an integer"
	case "float64", "float32":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "map", "struct":
		return "an object"
	case "slice":
		return "an array"
	case "ptr":
		return "a value of the right type"
	}
	return "a " + k
}
