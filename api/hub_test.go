package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/api"
	"github.com/modelrefs/throughput/calc"
)

// hubToken is the token the loopback Hub wants for a gated model.
const hubToken = "hf_test_token"

// standInHub serves testdata/hub/ as the Hub does (tests/hub/server.mjs is
// the same stand-in for the JavaScript suites): a config.json at
// /{id}/resolve/main/config.json, 401 for a gated model without the token,
// 404 for an id it does not hold. hits counts the config requests.
func standInHub(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	dir := filepath.Join("..", "testdata", "hub")
	raw, err := os.ReadFile(filepath.Join(dir, "sources.json"))
	require.NoError(t, err)
	var sources struct {
		Models map[string]struct {
			Gated bool `json:"gated"`
		} `json:"models"`
	}
	require.NoError(t, json.Unmarshal(raw, &sources))
	path := regexp.MustCompile(`^/([\w.-]+/[\w.-]+)/resolve/main/config\.json$`)
	var hits atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		m := path.FindStringSubmatch(r.URL.Path)
		if m == nil {
			http.Error(w, `{"error":"Repository Not Found"}`, http.StatusNotFound)
			return
		}
		src, ok := sources.Models[m[1]]
		switch {
		case !ok:
			http.Error(w, `{"error":"Repository Not Found"}`, http.StatusNotFound)
		case src.Gated && r.Header.Get("Authorization") != "Bearer "+hubToken:
			http.Error(w, `{"error":"Access to model `+m[1]+` is restricted."}`, http.StatusUnauthorized)
		default:
			http.ServeFile(w, r, filepath.Join(dir, m[1], "config.json"))
		}
	}))
	t.Cleanup(ts.Close)
	return ts, &hits
}

// evaluateVia posts body to the API: the worker when THROUGHPUT_API_URL is
// set (./build.sh test runs it with tests/hub/server.mjs as its Hub, no
// token), else handler.
func evaluateVia(t *testing.T, handler http.Handler, body string) (int, calc.Report, problemBody) {
	t.Helper()
	var res *http.Response
	if apiURL != "" {
		res = serve(t, "POST", "/v1/evaluate", jsonHeaders(), body)
	} else {
		req := httptest.NewRequest("POST", "/v1/evaluate", strings.NewReader(body))
		req.Header.Set("Content-Type", typeJSON)
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		res = rec.Result()
	}
	defer res.Body.Close()
	var rep calc.Report
	var prob problemBody
	if res.StatusCode == http.StatusOK {
		require.NoError(t, json.NewDecoder(res.Body).Decode(&rep))
	} else {
		require.NoError(t, json.NewDecoder(res.Body).Decode(&prob))
	}
	return res.StatusCode, rep, prob
}

