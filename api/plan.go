package api

import (
	"net/http"

	"github.com/modelrefs/throughput/calc"
)

// postPlan answers POST /v1/plan: a model, a workload and a latency
// budget in, the deployments that meet it out (calc.Plan).
func postPlan(w http.ResponseWriter, r *http.Request) {
	if p, ok := checkJSONType(r.Header.Get("Content-Type")); !ok {
		writeProblem(w, p)
		return
	}
	body, p, ok := readBody(w, r)
	if !ok {
		writeProblem(w, p)
		return
	}
	req, err := calc.ParsePlanRequest(body)
	var report calc.PlanReport
	if err == nil {
		report, err = calc.Plan(req)
	}
	if err != nil {
		writeEngineError(w, err)
		return
	}
	writeFresh(w, r, report)
}

// examplePlanRequest is the OpenAPI example of POST /v1/plan.
func examplePlanRequest() calc.PlanRequest {
	return calc.PlanRequest{
		Model:       "meta-llama/Llama-3.1-8B-Instruct",
		Workload:    calc.PlanWorkload{RequestRate: calc.Float(20), InputTokens: calc.Int(2048), OutputTokens: calc.Int(500)},
		SLO:         calc.PlanSLO{TTFTMs: calc.Float(1000), TPOTMs: calc.Float(50)},
		Constraints: &calc.PlanConstraints{Accelerators: []string{"h100-sxm-80gb", "l40s", "a100-sxm-80gb"}},
		Limit:       calc.Int(3),
	}
}
