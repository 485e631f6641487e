// Package catalog embeds the model catalog, the JSON files in this folder
// (one per family), and installs it into package models when a program
// imports it, as package time/tzdata embeds the time-zone database:
//
//	import _ "github.com/modelrefs/throughput/models/catalog"
//
// The HTTP API (and so the edge worker), the tools and the tests import
// it. The browser engines (wasm/js) do not: the JavaScript module fetches
// catalog.json beside the engine and hands it to models.SetCatalog, so
// that the catalog (about 780 KB of JSON) does not count against their
// size budget.
package catalog

import "github.com/modelrefs/throughput/models"

// catalog_data.go holds this folder's entries joined into one array, as a
// string constant (data).
//go:generate go run ../../tools/gen/catalogdata -dir . -o catalog_data.go

func init() { models.EmbedCatalog(data) }
