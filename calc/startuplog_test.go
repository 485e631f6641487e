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
		"(EngineCore pid=1) INFO 09-03 03:38:47 [core.py:112] Initializing a V1 LLM engine (v" + calc.DefaultEngineVersion + ".0) with config: model='x'",
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
	assert.Equal(t, calc.DefaultEngineVersion+".0", got.StartupLog.Release)
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

// The start-up log of group A case A001 (vLLM 0.19.0, CodeLlama-7b on an
// H100 80GB at gpu_memory_utilization 0.95, max_model_len 8192; llm-d-
// incubation/llm-d-planner PR #205 at d3121e05,
// accuracy/results/v0.19.0/logs/codellama-codellama-7b-h--h100-80gb--tp1pp1dp1--8192.log),
// its lines composed from the figures the case quotes of it.
const a001Log = `DEBUG [gpu_worker.py:290] Initial free memory: 78.68 GiB; Requested memory: 0.95 (util), 75.23 GiB
INFO [gpu_model_runner.py:4305] Model loading took 12.56 GiB memory and 3.1 seconds
DEBUG [gpu_worker.py:297] Memory profiling takes 9.8 seconds. Total non KV cache memory: 13.57GiB; torch peak memory increase: 0.77GiB; non-torch forward increase memory: 0.25GiB; weights memory: 12.56GiB.
INFO [gpu_worker.py:298] Available KV cache memory: 61.66 GiB
INFO [kv_cache_utils.py:1087] GPU KV cache size: 126,256 tokens
INFO [kv_cache_utils.py:1091] Maximum concurrency for 8,192 tokens per request: 15.41x`

// With A001's log pasted, the same deployment's memory figures are the
// log's, labelled "measured", and its KV capacity the logged one within
// 1 %. What-ifs move from there as vLLM 0.19's profiler would, derived by
// hand:
//
// vLLM 0.19 sizes the pool as requested - (weights + torch peak +
// non-torch) with requested = total * gpu_memory_utilization
// (vllm/v1/worker/gpu_worker.py init_device and
// determine_available_memory); the torch peak is the profile run's,
// _dummy_run(self.max_num_tokens, is_profile=True) with max_num_tokens =
// max_num_batched_tokens (gpu_model_runner.py profile_run), 8192 here
// whatever max_model_len is. CodeLlama-7b keeps 32 layers x 2 x 32 KV
// heads x 128 x 2 bytes = 512 KiB a token, 8 MiB a 16-token block.
//
//   - max_model_len 4096: the same 61.66 GiB; floor(61.66 * 128) = 7892
//     blocks, 126,272 tokens; 126,272 / 4096 = 30.83 requests of 4096.
//   - gpu_memory_utilization 0.90: total = 75.23 / 0.95 = 79.189 GiB,
//     requested 71.271 GiB, 3.959 GiB less, the rest as logged: 57.701
//     GiB, floor(57.701 * 128) = 7385 blocks, 118,160 tokens.
func TestStartupLogCalibratesV1AndMovesWithTheRequest(t *testing.T) {
	req := calc.Request{Model: "codellama/CodeLlama-7b-hf", Hardware: calc.HardwareRef{ID: "h100-sxm"}, EngineVersion: "0.19",
		GPUMemoryUtilization: calc.Float(0.95), MaxModelLen: calc.Int(8192), StartupLog: a001Log}
	gib := func(b int64) float64 { return float64(b) / (1 << 30) }
	r, err := calc.Evaluate(req)
	require.NoError(t, err)
	assert.InEpsilon(t, 126256, float64(r.KVCache.CapacityTokens), 0.01)
	assert.InDelta(t, 61.66, gib(r.Memory.KVCacheBytes), 1e-6)
	assert.InDelta(t, 12.56, gib(r.Memory.WeightsBytes), 1e-6)
	assert.InDelta(t, 0.77, gib(r.Memory.ActivationBytes), 1e-6)
	assert.InDelta(t, 0.25, gib(r.Memory.NonTorchBytes), 1e-6)
	assert.InDelta(t, 75.23, gib(r.Memory.RequestedBytes), 1e-6)
	require.NotNil(t, r.Memory.Sources)
	assert.Equal(t, calc.MemorySources{Requested: "measured", Weights: "measured", Activation: "measured", NonTorch: "measured", CUDAGraph: "modelled", KVCache: "measured"}, *r.Memory.Sources)
	// The comparison keeps the engine's own figures beside the log's.
	for _, term := range r.StartupLog.Terms {
		if term.Name == "weights_gib" {
			assert.NotEqual(t, term.Logged, term.Predicted)
		}
	}

	req.MaxModelLen = calc.Int(4096)
	r, err = calc.Evaluate(req)
	require.NoError(t, err)
	assert.InDelta(t, 61.66, gib(r.Memory.KVCacheBytes), 1e-6)
	assert.Equal(t, int64(7892), r.KVCache.NumBlocks)
	assert.Equal(t, int64(126272), r.KVCache.CapacityTokens)
	assert.InDelta(t, 30.83, r.KVCache.MaxConcurrency, 0.005)
	assert.Equal(t, "measured", r.Memory.Sources.KVCache)

	req.MaxModelLen, req.GPUMemoryUtilization = calc.Int(8192), calc.Float(0.90)
	r, err = calc.Evaluate(req)
	require.NoError(t, err)
	assert.InDelta(t, 75.23/0.95*0.90, gib(r.Memory.RequestedBytes), 1e-6)
	assert.InDelta(t, 61.66-(75.23-75.23/0.95*0.90), gib(r.Memory.KVCacheBytes), 1e-6)
	assert.Equal(t, int64(7385), r.KVCache.NumBlocks)
	assert.Equal(t, int64(118160), r.KVCache.CapacityTokens)
	assert.Equal(t, "derived", r.Memory.Sources.Requested)
	assert.Equal(t, "derived", r.Memory.Sources.KVCache)
	assert.Equal(t, "measured", r.Memory.Sources.Weights)
}

