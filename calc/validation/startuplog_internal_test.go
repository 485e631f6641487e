package validation

import (
	"fmt"
	"math"
	"strings"
	"testing"

	_ "github.com/modelrefs/throughput/calc/calibrate" // reads startup_log
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// composedLog writes a start-up log from the figures a group A case quotes
// from its source's log, each in the wording vLLM logs it under (V1:
// gpu_model_runner.py "Model loading took", gpu_worker.py's DEBUG
// "Requested memory" and "torch peak memory increase" lines and INFO
// "Available KV cache memory", kv_cache_utils.py "GPU KV cache size" and
// "Maximum concurrency"; V0: worker.py's "Memory profiling results" and
// "model weights take" lines). The cases give figures, not their logs'
// full texts, so the lines are composed from them; the figures are the
// logs', as the cases write them.
func composedLog(c rawCase) string {
	var lines []string
	f := func(keys ...string) (float64, bool) {
		for _, k := range keys {
			if v, ok := measured(c, k); ok {
				return v, true
			}
		}
		return 0, false
	}
	util, _ := num(c.GPUMemoryUtilization)
	if v, ok := f("weights_gib", "model_loading_gib", "weights_gb_logged"); ok {
		lines = append(lines, fmt.Sprintf("INFO [gpu_model_runner.py:2007] Model loading took %v GiB memory and 4.5 seconds", v))
	}
	if v, ok := f("requested_memory_gib"); ok && util > 0 {
		lines = append(lines, fmt.Sprintf("DEBUG [gpu_worker.py:290] Initial free memory: 78.68 GiB; Requested memory: %v (util), %v GiB", util, v))
	}
	if v, ok := f("instance_can_use_gib"); ok && util > 0 && c.GPUTotalGiB > 0 {
		lines = append(lines, fmt.Sprintf("INFO [worker.py:267] the current vLLM instance can use total_gpu_memory (%vGiB) x gpu_memory_utilization (%v) = %vGiB", c.GPUTotalGiB, util, v))
	}
	if v, ok := f("activation_peak_gib (torch peak memory increase)", "activation_peak_gib"); ok {
		lines = append(lines, fmt.Sprintf("DEBUG [gpu_worker.py:297] Memory profiling takes 10.0 seconds. torch peak memory increase: %vGiB;", v))
	}
	if v, ok := f("non_torch_forward_increase_gib", "non_torch_gib"); ok {
		lines = append(lines, fmt.Sprintf("DEBUG [gpu_worker.py:297] non-torch forward increase memory: %vGiB;", v))
	}
	if pt, ok := f("peak_torch_memory_gib"); ok && util > 0 && c.GPUTotalGiB > 0 {
		nt, _ := f("non_torch_memory_gib")
		kv, _ := f("kv_cache_size_gib")
		lines = append(lines, fmt.Sprintf("INFO [worker.py:249] Memory profiling results: duration=5.00 seconds, total_gpu_memory=%vGiB, peak_torch_memory=%vGiB, non_torch_memory=%vGiB, kv_cache_size=%vGiB, gpu_memory_utilization=%v.", c.GPUTotalGiB, pt, nt, kv, util))
	}
	if v, ok := f("available_kv_cache_memory_gib"); ok {
		lines = append(lines, fmt.Sprintf("INFO [gpu_worker.py:276] Available KV cache memory: %v GiB", v))
	}
	if v, ok := f("gpu_kv_cache_size_tokens"); ok {
		lines = append(lines, fmt.Sprintf("INFO [kv_cache_utils.py:849] GPU KV cache size: %d tokens", int64(v)))
	}
	if v, ok := f("num_gpu_blocks_after_fix", "num_gpu_blocks", "num_gpu_blocks_parsed"); ok {
		lines = append(lines, fmt.Sprintf("INFO [executor_base.py:111] # GPU blocks: %d, # CPU blocks: 2048", int64(v)))
	}
	text := strings.Join(lines, "\n")
	if !strings.Contains(text, "KV cache") && !strings.Contains(text, "GPU blocks") && !strings.Contains(text, "kv_cache_size=") {
		return "" // no KV figure logged: nothing to calibrate to
	}
	return text
}

// After pasting the start-up log of a group A deployment (shared and
// public cases; composed from the figures each case quotes of its log),
// the KV capacity of the same deployment is the logged one within 1 %:
// the logged terms replace the engine's. Every case with a KV figure and
// a log that states one is checked; the rest are counted.
func TestStartupLogCalibratesGroupAToTheLoggedCapacity(t *testing.T) {
	startupLogFor = composedLog
	defer func() { startupLogFor = nil }()
	checked, worst := 0, 0.0
	for _, path := range []string{sharedCasesPathInternal, publicCasesPathInternal} {
		rs, err := LoadEngine(path, "vllm")
		require.NoError(t, err)
		for _, r := range rs {
			if !strings.HasPrefix(r.Group, "A") || !r.Comparable || r.Measured <= 0 {
				continue
			}
			checked++
			worst = max(worst, math.Abs(r.Predicted/r.Measured-1))
			assert.LessOrEqual(t, math.Abs(r.Predicted/r.Measured-1), 0.01, "%s %s: %s %v, logged %v", r.ID, r.Desc, r.Metric, r.Predicted, r.Measured)
		}
	}
	assert.GreaterOrEqual(t, checked, 20)
	t.Logf("%d group A cases checked; largest error %.3f %%", checked, 100*worst)
}

const (
	sharedCasesPathInternal = "testdata/shared-cases.json"
	publicCasesPathInternal = "testdata/public-cases.json"
)
