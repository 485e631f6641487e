// Package citations holds the text of every citation of the accelerator
// catalog's sources and fills them in when a program imports it, as
// package time/tzdata embeds the time-zone database:
//
//	import _ "github.com/modelrefs/throughput/hardware/citations"
//
// Without it each Source.Citation is empty. The HTTP API (and so the edge
// worker and GET /v1/catalog), the tools and the tests import it. The
// browser engines (wasm/js) do not, to keep within their size budget: the
// JavaScript module restores each accelerator's sources from
// hardware-sources.js, which tools/gen/hwcites writes from the same text.
package citations

import "github.com/modelrefs/throughput/hardware"

func init() { hardware.RegisterCitations(bySource) }
