package calc_test

import (
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/contract"
)

// TestBadPlans: calc.ParsePlanRequest and calc.Plan answer every case of
// testdata/bad-plans.json (the plan's table for the three doors) with
// exactly its field errors, and no report; the table has an unknown key
// in every object type of the plan request.
func TestBadPlans(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/bad-plans.json")
	require.NoError(t, err)
	var file struct {
		Cases []badRequest `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(data, &file))
	names := map[string]bool{}
	for _, tc := range file.Cases {
		names[tc.Name] = true
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			req, err := calc.ParsePlanRequest(tc.Request)
			var report calc.PlanReport
			if err == nil {
				report, err = calc.Plan(req)
			}
			require.Error(t, err)
			assert.True(t, errors.Is(err, calc.ErrInvalidRequest))
			var got calc.Errors
			require.True(t, errors.As(err, &got), "%T: %v", err, err)
			assert.Equal(t, tc.Errors, got)
			assert.Zero(t, report.Version, "no partial report")
		})
	}
	for _, typ := range contract.PlanRequest().Types {
		assert.True(t, names["unknown key in "+typ.Name], "no case with an unknown key in %s", typ.Name)
	}
}
