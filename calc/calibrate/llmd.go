package calibrate

import (
	"github.com/modelrefs/throughput/calc/spec"
)

// readLLMDReport reads llm-d-benchmark's benchmark report as JSON (its
// BenchmarkReport.export_json, llm-d/llm-d-benchmark
// llmdbenchmark/analysis/benchmark_report/base.py; the YAML form is not
// read: convert it with yaml.safe_load and json.dump). Version "0.1"
// keeps the figures at metrics.{requests,latency,throughput}, "0.2" at
// results.request_performance.aggregate.{requests,latency,throughput};
// each latency statistic carries its units (ms or s, per token for
// TPOT). The load is the standardized workload's (0.2:
// scenario.load.standardized.concurrency or rate_qps; 0.1: none is
// standardized), else a closed loop at the mean number in flight
// (closedByLittle).
func readLLMDReport(path, text string) ([]spec.ServingMeasurement, error) {
	doc, err := decodeDocument(path, text, "llm-d-benchmark's report")
	if err != nil {
		return nil, err
	}
	var r reader
	var agg jv
	var rateKey string
	switch ver := doc.key("version"); ver.str() {
	case "0.1":
		agg, rateKey = doc.key("metrics"), "requests_per_sec"
	case "0.2", "0.2.1":
		agg, rateKey = doc.at("results", "request_performance", "aggregate"), "request_rate"
	default:
		return nil, r.fail(ver.path, "must be \"0.1\", \"0.2\" or \"0.2.1\" (the report schema versions read), got "+quote(ver.str()))
	}
	ms := func(j jv, what string) float64 {
		x := r.need(j.key("mean"), true, what)
		switch u := j.key("units"); u.str() {
		case "ms", "ms/token", "":
			return x
		case "s", "s/token":
			return 1000 * x
		default:
			r.errs.Add(u.path, "must be ms, s, ms/token or s/token, got "+quote(u.str()))
			return 0
		}
	}
	m := spec.ServingMeasurement{Source: "llmd_report"}
	m.InputTokens = r.need(agg.at("requests", "input_length", "mean"), true, "the mean prompt tokens")
	m.OutputTokens = r.need(agg.at("requests", "output_length", "mean"), true, "the mean output tokens")
	m.TTFTMs = ms(agg.at("latency", "time_to_first_token"), "the mean time to first token")
	m.TPOTMs = ms(agg.at("latency", "inter_token_latency|time_per_output_token"), "the mean time per output token after the first")
	rate := agg.at("throughput", rateKey)
	if rate.key("mean").v != nil {
		rate = rate.key("mean")
	}
	m.RequestsPerS = r.need(rate, true, "completed requests per second")
	load := doc.at("scenario", "load", "standardized")
	conc, _ := load.key("concurrency").num()
	qps, _ := load.key("rate_qps").num()
	switch {
	case conc > 0 && conc < 1e18:
		m.Concurrency = conc
	case qps > 0 && qps < 1e18:
		m.RequestRate = qps
	default:
		lat := agg.at("latency", "request_latency")
		var l float64
		if lat.v != nil {
			l = ms(lat, "the mean request latency")
		}
		closedByLittle(&m, l)
	}
	return []spec.ServingMeasurement{m}, r.errs.Err()
}
