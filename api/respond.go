package api

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"sync"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/internal/jsonx"
)

// cacheGET is the Cache-Control of a successful GET. Every answer is a
// function of the URL and the engine version, which the ETag carries, so
// shared caches may keep it for an hour and revalidate cheaply after.
const cacheGET = "public, max-age=3600"

// writeJSON sends v as a GET answer: cacheable, with a strong ETag, or a
// 304 Not Modified when If-None-Match already names that ETag.
func writeJSON(w http.ResponseWriter, r *http.Request, v any) {
	buf := encodeBody(v)
	defer freeBody(buf)
	body := buf.b
	tag := etag(body)
	h := w.Header()
	h.Set("ETag", tag)
	h.Set("Cache-Control", cacheGET)
	if noneMatch(r.Header.Values("If-None-Match"), tag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// writeFresh sends v as the answer to a POST: never cached.
func writeFresh(w http.ResponseWriter, _ *http.Request, v any) {
	buf := encodeBody(v)
	defer freeBody(buf)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf.b)
}

// bodyBuffer holds an answer's JSON text.
type bodyBuffer struct{ b []byte }

// bodyPool keeps the buffers answers are encoded into (a report is about
// 20 KB, with a simulation 25 KB), so that encoding a report allocates
// nothing. A buffer goes back once w.Write has returned: every
// ResponseWriter the API is served through has copied what it was given by
// then (net/http's, httptest's recorder, wasm/worker's recorder, and
// syumai/workers' io.Pipe, whose Write returns once the reader has copied
// all of it).
var bodyPool = sync.Pool{New: func() any { return &bodyBuffer{b: make([]byte, 0, 32<<10)} }}

// maxPooledBody is the largest buffer freeBody keeps.
const maxPooledBody = 1 << 20

// freeBody puts buf back in bodyPool, unless it grew unusually large.
func freeBody(buf *bodyBuffer) {
	if cap(buf.b) <= maxPooledBody {
		bodyPool.Put(buf)
	}
}

// encodeBody encodes v and a newline into a buffer from bodyPool, to be
// put back when sent: a calc.Report (or *calc.Report) through the
// generated encoder (report_json.go), anything else through jsonx, which
// writes encoding/json's bytes without its size in the worker's wasm
// (TestAnswersEncodeAsEncodingJSON).
// Both write the same bytes; under WebAssembly the generated encoder takes
// about half the time and allocates nothing (BenchmarkReportJSON; most of
// what is left is formatting floats, which both do alike). A value that cannot be encoded (a NaN float)
// panics, which Handler answers with a 500.
func encodeBody(v any) *bodyBuffer {
	buf := bodyPool.Get().(*bodyBuffer)
	var err error
	switch r := v.(type) {
	case calc.Report:
		buf.b, err = appendReportJSON(buf.b[:0], &r)
	case *calc.Report:
		buf.b, err = appendReportJSON(buf.b[:0], r)
	default:
		var body []byte
		body, err = jsonx.Marshal(v)
		buf.b = append(buf.b[:0], body...)
	}
	if err != nil {
		panic("api: marshal response: " + err.Error())
	}
	buf.b = append(buf.b, '\n')
	return buf
}

// marshal is v's JSON text and a newline through jsonx, in a
// slice of its own (getOpenAPI keeps it).
func marshal(v any) []byte {
	body, err := jsonx.Marshal(v)
	if err != nil {
		panic("api: marshal response: " + err.Error())
	}
	return append(body, '\n')
}

// etag is a strong entity tag: the engine version and the first 128 bits
// of the body's SHA-256, e.g. "0.1.0-3f2a...". Two deploys with the same
// version and the same body share the tag, as they should.
func etag(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + calc.Version + "-" + hex.EncodeToString(sum[:16]) + `"`
}

// noneMatch reports whether an If-None-Match header (all its values, each
// possibly a comma-separated list) names tag or is "*". The comparison is
// weak, as RFC 9110 section 13.1.2 requires: a W/ prefix is ignored.
func noneMatch(values []string, tag string) bool {
	for _, v := range values {
		for _, t := range strings.Split(v, ",") {
			t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
			if t == "*" || t == tag {
				return true
			}
		}
	}
	return false
}
