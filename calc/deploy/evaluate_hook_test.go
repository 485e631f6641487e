package deploy

import "github.com/modelrefs/throughput/calc/spec"

// Evaluate is package calc/evaluate's, for this package's tests that
// check a whole report: capabilities_test.go (package deploy_test), which
// may import calc/evaluate where an internal test may not (it imports this
// package), sets it.
var Evaluate func(spec.Request) (spec.Report, error)
