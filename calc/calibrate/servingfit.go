package calibrate

import (
	"math"

	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/spec"
)

// The terms the fit moves, their index in its parameter vector, and
// their bounds: 1/eta with eta, the weights' bandwidth efficiency, in
// [0.05, 1] of datasheet bandwidth; the step overhead in [0, 100] ms; the
// GEMMs' compute efficiency (their ceiling, release.Efficiencies) in
// [0.02, 1] of dense peak.
const (
	pInvEta = iota
	pOverhead
	pCompute
	nParams
)

var (
	paramLo = [nParams]float64{1, 0, 0.02}
	paramHi = [nParams]float64{20, 100, 1}
)

// fit fits the deployment's step-model terms to the measurements, or
// applies a profile's (prof, given alone), and sets them on d.
//
// The terms: the bandwidth efficiency eta of the weights' reads (the
// attention kernels' KV reads scaled with it, keeping the profile's
// ratio: they share the memory system), the step overhead o (with two or
// more batch sizes or loads: one cannot split a fixed cost from a
// per-byte one), and, when a benchmark run states its TTFT, the GEMMs'
// compute efficiency c (the attention kernels' scaled with it likewise),
// which sets the prompt's own step. The per-layer and per-sequence
// overheads and the front end keep the profile's.
//
// The residuals: for a measured decode step (calibration.points,
// bench_serve), r = ln(t / measured) with t the engine's own decode step
// (DecodeStep); for a benchmark run (calibration.imports), one residual a
// figure the run states, ln(model / measured) of TPOT, TTFT and
// completed requests per second, the model being the serving model's
// steady state at the run's load and lengths (Deployment.ServingAt,
// docs/MODEL.md section 5b), so the fitted terms reproduce the serving
// figures, not only the pure decode step. Relative errors, so that
// batch 1 weighs as much as batch 256. Levenberg-Marquardt over (1/eta,
// o, c) (1/eta: the term memory time is linear in), Jacobian by forward
// differences, each term kept within its bounds (paramLo, paramHi).
func fit(d *deploy.Deployment, pts []spec.CalPoint, prof *spec.CalibrationProfile) (*spec.CalibrationReport, error) {
	if prof != nil {
		return applyProfile(d, prof)
	}
	rep := &spec.CalibrationReport{Profile: d.Eff, Points: []spec.CalibrationFitPoint{}}
	if d.Eff.SMBytesPerCycle > 0 {
		// The measured steps say what rate the weights stream at: fit
		// the efficiency of that rate, uncapped, from the capped one
		// (weightBandwidth).
		d.Eff.BandwidthEfficiency = d.WeightBandwidth(d.Eff) / d.Hardware.MemoryBandwidthBytesPerS
		d.Eff.SMBytesPerCycle = 0
	}
	base := d.Eff
	var active [nParams]bool
	active[pInvEta] = true
	loads := map[[2]float64]bool{}
	for _, p := range pts {
		if s := p.Serving; s != nil {
			loads[[2]float64{s.Concurrency, s.RequestRate}] = true
			active[pCompute] = active[pCompute] || s.TTFTMs > 0
		} else {
			loads[[2]float64{float64(p.Batch), 0}] = true
		}
	}
	active[pOverhead] = len(loads) > 1
	rep.Fitted = []string{"bandwidth_efficiency"}
	if active[pOverhead] {
		rep.Fitted = append(rep.Fitted, "step_overhead_ms")
	}
	if active[pCompute] {
		rep.Fitted = append(rep.Fitted, "compute_efficiency")
	}
	set := func(th [nParams]float64) { setTerms(d, base, th) }
	model := func() ([]float64, []spec.ServingFigures) {
		steps := make([]float64, len(pts))
		serv := make([]spec.ServingFigures, len(pts))
		for i, p := range pts {
			if s := p.Serving; s != nil {
				serv[i] = servingFigures(d, s)
			} else {
				steps[i] = 1000 * d.DecodeStep(p.Batch, p.Context).TimeS
			}
		}
		return steps, serv
	}
	resid := func(th [nParams]float64) []float64 {
		set(th)
		steps, serv := model()
		return residuals(pts, steps, serv)
	}
	th := [nParams]float64{1 / base.BandwidthEfficiency, base.StepOverheadMs, base.ComputeEfficiency}
	th = clampParams(th)
	set(th)
	profSteps, profServ := model()
	th, s := levenbergMarquardt(th, active, resid)
	set(th)
	fitSteps, fitServ := model()
	n := 0
	for i, p := range pts {
		if sm := p.Serving; sm != nil {
			rep.Serving = append(rep.Serving, spec.CalibrationServingPoint{
				Source: p.Source, Concurrency: sm.Concurrency, RequestRate: sm.RequestRate,
				InputTokens: int(math.Round(sm.InputTokens)), OutputTokens: int(math.Round(sm.OutputTokens)),
				Measured: spec.ServingFigures{TPOTMs: sm.TPOTMs, TTFTMs: sm.TTFTMs, RequestsPerS: sm.RequestsPerS},
				Profile:  profServ[i], Predicted: fitServ[i],
			})
			n += len(servingResiduals(sm, fitServ[i]))
			continue
		}
		n++
		rep.Points = append(rep.Points, spec.CalibrationFitPoint{
			Source: p.Source, BatchSize: p.Batch, ContextTokens: int(math.Round(p.Context)),
			MeasuredMs: p.TPOTMs, ProfileMs: profSteps[i], PredictedMs: fitSteps[i],
		})
	}
	rep.RMSError = math.Sqrt(s / float64(max(n, 1)))
	rep.Labels = labels(d)
	rep.CalibrationProfile = makeProfile(d, rep, pts, fitSteps, fitServ)
	return rep, nil
}

