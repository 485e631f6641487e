//go:build !unix

package deploy

// cpuSeconds is unavailable here (WebAssembly): benchmarks report wall
// time only.
func cpuSeconds() float64 { return 0 }
