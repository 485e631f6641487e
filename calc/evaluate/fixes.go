package evaluate

import (
	"math"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/release"
	"github.com/modelrefs/throughput/calc/spec"

	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/internal/fielderr"
)

// nearestFixes returns, for a report whose deployment does not fit, does
// not start or is overloaded, the nearest changes that make it work, each
// checked by resolving the changed request (Evaluate's own sizing); nil
// when nothing fails. It runs only on failure, so a sweep of working
// deployments pays nothing for it.
//
// The fixes that make it start are ranked by what meets the workload
// (rank): each fits the memory (it is offered only then), then those whose
// deployment meets the latency budget and carries the request rate come
// first, the cheapest of them first.
func nearestFixes(req spec.Request, d *deploy.Deployment, r *spec.Report) []spec.Fix {
	var out candidates
	switch {
	case d.NumBlocks <= 0:
		out = fitFixes(req, d)
	case !r.Fits:
		out = startFixes(req, d, r)
	case r.Preemption != nil:
		return loadFixes(d, r)
	}
	rank(out)
	var fixes []spec.Fix
	for _, c := range out {
		fixes = append(fixes, c.fix)
	}
	return fixes
}

// candidate is one fix with what the changed request delivers, from the
// engine's own analytic report of it (deploy.Assemble): meets, whether it
// meets the workload (every figure the request budgets within its budget:
// the steady state's TPOT and TTFT under a concurrency or a request rate
// (report.serving, docs/MODEL.md section 5b), else the best batch's
// feasibility at the ceiling (report.best); and a request rate at most the
// saturation rate); and usdPerHour, what its GPUs cost per hour (report.cost:
// num_gpus x the GPU-hour price of the one price table, hardware/prices.go,
// or the request's gpu_hour_usd), +Inf where nothing prices them.
type candidate struct {
	fix        spec.Fix
	meets      bool
	usdPerHour float64
}

// try resolves t and returns the candidate fix f stands for when t's
// deployment starts (report.fits: the weights fit, the KV pool holds one
// max_model_len sequence, and vLLM's other start-up checks pass),
// judged by t's analytic report (deploy.Assemble: no simulation runs);
// ok is false when it does not start. A fix that starts but misses the
// workload says so in its summary. The report is assembled with the
// shortest sweep: no figure judged here depends on it.
func try(t spec.Request, f spec.Fix) (c candidate, ok bool) {
	t.Sweep = &spec.SweepOptions{Points: spec.Int(2)}
	d, p, err := deploy.ResolveAsk(t)
	if err != nil {
		return c, false
	}
	r := deploy.Assemble(d, p)
	if !r.Fits {
		return c, false
	}
	c = candidate{fix: f, meets: true, usdPerHour: math.Inf(1)}
	if r.Cost != nil {
		c.usdPerHour = r.Cost.GPUHourUSD * float64(r.Cost.GPUs)
	}
	cf := r.Config
	miss := ""
	switch s, pre := r.Serving, r.Preemption; {
	case r.Decode == nil:
		miss = "one request of the workload does not fit its KV cache"
	case pre != nil && cf.RequestRate > pre.SaturationRequestRate:
		miss = "overloaded at this request rate"
	case s != nil && (cf.TPOTBudgetMs > 0 && s.TPOTMs > cf.TPOTBudgetMs || cf.TTFTBudgetMs > 0 && s.TTFTMs > cf.TTFTBudgetMs),
		s == nil && r.Best != nil && !r.Best.Feasible:
		miss = "misses the latency budget"
	}
	if miss != "" {
		c.meets = false
		c.fix.Summary += ", but " + miss
	}
	return c, true
}

// candidates is a list of fixes tried.
type candidates []candidate

// add appends the candidate for t and f when t starts (try), and reports
// whether it did.
func (cs *candidates) add(t spec.Request, f spec.Fix) bool {
	c, ok := try(t, f)
	if ok {
		*cs = append(*cs, c)
	}
	return ok
}

// better reports whether a ranks before b: meeting the workload first,
// then the lower price per hour.
func better(a, b candidate) bool {
	if a.meets != b.meets {
		return a.meets
	}
	return a.usdPerHour < b.usdPerHour
}

