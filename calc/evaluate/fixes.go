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
func nearestFixes(req spec.Request, d *deploy.Deployment, r *spec.Report) []spec.Fix {
	var out []spec.Fix
	switch {
	case d.NumBlocks <= 0:
		out = fitFixes(req, d)
	case !r.Fits:
		out = startFixes(req, d, r)
	case r.Preemption != nil:
		out = loadFixes(d, r)
	}
	return out
}

// fits reports whether req's deployment has a KV pool that holds one
// max_model_len sequence.
func fits(req spec.Request) bool {
	d, _, err := deploy.ResolveAsk(req)
	if err != nil || d.NumBlocks <= 0 {
		return false
	}
	lay := d.Layout()
	return lay.MaxConcurrency(d.NumBlocks, int64(d.MaxModelLen), int64(d.MaxBatched)) >= 1
}

// fitFixes tries, for weights (or a KV pool) that do not fit: fp8 then int4 weights
// (an unquantized checkpoint), the smallest tensor-parallel size that
// fits (2 to 8, within one node), and the smallest accelerator of the
// catalog, of the same vendor, that holds it on as many GPUs.
func fitFixes(req spec.Request, d *deploy.Deployment) []spec.Fix {
	var out []spec.Fix
	if !d.Quant.Quantized() {
		for _, q := range [...]struct{ name, text string }{{"fp8", "fp8"}, {"awq", "int4 (AWQ)"}} {
			t := req
			t.Quantization = q.name
			if fits(t) {
				out = append(out, spec.Fix{Field: "quantization", Value: q.name, Summary: "fits with " + q.text + " weights"})
				break
			}
		}
	}
	if d.PP == 1 && d.Hardware.Interconnect.BandwidthBytesPerS > 0 {
		for tp := d.TP * 2; tp <= 8; tp *= 2 {
			t := req
			t.TensorParallelSize = spec.Int(tp)
			if fits(t) {
				out = append(out, spec.Fix{Field: "tensor_parallel_size", Value: itoa(tp), Summary: "fits with TP " + itoa(tp)})
				break
			}
		}
	}
	if req.Hardware.Custom == nil {
		// The larger parts of the vendor, smallest memory first: the
		// first that fits is the answer (one resolve per part tried).
		var larger []hardware.Accelerator
		for _, a := range hardware.Catalog() {
			if a.Vendor == d.Hardware.Vendor && a.MemoryBytes > d.Hardware.MemoryBytes {
				larger = append(larger, a)
			}
		}
		// Insertion sort, stable (catalog order among equal memory): a
		// generic sort would cost the browser engine more code than it saves.
		for i := 1; i < len(larger); i++ {
			for j := i; j > 0 && larger[j].MemoryBytes < larger[j-1].MemoryBytes; j-- {
				larger[j], larger[j-1] = larger[j-1], larger[j]
			}
		}
		for _, a := range larger {
			t := req
			t.Hardware = spec.HardwareRef{ID: a.ID}
			if fits(t) {
				out = append(out, spec.Fix{Field: "hardware", Value: a.ID, Summary: "fits on " + article(a.Name) + " " + a.Name})
				break
			}
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
func startFixes(req spec.Request, d *deploy.Deployment, r *spec.Report) []spec.Fix {
	var out []spec.Fix
	in, out0 := r.Config.InputTokens, r.Config.OutputTokens
	if c := r.KVCache.CapacityTokens; c >= int64(in+out0) {
		n := int(c / int64(d.BlockSize) * int64(d.BlockSize))
		t := req
		t.MaxModelLen = spec.Int(n)
		if fits(t) {
			out = append(out, spec.Fix{Field: "max_model_len", Value: itoa(n), Summary: "starts with max_model_len " + itoa(n)})
		}
	}
	if d.KVBytes > 1 {
		t := req
		t.KVCacheDtype = "fp8"
		if fits(t) {
			out = append(out, spec.Fix{Field: "kv_cache_dtype", Value: "fp8", Summary: "starts with an fp8 KV cache"})
		}
	}
	if u := 0.95; d.Engine.Rule == release.RuleProfiled && d.Utilization < u {
		t := req
		t.GPUMemoryUtilization = spec.Float(u)
		if fits(t) {
			out = append(out, spec.Fix{Field: "gpu_memory_utilization", Value: "0.95", Summary: "starts with gpu_memory_utilization 0.95"})
		}
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
