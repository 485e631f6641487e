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

// Real `vllm bench serve` summaries of several releases (benchmark_serving.py
// of 2024 and 2025, `vllm bench serve` of 2025 and 2026) parse to the
// figures read by hand beside each in testdata/bench-serve/sources.json; a
// paste cut before its TPOT lines is an error naming them.
func TestBenchServeResultsParseToTheirFigures(t *testing.T) {
	b, err := os.ReadFile("testdata/bench-serve/sources.json")
	require.NoError(t, err)
	var src struct {
		Files []struct {
			File, Source, Error string
			Results             []struct {
				Concurrency     float64 `json:"concurrency"`
				ConcurrencyFrom string  `json:"concurrency_from"`
				InputTokens     float64 `json:"input_tokens"`
				OutputTokens    float64 `json:"output_tokens"`
				TPOTMs          float64 `json:"tpot_ms"`
			}
		}
	}
	require.NoError(t, json.Unmarshal(b, &src))
	require.GreaterOrEqual(t, len(src.Files), 5)
	for _, f := range src.Files {
		require.NotEmpty(t, f.Source, f.File)
		text, err := os.ReadFile(filepath.Join("testdata/bench-serve", f.File))
		require.NoError(t, err)
		rs, err := calc.ParseBenchServe(string(text))
		if f.Error != "" {
			require.Error(t, err, f.File)
			assert.Equal(t, f.Error, err.Error(), f.File)
			continue
		}
		require.NoError(t, err, f.File)
		require.Len(t, rs, len(f.Results), f.File)
		for i, want := range f.Results {
			got := rs[i]
			assert.InDelta(t, want.Concurrency, got.Concurrency, 1e-6, f.File)
			assert.Equal(t, want.ConcurrencyFrom, got.ConcurrencyFrom, f.File)
			assert.InDelta(t, want.InputTokens, got.InputTokens, 1e-9, f.File)
			assert.InDelta(t, want.OutputTokens, got.OutputTokens, 1e-9, f.File)
			assert.InDelta(t, want.TPOTMs, got.TPOTMs, 1e-9, f.File)
		}
	}
}

// Text that is not a benchmark summary is refused, naming what is missing.
func TestBenchServeForeignText(t *testing.T) {
	_, err := calc.ParseBenchServe("| model | size | params | backend | ngl | test | t/s |\n| llama 8B Q4_K_M | 4.58 GiB | 8.03 B | CUDA | 99 | tg128 | 128.4 |")
	require.Error(t, err)
	assert.Equal(t, `calibration.bench_serve: has no "Serving Benchmark Result" block: paste the summary that vllm bench serve prints at the end of a run`, err.Error())

	_, err = calc.ParseBenchServe("============ Serving Benchmark Result ============\nSuccessful requests: 10\nMedian TPOT (ms): 9.5\n")
	require.Error(t, err)
	assert.Equal(t, `calibration.bench_serve: lacks the lines result 1: "Total input tokens:", result 1: "Total generated tokens:", result 1: "Request throughput (req/s):", result 1: "Mean TTFT (ms):", result 1: "Mean TPOT (ms):" of vllm bench serve's summary`, err.Error())
}

// benchBlock writes one summary in the wording of vllm bench serve (2026),
// TPOT to its two decimals.
func benchBlock(conc, in, out int, tpotMs float64) string {
	const n = 100
	return strings.Join([]string{
		"============ Serving Benchmark Result ============",
		fmt.Sprintf("Successful requests:                     %d", n),
		"Failed requests:                         0",
		fmt.Sprintf("Maximum request concurrency:             %d", conc),
		fmt.Sprintf("Total input tokens:                      %d", n*in),
		fmt.Sprintf("Total generated tokens:                  %d", n*out),
		"-----Time per Output Token (excl. 1st token)------",
		fmt.Sprintf("Mean TPOT (ms):                          %.2f", tpotMs*1.01),
		fmt.Sprintf("Median TPOT (ms):                        %.2f", tpotMs),
		"==================================================",
	}, "\n")
}

