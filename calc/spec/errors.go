package spec

import "github.com/modelrefs/throughput/internal/fielderr"

// ErrInvalidRequest is wrapped by every validation error Evaluate returns
// (it is fielderr.ErrInvalid, which every layer's field errors unwrap to).
var ErrInvalidRequest = fielderr.ErrInvalid

// FieldError is one problem with one request field. Field is the JSON path
// of the field ("tensor_parallel_size", "workload.input_tokens",
// "model_config.hidden_size"); Message says what is wrong with it. It is
// the project's one field-error type (package fielderr), shared by the
// decoder, the catalogs, the KV geometry and every door.
type FieldError = fielderr.Error

// Errors is the list of problems that stopped a request. A request that
// cannot be evaluated returns Errors and no report.
type Errors = fielderr.Errors

// Errs collects field errors during validation.
type Errs struct{ fielderr.List }
