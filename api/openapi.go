package api

import (
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/contract"
	_ "github.com/modelrefs/throughput/calc/contract/docs" // the field docs in the schemas
	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/models"
)

// The OpenAPI 3.1 document is built from the route table and from package
// calc/contract, the one description of the engine's request and report,
// so it cannot drift from them: every JSON field of calc.Request and
// calc.Report is a schema property, described by its Go doc comment
// (calc/contract/docs), with the bounds, enums, defaults and units of
// calc.Fields; every request object rejects unknown keys.

// operation describes one route in /openapi.json.
type operation struct {
	summary     string
	description string
	// params are the operation's parameters (OpenAPI Parameter objects).
	params func() []any
	// body, when set, is the JSON request body's type.
	body reflect.Type
	// result is the 200 answer's type.
	result reflect.Type
	// cached marks a GET with ETag, Cache-Control and 304.
	cached bool
	// problems are the error statuses the route answers with.
	problems []int
	// bodyExample and resultExample return examples.
	bodyExample   func() any
	resultExample func() any
}

// exampleRequest is the request used as the example of both evaluate
// routes; the report example is what the engine answers to it. Its
// workload gives a concurrency, so the example report has its serving
// section (the steady state, docs/MODEL.md section 5b).
func exampleRequest() calc.Request {
	return calc.Request{
		Model:              "meta-llama/Llama-3.1-8B-Instruct",
		Hardware:           calc.HardwareRef{ID: "h100-sxm"},
		TensorParallelSize: calc.Int(1),
		Workload:           &calc.Workload{InputTokens: calc.Int(2048), OutputTokens: calc.Int(512), Concurrency: calc.Int(32)},
		SLO:                &calc.SLO{TPOTMs: calc.Float(50)},
		GPUHourUSD:         calc.Float(2.5),
		Sweep:              &calc.SweepOptions{Points: calc.Int(8)},
	}
}

func exampleReport() any {
	r, err := calc.Evaluate(exampleRequest())
	if err != nil {
		panic("api: the example request is invalid: " + err.Error())
	}
	return r
}

// exampleSimulateRequest is the example of POST /v1/simulate: the
// evaluate example with a small Poisson simulation at the workload's
// request rate (so its serving section and its simulation answer the
// same load).
func exampleSimulateRequest() calc.Request {
	req := exampleRequest()
	req.Sweep = nil
	req.Workload = &calc.Workload{InputTokens: calc.Int(2048), OutputTokens: calc.Int(512), RequestRate: calc.Float(4)}
	req.Simulate = &calc.SimulateOptions{
		NumRequests: calc.Int(200), Arrival: "poisson", RequestRate: calc.Float(4), TimelinePoints: calc.Int(20),
	}
	return req
}

func exampleSimulateReport() any {
	r, err := calc.Evaluate(exampleSimulateRequest())
	if err != nil {
		panic("api: the simulate example request is invalid: " + err.Error())
	}
	return r
}

