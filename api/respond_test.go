package api

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/models"
)

// The answers encodeBody and marshal send through jsonx (everything but
// reports, which have their generated encoder) are byte for byte what
// encoding/json writes: the catalogs, a model with its config, the
// OpenAPI document (maps, examples, a report inside), health and problems.
func TestAnswersEncodeAsEncodingJSON(t *testing.T) {
	t.Parallel()
	entries, err := models.Catalog()
	require.NoError(t, err)
	entry, err := models.LookupEntry("meta-llama/Llama-3.1-8B-Instruct")
	require.NoError(t, err)
	values := map[string]any{
		"models":      ModelList{Version: calc.Version, Models: []ModelSummary{{ID: entries[0].ID, Name: entries[0].Name, Source: entries[0].Source}}},
		"model":       entry,
		"hardware":    HardwareList{Version: calc.Version, Hardware: hardware.Catalog()},
		"health":      Health{Status: "ok", Version: calc.Version},
		"openapi":     openAPIDocument(),
		"problem":     problemInvalid("the request has 1 invalid field", calc.Errors{{Field: "model", Message: `unknown model "<x>" & more`}}),
		"not found":   problemNotFound("no route"),
		"request":     exampleRequest(),
		"custom":      calc.Request{Hardware: calc.HardwareRef{Custom: &hardware.Accelerator{MemoryBytes: 8e10, PeakFLOPS: hardware.PeakFLOPS{BF16: 1e15}}}},
		"html escape": map[string]any{"a<b>&\u2028": []any{1e21, 1e-7, 0.1, -0.0, nil, true}},
	}
	for name, v := range values {
		want, err := json.Marshal(v)
		require.NoError(t, err, name)
		got := encodeBody(v).b
		assert.Equal(t, string(want)+"\n", string(got), name)
		assert.Equal(t, string(want)+"\n", string(marshal(v)), name)
	}
}
