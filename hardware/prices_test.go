package hardware

import (
	"math"
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
		assert.Regexp(t, `[a-z]\.[a-z]`, p.Source, "%s names no site", id)
		assert.Regexp(t, `^20\d\d(-\d\d)?$`, p.Date, id)
	}
	_, ok := DefaultPrice(CustomID)
	assert.False(t, ok, "a custom accelerator has no default price")
}

// Every catalog accelerator has a default price (docs/MODEL.md section 12).
func TestPriceTableCoversTheCatalog(t *testing.T) {
	var missing []string
	for _, id := range IDs() {
		if _, ok := DefaultPrice(id); !ok {
			missing = append(missing, id)
		}
	}
	assert.Empty(t, missing)
}

// Gaudi 2 by hand: $65,000 for eight, $8,125 each, over 4 x 8,760 h is
// $0.231878/h; 0.600 kW x $0.1282/kWh = $0.07692/h; together $0.308798 per
// accelerator-hour, a purchase.
func TestGaudi2PriceByHand(t *testing.T) {
	p, ok := DefaultPrice("gaudi-2")
	require.True(t, ok)
	assert.InDelta(t, 65000.0/8/(4*8760)+0.6*0.1282, p.USDPerHour, 1e-6)
	assert.InDelta(t, 0.308798, p.USDPerHour, 2e-6)
	assert.Equal(t, PricePurchase, p.Kind)
}

// The amortisation by hand. RTX 3090, from Hugging Face's hardware table:
// MSRP $1,500, 350 W. $1,500 / (4 x 8,760 h) = $0.0428082/h; 0.350 kW x
// $0.1282/kWh = $0.04487/h; together $0.0876782, $0.087678 to the
// millionth the table keeps, per GPU-hour. A cloud
// row is its list price as read: H100 SXM $3.49 on RunPod's Secure Cloud;
// Trainium2 $35.7608 for the 16 chips of a trn2.48xlarge, $2.23505 each.
func TestPriceTableByHand(t *testing.T) {
	p, ok := DefaultPrice("rtx-3090")
	require.True(t, ok)
	assert.Equal(t, PricePurchase, p.Kind)
	assert.InDelta(t, 0.0428082+0.04487, p.USDPerHour, 1e-6)
	assert.Equal(t, Price{USDPerHour: 0.087678, Kind: PricePurchase, Source: priceSources[srcHF].label, Date: "2026-08"}, p)

	h, ok := DefaultPrice("h100-sxm-80gb")
	require.True(t, ok)
	assert.Equal(t, Price{USDPerHour: 3.49, Kind: PriceCloud, Source: priceSources[srcRunPod].label, Date: "2026-09"}, h)

	tr, ok := DefaultPrice("trainium-2")
	require.True(t, ok)
	assert.InDelta(t, 2.23505, tr.USDPerHour, 1e-12)
	assert.Equal(t, "2026-02", tr.Date)

	// A stand-in (rule 2) is the same GPU's list price, a cloud price.
	g, ok := DefaultPrice("gb300")
	require.True(t, ok)
	b, _ := DefaultPrice("b300")
	assert.Equal(t, [2]any{b.USDPerHour, PriceCloud}, [2]any{g.USDPerHour, g.Kind})
	assert.NotEqual(t, b.Source, g.Source)
}
