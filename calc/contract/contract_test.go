package contract_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/contract"
	_ "github.com/modelrefs/throughput/calc/contract/docs"
)

// Every calc.Fields entry names a field the request contract has: a typo
// or a renamed field would otherwise leave a bound that nothing states.
func TestEveryFieldSpecNamesARequestField(t *testing.T) {
	t.Parallel()
	c, plan := contract.Request(), contract.PlanRequest()
	for key := range calc.Fields {
		typeName, name, ok := strings.Cut(key, ".")
		require.True(t, ok, key)
		typ := c.Type(typeName)
		if typ == nil {
			typ = plan.Type(typeName)
		}
		require.NotNil(t, typ, "%s: no request type %s", key, typeName)
		found := false
		for _, f := range typ.Fields {
			found = found || f.Name == name
		}
		assert.True(t, found, "%s: %s has no field %s", key, typeName, name)
	}
}

// Every type a request reaches is strict, the custom accelerator's too
// (the drift the contract exists to end: OpenAPI once left
// SimulateOptions, LengthDistribution and the accelerator open).
func TestRequestTypesAreAllStrict(t *testing.T) {
	t.Parallel()
	var names []string
	for _, typ := range contract.Request().Types {
		assert.True(t, typ.Strict, typ.Name)
		names = append(names, typ.Name)
	}
	for _, want := range []string{"Request", "Workload", "SLO", "SweepOptions", "SimulateOptions",
		"LengthDistribution", "SimSweepOptions", "HardwareAccelerator", "HardwarePeakFLOPS", "HardwareInterconnect", "HardwareSource"} {
		assert.Contains(t, names, want)
	}
}

// The walk reads the Go types as the decoder does: JSON names, kinds,
// optionality, the id-or-object hardware, specs and docs joined by key.
func TestFieldsFollowTheGoTypes(t *testing.T) {
	t.Parallel()
	req := contract.Request().Type("Request")
	byName := map[string]contract.Field{}
	for _, f := range req.Fields {
		byName[f.Name] = f
	}
	assert.Equal(t, contract.IDOrObject, byName["hardware"].Kind)
	assert.Equal(t, "HardwareAccelerator", byName["hardware"].Ref)
	assert.False(t, byName["hardware"].Optional, "hardware has no omitempty")
	assert.Equal(t, contract.Integer, byName["tensor_parallel_size"].Kind)
	assert.True(t, byName["tensor_parallel_size"].Optional)
	assert.Equal(t, 1.0, byName["tensor_parallel_size"].Spec.Min)
	assert.Equal(t, contract.Map, byName["model_config"].Kind)
	assert.Equal(t, contract.Any, byName["model_config"].Elem.Kind)
	assert.Equal(t, contract.Object, byName["workload"].Kind)
	assert.Equal(t, "Workload", byName["workload"].Ref)
	assert.Equal(t, calc.EngineNames(), byName["engine"].Spec.Enum)
	assert.Contains(t, byName["engine"].Doc, "engine selects")

	sim := contract.Request().Type("SimSweepOptions")
	require.NotNil(t, sim)
	rates := sim.Fields[2]
	assert.Equal(t, "request_rates", rates.Name)
	assert.Equal(t, contract.Array, rates.Kind)
	assert.Equal(t, contract.Number, rates.Elem.Kind)
}

// Params are the request's scalar paths a GET query can carry.
func TestParams(t *testing.T) {
	t.Parallel()
	var paths []string
	for _, p := range contract.Request().Params("Request") {
		paths = append(paths, p.Path)
	}
	assert.Contains(t, paths, "model")
	assert.Contains(t, paths, "hardware")
	assert.Contains(t, paths, "workload.input_tokens")
	assert.Contains(t, paths, "simulate.sweep.points")
	assert.Contains(t, paths, "simulate.input_tokens.distribution")
	assert.NotContains(t, paths, "model_config")
	assert.NotContains(t, paths, "simulate.sweep.request_rates")
}

// A field added to a copy of the contract shows up in the description: the
// walk needs nothing beyond the Go type and its table entry.
func TestAFieldAddedToAFixtureTypeIsPickedUp(t *testing.T) {
	t.Parallel()
	type Inner struct {
		Depth *int `json:"depth,omitempty"`
	}
	type Fixture struct {
		calc.Request
		NewKnob *float64 `json:"new_knob,omitempty"`
		Inner   Inner    `json:"inner"`
	}
	c := contract.Of(true, reflect.TypeFor[Fixture]())
	fx := c.Type("Fixture")
	require.NotNil(t, fx)
	names := map[string]contract.Field{}
	for _, f := range fx.Fields {
		names[f.Name] = f
	}
	assert.Contains(t, names, "model", "embedded fields are inlined")
	assert.Equal(t, contract.Number, names["new_knob"].Kind)
	assert.Equal(t, "Inner", names["inner"].Ref)
	require.NotNil(t, c.Type("Inner"))
	assert.True(t, c.Type("Inner").Strict)
}
