// Package evaluate is the evaluation pipeline behind calc.Evaluate: it
// decodes and validates a request (ParseRequest, Validate), resolves its
// deployment and assembles the analytic report (calc/deploy), adds the
// nearest fixes of a deployment that fails, prices the request's work
// against the work budget before running anything, runs the simulation
// when the build links package calc/simulate in, and refuses a report
// holding a figure that is not finite (calc/finite).
//
// It imports calc/spec, calc/release, calc/deploy, calc/finite and the
// leaves; package calc and the planner import it.
package evaluate

import (
	"math"
	"strconv"
)

func itoa(n int) string { return strconv.Itoa(n) }

// round3 rounds to three decimals, for figures in sentences.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
