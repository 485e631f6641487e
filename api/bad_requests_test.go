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

// TestBadPlansOverHTTP sends every case of calc/testdata/bad-plans.json
// to POST /v1/plan: a 400 problem with exactly the case's errors.
func TestBadPlansOverHTTP(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../calc/testdata/bad-plans.json")
	require.NoError(t, err)
	var file struct {
		Cases []struct {
			Name    string          `json:"name"`
			Request json.RawMessage `json:"request"`
			Errors  calc.Errors     `json:"errors"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(data, &file))
	require.NotEmpty(t, file.Cases)
	for _, tc := range file.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			res := serve(t, "POST", "/v1/plan", jsonHeaders(), string(tc.Request))
			var p problemBody
			require.NoError(t, json.NewDecoder(res.Body).Decode(&p))
			require.Equal(t, 400, res.StatusCode, "%+v", p)
			assert.Equal(t, tc.Errors, p.Errors)
		})
	}
}

// POST /v1/plan answers the planner's report: the same as calc.Plan.
func TestPostPlan(t *testing.T) {
	t.Parallel()
	body := `{"model": "meta-llama/Llama-3.1-8B-Instruct", "workload": {"request_rate": 20, "input_tokens": 2048, "output_tokens": 500},
		"slo": {"ttft_ms": 1000, "tpot_ms": 50}, "constraints": {"accelerators": ["h100-sxm-80gb", "l40s"]}, "limit": 3}`
	res := serve(t, "POST", "/v1/plan", jsonHeaders(), body)
	require.Equal(t, 200, res.StatusCode)
	var got calc.PlanReport
	require.NoError(t, json.NewDecoder(res.Body).Decode(&got))
	req, err := calc.ParsePlanRequest([]byte(body))
	require.NoError(t, err)
	want, err := calc.Plan(req)
	require.NoError(t, err)
	assert.Equal(t, want.Answer, got.Answer)
	require.Len(t, got.Deployments, len(want.Deployments))
	assert.Equal(t, want.Deployments[0].Launch, got.Deployments[0].Launch)
	assert.InDelta(t, want.Deployments[0].USDPerMillionOutputTokens, got.Deployments[0].USDPerMillionOutputTokens, 1e-12)
}
