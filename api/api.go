// Package api is Throughput's HTTP API: the engine's request and report
// over plain net/http. It keeps no state between requests and makes no
// outbound calls, so the same handler runs natively (tests, a local
// server) and inside a Cloudflare Worker (wasm/worker hands it to
// syumai/workers). docs/api.md is the user's guide; GET /openapi.json
// describes every route.
//
// It must not import syscall/js or github.com/syumai/workers.
package api

import (
	// The HTTP API is a full engine: it links the calibration and
	// start-up log readers and the simulator in (each package sets its
	// hook in calc from its init).
	_ "github.com/modelrefs/throughput/calc/calibrate"
	_ "github.com/modelrefs/throughput/calc/simulate"
	// It embeds the model catalog (as time/tzdata embeds the time-zone
	// database): the browser engines fetch catalog.json instead.
	_ "github.com/modelrefs/throughput/models/catalog"
	// It models DeepSeek-V4, which the browser's light engine leaves out.
	_ "github.com/modelrefs/throughput/models/deepseekv4"
	// Its accelerators' sources carry their citation text (GET
	// /v1/catalog), which the browser engines leave out.
	_ "github.com/modelrefs/throughput/hardware/citations"

	"context"
	"net/http"
	"slices"
	"strings"
)

// route is one method and path, its handler and its OpenAPI operation.
// Adding an endpoint is one line in routes.
type route struct {
	// pattern is a net/http ServeMux pattern with its method
	// ("GET /v1/models/{id...}").
	pattern string
	handle  http.HandlerFunc
	// doc describes the operation in /openapi.json.
	doc operation
}

// routes lists every endpoint, in the order /openapi.json lists them.
func routes() []route {
	return []route{
		{"POST /v1/evaluate", postEvaluate, postEvaluateDoc},
		{"GET /v1/evaluate", getEvaluate, getEvaluateDoc},
		{"POST /v1/simulate", postSimulate, postSimulateDoc},
		{"POST /v1/calibrate", postCalibrate, postCalibrateDoc},
		{"POST /v1/plan", postPlan, postPlanDoc},
		{"GET /v1/models", listModels, listModelsDoc},
		{"GET /v1/models/{id...}", getModel, getModelDoc},
		{"GET /v1/hardware", listHardware, listHardwareDoc},
		{"GET /v1/hardware/{id...}", getHardware, getHardwareDoc},
		{"GET /openapi.json", getOpenAPI, getOpenAPIDoc},
		{"GET /healthz", healthz, healthzDoc},
	}
}

// probeMethods are the methods tried to build a 405's Allow header and a
// preflight's Access-Control-Allow-Methods.
var probeMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// CORS: any origin, no credentials (the API reads no cookies).
const (
	corsAllowHeaders  = "Content-Type, If-None-Match"
	corsExposeHeaders = "ETag, Allow"
	// corsMaxAgeSeconds is how long a browser may cache a preflight: one
	// day (browsers clamp it: Chromium to 2 hours, Firefox to 1 day).
	corsMaxAgeSeconds = "86400"
)

// Security headers on every response. The API answers JSON only: nothing
// in it is a document to render, run, frame or refer from.
var securityHeaders = [][2]string{
	{"X-Content-Type-Options", "nosniff"},
	{"Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; sandbox"},
	{"X-Frame-Options", "DENY"},
	{"Referrer-Policy", "no-referrer"},
}

// Handler answers every route of the API.
type Handler struct {
	mux *http.ServeMux
	hub *Hub
}

// New returns the API's handler, which answers for catalog models and
// model_config only.
func New() *Handler { return NewWithHub(nil) }

// NewWithHub returns the API's handler that also answers for Hugging Face
// ids outside the catalog, fetching their config.json from hub (nil: none).
func NewWithHub(hub *Hub) *Handler {
	mux := http.NewServeMux()
	for _, rt := range routes() {
		mux.HandleFunc(rt.pattern, rt.handle)
	}
	return &Handler{mux: mux, hub: hub}
}

// ServeHTTP adds CORS and security headers, answers preflights, turns unmatched paths
// and methods into problem+json 404 and 405, and recovers a handler's
// panic as a 500 so one bad request cannot end the process (or the
// worker's Go instance).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	hdr.Set("Access-Control-Allow-Origin", "*")
	hdr.Set("Access-Control-Expose-Headers", corsExposeHeaders)
	for _, kv := range securityHeaders {
		hdr.Set(kv[0], kv[1])
	}
	tw := &trackingWriter{ResponseWriter: w, head: r.Method == http.MethodHead}
	defer func() {
		if v := recover(); v != nil && !tw.wrote {
			writeProblem(tw, problemInternal("the server failed while answering this request"))
		}
	}()
	if _, pattern := h.mux.Handler(r); pattern != "" {
		if h.hub != nil {
			r = r.WithContext(context.WithValue(r.Context(), hubKey{}, h.hub))
		}
		h.mux.ServeHTTP(tw, r)
		return
	}
	allowed := h.allowed(r)
	switch {
	case len(allowed) == 0:
		writeProblem(tw, problemNotFound("no route for "+r.URL.Path+"; GET /openapi.json lists the routes"))
	case r.Method == http.MethodOptions:
		methods := strings.Join(append(allowed, http.MethodOptions), ", ")
		hdr.Set("Allow", methods)
		if r.Header.Get("Access-Control-Request-Method") != "" {
			hdr.Set("Access-Control-Allow-Methods", methods)
			hdr.Set("Access-Control-Allow-Headers", corsAllowHeaders)
			hdr.Set("Access-Control-Max-Age", corsMaxAgeSeconds)
		}
		hdr.Set("Cache-Control", "public, max-age="+corsMaxAgeSeconds)
		tw.WriteHeader(http.StatusNoContent)
	default:
		methods := strings.Join(append(allowed, http.MethodOptions), ", ")
		hdr.Set("Allow", methods)
		writeProblem(tw, problemMethodNotAllowed(r.Method+" is not allowed on "+r.URL.Path+"; allowed: "+methods))
	}
}

// allowed returns the methods some route accepts on r's path.
func (h *Handler) allowed(r *http.Request) []string {
	var out []string
	probe := r.Clone(r.Context())
	for _, m := range probeMethods {
		probe.Method = m
		if _, pattern := h.mux.Handler(probe); pattern != "" && !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// trackingWriter records whether a response has started, so the panic
// handler knows whether it may still write a 500, and drops the body of
// an answer to HEAD (net/http's server does so too; other adapters, such
// as the worker's, may not).
type trackingWriter struct {
	http.ResponseWriter
	wrote bool
	head  bool
}

func (w *trackingWriter) WriteHeader(code int) {
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *trackingWriter) Write(b []byte) (int, error) {
	w.wrote = true
	if w.head {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController and http.MaxBytesReader reach the
// underlying writer.
func (w *trackingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
