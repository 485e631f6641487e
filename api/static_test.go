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
// serve the files of THROUGHPUT_STATIC_DIR (the worker's www/) with their
// content type.
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
		})
	}
}
