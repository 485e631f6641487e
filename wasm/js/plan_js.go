//go:build js && planner

package main

import (
	_ "github.com/modelrefs/throughput/calc/calibrate"
	_ "github.com/modelrefs/throughput/calc/simulate"
	_ "github.com/modelrefs/throughput/models/deepseekv4"
)

// The planner build of the browser engine (-tags planner,
// build/npm/throughput-planner.wasm) exports plan as well: calc.Plan adds
// about 50 KB of gzip, more than the default engine's 1.0 MB budget leaves,
// so the default build (throughput.wasm) leaves it out and the page's
// planning view loads this one. It is the full engine: it links the
// simulator, the calibration readers and DeepSeek-V4 in (packages
// calc/simulate, calc/calibrate and models/deepseekv4, which the light
// engine's main does not import).
func init() { planExport = plan }
