//go:build js && wasm

package main

import (
	"net/http"
	"os"
)

// testHooks adds, for the recovery tests only (entry.mjs passes
// THROUGHPUT_TEST_HOOKS=1 from the worker's binding of that name, which
// workerd.capnp reads from workerd's environment and wrangler.toml never
// sets), two ways to end the Go program as a crash would:
//
//	POST /__test/exit  the program exits (os.Exit(3): wasm_exec.js's runtime.wasmExit)
//	POST /__test/oom   the program allocates until the runtime dies with "out of memory"
//
// Every other request goes to h.
func testHooks(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method != http.MethodPost:
		case r.URL.Path == "/__test/exit":
			os.Exit(3)
		case r.URL.Path == "/__test/oom":
			exhaust()
		}
		h.ServeHTTP(w, r)
	})
}

// sink keeps exhaust's allocations alive.
var sink [][]byte

// exhaust allocates 256 MiB blocks until WebAssembly's 4 GiB memory
// cannot grow and the Go runtime throws "out of memory" (it never
// returns). Fresh pages are not written, so the host's resident memory
// grows little.
func exhaust() {
	for {
		sink = append(sink, make([]byte, 256<<20))
	}
}
