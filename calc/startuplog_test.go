package calc_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/release"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Real start-up logs of several vLLM releases (V0 of 2025, V1 of early
// 2025, May 2026, 0.27.1) parse to the figures written beside each in
// testdata/startup-logs/sources.json, read by hand from the lines, and to
// the deployment settings each states.
func TestStartupLogsParseToTheirLoggedFigures(t *testing.T) {
	b, err := os.ReadFile("testdata/startup-logs/sources.json")
	require.NoError(t, err)
	var src struct {
		Logs []struct {
			File     string             `json:"file"`
			Source   string             `json:"source"`
			Error    string             `json:"error"`
			Figures  map[string]float64 `json:"figures"`
			Settings map[string]float64 `json:"settings"`
			// The lines a request field answers, read by hand.
			FlashInferSampler bool `json:"flashinfer_sampler"`
			NoP2P             bool `json:"no_p2p"`
		} `json:"logs"`
	}
	require.NoError(t, json.Unmarshal(b, &src))
	require.GreaterOrEqual(t, len(src.Logs), 4)
	for _, l := range src.Logs {
		require.NotEmpty(t, l.Source, l.File)
		text, err := os.ReadFile(filepath.Join("testdata/startup-logs", l.File))
		require.NoError(t, err)
		lg, err := calc.ParseStartupLog(string(text))
		if l.Error != "" {
			require.Error(t, err, l.File)
			assert.Equal(t, l.Error, err.Error(), l.File)
		} else {
			require.NoError(t, err, l.File)
		}
		assert.Equal(t, l.Figures, lg.Figures, l.File)
		assert.Equal(t, l.Settings, lg.Settings, l.File)
		assert.Equal(t, l.FlashInferSampler, lg.FlashInferSampler, l.File)
		assert.Equal(t, l.NoP2P, lg.NoP2P, l.File)
	}
}

// A log that samples with FlashInfer on GPUs without P2P, pasted into a
// request that says neither, is answered with a warning naming each field;
// the request that sets both gets neither warning, and its KV figure is
// the log's (1,192,160 tokens) within 0.2 %.
func TestStartupLogSaysWhichFieldsItsServerNeeds(t *testing.T) {
	text, err := os.ReadFile("testdata/startup-logs/v0.10.1.1-tp2-no-p2p.log")
	require.NoError(t, err)
	req := calc.Request{Model: "Qwen/Qwen2-7B-Instruct", Hardware: calc.HardwareRef{ID: "a100-pcie-80gb"}, EngineVersion: "0.10",
		TensorParallelSize: calc.Int(2), GPUMemoryUtilization: calc.Float(0.5), MaxModelLen: calc.Int(16384), StartupLog: string(text)}
	codes := func(r calc.Report) []string {
		var out []string
		for _, w := range r.Warnings {
			out = append(out, w.Code)
		}
		return out
	}
	plain, err := calc.Evaluate(req)
	require.NoError(t, err)
	assert.Contains(t, codes(plain), "startup_log_sampler")
	assert.Contains(t, codes(plain), "startup_log_p2p")
	yes, no := true, false
	req.FlashInferSampler, req.P2P = &yes, &no
	set, err := calc.Evaluate(req)
	require.NoError(t, err)
	assert.NotContains(t, codes(set), "startup_log_sampler")
	assert.NotContains(t, codes(set), "startup_log_p2p")
	assert.InEpsilon(t, 1192160, float64(set.KVCache.CapacityTokens), 0.002)
}

// A log written from the engine's own figures, in vLLM 0.2x's wording
// (two decimals of GiB, thousands commas), reads back to the same terms:
// each logged figure is the predicted one to the log's rounding.
func TestStartupLogRoundTrip(t *testing.T) {
	req := calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{ID: "h100-sxm"}, MaxModelLen: calc.Int(8192)}
	r, err := calc.Evaluate(req)
	require.NoError(t, err)
	gib := func(b int64) float64 { return float64(b) / (1 << 30) }
	est := gib(int64(release.CUDAGraphEstimate(r.Config.MaxNumSeqs, r.Model.Layers)))
	lines := []string{
		fmt.Sprintf("(EngineCore pid=1) INFO 09-03 03:38:47 [core.py:112] Initializing a V1 LLM engine (v0.31.0) with config: model='x'"),
		fmt.Sprintf("(EngineCore pid=1) INFO 09-03 03:38:57 [gpu_model_runner.py:5132] Model loading took %.2f GiB memory and 4.660599 seconds", gib(r.Memory.WeightsBytes)),
		fmt.Sprintf("(EngineCore pid=1) INFO 09-03 03:39:28 [gpu_model_runner.py:6365] Estimated CUDA graph memory: %.2f GiB total", est),
		fmt.Sprintf("(EngineCore pid=1) INFO 09-03 03:39:29 [gpu_worker.py:466] Available KV cache memory: %.2f GiB", gib(r.Memory.KVCacheBytes)),
		"(EngineCore pid=1) INFO 09-03 03:39:29 [kv_cache_utils.py:1733] GPU KV cache size: " + commas(r.KVCache.CapacityTokens) + " tokens",
		fmt.Sprintf("(EngineCore pid=1) INFO 09-03 03:39:29 [kv_cache_utils.py:1734] Maximum concurrency for 8,192 tokens per request: %.2fx", r.KVCache.MaxConcurrency),
	}
	req.StartupLog = strings.Join(lines, "\n")
	got, err := calc.Evaluate(req)
	require.NoError(t, err)
	require.NotNil(t, got.StartupLog)
	assert.Equal(t, "0.31.0", got.StartupLog.Release)
	names := map[string]bool{}
	for _, term := range got.StartupLog.Terms {
		names[term.Name] = true
		assert.InDelta(t, term.Predicted, term.Logged, 0.005+1e-9, term.Name)
	}
	for _, n := range []string{"weights_gib", "cuda_graph_estimate_gib", "available_kv_gib", "kv_cache_tokens", "max_concurrency"} {
		assert.True(t, names[n], n)
	}
	assert.Contains(t, got.StartupLog.Missing, "activation_gib")
	for _, w := range got.Warnings {
		assert.NotEqual(t, "startup_log_release", w.Code, "the log's release is the one modelled")
	}

	// The same log under 0.19: the figures model another release than the
	// log's, and the report says so.
	req.EngineVersion = "0.19"
	got, err = calc.Evaluate(req)
	require.NoError(t, err)
	codes := []string{}
	for _, w := range got.Warnings {
		codes = append(codes, w.Code)
	}
	assert.Contains(t, codes, "startup_log_release")
}

