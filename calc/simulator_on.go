//go:build !nosim

package calc

// simulatorBuilt is true in every build but the browser's light engine
// (-tags nosim), which leaves the simulator (sched and calc/simulate*.go)
// out to stay inside its 1.0 MB gzip budget; throughput-planner.wasm, the
// full engine, has it.
const simulatorBuilt = true
