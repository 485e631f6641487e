//go:build js && wasm

package bridge

import (
	"syscall"
	"syscall/js"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/models"
)

// defaultExportName is the global the bridge object is handed over through
// when go.argv names none.
const defaultExportName = "__throughput"

// exportEnv is the environment variable (go.env) that names the global the
// bridge object is handed over through. It is read with syscall.Getenv
// rather than os.Args: the os package costs about 15 KB of gzip in the
// .wasm.
const exportEnv = "THROUGHPUT_EXPORT"

// Main publishes the bridge object under the global named by go.env's
// THROUGHPUT_EXPORT (throughput.js passes a unique name per instance and
// deletes the global at once), then waits until JavaScript calls close(). Each function takes
// one string and returns a string: JSON text, or "!" and a JSON error list;
// evaluateTape returns the address of a tape header instead of the text.
// A main package calls it, after ExportPlan and WriteFullSections for the
// full engine.
func Main() {
	name := defaultExportName
	if v, ok := syscall.Getenv(exportEnv); ok && v != "" {
		name = v
	}
	done := make(chan struct{})
	var funcs []js.Func
	bridge := js.Global().Get("Object").New()
	export := func(key string, fn func(arg string) (string, error)) {
		f := js.FuncOf(func(_ js.Value, args []js.Value) any {
			arg := ""
			if len(args) > 0 && args[0].Type() == js.TypeString {
				arg = args[0].String()
			}
			return protect(func() (string, error) { return fn(arg) })
		})
		funcs = append(funcs, f)
		bridge.Set(key, f)
	}
	// evaluate and evaluateTape take the request text and, optionally, the
	// work budget (a number; calc.DefaultWorkBudget when absent).
	evalFn := js.FuncOf(func(_ js.Value, args []js.Value) any {
		arg, budget := evaluateArgs(args)
		return protect(func() (string, error) { return evaluate(arg, budget) })
	})
	funcs = append(funcs, evalFn)
	bridge.Set("evaluate", evalFn)
	// evaluateTape returns a number, the address of the tape header, or an
	// error string; tapeKeys is the tape's key table as JSON.
	tapeFn := js.FuncOf(func(_ js.Value, args []js.Value) any {
		return protectTape(evaluateArgs(args))
	})
	funcs = append(funcs, tapeFn)
	bridge.Set("evaluateTape", tapeFn)
	bridge.Set("tapeKeys", tapeKeysJSON())
	bridge.Set("requestSchema", requestSchema())
	export("contract", func(string) (string, error) { return contractTables() })
	if planExport != nil {
		export("plan", planExport)
	}
	if calibrateExport != nil {
		export("calibrate", calibrateExport)
		bridge.Set("maxCalibrateBytes", calc.MaxCalibrateBytes)
	}
	if pricesExport != nil {
		export("prices", pricesExport)
	}
	export("models", func(string) (string, error) { return modelList() })
	export("model", model)
	export("hardware", func(string) (string, error) { return hardwareList() })
	export("hardwareSpec", hardwareSpec)
	export("importConfig", importConfig)
	export("setCatalog", setCatalog)
	export("knows", knows)
	export("addModel", addModel)
	// catalogEmbedded is false in the browser engines, which do not
	// import package models/catalog: throughput.js fetches catalog.json
	// and hands it to setCatalog.
	bridge.Set("catalogEmbedded", models.CatalogEmbedded())
	// simulator is false in the browser's light engine (wasm/js/light
	// does not import calc/simulate): simulations need
	// throughput-planner.wasm, the full engine.
	bridge.Set("simulator", calc.SimulatorBuilt())
	export("warm", func(string) (string, error) { return warm() })
	export("stats", func(arg string) (string, error) { return stats(arg == "gc") })
	export("panic", func(arg string) (string, error) { return testPanic(len(arg) + 1) })
	bridge.Set("version", calc.Version)
	// The JavaScript module refuses a text over this many UTF-8 bytes before
	// it is copied into wasm memory (issue 16), in calc.ParseRequest's words.
	bridge.Set("maxRequestBytes", calc.MaxRequestBytes)
	bridge.Set("defaultWorkBudget", calc.DefaultWorkBudget)

	var closeFn js.Func
	closeFn = js.FuncOf(func(js.Value, []js.Value) any {
		select {
		case <-done:
		default:
			for _, f := range funcs {
				f.Release()
			}
			closeFn.Release()
			close(done)
		}
		return nil
	})
	bridge.Set("close", closeFn)
	js.Global().Set(name, bridge)
	<-done
}

// evaluateArgs reads an evaluate call's request text and work budget.
func evaluateArgs(args []js.Value) (request string, budget float64) {
	budget = calc.DefaultWorkBudget
	if len(args) > 0 && args[0].Type() == js.TypeString {
		request = args[0].String()
	}
	if len(args) > 1 && args[1].Type() == js.TypeNumber {
		budget = args[1].Float()
	}
	return request, budget
}
