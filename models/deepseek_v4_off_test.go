package models

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A program that does not import package models/deepseekv4 (the browser's
// light engine) refuses DeepSeek-V4 on model_type and names the full
// engine; its model list marks the entries as not built. The test takes
// the registration away for its duration, so it must not run in parallel
// (the parallel tests start after it returns).
func TestDeepSeekV4NeedsTheFullEngine(t *testing.T) {
	v4, err := LookupEntry("deepseek-v4-flash") // decoded while registered, cached
	require.NoError(t, err)
	saved := dsv4
	dsv4 = nil
	t.Cleanup(func() { dsv4 = saved })

	entries, err := Catalog()
	require.NoError(t, err)
	built := map[string]bool{}
	for _, e := range entries {
		built[e.ID] = e.Built()
	}
	assert.False(t, built["deepseek-ai/DeepSeek-V4-Flash"])
	assert.False(t, built["nvidia/DeepSeek-V4-Pro-NVFP4"])
	assert.True(t, built["deepseek-ai/DeepSeek-V3.2"])
	_, err = FromConfig(v4.Config)
	require.Error(t, err)
	assert.EqualError(t, err, "model_type: deepseek_v4 needs the full engine (load({ planner: true }) or the API), not the light engine")
}
