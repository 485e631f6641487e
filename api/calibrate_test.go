package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// POST /v1/calibrate takes a benchmark file larger than POST
// /v1/evaluate's 64 KiB (a real GuideLLM report of 94 KiB,
// calc/testdata/imports/sources.json) and answers with the fit and its
// profile; the same body is a 413 at /v1/evaluate; the profile it gives
// back fits any request.
func TestCalibrateTakesLargeFilesAndAnswersAProfile(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../calc/testdata/imports/guidellm-llmd-fixture-v2.json")
	require.NoError(t, err)
	require.Greater(t, len(data), calc.MaxRequestBytes)
	body, err := json.Marshal(calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{ID: "h100-sxm"}, MaxModelLen: calc.Int(8192),
		Calibration: &calc.Calibration{Imports: []calc.BenchmarkImport{{Format: "guidellm_json", Data: string(data)}}}})
	require.NoError(t, err)
	post := func(target string, b string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, target, strings.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		New().ServeHTTP(w, req)
		return w
	}
	w := post("/v1/evaluate", string(body))
	assert.Equal(t, http.StatusRequestEntityTooLarge, w.Code)

	w = post("/v1/calibrate", string(body))
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	var rep calc.CalibrationReport
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &rep))
	require.Len(t, rep.Serving, 2, "the report's two benchmarks")
	assert.Equal(t, 2.0, rep.Serving[0].RequestRate)
	require.NotNil(t, rep.CalibrationProfile)
	assert.Equal(t, calc.CalibrationProfileVersion, rep.CalibrationProfile.Version)
	prof, err := json.Marshal(rep.CalibrationProfile)
	require.NoError(t, err)
	assert.Less(t, len(prof), 2048)

	// The profile, sent back to POST /v1/evaluate, applies its terms.
	back, err := json.Marshal(calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{ID: "h100-sxm"}, MaxModelLen: calc.Int(8192),
		Calibration: &calc.Calibration{Profile: rep.CalibrationProfile}})
	require.NoError(t, err)
	w = post("/v1/evaluate", string(back))
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	var r calc.Report
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &r))
	assert.Equal(t, rep.CalibrationProfile.Terms.BandwidthEfficiency, r.Config.Efficiencies.BandwidthEfficiency)

	// Without measurements: a 400 naming calibration.
	w = post("/v1/calibrate", `{"model":"llama-3.1-8b","hardware":"h100-sxm"}`)
	assert.Equal(t, http.StatusBadRequest, w.Code)
	assert.Contains(t, w.Body.String(), `"field":"calibration"`)
}
