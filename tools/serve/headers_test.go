package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testHeaders = `# comment
/*
  Content-Security-Policy: default-src 'self'; frame-ancestors 'self'
  X-Frame-Options: SAMEORIGIN
/widget.js
  Access-Control-Allow-Origin: *
/sub/:name/x.txt
  X-Seg: one
/a.wasm
  ! X-Frame-Options
  X-Extra: b
/*.wasm
  X-Extra: c
`

var future = time.Now().Add(time.Hour)

// newHeadersHandler serves a site with testHeaders and a widget.js.
func newHeadersHandler(t *testing.T) (*handler, string) {
	t.Helper()
	h, dir := newTestHandler(t)
	www := filepath.Join(dir, "www")
	require.NoError(t, os.WriteFile(filepath.Join(www, headersFile), []byte(testHeaders), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(www, "widget.js"), []byte("export {};"), 0o644))
	return h, www
}

func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	h, www := newHeadersHandler(t)
	get := func(p string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://x"+p, nil))
		return rec
	}
	for _, p := range []string{"/", "/index.html", "/widget.js", "/a.wasm", "/missing", "/../secret.txt"} {
		rec := get(p)
		assert.Equal(t, "nosniff", rec.Header().Get("X-Content-Type-Options"), p)
		assert.Equal(t, "strict-origin-when-cross-origin", rec.Header().Get("Referrer-Policy"), p)
		assert.Equal(t, "default-src 'self'; frame-ancestors 'self'", rec.Header().Get("Content-Security-Policy"), p)
	}
	assert.Equal(t, "SAMEORIGIN", get("/").Header().Get("X-Frame-Options"))
	assert.Equal(t, "*", get("/widget.js").Header().Get("Access-Control-Allow-Origin"))
	assert.Empty(t, get("/index.html").Header().Get("Access-Control-Allow-Origin"))
	wasm := get("/a.wasm").Header()
	assert.Empty(t, wasm.Get("X-Frame-Options"), "! detaches")
	assert.Equal(t, "b, c", wasm.Get("X-Extra"), "rules that set one header are joined")
	assert.Equal(t, "one", get("/sub/q/x.txt").Header().Get("X-Seg"))
	assert.Empty(t, get("/sub/q/r/x.txt").Header().Get("X-Seg"), "a placeholder is one segment")

	// The rules are not a file of the site.
	for _, p := range []string{"/_headers", "//_headers", "/./_headers", "/sub/../_headers"} {
		rec := get(p)
		assert.NotEqual(t, http.StatusOK, rec.Code, p)
		assert.NotContains(t, rec.Body.String(), "Content-Security-Policy", p)
	}

	// An edit of _headers is picked up without a restart.
	require.NoError(t, os.WriteFile(filepath.Join(www, headersFile), []byte("/*\n  Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\n"), 0o644))
	require.NoError(t, os.Chtimes(filepath.Join(www, headersFile), future, future))
	assert.Equal(t, "default-src 'none'; frame-ancestors 'none'", get("/").Header().Get("Content-Security-Policy"))
}

func TestBaseHeadersWithoutHeadersFile(t *testing.T) {
	t.Parallel()
	h, _ := newTestHandler(t)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://x/", nil))
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.Equal(t, "nosniff", rec.Header().Get("X-Content-Type-Options"))
	assert.Equal(t, "strict-origin-when-cross-origin", rec.Header().Get("Referrer-Policy"))
	assert.Empty(t, rec.Header().Get("Content-Security-Policy"))
}

