// Package bands holds the error bands of the headline figures (docs/MODEL.md
// section 7): the band table (bands_gen.go, written by tools/calibrate
// -bands from the validation cases in calc/validation/testdata), its regime
// dimensions, and the rule that sets a report's ranges from it (Apply). It is
// one rule for every engine: the API, the worker and both browser engines
// (the JavaScript module reads the bands off the report). It imports the
// contract (calc/spec), the engine releases (calc/release) and the hardware
// catalog's types, never the deployment (calc/deploy calls Apply).
package bands

import (
	"strings"

	"github.com/modelrefs/throughput/calc/release"

	"github.com/modelrefs/throughput/hardware"
)

//go:generate go run ../../tools/calibrate -bands -o bands_gen.go

// Error bands (docs/MODEL.md section 7): each headline figure gets an 80 %
// prediction interval from the validation residuals of its engine, metric
// family and regime. A residual is ln(measured / predicted) of one
// comparable published case (calc/validation); tools/calibrate -bands
// resolves the band of every regime (the most specific level with enough
// cases, widened outside the validated domain: calc/validation/bands.go)
// and writes them to bands_gen.go, a flat table the engine indexes.

// Coverage is the nominal coverage of every band.
const Coverage = 0.8

// The metric families of the bands.
const (
	// KV is the KV capacity (vLLM's logged tokens, blocks or KV GiB).
	KV = "kv_capacity"
	// Step is the decode step time; a throughput case enters as the
	// inverse ratio (tokens/s = batch / step time).
	Step = "step_time"
	// TTFT is the time to first token.
	TTFT = "ttft"
)

// The regime dimensions, in the order of the band table's index
// (Index): engine (release.EngineOrder), family, regime (the KV family's
// release class, the others' batch bucket), tensor parallelism, GPU class.
var (
	Families = []string{KV, Step, TTFT}
	// Releases are the KV family's release classes: what changes the
	// memory profiler ("-": an engine without modelled releases).
	Releases = []string{"v0", "v1", "v1-cudagraph", "-"}
	// Batches are the other families' batch buckets.
	Batches = []string{"1", "2-16", "17-64", "65+"}
	TPs     = []string{"1", "2+"}
	GPUs    = []string{"hbm", "gddr", "unified", "custom"}
)

// Engines are the engines in the band table's order.
func Engines() []string { return release.EngineOrder }

// The flags of a band table entry.
const (
	// Outside: the regime lies outside the validated domain (the
	// dimensions are the bits below); the band was doubled.
	Outside = 1 << iota
	// OtherEngines: the engine has too few cases; the band is every
	// engine's, doubled.
	OtherEngines
	// FromStep: the family has no cases; the band is the step time's,
	// doubled.
	FromStep
	OutsideRegime
	OutsideTP
	OutsideGPU
	OutsideEngine
)

// Index is the position of a regime in the band table (indices into
// Engines, Families, Releases or Batches, TPs,
// GPUs).
func Index(e, f, x, t, g int) int { return (((e*3+f)*4+x)*2+t)*4 + g }

// entryBytes is one entry's size in bandData: low and high as int16
// thousandths of ln(measured/predicted) (little-endian), the basis (an
// index into bandBasis; 255: no band), the flags.
const entryBytes = 6

// BatchBucket is the regime of a batch size.
func BatchBucket(b int) string { return Batches[batchIdx(b)] }

func batchIdx(b int) int {
	switch {
	case b <= 1:
		return 0
	case b <= 16:
		return 1
	case b <= 64:
		return 2
	}
	return 3
}

// TPBucket is the regime of a tensor-parallel size.
func TPBucket(tp int) string { return TPs[min(max(tp-1, 0), 1)] }

// gddrParts are the catalog's data-centre cards with GDDR memory (the
// RTX and Arc lines are GDDR too): their datasheets (hardware/catalog*.go).
const gddrParts = " t4 a2 a10 a10g a16 a40 l4 l20 l40 l40s "

// GPUClass is an accelerator's class for the bands: "unified" (memory
// shared with the CPU), "gddr" (GeForce, RTX workstation and the GDDR
// data-centre cards), "hbm" (the rest of the catalog) or "custom" (figures
// given in the request).
func GPUClass(a *hardware.Accelerator) string { return GPUs[gpuIdx(a)] }

func gpuIdx(a *hardware.Accelerator) int {
	switch {
	case a.UnifiedMemory:
		return 2
	case a.ID == hardware.CustomID || a.ID == "":
		return 3
	case strings.HasPrefix(a.ID, "rtx-") || strings.HasPrefix(a.ID, "arc-") || strings.Contains(gddrParts, " "+a.ID+" "):
		return 1
	}
	return 0
}

func releaseIdx(engine string, v release.EngineVersion) int {
	switch {
	case engine != "vllm":
		return 3
	case v.V0:
		return 0
	case v.CUDAGraphEstimate:
		return 2
	}
	return 1
}

// ReleaseClass is the KV family's release class of an engine's release
// (as a request's engine_version names it).
func ReleaseClass(engine, version string) string {
	v, _ := release.LookupVersion(engine, version)
	return Releases[releaseIdx(engine, v)]
}
