package api_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStaticFiles checks, against a running worker, that non-API paths
// serve the files of THROUGHPUT_STATIC_DIR (the worker's static site,
// build/site/ as ./build.sh build assembles it) with their content type,
// and nothing from the sources.
func TestStaticFiles(t *testing.T) {
	t.Parallel()
	dir := os.Getenv("THROUGHPUT_STATIC_DIR")
	if apiURL == "" || dir == "" {
		t.Skip("needs THROUGHPUT_API_URL and THROUGHPUT_STATIC_DIR (./build.sh test sets them)")
	}
	tests := []struct {
		name        string
		target      string
		file        string
		contentType string
	}{
		{name: "index", target: "/", file: "index.html", contentType: "text/html; charset=utf-8"},
		{name: "index by name", target: "/index.html", file: "index.html", contentType: "text/html; charset=utf-8"},
		{name: "module", target: "/throughput.js", file: "throughput.js", contentType: "text/javascript; charset=utf-8"},
		{name: "widget", target: "/widget.js", file: "widget.js", contentType: "text/javascript; charset=utf-8"},
		{name: "engine", target: "/throughput.wasm", file: "throughput.wasm", contentType: "application/wasm"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			want, err := os.ReadFile(filepath.Join(dir, tc.file))
			if os.IsNotExist(err) {
				t.Skipf("%s has no %s", dir, tc.file)
			}
			require.NoError(t, err)
			res := serve(t, "GET", tc.target, nil, "")
			got, err := io.ReadAll(res.Body)
			require.NoError(t, err)
			assert.Equal(t, http.StatusOK, res.StatusCode)
			assert.Equal(t, tc.contentType, res.Header.Get("Content-Type"))
			assert.Equal(t, string(want), string(got))
			// The site's _headers, applied as Cloudflare's static assets do.
			assert.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
			assert.Equal(t, "strict-origin-when-cross-origin", res.Header.Get("Referrer-Policy"))
			if _, err := os.Stat(filepath.Join(dir, "_headers")); err == nil {
				assert.Contains(t, res.Header.Get("Content-Security-Policy"), "script-src 'self' 'wasm-unsafe-eval'")
			}
		})
	}
}

// TestStaticFilesAreTheSiteOnly checks that the worker serves the built site
// and not the sources beside it (the module's tests, the page's template).
func TestStaticFilesAreTheSiteOnly(t *testing.T) {
	t.Parallel()
	if apiURL == "" || os.Getenv("THROUGHPUT_STATIC_DIR") == "" {
		t.Skip("needs THROUGHPUT_API_URL and THROUGHPUT_STATIC_DIR (./build.sh test sets them)")
	}
	for _, target := range []string{"/test/golden.test.mjs", "/www/test/golden.test.mjs", "/page/index.html", "/module/package.json", "/_headers", "//_headers"} {
		t.Run(target, func(t *testing.T) {
			t.Parallel()
			res := serve(t, "GET", target, nil, "")
			assert.Equal(t, http.StatusNotFound, res.StatusCode)
		})
	}
}

// TestStaticFilesCORS checks, against a running worker, what embedding
// from another origin needs of the site's files (docs/embedding.md): CORS
// and Cross-Origin-Resource-Policy on the element, the module, the engine
// and the page, no X-Frame-Options (the page may be framed), and a CORS
// preflight on a file answered 204 with the methods and asked headers.
func TestStaticFilesCORS(t *testing.T) {
	t.Parallel()
	dir := os.Getenv("THROUGHPUT_STATIC_DIR")
	if apiURL == "" || dir == "" {
		t.Skip("needs THROUGHPUT_API_URL and THROUGHPUT_STATIC_DIR (./build.sh test sets them)")
	}
	if _, err := os.Stat(filepath.Join(dir, "_headers")); err != nil {
		t.Skipf("%s has no _headers (./build.sh build)", dir)
	}
	origin := map[string]string{"Origin": "http://docs.example"}
	for _, target := range []string{"/", "/widget.js", "/throughput-calculator.js", "/throughput.js", "/wasm_exec.js", "/throughput.wasm"} {
		res := serve(t, "GET", target, origin, "")
		require.Equal(t, http.StatusOK, res.StatusCode, target)
		assert.Equal(t, []string{"*"}, res.Header.Values("Access-Control-Allow-Origin"), target)
		assert.Equal(t, "cross-origin", res.Header.Get("Cross-Origin-Resource-Policy"), target)
		assert.Empty(t, res.Header.Get("X-Frame-Options"), target)
	}
	res := serve(t, "OPTIONS", "/throughput.wasm", map[string]string{
		"Origin": "http://docs.example", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-test",
	}, "")
	assert.Equal(t, http.StatusNoContent, res.StatusCode)
	assert.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"))
	assert.Equal(t, "GET, HEAD, OPTIONS", res.Header.Get("Access-Control-Allow-Methods"))
	assert.Equal(t, "x-test", res.Header.Get("Access-Control-Allow-Headers"))
	assert.Equal(t, "86400", res.Header.Get("Access-Control-Max-Age"))
	assert.Equal(t, http.StatusNotFound, serve(t, "OPTIONS", "/no-such-file.js", map[string]string{
		"Origin": "http://docs.example", "Access-Control-Request-Method": "GET",
	}, "").StatusCode)
}