// rank orders cs by better, stable (the order tried among equals).
// Insertion sort: a generic sort would cost the browser engine more code
// than it saves.
func rank(cs candidates) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && better(cs[j], cs[j-1]); j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// fitFixes tries, for weights (or a KV pool) that do not fit: fp8 then int4 weights
// (an unquantized checkpoint), the smallest tensor-parallel size that
// fits (2 to 8, within one node), and the accelerator of the catalog, of
// the same vendor and with more memory, that holds it on as many GPUs and
// ranks first (rank: meeting the workload, then the price; the smallest
// memory among equals), so a part that fits the weights but misses the
// latency budget (a 273 GB/s GB10 for a 70B model) is not the one offered.
// Only parts priced as the current one is are compared (hardware/prices.go's
// kind: a rented GPU-hour against rented ones, a purchase against
// purchases; an unpriced part ranks last): the planner's rule too.
func fitFixes(req spec.Request, d *deploy.Deployment) candidates {
	var out candidates
	if !d.Quant.Quantized() {
		for _, q := range [...]struct{ name, text string }{{"fp8", "fp8"}, {"awq", "int4 (AWQ)"}} {
			t := req
			t.Quantization = q.name
			if out.add(t, spec.Fix{Field: "quantization", Value: q.name, Summary: "fits with " + q.text + " weights"}) {
				break
			}
		}
	}
	if d.PP == 1 && d.Hardware.Interconnect.BandwidthBytesPerS > 0 {
		for tp := d.TP * 2; tp <= 8; tp *= 2 {
			t := req
			t.TensorParallelSize = spec.Int(tp)
			if out.add(t, spec.Fix{Field: "tensor_parallel_size", Value: itoa(tp), Summary: "fits with TP " + itoa(tp)}) {
				break
			}
		}
	}
	if req.Hardware.Custom == nil {
		// The larger parts of the vendor, smallest memory first (one
		// resolve per part tried; an assembled report for each that fits).
		var larger []hardware.Accelerator
		for _, a := range hardware.Catalog() {
			if a.Vendor == d.Hardware.Vendor && a.MemoryBytes > d.Hardware.MemoryBytes {
				larger = append(larger, a)
			}
		}
		// Insertion sort, stable (catalog order among equal memory).
		for i := 1; i < len(larger); i++ {
			for j := i; j > 0 && larger[j].MemoryBytes < larger[j-1].MemoryBytes; j-- {
				larger[j], larger[j-1] = larger[j-1], larger[j]
			}
		}
		var best candidate
		found := false
		cur, priced := hardware.DefaultPrice(d.Hardware.ID)
		for _, a := range larger {
			if p, ok := hardware.DefaultPrice(a.ID); priced && ok && p.Kind != cur.Kind {
				continue // a purchase spread over years is no rival to a rented GPU-hour, nor the reverse (as the planner, section 12)
			}
			t := req
			t.Hardware = spec.HardwareRef{ID: a.ID}
			t.GPUHourUSD = nil // the user's price is the current accelerator's: another is priced by the table
			c, ok := try(t, spec.Fix{Field: "hardware", Value: a.ID, Summary: "fits on " + article(a.Name) + " " + a.Name})
			if ok && (!found || better(c, best)) {
				best, found = c, true
			}
		}
		if found {
			out = append(out, best)
		}
	}
	return out
}

func article(name string) string {
	if name != "" && (name[0] == 'A' || name[0] == 'I' || name[0] == 'E' || name[0] == 'O' || strings.HasPrefix(name, "NVIDIA")) { // "an NVIDIA": read en-vidia
		return "an"
	}
	return "a"
}

// startFixes tries, for a KV pool smaller than one max_model_len
// sequence (vLLM refuses to start): the largest max_model_len the pool
// holds (whole blocks, at least the workload's length), fp8 KV,
// gpu_memory_utilization 0.95 under vLLM's profiled rule (the largest
// value vLLM's docs suggest; the rest of the GPU stays free for other
// allocations), and then what fitFixes tries for weights that do not fit
// (quantized weights, a larger TP, a larger accelerator), since a pool too
// small for one sequence is the same shortfall, smaller.
func startFixes(req spec.Request, d *deploy.Deployment, r *spec.Report) candidates {
	var out candidates
	in, out0 := r.Config.InputTokens, r.Config.OutputTokens
	if c := r.KVCache.CapacityTokens; c >= int64(in+out0) {
		n := int(c / int64(d.BlockSize) * int64(d.BlockSize))
		t := req
		t.MaxModelLen = spec.Int(n)
		out.add(t, spec.Fix{Field: "max_model_len", Value: itoa(n), Summary: "starts with max_model_len " + itoa(n)})
	}
	if d.KVBytes > 1 {
		t := req
		t.KVCacheDtype = "fp8"
		out.add(t, spec.Fix{Field: "kv_cache_dtype", Value: "fp8", Summary: "starts with an fp8 KV cache"})
	}
	if u := 0.95; d.Engine.Rule == release.RuleProfiled && d.Utilization < u {
		t := req
		t.GPUMemoryUtilization = spec.Float(u)
		out.add(t, spec.Fix{Field: "gpu_memory_utilization", Value: "0.95", Summary: "starts with gpu_memory_utilization 0.95"})
	}
	return append(out, fitFixes(req, d)...)
}

// loadFixes says, for a rate above the saturation rate or users above the
// preemption onset, how many replicas share the load: ceil(load / what
// one replica carries), and the load each then takes.
func loadFixes(d *deploy.Deployment, r *spec.Report) []spec.Fix {
	pre := r.Preemption
	switch {
	case r.Config.RequestRate > 0 && pre.SaturationRequestRate > 0 && r.Config.RequestRate > pre.SaturationRequestRate:
		over := r.Config.RequestRate / pre.SaturationRequestRate
		n := int(math.Ceil(over))
		each := r.Config.RequestRate / float64(n)
		return []spec.Fix{{Field: "workload.request_rate", Value: fielderr.Number(round3(each)),
			Summary: "overloaded " + strconv.FormatFloat(over, 'f', 1, 64) + "x: needs " + itoa(n) + " replicas (" + fielderr.Number(round3(each)) + " requests/s each)"}}
	case r.Config.Concurrency > 0 && pre.Reachable && pre.OnsetConcurrency >= 1 && r.Config.Concurrency > pre.OnsetConcurrency:
		over := float64(r.Config.Concurrency) / float64(pre.OnsetConcurrency)
		n := int(math.Ceil(over))
		each := (r.Config.Concurrency + n - 1) / n
		return []spec.Fix{{Field: "workload.concurrency", Value: itoa(each),
			Summary: "preempts at " + strconv.FormatFloat(over, 'f', 1, 64) + "x the onset: needs " + itoa(n) + " replicas (" + itoa(each) + " users each)"}}
	}
	return nil
}
