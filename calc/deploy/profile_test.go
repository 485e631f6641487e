package deploy

import "github.com/modelrefs/throughput/calc/release"

// profile is the engine profile named name (nil: none), for expressions.
func profile(name string) *release.Engine {
	e, _ := release.LookupEngine(name)
	return e
}
