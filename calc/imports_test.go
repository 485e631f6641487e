package calc_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/hardware"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// run is one benchmark run of the simulated server: its load and the
// serving figures the engine gives it there.
type run struct {
	conc       int
	rate       float64
	in, out    int
	tpot, ttft float64
	rps, e2e   float64
}

// slowServer is an H100 whose memory delivers 0.8 of the datasheet
// bandwidth and whose tensor cores 0.7 of the datasheet FLOPS: served by
// vLLM's profile (calc/release/engine.go) it is the catalog H100 with
// the profile's bandwidth efficiencies times 0.8 and its compute
// efficiencies times 0.7 (the step model divides bytes by bandwidth x
// efficiency and FLOPs by peak x efficiency), the same step overhead.
func slowServer(t *testing.T) hardware.Accelerator {
	h100, err := hardware.Lookup("h100-sxm")
	require.NoError(t, err)
	slow := h100
	slow.ID, slow.Name = "", "H100 at 0.8 of its bandwidth and 0.7 of its FLOPS"
	slow.MemoryBandwidthBytesPerS *= 0.8
	p := &slow.PeakFLOPS
	for _, f := range []*float64{&p.FP32, &p.TF32, &p.BF16, &p.FP8, &p.INT8, &p.FP4, &p.FP16Acc} {
		*f *= 0.7
	}
	return slow
}

// benchmarkRuns evaluates the slow server at three closed loops and two
// open loops of 1024 + 256-token requests: the figures a benchmark tool
// would have measured on it.
func benchmarkRuns(t *testing.T) []run {
	slow := slowServer(t)
	const in, out = 1024, 256
	var runs []run
	for _, l := range []struct {
		conc int
		rate float64
	}{{conc: 1}, {conc: 16}, {conc: 64}, {rate: 2}, {rate: 8}} {
		w := &calc.Workload{InputTokens: calc.Int(in), OutputTokens: calc.Int(out)}
		if l.conc > 0 {
			w.Concurrency = calc.Int(l.conc)
		} else {
			w.RequestRate = calc.Float(l.rate)
		}
		r, err := calc.Evaluate(calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{Custom: &slow}, MaxModelLen: calc.Int(8192), Workload: w})
		require.NoError(t, err)
		require.NotNil(t, r.Serving)
		require.False(t, r.Serving.Saturated, "the fit's premise: every run below saturation")
		runs = append(runs, run{conc: l.conc, rate: l.rate, in: in, out: out,
			tpot: r.Serving.TPOTMs, ttft: r.Serving.TTFTMs, rps: r.Serving.RequestsPerS, e2e: r.Serving.E2EMs})
	}
	return runs
}

// The writers: each writes runs as its tool does (the keys its source,
// cited at its importer, writes), at the precision the tool prints.

func writeVLLM(runs []run) []calc.BenchmarkImport {
	var out []calc.BenchmarkImport
	for _, r := range runs {
		rate, conc := `"inf"`, fmt.Sprint(r.conc)
		if r.rate > 0 {
			rate, conc = fmt.Sprint(r.rate), "null"
		}
		out = append(out, calc.BenchmarkImport{Format: "vllm_bench_json", Data: fmt.Sprintf(
			`{"backend": "vllm", "num_prompts": 200, "request_rate": %s, "burstiness": 1.0, "max_concurrency": %s, "completed": 200, "total_input_tokens": %d, "total_output_tokens": %d, "request_throughput": %v, "mean_ttft_ms": %v, "median_ttft_ms": 1, "mean_tpot_ms": %v, "median_tpot_ms": 1}`,
			rate, conc, 200*r.in, 200*r.out, r.rps, r.ttft, r.tpot)})
	}
	return out
}

func writeSGLang(runs []run) []calc.BenchmarkImport {
	var lines []string
	for _, r := range runs {
		rate, conc := "Infinity", fmt.Sprint(r.conc)
		if r.rate > 0 {
			rate, conc = fmt.Sprint(r.rate), "null"
		}
		lines = append(lines, fmt.Sprintf(
			`{"tag": null, "backend": "sglang", "dataset_name": "random", "request_rate": %s, "max_concurrency": %s, "completed": 500, "total_input_tokens": %d, "total_output_tokens": %d, "request_throughput": %v, "mean_e2e_latency_ms": %v, "mean_ttft_ms": %v, "mean_tpot_ms": %v, "concurrency": 3.2}`,
			rate, conc, 500*r.in, 500*r.out, r.rps, r.e2e, r.ttft, r.tpot))
	}
	return []calc.BenchmarkImport{{Format: "sglang_bench_jsonl", Data: strings.Join(lines, "\n") + "\n"}}
}

