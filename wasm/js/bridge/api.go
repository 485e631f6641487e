// This file holds the bridge's logic as plain Go (no syscall/js) so that it
// is tested natively; main_js.go wires it to JavaScript (Main).

package bridge

import (
	"runtime"
	"strconv"
	"sync"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/jsonx"
	"github.com/modelrefs/throughput/models"
)

// errorPrefix starts every result that is an error list instead of a value:
// "!" followed by a JSON array of calc.FieldError. A value is JSON text and
// never starts with "!".
const errorPrefix = "!"

// evaluate answers a JSON request with the JSON report, within budget
// work units (calc.EvaluateWithBudget; the JavaScript module passes its
// workBudget option, calc.DefaultWorkBudget unless the caller raised it:
// the browser's CPU is the user's own).
func evaluate(request string, budget float64) (string, error) {
	req, err := calc.ParseRequest([]byte(request))
	if err != nil {
		return "", err
	}
	rep, err := calc.EvaluateWithBudget(req, budget)
	if err != nil {
		return "", err
	}
	return marshal(&rep)
}

// evaluateTape answers a JSON request with the report on the tape and
// returns the address of the tape's header (see tape.go); budget is as
// for evaluate.
func evaluateTape(request string, budget float64) (uint32, error) {
	req, err := calc.ParseRequest([]byte(request))
	if err != nil {
		return 0, err
	}
	rep, err := calc.EvaluateWithBudget(req, budget)
	if err != nil {
		return 0, err
	}
	reportTape.reset()
	tapeReport(&reportTape, &rep)
	if reportTape.err != nil {
		return 0, reportTape.err
	}
	return publish(&reportTape), nil
}

// plan answers a JSON plan request with the JSON plan report
// (calc.Plan).
func plan(request string) (string, error) {
	req, err := calc.ParsePlanRequest([]byte(request))
	if err != nil {
		return "", err
	}
	rep, err := calc.Plan(req)
	if err != nil {
		return "", err
	}
	return marshal(&rep)
}

// calibrate answers calibrate(request): the fit of a request's
// calibration and its profile (calc.Calibrate), the request up to
// calc.MaxCalibrateBytes (benchmark files).
func calibrate(request string) (string, error) {
	req, err := calc.ParseCalibrateRequest([]byte(request))
	if err != nil {
		return "", err
	}
	rep, err := calc.Calibrate(req)
	if err != nil {
		return "", err
	}
	return marshal(rep)
}

// priceTable is the default price table (hardware.DefaultPrice, the one
// table the cost section and the planner read; docs/MODEL.md section 12)
// as a JSON object keyed by accelerator id: USD per GPU-hour, the kind of
// price, its source and date. The argument is ignored.
func priceTable(string) (string, error) {
	ids := hardware.PricedIDs()
	out := make(map[string]hardware.Price, len(ids))
	for _, id := range ids {
		if p, ok := hardware.DefaultPrice(id); ok {
			out[id] = p
		}
	}
	return marshal(out)
}

// probeAccelerator is the hardware the summaries are evaluated on. Only
// hardware-independent figures (model info, KV bytes per token) are read
// from those reports, so its figures do not matter as long as they are
// valid and it has fp8 and bf16 rates.
var probeAccelerator = hardware.Accelerator{
	ID: "probe", Name: "probe", MemoryBytes: 1e12, MemoryBandwidthBytesPerS: 1e12,
	PeakFLOPS: hardware.PeakFLOPS{BF16: 1e15, FP8: 2e15, INT8: 2e15, FP4: 4e15, FP32: 1e14},
}

