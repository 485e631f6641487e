package api

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/modelrefs/throughput/calc"
)

// cacheGET is the Cache-Control of a successful GET. Every answer is a
// function of the URL and the engine version, which the ETag carries, so
// shared caches may keep it for an hour and revalidate cheaply after.
const cacheGET = "public, max-age=3600"

// writeJSON sends v as a GET answer: cacheable, with a strong ETag, or a
// 304 Not Modified when If-None-Match already names that ETag.
func writeJSON(w http.ResponseWriter, r *http.Request, v any) {
	body := marshal(v)
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
	body := marshal(v)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

func marshal(v any) []byte {
	body, err := json.Marshal(v)
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
