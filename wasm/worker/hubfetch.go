//go:build js && wasm

package main

import (
	"context"
	"syscall/js"
)

// hubFetch is api.Hub's Get in the worker: the Workers runtime's fetch,
// called from Go, instead of net/http's client, which would add its TLS
// stack and dialers (about 1.3 MB of gzip) to the upload. It waits 10
// seconds at most (AbortSignal.timeout) and reads at most limit bytes.
func hubFetch(_ context.Context, url, token string, limit int64) (int, []byte, error) {
	init := js.Global().Get("Object").New()
	if token != "" {
		headers := js.Global().Get("Object").New()
		headers.Set("Authorization", "Bearer "+token)
		init.Set("headers", headers)
	}
	if abort := js.Global().Get("AbortSignal"); abort.Type() == js.TypeFunction && abort.Get("timeout").Type() == js.TypeFunction {
		init.Set("signal", abort.Call("timeout", 10000))
	}
	res, err := await(js.Global().Call("fetch", url, init))
	if err != nil {
		return 0, nil, err
	}
	buf, err := await(res.Call("arrayBuffer"))
	if err != nil {
		return 0, nil, err
	}
	bytes := js.Global().Get("Uint8Array").New(buf)
	n := int64(bytes.Get("byteLength").Int())
	if n > limit {
		n = limit
	}
	body := make([]byte, n)
	js.CopyBytesToGo(body, bytes)
	return res.Get("status").Int(), body, nil
}
