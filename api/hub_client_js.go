//go:build js && wasm

package api

import "context"

// nativeHubGet is nil in WebAssembly: the worker sets Hub.Get to its fetch
// (wasm/worker/hubfetch.go); net/http's client is not linked in.
func nativeHubGet(string) func(ctx context.Context, url, token string, limit int64) (int, []byte, error) {
	return nil
}
