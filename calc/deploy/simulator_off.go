//go:build nosim

package deploy

// simulatorBuilt is false in the browser's light engine (-tags nosim): a
// request with simulate is refused on field simulate, and the linker drops
// the simulator.
const simulatorBuilt = false

// FullEngine is false in the light engine (simulator_on.go says what it
// leaves out).
const FullEngine = false
