//go:build !(js && wasm)

// Command worker is Throughput's API as a Cloudflare Worker. Outside
// WebAssembly, syumai/workers serves the same handler as an ordinary HTTP
// server on :9900 (or $PORT), for debugging, with the Hub that
// THROUGHPUT_HUB_URL names.
package main

import (
	"os"

	"github.com/syumai/workers"

	"github.com/modelrefs/throughput/api"
)

func main() {
	workers.Serve(api.NewWithHub(api.HubFromEnv(os.Getenv)))
}
