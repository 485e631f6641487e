package bridge

//go:generate go run ../../../tools/gen/jstables -o tables_gen.go
//go:generate go run ../../../tools/gen/dts -o ../../../www/module/contract.d.ts

// requestSchema describes calc.Request's JSON fields for throughput.js's
// boundary checks (the format is bridge.RequestSchema's). It is derived
// from calc/contract when generated; TestTablesAreFresh fails when the
// request changed without `go generate ./wasm/js/bridge`.
func requestSchema() string { return requestSchemaJSON }

// contractTables returns the engine's tables (bridge.Contract) as JSON:
// the engines and their defaults, the enumerated values and every request
// field's bounds, generated like requestSchema.
func contractTables() (string, error) { return contractJSON, nil }
