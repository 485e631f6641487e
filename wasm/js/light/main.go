// Command light is the browser's light engine, throughput.wasm
// (GOOS=js GOARCH=wasm; ./build.sh build): the JavaScript bridge (package
// wasm/js/bridge) over the engine, without the simulator, the calibration
// readers and the planner. It leaves them out by not importing them
// (calc/simulate, calc/calibrate) and not calling the bridge's full-engine
// switches, so that it stays inside its 1.0 MB gzip budget
// (scripts/wasm-size.sh); wasm/js/full is the engine with them.
package main

import "github.com/modelrefs/throughput/wasm/js/bridge"

func main() { bridge.Main() }
