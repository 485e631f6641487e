package validation

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/calc"
)

// The ShareGPT workload of sglang.bench_serving (--dataset-name sharegpt),
// which cases B235-B246 (sgl-project/sglang
// benchmark/benchmark_vllm_060/README.md) ran, as the simulator's length
// distributions.
//
// What bench_serving sends: the first human turn of each
// ShareGPT_V3_unfiltered_cleaned_split.json conversation as the prompt,
// the first reply's token count as the output length (max_new_tokens,
// with ignore_eos, so every request decodes exactly that many tokens),
// after a shuffle with the benchmark's seed, keeping a pair only when
// prompt and reply have at least 4 tokens, the prompt at most 1024 and
// the two at most 2048: sample_sharegpt_requests as vLLM's
// benchmarks/benchmark_serving.py has it at v0.6.0 ("Prune too short
// sequences" / "Prune too long sequences"), from which sglang's was
// taken; Modular's copy of both (which names sglang v0.4.0 as a source)
// keeps that rule, which is taken to hold for the 0.3.0 runs. The
// stored current sglang bench_serving.py (commit 50a6136) has since
// relaxed it to 2 tokens and an optional --sharegpt-context-len.
//
// The means, in Llama 3 tokens (Llama 3.1 8B and 70B share the tokenizer):
//
//   - output: 194.3 tokens, the cases' own offline runs (5000 prompts):
//     output tokens/s over requests/s is 4281.51 / 22.03 = 194.35 (B243),
//     4132.37 / 21.27 = 194.28 (B244), 3856.01 / 19.84 = 194.36 (B245) and
//     3700.64 / 19.04 = 194.36 (B246). The online runs (the first 1200 or
//     2400 prompts of the same shuffle) draw from the same filtered set.
//   - input: 229.7 tokens, 229,711 input tokens over 1,000 ShareGPT
//     prompts of the same file under the same filter and the Llama 3.1
//     8B Instruct tokenizer (vllm bench serve --dataset-name hf
//     --dataset-path Aeala/ShareGPT_Vicuna_unfiltered, vLLM PR #18566,
//     https://github.com/vllm-project/vllm/pull/18566, description). The
//     cases do not report their input totals.
//
// The spread: no public source found gives the standard deviation of the
// filtered lengths under this tokenizer, so both are lognormal with a
// coefficient of variation of 1 (std = mean), a long right tail like the
// raw dataset's, clamped to the filter's bounds (the simulator clamps a
// sample where bench_serving rejects it; at this spread 1.4 % of the
// prompts reach 1024 and the clamped means are 224.2 and 193.9 tokens,
// TestShareGPTReplayWorkload). It is an assumption, not fitted: the
// median end-to-end latencies depend on it through the median output
// (194.3 / sqrt(1 + CV^2) = 137 tokens at CV 1), the TTFT and TPOT
// medians and the offline rates far less; docs/MODEL.md section 7 gives
// the errors at CV 0.5 and 1.5.
const (
	// ShareGPTMeanInput is the mean prompt length, in tokens.
	ShareGPTMeanInput = 229.7
	// ShareGPTMeanOutput is the mean output length, in tokens.
	ShareGPTMeanOutput = 194.3
	// ShareGPTCV is the coefficient of variation (std / mean) of both.
	ShareGPTCV = 1.0
	// shareGPTMinLen, shareGPTMaxInput and shareGPTMaxTotal are the
	// filter's bounds, in tokens.
	shareGPTMinLen   = 4
	shareGPTMaxInput = 1024
	shareGPTMaxTotal = 2048
)