// TestBuiltSiteHeaders checks build/site/_headers, when built: the page's
// CSP holds script-src 'self' 'wasm-unsafe-eval' with one hash per inline
// script of index.html, nosniff, a Referrer-Policy, frame-ancestors and
// the CORS headers that embedding from another origin needs.
func TestBuiltSiteHeaders(t *testing.T) {
	site := filepath.Join("..", "..", "build", "site")
	if _, err := os.Stat(filepath.Join(site, headersFile)); err != nil {
		t.Skip("build/site/_headers is missing (./build.sh build)")
	}
	h := &handler{dir: site, gz: map[string]gzEntry{}}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://x/", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	csp := rec.Header().Get("Content-Security-Policy")
	assert.Regexp(t, `(^|; )script-src 'self' 'wasm-unsafe-eval' 'sha256-[A-Za-z0-9+/]+=*'(;|$)`, csp)
	assert.True(t, strings.HasSuffix(csp, "; frame-ancestors *"), csp)
	// Embedding from any origin (docs/embedding.md): CORS and CORP on
	// every file, once each, and no X-Frame-Options.
	for _, p := range []string{"/", "/widget.js", "/throughput.wasm", "/prerender.json"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://x"+p, nil))
		require.Equal(t, http.StatusOK, rec.Code, p)
		assert.Equal(t, []string{"*"}, rec.Header().Values("Access-Control-Allow-Origin"), p)
		assert.Equal(t, "cross-origin", rec.Header().Get("Cross-Origin-Resource-Policy"), p)
		assert.Empty(t, rec.Header().Get("X-Frame-Options"), p)
	}
	assert.Contains(t, csp, "object-src 'none'")
	assert.NotContains(t, csp, "INLINE_SCRIPT_HASHES")
	assert.Equal(t, "nosniff", rec.Header().Get("X-Content-Type-Options"))
	assert.Equal(t, "strict-origin-when-cross-origin", rec.Header().Get("Referrer-Policy"))
}

// TestPreflight: OPTIONS on a file of the site answers 204 with Allow; a
// CORS preflight on a path whose rules allow other origins also gets the
// methods, the asked headers and a max age (a cross-origin fetch of the
// engine with a custom header passes); elsewhere no CORS grant, and a
// missing file is a 404.
func TestPreflight(t *testing.T) {
	t.Parallel()
	h, _ := newHeadersHandler(t)
	options := func(p string, preflight bool) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodOptions, "http://x"+p, nil)
		if preflight {
			req.Header.Set("Origin", "http://other.example")
			req.Header.Set("Access-Control-Request-Method", "GET")
			req.Header.Set("Access-Control-Request-Headers", "x-test, range")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	rec := options("/widget.js", true)
	assert.Equal(t, http.StatusNoContent, rec.Code)
	assert.Equal(t, "*", rec.Header().Get("Access-Control-Allow-Origin"))
	assert.Equal(t, "GET, HEAD, OPTIONS", rec.Header().Get("Access-Control-Allow-Methods"))
	assert.Equal(t, "x-test, range", rec.Header().Get("Access-Control-Allow-Headers"))
	assert.Equal(t, "86400", rec.Header().Get("Access-Control-Max-Age"))
	assert.Empty(t, rec.Body.String())

	rec = options("/widget.js", false)
	assert.Equal(t, http.StatusNoContent, rec.Code)
	assert.Equal(t, "GET, HEAD, OPTIONS", rec.Header().Get("Allow"))
	assert.Empty(t, rec.Header().Get("Access-Control-Allow-Methods"), "not a preflight")

	rec = options("/index.html", true)
	assert.Equal(t, http.StatusNoContent, rec.Code)
	assert.Empty(t, rec.Header().Get("Access-Control-Allow-Methods"), "the rules give /index.html no CORS")
	assert.Equal(t, http.StatusNotFound, options("/missing.js", true).Code)
	assert.Equal(t, http.StatusNotFound, options("/_headers", true).Code)

	post := httptest.NewRecorder()
	h.ServeHTTP(post, httptest.NewRequest(http.MethodPost, "http://x/widget.js", nil))
	assert.Equal(t, http.StatusMethodNotAllowed, post.Code)
	assert.Equal(t, "GET, HEAD, OPTIONS", post.Header().Get("Allow"))
}
