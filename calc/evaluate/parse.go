package evaluate

import (
	"strconv"

	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/jsonx"
)

// MaxRequestBytes bounds a JSON request (a config.json of a large model is
// under 20 KiB; the HTTP API enforces the same limit).
const MaxRequestBytes = 64 << 10

// ParseRequest decodes a JSON request strictly: unknown keys, wrong types,
// fractional integers, trailing data and bodies over MaxRequestBytes are
// errors naming the field by its JSON path ("workload.input_tokens").
//
// An unknown key does not hide the other problems: the rest of the request
// is decoded and validated (Validate), and the errors list the unknown
// keys first, then every other bad field, as Evaluate would name them. A
// wrong type or malformed JSON stops decoding where it is found.
func ParseRequest(data []byte) (spec.Request, error) {
	return parseStrictUpTo(data, MaxRequestBytes, Validate) // ParseStrict's, without linking its wrapper
}

// ParseStrict decodes data into a T strictly. When it holds unknown keys
// the rest is decoded and checked by validate, so the errors name the
// unknown keys first, then every other bad field.
func ParseStrict[T any](data []byte, validate func(T) error) (T, error) {
	return parseStrictUpTo(data, MaxRequestBytes, validate)
}

// MaxCalibrateBytes bounds a request to ParseCalibrateRequest: one
// benchmark file at its cap (spec.MaxImportBytes) beside a request's
// MaxRequestBytes.
const MaxCalibrateBytes = spec.MaxImportBytes + MaxRequestBytes

// ParseCalibrateRequest decodes a request as ParseRequest does, up to
// MaxCalibrateBytes: the body of a calibration whose imports hold large
// benchmark files (POST /v1/calibrate), which the fit turns into a
// profile small enough for any request.
func ParseCalibrateRequest(data []byte) (spec.Request, error) {
	return parseStrictUpTo(data, MaxCalibrateBytes, Validate)
}

func parseStrictUpTo[T any](data []byte, limit int, validate func(T) error) (T, error) {
	var r, zero T
	if len(data) > limit {
		return zero, fielderr.New("", "request is "+strconv.Itoa(len(data))+" bytes, above the limit of "+strconv.Itoa(limit))
	}
	unknown, err := jsonx.UnmarshalKnown(data, &r)
	if err == nil && len(unknown) == 0 {
		return r, nil
	}
	var e spec.Errs
	e.AddErr("", unknown.Err())
	if err == nil {
		err = validate(r)
	}
	e.AddErr("", err)
	return zero, e.Err()
}

// Validate returns the Errors that Evaluate returns for req's fields (every
// bad field, each named with the reason), or nil when every field is
// valid. It does not evaluate: a request it accepts may still exceed the
// work budget (EvaluateWithBudget).
func Validate(req spec.Request) error {
	d, p, err := deploy.ResolveAsk(req)
	_, err = deploy.SimulationPlan(req.Simulate, d, p, err)
	return err
}

// Evaluate answers a request. Invalid requests return Errors (a list of
// FieldError naming each bad field) and a zero Report; a model that does
// not fit is a valid answer: Report.Fits is false and Warnings say why.
//
// A request whose estimated work exceeds DefaultWorkBudget (a simulation
// too large for an edge request) is refused with Errors naming the field
// that drives the cost; EvaluateWithBudget takes another budget.
func Evaluate(req spec.Request) (spec.Report, error) {
	return EvaluateWithBudget(req, DefaultWorkBudget)
}
