package calc

import (
	"errors"
	"strconv"

	"github.com/modelrefs/throughput/internal/jsonx"
)

// MaxRequestBytes bounds a JSON request (a config.json of a large model is
// under 20 KiB; the HTTP API enforces the same limit).
const MaxRequestBytes = 64 << 10

// ParseRequest decodes a JSON request strictly: unknown keys, wrong types,
// fractional integers, trailing data and bodies over MaxRequestBytes are
// errors naming the field by its JSON path ("workload.input_tokens").
func ParseRequest(data []byte) (Request, error) {
	var r Request
	if len(data) > MaxRequestBytes {
		return r, Errors{{"", "request is " + strconv.Itoa(len(data)) + " bytes, above the limit of " + strconv.Itoa(MaxRequestBytes)}}
	}
	if err := jsonx.Unmarshal(data, &r); err != nil {
		return Request{}, Errors{jsonFieldError(err)}
	}
	return r, nil
}

// jsonFieldError turns a decoding error into a FieldError naming the
// offending key by its path.
func jsonFieldError(err error) FieldError {
	var je *jsonx.Error
	if errors.As(err, &je) {
		return FieldError{je.Path, je.Msg}
	}
	return FieldError{"", err.Error()}
}
