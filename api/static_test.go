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
