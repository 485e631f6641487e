// Command serve is a small static file server for the calculator page.
//
//	go run ./tools/serve -dir build/site -addr 127.0.0.1:8080
//
// It serves one directory and nothing outside it (an os.Root refuses "..",
// absolute paths and symlinks that leave the directory), lists no
// directories, sends .wasm as application/wasm so that
// WebAssembly.instantiateStreaming works, compresses text and WebAssembly
// with gzip when the client accepts it, and asks browsers to revalidate
// every file (Cache-Control: no-cache with an ETag), because the file names
// carry no content hash. Every response carries X-Content-Type-Options:
// nosniff and Referrer-Policy, and the headers that the directory's
// _headers file (Cloudflare's format, headers.go) sets for its path: the
// build writes build/site/_headers with the page's Content-Security-Policy,
// so the page is served here as Cloudflare serves it; OPTIONS on a file
// answers CORS preflights (preflight). Port 0 picks a free port; the URL
// it serves on is printed on the first line of standard output, once the
// port is bound: a port another process holds is an error naming the port,
// and no URL is printed.
//
// The directory is opened again for every request (by its path), not held
// open: ./build.sh build and test delete build/site and write a new one,
// and a server holding the deleted directory would answer 404 for every
// path until restarted. While the build rewrites the directory a request
// may see it missing (503, Retry-After: 1) or half written; the next
// request after the build sees the new site.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log"
	"mime"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"strings"
	"sync"
	"syscall"
	"time"
)

// maxCompressBytes bounds the files that are gzipped in memory, in bytes.
const maxCompressBytes = 64 << 20

// compressible lists the extensions worth gzipping.
var compressible = map[string]bool{
	".html": true, ".js": true, ".mjs": true, ".css": true, ".json": true,
	".svg": true, ".wasm": true, ".webmanifest": true, ".txt": true, ".md": true, ".map": true,
}

// contentTypes overrides the platform's MIME table for the types the page
// depends on.
var contentTypes = map[string]string{
	".wasm":        "application/wasm",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".webmanifest": "application/manifest+json",
	".svg":         "image/svg+xml",
	".json":        "application/json",
	".css":         "text/css; charset=utf-8",
	".html":        "text/html; charset=utf-8",
}

func main() {
	dir := flag.String("dir", "build/site", "directory to serve (./build.sh build assembles build/site)")
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free port)")
	quiet := flag.Bool("quiet", false, "do not log requests")
	flag.Parse()

	if info, err := os.Stat(*dir); err != nil || !info.IsDir() {
		log.Fatalf("serve: %s is not a directory (./build.sh build assembles build/site)", *dir)
	}
	ln, err := listen(*addr)
	if err != nil {
		log.Fatalf("serve: %v", err)
	}
	h := &handler{dir: *dir, gz: map[string]gzEntry{}}
	var hh http.Handler = h
	if !*quiet {
		hh = logRequests(h)
	}
	srv := &http.Server{Handler: hh, ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("serving %s at http://%s/\n", *dir, ln.Addr())
	os.Stdout.Sync()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatalf("serve: %v", err)
	}
}

// listen binds addr, and names the port in the error when another
// process holds it.
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		_, port, _ := net.SplitHostPort(addr)
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, fmt.Errorf("port %s is taken (another server runs on %s; stop it or choose another port): %w", port, addr, err)
		}
		return nil, fmt.Errorf("cannot listen on %s (port %s): %w", addr, port, err)
	}
	return ln, nil
}

// handler serves files from the directory dir, opened per request.
type handler struct {
	dir     string
	headers headerRules // the directory's _headers (headers.go)
	mu      sync.Mutex
	gz      map[string]gzEntry // gzipped bodies by name, valid for one etag
}