// setTerms sets d's terms to th, the attention kernels' efficiencies
// scaled with the GEMMs' (their ratio is base's).
func setTerms(d *deploy.Deployment, base spec.Efficiencies, th [nParams]float64) {
	e := d.Eff
	e.BandwidthEfficiency, e.StepOverheadMs, e.ComputeEfficiency = 1/th[pInvEta], th[pOverhead], th[pCompute]
	if base.AttentionBandwidthEfficiency > 0 && base.BandwidthEfficiency > 0 {
		e.AttentionBandwidthEfficiency = min(base.AttentionBandwidthEfficiency*e.BandwidthEfficiency/base.BandwidthEfficiency, 1)
	}
	if base.AttentionEfficiency > 0 && base.ComputeEfficiency > 0 {
		e.AttentionEfficiency = min(base.AttentionEfficiency*e.ComputeEfficiency/base.ComputeEfficiency, 1)
	}
	d.SetEfficiencies(e)
}

// servingFigures is the serving model's TPOT, TTFT and completion rate
// at a benchmark run's load.
func servingFigures(d *deploy.Deployment, s *spec.ServingMeasurement) spec.ServingFigures {
	in, out := max(int(math.Round(s.InputTokens)), 1), max(int(math.Round(s.OutputTokens)), 1)
	conc := 0
	if s.RequestRate <= 0 {
		conc = max(int(math.Round(s.Concurrency)), 1)
	}
	r := d.ServingAt(in, out, conc, s.RequestRate)
	if r == nil {
		return spec.ServingFigures{}
	}
	return spec.ServingFigures{TPOTMs: r.TPOTMs, TTFTMs: r.TTFTMs, RequestsPerS: r.RequestsPerS}
}

// residuals are ln(model / measured) of every measured figure, in the
// points' order (a run's TPOT, TTFT, rate; a step's time). A model
// figure of 0 (no KV block) counts as a large miss.
func residuals(pts []spec.CalPoint, steps []float64, serv []spec.ServingFigures) []float64 {
	var r []float64
	for i, p := range pts {
		if p.Serving != nil {
			r = append(r, servingResiduals(p.Serving, serv[i])...)
			continue
		}
		r = append(r, logRatio(steps[i], p.TPOTMs))
	}
	return r
}

