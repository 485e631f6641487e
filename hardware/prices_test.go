package hardware

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every row of the price table names a catalog accelerator and carries a
// positive finite price, its kind, its source (with an address) and its
// date.
func TestPriceTableRowsAreCitedCatalogParts(t *testing.T) {
	ids := map[string]bool{}
	for _, id := range IDs() {
		ids[id] = true
	}
	require.NotEmpty(t, PricedIDs())
	for _, id := range PricedIDs() {
		assert.True(t, ids[id], "%s is not a catalog id", id)
		p, ok := DefaultPrice(id)
		require.True(t, ok, id)
		assert.Greater(t, p.USDPerHour, 0.0, id)
		assert.False(t, math.IsInf(p.USDPerHour, 0) || math.IsNaN(p.USDPerHour), id)
		assert.Contains(t, []string{PriceCloud, PricePurchase}, p.Kind, id)
		assert.True(t, strings.Contains(p.Source, "https://"), "%s: %q names no address", id, p.Source)
		assert.Regexp(t, `^20\d\d(-\d\d)?$`, p.Date, id)
	}
	_, ok := DefaultPrice(CustomID)
	assert.False(t, ok, "a custom accelerator has no default price")
}

// The amortisation by hand. RTX 3090, from its Hugging Face page: MSRP
// $1,500, 350 W. $1,500 / (4 x 8,760 h) = $0.0428082/h; 0.350 kW x
// $0.1282/kWh = $0.04487/h; together $0.0876782 per GPU-hour. A cloud
// row is its list price as read: H100 SXM $3.49 on RunPod's Secure Cloud.
func TestPriceTableByHand(t *testing.T) {
	p, ok := DefaultPrice("rtx-3090")
	require.True(t, ok)
	assert.Equal(t, PricePurchase, p.Kind)
	assert.InDelta(t, 1500.0/35040+0.04487, p.USDPerHour, 1e-9)
	assert.Equal(t, "https://huggingface.co/hardware/rtx-3090", p.Source[strings.Index(p.Source, "https://"):])
	usd, w, ok := PurchaseInputs("rtx-3090")
	require.True(t, ok)
	assert.Equal(t, [2]float64{1500, 350}, [2]float64{usd, w})

	h, ok := DefaultPrice("h100-sxm-80gb")
	require.True(t, ok)
	assert.Equal(t, Price{USDPerHour: 3.49, Kind: PriceCloud, Source: priceRunPodSep, Date: "2026-09"}, h)
	_, _, ok = PurchaseInputs("h100-sxm-80gb")
	assert.False(t, ok)
}
