package bridge

// The full engine's parts of the bridge, which only wasm/js/full's main
// calls, so that the light engine links neither them nor what only they
// reach.

// planExport is plan in the full engine (ExportPlan), nil otherwise.
var planExport func(string) (string, error)

// ExportPlan adds plan (calc.Plan, the deployment planner) to the functions
// Main publishes. The planner adds about 50 KB of gzip, more than the light
// engine's 1.0 MB budget leaves, so only the full engine
// (throughput-planner.wasm, which the page's planning view loads) has it.
func ExportPlan() { planExport, pricesExport = plan, priceTable }

// pricesExport is prices in the full engine (ExportPlan), nil otherwise:
// the planning view prefills its price fields from it.
var pricesExport func(string) (string, error)

// tapeFull is tapeFullTypes, and tapeFullKeyNames tapeFullKeys, while the
// tape writes the full engine's sections (WriteFullSections); nil in the
// light engine, which skips them.
var (
	tapeFull         []tapeType
	tapeFullKeyNames []string
)

// WriteFullSections has the tape write the report sections only the full
// engine fills (the fields tapeOmitFull marks: the simulation, the start-up
// log's comparison, the calibration's fit), from the type table only they
// reach (tapeFullTypes) and with the keys only they use (tapeFullKeys). The
// light engine, which cannot fill them, leaves both tables out by not
// calling it.
func WriteFullSections() { tapeFull, tapeFullKeyNames = tapeFullTypes[:], tapeFullKeys }

// calibrateExport is calibrate in the full engine (ExportCalibrate), nil
// otherwise: the light engine has no calibration readers.
var calibrateExport func(string) (string, error)

// ExportCalibrate adds calibrate (calc.Calibrate: benchmark files in, the
// fit and its calibration profile out) to the functions Main publishes.
func ExportCalibrate() { calibrateExport = calibrate }
