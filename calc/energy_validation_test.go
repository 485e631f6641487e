package calc_test

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/bands"
)

// energyCase is one row of validation/testdata/energy.json.
type energyCase struct {
	ID       string          `json:"id"`
	Request  json.RawMessage `json:"request"`
	Measured struct {
		GPUPowerW  float64 `json:"gpu_power_w"`
		TokensPerS float64 `json:"output_tokens_per_s"`
	} `json:"measured"`
	// Expect is what the case documents for the GPU power and for the
	// joules per output token: "within" 20 % or "miss"; Miss says why a
	// figure misses.
	Expect struct {
		Power  string `json:"power"`
		Joules string `json:"joules"`
	} `json:"expect"`
	Miss string `json:"miss"`
}

// energyTolerance is issue 34's bar: a published measurement is
// reproduced when the prediction is within 20 % of it.
const energyTolerance = 0.2

// energyRow is one case's ln(measured / predicted) of the GPU power and
// of the joules per output token (the measured power over the measured
// output rate against the model's power over the model's rate).
type energyRow struct {
	c             energyCase
	power, joules float64
}

func energyRows(t *testing.T) []energyRow {
	b, err := os.ReadFile("validation/testdata/energy.json")
	require.NoError(t, err)
	var file struct {
		Cases []energyCase `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(b, &file))
	var rows []energyRow
	for _, c := range file.Cases {
		req, err := calc.ParseRequest(c.Request)
		require.NoError(t, err, c.ID)
		en := eval(t, req).Energy
		require.NotNil(t, en, c.ID)
		rows = append(rows, energyRow{c: c,
			power:  math.Log(c.Measured.GPUPowerW / en.GPUPowerW),
			joules: math.Log(c.Measured.GPUPowerW / c.Measured.TokensPerS / en.JoulesPerOutputToken)})
	}
	return rows
}

// relErr is predicted / measured - 1 from ln(measured / predicted).
func relErr(lnRatio float64) float64 { return math.Exp(-lnRatio) - 1 }

// The power model and the energy per token against published
// measurements (validation/testdata/energy.json names every source). Each
// figure of each case is either within 20 % of the measurement or a miss
// that the case documents with its reason; the test fails when a figure
// leaves its class either way (a documented miss that starts passing must
// be moved, and the counts in docs/MODEL.md section 5c with it). It prints
// every error and the counts within 20 %.
func TestEnergyAgainstPublishedMeasurements(t *testing.T) {
	rows := energyRows(t)
	require.GreaterOrEqual(t, len(rows), 11)
	check := func(id, figure, expect, miss string, lnRatio float64) bool {
		in := math.Abs(relErr(lnRatio)) <= energyTolerance
		switch expect {
		case "within":
			assert.True(t, in, "%s: %s error %+.1f %% is documented within 20 %%", id, figure, 100*relErr(lnRatio))
		case "miss":
			assert.NotEmpty(t, miss, "%s: a documented miss needs its reason", id)
			assert.False(t, in, "%s: %s error %+.1f %% is documented as a miss: move it to within and update docs/MODEL.md 5c", id, figure, 100*relErr(lnRatio))
		default:
			t.Errorf("%s: %s expect %q is neither within nor miss", id, figure, expect)
		}
		return in
	}
	power, joules := 0, 0
	for _, r := range rows {
		t.Logf("%-52s power error %+6.1f%%  J/token error %+6.1f%%", r.c.ID, 100*relErr(r.power), 100*relErr(r.joules))
		if check(r.c.ID, "power", r.c.Expect.Power, r.c.Miss, r.power) {
			power++
		}
		if check(r.c.ID, "J/token", r.c.Expect.Joules, r.c.Miss, r.joules) {
			joules++
		}
	}
	t.Logf("within 20 %%: power %d of %d, J/token %d of %d", power, len(rows), joules, len(rows))
	assert.Equal(t, 7, power, "docs/MODEL.md section 5c states 7 of 11")
	assert.Equal(t, 3, joules, "docs/MODEL.md section 5c states 3 of 11")
}

// The power band is the order-statistics band of docs/MODEL.md section 7
// over the power cases' residuals: with n cases, k = floor(0.1 (n + 1))
// residuals are left off each end (n = 11, k = 1).
func TestPowerBandMatchesEnergyCases(t *testing.T) {
	rows := energyRows(t)
	var power []float64
	for _, r := range rows {
		power = append(power, r.power)
	}
	slices.Sort(power)
	n := len(power)
	k := int(math.Floor(0.1 * float64(n+1)))
	assert.Equal(t, int(math.Floor(power[k]*1000)), bands.PowerBand[0])
	assert.Equal(t, int(math.Ceil(power[n-1-k]*1000)), bands.PowerBand[1])
}
