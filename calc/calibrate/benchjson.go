package calibrate

import (
	"math"
	"strconv"

	"github.com/modelrefs/throughput/calc/spec"
)

// readBenchServingJSON reads `vllm bench serve --save-result` files
// (benchmarks/benchmark_serving.py before it; one JSON object a run, the
// keys of vllm/benchmarks/serve.py at v0.10: completed,
// total_input_tokens, total_output_tokens, request_rate ("inf" or a
// number), max_concurrency (null or a number), request_throughput,
// mean_ttft_ms, mean_tpot_ms) and SGLang's bench_serving --output-file
// JSONL (one object a line with the same keys,
// python/sglang/bench_serving.py; Python writes an infinite request_rate
// as Infinity). A run with max_concurrency is a closed loop at it; one
// with a finite request_rate an open loop at it (max_concurrency then
// only caps it); one with neither sent every request at once, read as a
// closed loop at its mean number in flight (closedByLittle).
func readBenchServingJSON(path, format, text string) ([]spec.ServingMeasurement, error) {
	vals, err := decodeJSONValues(path, text)
	if err != nil {
		return nil, err
	}
	var r reader
	var out []spec.ServingMeasurement
	for i, v := range vals {
		run := jv{v, path}
		if len(vals) > 1 {
			run = jv{v, path + "[" + strconv.Itoa(i) + "]"}
		}
		if _, ok := v.(map[string]any); !ok {
			r.errs.Add(run.path, "must be a JSON object (one benchmark run)")
			continue
		}
		n := r.need(run.key("completed"), true, "the completed requests")
		m := spec.ServingMeasurement{Source: format + " run " + strconv.Itoa(i+1)}
		if n > 0 {
			m.InputTokens = r.need(run.key("total_input_tokens"), true, "the prompt tokens of all requests") / n
			m.OutputTokens = r.need(run.key("total_output_tokens"), true, "the output tokens of all requests") / n
		}
		m.TPOTMs = r.need(run.key("mean_tpot_ms"), true, "the mean time per output token")
		m.TTFTMs = r.need(run.key("mean_ttft_ms"), true, "the mean time to first token")
		m.RequestsPerS = r.need(run.key("request_throughput"), true, "completed requests per second")
		conc := r.opt(run.key("max_concurrency"), "the client's concurrency")
		rate, _ := run.key("request_rate").num()
		switch {
		case rate > 0 && !math.IsInf(rate, 1):
			m.RequestRate = rate
		case conc > 0:
			m.Concurrency = conc
		default:
			closedByLittle(&m, r.opt(run.key("mean_e2e_latency_ms"), "the mean request latency"))
		}
		out = append(out, m)
	}
	return out, r.errs.Err()
}
