package calibrate

import (
	"math"
	"strconv"

	"github.com/modelrefs/throughput/calc/deploy"
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
	if len(pts) == 0 && e.Err() == nil {
		e.Add("calibration", "has no measurement: give bench_serve (vllm bench serve's summary) or points")
	}
	return pts
}

// fit fits the deployment's bandwidth efficiency eta and step
// overhead o to the measured steps, then sets them (d.Eff, the cost
// model; the attention kernels' bandwidth efficiency is scaled with eta,
// keeping the profile's ratio, and the per-layer and per-sequence
// overheads keep the profile's): nonlinear least squares on r_i = ln(t_i(eta, o) / measured_i),
// relative errors so that batch 1 weighs as much as batch 256, where t_i
// is the engine's own decode step (DecodeStep), so the fit follows the
// step model as it is. Levenberg-Marquardt over (1/eta, o), Jacobian by
// finite differences; 1/eta is the term the memory time is linear in.
// With one batch size only eta is fitted (o keeps the profile's: one
// point cannot split a fixed cost from a per-byte one). eta is kept in
// [0.05, 1] (a fraction of datasheet bandwidth) and o in [0, 100] ms.
func fit(d *deploy.Deployment, pts []spec.CalPoint) *spec.CalibrationReport {
	rep := &spec.CalibrationReport{Profile: d.Eff, Fitted: []string{"bandwidth_efficiency"}}
	batches := map[int]bool{}
	for _, p := range pts {
		batches[p.Batch] = true
	}
	two := len(batches) > 1
	if two {
		rep.Fitted = append(rep.Fitted, "step_overhead_ms")
	}
	if d.Eff.SMBytesPerCycle > 0 {
		// The measured steps say what rate the weights stream at: fit
		// the efficiency of that rate, uncapped, from the capped one
		// (weightBandwidth).
		d.Eff.BandwidthEfficiency = d.WeightBandwidth(d.Eff) / d.Hardware.MemoryBandwidthBytesPerS
		d.Eff.SMBytesPerCycle = 0
	}
	prof := d.Eff
	set := func(x, o float64) {
		d.Eff.BandwidthEfficiency, d.Eff.StepOverheadMs = 1/x, o
		// The attention kernels' reads share the memory system: a server
		// whose weight reads reach s times the profile's bandwidth reaches
		// s times on its KV reads too (their ratio is the profile's).
		if prof.AttentionBandwidthEfficiency > 0 {
			d.Eff.AttentionBandwidthEfficiency = min(prof.AttentionBandwidthEfficiency*d.Eff.BandwidthEfficiency/prof.BandwidthEfficiency, 1)
		}
		d.SetEfficiencies(d.Eff)
	}
	times := func() []float64 {
		t := make([]float64, len(pts))
		for i, p := range pts {
			t[i] = 1000 * (d.DecodeStep(p.Batch, p.Context).TimeS)
		}
		return t
	}
	cost := func(x, o float64) (float64, []float64) {
		set(x, o)
		var s float64
		r := make([]float64, len(pts))
		for i, t := range times() {
			r[i] = math.Log(t / pts[i].TPOTMs)
			s += r[i] * r[i]
		}
		return s, r
	}
	clamp := func(x, o float64) (float64, float64) {
		return min(max(x, 1), 20), min(max(o, 0), 100)
	}
	profile := times()
	x, o := clamp(1/d.Eff.BandwidthEfficiency, d.Eff.StepOverheadMs)
	s, r := cost(x, o)
	lambda := 1e-3
	for it := 0; it < 50 && s > 1e-18; it++ {
		// Jacobian columns by forward differences.
		hx, ho := 1e-6*x, 1e-6*max(o, 1)
		_, rx := cost(x+hx, o)
		_, ro := cost(x, o+ho)
		var a11, a12, a22, g1, g2 float64
		for i := range r {
			jx, jo := (rx[i]-r[i])/hx, (ro[i]-r[i])/ho
			if !two {
				jo = 0
			}
			a11 += jx * jx
			a12 += jx * jo
			a22 += jo * jo
			g1 += jx * r[i]
			g2 += jo * r[i]
		}
		// Solve ((A + lambda diag A) delta = -g), 2x2; a zero column
		// (a term the points do not see) stays where it is.
		m11, m22 := a11*(1+lambda)+1e-30, a22*(1+lambda)+1e-30
		det := m11*m22 - a12*a12
		dx, do := (-g1*m22+g2*a12)/det, (-g2*m11+g1*a12)/det
		nx, no := clamp(x+dx, o+do)
		if ns, nr := cost(nx, no); ns < s {
			x, o, s, r = nx, no, ns, nr
			lambda /= 3
		} else {
			lambda *= 4
			if lambda > 1e8 {
				break
			}
		}
	}
	set(x, o)
	fitted := times()
	for i, p := range pts {
		rep.Points = append(rep.Points, spec.CalibrationFitPoint{
			Source: p.Source, BatchSize: p.Batch, ContextTokens: int(math.Round(p.Context)),
			MeasuredMs: p.TPOTMs, ProfileMs: profile[i], PredictedMs: fitted[i],
		})
	}
	rep.RMSError = math.Sqrt(s / float64(len(pts)))
	return rep
}
