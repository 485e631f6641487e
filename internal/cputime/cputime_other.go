//go:build !unix

package cputime

// Seconds is unavailable here (WebAssembly): benchmarks report wall time
// only.
func Seconds() float64 { return 0 }
