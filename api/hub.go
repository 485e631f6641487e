package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/models"
)

// DefaultHubURL is the Hugging Face Hub.
const DefaultHubURL = "https://huggingface.co"

// maxConfigBytes bounds a config.json read from the Hub (published ones
// are a few KB; multimodal ones with long vision configs tens of KB).
const maxConfigBytes = 1 << 20

// Hub fetches the config.json of a model that is not in the catalog from
// the Hugging Face Hub ({URL}/{id}/resolve/main/config.json), so that the
// API answers for any Hub id as the page and the JavaScript module do. A
// fetched config is kept (models.Register: in memory, the latest
// models.MaxRegistered ids), so each id is fetched once per process or
// worker isolate.
type Hub struct {
	// URL is the Hub's base URL, without a trailing slash
	// (DefaultHubURL; a test points it at a loopback stand-in).
	URL string
	// Token, when set, is sent as "Authorization: Bearer TOKEN": a Hugging
	// Face access token for gated models.
	Token string
	// Get makes the request: GET url (with token as a bearer token when
	// set), answering the status and the body read up to limit bytes.
	// Nil: net/http's client natively (hub_client.go); the worker sets
	// one that calls fetch (wasm/worker/hubfetch.go), since net/http's
	// client would add 1.3 MB of gzip (TLS and the dialers) to it.
	Get func(ctx context.Context, url, token string, limit int64) (status int, body []byte, err error)
}

// HubFromEnv returns the Hub that getenv names: THROUGHPUT_HUB_URL (the
// base URL; "off" or unset: no Hub) and THROUGHPUT_HUB_TOKEN.
func HubFromEnv(getenv func(string) string) *Hub {
	u := strings.TrimRight(strings.TrimSpace(getenv("THROUGHPUT_HUB_URL")), "/")
	if u == "" || u == "off" {
		return nil
	}
	return &Hub{URL: u, Token: strings.TrimSpace(getenv("THROUGHPUT_HUB_TOKEN"))}
}

type hubKey struct{}

// hubOf returns the Hub the handler carries into r's context, or nil.
func hubOf(r *http.Request) *Hub {
	h, _ := r.Context().Value(hubKey{}).(*Hub)
	return h
}

// resolveHubModel makes req.Model known to the engine when it is a Hub id
// outside the catalog and the registered models: it fetches and registers
// the config. Any other request is left alone (the engine answers "unknown
// model" for a name that is not a Hub id). The error is the request's
// field error, in the words the JavaScript module uses too (models.Hub*).
func (h *Hub) resolveHubModel(ctx context.Context, req calc.Request) error {
	id := strings.TrimSpace(req.Model)
	if h == nil || req.ModelConfig != nil || !models.IsHubID(id) {
		return nil
	}
	if _, err := models.Lookup(id); err == nil || !errors.Is(err, models.ErrUnknownModel) {
		return nil
	}
	cfg, err := h.fetchConfig(ctx, id)
	if err != nil {
		return calc.Errors{{Field: "model", Message: "unknown model " + fielderr.Quote(id) + ": " + err.Error()}}
	}
	src := models.Source{URL: h.configURL(id)}
	if _, err := models.Register(id, cfg, src); err != nil {
		return calc.Errors{{Field: "model", Message: "the config.json of " + fielderr.Quote(id) + " from the Hugging Face Hub: " + err.Error()}}
	}
	return nil
}

func (h *Hub) configURL(id string) string { return h.URL + "/" + id + "/resolve/main/config.json" }

// fetchConfig GETs the config.json of id and decodes it.
func (h *Hub) fetchConfig(ctx context.Context, id string) (map[string]any, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	get := h.Get
	if get == nil {
		get = defaultHubGet
	}
	if get == nil {
		return nil, errors.New("this build has no Hub client")
	}
	status, body, err := get(ctx, h.configURL(id), h.Token, maxConfigBytes+1)
	if err != nil {
		return nil, errors.New(models.HubUnreachable)
	}
	if msg := models.HubStatusMessage(status, h.Token != ""); msg != "" {
		return nil, errors.New(msg)
	}
	var cfg map[string]any
	if len(body) > maxConfigBytes || json.Unmarshal(body, &cfg) != nil || cfg == nil {
		return nil, errors.New(models.HubNotAConfig)
	}
	return cfg, nil
}
