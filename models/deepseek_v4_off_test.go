//go:build nosim

package models

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The light engine (-tags nosim) refuses DeepSeek-V4 on model_type and
// names the full engine; its model list leaves the entries out.
func TestDeepSeekV4NeedsTheFullEngine(t *testing.T) {
	entries, err := Catalog()
	require.NoError(t, err)
	built := map[string]bool{}
	for _, e := range entries {
		built[e.ID] = e.Built()
	}
	assert.False(t, built["deepseek-ai/DeepSeek-V4-Flash"])
	assert.False(t, built["nvidia/DeepSeek-V4-Pro-NVFP4"])
	assert.True(t, built["deepseek-ai/DeepSeek-V3.2"])
	_, err = Lookup("deepseek-v4-flash")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "model_type: deepseek_v4 needs the full engine")
}
