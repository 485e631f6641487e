package main

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

func newTestHandler(t *testing.T) (*handler, string) {
	t.Helper()
	dir := t.TempDir()
	www := filepath.Join(dir, "www")
	must(t, os.MkdirAll(filepath.Join(www, "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(www, "index.html"), []byte("<!doctype html><p>hello</p>"), 0o644))
	must(t, os.WriteFile(filepath.Join(www, "a.wasm"), []byte("\x00asm\x01\x00\x00\x00"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("secret"), 0o644))
	must(t, os.Symlink(filepath.Join(dir, "secret.txt"), filepath.Join(www, "link.txt")))
	return &handler{dir: www, gz: map[string]gzEntry{}}, dir
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestServe(t *testing.T) {
	t.Parallel()
	h, _ := newTestHandler(t)
	tests := []struct {
		name, path, acceptEncoding string
		wantStatus                 int
		wantType, wantEncoding     string
		wantBody                   string
	}{
		{name: "index", path: "/", wantStatus: 200, wantType: "text/html; charset=utf-8", wantBody: "<!doctype html><p>hello</p>"},
		{name: "index gzip", path: "/index.html", acceptEncoding: "br, gzip", wantStatus: 200, wantType: "text/html; charset=utf-8", wantEncoding: "gzip", wantBody: "<!doctype html><p>hello</p>"},
		{name: "gzip refused", path: "/index.html", acceptEncoding: "gzip;q=0", wantStatus: 200, wantType: "text/html; charset=utf-8", wantBody: "<!doctype html><p>hello</p>"},
		{name: "wasm type", path: "/a.wasm", wantStatus: 200, wantType: "application/wasm", wantBody: "\x00asm\x01\x00\x00\x00"},
		{name: "dotdot", path: "/../secret.txt", wantStatus: 400},
		{name: "encoded dotdot", path: "/sub/%2e%2e/%2e%2e/secret.txt", wantStatus: 400},
		{name: "symlink out of root", path: "/link.txt", wantStatus: 404},
		{name: "no listing", path: "/sub/", wantStatus: 404},
		{name: "missing", path: "/nope.js", wantStatus: 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req := httptest.NewRequest(http.MethodGet, "http://x"+tt.path, nil)
			if tt.acceptEncoding != "" {
				req.Header.Set("Accept-Encoding", tt.acceptEncoding)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d", rec.Code, tt.wantStatus)
			}
			if tt.wantStatus != 200 {
				return
			}
			if got := rec.Header().Get("Content-Type"); got != tt.wantType {
				t.Errorf("Content-Type = %q, want %q", got, tt.wantType)
			}
			if got := rec.Header().Get("Content-Encoding"); got != tt.wantEncoding {
				t.Errorf("Content-Encoding = %q, want %q", got, tt.wantEncoding)
			}
			if got := rec.Header().Get("Cache-Control"); got != "no-cache" {
				t.Errorf("Cache-Control = %q, want no-cache", got)
			}
			var body io.Reader = rec.Body
			if tt.wantEncoding == "gzip" {
				zr, err := gzip.NewReader(rec.Body)
				must(t, err)
				body = zr
			}
			b, err := io.ReadAll(body)
			must(t, err)
			if string(b) != tt.wantBody {
				t.Errorf("body = %q, want %q", b, tt.wantBody)
			}
		})
	}
}

func TestCleanName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"/", ".", true},
		{"/a/b.js", "a/b.js", true},
		{"/a//b.js", "a/b.js", true},
		{"/a/../b", "", false},
		{"/a\\b", "", false},
	}
	for _, tt := range tests {
		got, ok := cleanName(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("cleanName(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
