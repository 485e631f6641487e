package deploy

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/internal/units"
)

// warning returns the report's warning with code, or nil.
func warning(r spec.Report, code string) *spec.Warning {
	for i := range r.Warnings {
		if r.Warnings[i].Code == code {
			return &r.Warnings[i]
		}
	}
	return nil
}

// TestUnifiedMemoryStartUpCheckOnDGXSpark checks vLLM's start-up rule on
// a DGX Spark against the published log of
// https://github.com/MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks/issues/47:
// vLLM sees 121.69 GiB in all and 101.3-102.2 GiB free at start-up on a
// headless machine with caches dropped; at gpu_memory_utilization 0.87 the
// check "wants 105.87 GiB" and always fails; the users run at 0.82-0.83.
//
// By hand: 0.87 x 121.69 = 105.8703 GiB > 101.3 GiB: refused. The largest
// utilization that starts: 101.3 / 121.69 = 0.8324, rounded down 0.83;
// 0.83 x 121.69 = 101.0027 GiB <= 101.3 GiB: starts.
func TestUnifiedMemoryStartUpCheckOnDGXSpark(t *testing.T) {
	t.Parallel()
	req := func(util float64) spec.Request {
		return spec.Request{Model: "qwen3-8b", Hardware: spec.HardwareRef{ID: "dgx spark"}, GPUMemoryUtilization: spec.Float(util)}
	}

	refused := eval(t, req(0.87))
	assert.False(t, refused.Fits)
	assert.True(t, refused.Hardware.UnifiedMemory)
	assert.InDelta(t, 121.69, units.Bytes(refused.Memory.TotalBytes).GiB(), 1e-6)
	assert.InDelta(t, 101.3, units.Bytes(refused.Memory.FreeAtStartBytes).GiB(), 1e-6)
	assert.InDelta(t, 105.8703, units.Bytes(refused.Memory.RequestedBytes).GiB(), 1e-3)
	w := warning(refused, "free_memory_below_requested")
	require.NotNil(t, w)
	assert.Equal(t, "vLLM refuses to start: gpu_memory_utilization 0.87 of 121.69 GiB requests 105.87 GiB, more than the 101.30 GiB free at start-up; the largest gpu_memory_utilization that starts is 0.83", w.Message)
	require.NotNil(t, warning(refused, "unified_memory"))

	started := eval(t, req(0.83))
	assert.True(t, started.Fits)
	assert.Nil(t, warning(started, "free_memory_below_requested"))
	assert.InDelta(t, 101.0027, units.Bytes(started.Memory.RequestedBytes).GiB(), 1e-3)
	u := warning(started, "unified_memory")
	require.NotNil(t, u)
	assert.Contains(t, u.Message, "121.69 GiB in all and about 101.30 GiB free")

	// The default 0.9 requests 0.9 x 121.69 = 109.52 GiB: refused too, as
	// the DGX Spark recipes' lower settings (0.7-0.85) reflect.
	def := eval(t, spec.Request{Model: "qwen3-8b", Hardware: spec.HardwareRef{ID: "gb10"}})
	assert.False(t, def.Fits)
	assert.NotNil(t, warning(def, "free_memory_below_requested"))
}

// TestUnifiedMemoryCustomFreeMemory: a GB10 with another service holding
// its memory, as logged on an ASUS Ascent GX10 (GB10, vLLM 0.20.1 in the
// NGC 26.05 image) starting a second vLLM beside one at 0.90: "ValueError:
// Free memory on device cuda:0 (2.6/121.63 GiB) on startup is less than
// desired GPU memory utilization (0.08, 9.73 GiB)" (a public GX10 setup
// note, found by GitHub code search). By hand:
// 0.08 x 121.63 = 9.7304 GiB > 2.6 GiB: refused; 2.6 / 121.63 = 0.0214,
// rounded down 0.02.
func TestUnifiedMemoryCustomFreeMemory(t *testing.T) {
	t.Parallel()
	gb10, err := hardware.Lookup("gb10")
	require.NoError(t, err)
	busy := gb10
	busy.ID = "gb10-busy"
	busy.Sources = nil
	busy.MemoryReportedBytes = 121.63 * hardware.GiB
	busy.MemoryFreeBytes = 2.6 * hardware.GiB
	r := eval(t, spec.Request{Model: "qwen3-0.6b", Hardware: spec.HardwareRef{Custom: &busy}, GPUMemoryUtilization: spec.Float(0.08)})
	assert.False(t, r.Fits)
	w := warning(r, "free_memory_below_requested")
	require.NotNil(t, w)
	assert.Equal(t, "vLLM refuses to start: gpu_memory_utilization 0.08 of 121.63 GiB requests 9.73 GiB, more than the 2.60 GiB free at start-up; the largest gpu_memory_utilization that starts is 0.02", w.Message)
}

// TestFreeFractionEnginesStartFromFreeMemory: LMDeploy, TensorRT-LLM and
// llama.cpp take their fraction of the memory free after the weights, so
// on a unified-memory machine they start from the free memory, not the
// total: kv = util x (free - weights - runtime).
func TestFreeFractionEnginesStartFromFreeMemory(t *testing.T) {
	t.Parallel()
	r := eval(t, spec.Request{Model: "qwen3-8b", Hardware: spec.HardwareRef{ID: "gb10"}, Engine: "lmdeploy"})
	free := 101.3 * float64(units.GiB)
	want := r.Config.GPUMemoryUtilization * (free - float64(r.Memory.WeightsBytes) - float64(r.Memory.NonTorchBytes))
	assert.InEpsilon(t, want, float64(r.Memory.KVCacheBytes), 1e-9)
	assert.Nil(t, warning(r, "free_memory_below_requested"), "the check is vLLM's")
}

// TestDiscreteGPUHasAllItsMemoryFree: no unified-memory note, free equals
// the reported total, nothing changes for a discrete GPU.
func TestDiscreteGPUHasAllItsMemoryFree(t *testing.T) {
	t.Parallel()
	r := eval(t, spec.Request{Model: "qwen3-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}})
	assert.False(t, r.Hardware.UnifiedMemory)
	assert.Equal(t, r.Memory.TotalBytes, r.Memory.FreeAtStartBytes)
	assert.Nil(t, warning(r, "unified_memory"))
	assert.Nil(t, warning(r, "free_memory_below_requested"))
	assert.True(t, r.Fits)
}
