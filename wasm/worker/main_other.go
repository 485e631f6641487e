//go:build !(js && wasm)

// Command worker is Throughput's API as a Cloudflare Worker. Outside
// WebAssembly, syumai/workers serves the same handler as an ordinary HTTP
// server on :9900 (or $PORT), for debugging.
package main

import (
	"github.com/syumai/workers"

	"github.com/modelrefs/throughput/api"
)

func main() {
	workers.Serve(api.New())
}
