//go:build nosim

package deploy

import "github.com/modelrefs/throughput/internal/fielderr"

// The browser's light engine (-tags nosim, its size budget) does not read
// start-up logs: the full engine (load({ planner: true })), the HTTP API
// and Go do (startuplog.go). The page evaluates a request with a
// startup_log with the full engine.

// ParseStartupLog refuses in the light engine, naming the field.
func ParseStartupLog(string) (StartupLog, error) {
	return StartupLog{}, fielderr.New("startup_log", "is read by the full engine (load({ planner: true })), not the light one")
}

func (d *Deployment) startupLogReport(*Report, StartupLog) *StartupLogReport { return nil }
