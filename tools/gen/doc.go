// Package gen holds no code: its directories are the programs that write
// the repository's generated files, each run by a go:generate directive
// (its file in parentheses) in the package it writes into. `./build.sh
// generate` (go generate ./...) runs them all:
//
//   - catalogdata (models/catalog/catalog.go): models/catalog/catalog_data.go,
//     from models/catalog/*.json; `./build.sh build` also runs it with -json to
//     write build/npm/catalog.json, the catalog the browser engine fetches;
//   - dts (wasm/js/bridge/schema.go): www/module/contract.d.ts, the TypeScript
//     declarations of the engine's JSON contract, from calc/contract;
//   - fielddocs (calc/contract/docs/doc.go): calc/contract/docs/docs_gen.go,
//     the contract's field docs, from the Go source of calc, models,
//     hardware, api and wasm/js;
//   - hwcites (hardware/catalog.go): hardware/citations_gen.go, the
//     citation keys the catalog's entries name, hardware/citations/
//     citations.go and table_gen.go, their text (linked in by importing
//     package hardware/citations), and www/module/hardware-sources.js, each
//     accelerator's sources for the JavaScript module;
//   - hwdocs (hardware/catalog.go): the accelerator section of
//     docs/model-catalog.md (between its markers), from the hardware
//     catalog;
//   - jstables (wasm/js/bridge/schema.go): wasm/js/bridge/tables_gen.go, the JSON tables
//     the JavaScript bridge hands throughput.js (the request schema, the
//     contract), as Go string constants;
//   - reportjson (api/jsonwriter.go): api/report_json.go, the API's JSON
//     encoder of calc.Report, and its fixture's encoder and types
//     (api/fixture_*_test.go);
//   - tape (wasm/js/bridge/tape.go): wasm/js/bridge/report_tape.go, the bridge's tape
//     encoder of calc.Report.
//
// One generator lives outside this folder, as a mode of a command of its
// own:
//
//   - tools/calibrate -bands (calc/bands/bands.go): calc/bands/bands_gen.go,
//     the error bands' table, from the validation cases tools/calibrate
//     reads (`./build.sh calibrate` runs it without -bands, to print the
//     errors).
//
// Its tests check that this list names every program in this folder and
// every go:generate directive of the repository with its file (doc_test.go),
// and check scripts/check-generated.sh, an early step of `./build.sh test`,
// which fails when a generated file is stale (check_test.go).
package gen