var (
	postEvaluateDoc = operation{
		summary:     "Evaluate a deployment",
		description: "The engine's request JSON in, its report out. Content-Type must be application/json (UTF-8); bodies over 64 KiB are refused with 413. Answers are not cached.",
		body:        reflect.TypeFor[calc.Request](), result: reflect.TypeFor[calc.Report](),
		problems:    []int{400, 413, 415},
		bodyExample: func() any { return exampleRequest() }, resultExample: exampleReport,
	}
	postSimulateDoc = operation{
		summary:     "Simulate a deployment step by step",
		description: "The same body as POST /v1/evaluate, which must contain simulate (a 400 naming the field simulate otherwise; {} asks for the defaults). The answer is the report with its simulation section: latency percentiles, throughput, preemptions, the timeline, goodput and SLO attainment when the request gives an slo (absent otherwise) and, with simulate.sweep, the load sweep. A simulation costs tens of milliseconds of CPU; answers are not cached.",
		body:        reflect.TypeFor[calc.Request](), result: reflect.TypeFor[calc.Report](),
		problems:    []int{400, 413, 415},
		bodyExample: func() any { return exampleSimulateRequest() }, resultExample: exampleSimulateReport,
	}
	postCalibrateDoc = operation{
		summary:     "Fit a deployment to benchmark results and return its calibration profile",
		description: "The same body as POST /v1/evaluate, up to 16 MiB + 64 KiB, whose calibration holds measurements: imports (vllm bench serve --save-result JSON, SGLang bench_serving JSONL, GuideLLM's benchmarks JSON, AIPerf's profile export JSON or CSV, llm-d-benchmark's report JSON; at most 16 MiB a file), bench_serve or points. The answer is the fit: the terms fitted, each run's measured TPOT, TTFT and rate beside the serving model's, and calibration_profile, a small versioned document to send back as calibration.profile. A file's missing or malformed value is a 400 naming its JSON path or CSV row and column. Answers are not cached.",
		body:        reflect.TypeFor[calc.Request](), result: reflect.TypeFor[calc.CalibrationReport](),
		problems: []int{400, 413, 415},
	}
	postPlanDoc = operation{
		summary:     "Plan a deployment for a workload and a latency budget",
		description: "A model, a workload (request rate or concurrent users, lengths) and a latency budget (TTFT, TPOT) in; out, the deployments that meet it ranked by $ per million output tokens (accelerator, GPUs per replica, TP/PP, weight precision, KV dtype, engine, scheduler settings, replicas, aggregated or disaggregated prefill/decode), each with its launch command and the evaluate request that reproduces it; the cheapest, fewest-GPU and lowest-latency picks; the Pareto frontier; a rejection reason per accelerator. An impossible budget is an answer (feasible false). A search over 32,000 candidates, or a verification over the work budget, is a 400 naming the field. Answers are not cached.",
		body:        reflect.TypeFor[calc.PlanRequest](), result: reflect.TypeFor[calc.PlanReport](),
		problems:    []int{400, 413, 415},
		bodyExample: func() any { return examplePlanRequest() },
	}
	getEvaluateDoc = operation{
		summary:     "Evaluate a deployment from query parameters",
		description: "The same as POST /v1/evaluate with the request given as query parameters: each scalar request field by its JSON path (workload.input_tokens), the fields of workload and slo also without their prefix (input_tokens, tpot_ms). hardware is a catalog id. model_config and custom hardware need a POST. Unknown or repeated parameters are a 400 naming them. Cacheable.",
		params:      evaluateParams, result: reflect.TypeFor[calc.Report](), cached: true,
		problems: []int{400}, resultExample: exampleReport,
	}
	listModelsDoc = operation{
		summary: "List the model catalog", result: reflect.TypeFor[ModelList](), cached: true,
	}
	getModelDoc = operation{
		summary:     "One catalog model with its config.json",
		description: "id is a Hugging Face id with its slash (meta-llama/Llama-3.1-8B-Instruct, sent as is or with %2F), the id without its owner, or an alias; case-insensitive.",
		params:      pathParam("id", "meta-llama/Llama-3.1-8B-Instruct"),
		result:      reflect.TypeFor[models.Entry](), cached: true, problems: []int{404},
	}
	listHardwareDoc = operation{
		summary: "List the accelerator catalog", result: reflect.TypeFor[HardwareList](), cached: true,
	}
	getHardwareDoc = operation{
		summary:     "One catalog accelerator",
		description: "id is a catalog id or any name the engine's hardware lookup accepts (\"H100 SXM\", \"rtx 4090\"); an ambiguous name (\"A100\") is a 404 whose detail lists the candidates.",
		params:      pathParam("id", "h100-sxm-80gb"),
		result:      reflect.TypeFor[hardware.Accelerator](), cached: true, problems: []int{404},
	}
	getOpenAPIDoc = operation{summary: "This document", cached: true}
	healthzDoc    = operation{summary: "Liveness", result: reflect.TypeFor[Health]()}
)

func pathParam(name, example string) func() []any {
	return func() []any {
		return []any{obj{"name": name, "in": "path", "required": true, "schema": obj{"type": "string"}, "example": example}}
	}
}

// evaluateParams lists the query parameters of GET /v1/evaluate: the
// request contract's scalar fields (contract.Params), each with its
// field's schema (type, bounds, enum, default) and doc.
func evaluateParams() []any {
	_, list := queryParams()
	out := make([]any, 0, len(list))
	for _, p := range list {
		f := p.Field
		if f.Kind == contract.IDOrObject {
			f.Value = contract.Value{Kind: contract.String} // a catalog id: figures need a POST
		}
		schema := fieldSchema(f)
		desc, _ := schema["description"].(string)
		delete(schema, "description")
		group, leaf, nested := strings.Cut(p.Path, ".")
		if nested && slices.Contains(bareGroups, group) {
			desc = sentence(desc, "Also accepted as "+leaf+".")
		}
		par := obj{"name": p.Path, "in": "query", "schema": schema}
		if desc != "" {
			par["description"] = desc
		}
		out = append(out, par)
	}
	return out
}

