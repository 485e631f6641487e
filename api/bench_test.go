package api_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelrefs/throughput/api"
)

func BenchmarkPostEvaluate(b *testing.B) {
	h := api.New()
	for b.Loop() {
		req := httptest.NewRequest("POST", "/v1/evaluate", strings.NewReader(evalBody))
		req.Header.Set("Content-Type", typeJSON)
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
}
