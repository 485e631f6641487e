package calibrate

import (
	"math"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/numtext"
)

// The lines of the summary block that ParseBenchServe reads
// (vllm/benchmarks/serve.py; benchmarks/benchmark_serving.py before
// `vllm bench serve`): the key before the colon, the number after.
const (
	benchHeader  = "Serving Benchmark Result"
	benchReqs    = "Successful requests"
	benchIn      = "Total input tokens"
	benchOut     = "Total generated tokens"
	benchMedTPOT = "Median TPOT (ms)"
	benchTPOT    = "Mean TPOT (ms)"
	benchTTFT    = "Mean TTFT (ms)"
	benchRate    = "Request throughput (req/s)"
)

// parseBenchServe reads the summary blocks of `vllm bench serve` output.
// A "Maximum request concurrency" line printed before a block (as
// benchmark_serving.py did) belongs to it. Text without a block, or a
// block without the lines a step needs, is an error naming them.
func parseBenchServe(text string) ([]spec.BenchResult, error) {
	const field = "calibration.bench_serve"
	if len(text) > spec.MaxStartupLogBytes {
		return nil, fielderr.New(field, "is "+strconv.Itoa(len(text))+" bytes; at most "+strconv.Itoa(spec.MaxStartupLogBytes))
	}
	var blocks []map[string]string
	pre := map[string]string{}
	cur := pre
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.Contains(t, benchHeader):
			cur = pre
			blocks = append(blocks, cur)
			pre = map[string]string{}
			continue
		case t != "" && strings.Trim(t, "=") == "":
			cur = pre // the closing rule: what follows is the next run's
			continue
		}
		if i := strings.IndexByte(t, ':'); i > 0 {
			if f := strings.Fields(t[i+1:]); len(f) > 0 {
				cur[strings.TrimSpace(t[:i])] = f[0]
			}
		}
	}
	if len(blocks) == 0 {
		return nil, fielderr.New(field, "has no \""+benchHeader+"\" block: paste the summary that vllm bench serve prints at the end of a run")
	}
	if len(blocks) > spec.MaxCalibrationPoints {
		return nil, fielderr.New(field, "has "+strconv.Itoa(len(blocks))+" results; at most "+strconv.Itoa(spec.MaxCalibrationPoints))
	}
	out := make([]spec.BenchResult, len(blocks))
	var missing []string
	for i, b := range blocks {
		num := func(keys ...string) float64 {
			for _, k := range keys {
				if v, err := strconv.ParseFloat(b[k], 64); err == nil && v >= 0 && !math.IsInf(v, 0) {
					return v
				}
			}
			return -1
		}
		need := func(name string, v float64) float64 {
			if v <= 0 {
				missing = append(missing, "result "+strconv.Itoa(i+1)+": \""+name+":\"")
			}
			return v
		}
		n := need(benchReqs, num(benchReqs))
		r := spec.BenchResult{TPOTMs: need(benchMedTPOT+" or "+benchTPOT, num(benchMedTPOT, benchTPOT))}
		r.InputTokens = need(benchIn, num(benchIn)) / n
		r.OutputTokens = need(benchOut, num(benchOut)) / n
		switch {
		case num("Concurrency") > 0: // SGLang: measured mean in flight
			r.Concurrency, r.ConcurrencyFrom = num("Concurrency"), "measured"
		case num("Maximum request concurrency", "Max request concurrency") > 0:
			r.Concurrency, r.ConcurrencyFrom = num("Maximum request concurrency", "Max request concurrency"), "max_concurrency"
		default:
			// Little's law: in flight = completion rate x latency, latency =
			// TTFT + TPOT x (output - 1).
			rate, ttft, tpot := need(benchRate, num(benchRate)), need(benchTTFT, num(benchTTFT)), need(benchTPOT, num(benchTPOT))
			r.Concurrency, r.ConcurrencyFrom = rate*(ttft+tpot*max(r.OutputTokens-1, 0))/1000, "littles_law"
		}
		out[i] = r
	}
	if len(missing) > 0 {
		return nil, fielderr.New(field, "lacks the line"+numtext.Plural(len(missing))+" "+strings.Join(missing, ", ")+" of vllm bench serve's summary")
	}
	return out, nil
}
