// Package calibrate fits a deployment to what its user measured: the
// decode steps of a calibration (calibration.points, or the summaries of
// `vllm bench serve` in calibration.bench_serve), fitted to the step
// model's bandwidth efficiency and step overhead, and the memory and
// capacity figures of a vLLM start-up log (startup_log), compared with the
// engine's own.
//
// It is a capability an engine build links in by importing the package:
// its init sets calc/deploy's Calibrator and StartupLogs hooks. The
// browser's light engine does not import it, and refuses both fields.
//
// It imports calc/deploy (the deployment, its step model and the contract
// types) and internal/fielderr; nothing in the engine imports it.
package calibrate

import "github.com/modelrefs/throughput/calc/deploy"

func init() {
	deploy.Calibrator.Points = points
	deploy.Calibrator.Fit = fit
	deploy.Calibrator.ParseBenchServe = parseBenchServe
	deploy.Calibrator.ParseImport = ParseImport
	deploy.StartupLogs.Parse = parseStartupLog
	deploy.StartupLogs.Compare = compareStartupLog
	deploy.StartupLogs.Apply = deploy.ApplyStartupLog
}