// obj is a JSON object under construction.
type obj = map[string]any

var (
	openAPIOnce sync.Once
	openAPIBody []byte
)

func getOpenAPI(w http.ResponseWriter, r *http.Request) {
	openAPIOnce.Do(func() { openAPIBody = marshal(openAPIDocument()) })
	w.Header().Set("ETag", etag(openAPIBody))
	w.Header().Set("Cache-Control", cacheGET)
	if noneMatch(r.Header.Values("If-None-Match"), etag(openAPIBody)) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(openAPIBody)
}

// openAPIDocument builds the OpenAPI 3.1 document of every route.
func openAPIDocument() obj {
	s := &schemas{components: obj{}}
	s.add(contract.Request()) // first: the request types are strict, the custom accelerator too
	s.add(contract.PlanRequest())
	paths := obj{}
	for _, rt := range routes() {
		method, path, _ := strings.Cut(rt.pattern, " ")
		path = strings.ReplaceAll(path, "...}", "}")
		item, _ := paths[path].(obj)
		if item == nil {
			item = obj{}
			paths[path] = item
		}
		item[strings.ToLower(method)] = s.operation(rt.doc, method+" "+path)
	}
	s.schemaOf(reflect.TypeFor[problem]()) // the component "Problem"
	return obj{
		"openapi": "3.1.0",
		"info": obj{
			"title":       "Throughput API",
			"version":     calc.Version,
			"description": "LLM-serving capacity calculator: memory, KV cache, batch ceiling, throughput, latency and cost of a model on an accelerator under a serving engine's settings. Stateless; every answer is a function of the request and the engine version. CORS is open to any origin without credentials. Errors are application/problem+json (RFC 9457) with an errors member naming the request fields.",
			"license":     obj{"name": "Apache License 2.0", "identifier": "Apache-2.0"},
		},
		// The server is the origin that serves this document (the worker,
		// or any host of api.New); a relative URL resolves against it.
		"servers": []any{obj{"url": "/", "description": "The origin that serves this document"}},
		// No operation needs credentials: an empty requirement list says
		// so explicitly (OpenAPI 3.1, section 4.8.1).
		"security":   []any{},
		"paths":      paths,
		"components": obj{"schemas": s.components},
	}
}

func (s *schemas) operation(op operation, id string) obj {
	o := obj{"summary": op.summary, "operationId": operationID(id)}
	if op.description != "" {
		o["description"] = op.description
	}
	if op.params != nil {
		o["parameters"] = op.params()
	}
	if op.body != nil {
		media := obj{"schema": s.schemaOf(op.body)}
		if op.bodyExample != nil {
			media["example"] = op.bodyExample()
		}
		o["requestBody"] = obj{"required": true, "content": obj{"application/json": media}}
	}
	ok := obj{"schema": obj{"type": "object"}}
	if op.result != nil {
		ok["schema"] = s.schemaOf(op.result)
	}
	if op.resultExample != nil {
		ok["example"] = op.resultExample()
	}
	okResp := obj{"description": "OK", "content": obj{"application/json": ok}}
	responses := obj{"200": okResp}
	if op.cached {
		okResp["headers"] = obj{
			"ETag":          obj{"description": "Strong validator: the engine version and a hash of the body.", "schema": obj{"type": "string"}},
			"Cache-Control": obj{"schema": obj{"type": "string", "const": cacheGET}},
		}
		responses["304"] = obj{"description": "Not modified: If-None-Match named the current ETag."}
	}
	for _, status := range op.problems {
		responses[strconv.Itoa(status)] = problemResponse(status)
	}
	responses["405"] = problemResponse(http.StatusMethodNotAllowed)
	o["responses"] = responses
	return o
}

func problemResponse(status int) obj {
	return obj{
		"description": http.StatusText(status),
		"content": obj{"application/problem+json": obj{
			"schema": obj{"$ref": "#/components/schemas/Problem"},
		}},
	}
}

// operationID turns "GET /v1/models/{id}" into "getV1ModelsId".
func operationID(id string) string {
	var b strings.Builder
	upper := false
	for i, r := range strings.ToLower(id) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if upper && i > 0 {
				r = unicode.ToUpper(r)
			}
			b.WriteRune(r)
			upper = false
		default:
			upper = true
		}
	}
	return b.String()
}