func writeGuideLLM(runs []run) []calc.BenchmarkImport {
	var bs []map[string]any
	mean := func(x float64) map[string]any {
		return map[string]any{"successful": map[string]any{"mean": x, "median": x}}
	}
	for _, r := range runs {
		st := map[string]any{"type_": "concurrent", "streams": r.conc}
		if r.conc == 1 {
			st = map[string]any{"type_": "synchronous"}
		}
		if r.rate > 0 {
			st = map[string]any{"type_": "poisson", "rate": r.rate, "max_concurrency": nil}
		}
		bs = append(bs, map[string]any{"type_": "generative_benchmark", "config": map[string]any{"strategy": st},
			"metrics": map[string]any{
				"prompt_token_count": mean(float64(r.in)), "output_token_count": mean(float64(r.out)),
				"time_to_first_token_ms": mean(r.ttft), "inter_token_latency_ms": mean(r.tpot),
				"time_per_output_token_ms": mean((r.ttft + r.tpot*float64(r.out-1)) / float64(r.out)),
				"requests_per_second":      mean(r.rps),
			}})
	}
	b, _ := json.Marshal(map[string]any{"metadata": map[string]any{"version": 1}, "benchmarks": bs})
	return []calc.BenchmarkImport{{Format: "guidellm_json", Data: string(b)}}
}

func writeAIPerfJSON(runs []run) []calc.BenchmarkImport {
	var out []calc.BenchmarkImport
	for _, r := range runs {
		phase := map[string]any{"name": "profiling", "type": "concurrency", "concurrency": r.conc}
		if r.rate > 0 {
			phase = map[string]any{"name": "profiling", "type": "request_rate", "request_rate": r.rate}
		}
		avg := func(unit string, x float64) map[string]any { return map[string]any{"unit": unit, "avg": x} }
		b, _ := json.Marshal(map[string]any{
			"schema_version": "1.0", "aiperf_version": "0.8.0",
			"request_throughput": avg("requests/sec", r.rps), "request_latency": avg("ms", r.e2e),
			"time_to_first_token": avg("ms", r.ttft), "inter_token_latency": avg("ms", r.tpot),
			"input_sequence_length": avg("tokens", float64(r.in)), "output_sequence_length": avg("tokens", float64(r.out)),
			"input_config": map[string]any{"phases": []any{map[string]any{"name": "warmup", "type": "concurrency", "concurrency": 4}, phase}},
		})
		out = append(out, calc.BenchmarkImport{Format: "aiperf_json", Data: string(b)})
	}
	return out
}

// writeAIPerfCSV writes the closed loops only: the CSV states no load,
// and its reader takes each run as a closed loop at its mean number in
// flight, which an open loop is not.
func writeAIPerfCSV(runs []run) []calc.BenchmarkImport {
	var out []calc.BenchmarkImport
	for _, r := range runs {
		if r.rate > 0 {
			continue
		}
		row := func(name string, x float64) string { return fmt.Sprintf("%s,%.2f,%.2f,%.2f,%.2f", name, x, x, x, x) }
		out = append(out, calc.BenchmarkImport{Format: "aiperf_csv", Data: strings.Join([]string{
			"Metric,avg,min,max,p50",
			row("Input Sequence Length (tokens)", float64(r.in)),
			row("Inter Token Latency (ms)", r.tpot),
			row("Output Sequence Length (tokens)", float64(r.out)),
			row("Request Latency (ms)", r.e2e),
			row("Time to First Token (ms)", r.ttft),
			"",
			"Metric,Value",
			fmt.Sprintf("Request Throughput (requests/sec),%.2f", r.rps),
		}, "\r\n") + "\r\n"})
	}
	return out
}

