package calibrate

import (
	"math"
	"strconv"

	"github.com/modelrefs/throughput/calc/spec"
)

// points validates the calibration part and returns its
// measured steps; mean is the workload's mean context.
func points(e *spec.Errs, c *spec.Calibration, mean float64) []spec.CalPoint {
	if c == nil {
		return nil
	}
	var pts []spec.CalPoint
	if c.BenchServe != "" {
		rs, err := parseBenchServe(c.BenchServe)
		e.AddErr("", err)
		for i, r := range rs {
			pts = append(pts, spec.CalPoint{Source: "bench_serve " + strconv.Itoa(i+1), Batch: max(int(math.Round(r.Concurrency)), 1), Context: r.InputTokens + r.OutputTokens/2, TPOTMs: r.TPOTMs})
		}
	}
	if len(c.Points) > spec.MaxCalibrationPoints {
		e.Add("calibration.points", "has "+strconv.Itoa(len(c.Points))+" points; at most "+strconv.Itoa(spec.MaxCalibrationPoints))
		return nil
	}
	for i, p := range c.Points {
		path := "calibration.points[" + strconv.Itoa(i) + "]."
		if p.BatchSize == nil {
			e.Add(path+"batch_size", "is required")
		}
		if p.TPOTMs == nil {
			e.Add(path+"tpot_ms", "is required")
		}
		b := e.IntAt(path+"batch_size", "CalibrationPoint.batch_size", p.BatchSize, 0)
		t := e.FloatAt(path+"tpot_ms", "CalibrationPoint.tpot_ms", p.TPOTMs, 0)
		ctx := float64(e.IntAt(path+"context_tokens", "CalibrationPoint.context_tokens", p.ContextTokens, int(math.Round(mean))))
		if b > 0 && t > 0 {
			pts = append(pts, spec.CalPoint{Source: "points[" + strconv.Itoa(i) + "]", Batch: b, Context: ctx, TPOTMs: t})
		}
	}
	if len(c.Imports) > spec.MaxCalibrationPoints {
		e.Add("calibration.imports", "has "+strconv.Itoa(len(c.Imports))+" files; at most "+strconv.Itoa(spec.MaxCalibrationPoints))
		return nil
	}
	for i, imp := range c.Imports {
		ms, err := parseImport("calibration.imports["+strconv.Itoa(i)+"]", imp)
		e.AddErr("", err)
		for j := range ms {
			m := ms[j]
			pts = append(pts, spec.CalPoint{Source: m.Source, Batch: max(int(math.Round(m.Concurrency)), 1), Context: m.InputTokens + m.OutputTokens/2, TPOTMs: m.TPOTMs, Serving: &m})
		}
	}
	if len(pts) > spec.MaxCalibrationPoints {
		e.Add("calibration", "has "+strconv.Itoa(len(pts))+" measurements; at most "+strconv.Itoa(spec.MaxCalibrationPoints))
		return nil
	}
	if c.Profile != nil {
		checkProfile(e, c.Profile)
		if len(pts) > 0 {
			e.Add("calibration.profile", "is applied as it is: give it without bench_serve, points or imports (or drop it to fit the measurements)")
		}
		return nil
	}
	if len(pts) == 0 && e.Err() == nil {
		e.Add("calibration", "has no measurement: give bench_serve (vllm bench serve's summary), points, imports or a profile")
	}
	return pts
}
