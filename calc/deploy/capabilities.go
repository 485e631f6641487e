package deploy

import (
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/kvcache"
	"github.com/modelrefs/throughput/sched"
)

// The capabilities an engine build links in by importing their packages,
// as image.Decode decodes the formats whose packages a program imports.
// Each package sets its hook here from its init; the browser's light
// engine leaves a capability out by not importing it, and the linker then
// drops its code and everything only it reaches.

// Simulator runs the simulation sp asks for on d and adds its section,
// and its warnings, to r; it returns the work its runs did, in work units
// (what estimateWork predicts). Package calc/simulate sets it; nil: this
// build has no simulator, and a request with simulate is refused on that
// field (NoSimulatorMessage).
var Simulator func(d *Deployment, r *spec.Report, a Ask, sp *SimPlan) (work float64)

// Calibrator reads and fits a request's calibration. Package
// calc/calibrate sets it; without it (the light engine) a request with
// calibration is refused on that field.
var Calibrator struct {
	// Points validates the calibration part (field errors to e) and
	// returns its measured decode steps; meanContext is the workload's
	// mean context in tokens, the default of a point's context_tokens.
	Points func(e *spec.Errs, c *spec.Calibration, meanContext float64) []spec.CalPoint
	// Fit fits d's bandwidth efficiency, step overhead and (with a
	// measured TTFT) compute efficiency to the points, or applies a
	// calibration profile's terms (prof, given without points); it sets
	// them on d (SetEfficiencies) and reports the fit. A profile made for
	// another deployment is an error naming its field.
	Fit func(d *Deployment, pts []spec.CalPoint, prof *spec.CalibrationProfile) (*spec.CalibrationReport, error)
	// ParseBenchServe reads the summary blocks of `vllm bench serve`.
	ParseBenchServe func(text string) ([]spec.BenchResult, error)
	// ParseImport reads one benchmark tool's result file.
	ParseImport func(imp spec.BenchmarkImport) ([]spec.ServingMeasurement, error)
}

// ParseImport reads a benchmark tool's result file into its serving
// points (package calc/calibrate's importers); a build without them
// refuses, naming the field.
func ParseImport(imp spec.BenchmarkImport) ([]spec.ServingMeasurement, error) {
	if Calibrator.ParseImport == nil {
		return nil, fielderr.New("calibration.imports", "are read by the full engine (load({ planner: true })); the light engine takes calibration.points")
	}
	return Calibrator.ParseImport(imp)
}

// StartupLogs reads vLLM, SGLang and TensorRT-LLM start-up logs. Package
// calc/calibrate sets it; without it (the light engine) a request with
// startup_log is refused on that field.
var StartupLogs struct {
	// Parse reads a log's memory and capacity figures.
	Parse func(text string) (spec.StartupLog, error)
	// Compare sets the logged figures beside the report's (and warns
	// where the log's release or platform differs from the request's).
	Compare func(d *Deployment, r *spec.Report, lg spec.StartupLog) *spec.StartupLogReport
	// Apply replaces a stage's modelled memory terms with the log's
	// (ApplyStartupLog, which calc/calibrate sets here so that the light
	// engine, which refuses startup_log, does not carry it).
	Apply func(d *Deployment, s *stage, lay kvcache.Layout)
}

// TurnLengths is sched.Workload.Lengths for a replayed trace or a session
// workload (the work estimate's sample of a run's lengths; a workload of
// independent requests draws its own, DrawnLengths). Package calc/simulate
// sets it; the light engine, which refuses both, leaves their code out.
var TurnLengths func(w *sched.Workload, n int, f func(input, output int))

// Sessions resolves, analyses and simulates a session workload
// (workload.sessions, sessions.go). Package calc/simulate sets it
// (LinkSessions); without it (the light engine) a request with
// workload.sessions is refused on that field.
var Sessions struct {
	Resolve func(e *spec.Errs, w *spec.Workload) *sessionAsk
	Report  func(sv Serving, p Ask, runCap int, limitedBy string) *spec.SessionsReport
	Sim     func(e *spec.Errs, o *spec.SimulateOptions, p Ask, sp *SimPlan)
}

// ParseStartupLog reads the memory and capacity figures of a vLLM start-up
// log (package calc/calibrate's reader); a build without it refuses,
// naming the field.
func ParseStartupLog(text string) (spec.StartupLog, error) {
	if StartupLogs.Parse == nil {
		return spec.StartupLog{}, fielderr.New("startup_log", "is read by the full engine (load({ planner: true })), not the light one")
	}
	return StartupLogs.Parse(text)
}

// ParseBenchServe reads the summary blocks of `vllm bench serve` output
// (package calc/calibrate's reader); a build without it refuses, naming
// the field.
func ParseBenchServe(text string) ([]spec.BenchResult, error) {
	if Calibrator.ParseBenchServe == nil {
		return nil, fielderr.New("calibration.bench_serve", "is read by the full engine (load({ planner: true })); the light engine takes calibration.points")
	}
	return Calibrator.ParseBenchServe(text)
}

// calibrationPoints validates a request's calibration with the linked-in
// calibrator; a build without one refuses a calibration on its field.
func calibrationPoints(e *spec.Errs, c *spec.Calibration, meanContext float64) []spec.CalPoint {
	if Calibrator.Points == nil {
		if c != nil {
			e.Add("calibration", "is fitted by the full engine (load({ planner: true })), not the light one")
		}
		return nil
	}
	return Calibrator.Points(e, c, meanContext)
}

// SetEfficiencies sets the deployment's step-model terms and refolds its
// cost model with them (the calibration's fit moves them).
func (d *Deployment) SetEfficiencies(e spec.Efficiencies) {
	d.Eff = e
	d.cost.eff = e
	d.cost.foldEfficiencies(d)
}

// WeightBandwidth is the rate, in bytes/s, at which the step model streams
// the weights under the terms e (weightBandwidth).
func (d *Deployment) WeightBandwidth(e spec.Efficiencies) float64 { return weightBandwidth(d, e) }

// TightStageLayers is the number of layers of the pipeline stage whose KV
// pool bounds the deployment.
func (d *Deployment) TightStageLayers() int {
	st := &d.stages[d.tight]
	return st.hi - st.lo
}

// NoP2P reports whether the request's GPUs all-reduce through host memory
// (p2p: false).
func (d *Deployment) NoP2P() bool { return d.noP2P }
