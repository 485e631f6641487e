// Package deepseekv4 links DeepSeek-V4 (model_type deepseek_v4) into a
// program that imports it: its config reader, quantization and parameter
// model (package models) and its packed, compressed KV-cache layout
// (package kvcache). Its init registers them, as image/png registers its
// decoder with package image:
//
//	import _ "github.com/modelrefs/throughput/models/deepseekv4"
//
// The full engine (wasm/js, -tags planner), the HTTP API, the tools and
// the tests import it. The browser's light engine does not, to keep within
// its size budget: the linker leaves the code out, and a deepseek_v4
// config is refused on model_type, naming the full engine.
package deepseekv4

import (
	"github.com/modelrefs/throughput/kvcache"
	"github.com/modelrefs/throughput/models"
)

func init() {
	models.RegisterDeepSeekV4()
	kvcache.RegisterDeepSeekV4()
}
