package calc_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/hardware"
)

// The energy section's derived figures, each written out from the
// section's own power and rate (docs/MODEL.md section 5c), its cost-card
// fields and its bands.
func TestEnergySectionDerivedFigures(t *testing.T) {
	req := calc.Request{Model: "meta-llama/Llama-3.1-8B-Instruct", Hardware: calc.HardwareRef{ID: "h100-sxm"},
		TensorParallelSize: calc.Int(2),
		Workload:           &calc.Workload{InputTokens: calc.Int(1024), OutputTokens: calc.Int(256), Concurrency: calc.Int(64)},
		USDPerKWh:          calc.Float(0.2)}
	r := eval(t, req)
	en := r.Energy
	require.NotNil(t, en)
	assert.Equal(t, 700.0, en.RatedPowerW) // the H100 SXM datasheet's TDP
	assert.Equal(t, 2, en.GPUs)
	// Between the idle (0.15 x 700 = 105 W) and the rated power.
	assert.Greater(t, en.GPUPowerW, 105.0)
	assert.LessOrEqual(t, en.GPUPowerW, 700.0)
	assert.InDelta(t, 700*min(0.15+0.5*en.MemoryShare+0.85*en.ComputeShare, 1), en.GPUPowerW, 1.5) // shares rounded to 0.001
	// kW = 2 GPUs x W / 1000; J/token = W_total / tokens/s; tokens/s/kW.
	assert.InDelta(t, 2*en.GPUPowerW/1000, en.DeploymentKW, 1e-12)
	assert.InDelta(t, r.Serving.OutputTokensPerS, en.TokensPerS, 1e-9)
	assert.InDelta(t, 2*en.GPUPowerW/en.TokensPerS, en.JoulesPerOutputToken, 1e-12)
	assert.InDelta(t, en.TokensPerS/en.DeploymentKW, en.OutputTokensPerSPerKW, 1e-9)
	// The power's cost: J/token x 1e6 tokens / 3.6e6 J per kWh x $0.2.
	require.NotNil(t, r.Cost)
	assert.Equal(t, 0.2, r.Cost.USDPerKWh)
	assert.InDelta(t, en.JoulesPerOutputToken*1e6/3.6e6*0.2, r.Cost.PowerUSDPerMillionOutputTokens, 1e-12)
	// Every energy figure has a band, and the power's is the power
	// model's range about it.
	figs := map[string]calc.Band{}
	for _, b := range r.Bands {
		figs[b.Figure] = b
	}
	for _, f := range []string{"energy.gpu_power_w", "energy.joules_per_output_token", "energy.output_tokens_per_s_per_kw"} {
		b, ok := figs[f]
		require.True(t, ok, f)
		assert.Less(t, b.Low, b.High, f)
	}
}

// gpu_power_w replaces the rated power; the default electricity price is
// EIA's 0.1282 USD/kWh; a custom accelerator has no energy section without
// gpu_power_w and says so.
func TestEnergyRatedPowerAndDefaults(t *testing.T) {
	base := calc.Request{Model: "meta-llama/Llama-3.1-8B-Instruct", Hardware: calc.HardwareRef{ID: "h100-sxm"},
		Workload: &calc.Workload{InputTokens: calc.Int(512), OutputTokens: calc.Int(128), Concurrency: calc.Int(16)}}
	a := eval(t, base)
	require.NotNil(t, a.Energy)
	assert.Equal(t, 0.1282, a.Cost.USDPerKWh)
	capped := base
	capped.GPUPowerW = calc.Float(350)
	b := eval(t, capped)
	require.NotNil(t, b.Energy)
	assert.Equal(t, "user", b.Energy.PowerSource)
	// The same step at half the rated power: half the watts.
	assert.InDelta(t, a.Energy.GPUPowerW/2, b.Energy.GPUPowerW, 1e-9)

	custom := base
	h, err := hardware.Lookup("h100-sxm")
	require.NoError(t, err)
	hw := h
	hw.ID, hw.Name = "", "my part"
	custom.Hardware = calc.HardwareRef{Custom: &hw}
	c := eval(t, custom)
	assert.Nil(t, c.Energy)
	assert.Contains(t, codes(c.Warnings), "no_power")
	custom.GPUPowerW = calc.Float(700)
	assert.NotNil(t, eval(t, custom).Energy)
}