func writeLLMD(runs []run) []calc.BenchmarkImport {
	var out []calc.BenchmarkImport
	for _, r := range runs {
		load := map[string]any{"tool": "inference-perf", "concurrency": r.conc}
		if r.rate > 0 {
			load = map[string]any{"tool": "inference-perf", "rate_qps": r.rate}
		}
		s := func(x float64) map[string]any { return map[string]any{"units": "s", "mean": x / 1000} }
		b, _ := json.Marshal(map[string]any{
			"version":  "0.2",
			"scenario": map[string]any{"load": map[string]any{"standardized": load}},
			"results": map[string]any{"request_performance": map[string]any{"aggregate": map[string]any{
				"requests":   map[string]any{"total": 500, "input_length": map[string]any{"mean": r.in}, "output_length": map[string]any{"mean": r.out}},
				"throughput": map[string]any{"request_rate": map[string]any{"mean": r.rps}},
				"latency":    map[string]any{"time_to_first_token": s(r.ttft), "inter_token_latency": s(r.tpot), "request_latency": s(r.e2e)},
			}}},
		})
		out = append(out, calc.BenchmarkImport{Format: "llmd_report", Data: string(b)})
	}
	return out
}

// The round trip, per format: the slow server's runs, written in the
// format and imported against the catalog H100, recover the terms that
// make the catalog H100 the slow one: 0.8 x the profile's bandwidth
// efficiencies, 0.7 x its compute efficiencies, its step overhead; and
// the calibrated serving model gives back each run's TPOT, TTFT and
// rate. Tolerance: 1 % on each term, 2 % from AIPerf's CSV (it prints
// two decimals: its 0.49 req/s at concurrency 1 is 0.4925 rounded, half
// a per cent off, and it states no load), and 2 % on each figure.
func TestImportsCalibrateBackToTheSameTerms(t *testing.T) {
	runs := benchmarkRuns(t)
	for _, tc := range []struct {
		format string
		write  func([]run) []calc.BenchmarkImport
		tol    float64
	}{
		{"vllm_bench_json", writeVLLM, 0.01},
		{"sglang_bench_jsonl", writeSGLang, 0.01},
		{"guidellm_json", writeGuideLLM, 0.01},
		{"aiperf_json", writeAIPerfJSON, 0.01},
		{"aiperf_csv", writeAIPerfCSV, 0.02},
		{"llmd_report", writeLLMD, 0.01},
	} {
		t.Run(tc.format, func(t *testing.T) {
			req := calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{ID: "h100-sxm"}, MaxModelLen: calc.Int(8192),
				Workload:    &calc.Workload{InputTokens: calc.Int(1024), OutputTokens: calc.Int(256), Concurrency: calc.Int(16)},
				Calibration: &calc.Calibration{Imports: tc.write(runs)}}
			r, err := calc.Evaluate(req)
			require.NoError(t, err)
			c := r.Calibration
			require.NotNil(t, c)
			assert.Equal(t, []string{"bandwidth_efficiency", "step_overhead_ms", "compute_efficiency"}, c.Fitted)
			prof, got := c.Profile, r.Config.Efficiencies
			assert.InEpsilon(t, 0.8*prof.BandwidthEfficiency, got.BandwidthEfficiency, tc.tol)
			assert.InEpsilon(t, 0.8*prof.AttentionBandwidthEfficiency, got.AttentionBandwidthEfficiency, tc.tol)
			assert.InEpsilon(t, 0.7*prof.ComputeEfficiency, got.ComputeEfficiency, tc.tol)
			assert.InEpsilon(t, 0.7*prof.AttentionEfficiency, got.AttentionEfficiency, tc.tol)
			assert.InDelta(t, prof.StepOverheadMs, got.StepOverheadMs, tc.tol*prof.StepOverheadMs)
			assert.Less(t, c.RMSError, 0.01)
			require.NotEmpty(t, c.Serving)
			for _, p := range c.Serving {
				assert.InEpsilon(t, p.Measured.TPOTMs, p.Predicted.TPOTMs, 0.02, p.Source)
				assert.InEpsilon(t, p.Measured.TTFTMs, p.Predicted.TTFTMs, 0.02, p.Source)
				assert.InEpsilon(t, p.Measured.RequestsPerS, p.Predicted.RequestsPerS, 0.02, p.Source)
				assert.Greater(t, p.Measured.TPOTMs, p.Profile.TPOTMs, "the profile's H100 is faster than the measured one")
			}
			require.NotNil(t, c.Labels)
			assert.Equal(t, calc.FigureLabels{Step: "calibrated", Serving: "calibrated", Memory: "modelled"}, *c.Labels)

			// The profile carries the fit: applied alone, it gives the
			// same terms (to its 4 digits) and the same serving figures.
			pr := c.CalibrationProfile
			require.NotNil(t, pr)
			assert.Equal(t, 1, pr.Version)
			assert.Equal(t, "vllm", pr.Engine)
			assert.Equal(t, "meta-llama/Llama-3.1-8B-Instruct", pr.Model)
			assert.Equal(t, "h100-sxm-80gb", pr.Hardware)
			b, err := json.Marshal(pr)
			require.NoError(t, err)
			assert.Less(t, len(b), 2048, "small enough for a URL")
			t.Logf("%s: bandwidth_efficiency %.4f (want %.4f), compute_efficiency %.4f (want %.4f), step_overhead_ms %.4f (want %.4f), rms %.2g, profile %d bytes",
				tc.format, got.BandwidthEfficiency, 0.8*prof.BandwidthEfficiency, got.ComputeEfficiency, 0.7*prof.ComputeEfficiency,
				got.StepOverheadMs, prof.StepOverheadMs, c.RMSError, len(b))
			var back calc.CalibrationProfile
			require.NoError(t, json.Unmarshal(b, &back))
			req.Calibration = &calc.Calibration{Profile: &back}
			r2, err := calc.Evaluate(req)
			require.NoError(t, err)
			assert.InEpsilon(t, got.BandwidthEfficiency, r2.Config.Efficiencies.BandwidthEfficiency, 1e-3)
			assert.InEpsilon(t, got.ComputeEfficiency, r2.Config.Efficiencies.ComputeEfficiency, 1e-3)
			assert.InEpsilon(t, r.Serving.TPOTMs, r2.Serving.TPOTMs, 1e-3)
			assert.InEpsilon(t, r.Serving.TTFTMs, r2.Serving.TTFTMs, 1e-3)
		})
	}
}

