//go:build js && wasm && stockbaseline

package main

import "net/http"

// reusable is the identity in the baseline build (-tags stockbaseline,
// build/worker/stock/app.wasm): responses stream through the adapter's
// pipe and main returns after the first one, as syumai/workers' stock
// shim expects. scripts/load-worker.mjs compares it with the shared
// instance.
func reusable(h http.Handler) http.Handler { return h }
