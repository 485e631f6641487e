package spec

// Calibration is what a user measured on their own deployment; the engine
// fits that deployment's bandwidth efficiency and step overhead to it, and
// every figure of the report (and the simulation) uses the fitted terms
// (docs/MODEL.md section 7, "Calibrating from your own server").
type Calibration struct {
	_ noCompare
	// BenchServe is the pasted summary of one or more `vllm bench serve`
	// runs (each "Serving Benchmark Result" block; SGLang's bench_serving
	// prints the same block), at most 1 MiB. Each run gives one measured
	// step: its concurrency, its median TPOT, at its mean context.
	BenchServe string `json:"bench_serve,omitempty"`
	// Points are measured decode steps: a batch size and its time per
	// output token.
	Points []CalibrationPoint `json:"points,omitempty"`
}

// CalibrationPoint is one measured decode step.
type CalibrationPoint struct {
	_ noCompare
	// BatchSize is the sequences decoding together (the benchmark's
	// concurrency).
	BatchSize *int `json:"batch_size,omitempty"`
	// TPOTMs is the measured time per output token (one decode step), in
	// milliseconds.
	TPOTMs *float64 `json:"tpot_ms,omitempty"`
	// ContextTokens is each sequence's mean context during the
	// measurement (default: the workload's input + output/2).
	ContextTokens *int `json:"context_tokens,omitempty"`
}

// MaxCalibrationPoints bounds calibration.points and the bench results
// read (each costs the fit a few step evaluations per iteration).
const MaxCalibrationPoints = 64

// BenchResult is what one `vllm bench serve` summary block states, read
// by ParseBenchServe.
type BenchResult struct {
	_ noCompare
	// Concurrency is the mean number of requests in flight: SGLang's
	// measured "Concurrency", else vLLM's "Maximum request concurrency",
	// else Little's law (ConcurrencyFrom says which).
	Concurrency     float64
	ConcurrencyFrom string
	// InputTokens and OutputTokens are the mean lengths per request.
	InputTokens, OutputTokens float64
	// TPOTMs is the median TPOT (the mean when no median is printed).
	TPOTMs float64
}

// CalPoint is one measured step, resolved.
type CalPoint struct {
	_       noCompare
	Source  string
	Batch   int
	Context float64
	TPOTMs  float64
}

// CalibrationReport is the fit of the step model to the request's
// calibration: the measured steps, the terms fitted, and the engine
// profile's efficiencies before and after. config.efficiencies and every
// figure of the report hold the fitted terms.
type CalibrationReport struct {
	_ noCompare
	// Fitted names the terms fitted: "bandwidth_efficiency" and, with two
	// or more batch sizes, "step_overhead_ms".
	Fitted []string `json:"fitted"`
	// Profile is the engine profile's efficiencies, before the fit.
	Profile Efficiencies `json:"profile"`
	// Points are the measured steps beside the step model's, before and
	// after the fit.
	Points []CalibrationFitPoint `json:"points"`
	// RMSError is the root mean square of ln(predicted / measured) over
	// the points after the fit (0: exact).
	RMSError float64 `json:"rms_error"`
}

// CalibrationFitPoint is one measured step and the model's.
type CalibrationFitPoint struct {
	_ noCompare
	// Source is "bench_serve N" (the Nth result) or "points[i]".
	Source        string  `json:"source"`
	BatchSize     int     `json:"batch_size"`
	ContextTokens int     `json:"context_tokens"`
	MeasuredMs    float64 `json:"measured_ms"`
	// ProfileMs is the step time under the engine profile; PredictedMs
	// under the fitted terms.
	ProfileMs   float64 `json:"profile_ms"`
	PredictedMs float64 `json:"predicted_ms"`
}

// calibrationFields are the calibration's entries of Fields (every
// engine states them: the field table is the contract's, whichever
// capabilities a build links in).
var calibrationFields = [...]struct {
	key  string
	spec FieldSpec
}{
	{"CalibrationPoint.batch_size", FieldSpec{Min: 1, Max: MaxSeqs, HasMin: true, HasMax: true, Unit: "sequences"}},
	{"CalibrationPoint.tpot_ms", FieldSpec{Max: MaxLatencyMs, HasMin: true, HasMax: true, ExclusiveMin: true, Unit: "ms"}},
	{"CalibrationPoint.context_tokens", FieldSpec{Min: 1, Max: MaxModelLen, HasMin: true, HasMax: true, DefaultText: "the workload's input_tokens + output_tokens/2", Unit: "tokens"}},
}
