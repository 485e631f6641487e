//go:build js && wasm

package main

import (
	"context"
	"net/url"
	"syscall/js"
	"time"

	"github.com/modelrefs/throughput/api"
)

// hubFetch is api.Hub's Get in the worker: the Workers runtime's fetch,
// called from Go, instead of net/http's client, which would add its TLS
// stack and dialers (about 1.3 MB of gzip) to the upload. It
//   - waits until ctx's deadline at most (api.HubTimeout when it has none),
//     redirects and body included (one AbortSignal.timeout for them all);
//   - follows redirects itself (redirect: "manual"), at most
//     api.MaxHubRedirects, each only where api.HubRedirectAllowed allows it
//     (the runtime shows no addresses: the check is by name), and answers
//     a refused one as is, its status;
//   - sends the token only to the configured Hub's own origin;
//   - reads the body as a stream, chunk by chunk, and stops with
//     api.ErrHubTooLarge as soon as the bytes read pass limit. The runtime
//     hands the body decoded, so a compressed body is counted as it
//     expands, and a Content-Length over limit is refused unread.
func hubFetch(ctx context.Context, rawURL, token string, limit int64) (int, []byte, error) {
	first, err := url.Parse(rawURL)
	if err != nil {
		return 0, nil, err
	}
	wait := api.HubTimeout
	if d, ok := ctx.Deadline(); ok {
		wait = time.Until(d)
	}
	var signal js.Value
	if abort := js.Global().Get("AbortSignal"); abort.Type() == js.TypeFunction && abort.Get("timeout").Type() == js.TypeFunction {
		signal = abort.Call("timeout", max(1, wait.Milliseconds()))
	}
	cur := first
	for hop := 0; ; hop++ {
		init := js.Global().Get("Object").New()
		init.Set("redirect", "manual")
		if token != "" && cur.Scheme == first.Scheme && cur.Host == first.Host {
			headers := js.Global().Get("Object").New()
			headers.Set("Authorization", "Bearer "+token)
			init.Set("headers", headers)
		}
		if !signal.IsUndefined() {
			init.Set("signal", signal)
		}
		res, err := await(js.Global().Call("fetch", cur.String(), init))
		if err != nil {
			return 0, nil, err
		}
		status := res.Get("status").Int()
		switch status {
		case 301, 302, 303, 307, 308:
			discard(res)
			loc := res.Get("headers").Call("get", "Location")
			if hop >= api.MaxHubRedirects || loc.Type() != js.TypeString {
				return status, nil, nil
			}
			next, err := cur.Parse(loc.String())
			if err != nil || api.HubRedirectAllowed(first, next) != nil {
				return status, nil, nil
			}
			cur = next
			continue
		case 200:
		default:
			discard(res)
			return status, nil, nil
		}
		return readBody(res, limit)
	}
}

// readBody reads res's body, chunk by chunk, up to limit bytes.
func readBody(res js.Value, limit int64) (int, []byte, error) {
	status := res.Get("status").Int()
	headers := res.Get("headers")
	if cl := headers.Call("get", "Content-Length"); cl.Type() == js.TypeString && headers.Call("get", "Content-Encoding").IsNull() {
		if n := js.Global().Call("Number", cl).Float(); n > float64(limit) {
			discard(res)
			return status, nil, api.ErrHubTooLarge
		}
	}
	stream := res.Get("body")
	if stream.IsNull() || stream.IsUndefined() {
		return status, nil, nil
	}
	reader := stream.Call("getReader")
	var body []byte
	for {
		r, err := await(reader.Call("read"))
		if err != nil {
			return 0, nil, err
		}
		if r.Get("done").Truthy() {
			return status, body, nil
		}
		chunk := r.Get("value")
		n := chunk.Get("byteLength").Int()
		if int64(len(body)+n) > limit {
			cancel(reader)
			return status, nil, api.ErrHubTooLarge
		}
		start := len(body)
		body = append(body, make([]byte, n)...)
		js.CopyBytesToGo(body[start:], chunk)
	}
}

// discard cancels res's body unread (so that the runtime frees it).
func discard(res js.Value) {
	if b := res.Get("body"); !b.IsNull() && !b.IsUndefined() {
		cancel(b)
	}
}

// cancel cancels a body stream or its reader, ignoring its failure: on
// workerd an I/O object belongs to the request whose context created it
// (the fetch began while that request's event was running Go), and
// touching it from another request's throws "Cannot perform I/O on
// behalf of a different request" (or rejects); nothing is left to do
// about an unread body then.
func cancel(stream js.Value) {
	defer func() { _ = recover() }() // a js.Error: the body is another request's
	if p := stream.Call("cancel"); p.Type() == js.TypeObject {
		p.Call("catch", ignoreRejection)
	}
}

// ignoreRejection is a promise's rejection handler that does nothing (one
// for the program: a js.Func is never collected).
var ignoreRejection = js.FuncOf(func(js.Value, []js.Value) any { return nil })