// ShareGPTLengths returns the input and output length distributions of
// the ShareGPT workload at coefficient of variation cv (ShareGPTCV for
// the harness). The output's bound is the total's less the shortest
// prompt; the joint bound (input + output <= 2048) is not applied (the
// simulator caps the pair at max_model_len, 4096 for the vLLM cases): at
// this spread about 0.1 % of pairs exceed it.
func ShareGPTLengths(cv float64) (in, out *calc.LengthDistribution) {
	in = &calc.LengthDistribution{Distribution: "lognormal", Mean: calc.Float(ShareGPTMeanInput),
		Std: calc.Float(cv * ShareGPTMeanInput), Min: calc.Int(shareGPTMinLen), Max: calc.Int(shareGPTMaxInput)}
	out = &calc.LengthDistribution{Distribution: "lognormal", Mean: calc.Float(ShareGPTMeanOutput),
		Std: calc.Float(cv * ShareGPTMeanOutput), Min: calc.Int(shareGPTMinLen), Max: calc.Int(shareGPTMaxTotal - shareGPTMinLen)}
	return in, out
}

// isShareGPT reports whether a shared case ran ShareGPT prompts.
func isShareGPT(c rawCase) bool {
	s, _ := c.InputLen.(string)
	return strings.HasPrefix(s, "ShareGPT")
}

var (
	reRate    = regexp.MustCompile(`([0-9.]+) req/s`)
	rePrompts = regexp.MustCompile(`([0-9]+) (?:ShareGPT )?prompts`)
	reMaxLen  = regexp.MustCompile(`max_model_len ([0-9]+)`)
	reSteps   = regexp.MustCompile(`--num-scheduler-steps ([0-9]+)`)
)

// ShareGPTReplay is how a ShareGPT serving case is replayed: its arrival
// ("poisson" at RequestRate, or "burst" for an infinite rate), its number
// of prompts, and the engine settings its text states.
type ShareGPTReplay struct {
	Arrival     string
	RequestRate float64 // requests/s; 0 for a burst
	NumPrompts  int
	MaxModelLen int // 0: the engine's default
	// SchedulerSteps is vLLM V0's --num-scheduler-steps (0: the default,
	// 1); the vLLM 0.6.0 cases ran 10.
	SchedulerSteps int
}

// shareGPTReplay reads a case's replay from its batch_size ("online,
// Poisson request rate 4 req/s" or "offline, all 5000 requests at once"),
// its scenario ("1200 prompts at 4 RPS", "5000 ShareGPT prompts") and its
// engine_version ("max_model_len 4096", "--num-scheduler-steps 10").
func shareGPTReplay(c rawCase) (ShareGPTReplay, bool) {
	b, _ := c.BatchSize.(string)
	var p ShareGPTReplay
	m := rePrompts.FindStringSubmatch(c.Scenario)
	if m == nil {
		return p, false
	}
	p.NumPrompts, _ = strconv.Atoi(m[1])
	switch {
	case strings.HasPrefix(b, "online"):
		m := reRate.FindStringSubmatch(b)
		if m == nil {
			return p, false
		}
		p.Arrival = "poisson"
		p.RequestRate, _ = strconv.ParseFloat(m[1], 64)
	case strings.HasPrefix(b, "offline"):
		p.Arrival = "burst"
	default:
		return p, false
	}
	if m := reMaxLen.FindStringSubmatch(c.EngineVersion); m != nil {
		p.MaxModelLen, _ = strconv.Atoi(m[1])
	}
	if m := reSteps.FindStringSubmatch(c.EngineVersion); m != nil {
		p.SchedulerSteps, _ = strconv.Atoi(m[1])
	}
	return p, p.NumPrompts > 0
}

// shareGPTMetrics maps the figures sglang.bench_serving reports to the
// simulator's and the metric each is filed under: the median TTFT
// (ttft_ms, class ttft), the median TPOT, which bench_serving computes
// per request as (latency - ttft) / (output_len - 1) as the simulator
// does (tpot_ms, class decode_step), the median end-to-end latency
// (e2e_latency_ms, class throughput: a request's generation time is its
// output over its token rate, as a static batch's wall time is), and the
// output tokens/s of an offline run (output_tokens_per_s). The request
// rate of an offline run is the output rate over the mean output, from
// which ShareGPTMeanOutput was read, so it is not compared again; nor is
// the median ITL, a gap between streamed chunks the simulator does not
// report (vLLM's multi-step scheduling streams ten tokens at a time, so
// its median ITL is about ten steps).
var shareGPTMetrics = []struct {
	measured, metric string
	predicted        func(*calc.SimulationReport) float64
}{
	{"median_ttft_ms", "ttft_ms", func(s *calc.SimulationReport) float64 { return s.TTFTMs.P50 }},
	{"median_tpot_ms", "tpot_ms", func(s *calc.SimulationReport) float64 { return s.TPOTMs.P50 }},
	{"median_e2e_latency_ms", "e2e_latency_ms", func(s *calc.SimulationReport) float64 { return s.E2ELatencyMs.P50 }},
	{"output_token_throughput_tok_s", "output_tokens_per_s", func(s *calc.SimulationReport) float64 { return s.OutputTokensPerS }},
}

