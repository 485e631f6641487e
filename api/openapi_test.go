package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/contract"
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
			custom, _ := rt.FieldByName("Custom")
			rt = custom.Type.Elem() // the custom accelerator
		}
		if rt.Kind() != reflect.Struct || seen[rt] {
			return
		}
		seen[rt] = true
		name := contract.TypeName(rt)
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
	assert.Contains(t, example, "serving", "the example workload gives a concurrency: the report has its steady state")

	sim := paths["/v1/simulate"].(map[string]any)["post"].(map[string]any)
	assert.Contains(t, sim["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["example"], "simulate")
	simExample := sim["responses"].(map[string]any)["200"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["example"]
	assert.Contains(t, simExample, "simulation", "the simulate example report has its simulation section")
	assert.Contains(t, simExample, "serving", "and the steady state at the same request rate")
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
	assert.Equal(t, "workload.input_tokens", byKey["input_tokens"].Path)
	assert.Equal(t, "slo.tpot_ms", byKey["tpot_ms"].Path)
	assert.Equal(t, contract.IDOrObject, byKey["hardware"].Kind)
}

func bareAliases(list []contract.Param) []string {
	var out []string
	for _, p := range list {
		if group, leaf, ok := strings.Cut(p.Path, "."); ok && (group == "workload" || group == "slo") {
			out = append(out, leaf)
		}
	}
	return out
}

// Every request type of the contract is strict in the document, the
// custom accelerator's too, and every calc.Fields entry is stated on its
// property: enum, bounds (exclusiveMinimum where the bound is strict),
// default and unit, on the items of an array of numbers.
func TestOpenAPIStatesTheRequestContract(t *testing.T) {
	t.Parallel()
	components := document(t)["components"].(map[string]any)["schemas"].(map[string]any)
	for _, typ := range contract.Request().Types {
		schema, ok := components[typ.Name].(map[string]any)
		require.True(t, ok, "no component %s", typ.Name)
		assert.Equal(t, false, schema["additionalProperties"], "%s must reject unknown keys", typ.Name)
	}
	checked := 0
	for key, spec := range calc.Fields {
		typeName, name, _ := strings.Cut(key, ".")
		prop := components[typeName].(map[string]any)["properties"].(map[string]any)[name].(map[string]any)
		target := prop
		if prop["type"] == "array" {
			target = prop["items"].(map[string]any)
		}
		if len(spec.Enum) > 0 {
			var want []any
			for _, e := range spec.Enum {
				want = append(want, e)
			}
			assert.Equal(t, want, target["enum"], key)
		}
		switch {
		case spec.HasMin && spec.ExclusiveMin:
			assert.Equal(t, spec.Min, target["exclusiveMinimum"], key)
			assert.NotContains(t, target, "minimum", key)
		case spec.HasMin:
			assert.Equal(t, spec.Min, target["minimum"], key)
		default:
			assert.NotContains(t, target, "minimum", key)
		}
		if spec.HasMax {
			assert.Equal(t, spec.Max, target["maximum"], key)
		}
		if spec.Default != nil {
			want, err := json.Marshal(spec.Default)
			require.NoError(t, err)
			got, err := json.Marshal(target["default"])
			require.NoError(t, err)
			assert.JSONEq(t, string(want), string(got), key)
		} else {
			assert.NotContains(t, target, "default", key)
		}
		if spec.Unit != "" {
			assert.Contains(t, prop["description"], "Unit: "+spec.Unit+".", key)
		}
		if spec.DefaultText != "" {
			assert.Contains(t, prop["description"], "Default: "+spec.DefaultText+".", key)
		}
		checked++
	}
	assert.Equal(t, len(calc.Fields), checked)

	request := components["Request"].(map[string]any)["properties"].(map[string]any)
	tp := request["tensor_parallel_size"].(map[string]any)
	assert.Equal(t, "integer", tp["type"])
	assert.Equal(t, 1.0, tp["minimum"])
	assert.Equal(t, 1024.0, tp["maximum"])
	assert.Equal(t, []any{1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0}, request["block_size"].(map[string]any)["enum"], "a power of two: the powers in range")
	assert.Equal(t, 0.0, request["gpu_memory_utilization"].(map[string]any)["exclusiveMinimum"])
	assert.Equal(t, []any{"auto", "bfloat16", "float16", "float32"}, request["dtype"].(map[string]any)["enum"])
	assert.Equal(t, []any{"hardware"}, components["Request"].(map[string]any)["required"])
	assert.Equal(t, []any{"distribution"}, components["LengthDistribution"].(map[string]any)["required"])
	assert.NotContains(t, components["HardwareAccelerator"], "required", "a custom accelerator may leave out its id, name and interconnect")
	assert.Contains(t, components["Report"].(map[string]any)["required"], "fits")
	assert.Equal(t, "object", components["Problem"].(map[string]any)["type"])
}

// The query parameters of GET /v1/evaluate are the request contract's
// scalar paths, each with its field's schema.
func TestOpenAPIQueryParametersAreTheContractsParams(t *testing.T) {
	t.Parallel()
	paths := document(t)["paths"].(map[string]any)
	get := paths["/v1/evaluate"].(map[string]any)["get"].(map[string]any)
	byName := map[string]map[string]any{}
	var names []string
	for _, p := range get["parameters"].([]any) {
		p := p.(map[string]any)
		names = append(names, p["name"].(string))
		byName[p["name"].(string)] = p
	}
	var want []string
	for _, p := range contract.Request().Params("Request") {
		want = append(want, p.Path)
	}
	assert.Equal(t, want, names)
	tp := byName["tensor_parallel_size"]["schema"].(map[string]any)
	assert.Equal(t, 1.0, tp["minimum"])
	assert.Equal(t, 1024.0, tp["maximum"])
	assert.Equal(t, map[string]any{"type": "string"}, byName["hardware"]["schema"], "a catalog id")
	assert.Equal(t, []any{"poisson", "closed_loop", "burst", "trace", "rate_curve"}, byName["simulate.arrival"]["schema"].(map[string]any)["enum"])
	assert.Contains(t, byName["workload.input_tokens"]["description"], "Also accepted as input_tokens.")
	assert.NotContains(t, byName["workload.input_tokens"]["schema"], "description")
}

// TestOpenAPIDocumentMetadata holds the parts that OpenAPI tooling
// (@apidevtools/swagger-parser, @redocly/cli lint: scripts/openapi-check.mjs)
// requires of the document: an SPDX license matching the repository's
// LICENSE, a server, an explicit empty security requirement (no
// credentials), one component per name however it is spelled, and a
// unique operationId per operation.
func TestOpenAPIDocumentMetadata(t *testing.T) {
	t.Parallel()
	doc := document(t)
	license := doc["info"].(map[string]any)["license"].(map[string]any)
	assert.Equal(t, "Apache-2.0", license["identifier"])
	assert.NotContains(t, license, "url", "OpenAPI 3.1: identifier and url are mutually exclusive")
	text, err := os.ReadFile("../LICENSE")
	require.NoError(t, err)
	assert.Contains(t, string(text), "Apache License\n                           Version 2.0, January 2004")
	assert.Equal(t, []any{map[string]any{"url": "/", "description": "The origin that serves this document"}}, doc["servers"])
	assert.Equal(t, []any{}, doc["security"])

	folded := map[string]string{}
	for name := range doc["components"].(map[string]any)["schemas"].(map[string]any) {
		other, dup := folded[strings.ToLower(name)]
		assert.False(t, dup, "components %q and %q differ only in case", name, other)
		folded[strings.ToLower(name)] = name
	}
	assert.Contains(t, folded, "problem")

	ids := map[string]string{}
	for path, item := range doc["paths"].(map[string]any) {
		for method, op := range item.(map[string]any) {
			id, _ := op.(map[string]any)["operationId"].(string)
			require.NotEmpty(t, id, "%s %s", method, path)
			other, dup := ids[id]
			assert.False(t, dup, "operationId %s of %s %s and %s", id, method, path, other)
			ids[id] = method + " " + path
		}
	}
	assert.Equal(t, "getV1ModelsId", operationID("GET /v1/models/{id}"))
	assert.Equal(t, "postV1Simulate", operationID("POST /v1/simulate"))
}

// The report's serving section (docs/MODEL.md section 5b) is in the
// document: a property of Report referring to ServingReport, whose every
// field is described, each time in milliseconds and each rate per second.
func TestOpenAPIServingSchema(t *testing.T) {
	t.Parallel()
	components := document(t)["components"].(map[string]any)["schemas"].(map[string]any)
	report := components["Report"].(map[string]any)
	prop := report["properties"].(map[string]any)["serving"].(map[string]any)
	assert.Contains(t, prop["description"], "steady state")
	assert.Contains(t, fmt.Sprint(prop), "#/components/schemas/ServingReport")
	assert.NotContains(t, report["required"], "serving", "only a workload with a concurrency or a request rate has one")

	serving := components["ServingReport"].(map[string]any)
	assert.Contains(t, serving["description"], "docs/MODEL.md section 5b")
	props := serving["properties"].(map[string]any)
	for _, name := range []string{"concurrency", "request_rate", "input_tokens", "output_tokens", "decode_batch", "prefill_tokens_per_step", "order",
		"decode_step_ms", "tpot_ms", "itl_ms", "ttft_ms", "first_wave_ttft_ms", "queue_ms", "e2e_ms", "requests_per_s", "output_tokens_per_s", "total_tokens_per_s", "saturated", "limited_by"} {
		p, ok := props[name].(map[string]any)
		if !assert.True(t, ok, "ServingReport lacks %s", name) {
			continue
		}
		desc, _ := p["description"].(string)
		assert.NotEmpty(t, desc, name)
		switch {
		case strings.HasSuffix(name, "_ms"):
			assert.Contains(t, desc, "in milliseconds", name)
		case strings.HasSuffix(name, "_per_s"):
			assert.Contains(t, desc, "per second", name)
		}
	}
	assert.Len(t, props, 19, "every field above, no other")
	for _, name := range []string{"concurrency", "tpot_ms", "ttft_ms", "e2e_ms", "requests_per_s", "output_tokens_per_s"} {
		assert.Contains(t, serving["required"], name)
	}
}
