//go:build nosim

package deploy

// The browser's light engine (-tags nosim, its size budget) does not fit
// calibrations: the full engine (load({ planner: true })), the HTTP API and
// Go do (calibration_fit.go). The page evaluates a calibrated request with
// the full engine.

// calibrationFields are left out with the fit: the light engine reads no
// calibration field (its JavaScript checks come from the generated
// contract, built natively).
var calibrationFields [0]struct {
	key  string
	spec FieldSpec
}

func resolveCalibration(e *errs, c *Calibration, _ float64) []calPoint {
	if c != nil {
		e.add("calibration", "is fitted by the full engine (load({ planner: true })), not the light one")
	}
	return nil
}

func (d *Deployment) calibrate([]calPoint) *CalibrationReport { return nil }
