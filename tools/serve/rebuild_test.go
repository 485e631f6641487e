package main

import (
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeSite writes a one-page site into dir, as bundle_page in build.sh
// does: the directory is removed, made again and filled.
func writeSite(t *testing.T, dir, page string) {
	t.Helper()
	require.NoError(t, os.RemoveAll(dir))
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte(page), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, headersFile), []byte("/*\n  X-Build: "+page+"\n"), 0o644))
}

// TestServesAcrossRebuilds: a server started on a site directory keeps
// serving after the build deletes that directory and writes a new one at
// the same path (./build.sh build or test while ./build.sh serve runs):
// the new page and its _headers, 200, not the 404 that a server holding
// the deleted directory answers. While the directory is missing the
// answer is 503 with Retry-After, not a 404 for a file that will exist.
func TestServesAcrossRebuilds(t *testing.T) {
	t.Parallel()
	site := filepath.Join(t.TempDir(), "build", "site")
	writeSite(t, site, "first")

	ln, err := listen("127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: &handler{dir: site, gz: map[string]gzEntry{}}, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	base := "http://" + ln.Addr().String()

	get := func(p string) (int, string, http.Header) {
		t.Helper()
		resp, err := http.Get(base + p)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(b), resp.Header
	}

	code, body, hdr := get("/")
	require.Equal(t, http.StatusOK, code)
	assert.Equal(t, "first", body)
	assert.Equal(t, "first", hdr.Get("X-Build"))

	require.NoError(t, os.RemoveAll(site))
	code, body, hdr = get("/index.html")
	assert.Equal(t, http.StatusServiceUnavailable, code)
	assert.Equal(t, "1", hdr.Get("Retry-After"))
	assert.True(t, strings.Contains(body, "missing"), body)

	writeSite(t, site, "second")
	code, body, hdr = get("/")
	require.Equal(t, http.StatusOK, code, "the server serves the new directory")
	assert.Equal(t, "second", body)
	assert.Equal(t, "second", hdr.Get("X-Build"), "the new directory's _headers")
}

// TestListenPortTaken: binding a port another listener holds is an error
// that names the port, so the server stops before it prints a URL.
func TestListenPortTaken(t *testing.T) {
	t.Parallel()
	held, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer held.Close()
	_, port, err := net.SplitHostPort(held.Addr().String())
	require.NoError(t, err)

	ln, err := listen("127.0.0.1:" + port)
	if ln != nil {
		ln.Close()
	}
	require.Error(t, err)
	assert.Contains(t, err.Error(), "port "+port+" is taken")
}
