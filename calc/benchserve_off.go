//go:build nosim

package calc

import "github.com/modelrefs/throughput/internal/fielderr"

// BenchResult is what one `vllm bench serve` summary block states.
type BenchResult struct {
	Concurrency               float64
	ConcurrencyFrom           string
	InputTokens, OutputTokens float64
	TPOTMs                    float64
}

// ParseBenchServe is not in the browser's light engine (-tags nosim, the
// size budget): the full engine (load({ planner: true })), the HTTP API
// and Go read the summaries; the light engine fits calibration.points.
func ParseBenchServe(string) ([]BenchResult, error) {
	return nil, fielderr.New("calibration.bench_serve", "is read by the full engine (load({ planner: true })); the light engine takes calibration.points")
}
