package deploy_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/modelrefs/throughput/calc/deploy"
)

// GPUPower against hand calculations of docs/MODEL.md section 5c's
// formula, P = rated x min(0.15 + 0.50 m + 0.85 c, 1).
func TestGPUPowerHandDerived(t *testing.T) {
	// An idle step (all overhead): 0.15 x 700 = 105 W.
	w, m, c := deploy.GPUPower(deploy.StepCost{TimeS: 0.01, OverheadS: 0.01}, 700)
	assert.InDelta(t, 105, w, 1e-9)
	assert.Zero(t, m)
	assert.Zero(t, c)
	// A step that only streams memory: 0.65 x 700 = 455 W.
	w, _, _ = deploy.GPUPower(deploy.StepCost{TimeS: 0.01, MemoryS: 0.01}, 700)
	assert.InDelta(t, 455, w, 1e-9)
	// Memory half the step, arithmetic a quarter: 700 x (0.15 + 0.5 x
	// 0.5 + 0.85 x 0.25) = 700 x 0.6125 = 428.75 W.
	w, m, c = deploy.GPUPower(deploy.StepCost{TimeS: 1, MemoryS: 0.5, ComputeS: 0.25}, 700)
	assert.InDelta(t, 428.75, w, 1e-9)
	assert.InDelta(t, 0.5, m, 1e-12)
	assert.InDelta(t, 0.25, c, 1e-12)
	// A compute-bound step (prefill): 0.15 + 0.85 = the rated power,
	// 400 W; memory and arithmetic both busy stays there (capped).
	w, _, _ = deploy.GPUPower(deploy.StepCost{TimeS: 1, ComputeS: 1}, 400)
	assert.InDelta(t, 400, w, 1e-9)
	w, _, _ = deploy.GPUPower(deploy.StepCost{TimeS: 1, MemoryS: 2, ComputeS: 1.5}, 400)
	assert.InDelta(t, 400, w, 1e-9)
	// An empty step does not divide by zero: idle power.
	w, _, _ = deploy.GPUPower(deploy.StepCost{}, 300)
	assert.InDelta(t, 45, w, 1e-9)
}
