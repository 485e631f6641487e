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
	// Imports are benchmark tools' result files (calibrate's importers,
	// one per format); each run in them gives a serving point: its load,
	// lengths, TPOT, TTFT and throughput, which the serving model is
	// fitted to (docs/MODEL.md section 7).
	Imports []BenchmarkImport `json:"imports,omitempty"`
	// Profile is a calibration profile made earlier (the report's
	// calibration.calibration_profile): its fitted terms are applied as
	// they are, without a fit; give it alone, without measurements.
	Profile *CalibrationProfile `json:"profile,omitempty"`
}

// The formats of BenchmarkImport.format (ImportFormats lists them).
const (
	FormatVLLMBenchJSON    = "vllm_bench_json"    // vllm bench serve --save-result (benchmark_serving.py before it)
	FormatSGLangBenchJSONL = "sglang_bench_jsonl" // python -m sglang.bench_serving --output-file
	FormatGuideLLMJSON     = "guidellm_json"      // guidellm benchmark --output-path benchmarks.json
	FormatAIPerfJSON       = "aiperf_json"        // aiperf profile: profile_export_aiperf.json
	FormatAIPerfCSV        = "aiperf_csv"         // aiperf profile: profile_export_aiperf.csv
	FormatLLMDReport       = "llmd_report"        // llm-d-benchmark's benchmark report (JSON), v0.1 and v0.2
)

// ImportFormats are the formats calibrate reads, in the order the docs
// list them.
var ImportFormats = [...]string{FormatVLLMBenchJSON, FormatSGLangBenchJSONL, FormatGuideLLMJSON, FormatAIPerfJSON, FormatAIPerfCSV, FormatLLMDReport}

// MaxImportBytes bounds one imported file (a GuideLLM report with its
// per-request samples runs to megabytes; the request itself stays within
// MaxRequestBytes, so a large file is turned into a profile by the
// calibrate function first).
const MaxImportBytes = 16 << 20

// BenchmarkImport is one benchmark tool's result file.
type BenchmarkImport struct {
	_ noCompare
	// Format names the tool and file (ImportFormats).
	Format string `json:"format,omitempty"`
	// Data is the file's text, at most MaxImportBytes.
	Data string `json:"data,omitempty"`
}

// ServingMeasurement is one benchmark run as an importer reads it: the
// load it ran under and the serving figures it measured. A figure the
// file does not state is 0.
type ServingMeasurement struct {
	_ noCompare
	// Source names the run: the format and its place in the file
	// ("guidellm_json benchmarks[2]").
	Source string `json:"source"`
	// Concurrency is a closed loop's requests kept in flight (the
	// tool's max concurrency); RequestRate an open loop's arrivals per
	// second. Exactly one is positive.
	Concurrency float64 `json:"concurrency,omitempty"`
	RequestRate float64 `json:"request_rate,omitempty"`
	// InputTokens and OutputTokens are the mean lengths per request.
	InputTokens  float64 `json:"input_tokens"`
	OutputTokens float64 `json:"output_tokens"`
	// TPOTMs and TTFTMs are the mean time per output token (excluding the
	// first) and to the first token, in ms; RequestsPerS the completed
	// requests per second.
	TPOTMs       float64 `json:"tpot_ms,omitempty"`
	TTFTMs       float64 `json:"ttft_ms,omitempty"`
	RequestsPerS float64 `json:"requests_per_s,omitempty"`
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
	// Serving, when set, is a benchmark run: the serving model's TPOT,
	// TTFT and throughput at its load are fitted to its figures (Batch,
	// Context and TPOTMs are then unused).
	Serving *ServingMeasurement
}

// CalibrationReport is the fit of the step model to the request's
// calibration: the measured steps, the terms fitted, and the engine
// profile's efficiencies before and after. config.efficiencies and every
// figure of the report hold the fitted terms.
type CalibrationReport struct {
	_ noCompare
	// Fitted names the terms fitted: "bandwidth_efficiency" and, with two
	// or more batch sizes (or loads), "step_overhead_ms"; with a measured
	// TTFT, "compute_efficiency". Under a profile, the terms it applied.
	Fitted []string `json:"fitted"`
	// Profile is the engine profile's efficiencies, before the fit.
	Profile Efficiencies `json:"profile"`
	// Points are the measured steps beside the step model's, before and
	// after the fit.
	Points []CalibrationFitPoint `json:"points"`
	// Serving are the benchmark runs (calibration.imports) beside the
	// serving model's figures at their loads, before and after the fit.
	Serving []CalibrationServingPoint `json:"serving,omitempty"`
	// RMSError is the root mean square of ln(predicted / measured) over
	// the points' figures after the fit (0: exact).
	RMSError float64 `json:"rms_error"`
	// Labels says where the report's figures come from (calibrated: the
	// step model under fitted terms; modelled: the engine's own terms;
	// measured: a figure read from the user's server as it is).
	Labels *FigureLabels `json:"labels,omitempty"`
	// CalibrationProfile is the fit as a calibration profile, to keep and
	// pass back as calibration.profile.
	CalibrationProfile *CalibrationProfile `json:"calibration_profile,omitempty"`
}