// shareGPTRequest is the simulator request that replays a ShareGPT case
// at coefficient of variation cv: the case's model, GPU, TP and engine
// (vLLM 0.6 runs under the V0 profile, engine_version "0.6"; SGLang 0.3.0
// under "0.3", before the overlap scheduler), its max_model_len where it
// states one, the engine's defaults otherwise, its num_scheduler_steps
// where it states them, and the ShareGPT lengths, arrival and prompts.
func shareGPTRequest(c rawCase, req calc.Request, p ShareGPTReplay, cv float64) calc.Request {
	in, out := ShareGPTLengths(cv)
	req.Engine = EngineProfile(c.Engine)
	if req.Engine == "vllm" || req.Engine == "sglang" {
		req.EngineVersion = CaseVersion(c.EngineVersion)
	}
	if p.MaxModelLen > 0 {
		req.MaxModelLen = calc.Int(p.MaxModelLen)
	}
	if p.SchedulerSteps > 0 {
		req.NumSchedulerSteps = calc.Int(p.SchedulerSteps)
	}
	// The analytic report's workload: the means, rounded.
	req.Workload = &calc.Workload{InputTokens: calc.Int(230), OutputTokens: calc.Int(194)}
	sim := &calc.SimulateOptions{NumRequests: calc.Int(p.NumPrompts), Arrival: p.Arrival, TimelinePoints: calc.Int(0),
		InputTokens: in, OutputTokens: out}
	if p.Arrival == "poisson" {
		sim.RequestRate = calc.Float(p.RequestRate)
	}
	req.Simulate = sim
	return req
}

// evalShareGPT replays a ShareGPT serving case in the simulator (seed 0)
// and returns one result per figure it reports (shareGPTMetrics). The
// results carry no band key: a replay's residual mixes the step model
// with the assumed length spread, so it informs no band; and Replay is
// set so that fits leave them out.
func evalShareGPT(c rawCase, r Result, req calc.Request) ([]Result, error) {
	r.Engine = EngineProfile(c.Engine)
	r.Replay = true
	p, ok := shareGPTReplay(c)
	if !ok {
		r.Comparable, r.Reason = false, "ShareGPT serving case whose arrival or prompt count the harness cannot read"
		return []Result{r}, nil
	}
	req = shareGPTRequest(c, req, p, ShareGPTCV)
	if r.Engine == "vllm" {
		r.Version = req.EngineVersion
	}
	load := "burst"
	if p.Arrival == "poisson" {
		load = "poisson " + strconv.FormatFloat(p.RequestRate, 'g', -1, 64) + "/s"
	}
	desc := modelID(c.Model) + " tp" + strconv.Itoa(r.TP) + " ShareGPT " + strconv.Itoa(p.NumPrompts) + " " + load
	// Within the default work budget: the offline 5000-prompt replays
	// cost about 1.1e6 units (calc.EstimateWork), under calc's 4e6.
	rep, err := calc.Evaluate(req)
	if err != nil {
		return nil, err
	}
	s := rep.Simulation
	var out []Result
	for _, m := range shareGPTMetrics {
		v, ok := measured(c, m.measured)
		if !ok {
			continue
		}
		x := r
		x.Metric, x.Measured, x.Desc = m.metric, v, desc+" ("+m.measured+")"
		switch {
		case s == nil || s.CompletedRequests < p.NumPrompts:
			x.Comparable, x.Reason = false, "the replay did not complete every request"
		default:
			x.Predicted = m.predicted(s)
		}
		out = append(out, x)
	}
	return out, nil
}
