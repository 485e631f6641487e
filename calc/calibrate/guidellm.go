package calibrate

import (
	"strconv"

	"github.com/modelrefs/throughput/calc/spec"
)

// readGuideLLM reads GuideLLM's benchmarks report (`guidellm benchmark
// --output-path benchmarks.json`, the GenerativeBenchmarksReport of
// vllm-project/guidellm src/guidellm/benchmark/schemas): benchmarks[i] is
// one run, its strategy at config.strategy (args.strategy in 0.2 and
// 0.3) and its figures at metrics.<name>.successful.mean. The load:
// synchronous is a closed loop of 1, concurrent of strategy.streams,
// constant and poisson an open loop at strategy.rate, throughput (every
// request at once, within max_concurrency) a closed loop at the measured
// mean concurrency (metrics.request_concurrency). TPOT is
// inter_token_latency_ms (excluding the first token, vLLM's TPOT;
// GuideLLM's time_per_output_token_ms includes the first,
// src/guidellm/schemas/request_stats.py).
func readGuideLLM(path, text string) ([]spec.ServingMeasurement, error) {
	doc, err := decodeDocument(path, text, "GuideLLM's benchmarks report")
	if err != nil {
		return nil, err
	}
	bs := doc.key("benchmarks")
	if bs.list() == nil {
		return nil, (&reader{}).fail(bs.path, "is required: the report's list of benchmarks")
	}
	var r reader
	var out []spec.ServingMeasurement
	for i := range bs.list() {
		b := bs.idx(i)
		mean := func(name, what string, positive bool) float64 {
			return r.need(b.at("metrics", name, "successful", "mean"), positive, what)
		}
		m := spec.ServingMeasurement{Source: "guidellm_json benchmarks[" + strconv.Itoa(i) + "]"}
		m.InputTokens = mean("prompt_token_count", "the mean prompt tokens", true)
		m.OutputTokens = mean("output_token_count", "the mean output tokens", true)
		m.TTFTMs = mean("time_to_first_token_ms", "the mean time to first token", true)
		m.TPOTMs = mean("inter_token_latency_ms", "the mean time per output token after the first", true)
		m.RequestsPerS = mean("requests_per_second", "completed requests per second", true)
		st := b.at("config|args", "strategy")
		switch kind := st.key("type_"); kind.str() {
		case "synchronous":
			m.Concurrency = 1
		case "concurrent":
			m.Concurrency = r.need(st.key("streams"), true, "the concurrent strategy's streams")
		case "constant", "poisson":
			m.RequestRate = r.need(st.key("rate"), true, "the strategy's requests per second")
		case "throughput":
			m.Concurrency = max(mean("request_concurrency", "the mean requests in flight", true), 1)
		case "":
			r.errs.Add(kind.path, "is required: synchronous, concurrent, throughput, constant or poisson")
		default:
			r.errs.Add(kind.path, "must be synchronous, concurrent, throughput, constant or poisson (a load the serving model can run), got "+quote(kind.str()))
		}
		out = append(out, m)
	}
	return out, r.errs.Err()
}
