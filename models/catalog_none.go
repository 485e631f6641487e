//go:build nocatalog

package models

// catalogData is empty in the browser engine (-tags nocatalog, ./build.sh
// build): the catalog is fetched as catalog.json and installed with
// SetCatalog (docs/model-catalog.md, "The catalog in the browser").
const catalogData = ""