type gzEntry struct {
	etag string
	body []byte
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	for _, kv := range baseHeaders {
		hdr.Set(kv[0], kv[1])
	}
	// The directory by its path, for this request: a rebuild that replaced
	// it is served from the next request on.
	root, err := os.OpenRoot(h.dir)
	if err != nil {
		hdr.Set("Retry-After", "1")
		http.Error(w, "the site's directory is missing (a build is rewriting it?): retry", http.StatusServiceUnavailable)
		return
	}
	defer root.Close()
	applyHeaders(h.headers.get(root.FS()), r.URL.Path, hdr)
	if r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions {
		w.Header().Set("Allow", allowed)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, ok := cleanName(r.URL.Path)
	if !ok {
		http.Error(w, "bad path", http.StatusBadRequest)
		return
	}
	f, info, err := open(root, name)
	if name == headersFile && err == nil {
		f.Close()
		err = fs.ErrNotExist // the header rules, not a file of the site
	}
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	if r.Method == http.MethodOptions {
		preflight(w, r)
		return
	}
	if info.IsDir() {
		f.Close()
		if !strings.HasSuffix(r.URL.Path, "/") {
			http.Redirect(w, r, r.URL.Path+"/", http.StatusMovedPermanently)
			return
		}
		name = path.Join(name, "index.html")
		if f, info, err = open(root, name); err != nil || info.IsDir() {
			http.NotFound(w, r) // no directory listings
			return
		}
		defer f.Close()
	}

	ext := strings.ToLower(path.Ext(name))
	if ct, ok := contentTypes[ext]; ok {
		hdr.Set("Content-Type", ct)
	} else if ct := mime.TypeByExtension(ext); ct != "" {
		hdr.Set("Content-Type", ct)
	}
	etag := fmt.Sprintf(`"%x-%x"`, info.Size(), info.ModTime().UnixNano())
	hdr.Set("Cache-Control", "no-cache")
	if path.Base(name) == "sw.js" {
		hdr.Set("Service-Worker-Allowed", "/")
	}

	if compressible[ext] && info.Size() <= maxCompressBytes {
		hdr.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			body, err := h.gzipped(name, etag, f)
			if err != nil {
				http.Error(w, "read error", http.StatusInternalServerError)
				return
			}
			hdr.Set("Content-Encoding", "gzip")
			hdr.Set("ETag", strings.TrimSuffix(etag, `"`)+`-gz"`)
			http.ServeContent(w, r, "", info.ModTime(), bytes.NewReader(body))
			return
		}
	}
	hdr.Set("ETag", etag)
	http.ServeContent(w, r, "", info.ModTime(), f)
}

// allowed are the methods the server answers.
const allowed = "GET, HEAD, OPTIONS"

// preflight answers OPTIONS on a file of the site: 204 with Allow and, for
// a CORS preflight (Access-Control-Request-Method) on a path whose _headers
// rules allow other origins, the methods and request headers a
// cross-origin reader may use (any header: the site takes no credentials
// and has nothing to protect from a reader), cached for a day. As
// wasm/worker/entry.mjs answers on workerd.
func preflight(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	hdr.Set("Allow", allowed)
	if r.Header.Get("Access-Control-Request-Method") != "" && hdr.Get("Access-Control-Allow-Origin") != "" {
		hdr.Set("Access-Control-Allow-Methods", allowed)
		if asked := r.Header.Get("Access-Control-Request-Headers"); asked != "" {
			hdr.Set("Access-Control-Allow-Headers", asked)
		}
		hdr.Set("Access-Control-Max-Age", "86400")
	}
	w.WriteHeader(http.StatusNoContent)
}

// open opens name inside root and stats it.
func open(root *os.Root, name string) (*os.File, fs.FileInfo, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

// gzipped returns the gzip body of name, compressing it once per etag.
func (h *handler) gzipped(name, etag string, f io.Reader) ([]byte, error) {
	h.mu.Lock()
	e, ok := h.gz[name]
	h.mu.Unlock()
	if ok && e.etag == etag {
		return e.body, nil
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if _, err := io.Copy(zw, f); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.gz[name] = gzEntry{etag: etag, body: buf.Bytes()}
	h.mu.Unlock()
	return buf.Bytes(), nil
}

// cleanName turns a URL path into a name relative to the root: "." for
// "/", and false for any path with a ".." element, a backslash or a NUL.
func cleanName(p string) (string, bool) {
	if strings.ContainsAny(p, "\\\x00") {
		return "", false
	}
	for _, el := range strings.Split(p, "/") {
		if el == ".." {
			return "", false
		}
	}
	name := strings.TrimPrefix(path.Clean("/"+p), "/")
	if name == "" {
		name = "."
	}
	return name, true
}

// acceptsGzip reports whether an Accept-Encoding header allows gzip.
func acceptsGzip(ae string) bool {
	for _, part := range strings.Split(ae, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(coding), "gzip") || strings.TrimSpace(coding) == "*" {
			q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}

// logRequests logs one line per request to standard error.
func logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		start := time.Now()
		next.ServeHTTP(rec, r)
		log.Printf("%d %s %s %s", rec.status, r.Method, r.URL.Path, time.Since(start).Round(time.Microsecond))
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}
