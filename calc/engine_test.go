package calc_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// Engines lists every profile once, the default first, and each profile's
// defaults are what a request that leaves the settings out resolves to.
func TestEnginesListEveryProfileWithItsDefaults(t *testing.T) {
	t.Parallel()
	list := calc.Engines()
	require.NotEmpty(t, list)
	assert.Equal(t, calc.DefaultEngine, list[0].Name)
	var names []string
	for _, e := range list {
		names = append(names, e.Name)
		assert.NotEmpty(t, e.Label, e.Name)
		got, ok := calc.LookupEngine(e.Name)
		require.True(t, ok, e.Name)
		assert.Same(t, got, e)

		rep, err := calc.Evaluate(calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{ID: "h100-sxm"}, Engine: e.Name})
		require.NoError(t, err, e.Name)
		d := e.Defaults()
		if e.Name == "vllm" {
			// vLLM's batch defaults follow the GPU: 1024 sequences and
			// 8192 tokens on an H100 (TestVLLMBatchDefaultsFollowTheGPU).
			assert.Equal(t, []int{1024, 8192}, []int{rep.Config.MaxNumSeqs, rep.Config.MaxNumBatchedTokens})
			d.MaxNumSeqs, d.MaxNumBatchedTokens = rep.Config.MaxNumSeqs, rep.Config.MaxNumBatchedTokens
		}
		if e.Name == "sglang" {
			// SGLang's follow the GPU and the KV pool (sglangDefaults):
			// on an H100, 0.834 of its memory and 2048 running requests
			// (TestReleaseDefaultUtilization, TestVLLMBatchDefaultsFollowTheGPU).
			assert.Equal(t, []int{2048, 8192}, []int{rep.Config.MaxNumSeqs, rep.Config.MaxNumBatchedTokens})
			assert.Equal(t, 0.834, rep.Config.GPUMemoryUtilization)
			d.MaxNumSeqs, d.GPUMemoryUtilization = rep.Config.MaxNumSeqs, rep.Config.GPUMemoryUtilization
		}
		assert.Equal(t, calc.EngineDefaults{
			GPUMemoryUtilization: rep.Config.GPUMemoryUtilization,
			BlockSize:            rep.Config.BlockSize,
			MaxNumSeqs:           rep.Config.MaxNumSeqs,
			MaxNumBatchedTokens:  rep.Config.MaxNumBatchedTokens,
		}, d, e.Name)
		if e.Name == "vllm" {
			// The default release's (0.31: 0.92, PR #38284), not 0.19's 0.9.
			assert.Equal(t, 0.92, d.GPUMemoryUtilization)
		} else if e.Name != "sglang" {
			assert.Equal(t, e.DefaultUtilization, d.GPUMemoryUtilization)
		}
	}
	slices.Sort(names)
	assert.Equal(t, calc.EngineNames(), names)
}
