package api

import (
	"errors"
	"net/http"
	"strings"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/models"
)

// ModelSummary is one model of GET /v1/models: a catalog entry without its
// config.json (GET /v1/models/{id} has it).
type ModelSummary struct {
	ID              string        `json:"id"`
	Name            string        `json:"name"`
	Family          string        `json:"family,omitempty"`
	Base            string        `json:"base,omitempty"`
	Aliases         []string      `json:"aliases,omitempty"`
	PublishedParams float64       `json:"published_params,omitempty"`
	Source          models.Source `json:"source"`
}

// ModelList is the answer of GET /v1/models.
type ModelList struct {
	// Version is the engine version whose catalog this is.
	Version string         `json:"version"`
	Models  []ModelSummary `json:"models"`
}

// HardwareList is the answer of GET /v1/hardware.
type HardwareList struct {
	// Version is the engine version whose catalog this is.
	Version  string                 `json:"version"`
	Hardware []hardware.Accelerator `json:"hardware"`
}

// Health is the answer of GET /healthz.
type Health struct {
	Status  string `json:"status"`
	Version string `json:"version"`
}

func listModels(w http.ResponseWriter, r *http.Request) {
	entries, err := models.Catalog()
	if err != nil {
		writeProblem(w, problemInternal("the model catalog failed to load: "+err.Error()))
		return
	}
	list := ModelList{Version: calc.Version, Models: make([]ModelSummary, len(entries))}
	for i, e := range entries {
		list.Models[i] = ModelSummary{
			ID: e.ID, Name: e.Name, Family: e.Family, Base: e.Base, Aliases: e.Aliases,
			PublishedParams: e.PublishedParams, Source: e.Source,
		}
	}
	writeJSON(w, r, list)
}

// getModel answers GET /v1/models/{id}: the id may contain its slash
// ("meta-llama/Llama-3.1-8B-Instruct") or be any name models.Lookup
// accepts (case-insensitive id, id without owner, alias).
func getModel(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	e, err := models.LookupEntry(id)
	var unknown *models.UnknownModelError
	switch {
	case errors.As(err, &unknown):
		writeProblem(w, problemNotFound(err.Error()))
	case strings.TrimSpace(id) == "":
		writeProblem(w, problemNotFound("no model id given; GET /v1/models lists them"))
	case err != nil:
		writeProblem(w, problemInternal("the model catalog failed to load: "+err.Error()))
	default:
		writeJSON(w, r, e)
	}
}

func listHardware(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, r, HardwareList{Version: calc.Version, Hardware: hardware.Catalog()})
}

// getHardware answers GET /v1/hardware/{id}: any name hardware.Lookup
// accepts; an ambiguous name is a 404 whose detail lists the candidates.
func getHardware(w http.ResponseWriter, r *http.Request) {
	a, err := hardware.Lookup(r.PathValue("id"))
	if err != nil {
		writeProblem(w, problemNotFound(err.Error()))
		return
	}
	writeJSON(w, r, a)
}

func healthz(w http.ResponseWriter, r *http.Request) {
	writeFresh(w, r, Health{Status: "ok", Version: calc.Version})
}
