// Package bridge is the Throughput engine's bridge to JavaScript: compiled
// to WebAssembly (GOOS=js GOARCH=wasm), it publishes the functions
// www/module/throughput.js calls (Main). Every call takes and returns JSON
// text (a report also as a tape: tape.go), so the Request/Report schema of
// package calc is the contract on both sides.
//
// Two main packages build it: wasm/js/light (throughput.wasm, the light
// engine the page and the widget start with) imports this package alone;
// wasm/js/full (throughput-planner.wasm) also imports calc/simulate and
// calc/calibrate, and turns on plan() and the report sections only they
// fill (ExportPlan, WriteFullSections). What the light engine leaves out
// it leaves out by not importing or not calling it: the linker drops it.
//
// It also holds the JSON types the bridge answers with beside calc's
// request and report: model summaries, memory figures and the engine's
// tables (Contract), which the TypeScript generator (tools/gen/dts)
// describes from calc/contract like the request and the report.
package bridge

import (
	"reflect"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/contract"
	"github.com/modelrefs/throughput/models"
)

// ModelSummary is what the bridge says about a model without a deployment:
// the report's model section plus its KV cache cost on one GPU (tensor
// parallel size 1), as the engine derives it.
type ModelSummary struct {
	calc.ModelInfo
	// Family is the catalog family ("Llama 3.1").
	Family string `json:"family,omitempty"`
	// Aliases are the catalog's other names for the model.
	Aliases []string `json:"aliases,omitempty"`
	// KVBytesPerToken is one token's KV cache over all layers at the
	// model dtype (kv_cache_dtype "auto"), in bytes.
	KVBytesPerToken float64 `json:"kv_bytes_per_token"`
	// KVBytesPerTokenFP8 is the same with kv_cache_dtype "fp8", in bytes.
	KVBytesPerTokenFP8 float64 `json:"kv_bytes_per_token_fp8"`
	// StateBytesPerSequence is the constant Mamba/linear-attention state of
	// one sequence over all layers, in bytes (0 for pure attention models).
	StateBytesPerSequence float64 `json:"state_bytes_per_sequence,omitempty"`
	// KVGroups are the layer groups of the paged cache.
	KVGroups []calc.KVGroup `json:"kv_groups"`
}

// ModelDetail is one model in full: the summary, the shape and parameter
// breakdown the engine derived, and for catalog models the config.json
// and where it came from.
type ModelDetail struct {
	ModelSummary
	// Shape is the architecture the engine derived from the config.
	Shape *models.Model `json:"shape"`
	// Source is where a catalog model's config.json was read.
	Source *models.Source `json:"source,omitempty"`
	// Config is a catalog model's config.json.
	Config map[string]any `json:"config,omitempty"`
}

// Stats is the Go heap as runtime.ReadMemStats reports it, in bytes.
type Stats struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	HeapAllocBytes  uint64 `json:"heap_alloc_bytes"`
	HeapSysBytes    uint64 `json:"heap_sys_bytes"`
	HeapObjects     uint64 `json:"heap_objects"`
	SysBytes        uint64 `json:"sys_bytes"`
	TotalAllocBytes uint64 `json:"total_alloc_bytes"`
	NumGC           uint32 `json:"num_gc"`
}

// Contract is what the engine says about its request beyond the JSON
// types: the engines with their defaults, the values of the enumerated
// fields, and every request field's bounds, default and unit. A user
// interface fills its controls from it instead of repeating the engine's
// tables.
type Contract struct {
	// Version is the engine version (calc.Version).
	Version string `json:"version"`
	// DefaultEngine is the engine a request without one gets.
	DefaultEngine string `json:"default_engine"`
	// Engines are the engine profiles, the default first.
	Engines []EngineProfile `json:"engines"`
	// Dtypes are the values of dtype.
	Dtypes []string `json:"dtypes"`
	// KVCacheDtypes are the values of kv_cache_dtype.
	KVCacheDtypes []string `json:"kv_cache_dtypes"`
	// Quantizations are the values of quantization.
	Quantizations []string `json:"quantizations"`
	// BlockSizes are the values of block_size, in tokens.
	BlockSizes []int `json:"block_sizes"`
	// Arrivals are the values of simulate.arrival.
	Arrivals []string `json:"arrivals"`
	// Distributions are the values of a length distribution's
	// distribution.
	Distributions []string `json:"distributions"`
	// Fields are the request fields that have bounds, values, a default
	// or a unit, by JSON path ("gpu_memory_utilization",
	// "workload.input_tokens", "simulate.sweep.request_rates").
	Fields map[string]FieldBounds `json:"fields"`
	// HubMessages are the words that say why a model could not be had
	// from the Hugging Face Hub.
	HubMessages HubMessages `json:"hub_messages"`
}

