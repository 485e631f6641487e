package main

// The full engine's capabilities, for this package's tests (the full
// engine's main links them in through plan_js.go; these tests run the
// report writers on simulated and calibrated reports).
import (
	_ "github.com/modelrefs/throughput/calc/calibrate"
	_ "github.com/modelrefs/throughput/calc/simulate"
	// The embedded model catalog: the engines fetch catalog.json, and
	// these tests name catalog models.
	_ "github.com/modelrefs/throughput/models/catalog"
	_ "github.com/modelrefs/throughput/models/deepseekv4"
)
