//go:build js && wasm && !stockbaseline

package main

import (
	"bytes"
	"net/http"
	"syscall/js"
)

// rawBodyWriter is the hook of syumai/workers' ResponseWriter that takes a
// JavaScript value as the response body (the adapter's internal
// jsutil.RawJSBodyWriter).
type rawBodyWriter interface {
	WriteRawJSBody(body js.Value)
}

var uint8Array = js.Global().Get("Uint8Array")

// reusable lets one Go instance answer any number of requests.
//
// syumai/workers streams a response body through an io.Pipe whose reader,
// once the body is consumed, closes the channel that ends workers.Serve:
// the adapter expects a fresh Go instance per request (its stock shim makes
// one), and a second response through the pipe would close that channel
// again and panic. reusable instead buffers h's answer (the API's answers
// are small JSON documents) and hands the body over as one Uint8Array
// through the adapter's raw-body hook, so the pipe is never read, Serve
// never returns, and the instance stays up for the next request. It also
// spares each response the pipe's goroutine and promise round trips.
//
// The request body is read by jsBody, which, unlike the adapter's reader,
// leaks nothing per request.
func reusable(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, ok := w.(rawBodyWriter)
		if !ok {
			h.ServeHTTP(w, r)
			return
		}
		if g, ok := r.Body.(rawBodyGetter); ok {
			r.Body = newJSBody(g.GetRawJSBody())
		}
		rec := &recorder{header: w.Header(), status: http.StatusOK}
		h.ServeHTTP(rec, r)
		// Always hand a body over, null when empty: a response left
		// without one would fall back to the pipe and end Serve.
		body := js.Null()
		if rec.body.Len() > 0 {
			body = uint8Array.New(rec.body.Len())
			js.CopyBytesToJS(body, rec.body.Bytes())
		}
		raw.WriteRawJSBody(body)
		w.WriteHeader(rec.status)
	})
}

// recorder collects a response. Its headers are the real writer's.
type recorder struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}
