//go:build js && planner

package main

// The planner build of the browser engine (-tags planner,
// build/npm/throughput-planner.wasm) exports plan as well: calc.Plan adds
// about 50 KB of gzip, more than the default engine's 1.0 MB budget leaves,
// so the default build (throughput.wasm) leaves it out and the page's
// planning view loads this one.
func init() { planExport = plan }
