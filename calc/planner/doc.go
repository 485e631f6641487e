// Package planner answers a PlanRequest: which deployment to run for a
// model, a workload and a latency budget. It searches accelerators,
// engines, parallel shapes (TP, PP, DP, EP), precisions and scheduler
// settings, aggregated and disaggregated; resolves and costs each
// candidate with the engine's own deployment and step model (calc/deploy,
// through the explicit API of planapi.go: ResolveWith, WithScheduler, the
// block pool, and the serving analysis with a shared step memo), ranks those that meet the
// budget by cost, writes each one's launch command and, on request,
// replays the finalists in the simulator.
//
// It imports calc/spec (the plan request and report types), calc/release
// (the engine profiles), calc/deploy and the leaves; only package calc
// imports it.
package planner

import (
	"math"
	"strconv"
)

func itoa(n int) string { return strconv.Itoa(n) }

// ms converts seconds to milliseconds.
func ms(s float64) float64 { return s * 1000 }

// round3 rounds to three decimals, for figures in sentences.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
