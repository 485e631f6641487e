package api_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSecurityHeaders checks the security headers on every kind of answer
// of the API: a report, a catalog entry, the OpenAPI document, /healthz, a
// problem, a 404, a 405 and a preflight. The API answers JSON only: no
// framing, no referrer, no sniffing, and a CSP under which a response
// opened as a document can run and load nothing.
func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ method, target, body string }{
		{"GET", "/v1/evaluate?model=qwen3-8b&hardware=l4", ""},
		{"POST", "/v1/evaluate", evalBody},
		{"POST", "/v1/evaluate", `{"model":`},
		{"GET", "/v1/models/qwen3-8b", ""},
		{"GET", "/v1/models/no-such-model", ""},
		{"GET", "/v1/hardware", ""},
		{"GET", "/openapi.json", ""},
		{"GET", "/healthz", ""},
		{"HEAD", "/healthz", ""},
		{"GET", "/v1/nothing", ""},
		{"DELETE", "/v1/evaluate", ""},
		{"OPTIONS", "/v1/evaluate", ""},
	} {
		t.Run(tc.method+" "+tc.target, func(t *testing.T) {
			t.Parallel()
			headers := jsonHeaders()
			if tc.method == "OPTIONS" {
				headers["Origin"] = "https://example.org"
				headers["Access-Control-Request-Method"] = "POST"
			}
			res := serve(t, tc.method, tc.target, headers, tc.body)
			assert.NotEqual(t, http.StatusInternalServerError, res.StatusCode)
			h := res.Header
			assert.Equal(t, "nosniff", h.Get("X-Content-Type-Options"))
			assert.Equal(t, "default-src 'none'; frame-ancestors 'none'; sandbox", h.Get("Content-Security-Policy"))
			assert.Equal(t, "DENY", h.Get("X-Frame-Options"))
			assert.Equal(t, "no-referrer", h.Get("Referrer-Policy"))
			assert.Equal(t, "*", h.Get("Access-Control-Allow-Origin"), "CORS stays open")
		})
	}
}
