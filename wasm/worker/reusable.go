//go:build js && wasm && !stockbaseline

package main

import (
	"bytes"
	"net/http"
	"strconv"
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
			body = aside(w.Header(), body)
		}
		raw.WriteRawJSBody(body)
		w.WriteHeader(rec.status)
	})
}

// bodies is entry.mjs's Map of answers' bodies (undefined elsewhere: the
// node tests drive the handler without it), and bodyKey the header that
// names an answer's entry in it.
var (
	bodies  = js.Global().Get("__throughputBodies")
	bodyKey = "X-Throughput-Body"
	lastKey int
)

// aside hands body to entry.mjs through bodies, naming its entry in the
// answer's bodyKey header, and returns null for the adapter's Response.
// On workerd an I/O object belongs to the request whose context created
// it, and the adapter creates the Response while Go runs in the context
// of whichever request's event resumed it: an answer finished after
// another request's event (one that waited for a Hub lookup another
// request had started) came back as another request's body, which
// workerd refused to send ("Cannot perform I/O on behalf of a different
// request": a plain 500). entry.mjs builds the Response again in the
// request's own context from the entry. Without the Map, body is
// returned as is.
func aside(h http.Header, body js.Value) js.Value {
	if bodies.Type() != js.TypeObject {
		return body
	}
	lastKey++
	k := strconv.Itoa(lastKey)
	bodies.Call("set", k, body)
	h.Set(bodyKey, k)
	return js.Null()
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