// summarize evaluates a probe request for the model named by req (Model or
// ModelConfig set) at the smallest workload and reads the model-only
// sections of the report.
func summarize(req calc.Request) (ModelSummary, error) {
	one := 1
	two := 2
	req.Hardware = calc.HardwareRef{Custom: &probeAccelerator}
	req.Workload = &calc.Workload{InputTokens: &one, OutputTokens: &one}
	req.Sweep = &calc.SweepOptions{Points: &two}
	rep, err := calc.Evaluate(req)
	if err != nil {
		return ModelSummary{}, err
	}
	req.KVCacheDtype = "fp8"
	fp8, err := calc.Evaluate(req)
	if err != nil {
		return ModelSummary{}, err
	}
	return ModelSummary{
		ModelInfo:             rep.Model,
		KVBytesPerToken:       rep.KVCache.BytesPerToken,
		KVBytesPerTokenFP8:    fp8.KVCache.BytesPerToken,
		StateBytesPerSequence: rep.KVCache.StateBytesPerSequence,
		KVGroups:              rep.KVCache.Groups,
	}, nil
}

// catalogJSON caches the model and hardware lists: they never change.
var catalogJSON struct {
	models, hardware struct {
		once sync.Once
		text string
		err  error
	}
}

// modelList returns the summary of every catalog model this build models
// (the light engine leaves DeepSeek-V4 out), in catalog order: an
// empty list while no catalog is installed (the browser engine before
// setCatalog), not kept.
func modelList() (string, error) {
	if !models.CatalogLoaded() {
		return "[]", nil
	}
	c := &catalogJSON.models
	c.once.Do(func() {
		entries, err := models.Catalog()
		if err != nil {
			c.err = err
			return
		}
		out := make([]ModelSummary, 0, len(entries))
		for _, e := range entries {
			if !e.Built() {
				continue // DeepSeek-V4 is in the full engine only
			}
			s, err := summarize(calc.Request{Model: e.ID})
			if err != nil {
				c.err = err
				return
			}
			s.Family, s.Aliases = e.Family, e.Aliases
			out = append(out, s)
		}
		c.text, c.err = marshal(out)
	})
	return c.text, c.err
}

// model returns one catalog model in full.
func model(name string) (string, error) {
	e, err := models.LookupEntry(name)
	if err != nil {
		return "", fielderr.New("model", err.Error())
	}
	m, err := models.Lookup(name)
	if err != nil {
		return "", fielderr.New("model", err.Error())
	}
	s, err := summarize(calc.Request{Model: e.ID})
	if err != nil {
		return "", err
	}
	s.Family, s.Aliases = e.Family, e.Aliases
	return marshal(ModelDetail{ModelSummary: s, Shape: m, Source: &e.Source, Config: e.Config})
}

// importConfig derives a model from a Hugging Face config.json object
// (JSON text). Errors name the config field as "model_config.FIELD", as
// evaluate does for a request's model_config.
func importConfig(config string) (string, error) {
	var raw map[string]any
	if err := jsonx.Unmarshal([]byte(config), &raw); err != nil || raw == nil {
		return "", fielderr.New("model_config", "must be a JSON object")
	}
	s, err := summarize(calc.Request{ModelConfig: raw})
	if err != nil {
		return "", err
	}
	m, err := models.FromConfig(raw)
	if err != nil {
		return "", fielderr.New("model_config", err.Error())
	}
	return marshal(ModelDetail{ModelSummary: s, Shape: m})
}

// setCatalog installs the model catalog from its JSON text (catalog.json,
// which throughput.js fetches: the browser engine is built without it).
// The model list is summarized again from it.
func setCatalog(text string) (string, error) {
	if err := models.SetCatalog(text); err != nil {
		return "", fielderr.New("", err.Error())
	}
	catalogJSON.models.once = sync.Once{}
	return "", nil
}

// knows answers "1" when evaluate can look the model name up (a catalog
// model, or one addModel registered), else "": then throughput.js may
// fetch it from the Hub.
func knows(name string) (string, error) {
	if _, err := models.Lookup(name); err != nil {
		if _, unknown := err.(*models.UnknownModelError); unknown {
			return "", nil
		}
		// The catalog holds it but this build cannot model it (the light
		// engine and DeepSeek-V4): evaluate says so, naming the full
		// engine; there is nothing to fetch from the Hub.
	}
	return "1", nil
}

