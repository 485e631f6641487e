//go:build js && wasm

// Command worker is Throughput's API as a Cloudflare Worker: it hands the
// wasm/api handler to syumai/workers, which registers it with the
// JavaScript entry module (worker/entry.mjs, or the adapter's stock shim).
// Build it with ./build.sh worker.
//
// entry.mjs passes the worker's THROUGHPUT_HUB_URL and THROUGHPUT_HUB_TOKEN
// (wrangler.toml's vars and secrets) as the Go program's environment: the
// Hub that Hugging Face ids outside the catalog are fetched from
// (api.HubFromEnv).
package main

import (
	"net/http"
	"syscall"

	"github.com/syumai/workers"

	"github.com/modelrefs/throughput/api"
	"github.com/modelrefs/throughput/internal/jsonx"
)

func main() {
	// The API decodes and encodes every request and report type, the
	// planner's map[string]float64 among them: the codec's reflect.Value.Set
	// paths, which native builds have at init (internal/jsonx/set.go).
	jsonx.EnableReflectSet()
	hub := api.HubFromEnv(getenv)
	if hub != nil {
		hub.Get = hubFetch
	}
	var h http.Handler = api.NewWithHub(hub)
	if getenv("THROUGHPUT_TEST_HOOKS") == "1" {
		h = testHooks(h) // the recovery tests' (hooks.go)
	}
	workers.Serve(reusable(h))
}

func getenv(k string) string {
	v, _ := syscall.Getenv(k)
	return v
}
