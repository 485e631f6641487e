package bridge

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The planning view prefills its price fields from the full engine's
// prices(): the default table, keyed by id, with the source a user reads
// on hover. The expected rows are docs/MODEL.md section 12's table as
// written there: "RunPod Secure Cloud, runpod.io ... 2026-09 ...
// h100-sxm-80gb 3.49" and "TensorWave via computeprices.com ... 2026-05 ...
// mi300x 1.71"; a custom accelerator id has no row.
func TestPriceTableIsTheDefaultTableByID(t *testing.T) {
	text, err := priceTable("")
	require.NoError(t, err)
	var got map[string]struct {
		USD    float64 `json:"usd_per_gpu_hour"`
		Kind   string  `json:"kind"`
		Source string  `json:"source"`
		Date   string  `json:"date"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &got))
	h100 := got["h100-sxm-80gb"]
	assert.InDelta(t, 3.49, h100.USD, 1e-9)
	assert.Equal(t, "cloud_on_demand", h100.Kind)
	assert.Equal(t, "RunPod Secure Cloud, runpod.io", h100.Source)
	assert.Equal(t, "2026-09", h100.Date)
	mi := got["mi300x"]
	assert.InDelta(t, 1.71, mi.USD, 1e-9)
	assert.Equal(t, "TensorWave via computeprices.com", mi.Source)
	assert.NotContains(t, got, "custom")
}
