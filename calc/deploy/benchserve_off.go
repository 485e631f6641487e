//go:build nosim

package deploy

import "github.com/modelrefs/throughput/internal/fielderr"

// ParseBenchServe is not in the browser's light engine (-tags nosim, the
// size budget): the full engine (load({ planner: true })), the HTTP API
// and Go read the summaries; the light engine fits calibration.points.
func ParseBenchServe(string) ([]BenchResult, error) {
	return nil, fielderr.New("calibration.bench_serve", "is read by the full engine (load({ planner: true })); the light engine takes calibration.points")
}
