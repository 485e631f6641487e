package main

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc/contract"
)

// fixtureOptions and fixture (named Dts... in the contract, after this
// package) stand for a request type that gains a field:
// the declaration follows the Go type with nothing written by hand.
type fixtureOptions struct {
	// Retries is how often to try again.
	Retries *int `json:"retries,omitempty"`
}

type fixture struct {
	Name string `json:"name"`
	// NewField is a field added to the type.
	NewField *float64         `json:"new_field,omitempty"`
	Options  *fixtureOptions  `json:"options,omitempty"`
	Tags     []string         `json:"tags"`
	Extra    map[string]int   `json:"extra,omitempty"`
	Free     map[string]any   `json:"free,omitempty"`
	Nested   []fixtureOptions `json:"nested,omitempty"`
	skipped  int
	Dropped  int `json:"-"`
}

// Not parallel: it adds a doc comment to contract.Docs.
func TestGeneratorFollowsTheGoType(t *testing.T) {
	contract.Docs["Dtsfixture.new_field"] = "new_field is a field added to the type."
	c := contract.Of(true, reflect.TypeFor[fixture]())
	out := string(Generate(c.Types))
	assert.Contains(t, out, "export interface Dtsfixture {\n  name: string;\n")
	assert.Contains(t, out, "  /** new_field is a field added to the type. */\n  new_field?: number;\n")
	assert.Contains(t, out, "  options?: DtsfixtureOptions;\n  tags: string[];\n  extra?: { [key: string]: number };\n  free?: { [key: string]: JSONValue };\n  nested?: DtsfixtureOptions[];\n}\n")
	assert.Contains(t, out, "export interface DtsfixtureOptions {\n  retries?: number;\n}\n")
	assert.Contains(t, out, "Unknown keys are rejected.")
	assert.NotContains(t, out, "skipped")
	assert.NotContains(t, out, "Dropped")
}

func TestEnumsBoundsAndDefaultsBecomeTypesAndJSDoc(t *testing.T) {
	t.Parallel()
	out := string(Generate(Types()))
	assert.Contains(t, out, `  kv_cache_dtype?: "auto" | "fp8" | "fp8_e4m3" | "fp8_e5m2" | "bfloat16" | "float16" | "float32";`)
	// Catalog names are literal unions that still take any string.
	assert.Contains(t, out, "  model?: ModelID;\n")
	assert.Contains(t, out, "  hardware: HardwareID | HardwareAccelerator;\n")
	assert.Regexp(t, `(?s)export type ModelID =\n  \| "[^\n]*\n.*  \| "meta-llama/Llama-3\.1-8B-Instruct"\n  \| "Llama-3\.1-8B-Instruct"\n.*  \| "llama-3\.1-8b"\n.*  \| \(string & \{\}\);\n`, out)
	assert.Regexp(t, `(?s)export type HardwareID =\n.*  \| "h100-sxm-80gb"\n.*  \| \(string & \{\}\);\n`, out)
	assert.Equal(t, 1, strings.Count(out, `  | "h100-sxm-80gb"`+"\n"), "each name once")
	assert.Regexp(t, `Range: from 1 to 256; a power of two\.\n   \* Unit: tokens\.\n   \* @default 16\n   \*/\n  block_size\?: number;`, out)
	assert.Contains(t, out, "export interface FieldError {\n")
	assert.Contains(t, out, "export interface Contract {\n")
	// Every referenced interface is declared.
	declared := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^export (?:interface|type) (\w+)`).FindAllStringSubmatch(out, -1) {
		declared[m[1]] = true
	}
	for _, m := range regexp.MustCompile(`(?m)^  \w+\??: (?:string \| )?([A-Z]\w+)(?:\[\])?;`).FindAllStringSubmatch(out, -1) {
		assert.True(t, declared[m[1]] || m[1] == "JSONValue", "%s is not declared", m[1])
	}
}

// www/module/contract.d.ts is the generator's output, and every name
// www/module/throughput.d.ts imports from it is declared there.
func TestDeclarationsAreFresh(t *testing.T) {
	t.Parallel()
	got, err := os.ReadFile("../../../www/module/contract.d.ts")
	require.NoError(t, err)
	require.Equal(t, string(Generate(Types())), string(got), "run go generate ./wasm/js/bridge")
	api, err := os.ReadFile("../../../www/module/throughput.d.ts")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?s)import type \{([^}]*)\} from './contract\.js'`).FindSubmatch(api)
	require.NotNil(t, m, "throughput.d.ts imports the contract types")
	for _, name := range regexp.MustCompile(`(?:^|,)\s*(\w+)`).FindAllStringSubmatch(string(m[1]), -1) {
		assert.Regexp(t, `(?m)^export (interface|type) `+name[1]+`\b`, string(got))
	}
}
