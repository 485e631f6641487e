package calibrate

import (
	"encoding/csv"
	"math"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/fielderr"
)

// readAIPerfJSON reads AIPerf's profile export (`aiperf profile`:
// profile_export_aiperf.json, ai-dynamo/aiperf aiperf/exporters/
// json_exporter.py). Each metric is an object with its avg: under
// records.<tag> in 0.1 to 0.3 (tags ttft, inter_token_latency, ...), at
// the top level from schema_version 1.0 (time_to_first_token, ...). The
// load is input_config.phases[] (the phase named "profiling": type
// concurrency or request_rate) or, before phases, input_config.loadgen
// (concurrency, request_rate); a file that states neither is read as a
// closed loop at its mean number in flight (closedByLittle). A
// request_rate makes the run an open loop at it (a concurrency beside it
// only caps the connections, docs/benchmark_modes of ai-dynamo/aiperf);
// a concurrency alone a closed loop at it. TPOT is
// inter_token_latency ((request latency - TTFT) / (output tokens - 1),
// vLLM's TPOT).
func readAIPerfJSON(path, text string) ([]spec.ServingMeasurement, error) {
	doc, err := decodeDocument(path, text, "profile_export_aiperf.json")
	if err != nil {
		return nil, err
	}
	metrics := doc
	if doc.key("records").v != nil {
		metrics = doc.key("records")
	}
	var r reader
	avg := func(tag, what string) float64 { return r.need(metrics.at(tag, "avg"), true, what) }
	m := spec.ServingMeasurement{Source: "aiperf_json"}
	m.InputTokens = avg("input_sequence_length", "the mean prompt tokens")
	m.OutputTokens = avg("output_sequence_length", "the mean output tokens")
	m.TTFTMs = avg("time_to_first_token|ttft", "the mean time to first token")
	m.TPOTMs = avg("inter_token_latency", "the mean time per output token after the first")
	m.RequestsPerS = avg("request_throughput", "completed requests per second")
	cfg := doc.key("input_config")
	load := cfg.key("loadgen")
	for i := range cfg.key("phases").list() {
		if p := cfg.key("phases").idx(i); p.key("name").str() == "profiling" {
			load = p
		}
	}
	conc, _ := load.key("concurrency").num()
	rate, _ := load.key("request_rate").num()
	switch {
	case rate > 0 && rate < math.Inf(1):
		// --request-rate, with or without --concurrency (which then
		// only caps the connections): an open loop.
		m.RequestRate = rate
	case conc > 0 && conc < math.Inf(1):
		m.Concurrency = conc
	default:
		closedByLittle(&m, r.opt(metrics.at("request_latency", "avg"), "the mean request latency"))
	}
	return []spec.ServingMeasurement{m}, r.errs.Err()
}

// readAIPerfCSV reads AIPerf's profile export as CSV
// (profile_export_aiperf.csv, aiperf/exporters/csv_exporter.py): a table
// "Metric,avg,min,max,..." of per-request metrics, a blank line, and a
// table "Metric,Value" of run totals. The rows read are "Input Sequence
// Length (tokens)", "Output Sequence Length (tokens)", "Time to First
// Token (ms)", "Inter Token Latency (ms)" and "Request Latency (ms)"
// (their avg column), and "Request Throughput (requests/sec)" (its Value).
// The CSV does not state the load: the run is read as a closed loop at
// its mean number in flight (closedByLittle: throughput x mean latency).
// An error names the row (1-based, as a spreadsheet numbers it) and the
// column.
func readAIPerfCSV(path, text string) ([]spec.ServingMeasurement, error) {
	cr := csv.NewReader(strings.NewReader(text))
	cr.FieldsPerRecord = -1
	rows, err := cr.ReadAll()
	if err != nil {
		return nil, fielderr.New(path, "is not CSV: "+fielderr.Truncate(err.Error()))
	}
	type cell struct {
		row int
		col string
		val string
	}
	found := map[string]cell{}
	var header []string
	for i, row := range rows {
		if len(row) == 0 || (len(row) == 1 && strings.TrimSpace(row[0]) == "") {
			header = nil
			continue
		}
		if header == nil {
			header = row
			continue
		}
		col := "avg"
		if len(header) == 2 && header[1] == "Value" {
			col = "Value"
		}
		for j, h := range header {
			if h == col && j < len(row) {
				found[row[0]] = cell{i + 1, col, row[j]}
			}
		}
	}
	var r reader
	get := func(name, what string, required bool) float64 {
		c, ok := found[name]
		if !ok {
			if required {
				r.errs.Add(path, "has no row "+quote(name)+" ("+what+")")
			}
			return 0
		}
		x, err := strconv.ParseFloat(c.val, 64)
		if err != nil || x <= 0 || x != x || x > 1e300 {
			r.errs.Add(path, "row "+strconv.Itoa(c.row)+" ("+quote(name)+"), column "+quote(c.col)+": must be a number above 0 ("+what+"), got "+quote(c.val))
			return 0
		}
		return x
	}
	m := spec.ServingMeasurement{Source: "aiperf_csv"}
	m.InputTokens = get("Input Sequence Length (tokens)", "the mean prompt tokens", true)
	m.OutputTokens = get("Output Sequence Length (tokens)", "the mean output tokens", true)
	m.TTFTMs = get("Time to First Token (ms)", "the mean time to first token", true)
	m.TPOTMs = get("Inter Token Latency (ms)", "the mean time per output token after the first", true)
	m.RequestsPerS = get("Request Throughput (requests/sec)", "completed requests per second", true)
	closedByLittle(&m, get("Request Latency (ms)", "the mean request latency", false))
	return []spec.ServingMeasurement{m}, r.errs.Err()
}
