package bridge

// The full engine's capabilities, for this package's tests, as
// wasm/js/full's main links them in: these tests run the report writers
// on simulated and calibrated reports. TestTapeLightEngineSkipsFullSections
// takes the light engine's writer.
import (
	_ "github.com/modelrefs/throughput/calc/calibrate"
	_ "github.com/modelrefs/throughput/calc/simulate"
	// The embedded model catalog: the engines fetch catalog.json, and
	// these tests name catalog models.
	_ "github.com/modelrefs/throughput/models/catalog"
	_ "github.com/modelrefs/throughput/models/deepseekv4"
)

func init() {
	ExportPlan()
	WriteFullSections()
}
