package api

import (
	"net/http"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/internal/jsonx"
)

// problemTypeBase is where every problem type is documented: the type URI
// is this plus a fragment ("#invalid-request").
const problemTypeBase = "https://github.com/modelrefs/throughput/blob/main/docs/api.md"

// problem is an RFC 9457 problem details object. Errors is the engine's
// list of field errors, an extension member present for invalid requests.
type problem struct {
	// Type is a URI naming the kind of problem; docs/api.md explains it.
	Type string `json:"type"`
	// Title is the kind's short summary, the same for every occurrence.
	Title string `json:"title"`
	// Status is the HTTP status code.
	Status int `json:"status"`
	// Detail explains this occurrence.
	Detail string `json:"detail"`
	// Errors names each bad request field and what is wrong with it.
	Errors calc.Errors `json:"errors,omitempty"`
}

func newProblem(status int, slug, title, detail string, errs calc.Errors) problem {
	return problem{Type: problemTypeBase + "#" + slug, Title: title, Status: status, Detail: detail, Errors: errs}
}

func problemInvalid(detail string, errs calc.Errors) problem {
	return newProblem(http.StatusBadRequest, "invalid-request", "Invalid request", detail, errs)
}

func problemNotFound(detail string) problem {
	return newProblem(http.StatusNotFound, "not-found", "Not found", detail, nil)
}

func problemMethodNotAllowed(detail string) problem {
	return newProblem(http.StatusMethodNotAllowed, "method-not-allowed", "Method not allowed", detail, nil)
}

func problemTooLarge(detail string) problem {
	return newProblem(http.StatusRequestEntityTooLarge, "request-too-large", "Request body too large", detail, nil)
}

func problemMediaType(detail string) problem {
	return newProblem(http.StatusUnsupportedMediaType, "unsupported-media-type", "Unsupported media type", detail, nil)
}

func problemInternal(detail string) problem {
	return newProblem(http.StatusInternalServerError, "internal-error", "Internal error", detail, nil)
}

// writeProblem sends p as application/problem+json. Problems are never
// cached: the next deploy may answer differently.
func writeProblem(w http.ResponseWriter, p problem) {
	body, err := jsonx.Marshal(p)
	if err != nil {
		panic("api: marshal problem: " + err.Error())
	}
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Set("Cache-Control", "no-store")
	h.Del("ETag")
	w.WriteHeader(p.Status)
	_, _ = w.Write(body)
}