// A V0 log moves with max_model_len: V0's profile run without chunked
// prefill covers max(max_model_len, 2048, max_num_seqs) tokens
// (vllm/worker/model_runner.py profile_run over
// scheduler_config.max_num_batched_tokens, which vllm/config.py
// SchedulerConfig sets to max(max_model_len, 2048) without chunked
// prefill), so its activation peak scales with it, and the pool gives way.
// Group A case A074 (vLLM issue #10517, comment of 2024-12-02; an RTX 3090,
// Llama-3.1-8B-Instruct at max_model_len 20000) logs, in V0's "Memory
// profiling results" line, total 23.58 GiB at 0.90, a torch peak of 17.06
// GiB over 14.9888 GiB of weights, 0.35 GiB non-torch and 3.81 GiB of KV
// cache (the lines composed from those figures). By hand, at
// max_model_len 29000:
//
//	activation at 20000 = 17.06 - 14.9888 = 2.0712 GiB
//	activation at 29000 = 2.0712 * 29000/20000 = 3.00324 GiB (the peak is
//	  the forward's, 13.537 hidden-sized tensors per profiled token, above
//	  the sampler's 0.16 + 9.4 * 256 * 128256 * 4 bytes = 1.30 GiB)
//	KV = 3.81 - (3.00324 - 2.0712) = 2.87796 GiB
//	blocks = floor(2.87796 GiB / 2 MiB) = 1473 (32 layers x 2 x 8 heads x
//	  128 x 2 bytes x 16 tokens a block)
//
// against 1478 that the same issue's log at 29000 shows (case A075).
func TestStartupLogV0MovesWithMaxModelLen(t *testing.T) {
	log := "INFO 12-02 10:00:00 model_runner.py:1077] Loading model weights took 14.9888 GB\n" +
		"INFO 12-02 10:00:05 worker.py:232] Memory profiling results: total_gpu_memory=23.58GiB initial_memory_usage=15.34GiB peak_torch_memory=17.06GiB memory_usage_post_profile=15.44GiB non_torch_memory=0.35GiB kv_cache_size=3.81GiB gpu_memory_utilization=0.90\n" +
		"INFO 12-02 10:00:05 gpu_executor.py:113] # GPU blocks: 1952, # CPU blocks: 2048\n" +
		"INFO 12-02 10:00:05 gpu_executor.py:117] Maximum concurrency for 20000 tokens per request: 1.56x"
	req := calc.Request{Model: "meta-llama/Llama-3.1-8B-Instruct", Hardware: calc.HardwareRef{ID: "rtx-3090"}, EngineVersion: "0.6",
		GPUMemoryUtilization: calc.Float(0.9), MaxModelLen: calc.Int(20000), StartupLog: log}
	r, err := calc.Evaluate(req)
	require.NoError(t, err)
	assert.InEpsilon(t, 1952, float64(r.KVCache.NumBlocks), 0.01)
	assert.Equal(t, "measured", r.Memory.Sources.Activation)

	req.MaxModelLen = calc.Int(29000)
	r, err = calc.Evaluate(req)
	require.NoError(t, err)
	gib := func(b int64) float64 { return float64(b) / (1 << 30) }
	assert.InDelta(t, 3.00324, gib(r.Memory.ActivationBytes), 1e-5)
	assert.InDelta(t, 2.87796, gib(r.Memory.KVCacheBytes), 1e-5)
	assert.Equal(t, int64(1473), r.KVCache.NumBlocks)
	assert.InEpsilon(t, 1478, float64(r.KVCache.NumBlocks), 0.01, "the log at 29000 (A075)")
	assert.Equal(t, "derived", r.Memory.Sources.Activation)
	assert.Equal(t, "derived", r.Memory.Sources.KVCache)
}

