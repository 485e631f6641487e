package main

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/internal/jsonx"
	"github.com/modelrefs/throughput/models"
)

// dtsTypes maps the interfaces of www/module/throughput.d.ts to the Go types whose
// JSON they declare.
var dtsTypes = map[string]reflect.Type{
	"FieldError":         reflect.TypeFor[calc.FieldError](),
	"Request":            reflect.TypeFor[calc.Request](),
	"Workload":           reflect.TypeFor[calc.Workload](),
	"SLO":                reflect.TypeFor[calc.SLO](),
	"SweepOptions":       reflect.TypeFor[calc.SweepOptions](),
	"SimulateOptions":    reflect.TypeFor[calc.SimulateOptions](),
	"LengthDistribution": reflect.TypeFor[calc.LengthDistribution](),
	"SimSweepOptions":    reflect.TypeFor[calc.SimSweepOptions](),
	"Accelerator":        reflect.TypeFor[hardware.Accelerator](),
	"PeakFLOPS":          reflect.TypeFor[hardware.PeakFLOPS](),
	"Interconnect":       reflect.TypeFor[hardware.Interconnect](),
	"HardwareSource":     reflect.TypeFor[hardware.Source](),
	"Report":             reflect.TypeFor[calc.Report](),
	"Warning":            reflect.TypeFor[calc.Warning](),
	"ModelInfo":          reflect.TypeFor[calc.ModelInfo](),
	"HardwareInfo":       reflect.TypeFor[calc.HardwareInfo](),
	"Config":             reflect.TypeFor[calc.Config](),
	"Efficiencies":       reflect.TypeFor[calc.Efficiencies](),
	"MemoryReport":       reflect.TypeFor[calc.MemoryReport](),
	"KVCacheReport":      reflect.TypeFor[calc.KVCacheReport](),
	"KVGroup":            reflect.TypeFor[calc.KVGroup](),
	"DecodeReport":       reflect.TypeFor[calc.DecodeReport](),
	"PrefillReport":      reflect.TypeFor[calc.PrefillReport](),
	"BatchCeiling":       reflect.TypeFor[calc.BatchCeiling](),
	"PreemptionReport":   reflect.TypeFor[calc.PreemptionReport](),
	"BestReport":         reflect.TypeFor[calc.BestReport](),
	"SweepPoint":         reflect.TypeFor[calc.SweepPoint](),
	"CostReport":         reflect.TypeFor[calc.CostReport](),
	"SimulationReport":   reflect.TypeFor[calc.SimulationReport](),
	"LatencySummary":     reflect.TypeFor[calc.LatencySummary](),
	"SimTimelinePoint":   reflect.TypeFor[calc.SimTimelinePoint](),
	"SimulationSweep":    reflect.TypeFor[calc.SimulationSweep](),
	"SimSweepPoint":      reflect.TypeFor[calc.SimSweepPoint](),
	"ModelSummary":       reflect.TypeFor[ModelSummary](),
	"ModelDetail":        reflect.TypeFor[ModelDetail](),
	"ModelShape":         reflect.TypeFor[models.Model](),
	"Quantization":       reflect.TypeFor[models.Quantization](),
	"Params":             reflect.TypeFor[models.Params](),
	"ModelSource":        reflect.TypeFor[models.Source](),
	"Stats":              reflect.TypeFor[Stats](),
}

// dtsExtra are fields throughput.js adds to a Go type's JSON.
var dtsExtra = map[string][]string{"Stats": {"wasm_memory_bytes", "js_refs"}}

// TestTypeScriptDeclarationsMatchGo checks that every interface of
// throughput.d.ts mapped above declares exactly the JSON fields of its Go
// type (with those of the interfaces it extends), and that every
// interface is mapped or known to be JS-only.
func TestTypeScriptDeclarationsMatchGo(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../../www/module/throughput.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	decls := parseInterfaces(string(src))
	jsOnly := []string{"CatalogAccelerator", "LoadOptions", "Calculator"}
	for name := range decls {
		if _, ok := dtsTypes[name]; !ok && !slices.Contains(jsOnly, name) {
			t.Errorf("interface %s is not mapped to a Go type in dts_test.go", name)
		}
	}
	for name, typ := range dtsTypes {
		if _, ok := decls[name]; !ok {
			t.Errorf("throughput.d.ts has no interface %s (%v)", name, typ)
			continue
		}
		got := allFields(decls, name)
		want := append(jsonFields(typ), dtsExtra[name]...)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: throughput.d.ts declares %v\nGo %v has %v", name, got, typ, want)
		}
	}
}

type tsInterface struct {
	extends []string
	fields  []string
}

var (
	interfaceRE = regexp.MustCompile(`(?m)^export interface (\w+)(?: extends ([^{]+))? \{\n((?:.*\n)*?)\}`)
	fieldRE     = regexp.MustCompile(`(?m)^  (\w+)\??:`)
	typeArgRE   = regexp.MustCompile(`<[^>]*>`)
)

func parseInterfaces(src string) map[string]tsInterface {
	out := map[string]tsInterface{}
	for _, m := range interfaceRE.FindAllStringSubmatch(src, -1) {
		var d tsInterface
		for _, e := range strings.Split(typeArgRE.ReplaceAllString(m[2], ""), ",") {
			if e = strings.TrimSpace(e); e != "" {
				d.extends = append(d.extends, e)
			}
		}
		for _, f := range fieldRE.FindAllStringSubmatch(m[3], -1) {
			d.fields = append(d.fields, f[1])
		}
		out[m[1]] = d
	}
	return out
}

// allFields lists an interface's fields with its parents', once each.
func allFields(decls map[string]tsInterface, name string) []string {
	d := decls[name]
	fields := slices.Clone(d.fields)
	for _, p := range d.extends {
		for _, f := range allFields(decls, p) {
			if !slices.Contains(fields, f) {
				fields = append(fields, f)
			}
		}
	}
	return fields
}

// jsonFields lists the JSON keys encoding/json writes for a struct,
// embedded structs flattened.
func jsonFields(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, ok := jsonx.FieldName(f)
		switch {
		case !ok:
		case f.Anonymous && f.Tag.Get("json") == "":
			out = append(out, jsonFields(f.Type)...)
		default:
			out = append(out, name)
		}
	}
	return out
}
