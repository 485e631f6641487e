package validation

import (
	"math"
	"testing"

	"github.com/modelrefs/throughput/calc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The texts of cases B236 and B244 (testdata/shared-cases.json), as
// the harness reads them.
var (
	onlineCase = rawCase{ID: "B236", Group: "B", Engine: "vLLM", EngineVersion: "0.6.0 (--num-scheduler-steps 10, max_model_len 4096)",
		Model: "meta-llama/Llama-3.1-8B-Instruct", GPU: "NVIDIA A100 80GB", TP: 1,
		BatchSize: "online, Poisson request rate 4 req/s", InputLen: "ShareGPT (variable)", OutputLen: "ShareGPT (variable)",
		Scenario: "online serving, 1200 prompts at 4 RPS (sglang.bench_serving)",
		Measured: map[string]any{"median_e2e_latency_ms": 1691.97, "median_ttft_ms": 100.48, "median_tpot_ms": 14.14, "median_itl_ms": 129.32}}
	offlineCase = rawCase{ID: "B243", Group: "B", Engine: "SGLang", EngineVersion: "0.3.0",
		Model: "meta-llama/Llama-3.1-8B-Instruct", GPU: "NVIDIA A100 80GB", TP: 1,
		BatchSize: "offline, all 5000 requests at once", InputLen: "ShareGPT (variable)", OutputLen: "ShareGPT (variable)",
		Scenario: "offline max throughput (5000 ShareGPT prompts, request rate inf)",
		Measured: map[string]any{"request_throughput_req_s": 22.03, "output_token_throughput_tok_s": 4281.51}}
)

// A ShareGPT case is replayed with the arrival, rate and prompts its text
// states and the engine settings it names.
func TestShareGPTReplayOfTheCaseText(t *testing.T) {
	p, ok := shareGPTReplay(onlineCase)
	require.True(t, ok)
	assert.Equal(t, ShareGPTReplay{Arrival: "poisson", RequestRate: 4, NumPrompts: 1200, MaxModelLen: 4096, SchedulerSteps: 10}, p)
	r, base := sharedBase(onlineCase)
	req := shareGPTRequest(onlineCase, base, p, ShareGPTCV)
	assert.Equal(t, "vllm", req.Engine)
	assert.Equal(t, "0.6", req.EngineVersion, "vLLM 0.6.0 runs under the V0 profile")
	assert.Equal(t, 4096, *req.MaxModelLen)
	assert.Equal(t, 10, *req.NumSchedulerSteps, "the case's --num-scheduler-steps 10")
	assert.Equal(t, 1200, *req.Simulate.NumRequests)
	assert.Equal(t, "poisson", req.Simulate.Arrival)
	assert.InDelta(t, 4.0, *req.Simulate.RequestRate, 0)
	assert.Equal(t, "a100-sxm-80gb", r.GPU)

	p, ok = shareGPTReplay(offlineCase)
	require.True(t, ok)
	assert.Equal(t, ShareGPTReplay{Arrival: "burst", NumPrompts: 5000}, p)
	_, base = sharedBase(offlineCase)
	req = shareGPTRequest(offlineCase, base, p, ShareGPTCV)
	assert.Equal(t, "sglang", req.Engine)
	assert.Nil(t, req.NumSchedulerSteps, "SGLang has no multi-step option")
	assert.Nil(t, req.MaxModelLen, "SGLang's own context length")
	assert.Nil(t, req.Simulate.RequestRate)
}

// The replayed workload has the stated means. A lognormal of mean m and
// coefficient of variation 1 has sigma^2 = ln 2 = 0.6931 and mu = ln m -
// sigma^2/2; clamped at c its mean is
//
//	m * Phi((ln c - mu - sigma^2)/sigma) + c * (1 - Phi((ln c - mu)/sigma)).
//
// Input, m = 229.7, c = 1024: mu = 5.4368 - 0.3466 = 5.0902, sigma =
// 0.8326; (6.9315 - 5.0902 - 0.6931)/0.8326 = 1.379, Phi = 0.9161;
// (6.9315 - 5.0902)/0.8326 = 2.211, 1 - Phi = 0.0135; so 229.7 * 0.9161 +
// 1024 * 0.0135 = 210.4 + 13.8 = 224.2 tokens. Output, m = 194.3, c =
// 2044: mu = 5.2694 - 0.3466 = 4.9228; (7.6226 - 4.9228 - 0.6931)/0.8326 =
// 2.410, Phi = 0.9920; (7.6226 - 4.9228)/0.8326 = 3.243, 1 - Phi =
// 0.0006; so 194.3 * 0.9920 + 2044 * 0.0006 = 192.7 + 1.2 = 193.9
// tokens. 5000 draws have a standard error of mean/sqrt(5000) = 1.4 %, so
// the realised means are held to 3 %.
func TestShareGPTReplayWorkload(t *testing.T) {
	p, _ := shareGPTReplay(offlineCase)
	_, base := sharedBase(offlineCase)
	rep, err := calc.Evaluate(shareGPTRequest(offlineCase, base, p, ShareGPTCV))
	require.NoError(t, err)
	s := rep.Simulation
	require.NotNil(t, s)
	assert.Equal(t, 5000, s.NumRequests)
	assert.Equal(t, 5000, s.CompletedRequests)
	assert.InEpsilon(t, 224.2, s.MeanInputTokens, 0.03)
	assert.InEpsilon(t, 193.9, s.MeanOutputTokens, 0.03)

	// The online replay arrives at the stated rate: 1200 Poisson arrivals
	// at 4/s span about 1200/4 = 300 s (a Gamma(1200) sum: 2.9 % standard
	// deviation), and the run ends a few seconds after the last.
	p, _ = shareGPTReplay(onlineCase)
	_, base = sharedBase(onlineCase)
	rep, err = calc.Evaluate(shareGPTRequest(onlineCase, base, p, ShareGPTCV))
	require.NoError(t, err)
	s = rep.Simulation
	require.NotNil(t, s)
	assert.Equal(t, "poisson", s.Arrival)
	assert.InDelta(t, 4.0, s.RequestRate, 0)
	assert.Equal(t, 1200, s.CompletedRequests)
	assert.InEpsilon(t, 300, s.DurationS, 0.09)
	assert.InEpsilon(t, 4.0, s.RequestsPerS, 0.09)
}

// ShareGPTMeanOutput is the cases' own mean: each offline run's output
// tokens/s over its requests/s (194.35, 194.28, 194.36, 194.36).
func TestShareGPTMeanOutputIsTheCasesOwn(t *testing.T) {
	cs, missing, err := ReadCases("testdata/shared-cases.json")
	require.Empty(t, missing)
	require.NoError(t, err)
	n := 0
	for _, c := range cs {
		out, ok1 := measured(c.raw, "output_token_throughput_tok_s")
		req, ok2 := measured(c.raw, "request_throughput_req_s")
		if !isShareGPT(c.raw) || !ok1 || !ok2 {
			continue
		}
		n++
		assert.InEpsilon(t, ShareGPTMeanOutput, out/req, 0.001, c.ID())
	}
	assert.Equal(t, 4, n, "B243-B246")
}

// Each ShareGPT case yields one result per figure it reports, each under
// its metric class, flagged as a replay and without a band key; the
// median ITL is not compared.
func TestShareGPTReplayResults(t *testing.T) {
	rs, err := evaluateAll(onlineCase)
	require.NoError(t, err)
	var metrics []string
	for _, r := range rs {
		metrics = append(metrics, r.Metric)
		assert.True(t, r.Comparable, r.Metric)
		assert.True(t, r.Replay)
		assert.Empty(t, r.Key.Family)
		assert.Greater(t, r.Predicted, 0.0)
		assert.False(t, math.IsNaN(r.RelErr()))
	}
	assert.Equal(t, []string{"ttft_ms", "tpot_ms", "e2e_latency_ms"}, metrics)
	assert.Equal(t, "ttft", MetricClass("ttft_ms"))
	assert.Equal(t, "decode_step", MetricClass("tpot_ms"))
	assert.Equal(t, "throughput", MetricClass("e2e_latency_ms"))

	rs, err = evaluateAll(offlineCase)
	require.NoError(t, err)
	require.Len(t, rs, 1)
	assert.Equal(t, "output_tokens_per_s", rs[0].Metric)
	assert.InDelta(t, 4281.51, rs[0].Measured, 0)
}
