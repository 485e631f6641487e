//go:build nosim

package deploy

import "github.com/modelrefs/throughput/calc/spec"

// The browser's light engine (-tags nosim, its size budget) leaves the
// bands out: the JavaScript module adds them to its reports from the same
// table (www/module/bands-table.js, written with bands_gen.go; its
// computeBands is bands_apply.go's, and www/test/bands.test.mjs checks the
// two agree).
func (d *Deployment) bands(*spec.Report) {}