func commas(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// A log too large is refused before it is read.
func TestStartupLogTooLarge(t *testing.T) {
	_, err := calc.ParseStartupLog(strings.Repeat("x", calc.MaxStartupLogBytes+1))
	require.Error(t, err)
	assert.Equal(t, "startup_log: is 1048577 bytes; at most 1048576", err.Error())
}

// V1's DEBUG-level breakdown and requested-memory lines, in the wording of
// vllm/utils/mem_utils.py MemoryProfilingResult and gpu_worker.py
// (figures made up for the test; the real logs in testdata are INFO level).
func TestStartupLogReadsTheDebugBreakdown(t *testing.T) {
	text := strings.Join([]string{
		"(EngineCore_DP0 pid=1) DEBUG 09-28 21:12:43 [v1/worker/gpu_worker.py:290] Initial free memory: 79.11 GiB; Requested memory: 0.90 (util), 71.20 GiB",
		"(EngineCore_DP0 pid=1) DEBUG 09-28 21:12:43 [v1/worker/gpu_worker.py:297] Memory profiling takes 14.40 seconds. Total non KV cache memory: 11.25GiB; torch peak memory increase: 1.50GiB; non-torch forward increase memory: 0.75GiB; weights memory: 9.00GiB.",
		"(EngineCore_DP0 pid=1) INFO 09-28 21:12:43 [v1/worker/gpu_worker.py:298] Available KV cache memory: 42.75 GiB",
	}, "\n")
	lg, err := calc.ParseStartupLog(text)
	require.NoError(t, err)
	assert.Equal(t, map[string]float64{"requested_gib": 71.20, "activation_gib": 1.50, "non_torch_gib": 0.75, "weights_gib": 9.00, "available_kv_gib": 42.75}, lg.Figures)
}

// Figures written with exponents are read whole ("5.5e1 GiB" is 55 GiB,
// "1.2E+6 tokens" 1,200,000, "2.5e-1 GiB" 0.25), thousands commas too; an
// "e" that no digit follows is not an exponent ("7 eGiB" is 7). A figure
// below 0 or past its bound (1,048,576 GiB; 10^12 for a count), "1e308"
// and "1e400" (past a float64) among them, is a field error on
// startup_log naming the line and the figure as written, one per figure.
func TestStartupLogReadsExponentsAndRefusesOutOfRange(t *testing.T) {
	lg, err := calc.ParseStartupLog("Model loading took 5.5e1 GiB memory and 4 seconds\n" +
		"Available KV cache memory: 2.5e-1 GiB\nGPU KV cache size: 1.2E+6 tokens\n" +
		"# GPU blocks: 1,024\nnon_torch_memory takes 7 eGiB")
	require.NoError(t, err)
	assert.Equal(t, map[string]float64{"weights_gib": 55, "available_kv_gib": 0.25, "kv_cache_tokens": 1.2e6, "num_gpu_blocks": 1024, "non_torch_gib": 7}, lg.Figures)

	_, err = calc.ParseStartupLog("Model loading took 1e308 GiB memory\nAvailable KV cache memory: -3.5 GiB\n" +
		"GPU KV cache size: 1e400 tokens\nMaximum concurrency for 8,192 tokens per request: 2e12x")
	assert.Equal(t, calc.Errors{
		{Field: "startup_log", Message: `line 1: weights_gib "1e308" is out of range; a figure in GiB is at most 1,048,576`},
		{Field: "startup_log", Message: `line 2: available_kv_gib "-3.5" is negative; a logged figure is 0 or more`},
		{Field: "startup_log", Message: `line 3: kv_cache_tokens "1e400" is out of range; a count is at most 1,000,000,000,000`},
		{Field: "startup_log", Message: `line 4: max_concurrency "2e12" is out of range; a count is at most 1,000,000,000,000`},
	}, err)
}

// A setting the log states out of its range (a utilisation past 1, a
// max_model_len of 0 or a fraction) is a field error on startup_log naming
// the line, the setting and the figure as written.
func TestStartupLogRefusesSettingsOutOfRange(t *testing.T) {
	_, err := calc.ParseStartupLog("the current vLLM instance can use total_gpu_memory (23.58GiB) x gpu_memory_utilization (1.5) = 35.37GiB\n" +
		"Maximum concurrency for 0 tokens per request: 2.00x\nChunked prefill is enabled with max_num_batched_tokens=20.5.\n" +
		"Available KV cache memory: 5.5e1 GiB")
	assert.Equal(t, calc.Errors{
		{Field: "startup_log", Message: `line 1: gpu_memory_utilization "1.5" is out of range; a utilisation lies in (0, 1]`},
		{Field: "startup_log", Message: `line 2: max_model_len "0" is out of range; a whole number from 1 to 1,000,000,000,000`},
		{Field: "startup_log", Message: `line 3: max_num_batched_tokens "20.5" is out of range; a whole number from 1 to 1,000,000,000,000`},
	}, err)
}