// Real result files of each format (testdata/imports/sources.json: where
// each was taken from, its licence) read to the runs read by hand beside
// each.
func TestImportsReadRealFiles(t *testing.T) {
	b, err := os.ReadFile("testdata/imports/sources.json")
	require.NoError(t, err)
	var src struct {
		Files []struct {
			File, Format, Source, Licence string
			Runs                          []struct {
				Concurrency        float64 `json:"concurrency"`
				ConcurrencyDerived float64 `json:"concurrency_derived"`
				RequestRate        float64 `json:"request_rate"`
				InputTokens        float64 `json:"input_tokens"`
				OutputTokens       float64 `json:"output_tokens"`
				TPOTMs             float64 `json:"tpot_ms"`
				TTFTMs             float64 `json:"ttft_ms"`
				RequestsPerS       float64 `json:"requests_per_s"`
			}
		}
	}
	require.NoError(t, json.Unmarshal(b, &src))
	perFormat := map[string]int{}
	for _, f := range src.Files {
		require.NotEmpty(t, f.Source, f.File)
		require.NotEmpty(t, f.Licence, f.File)
		perFormat[f.Format]++
		data, err := os.ReadFile(filepath.Join("testdata/imports", f.File))
		require.NoError(t, err)
		ms, err := calc.ParseImport(calc.BenchmarkImport{Format: f.Format, Data: string(data)})
		require.NoError(t, err, f.File)
		require.Len(t, ms, len(f.Runs), f.File)
		for i, want := range f.Runs {
			got := ms[i]
			assert.InDelta(t, want.Concurrency+want.ConcurrencyDerived, got.Concurrency, 1e-6, f.File)
			assert.InDelta(t, want.RequestRate, got.RequestRate, 1e-9, f.File)
			assert.InDelta(t, want.InputTokens, got.InputTokens, 1e-9, f.File)
			assert.InDelta(t, want.OutputTokens, got.OutputTokens, 1e-9, f.File)
			assert.InDelta(t, want.TPOTMs, got.TPOTMs, 1e-9, f.File)
			assert.InDelta(t, want.TTFTMs, got.TTFTMs, 1e-9, f.File)
			assert.InDelta(t, want.RequestsPerS, got.RequestsPerS, 1e-9, f.File)
		}
	}
	for _, f := range calc.ImportFormats() {
		assert.GreaterOrEqual(t, perFormat[f], 2, f)
	}
}

