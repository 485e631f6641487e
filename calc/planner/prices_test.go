package planner

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc/evaluate"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/hardware"
)

// The calculator and the planner read one price table: a planned
// deployment's GPU-hour price is the one its own evaluate request's cost
// section reports, with the same kind and source (the table's row for
// the part: H100 SXM $3.49, RunPod's on-demand list; RTX 3090 its
// purchase price amortised, $1,500 / 35,040 h + 0.35 kW x $0.1282 =
// $0.0876782). The user's price overrides it in both doors.
func TestCalculatorAndPlannerShareThePriceTable(t *testing.T) {
	for _, id := range []string{"h100-sxm-80gb", "rtx-3090"} {
		want, ok := hardware.DefaultPrice(id)
		require.True(t, ok)
		r, err := Plan(spec.PlanRequest{Model: llama8B, Workload: spec.PlanWorkload{Concurrency: spec.Int(8)}, SLO: spec.PlanSLO{TPOTMs: spec.Float(200)},
			Constraints: &spec.PlanConstraints{Accelerators: []string{id}, Engines: []string{"vllm"}}, Search: narrow(1)})
		require.NoError(t, err)
		require.True(t, r.Feasible, id)
		d := r.Deployments[0]
		assert.Equal(t, want.USDPerHour, d.GPUHourUSD, id)
		assert.Equal(t, want.Kind, d.PriceKind, id)
		assert.Equal(t, want.Source, d.PriceSource, id)
		assert.Nil(t, d.Evaluate.GPUHourUSD, "the evaluate request leaves the price to the table")

		rep, err := evaluate.Evaluate(d.Evaluate)
		require.NoError(t, err)
		require.NotNil(t, rep.Cost, id)
		assert.Equal(t, d.GPUHourUSD, rep.Cost.GPUHourUSD, id)
		assert.Equal(t, want.Kind, rep.Cost.PriceKind, id)
		assert.Equal(t, want.Source, rep.Cost.PriceSource, id)
		assert.Equal(t, want.Date, rep.Cost.PriceDate, id)
	}
	assert.InDelta(t, 1500.0/35040+0.35*0.1282, must(hardware.DefaultPrice("rtx-3090")).USDPerHour, 1e-6)

	// The user's price, in both doors.
	r, err := Plan(spec.PlanRequest{Model: llama8B, Workload: spec.PlanWorkload{Concurrency: spec.Int(8)}, SLO: spec.PlanSLO{TPOTMs: spec.Float(200)},
		Constraints: &spec.PlanConstraints{Accelerators: []string{"h100-sxm-80gb"}, Engines: []string{"vllm"}, Prices: map[string]float64{"h100-sxm-80gb": 2}}, Search: narrow(1)})
	require.NoError(t, err)
	d := r.Deployments[0]
	assert.Equal(t, [2]any{2.0, hardware.PriceUser}, [2]any{d.GPUHourUSD, d.PriceKind})
	assert.Contains(t, r.Answer, "at $2 per GPU-hour, your price")
	rep, err := evaluate.Evaluate(d.Evaluate)
	require.NoError(t, err)
	assert.Equal(t, [2]any{2.0, hardware.PriceUser}, [2]any{rep.Cost.GPUHourUSD, rep.Cost.PriceKind})
	assert.Empty(t, rep.Cost.PriceSource)
}

// A custom accelerator has no default price: the report leaves the cost
// section out and says why (warning no_price), until the request gives
// gpu_hour_usd.
func TestCustomAcceleratorNeedsAPrice(t *testing.T) {
	h, err := hardware.Lookup("h100-sxm-80gb")
	require.NoError(t, err)
	h.ID, h.Name, h.Sources, h.Aliases = "", "", nil, nil
	req := spec.Request{Model: llama8B, Hardware: spec.HardwareRef{Custom: &h}}
	rep, err := evaluate.Evaluate(req)
	require.NoError(t, err)
	assert.Nil(t, rep.Cost)
	codes := []string{}
	for _, w := range rep.Warnings {
		codes = append(codes, w.Code)
	}
	assert.Contains(t, codes, "no_price")

	req.GPUHourUSD = spec.Float(1.25)
	rep, err = evaluate.Evaluate(req)
	require.NoError(t, err)
	require.NotNil(t, rep.Cost)
	assert.Equal(t, [2]any{1.25, hardware.PriceUser}, [2]any{rep.Cost.GPUHourUSD, rep.Cost.PriceKind})
}

func must(p hardware.Price, ok bool) hardware.Price {
	if !ok {
		panic("no price")
	}
	return p
}
