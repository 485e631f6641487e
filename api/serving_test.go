package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// evaluateServing asks the API (method, target, body) for a report and
// returns the raw answer's members and the report decoded from it.
func evaluateServing(t *testing.T, method, target, body string) (map[string]json.RawMessage, calc.Report) {
	t.Helper()
	var headers map[string]string
	if body != "" {
		headers = jsonHeaders()
	}
	res := serve(t, method, target, headers, body)
	require.Equal(t, http.StatusOK, res.StatusCode)
	data, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &raw))
	var r calc.Report
	require.NoError(t, json.Unmarshal(data, &r))
	return raw, r
}

// steadyOf posts Llama 3.1 8B on an H100 under vLLM with workload and
// returns the report, which must have its serving section. vLLM's
// profile has no front-end latency, so E2E is the server's own.
func steadyOf(t *testing.T, workload string) calc.Report {
	t.Helper()
	_, r := evaluateServing(t, "POST", "/v1/evaluate", `{"model":"meta-llama/Llama-3.1-8B-Instruct","hardware":"h100-sxm","gpu_hour_usd":2.5,"workload":`+workload+`}`)
	require.NotNil(t, r.Serving, "a workload with a concurrency or a request rate has a serving section: %s", workload)
	require.Zero(t, r.Config.Efficiencies.ContextOverheadMs)
	return r
}

