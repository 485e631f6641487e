package main

// The simulator, for this package's tests (the full engine's main links it
// in through plan_js.go; these tests run the report writers on simulated
// reports).
import _ "github.com/modelrefs/throughput/calc/simulate"
