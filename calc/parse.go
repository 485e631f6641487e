package calc

import (
	"strconv"

	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/jsonx"
)

// MaxRequestBytes bounds a JSON request (a config.json of a large model is
// under 20 KiB; the HTTP API enforces the same limit).
const MaxRequestBytes = 64 << 10

// ParseRequest decodes a JSON request strictly: unknown keys, wrong types,
// fractional integers, trailing data and bodies over MaxRequestBytes are
// errors naming the field by its JSON path ("workload.input_tokens").
func ParseRequest(data []byte) (Request, error) { return parseStrict[Request](data) }

// ParsePlanRequest decodes a JSON plan request as strictly as
// ParseRequest.
func ParsePlanRequest(data []byte) (PlanRequest, error) { return parseStrict[PlanRequest](data) }

func parseStrict[T any](data []byte) (T, error) {
	var r, zero T
	if len(data) > MaxRequestBytes {
		return r, Errors{{Field: "", Message: "request is " + strconv.Itoa(len(data)) + " bytes, above the limit of " + strconv.Itoa(MaxRequestBytes)}}
	}
	if err := jsonx.Unmarshal(data, &r); err != nil {
		return zero, fielderr.Under("", err)
	}
	return r, nil
}