// HubMessages are the engine's words for why a model could not be had
// from the Hugging Face Hub (package models' Hub* constants, which the API
// answers with), so that throughput.js, which fetches from the Hub in the
// browser, says the same. "{status}" stands for the HTTP status of the
// Hub's answer.
type HubMessages struct {
	// Unreachable is the reason when the request failed and no
	// config.json is kept.
	Unreachable string `json:"unreachable"`
	// NotAConfig is the reason when the answer is not a JSON object of
	// at most 1 MiB.
	NotAConfig string `json:"not_a_config"`
	// TokenRefused is the reason for HTTP 401 or 403 to a request with a
	// token.
	TokenRefused string `json:"token_refused"`
	// NeedsToken is the reason for HTTP 401 or 403 to a request without
	// a token.
	NeedsToken string `json:"needs_token"`
	// NotFound is the reason for HTTP 404.
	NotFound string `json:"not_found"`
	// Status is the reason for any other status but 200.
	Status string `json:"status"`
}

// EngineProfile is one engine: its request value, display name and the
// values its settings take when a request leaves them out.
type EngineProfile struct {
	// Name is the request's engine value ("vllm").
	Name string `json:"name"`
	// Label is the engine's display name ("vLLM (V1 engine)").
	Label string `json:"label"`
	// Defaults are the engine's values of the omitted settings.
	Defaults calc.EngineDefaults `json:"defaults"`
}

// FieldBounds is one request field's entry of calc.Fields as JSON.
type FieldBounds struct {
	// Kind is the field's JSON kind (contract.Kind: "integer", "number",
	// "string", "array", ...). For an array the bounds hold for each item.
	Kind string `json:"kind"`
	// Min and Max bound a number when present.
	Min *float64 `json:"min,omitempty"`
	Max *float64 `json:"max,omitempty"`
	// ExclusiveMin makes the lower bound strict (the value must be
	// greater than min).
	ExclusiveMin bool `json:"exclusive_min,omitempty"`
	// PowerOfTwo restricts an integer to powers of two.
	PowerOfTwo bool `json:"power_of_two,omitempty"`
	// Enum lists a string's accepted values.
	Enum []string `json:"enum,omitempty"`
	// Default is the value an omitted field takes, when it is a constant.
	Default any `json:"default,omitempty"`
	// DefaultText says how the default is chosen when it depends on other
	// fields or on the engine.
	DefaultText string `json:"default_text,omitempty"`
	// Unit is the number's unit ("tokens", "ms").
	Unit string `json:"unit,omitempty"`
}

// Types are the bridge's JSON types, for the TypeScript generator.
func Types() []reflect.Type {
	return []reflect.Type{
		reflect.TypeFor[ModelSummary](), reflect.TypeFor[ModelDetail](),
		reflect.TypeFor[Stats](), reflect.TypeFor[Contract](),
	}
}

// NewContract builds the engine's tables from calc: its engine profiles,
// its value lists and calc.Fields joined to the request's JSON paths by
// package contract.
func NewContract() Contract {
	c := Contract{
		Version:       calc.Version,
		DefaultEngine: calc.DefaultEngine,
		Dtypes:        calc.Dtypes,
		KVCacheDtypes: calc.KVCacheDtypes,
		Quantizations: models.QuantizationNames(),
		BlockSizes:    calc.BlockSizes(),
		Arrivals:      calc.Arrivals,
		Distributions: calc.Distributions,
		Fields:        map[string]FieldBounds{},
		HubMessages: HubMessages{
			Unreachable: models.HubUnreachable, NotAConfig: models.HubNotAConfig,
			TokenRefused: models.HubTokenRefused, NeedsToken: models.HubNeedsToken,
			NotFound: models.HubNotFound, Status: models.HubStatus,
		},
	}
	for _, e := range calc.Engines() {
		c.Engines = append(c.Engines, EngineProfile{Name: e.Name, Label: e.Label, Defaults: e.Defaults()})
	}
	req := contract.Request()
	var walk func(t *contract.Type, prefix string)
	walk = func(t *contract.Type, prefix string) {
		for _, f := range t.Fields {
			path := prefix + f.Name
			if f.Kind == contract.Object || f.Kind == contract.IDOrObject {
				// a custom accelerator's figures too: hardware.memory_bytes
				walk(req.Type(f.Ref), path+".")
				continue
			}
			if f.Kind == contract.Array && f.Elem != nil && f.Elem.Kind == contract.Object {
				walk(req.Type(f.Elem.Ref), path+"[].") // calibration.points[].batch_size
				continue
			}
			if _, ok := calc.Fields[t.Name+"."+f.Name]; ok {
				c.Fields[path] = bounds(f)
			}
		}
	}
	walk(req.Type("Request"), "")
	return c
}

func bounds(f contract.Field) FieldBounds {
	s := f.Spec
	b := FieldBounds{
		Kind: string(f.Kind), ExclusiveMin: s.ExclusiveMin, PowerOfTwo: s.PowerOfTwo,
		Enum: s.Enum, Default: s.Default, DefaultText: s.DefaultText, Unit: s.Unit,
	}
	if s.HasMin {
		b.Min = &s.Min
	}
	if s.HasMax {
		b.Max = &s.Max
	}
	return b
}