// From 0.21 the profiler also subtracts its CUDA-graph estimate, which
// grows with the graphs captured: piecewise graphs for the capture sizes
// up to min(2 x max_num_seqs, 512) and full decode graphs for those up to
// max_num_seqs (vllm/config/vllm.py cudagraph_capture_sizes: 1, 2, 4,
// steps of 8 to 248, steps of 16 to 512; release.CUDAGraphCaptures). A
// log at max_num_seqs 1024 (51 + 51 = 102 graphs) moved to max_num_seqs 64
// (19 piecewise sizes up to 128, 11 full ones up to 64: 30) scales the
// logged 1.20 GiB estimate by 30/102. The activation peak's sampler term
// also shrinks: S = min(max_num_seqs, max_num_batched_tokens) sequences of
// float32 logits over the vocabulary (docs/MODEL.md section 3:
// 1.031*T*h*b + 0.540*T*I*b + 3.601*S*V*4, T = 8192 on an H100, h = 4096,
// I = 14336, V = 128256, b = 2 for Llama-3.1-8B), so the logged 2.00 GiB
// peak moves by its ratio at S = 64 to S = 1024. Another KV dtype (fp8)
// leaves the memory as it is and halves the bytes of a token. The
// figures of this log are made up for the test; the lines are vLLM's.
func TestStartupLogMovesTheGraphEstimateWithMaxNumSeqs(t *testing.T) {
	log := strings.Join([]string{
		"(APIServer pid=1) INFO [utils.py:233] non-default args: {'model': 'meta-llama/Llama-3.1-8B-Instruct', 'max_num_seqs': 1024}",
		"(EngineCore pid=2) INFO [gpu_model_runner.py:5132] Model loading took 14.99 GiB memory and 4.660599 seconds",
		"(EngineCore pid=2) DEBUG [gpu_worker.py:297] Memory profiling takes 9.1 seconds. torch peak memory increase: 2.00GiB; non-torch forward increase memory: 0.25GiB; weights memory: 14.99GiB.",
		"(EngineCore pid=2) INFO [gpu_model_runner.py:6365] Estimated CUDA graph memory: 1.20 GiB total",
		"(EngineCore pid=2) INFO [gpu_worker.py:466] Available KV cache memory: 60.00 GiB",
	}, "\n")
	req := calc.Request{Model: "meta-llama/Llama-3.1-8B-Instruct", Hardware: calc.HardwareRef{ID: "h100-sxm"}, EngineVersion: "0.31",
		MaxModelLen: calc.Int(8192), MaxNumSeqs: calc.Int(1024), StartupLog: log}
	gib := func(b int64) float64 { return float64(b) / (1 << 30) }
	r, err := calc.Evaluate(req)
	require.NoError(t, err)
	assert.InDelta(t, 60.00, gib(r.Memory.KVCacheBytes), 1e-6)
	assert.InDelta(t, 1.20, gib(r.Memory.CUDAGraphBytes), 1e-6)
	assert.Equal(t, "measured", r.Memory.Sources.CUDAGraph)

	req.MaxNumSeqs = calc.Int(64)
	r, err = calc.Evaluate(req)
	require.NoError(t, err)
	act := func(s float64) float64 {
		const tok, h, inter, vocab = 8192.0, 4096.0, 14336.0, 128256.0
		return 1.031*tok*h*2 + 0.540*tok*inter*2 + 3.601*s*vocab*4
	}
	graph := 1.20 * 30 / 102
	activation := 2.00 * act(64) / act(1024)
	assert.InDelta(t, graph, gib(r.Memory.CUDAGraphBytes), 1e-6)
	assert.InDelta(t, activation, gib(r.Memory.ActivationBytes), 1e-6)
	assert.InDelta(t, 60.00+(1.20-graph)+(2.00-activation), gib(r.Memory.KVCacheBytes), 1e-6)
	assert.Equal(t, "derived", r.Memory.Sources.CUDAGraph)

	// fp8: 32 layers x 2 x 8 heads x 128 x 1 byte = 64 KiB a token, 1 MiB
	// a block: floor(60.00 * 1024) = 61440 blocks.
	req.MaxNumSeqs, req.KVCacheDtype = calc.Int(1024), "fp8"
	r, err = calc.Evaluate(req)
	require.NoError(t, err)
	assert.InDelta(t, 60.00, gib(r.Memory.KVCacheBytes), 1e-6)
	assert.Equal(t, int64(61440), r.KVCache.NumBlocks)
}

