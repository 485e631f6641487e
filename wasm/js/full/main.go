// Command full is the browser's full engine, throughput-planner.wasm
// (GOOS=js GOARCH=wasm; ./build.sh build; load({ planner: true })): the
// light engine's bridge (wasm/js/light) plus the simulator, the
// calibration and start-up log readers and DeepSeek-V4, linked in by
// importing their packages (calc/simulate, calc/calibrate: their init sets
// calc/deploy's hooks; models/deepseekv4 registers the model type), plan() (calc.Plan) and the report sections only they fill. It is
// larger than the light engine's 1.0 MB gzip budget allows, so it is a
// second file that the page's simulation worker and planning view load.
package main

import (
	_ "github.com/modelrefs/throughput/calc/calibrate"
	_ "github.com/modelrefs/throughput/calc/simulate"
	"github.com/modelrefs/throughput/internal/jsonx"
	_ "github.com/modelrefs/throughput/models/deepseekv4"
	"github.com/modelrefs/throughput/wasm/js/bridge"
)

func main() {
	jsonx.EnableReflectSet() // the planner's requests hold a map[string]float64 (prices)
	bridge.ExportPlan()
	bridge.ExportCalibrate()
	bridge.WriteFullSections()
	bridge.Main()
}
