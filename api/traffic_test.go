package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// POST /v1/simulate answers traffic as the engine does, the same JSON as
// encoding/json writes of its report (the generated writer covers
// the traffic sections): a trace replayed on one instance, and an hour's
// rate curve on an autoscaled fleet with its sizing.
func TestPostSimulateTraffic(t *testing.T) {
	t.Parallel()
	bodies := map[string]string{
		"trace": `{"model":"llama-3.1-8b","hardware":"h100-sxm","slo":{"ttft_ms":500},"simulate":{"timeline_points":4,` +
			`"trace":{"format":"csv","data":"arrival_s,input_tokens,output_tokens\n0,100,10\n0.5,200,20\n2,300,30\n"}}}`,
		"fleet": `{"model":"llama-3.1-8b","hardware":"h100-sxm","slo":{"ttft_ms":500},"simulate":{"num_requests":100,"timeline_points":12,` +
			`"rate_curve":{"times_s":[0,1800,3600],"rates":[1,8,1]},"autoscale":{"max_replicas":4,"attainment_target":0.9}}}`,
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			req, err := calc.ParseRequest([]byte(body))
			require.NoError(t, err)
			want, err := calc.Evaluate(req)
			require.NoError(t, err)
			wantJSON, err := json.Marshal(want)
			require.NoError(t, err)
			res := serve(t, "POST", "/v1/simulate", jsonHeaders(), body)
			got, err := io.ReadAll(res.Body)
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, res.StatusCode, "body: %s", got)
			assert.JSONEq(t, string(wantJSON), string(got))
			require.NotNil(t, want.Simulation.Traffic)
			if name == "fleet" {
				require.NotNil(t, want.Simulation.Traffic.Fleet)
				assert.NotNil(t, want.Simulation.Traffic.Fleet.Sizing)
				assert.Len(t, want.Simulation.Traffic.Fleet.Intervals, 12)
			} else {
				assert.Len(t, want.Simulation.Traffic.Intervals, 4)
			}
		})
	}
}