// CalibrationServingPoint is one benchmark run and the serving model's
// figures at its load.
type CalibrationServingPoint struct {
	_            noCompare
	Source       string  `json:"source"`
	Concurrency  float64 `json:"concurrency,omitempty"`
	RequestRate  float64 `json:"request_rate,omitempty"`
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	// Measured are the run's figures; Profile the serving model's under
	// the engine profile's terms; Predicted under the fitted terms.
	Measured  ServingFigures `json:"measured"`
	Profile   ServingFigures `json:"profile"`
	Predicted ServingFigures `json:"predicted"`
}

// ServingFigures are the figures a benchmark run and the serving model
// share (0: not measured).
type ServingFigures struct {
	_            noCompare
	TPOTMs       float64 `json:"tpot_ms,omitempty"`
	TTFTMs       float64 `json:"ttft_ms,omitempty"`
	RequestsPerS float64 `json:"requests_per_s,omitempty"`
}

// FigureLabels labels the report's figure groups "measured", "calibrated"
// or "modelled". A report without calibration has every figure
// modelled (and memory.sources for a start-up log's).
type FigureLabels struct {
	_ noCompare
	// Step: the decode and prefill step times; Serving: the serving
	// section's latencies and rates; Memory: the memory budget and KV
	// capacity (measured or derived where memory.sources says so).
	Step    string `json:"step"`
	Serving string `json:"serving"`
	Memory  string `json:"memory"`
}

// CalibrationProfileVersion is the version of the profile document this
// engine writes and reads.
const CalibrationProfileVersion = 1

// MaxProfilePoints bounds a profile's points, so that it stays small
// enough for a URL (32 points write about 2.5 KB of JSON).
const MaxProfilePoints = 32

// CalibrationProfile is a fit kept as a small versioned document: the
// deployment and engine release it describes, the fitted terms, and the
// points it was fitted to with their residuals.
type CalibrationProfile struct {
	_ noCompare
	// Version is CalibrationProfileVersion.
	Version int `json:"version"`
	// Engine and EngineVersion are the engine and release the fit
	// describes (the request's engine and engine_version).
	Engine        string `json:"engine"`
	EngineVersion string `json:"engine_version"`
	// Model, Hardware and TensorParallelSize are the deployment.
	Model              string `json:"model"`
	Hardware           string `json:"hardware"`
	TensorParallelSize int    `json:"tensor_parallel_size"`
	// Terms are the fitted step-model terms.
	Terms ProfileTerms `json:"terms"`
	// Fitted names the terms the points determined.
	Fitted []string `json:"fitted"`
	// Points are the measurements, at most MaxProfilePoints.
	Points []ProfilePoint `json:"points,omitempty"`
	// RMSError is the fit's root mean square of ln(predicted / measured).
	RMSError float64 `json:"rms_error"`
}

// ProfileTerms are the terms a calibration fits.
type ProfileTerms struct {
	_                            noCompare
	BandwidthEfficiency          float64 `json:"bandwidth_efficiency"`
	AttentionBandwidthEfficiency float64 `json:"attention_bandwidth_efficiency"`
	ComputeEfficiency            float64 `json:"compute_efficiency"`
	StepOverheadMs               float64 `json:"step_overhead_ms"`
}

// ProfilePoint is one measurement of a profile: c (concurrency) or r
// (request rate; b, a decode batch, for a measured step), the lengths,
// the measured figures and the fit's residuals ln(predicted / measured).
type ProfilePoint struct {
	_            noCompare
	Concurrency  float64 `json:"c,omitempty"`
	RequestRate  float64 `json:"r,omitempty"`
	Batch        int     `json:"b,omitempty"`
	Input        int     `json:"in"`
	Output       int     `json:"out,omitempty"`
	TPOTMs       float64 `json:"tpot_ms"`
	TTFTMs       float64 `json:"ttft_ms,omitempty"`
	RequestsPerS float64 `json:"rps,omitempty"`
	// Residuals are ln(predicted / measured) of tpot_ms, ttft_ms, rps in
	// that order (those measured).
	Residuals []float64 `json:"res"`
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