// SGLang's start-up lines calibrate an SGLang deployment: QwQ-32B at TP 4
// on four L4s under SGLang 0.4.3.post4 (testdata/startup-logs/
// sglang-0.4.3.post4-tp4-l4.log) logs 46,611 tokens, which the same
// deployment then holds within 1 %. SGLang sizes its pool as
// available_after_weights - total * (1 - mem_fraction_static), total the
// 21.63 GiB free before the weights (model_runner.py
// profile_max_num_token), and allocates int(rest / cell) tokens of cell =
// 64 layers x 2 (K, V) x 2 KV heads per rank x 128 x 2 bytes = 64 KiB.
// At mem_fraction_static 0.80 by hand: the pool loses 21.63 x 0.05 =
// 1.0815 GiB = 17,719.3 cells, 46,611 - 17,719.3 = 28,891 tokens.
func TestStartupLogCalibratesSGLang(t *testing.T) {
	text, err := os.ReadFile("testdata/startup-logs/sglang-0.4.3.post4-tp4-l4.log")
	require.NoError(t, err)
	req := calc.Request{Model: "Qwen/QwQ-32B", Hardware: calc.HardwareRef{ID: "l4"}, Engine: "sglang", EngineVersion: "0.4",
		TensorParallelSize: calc.Int(4), GPUMemoryUtilization: calc.Float(0.85), MaxModelLen: calc.Int(32768), StartupLog: string(text)}
	r, err := calc.Evaluate(req)
	require.NoError(t, err)
	assert.InEpsilon(t, 46611, float64(r.KVCache.CapacityTokens), 0.01)
	assert.InDelta(t, 15.54, float64(r.Memory.WeightsBytes)/(1<<30), 1e-6)
	assert.Equal(t, "measured", r.Memory.Sources.KVCache)
	assert.Equal(t, "measured", r.Memory.Sources.Weights)

	req.GPUMemoryUtilization = calc.Float(0.80)
	r, err = calc.Evaluate(req)
	require.NoError(t, err)
	assert.InEpsilon(t, 46611-21.63*0.05*16384, float64(r.KVCache.CapacityTokens), 0.001)
	assert.Equal(t, "derived", r.Memory.Sources.KVCache)
}

// A log of another tensor-parallel size than the request's is not applied:
// the figures stay the engine's, the report says why, and memory.sources
// is absent. The SGLang log above ran tp_size=4.
func TestStartupLogOfAnotherDeploymentIsNotApplied(t *testing.T) {
	text, err := os.ReadFile("testdata/startup-logs/sglang-0.4.3.post4-tp4-l4.log")
	require.NoError(t, err)
	req := calc.Request{Model: "Qwen/QwQ-32B", Hardware: calc.HardwareRef{ID: "l4"}, Engine: "sglang", EngineVersion: "0.4",
		TensorParallelSize: calc.Int(2), MaxModelLen: calc.Int(4096), Quantization: "fp8"}
	plain, err := calc.Evaluate(req)
	require.NoError(t, err)
	req.StartupLog = string(text)
	r, err := calc.Evaluate(req)
	require.NoError(t, err)
	assert.Nil(t, r.Memory.Sources)
	assert.Equal(t, plain.KVCache.CapacityTokens, r.KVCache.CapacityTokens)
	var msg string
	for _, w := range r.Warnings {
		if w.Code == "startup_log_not_applied" {
			msg = w.Message
		}
	}
	assert.Equal(t, "the log is of tensor_parallel_size 4, the request of 2: its memory figures are another deployment's, and the figures are the engine's own", msg)

	// The same log under vLLM: another engine's log.
	req.Engine, req.EngineVersion, req.TensorParallelSize = "vllm", "", calc.Int(4)
	r, err = calc.Evaluate(req)
	require.NoError(t, err)
	assert.Nil(t, r.Memory.Sources)
}

