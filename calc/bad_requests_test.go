package calc_test

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/contract"
)

// badRequest is one case of testdata/bad-requests.json, the table of bad
// requests that the Go API, POST /v1/evaluate (api/bad_requests_test.go)
// and the JavaScript module (www/test/bad-requests.test.mjs) must all
// answer with the same field errors.
type badRequest struct {
	Name        string          `json:"name"`
	Request     json.RawMessage `json:"request"`
	RequestText string          `json:"request_text"`
	Errors      calc.Errors     `json:"errors"`
	ErrorsJS    calc.Errors     `json:"errors_js"`
	Note        string          `json:"note"`
	// Derivation, where present, works the expected message out by hand
	// (a figure the engine computes, such as a work estimate).
	Derivation string `json:"derivation"`
}

func loadBadRequests(t *testing.T) []badRequest {
	t.Helper()
	data, err := os.ReadFile("testdata/bad-requests.json")
	require.NoError(t, err)
	var file struct {
		Cases []badRequest `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(data, &file))
	return file.Cases
}

// TestBadRequests: calc.ParseRequest and calc.Evaluate answer every case
// of the shared table with exactly its field errors, in order, and no
// report.
func TestBadRequests(t *testing.T) {
	t.Parallel()
	cases := loadBadRequests(t)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			body := []byte(tc.RequestText)
			if tc.RequestText == "" {
				body = tc.Request
			}
			req, err := calc.ParseRequest(body)
			var report calc.Report
			if err == nil {
				report, err = calc.Evaluate(req)
			}
			require.Error(t, err)
			assert.True(t, errors.Is(err, calc.ErrInvalidRequest))
			var got calc.Errors
			require.True(t, errors.As(err, &got), "%T: %v", err, err)
			assert.Equal(t, tc.Errors, got)
			assert.Zero(t, report.Version, "no partial report")
		})
	}
}

// The table is well formed and covers what it must: at least 45 cases,
// unique names, a request and errors in each, and an unknown key in every
// object type of the request contract.
func TestBadRequestsCoverage(t *testing.T) {
	t.Parallel()
	cases := loadBadRequests(t)
	assert.GreaterOrEqual(t, len(cases), 45)
	names := map[string]bool{}
	for _, tc := range cases {
		assert.False(t, names[tc.Name], "duplicate case %q", tc.Name)
		names[tc.Name] = true
		assert.NotEmpty(t, tc.Errors, tc.Name)
		assert.True(t, (len(tc.Request) > 0) != (tc.RequestText != ""), "%s: request or request_text", tc.Name)
		assert.Equal(t, tc.ErrorsJS != nil, tc.Note != "", "%s: errors_js needs a note saying why", tc.Name)
	}
	for _, typ := range contract.Request().Types {
		assert.True(t, names["unknown key in "+typ.Name], "no case with an unknown key in %s", typ.Name)
	}
	for _, want := range []string{"engine", "dtype", "kv_cache_dtype", "quantization", "arrival", "distribution"} {
		found := false
		for _, tc := range cases {
			for _, e := range tc.Errors {
				found = found || strings.HasPrefix(e.Message, "unknown "+want+" ")
			}
		}
		assert.True(t, found, "no case with a bad %s", want)
	}
}

// Validate names the same field errors as Evaluate for a request that
// decodes, without evaluating it, and nothing for a valid one.
func TestValidateAsEvaluate(t *testing.T) {
	t.Parallel()
	req := calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{ID: "h100-sxm"}, TensorParallelSize: calc.Int(3),
		Workload: &calc.Workload{InputTokens: calc.Int(-1)}}
	want := calc.Errors{
		{Field: "workload.input_tokens", Message: "must be at least 1, got -1"},
		{Field: "tensor_parallel_size", Message: "3 does not divide the model's 32 attention heads"},
	}
	assert.Equal(t, want, calc.Validate(req))
	_, err := calc.Evaluate(req)
	assert.Equal(t, want, err)
	req.TensorParallelSize, req.Workload = calc.Int(2), nil
	assert.NoError(t, calc.Validate(req))
}
