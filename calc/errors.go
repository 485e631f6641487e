package calc

import (
	"errors"
	"strings"
)

// ErrInvalidRequest is wrapped by every validation error Evaluate returns.
var ErrInvalidRequest = errors.New("invalid request")

// FieldError is one problem with one request field. Field is the JSON path
// of the field ("tensor_parallel_size", "workload.input_tokens",
// "model_config.hidden_size"); Message says what is wrong with it.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

func (e FieldError) Error() string { return e.Field + ": " + e.Message }

// Errors is the list of problems that stopped a request. A request that
// cannot be evaluated returns Errors and no report.
type Errors []FieldError

func (e Errors) Error() string {
	var b strings.Builder
	for i, f := range e {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(f.Error())
	}
	return b.String()
}

// Unwrap returns ErrInvalidRequest.
func (e Errors) Unwrap() error { return ErrInvalidRequest }

// errs collects field errors during validation.
type errs struct{ list Errors }

func (e *errs) add(field, msg string) { e.list = append(e.list, FieldError{field, msg}) }

func (e *errs) err() error {
	if len(e.list) == 0 {
		return nil
	}
	return e.list
}