// TestServingThroughHTTP checks the steady state (docs/MODEL.md section
// 5b) as the HTTP API answers it, against relations worked out by hand
// from the report's own inputs: the benchmark clients' definitions (vLLM
// benchmarks/backend_request_func.py: TPOT = (E2E - TTFT) / (out - 1)),
// Little's law (a closed loop of c users completes c / E2E requests a
// second; an open loop at rate λ holds λ · E2E in flight), the token
// rates as requests times lengths, and the closed loop's queue above the
// running cap ((c/w - 1) waves of the w that run).
func TestServingThroughHTTP(t *testing.T) {
	t.Parallel()
	t.Run("closed loop of 64 users", func(t *testing.T) {
		t.Parallel()
		r := steadyOf(t, `{"input_tokens":1024,"output_tokens":256,"concurrency":64}`)
		s := r.Serving
		assert.Equal(t, 64.0, s.Concurrency)
		assert.Zero(t, s.RequestRate, "a closed loop has no request rate")
		assert.Equal(t, 1024, s.InputTokens)
		assert.Equal(t, 256, s.OutputTokens)
		assert.Equal(t, "mixed", s.Order, "vLLM's V1 scheduler mixes prompts into the decode steps")
		assert.False(t, s.Saturated, "64 users: below max_num_seqs and the preemption onset")
		assert.Less(t, 64, r.Config.MaxNumSeqs)
		assert.Less(t, 64, r.Preemption.OnsetConcurrency)

		// All 64 decode together; the pure decode step is decode's at that batch.
		assert.Equal(t, 64.0, s.DecodeBatch)
		require.NotNil(t, r.Decode)
		assert.Equal(t, 64, r.Decode.BatchSize)
		assert.InDelta(t, r.Decode.StepTimeMs, s.DecodeStepMs, 1e-9*r.Decode.StepTimeMs)
		// Prompts share the steps: the steady state's TPOT is longer than the pure step.
		assert.Greater(t, s.TPOTMs, s.DecodeStepMs)

		// The front end (the API server's request handling and its
		// tokenisation of the 1,024-token prompt, docs/MODEL.md section 4)
		// is in E2E as the client sees it, but a user's loop cycles through
		// the server's part: requests/s = c / (E2E - front end).
		fe := frontEndMs(r, 1024)
		assert.Greater(t, fe, 0.0, "vLLM's front end")
		e2e := (s.E2EMs - fe) / 1000 // seconds
		assert.InEpsilon(t, (s.E2EMs-s.TTFTMs)/(256-1), s.TPOTMs, 1e-9, "TPOT = (E2E - TTFT) / (out - 1)")
		assert.InEpsilon(t, 64/e2e, s.RequestsPerS, 1e-9, "Little's law: c / (E2E - front end)")
		assert.InEpsilon(t, s.RequestsPerS*256, s.OutputTokensPerS, 1e-9)
		assert.InEpsilon(t, s.RequestsPerS*(1024+256), s.TotalTokensPerS, 1e-9)
		assert.Zero(t, s.QueueMs)

		// The cost card prices the steady state's output rate (docs/MODEL.md section 5).
		require.NotNil(t, r.Cost)
		assert.InEpsilon(t, s.OutputTokensPerS, r.Cost.TokensPerS, 1e-9)
		// Each headline figure of the steady state has its 80 % range.
		var banded []string
		for _, b := range r.Bands {
			if strings.HasPrefix(b.Figure, "serving.") {
				banded = append(banded, b.Figure)
				assert.Less(t, b.Low, b.High, b.Figure)
			}
		}
		assert.ElementsMatch(t, []string{"serving.tpot_ms", "serving.ttft_ms", "serving.e2e_ms", "serving.output_tokens_per_s"}, banded)
	})

	t.Run("open loop at 5 requests a second", func(t *testing.T) {
		t.Parallel()
		r := steadyOf(t, `{"input_tokens":1024,"output_tokens":256,"request_rate":5}`)
		s := r.Serving
		assert.False(t, s.Saturated, "5 req/s is a quarter of what an H100 completes")
		assert.Equal(t, 5.0, s.RequestRate)
		// Below its capacity the server completes what arrives.
		assert.InEpsilon(t, 5, s.RequestsPerS, 1e-12)
		assert.InEpsilon(t, 5*256, s.OutputTokensPerS, 1e-12)
		assert.InEpsilon(t, 5*(1024+256), s.TotalTokensPerS, 1e-12)
		// Little's law: λ · E2E requests in flight.
		assert.InEpsilon(t, 5*s.E2EMs/1000, s.Concurrency, 1e-9)
		assert.InEpsilon(t, (s.E2EMs-s.TTFTMs)/(256-1), s.TPOTMs, 1e-9)
		assert.GreaterOrEqual(t, s.TTFTMs, s.QueueMs)
		// Its output rate's range cannot reach above what arrives
		// (5 x 256 = 1,280 tokens/s): a faster step does not raise it.
		found := false
		for _, b := range r.Bands {
			if b.Figure == "serving.output_tokens_per_s" {
				found = true
				assert.InEpsilon(t, 5*256, b.High, 1e-12)
				assert.LessOrEqual(t, b.Low, b.High)
			}
		}
		assert.True(t, found, "the output rate has its range")
	})

	t.Run("closed loop above the KV cache's room", func(t *testing.T) {
		t.Parallel()
		r := steadyOf(t, `{"input_tokens":1024,"output_tokens":256,"concurrency":2000}`)
		s := r.Serving
		require.NotNil(t, r.Preemption)
		w := r.Preemption.OnsetConcurrency // the running cap: the KV cache fills before max_num_seqs
		require.Less(t, w, r.Config.MaxNumSeqs)
		require.Less(t, w, 2000)
		assert.True(t, s.Saturated)
		assert.Equal(t, "kv_cache", s.LimitedBy)
		assert.Equal(t, float64(w), s.DecodeBatch, "only the running cap decodes")
		// The rest wait (c/w - 1) waves of w, each wave a cycle of E2E - queue:
		// queue = (c/w - 1) · (E2E - queue), so queue = (1 - w/c) · E2E.
		// (E2E here is the server's: less the front end, as above.)
		srv := s.E2EMs - frontEndMs(r, 1024)
		assert.InEpsilon(t, (1-float64(w)/2000)*srv, s.QueueMs, 1e-9)
		assert.InEpsilon(t, 2000/(srv/1000), s.RequestsPerS, 1e-9, "Little's law holds with the queue in E2E")
		assert.InEpsilon(t, (s.E2EMs-s.TTFTMs)/(256-1), s.TPOTMs, 1e-9, "the queue is in TTFT, not TPOT")
	})

	t.Run("GET with the workload's concurrency", func(t *testing.T) {
		t.Parallel()
		_, r := evaluateServing(t, "GET", "/v1/evaluate?model=llama-3.1-8b&hardware=h100-sxm&input_tokens=1024&output_tokens=256&concurrency=64", "")
		require.NotNil(t, r.Serving, "the query door carries serving too")
		assert.Equal(t, 64.0, r.Serving.Concurrency)
	})

	t.Run("no concurrency or rate, no serving", func(t *testing.T) {
		t.Parallel()
		for _, body := range []string{
			`{"model":"meta-llama/Llama-3.1-8B-Instruct","hardware":"h100-sxm"}`,
			`{"model":"meta-llama/Llama-3.1-8B-Instruct","hardware":"h100-sxm","workload":{"input_tokens":1024,"output_tokens":256}}`,
		} {
			raw, r := evaluateServing(t, "POST", "/v1/evaluate", body)
			assert.NotContains(t, raw, "serving", body)
			assert.NotNil(t, r.Decode, "the pure decode step is still there: %s", body)
		}
	})
}

// frontEndMs is the report's per-request front end for a prompt of n
// tokens, in milliseconds, from its efficiencies: context_overhead_ms +
// request_overhead_ms + tokenize_us_per_token x n / 1000.
func frontEndMs(r calc.Report, n int) float64 {
	e := r.Config.Efficiencies
	return e.ContextOverheadMs + e.RequestOverheadMs + e.TokenizeUsPerToken*float64(n)/1000
}
