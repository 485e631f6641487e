//go:build nosim

package deploy

// FullEngine is false in the light engine (simulator_on.go says what it
// leaves out).
const FullEngine = false
