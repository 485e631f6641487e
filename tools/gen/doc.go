// Package gen holds no code: its directories are the programs that write
// the repository's generated files, each run by a go:generate directive
// in the package it writes into (`./build.sh generate` runs them all):
//
//   - reportjson: api/report_json.go, the API's JSON encoder of calc.Report,
//     and its fixture's encoder and types (api/fixture_*_test.go);
//   - tape: wasm/js/bridge/report_tape.go, the bridge's tape encoder of calc.Report;
//   - catalogdata: models/catalog_data.go, from models/catalog/*.json;
//   - hwdocs: the accelerator section of docs/model-catalog.md (between its
//     markers), from the hardware catalog;
//   - fielddocs: calc/contract/docs/docs_gen.go, the contract's field docs, from the
//     Go source of calc, models, hardware and api.
//
// Its test checks scripts/check-generated.sh, the first step of
// `./build.sh test`, which fails when a generated file is stale.
package gen
