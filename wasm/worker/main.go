//go:build js && wasm

// Command worker is Throughput's API as a Cloudflare Worker: it hands the
// wasm/api handler to syumai/workers, which registers it with the
// JavaScript entry module (worker/entry.mjs, or the adapter's stock shim).
// Build it with ./build.sh worker.
package main

import (
	"github.com/syumai/workers"

	"github.com/modelrefs/throughput/api"
)

func main() {
	workers.Serve(reusable(api.New()))
}