// A file cut or mislabelled is refused, naming the place: the JSON path
// under the import's data, or the CSV row and column.
func TestImportsNameTheFieldAtFault(t *testing.T) {
	for _, tc := range []struct {
		imp  calc.BenchmarkImport
		want string
	}{
		{calc.BenchmarkImport{Format: "vllm_bench_json", Data: `{"completed": 10, "total_input_tokens": 100, "total_output_tokens": 50, "mean_ttft_ms": 20, "request_throughput": 1}`},
			`calibration.imports[0].data.mean_tpot_ms: is required (the mean time per output token)`},
		{calc.BenchmarkImport{Format: "guidellm_json", Data: `{"benchmarks": [{"config": {"strategy": {"type_": "synchronous"}}, "metrics": {"prompt_token_count": {"successful": {"mean": 10}}, "output_token_count": {"successful": {"mean": 10}}, "time_to_first_token_ms": {"successful": {"mean": 10}}, "inter_token_latency_ms": {"successful": {"mean": "x"}}, "requests_per_second": {"successful": {"mean": 1}}}}]}`},
			`calibration.imports[0].data.benchmarks[0].metrics.inter_token_latency_ms.successful.mean: must be a number (the mean time per output token after the first)`},
		{calc.BenchmarkImport{Format: "aiperf_csv", Data: "Metric,avg\nInput Sequence Length (tokens),128\nOutput Sequence Length (tokens),n/a\nTime to First Token (ms),20\nInter Token Latency (ms),5\n\nMetric,Value\nRequest Throughput (requests/sec),3\n"},
			`calibration.imports[0].data: row 3 ("Output Sequence Length (tokens)"), column "avg": must be a number above 0 (the mean output tokens), got "n/a"`},
		{calc.BenchmarkImport{Format: "llmd_report", Data: `{"version": "0.3"}`},
			`calibration.imports[0].data.version: must be "0.1", "0.2" or "0.2.1" (the report schema versions read), got "0.3"`},
		{calc.BenchmarkImport{Format: "genai_perf", Data: "{}"},
			`calibration.imports[0].format: must be one of vllm_bench_json, sglang_bench_jsonl, guidellm_json, aiperf_json, aiperf_csv, llmd_report, got "genai_perf"`},
		{calc.BenchmarkImport{Format: "aiperf_json", Data: "{\"records\": "},
			`calibration.imports[0].data: is not JSON: unexpected EOF`},
	} {
		_, err := calc.ParseImport(tc.imp)
		require.Error(t, err, tc.want)
		assert.Equal(t, tc.want, err.Error())
	}
	// Over the cap: refused before it is read.
	_, err := calc.ParseImport(calc.BenchmarkImport{Format: "aiperf_csv", Data: strings.Repeat("x", 16<<20+1)})
	require.Error(t, err)
	assert.Equal(t, "calibration.imports[0].data: is 16777217 bytes; at most 16777216", err.Error())
}

// The labels: a calibrated report's step and serving figures are
// calibrated; its memory is measured where a start-up log applies
// (memory.sources says which figure), modelled otherwise; a report
// without calibration has no labels (every speed figure modelled).
func TestCalibrationLabelsSayWhereFiguresComeFrom(t *testing.T) {
	req := calc.Request{Model: "codellama/CodeLlama-7b-hf", Hardware: calc.HardwareRef{ID: "h100-sxm"}, EngineVersion: "0.19",
		GPUMemoryUtilization: calc.Float(0.95), MaxModelLen: calc.Int(8192)}
	r, err := calc.Evaluate(req)
	require.NoError(t, err)
	assert.Nil(t, r.Calibration)

	req.Calibration = &calc.Calibration{Points: []calc.CalibrationPoint{{BatchSize: calc.Int(8), TPOTMs: calc.Float(9)}}}
	r, err = calc.Evaluate(req)
	require.NoError(t, err)
	assert.Equal(t, calc.FigureLabels{Step: "calibrated", Serving: "calibrated", Memory: "modelled"}, *r.Calibration.Labels)

	req.StartupLog = a001Log
	r, err = calc.Evaluate(req)
	require.NoError(t, err)
	assert.Equal(t, calc.FigureLabels{Step: "calibrated", Serving: "calibrated", Memory: "measured"}, *r.Calibration.Labels)
	require.NotNil(t, r.Memory.Sources)
	assert.Equal(t, "measured", r.Memory.Sources.Weights)
}