// TensorRT-LLM's start-up lines calibrate a TensorRT-LLM deployment: each
// real log's "[MemUsageChange] Allocated X GiB for max tokens in paged KV
// cache (N)" is the capacity the same deployment then holds, within 1 %
// (the engine's own model, without the log: 553,792, 900,880 and 308,352
// tokens, 3 % to 17 % over). TensorRT-LLM sizes its pool as
// fraction x free, free the memory left once the weights and the
// runtime's buffers are in (kvCacheManager.cpp calculateFreeMemBytes; the
// PyTorch backend's _util.py KvCacheCreator: (total - peak + the profiling
// pool) x fraction), so another fraction moves the pool in proportion.
//
// The 1.x log of PR #15734 by hand: 536,768 tokens of 163,840 bytes
// (40 layers x 2 x 8 KV heads x 128 x 2 bytes) at fraction 0.9; at 0.8,
// 536,768 x 0.8 / 0.9 = 477,127 tokens. By its own peak line, free =
// 139.80 - 69.42 + 20.62 = 91.00 GiB, and 0.8 x 91.00 GiB = 72.80 GiB =
// 72.80 x 2^30 / 163,840 = 477,102 tokens: the same within 0.01 %.
func TestStartupLogCalibratesTRTLLM(t *testing.T) {
	for _, c := range []struct {
		file, model, hw, quant string
		fraction               float64
		tokens                 float64
	}{
		{"trtllm-1.x-pr15734-h200.log", "mistralai/Mistral-Small-24B-Instruct-2501", "h200-sxm-141gb", "", 0.9, 536768},
		{"trtllm-0.20-issue6294-h100.log", "meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", "fp8", 0.8, 860320},
		{"trtllm-issue4275-rtx5090.log", "meta-llama/Llama-3.1-8B-Instruct", "rtx-5090", "fp8", 0.9, 263008},
	} {
		text, err := os.ReadFile(filepath.Join("testdata/startup-logs", c.file))
		require.NoError(t, err)
		req := calc.Request{Model: c.model, Hardware: calc.HardwareRef{ID: c.hw}, Engine: "trtllm", Quantization: c.quant,
			KVCacheDtype: map[string]string{"fp8": "fp8"}[c.quant], GPUMemoryUtilization: calc.Float(c.fraction), MaxModelLen: calc.Int(4096),
			StartupLog: string(text)}
		r, err := calc.Evaluate(req)
		require.NoError(t, err, c.file)
		assert.InEpsilon(t, c.tokens, float64(r.KVCache.CapacityTokens), 0.01, c.file)
		require.NotNil(t, r.Memory.Sources, c.file)
		assert.Equal(t, "measured", r.Memory.Sources.KVCache, c.file)
		require.NotNil(t, r.StartupLog, c.file)
		// The logs' 32 tokens a block are TensorRT-LLM 1.x's default
		// (EngineVersion.BlockSize), the default release's: no warning.
		for _, w := range r.Warnings {
			assert.NotEqual(t, "startup_log_block_size", w.Code, c.file)
		}
		if c.file != "trtllm-1.x-pr15734-h200.log" { // the only one without "Number of tokens per block"
			req.BlockSize = calc.Int(16)
			r, err = calc.Evaluate(req)
			require.NoError(t, err, c.file)
			assert.InEpsilon(t, c.tokens, float64(r.KVCache.CapacityTokens), 0.01, c.file)
			var blockWarning string
			for _, w := range r.Warnings {
				if w.Code == "startup_log_block_size" {
					blockWarning = w.Message
				}
			}
			assert.Equal(t, `the log's KV cache holds 32 tokens a block (its "tokens per block"), the request 16; set block_size: 32 to model its blocks (the logged pool's tokens are read either way)`, blockWarning, c.file)
		}
	}

	text, err := os.ReadFile("testdata/startup-logs/trtllm-1.x-pr15734-h200.log")
	require.NoError(t, err)
	req := calc.Request{Model: "mistralai/Mistral-Small-24B-Instruct-2501", Hardware: calc.HardwareRef{ID: "h200-sxm-141gb"}, Engine: "trtllm",
		GPUMemoryUtilization: calc.Float(0.8), MaxModelLen: calc.Int(4096), StartupLog: string(text)}
	r, err := calc.Evaluate(req)
	require.NoError(t, err)
	assert.InEpsilon(t, 536768*0.8/0.9, float64(r.KVCache.CapacityTokens), 0.001)
	assert.InEpsilon(t, 0.8*(139.80-69.42+20.62)*(1<<30)/163840, float64(r.KVCache.CapacityTokens), 0.001)
	assert.Equal(t, "derived", r.Memory.Sources.KVCache)

	// The same log under vLLM: another engine's log, not applied.
	req.Engine = "vllm"
	r, err = calc.Evaluate(req)
	require.NoError(t, err)
	assert.Nil(t, r.Memory.Sources)
}