// addModel registers a model outside the catalog, {"id", "config",
// "source_url"}: the config.json throughput.js fetched from the Hugging
// Face Hub, so that evaluate finds the model by its id. It answers the
// model's summary. Errors are the request's "model" field errors, in the
// words of the HTTP API (api/hub.go).
func addModel(text string) (string, error) {
	var in struct {
		ID        string         `json:"id"`
		Config    map[string]any `json:"config"`
		SourceURL string         `json:"source_url"`
	}
	if err := jsonx.Unmarshal([]byte(text), &in); err != nil || in.Config == nil {
		return "", fielderr.New("model", "the config.json from the Hugging Face Hub is not a JSON object")
	}
	if _, err := models.Register(in.ID, in.Config, models.Source{URL: in.SourceURL}); err != nil {
		return "", fielderr.New("model", "the config.json of "+fielderr.Quote(in.ID)+" from the Hugging Face Hub: "+err.Error())
	}
	return "", nil
}

// warm parses the embedded model catalog now (it is otherwise parsed by the
// first request that names a catalog model), so that load() pays for it
// instead of the first, synchronous, evaluate.
func warm() (string, error) {
	_, err := models.Catalog()
	return "", err
}

// hardwareList returns every catalog accelerator, in catalog order.
func hardwareList() (string, error) {
	c := &catalogJSON.hardware
	c.once.Do(func() { c.text, c.err = marshal(hardware.Catalog()) })
	return c.text, c.err
}

// hardwareSpec returns one catalog accelerator.
func hardwareSpec(name string) (string, error) {
	a, err := hardware.Lookup(name)
	if err != nil {
		return "", fielderr.New("hardware", err.Error())
	}
	return marshal(a)
}

// stats reads the Go heap after a garbage collection when gc is true.
func stats(gc bool) (string, error) {
	if gc {
		runtime.GC()
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return marshal(Stats{
		HeapAllocBytes: ms.HeapAlloc, HeapSysBytes: ms.HeapSys, HeapObjects: ms.HeapObjects,
		SysBytes: ms.Sys, TotalAllocBytes: ms.TotalAlloc, NumGC: ms.NumGC,
	})
}

// testPanic panics with a runtime error (index out of range). It is the
// bridge's test-only hook, reached from JavaScript only through the
// calculator's documented __panic() method.
func testPanic(n int) (string, error) {
	var s []int
	return strconv.Itoa(s[n]), nil
}

// result encodes a call's outcome for JavaScript: the value, or errorPrefix
// and the JSON error list.
func result(value string, err error) string {
	if err == nil {
		return value
	}
	return errorPrefix + errorsJSON(err)
}

// errorsJSON writes err as a JSON list of {field, message}: calc.Errors as
// they are, any other error as one entry with an empty field.
func errorsJSON(err error) string {
	list, ok := err.(calc.Errors)
	if !ok {
		list = fielderr.New("", err.Error())
	}
	b, merr := jsonx.Marshal(list)
	if merr != nil {
		return `[{"field":"","message":"internal error: cannot encode an error"}]`
	}
	return string(b)
}

// protect runs fn and turns a panic into an "internal error" FieldError, so
// that one bad call cannot take the instance down.
func protect(fn func() (string, error)) (out string) {
	defer func() {
		if v := recover(); v != nil {
			out = result("", fielderr.New("", "internal error: "+panicText(v)))
		}
	}()
	return result(fn())
}

// protectTape is protect for evaluateTape: the header address as a
// number, or the error string.
func protectTape(request string, budget float64) (out any) {
	defer func() {
		if v := recover(); v != nil {
			out = result("", fielderr.New("", "internal error: "+panicText(v)))
		}
	}()
	ptr, err := evaluateTape(request, budget)
	if err != nil {
		return result("", err)
	}
	return float64(ptr)
}

func panicText(v any) string {
	switch p := v.(type) {
	case error:
		return p.Error()
	case string:
		return p
	}
	return "panic of an unprintable value"
}

func marshal(v any) (string, error) {
	b, err := jsonx.Marshal(v)
	if err != nil {
		return "", err
	}
	return string(b), nil
}
