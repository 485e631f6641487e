package api

import (
	"net/http"

	"github.com/modelrefs/throughput/calc"
)

// postCalibrate answers POST /v1/calibrate: an evaluate request whose
// calibration holds measurements (typically imports: benchmark result
// files, up to calc.MaxCalibrateBytes in all, beyond the 64 KiB of POST
// /v1/evaluate), answered with the fit alone (the report's calibration
// section), its calibration_profile small enough to send back as
// calibration.profile in any request or link.
func postCalibrate(w http.ResponseWriter, r *http.Request) {
	if p, ok := checkJSONType(r.Header.Get("Content-Type")); !ok {
		writeProblem(w, p)
		return
	}
	body, p, ok := readBodyUpTo(w, r, calc.MaxCalibrateBytes, " (16 MiB + 64 KiB)")
	if !ok {
		writeProblem(w, p)
		return
	}
	req, err := calc.ParseCalibrateRequest(body)
	if err == nil {
		err = hubOf(r).resolveHubModel(r.Context(), req)
	}
	var rep *calc.CalibrationReport
	if err == nil {
		rep, err = calc.Calibrate(req)
	}
	if err != nil {
		writeEngineError(w, err)
		return
	}
	writeFresh(w, r, rep)
}
