//go:build !(js && wasm)

package bridge

import "os"

// Main explains how to build the engine's main packages (wasm/js/light,
// wasm/js/full): the bridge only runs as WebAssembly.
func Main() {
	os.Stderr.WriteString("wasm/js/light and wasm/js/full are the engine for JavaScript: build them with GOOS=js GOARCH=wasm (./build.sh build)\n")
	os.Exit(2)
}
