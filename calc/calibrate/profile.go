package calibrate

import (
	"math"
	"strconv"

	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/spec"
)

// makeProfile writes a fit as a calibration profile (spec.CalibrationProfile,
// version spec.CalibrationProfileVersion): the deployment, the release,
// the fitted terms, the first spec.MaxProfilePoints points with their
// residuals, and the fit's RMS error. Figures are rounded to 4
// significant digits, which keeps the document small enough for a URL
// and moves no term by more than 0.005 %.
func makeProfile(d *deploy.Deployment, rep *spec.CalibrationReport, pts []spec.CalPoint, steps []float64, serv []spec.ServingFigures) *spec.CalibrationProfile {
	p := &spec.CalibrationProfile{
		Version: spec.CalibrationProfileVersion, Engine: d.Engine.Name, EngineVersion: d.Version.Name,
		Model: deploymentModel(d), Hardware: deploymentHardware(d), TensorParallelSize: d.TP,
		Terms:  terms(d.Eff),
		Fitted: rep.Fitted, RMSError: sig4(rep.RMSError),
	}
	for i, pt := range pts {
		if len(p.Points) == spec.MaxProfilePoints {
			break
		}
		var pp spec.ProfilePoint
		if s := pt.Serving; s != nil {
			pp = spec.ProfilePoint{
				Concurrency: sig4(s.Concurrency), RequestRate: sig4(s.RequestRate),
				Input: int(math.Round(s.InputTokens)), Output: int(math.Round(s.OutputTokens)),
				TPOTMs: sig4(s.TPOTMs), TTFTMs: sig4(s.TTFTMs), RequestsPerS: sig4(s.RequestsPerS),
			}
			for _, r := range servingResiduals(s, serv[i]) {
				pp.Residuals = append(pp.Residuals, sig4(r))
			}
		} else {
			pp = spec.ProfilePoint{Batch: pt.Batch, Input: int(math.Round(pt.Context)), TPOTMs: sig4(pt.TPOTMs),
				Residuals: []float64{sig4(logRatio(steps[i], pt.TPOTMs))}}
		}
		p.Points = append(p.Points, pp)
	}
	return p
}

func terms(e spec.Efficiencies) spec.ProfileTerms {
	return spec.ProfileTerms{
		BandwidthEfficiency: sig4(e.BandwidthEfficiency), AttentionBandwidthEfficiency: sig4(e.AttentionBandwidthEfficiency),
		ComputeEfficiency: sig4(e.ComputeEfficiency), StepOverheadMs: sig4(e.StepOverheadMs),
	}
}

// sig4 rounds x to 4 significant digits.
func sig4(x float64) float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 4, 64), 64)
	return v
}

func deploymentModel(d *deploy.Deployment) string {
	if d.Model == nil {
		return ""
	}
	return d.Model.ID
}

func deploymentHardware(d *deploy.Deployment) string {
	if d.Hardware.ID != "" {
		return d.Hardware.ID
	}
	return d.Hardware.Name
}

// checkProfile checks a profile's own fields (the deployment it names is
// checked against the request's by applyProfile).
func checkProfile(e *spec.Errs, p *spec.CalibrationProfile) {
	const f = "calibration.profile."
	if p.Version != spec.CalibrationProfileVersion {
		e.Add(f+"version", "must be "+strconv.Itoa(spec.CalibrationProfileVersion)+" (the profile version this engine reads), got "+strconv.Itoa(p.Version))
	}
	in := func(name string, x, lo, hi float64) {
		if !(x >= lo && x <= hi) {
			e.Add(f+"terms."+name, "must be within ["+strconv.FormatFloat(lo, 'g', -1, 64)+", "+strconv.FormatFloat(hi, 'g', -1, 64)+"], got "+strconv.FormatFloat(x, 'g', -1, 64))
		}
	}
	in("bandwidth_efficiency", p.Terms.BandwidthEfficiency, 1/paramHi[pInvEta], 1)
	in("attention_bandwidth_efficiency", p.Terms.AttentionBandwidthEfficiency, 0, 1)
	in("compute_efficiency", p.Terms.ComputeEfficiency, paramLo[pCompute], paramHi[pCompute])
	in("step_overhead_ms", p.Terms.StepOverheadMs, paramLo[pOverhead], paramHi[pOverhead])
	if len(p.Points) > spec.MaxProfilePoints {
		e.Add(f+"points", "has "+strconv.Itoa(len(p.Points))+" points; at most "+strconv.Itoa(spec.MaxProfilePoints))
	}
}

// applyProfile sets a profile's terms on d, the deployment it describes
// (the same engine, model, accelerator and tensor-parallel size; another
// release of the engine is taken, its terms being the closest measured).
func applyProfile(d *deploy.Deployment, p *spec.CalibrationProfile) (*spec.CalibrationReport, error) {
	var e spec.Errs
	const f = "calibration.profile."
	same := func(name, got, want string) {
		if got != want {
			e.Add(f+name, "is "+quote(got)+" but the request's is "+quote(want)+": a profile calibrates the deployment it was fitted on")
		}
	}
	same("engine", p.Engine, d.Engine.Name)
	same("model", p.Model, deploymentModel(d))
	same("hardware", p.Hardware, deploymentHardware(d))
	if p.TensorParallelSize != d.TP {
		e.Add(f+"tensor_parallel_size", "is "+strconv.Itoa(p.TensorParallelSize)+" but the request's is "+strconv.Itoa(d.TP)+": a profile calibrates the deployment it was fitted on")
	}
	if err := e.Err(); err != nil {
		return nil, err
	}
	rep := &spec.CalibrationReport{Profile: d.Eff, Points: []spec.CalibrationFitPoint{}, Fitted: []string{"bandwidth_efficiency", "attention_bandwidth_efficiency", "compute_efficiency", "step_overhead_ms"}}
	eff := d.Eff
	eff.BandwidthEfficiency, eff.AttentionBandwidthEfficiency = p.Terms.BandwidthEfficiency, p.Terms.AttentionBandwidthEfficiency
	eff.ComputeEfficiency, eff.StepOverheadMs = p.Terms.ComputeEfficiency, p.Terms.StepOverheadMs
	if rep.Profile.AttentionEfficiency > 0 && rep.Profile.ComputeEfficiency > 0 {
		eff.AttentionEfficiency = min(rep.Profile.AttentionEfficiency*eff.ComputeEfficiency/rep.Profile.ComputeEfficiency, 1)
	}
	eff.SMBytesPerCycle = 0
	d.SetEfficiencies(eff)
	rep.RMSError = p.RMSError
	rep.Labels = labels(d)
	rep.CalibrationProfile = p
	return rep, nil
}
