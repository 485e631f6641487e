package api_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// TestBadRequestsOverHTTP sends every case of calc/testdata/bad-requests.json
// (the table the Go API and the JavaScript module answer too) to POST
// /v1/evaluate: a 400 problem whose errors are exactly the case's, never a
// 5xx. Under ./build.sh test it runs against the worker as well.
func TestBadRequestsOverHTTP(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../calc/testdata/bad-requests.json")
	require.NoError(t, err)
	var file struct {
		Cases []struct {
			Name        string          `json:"name"`
			Request     json.RawMessage `json:"request"`
			RequestText string          `json:"request_text"`
			Errors      calc.Errors     `json:"errors"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(data, &file))
	require.GreaterOrEqual(t, len(file.Cases), 45)
	for _, tc := range file.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			body := tc.RequestText
			if body == "" {
				body = string(tc.Request)
			}
			res := serve(t, "POST", "/v1/evaluate", jsonHeaders(), body)
			assert.Equal(t, typeProbl, res.Header.Get("Content-Type"))
			var p problemBody
			require.NoError(t, json.NewDecoder(res.Body).Decode(&p))
			require.Equal(t, 400, res.StatusCode, "%+v", p)
			assert.Equal(t, problemDoc+"invalid-request", p.Type)
			assert.Equal(t, tc.Errors, p.Errors)
		})
	}
}
