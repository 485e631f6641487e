package calc_test

import (
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// expensiveBody is issue 16's request: 300 bytes, 8.3 s of native CPU
// (31 s on workerd) before the work budget.
const expensiveBody = `{"model":"llama-3.1-8b","hardware":"h200","kv_cache_dtype":"fp8","max_num_seqs":1024,"workload":{"input_tokens":1,"output_tokens":16000},"simulate":{"num_requests":100000,"arrival":"burst","timeline_points":2000}}`

func parse(t *testing.T, body string) calc.Request {
	t.Helper()
	req, err := calc.ParseRequest([]byte(body))
	require.NoError(t, err)
	return req
}

// refusal returns the one field error a request over the budget gets.
func refusal(t *testing.T, err error) calc.FieldError {
	t.Helper()
	require.Error(t, err)
	assert.True(t, errors.Is(err, calc.ErrInvalidRequest))
	var list calc.Errors
	require.True(t, errors.As(err, &list), "%v", err)
	require.Len(t, list, 1, "%v", err)
	return list[0]
}

// suggested reads the "to about N" of a refusal.
func suggested(t *testing.T, msg string) int {
	t.Helper()
	m := regexp.MustCompile(`to about ([0-9,]+)`).FindStringSubmatch(msg)
	require.NotNil(t, m, msg)
	n, err := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
	require.NoError(t, err)
	return n
}

func TestTheExpensiveRequestIsRefusedBeforeItRuns(t *testing.T) {
	t.Parallel()
	req := parse(t, expensiveBody)
	est, err := calc.EstimateWork(req)
	require.NoError(t, err)
	assert.InDelta(t, 1.7e9, est.Total, 0.1e9, "100,000 requests x 16,000 output tokens, plus the steps")

	rep, err := calc.Evaluate(req)
	assert.Zero(t, rep.Version, "no partial report")
	fe := refusal(t, err)
	assert.Equal(t, "simulate.num_requests", fe.Field)
	assert.Equal(t, "the simulation (100,000 requests of about 16,000 output tokens) needs about 1.7e9 sequence-steps, "+
		"above the work budget of 4e6; lower simulate.num_requests to about 230, or workload.output_tokens", fe.Message)

	// Its 32-point sweep of 100,000-request runs: still the main run first.
	req.Simulate.Sweep = &calc.SimSweepOptions{Points: calc.Int(32), NumRequests: calc.Int(100_000)}
	_, err = calc.Evaluate(req)
	fe = refusal(t, err)
	assert.Equal(t, "simulate.num_requests", fe.Field)
	assert.Contains(t, fe.Message, "and a sweep of")
	assert.Contains(t, fe.Message, "drop simulate.sweep")
}

func TestARequestJustUnderTheBudgetRuns(t *testing.T) {
	t.Parallel()
	req := parse(t, expensiveBody)
	_, err := calc.Evaluate(req)
	n := suggested(t, refusal(t, err).Message)

	req.Simulate.NumRequests = calc.Int(n)
	est, err := calc.EstimateWork(req)
	require.NoError(t, err)
	assert.LessOrEqual(t, est.Total, float64(calc.DefaultWorkBudget))
	assert.Greater(t, est.Total, 0.9*calc.DefaultWorkBudget, "the suggestion is near the budget")
	rep, err := calc.Evaluate(req)
	require.NoError(t, err)
	require.NotNil(t, rep.Simulation)
	assert.Equal(t, n, rep.Simulation.CompletedRequests)

	req.Simulate.NumRequests = calc.Int(n * 11 / 10)
	_, err = calc.Evaluate(req)
	assert.Equal(t, "simulate.num_requests", refusal(t, err).Field, "10%% more is over")
}

func TestASweepOverTheBudgetNamesTheSweep(t *testing.T) {
	t.Parallel()
	// 2,048 output tokens: the default simulation fits, an 8-point sweep of
	// 1,000-request runs does not.
	req := llama8B("h100-sxm", 128, 2048, &calc.SimulateOptions{Sweep: &calc.SimSweepOptions{NumRequests: calc.Int(1000)}})
	_, err := calc.Evaluate(req)
	fe := refusal(t, err)
	assert.Equal(t, "simulate.sweep.num_requests", fe.Field)
	assert.Regexp(t, `^the simulated sweep \(\d+ runs of 1,000 requests\) needs about [0-9.]+e7 sequence-steps, above the work budget of 4e6; `+
		`lower simulate.sweep.num_requests to about \d+, or simulate.sweep.points, or workload.output_tokens$`, fe.Message)

	req.Simulate.Sweep.NumRequests = calc.Int(suggested(t, fe.Message))
	rep, err := calc.Evaluate(req)
	require.NoError(t, err)
	require.NotNil(t, rep.Simulation.Sweep)
	assert.NotEmpty(t, rep.Simulation.Sweep.Points)
}

func TestTheDefaultsFitTheBudget(t *testing.T) {
	t.Parallel()
	for name, sim := range map[string]*calc.SimulateOptions{
		"simulate":           {},
		"simulate and sweep": {Sweep: &calc.SimSweepOptions{}},
		"poisson sweep":      {Arrival: "poisson", RequestRate: calc.Float(10), Sweep: &calc.SimSweepOptions{}},
	} {
		req := llama8B("h100-sxm", 1024, 256, sim)
		est, err := calc.EstimateWork(req)
		require.NoError(t, err, name)
		rep, err := calc.Evaluate(req)
		require.NoError(t, err, name)
		if sim.Sweep == nil {
			assert.Less(t, est.Total, float64(calc.DefaultWorkBudget), name)
			continue
		}
		// vLLM's 1024 default sequences on an H100 let the sweep's
		// higher loads preempt and bisect the onset: 1,000 requests a
		// load would go over the budget, so the default sweep runs the
		// share of them that fits, in two significant digits.
		require.Greater(t, est.Total, float64(calc.DefaultWorkBudget), name)
		share := (calc.DefaultWorkBudget - est.Base - est.Simulation) / est.Sweep
		require.NotNil(t, rep.Simulation.Sweep, name)
		n := rep.Simulation.Sweep.NumRequests
		assert.LessOrEqual(t, float64(n), 1000*share, name)
		assert.Greater(t, float64(n), 1000*share-10, name)
		req.Simulate.Sweep.NumRequests = calc.Int(n)
		fit, err := calc.EstimateWork(req)
		require.NoError(t, err, name)
		assert.LessOrEqual(t, fit.Total, float64(calc.DefaultWorkBudget), name)
	}
	est, err := calc.EstimateWork(llama8B("h100-sxm", 1024, 256, nil))
	require.NoError(t, err)
	assert.Less(t, est.Total, 1e-3*calc.DefaultWorkBudget, "no simulation: the analytic report is nearly free")
	assert.Zero(t, est.Simulation+est.Sweep)
}

func TestEvaluateWithBudget(t *testing.T) {
	t.Parallel()
	req := llama8B("h100-sxm", 128, 2048, &calc.SimulateOptions{Sweep: &calc.SimSweepOptions{NumRequests: calc.Int(1000)}})
	est, err := calc.EstimateWork(req)
	require.NoError(t, err)
	require.Greater(t, est.Total, float64(calc.DefaultWorkBudget))

	_, err = calc.EvaluateWithBudget(req, est.Total)
	assert.NoError(t, err, "a larger budget runs it")
	_, err = calc.EvaluateWithBudget(req, math.Inf(1))
	assert.NoError(t, err, "+Inf: no budget")
	_, err = calc.EvaluateWithBudget(req, est.Total*0.99)
	fe := refusal(t, err)
	assert.Contains(t, fe.Message, "above the work budget of ")

	small := llama8B("h100-sxm", 1024, 256, &calc.SimulateOptions{})
	_, err = calc.EvaluateWithBudget(small, 1000)
	assert.Equal(t, "simulate.num_requests", refusal(t, err).Field)
	_, err = calc.EvaluateWithBudget(llama8B("h100-sxm", 1024, 256, nil), 1)
	assert.NoError(t, err, "the analytic report alone is never refused")
	for _, b := range []float64{0, -1, math.NaN()} {
		_, err = calc.EvaluateWithBudget(small, b)
		assert.Equal(t, "", refusal(t, err).Field, "budget %v", b)
	}
	// Invalid requests are reported as before, budget or not.
	bad := llama8B("h100-sxm", 1024, 256, &calc.SimulateOptions{NumRequests: calc.Int(0)})
	_, err = calc.EvaluateWithBudget(bad, 0)
	assert.Equal(t, "simulate.num_requests", refusal(t, err).Field)
}