// The round trip: a server whose memory delivers 0.8 of the H100's
// datasheet bandwidth, served by vLLM's profile (calc/release/engine.go), is benchmarked at four concurrencies by
// the engine itself (a custom accelerator with 0.8 x 3.35 TB/s). Pasted
// against the catalog H100, the fit must recover the terms that produce
// those steps on it: 0.8 x the profile's bandwidth efficiencies and the
// same step overhead,
// and the calibrated report's step at each concurrency is the benchmark's.
func TestBenchServeCalibratesBackToTheSameTerms(t *testing.T) {
	h100, err := hardware.Lookup("h100-sxm")
	require.NoError(t, err)
	slow := h100
	slow.ID, slow.Name = "", "H100 at 0.8 of its bandwidth"
	slow.MemoryBandwidthBytesPerS *= 0.8
	const in, out = 1024, 256
	var blocks []string
	measured := map[int]float64{}
	for _, c := range []int{1, 8, 32, 64} {
		r, err := calc.Evaluate(calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{Custom: &slow}, MaxModelLen: calc.Int(8192),
			Workload: &calc.Workload{InputTokens: calc.Int(in), OutputTokens: calc.Int(out), Concurrency: calc.Int(c)}})
		require.NoError(t, err)
		require.Equal(t, c, r.Decode.BatchSize)
		require.Equal(t, "memory", r.Decode.Bound, "the fit's premise: memory-bound steps")
		measured[c] = r.Decode.StepTimeMs
		blocks = append(blocks, benchBlock(c, in, out, r.Decode.StepTimeMs))
	}
	req := calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{ID: "h100-sxm"}, MaxModelLen: calc.Int(8192),
		Workload:    &calc.Workload{InputTokens: calc.Int(in), OutputTokens: calc.Int(out), Concurrency: calc.Int(32)},
		Calibration: &calc.Calibration{BenchServe: strings.Join(blocks, "\n\n")}}
	r, err := calc.Evaluate(req)
	require.NoError(t, err)
	require.NotNil(t, r.Calibration)
	assert.Equal(t, []string{"bandwidth_efficiency", "step_overhead_ms"}, r.Calibration.Fitted)
	// The profile's vLLM terms (calc/release/engine.go) scaled by the server's 0.8.
	prof := r.Calibration.Profile
	assert.InDelta(t, 0.8*prof.BandwidthEfficiency, r.Config.Efficiencies.BandwidthEfficiency, 0.001)
	assert.InDelta(t, 0.8*prof.AttentionBandwidthEfficiency, r.Config.Efficiencies.AttentionBandwidthEfficiency, 0.001)
	assert.InDelta(t, prof.StepOverheadMs, r.Config.Efficiencies.StepOverheadMs, 0.02)
	assert.Less(t, r.Calibration.RMSError, 0.001)
	require.Len(t, r.Calibration.Points, 4)
	for _, p := range r.Calibration.Points {
		assert.Equal(t, in+out/2, p.ContextTokens)
		assert.InDelta(t, measured[p.BatchSize], p.PredictedMs, 0.01, p.Source)
		assert.Less(t, p.ProfileMs, p.MeasuredMs, "the profile's H100 is faster than the measured one")
	}
	// The calibration drives the report's figures: the decode point (32)
	// is the measured step.
	assert.InDelta(t, measured[32], r.Decode.StepTimeMs, 0.01)

	// Pairs give the same fit as the pasted text.
	var pts []calc.CalibrationPoint
	for _, c := range []int{1, 8, 32, 64} {
		pts = append(pts, calc.CalibrationPoint{BatchSize: calc.Int(c), TPOTMs: calc.Float(measured[c])})
	}
	req.Calibration = &calc.Calibration{Points: pts}
	r2, err := calc.Evaluate(req)
	require.NoError(t, err)
	assert.InDelta(t, 0.8*prof.BandwidthEfficiency, r2.Config.Efficiencies.BandwidthEfficiency, 0.0005)
	assert.InDelta(t, prof.StepOverheadMs, r2.Config.Efficiencies.StepOverheadMs, 0.01)
}

// One batch size cannot split the overhead from the bandwidth: only the
// efficiency is fitted, and the one point is met exactly.
func TestCalibrationOnePointFitsTheBandwidthOnly(t *testing.T) {
	r, err := calc.Evaluate(calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{ID: "h100-sxm"}, MaxModelLen: calc.Int(8192),
		Calibration: &calc.Calibration{Points: []calc.CalibrationPoint{{BatchSize: calc.Int(1), TPOTMs: calc.Float(8), ContextTokens: calc.Int(1000)}}}})
	require.NoError(t, err)
	require.NotNil(t, r.Calibration)
	assert.Equal(t, []string{"bandwidth_efficiency"}, r.Calibration.Fitted)
	assert.Equal(t, r.Calibration.Profile.StepOverheadMs, r.Config.Efficiencies.StepOverheadMs)
	assert.InDelta(t, 8, r.Calibration.Points[0].PredictedMs, 1e-6)
	// Hand check with vLLM's profile (calc/release/engine.go: step overhead
	// 0.71 ms, 7.6 us per layer, 5 us per sequence, attention bandwidth
	// efficiency 0.70 against 0.82 for the GEMMs' reads, a ratio the fit
	// keeps): 8 ms - 0.71 - 32 x 0.0076 - 0.005 = 7.0418 ms of reads. The
	// weights read (16.06 GB less the 128256 x 4096 x 2 B = 1.05 GB
	// embedding table, gathered, not read: 15.01 GB) at 3.35e12 x eta and
	// 1000 tokens of KV (131072 B each, 0.131 GB) at 3.35e12 x eta x
	// 0.70/0.82 make eta = (15.01e9 + 0.131e9 x 0.82/0.70) / (3.35e12 x
	// 7.0418e-3) = 15.163e9 / 23.590e9 = 0.643.
	assert.InDelta(t, 0.643, r.Config.Efficiencies.BandwidthEfficiency, 0.003)
}