// A TensorRT-LLM log cut before its pool line, or with a figure or a
// fraction out of range, is refused naming the line.
func TestStartupLogTRTLLMErrorsNameTheLine(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[TensorRT-LLM][INFO] Memory usage when calculating max tokens in paged kv cache: total: 31.84 GiB, available: 17.83 GiB\n[TensorRT-LLM][INFO] Number of tokens per block: 32.",
			`startup_log: has no "[MemUsageChange] Allocated X GiB for max tokens in paged KV cache (N)" line: it looks like a TensorRT-LLM log cut before its KV cache was allocated; paste the log up to that line`},
		{"[TensorRT-LLM][INFO] Number of tokens per block: 32.\n[TensorRT-LLM][INFO] [MemUsageChange] Allocated 2e6 GiB for max tokens in paged KV cache (263008)",
			`startup_log: line 2: available_kv_gib "2e6" is out of range; a figure in GiB is at most 1,048,576`},
		{"[TRT-LLM] [I] Peak memory during memory usage profiling (torch + non-torch): 69.42 GiB, available KV cache memory when calculating max tokens: 81.91 GiB, fraction is set 1.5, kv size per token is 163840 bytes/token.\n[TRT-LLM] [I] [MemUsageChange] Allocated 81.90 GiB for max tokens in paged KV cache (536768).",
			`startup_log: line 1: gpu_memory_utilization "1.5" is out of range; a utilisation lies in (0, 1]`},
	} {
		_, err := calc.ParseStartupLog(c.text)
		require.Error(t, err, c.text)
		assert.Equal(t, c.want, err.Error())
	}

	// The PyTorch backend logs a pool line for the small pool it profiles
	// with, then one for the pool it sizes: the last stands.
	lg, err := calc.ParseStartupLog("[TensorRT-LLM][INFO] [MemUsageChange] Allocated 20.62 GiB for max tokens in paged KV cache (135136).\n" +
		"[TensorRT-LLM][INFO] [MemUsageChange] Allocated 1134.01 MiB for execution context memory.\n" +
		"[TensorRT-LLM][INFO] [MemUsageChange] Allocated 81.90 GiB for max tokens in paged KV cache (536768).")
	require.NoError(t, err)
	assert.Equal(t, "trtllm", lg.Engine)
	assert.Equal(t, map[string]float64{"available_kv_gib": 81.90, "kv_cache_tokens": 536768}, lg.Figures)

	// The pool line alone, its prefix stripped (as NVIDIA/TensorRT-LLM
	// issue #1188 quotes it), is TensorRT-LLM's.
	lg, err = calc.ParseStartupLog("Allocated 4.53 GiB for max tokens in paged KV cache (395776).")
	require.NoError(t, err)
	assert.Equal(t, "trtllm", lg.Engine)
	assert.Equal(t, map[string]float64{"available_kv_gib": 4.53, "kv_cache_tokens": 395776}, lg.Figures)
}
