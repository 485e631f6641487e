package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// document returns /openapi.json as a client sees it.
func document(t *testing.T) map[string]any {
	t.Helper()
	rec := httptest.NewRecorder()
	New().ServeHTTP(rec, httptest.NewRequest("GET", "/openapi.json", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &doc))
	return doc
}

// TestOpenAPICoversEngineTypes walks calc.Request and calc.Report by
// reflection and requires every JSON field of every struct they reach to
// be a property of that struct's schema.
func TestOpenAPICoversEngineTypes(t *testing.T) {
	t.Parallel()
	doc := document(t)
	components := doc["components"].(map[string]any)["schemas"].(map[string]any)
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type, path string)
	checked := 0
	walk = func(rt reflect.Type, path string) {
		for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice || rt.Kind() == reflect.Map {
			rt = rt.Elem()
		}
		if rt == reflect.TypeFor[calc.HardwareRef]() {
			rt = reflect.TypeFor[calc.HardwareRef]().Field(1).Type.Elem() // the custom accelerator
		}
		if rt.Kind() != reflect.Struct || seen[rt] {
			return
		}
		seen[rt] = true
		name := rt.Name()
		if pkg := rt.PkgPath(); !strings.HasSuffix(pkg, "/calc") {
			pkg = pkg[strings.LastIndexByte(pkg, '/')+1:]
			name = strings.ToUpper(pkg[:1]) + pkg[1:] + name
		}
		schema, ok := components[name].(map[string]any)
		require.True(t, ok, "%s (%s) has no schema %q", path, rt, name)
		props, _ := schema["properties"].(map[string]any)
		for i := 0; i < rt.NumField(); i++ {
			f := rt.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || tag == "-" {
				continue
			}
			if tag == "" {
				tag = f.Name
			}
			assert.Contains(t, props, tag, "schema %s lacks %s.%s", name, path, tag)
			checked++
			walk(f.Type, path+"."+tag)
		}
	}
	walk(reflect.TypeFor[calc.Request](), "request")
	walk(reflect.TypeFor[calc.Report](), "report")
	assert.Greater(t, checked, 100, "fields checked")

	request := components["Request"].(map[string]any)
	assert.Equal(t, false, request["additionalProperties"], "requests reject unknown keys")
	report := components["Report"].(map[string]any)
	assert.Contains(t, report["required"], "fits")
	assert.NotEmpty(t, report["properties"].(map[string]any)["fits"].(map[string]any)["description"])
}

// TestOpenAPICoversRoutes requires every route, with its method, in paths,
// and the query parameters of GET /v1/evaluate to be the accepted keys.
func TestOpenAPICoversRoutes(t *testing.T) {
	t.Parallel()
	doc := document(t)
	assert.Equal(t, "3.1.0", doc["openapi"])
	assert.Equal(t, calc.Version, doc["info"].(map[string]any)["version"])
	paths := doc["paths"].(map[string]any)
	for _, rt := range routes() {
		method, path, _ := strings.Cut(rt.pattern, " ")
		path = strings.ReplaceAll(path, "...}", "}")
		item, ok := paths[path].(map[string]any)
		require.True(t, ok, "path %s", path)
		op, ok := item[strings.ToLower(method)].(map[string]any)
		require.True(t, ok, "%s %s", method, path)
		assert.NotEmpty(t, op["summary"], rt.pattern)
		assert.Contains(t, op["responses"], "200", rt.pattern)
	}

	get := paths["/v1/evaluate"].(map[string]any)["get"].(map[string]any)
	var names []string
	for _, p := range get["parameters"].([]any) {
		names = append(names, p.(map[string]any)["name"].(string))
	}
	assert.Contains(t, names, "workload.input_tokens")
	assert.Contains(t, names, "slo.tpot_ms")
	assert.Contains(t, names, "gpu_hour_usd")
	assert.NotContains(t, names, "model_config")

	post := paths["/v1/evaluate"].(map[string]any)["post"].(map[string]any)
	example := post["responses"].(map[string]any)["200"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["example"]
	assert.Equal(t, true, example.(map[string]any)["fits"], "the example report is the engine's answer")

	sim := paths["/v1/simulate"].(map[string]any)["post"].(map[string]any)
	assert.Contains(t, sim["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["example"], "simulate")
	simExample := sim["responses"].(map[string]any)["200"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["example"]
	assert.Contains(t, simExample, "simulation", "the simulate example report has its simulation section")
	assert.Contains(t, sim["responses"], "400")
}

func TestPanicBecomesProblem(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /boom", func(http.ResponseWriter, *http.Request) { panic("boom") })
	rec := httptest.NewRecorder()
	(&Handler{mux: mux}).ServeHTTP(rec, httptest.NewRequest("GET", "/boom", nil))
	assert.Equal(t, http.StatusInternalServerError, rec.Code)
	assert.Equal(t, "application/problem+json", rec.Header().Get("Content-Type"))
	assert.Contains(t, rec.Body.String(), "#internal-error")
}

func TestQueryAliasesAreUnambiguous(t *testing.T) {
	t.Parallel()
	byKey, list := queryParams()
	assert.Len(t, byKey, len(list)+len(bareAliases(list)))
	assert.Equal(t, "workload.input_tokens", byKey["input_tokens"].path)
	assert.Equal(t, "slo.tpot_ms", byKey["tpot_ms"].path)
	assert.Equal(t, reflect.String, byKey["hardware"].kind)
}

func bareAliases(list []queryParam) []string {
	var out []string
	for _, p := range list {
		if group, leaf, ok := strings.Cut(p.path, "."); ok && (group == "workload" || group == "slo") {
			out = append(out, leaf)
		}
	}
	return out
}
