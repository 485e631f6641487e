//go:build !(js && wasm)

package main

import "os"

// main explains how to build this command: it only runs as WebAssembly.
func main() {
	os.Stderr.WriteString("wasm/js is the engine for JavaScript: build it with GOOS=js GOARCH=wasm (./build.sh build)\n")
	os.Exit(2)
}