// servingResiduals are ln(model / measured) of the figures a run states:
// TPOT, then TTFT and requests per second when measured.
func servingResiduals(m *spec.ServingMeasurement, f spec.ServingFigures) []float64 {
	r := []float64{logRatio(f.TPOTMs, m.TPOTMs)}
	if m.TTFTMs > 0 {
		r = append(r, logRatio(f.TTFTMs, m.TTFTMs))
	}
	if m.RequestsPerS > 0 {
		r = append(r, logRatio(f.RequestsPerS, m.RequestsPerS))
	}
	return r
}

// logRatio is ln(model / measured); a model figure of 0 or less (no
// steady state) is a miss of ln(1e-6).
func logRatio(model, measured float64) float64 {
	if model <= 0 || measured <= 0 {
		return math.Log(1e-6)
	}
	return math.Log(model / measured)
}

func clampParams(th [nParams]float64) [nParams]float64 {
	for i := range th {
		th[i] = min(max(th[i], paramLo[i]), paramHi[i])
	}
	return th
}

// levenbergMarquardt minimises the sum of squares of resid over the
// active parameters from th, each kept within [paramLo, paramHi]: steps
// solve (A + lambda diag A) delta = -J^T r with A = J^T J, the Jacobian
// J by forward differences; a step that lowers the sum is taken and
// lambda divided by 3, else lambda is multiplied by 4 (stopping past
// 1e8). It returns the parameters and the sum of squares.
func levenbergMarquardt(th [nParams]float64, active [nParams]bool, resid func([nParams]float64) []float64) ([nParams]float64, float64) {
	sum := func(r []float64) float64 {
		var s float64
		for _, x := range r {
			s += x * x
		}
		return s
	}
	r := resid(th)
	s := sum(r)
	lambda := 1e-3
	for it := 0; it < 50 && s > 1e-18; it++ {
		var jac [nParams][]float64
		for k := range nParams {
			if !active[k] {
				continue
			}
			h := 1e-6 * max(math.Abs(th[k]), 1e-2)
			t := th
			t[k] += h
			rk := resid(t)
			jac[k] = make([]float64, len(r))
			for i := range r {
				jac[k][i] = (rk[i] - r[i]) / h
			}
		}
		var a [nParams][nParams]float64
		var g [nParams]float64
		for k := range nParams {
			if jac[k] == nil {
				continue
			}
			for i := range r {
				g[k] += jac[k][i] * r[i]
			}
			for l := range nParams {
				if jac[l] != nil {
					for i := range r {
						a[k][l] += jac[k][i] * jac[l][i]
					}
				}
			}
		}
		for k := range nParams {
			a[k][k] = a[k][k]*(1+lambda) + 1e-30
			g[k] = -g[k]
		}
		delta := solve(a, g)
		next := th
		for k := range nParams {
			if active[k] {
				next[k] += delta[k]
			}
		}
		next = clampParams(next)
		if nr := resid(next); sum(nr) < s {
			th, r, s = next, nr, sum(nr)
			lambda /= 3
		} else {
			lambda *= 4
			if lambda > 1e8 {
				break
			}
		}
	}
	return th, s
}

// solve solves a x = b by Gaussian elimination with partial pivoting (a
// is symmetric positive definite here, its inactive rows the identity's
// scale 1e-30 with b 0, which leaves their x at 0).
func solve(a [nParams][nParams]float64, b [nParams]float64) [nParams]float64 {
	for c := range nParams {
		p := c
		for r := c + 1; r < nParams; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		if a[c][c] == 0 {
			continue
		}
		for r := c + 1; r < nParams; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k < nParams; k++ {
				a[r][k] -= f * a[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	var x [nParams]float64
	for c := nParams - 1; c >= 0; c-- {
		s := b[c]
		for k := c + 1; k < nParams; k++ {
			s -= a[c][k] * x[k]
		}
		if a[c][c] != 0 {
			x[c] = s / a[c][c]
		}
	}
	return x
}

// labels says where the calibrated report's figures come from: the step
// and serving figures are the step model's under fitted terms; memory is
// the start-up log's where one applies (memory.sources), else modelled.
func labels(d *deploy.Deployment) *spec.FigureLabels {
	l := &spec.FigureLabels{Step: "calibrated", Serving: "calibrated", Memory: "modelled"}
	if d.HasStartupLog() {
		l.Memory = "measured"
	}
	return l
}