// TestHubModel: a Hugging Face id outside the catalog is answered from the
// config.json the Hub serves. Qwen/Qwen1.5-MoE-A2.7B (testdata/hub: 24
// layers, 16 KV heads, hidden 2048 / 16 heads = head_dim 128, bfloat16)
// holds 2 x 24 x 16 x 128 x 2 = 196,608 KV bytes per token; its config has
// no head_dim, which the report names. The id is fetched once: the second
// request is answered from the kept config. A gated model without a token
// "needs a token"; an id the Hub does not hold is "no such model on the
// Hub"; a name that is not an owner/name id is not looked up.
func TestHubModel(t *testing.T) {
	hub, hits := standInHub(t)
	h := api.NewWithHub(&api.Hub{URL: hub.URL})
	status, rep, prob := evaluateVia(t, h, `{"model":"Qwen/Qwen1.5-MoE-A2.7B","hardware":"h100-sxm"}`)
	require.Equal(t, http.StatusOK, status, "%+v", prob)
	assert.Equal(t, "Qwen/Qwen1.5-MoE-A2.7B", rep.Model.ID)
	assert.Equal(t, 196608.0, rep.KVCache.BytesPerToken)
	assert.Equal(t, 32768, rep.Model.MaxContext)
	assert.Contains(t, warningsWith(rep, "config_default"), "config.json has no head_dim: using 128, hidden_size / num_attention_heads, as transformers' qwen2_moe config class takes it")
	if apiURL == "" {
		status, _, _ = evaluateVia(t, h, `{"model":"qwen/qwen1.5-moe-a2.7b","hardware":"h100-sxm"}`)
		assert.Equal(t, http.StatusOK, status)
		assert.Equal(t, int64(1), hits.Load(), "one fetch: the second request, in another case, is answered from the kept config")
	}

	for _, c := range []struct{ name, model, message string }{
		{"gated without a token", "google/gemma-2-2b", `unknown model "google/gemma-2-2b": the model is gated or private on the Hugging Face Hub (HTTP 401): it needs a token`},
		{"not on the Hub", "acme/nothing-7b", `unknown model "acme/nothing-7b": no such model on the Hugging Face Hub (HTTP 404)`},
		{"not a Hub id", "quantum-flux-9000", `unknown model "quantum-flux-9000"`},
	} {
		status, _, prob := evaluateVia(t, h, `{"model":"`+c.model+`","hardware":"h100-sxm"}`)
		assert.Equal(t, http.StatusBadRequest, status, c.name)
		assert.Equal(t, calc.Errors{{Field: "model", Message: c.message}}, prob.Errors, c.name)
	}
	if apiURL != "" {
		return // the worker's Hub has no token; the rest needs a local one
	}
	// With a wrong token, the refusal says so.
	status, _, prob = evaluateVia(t, api.NewWithHub(&api.Hub{URL: hub.URL, Token: "hf_wrong"}), `{"model":"google/gemma-2-2b","hardware":"h100-sxm"}`)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, calc.Errors{{Field: "model", Message: `unknown model "google/gemma-2-2b": the Hugging Face Hub refused the token (HTTP 401): the model is gated or private, and the token has no access to it`}}, prob.Errors)
	// With the token, the gated model answers (Gemma 2 2B: 26 layers).
	status, rep, prob = evaluateVia(t, api.NewWithHub(&api.Hub{URL: hub.URL, Token: hubToken}), `{"model":"google/gemma-2-2b","hardware":"h100-sxm"}`)
	require.Equal(t, http.StatusOK, status, "%+v", prob)
	assert.Equal(t, "google/gemma-2-2b", rep.Model.ID)
	assert.Equal(t, 26, rep.Model.Layers)

	// Offline: the Hub's address refuses connections.
	off := httptest.NewServer(http.NotFoundHandler())
	off.Close()
	status, _, prob = evaluateVia(t, api.NewWithHub(&api.Hub{URL: off.URL}), `{"model":"acme/offline-7b","hardware":"h100-sxm"}`)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, `unknown model "acme/offline-7b": the Hugging Face Hub could not be reached (offline?) and no config.json is kept for it`, prob.Errors[0].Message)
	// ... while the model fetched before still answers.
	status, _, _ = evaluateVia(t, api.NewWithHub(&api.Hub{URL: off.URL}), `{"model":"Qwen/Qwen1.5-MoE-A2.7B","hardware":"h100-sxm"}`)
	assert.Equal(t, http.StatusOK, status)
}

// TestHubFromEnv: the worker's settings.
func TestHubFromEnv(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	assert.Nil(t, api.HubFromEnv(env(nil)))
	assert.Nil(t, api.HubFromEnv(env(map[string]string{"THROUGHPUT_HUB_URL": "off"})))
	assert.Equal(t, &api.Hub{URL: "https://huggingface.co", Token: "hf_x"},
		api.HubFromEnv(env(map[string]string{"THROUGHPUT_HUB_URL": "https://huggingface.co/", "THROUGHPUT_HUB_TOKEN": "hf_x"})))
}

func warningsWith(r calc.Report, code string) []string {
	var out []string
	for _, w := range r.Warnings {
		if w.Code == code {
			out = append(out, w.Message)
		}
	}
	return out
}

// TestCheckpointIDIsNotFetched: a checkpoint id the catalog resolves
// (models/checkpoint.go) is answered from the catalog, with its
// checkpoint_resolved warning, and not fetched from the Hub.
func TestCheckpointIDIsNotFetched(t *testing.T) {
	hub, hits := standInHub(t)
	h := api.NewWithHub(&api.Hub{URL: hub.URL})
	status, rep, prob := evaluateVia(t, h, `{"model":"RedHatAI/Qwen3-8B-FP8-dynamic","hardware":"h100-sxm"}`)
	require.Equal(t, http.StatusOK, status, "%+v", prob)
	assert.Equal(t, "RedHatAI/Qwen3-8B-FP8-dynamic", rep.Model.ID)
	assert.Equal(t, "fp8", rep.Model.Quantization)
	assert.Equal(t, []string{"RedHatAI/Qwen3-8B-FP8-dynamic is not in the catalog: modelled as Qwen/Qwen3-8B (its architecture and config.json facts, context length included) with quantization fp8 (read from the suffix -FP8-dynamic)"},
		warningsWith(rep, "checkpoint_resolved"))
	if apiURL != "" {
		return
	}
	assert.Equal(t, int64(0), hits.Load(), "nothing fetched")
	// Without a Hub, a refused id is the model field's error with the
	// reason (with one, it is fetched, as any id the catalog lacks).
	status, _, prob = evaluateVia(t, api.New(), `{"model":"mlx-community/Qwen3-8B-4bit","hardware":"h100-sxm"}`)
	assert.Equal(t, http.StatusBadRequest, status)
	require.Len(t, prob.Errors, 1)
	assert.Equal(t, "model", prob.Errors[0].Field)
	assert.Contains(t, prob.Errors[0].Message, "mlx-lm")
}
