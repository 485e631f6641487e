package bridge_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/contract"
	"github.com/modelrefs/throughput/models"
	"github.com/modelrefs/throughput/wasm/js/bridge"
)

func TestContractStatesTheEngineTables(t *testing.T) {
	t.Parallel()
	c := bridge.NewContract()
	assert.Equal(t, calc.DefaultEngine, c.DefaultEngine)
	require.Len(t, c.Engines, len(calc.EngineNames()))
	for i, e := range calc.Engines() {
		assert.Equal(t, bridge.EngineProfile{Name: e.Name, Label: e.Label, Defaults: e.Defaults()}, c.Engines[i])
	}
	assert.Equal(t, calc.KVCacheDtypes, c.KVCacheDtypes)
	assert.Contains(t, c.BlockSizes, calc.DefaultBlockSize)

	// Every calc.Fields entry shows up under its JSON path, nested ones too.
	in := c.Fields["workload.input_tokens"]
	assert.Equal(t, "integer", in.Kind)
	require.NotNil(t, in.Min)
	require.NotNil(t, in.Max)
	assert.InDelta(t, 1.0, *in.Min, 0)
	assert.Equal(t, calc.DefaultInputTokens, in.Default)
	assert.Equal(t, "array", c.Fields["simulate.sweep.request_rates"].Kind)
	assert.Equal(t, calc.Distributions, c.Fields["simulate.input_tokens.distribution"].Enum)
	assert.True(t, c.Fields["block_size"].PowerOfTwo)
	n := 0
	req := contract.Request()
	for key := range calc.Fields {
		if typ, _, _ := strings.Cut(key, "."); req.Type(typ) != nil {
			n++ // the planner's fields are not the request's
		}
	}
	// LengthDistribution is reached twice (input and output tokens).
	assert.Equal(t, n+5, len(c.Fields))
}

// The contract's hub_messages are package models' Hub* words, which the
// API answers with: throughput.js reads them from here.
func TestContractHubMessagesAreTheEngines(t *testing.T) {
	t.Parallel()
	assert.Equal(t, bridge.HubMessages{
		Unreachable: models.HubUnreachable, NotAConfig: models.HubNotAConfig,
		TokenRefused: models.HubTokenRefused, NeedsToken: models.HubNeedsToken,
		NotFound: models.HubNotFound, Status: models.HubStatus,
	}, bridge.NewContract().HubMessages)
	// Each template, filled, is what HubStatusMessage says.
	fill := func(s string, status int) string { return strings.ReplaceAll(s, "{status}", strconv.Itoa(status)) }
	assert.Equal(t, fill(models.HubNeedsToken, 401), models.HubStatusMessage(401, false))
	assert.Equal(t, fill(models.HubTokenRefused, 403), models.HubStatusMessage(403, true))
	assert.Equal(t, fill(models.HubNotFound, 404), models.HubStatusMessage(404, false))
	assert.Equal(t, fill(models.HubStatus, 502), models.HubStatusMessage(502, false))
}
