package api

import (
	"errors"
	"github.com/modelrefs/throughput/internal/fielderr"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/calc"
)

// postEvaluate answers POST /v1/evaluate: the engine's request JSON in,
// its report out.
func postEvaluate(w http.ResponseWriter, r *http.Request) {
	if req, ok, err := postedRequest(w, r); ok {
		evaluate(w, r, req, err, writeFresh)
	}
}

// postSimulate answers POST /v1/simulate: the same body as POST
// /v1/evaluate, which must ask for a simulation (simulate); the answer is
// the report with its simulation section.
func postSimulate(w http.ResponseWriter, r *http.Request) {
	req, ok, err := postedRequest(w, r)
	if !ok {
		return
	}
	if err == nil && req.Simulate == nil {
		err = calc.Errors{{Field: "simulate", Message: "is required by POST /v1/simulate (use {} for the defaults); POST /v1/evaluate takes requests without it"}}
	}
	evaluate(w, r, req, err, writeFresh)
}

// postedRequest checks a POST's content type and size and decodes its
// body. ok is false when a problem was already written; err is the
// request's decoding error, answered by evaluate like an engine error.
func postedRequest(w http.ResponseWriter, r *http.Request) (req calc.Request, ok bool, err error) {
	if p, ok := checkJSONType(r.Header.Get("Content-Type")); !ok {
		writeProblem(w, p)
		return req, false, nil
	}
	body, p, ok := readBody(w, r)
	if !ok {
		writeProblem(w, p)
		return req, false, nil
	}
	req, err = calc.ParseRequest(body)
	return req, true, err
}

// getEvaluate answers GET /v1/evaluate?model=...&hardware=...: the query
// becomes the same request a POST would carry (see queryRequest).
func getEvaluate(w http.ResponseWriter, r *http.Request) {
	req, err := queryRequest(r.URL.Query())
	evaluate(w, r, req, err, writeJSON)
}

// evaluate answers a decoded request (or its decoding error) with the
// engine's report, sent by write.
func evaluate(w http.ResponseWriter, r *http.Request, req calc.Request, err error, write func(http.ResponseWriter, *http.Request, any)) {
	var report calc.Report
	if err == nil {
		err = hubOf(r).resolveHubModel(r.Context(), req)
	}
	if err == nil {
		report, err = calc.Evaluate(req)
	}
	if err != nil {
		writeEngineError(w, err)
		return
	}
	write(w, r, report)
}

// checkJSONType accepts application/json with an optional charset, which
// must then be UTF-8 (RFC 8259 section 8.1).
func checkJSONType(contentType string) (problem, bool) {
	if contentType == "" {
		return problemMediaType("Content-Type is missing; send application/json"), false
	}
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "application/json" {
		return problemMediaType("Content-Type " + fielderr.Quote(contentType) + " is not supported; send application/json"), false
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") {
		return problemMediaType("charset " + fielderr.Quote(cs) + " is not supported; JSON must be UTF-8"), false
	}
	return problem{}, true
}

// readBody reads at most calc.MaxRequestBytes of the request body.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, problem, bool) {
	return readBodyUpTo(w, r, calc.MaxRequestBytes, " (64 KiB)")
}

// readBodyUpTo reads at most limit bytes of the request body (unit, the
// limit in words for the 413's detail).
func readBodyUpTo(w http.ResponseWriter, r *http.Request, limit int, unit string) ([]byte, problem, bool) {
	tooLarge := problemTooLarge("the request body is over " + strconv.Itoa(limit) + " bytes" + unit)
	if r.ContentLength > int64(limit) {
		return nil, tooLarge, false
	}
	if r.Body == nil {
		return nil, problem{}, true
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(limit)))
	var maxErr *http.MaxBytesError
	switch {
	case errors.As(err, &maxErr):
		return nil, tooLarge, false
	case err != nil:
		return nil, problemInvalid("could not read the request body: "+err.Error(), nil), false
	}
	return body, problem{}, true
}

// writeEngineError sends the engine's field errors as a 400 problem, and
// anything else as a 500.
func writeEngineError(w http.ResponseWriter, err error) {
	var fe calc.Errors
	if errors.As(err, &fe) {
		detail := "the request has 1 invalid field"
		if len(fe) != 1 {
			detail = "the request has " + strconv.Itoa(len(fe)) + " invalid fields"
		}
		writeProblem(w, problemInvalid(detail+"; errors lists them", fe))
		return
	}
	writeProblem(w, problemInternal("the engine failed: "+err.Error()))
}
