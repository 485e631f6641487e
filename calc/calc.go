package calc

import (
	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/evaluate"
	"github.com/modelrefs/throughput/calc/planner"
	"github.com/modelrefs/throughput/calc/release"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/fielderr"
)

// Evaluate answers a request: it resolves the deployment (every invalid
// field is an Errors entry naming it) and reports its memory, KV-cache
// capacity, decode step, ceilings, preemption onset, cost, error bands and,
// when the request asks and the build links package calc/simulate in, its
// simulation. A deployment that does not fit is an answer (Fits false, with
// the nearest fixes), not an error. A request whose estimated work exceeds
// DefaultWorkBudget returns Errors naming the field that drives the cost.
func Evaluate(req Request) (Report, error) { return evaluate.Evaluate(req) }

// EvaluateWithBudget is Evaluate with a work budget other than
// DefaultWorkBudget, in work units (+Inf: none).
func EvaluateWithBudget(req Request, budget float64) (Report, error) {
	return evaluate.EvaluateWithBudget(req, budget)
}

// EstimateWork returns a request's estimated work, in work units, without
// running its simulation; invalid requests return their Errors.
func EstimateWork(req Request) (WorkEstimate, error) { return evaluate.EstimateWork(req) }

// Plan answers a plan request: which deployments of the model meet the
// workload's latency budget, ranked by cost, each with its launch command
// and the Evaluate request that reproduces its figures. A budget nobody
// meets is an answer (Feasible false, and what comes closest), not an
// error.
func Plan(req PlanRequest) (PlanReport, error) { return planner.Plan(req) }

// ParseRequest decodes a JSON request strictly: unknown keys, wrong types,
// fractional integers, trailing data and bodies over MaxRequestBytes are
// errors naming the field by its JSON path; beside an unknown key, every
// other bad field is listed too (Validate).
func ParseRequest(data []byte) (Request, error) { return evaluate.ParseRequest(data) }

// ParsePlanRequest decodes a JSON plan request as strictly as
// ParseRequest.
func ParsePlanRequest(data []byte) (PlanRequest, error) { return planner.ParseRequest(data) }

// Validate returns the Errors Evaluate returns for req's fields, or nil
// when every field is valid; it does not evaluate.
func Validate(req Request) error { return evaluate.Validate(req) }

// ParseStartupLog reads the memory and capacity figures of a vLLM start-up
// log; a build without package calc/calibrate refuses, naming the field.
func ParseStartupLog(text string) (StartupLog, error) { return deploy.ParseStartupLog(text) }

// ParseBenchServe reads the summary blocks of `vllm bench serve` output; a
// build without package calc/calibrate refuses, naming the field.
func ParseBenchServe(text string) ([]BenchResult, error) { return deploy.ParseBenchServe(text) }

// ParseImport reads a benchmark tool's result file (imp.format: one of
// ImportFormats) into its runs, each a serving point; a build without
// package calc/calibrate refuses, naming the field.
func ParseImport(imp BenchmarkImport) ([]ServingMeasurement, error) { return deploy.ParseImport(imp) }

// ParseCalibrateRequest decodes a request as ParseRequest does, up to
// MaxCalibrateBytes (a calibration with large benchmark files).
func ParseCalibrateRequest(data []byte) (Request, error) { return evaluate.ParseCalibrateRequest(data) }

// Calibrate fits req's deployment to the measurements of its calibration
// (imports, bench_serve or points; a profile is applied by Evaluate, not
// fitted) and returns the fit alone, with its calibration profile: what
// POST /v1/calibrate and the JavaScript module's calibrate answer.
func Calibrate(req Request) (*CalibrationReport, error) {
	if req.Calibration == nil || req.Calibration.Profile != nil {
		return nil, fielderr.New("calibration", "is required, with measurements (imports, bench_serve or points) to fit; evaluate applies a profile")
	}
	r, err := Evaluate(req)
	if err != nil {
		return nil, err
	}
	return r.Calibration, nil
}

// ImportFormats lists the values of calibration.imports[].format.
func ImportFormats() []string { return spec.ImportFormats[:] }

// SimulatorBuilt reports whether this build links package calc/simulate in
// (every door but the browser's light engine).
func SimulatorBuilt() bool { return evaluate.SimulatorBuilt() }

// Engines lists the engine profiles, in the order of EngineNames.
func Engines() []*Engine { return release.Engines() }

// EngineNames lists the values of engine, sorted.
func EngineNames() []string { return release.EngineNames() }

// LookupEngine returns the profile of the engine named name.
func LookupEngine(name string) (*Engine, bool) { return release.LookupEngine(name) }

// EngineVersions lists the values of engine_version of vLLM and SGLang;
// TRTLLMVersions TensorRT-LLM's; AllEngineVersions their union (the
// field's enum).
func EngineVersions() []string { return release.EngineVersions() }

// TRTLLMVersions lists TensorRT-LLM's values of engine_version.
func TRTLLMVersions() []string { return release.TRTLLMVersions() }

// AllEngineVersions is the union of every engine's engine_version values.
func AllEngineVersions() []string { return release.AllEngineVersions() }

// BlockSizes are the block_size values the engine accepts.
func BlockSizes() []int { return spec.BlockSizes() }

// Int returns a pointer to v, for the request's optional integers.
func Int(v int) *int { return spec.Int(v) }

// Float returns a pointer to v, for the request's optional numbers.
func Float(v float64) *float64 { return spec.Float(v) }
