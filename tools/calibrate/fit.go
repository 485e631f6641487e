package main

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strings"

	"github.com/modelrefs/throughput/calc/release"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/validation"
	"github.com/modelrefs/throughput/hardware"
)

// param is one fitted term of the step model: its report name, where it
// lives in an engine's Efficiencies, and the physically plausible range
// the search keeps it in.
type param struct {
	name   string
	ptr    func(*calc.Efficiencies) *float64
	lo, hi float64
	// sd is the prior's standard deviation (the prior's mean is the
	// term's value in prior); +Inf is a flat prior.
	sd float64
	// named is true for a term fitted only when -terms names it: one
	// that describes some engines' kernels only (sm_bytes_per_cycle:
	// llama.cpp's matrix-vector kernels, per SM in its CUDA build and per
	// compute unit in its HIP one), which a fit of
	// "all" terms leaves as it is, so that the fits committed before the
	// term existed reproduce.
	named bool
}

// params are the step model's terms (docs/MODEL.md section 4).
var params = []param{
	{"bandwidth_efficiency", func(e *calc.Efficiencies) *float64 { return &e.BandwidthEfficiency }, 0.4, 1, 0.1, false},
	{"attention_bandwidth_efficiency", func(e *calc.Efficiencies) *float64 { return &e.AttentionBandwidthEfficiency }, 0.3, 1, 0.15, false},
	{"compute_efficiency", func(e *calc.Efficiencies) *float64 { return &e.ComputeEfficiency }, 0.2, 0.95, 0.15, false},
	{"gemm_half_tokens", func(e *calc.Efficiencies) *float64 { return &e.GEMMHalfTokens }, 0, 1024, 32, false},
	{"attention_efficiency", func(e *calc.Efficiencies) *float64 { return &e.AttentionEfficiency }, 0.05, 0.9, 0.15, false},
	{"step_overhead_ms", func(e *calc.Efficiencies) *float64 { return &e.StepOverheadMs }, 0, 10, 1, false},
	{"sequence_overhead_us", func(e *calc.Efficiencies) *float64 { return &e.SequenceOverheadUs }, 0, 100, 10, false},
	{"layer_overhead_us", func(e *calc.Efficiencies) *float64 { return &e.LayerOverheadUs }, 0, 100, 8, false},
	{"context_overhead_ms", func(e *calc.Efficiencies) *float64 { return &e.ContextOverheadMs }, 0, 200, 20, false},
	// The API server's fixed cost per request (vLLM's and SGLang's); fitted
	// only when named, from a prior of none.
	{"request_overhead_ms", func(e *calc.Efficiencies) *float64 { return &e.RequestOverheadMs }, 0, 100, 10, true},
	// 0 is no cap; a flat prior, since the cap's absence is not "near"
	// any value of it.
	{"sm_bytes_per_cycle", func(e *calc.Efficiencies) *float64 { return &e.SMBytesPerCycle }, 0, 32, math.Inf(1), true},
	// SGLang's eager prefill launches; fitted only when named (every
	// other engine's prefill runs in its graphs or is in layer_overhead_us).
	{"prefill_layer_overhead_us", func(e *calc.Efficiencies) *float64 { return &e.PrefillLayerOverheadUs }, 0, 2000, 200, true},
	// The engine build's own all-reduce cost, 0 where the link's figure
	// describes the build (vLLM 0.6 on ROCm); a flat prior.
	{"all_reduce_latency_us", func(e *calc.Efficiencies) *float64 { return &e.AllReduceLatencyUs }, 0, 200, math.Inf(1), true},
	// vLLM's own paged-attention kernels' unpartitioned variant (vLLM 0.6
	// on ROCm); 0 elsewhere, a flat prior.
	// vLLM V0's per-step input broadcast to the other TP ranks; fitted
	// only when named (0 where an engine's ranks schedule alike), a flat
	// prior.
	{"tp_step_overhead_ms", func(e *calc.Efficiencies) *float64 { return &e.TPStepOverheadMs }, 0, 10, math.Inf(1), true},
	// The MoE block's fixed time per MoE layer (vLLM's and SGLang's Triton
	// fused_moe at a few tokens per expert); fitted only when named (no
	// dense case informs it). Prior 0 (nothing beyond layer_overhead_us)
	// with a 50 us spread: the fixed part of the fused-experts call alone
	// at batch 1 in vLLM's kernel benchmark is 27 us on a B200 and 55 us
	// on an A100 (docs/MODEL.md section 4, "The MoE block").
	{"moe_layer_overhead_us", func(e *calc.Efficiencies) *float64 { return &e.MoELayerOverheadUs }, 0, 500, 50, true},
	{"paged_attention_v1_bandwidth_efficiency", func(e *calc.Efficiencies) *float64 { return &e.PagedAttentionV1BandwidthEfficiency }, 0.02, 1, math.Inf(1), true},
}

// v06ROCmFloor are the lower bounds of the vllm@0.6+rocm fit where they
// differ from params': vLLM 0.6's upstream ROCm build ran its 16-bit GEMMs
// at under a tenth of the MI300X's peak and read the KV cache at a small
// fraction of its bandwidth (calc/release/rocm.go vllmV06ROCmEff), below
// the floors that keep the tuned builds' fits physical.
var v06ROCmFloor = map[string]float64{"compute_efficiency": 0.02, "attention_bandwidth_efficiency": 0.05}

// rocmFlatPrior are the terms whose prior the vllm@rocm fit (the V1
// releases on AMD accelerators) and the vllm@0.7+rocm one (V0 under 0.7,
// the same kernels) leave flat within their range (not llamacpp@rocm,
// whose HIP matrix-vector kernels have no tiles to pad, nor
// vllm@0.6+rocm):
// gemm_half_tokens' prior, 16 tokens with a 32-token spread, is the
// tensor-core tile padding of the CUDA builds' cuBLAS/CUTLASS GEMMs
// (docs/MODEL.md section 4), not a property of the ROCm build's FP8
// hipBLASLt GEMMs, whose small-M loss the MI300X cases inform directly
// (the step grows with batch from batch 16-32 on in proportion to the
// linear weights; calc/release/rocm.go vllmROCmEff).
var rocmFlatPrior = map[string]bool{"gemm_half_tokens": true}

// priorSD returns the prior's standard deviation of p in the fit of t.
func priorSD(t target, p param) float64 {
	if t.engine == "vllm" && t.rocm && !t.v06rocm && rocmFlatPrior[p.name] {
		return math.Inf(1)
	}
	return p.sd
}

// bounds returns the range the fit of t keeps p in.
func bounds(t target, p param) (lo, hi float64) {
	if f, ok := v06ROCmFloor[p.name]; ok && t.v06rocm {
		return f, p.hi
	}
	return p.lo, p.hi
}

// prior is where every fit starts, and what a term that no case informs
// keeps: a physically motivated profile, not fitted (docs/MODEL.md gives
// the reasoning for each value).
var prior = calc.Efficiencies{
	BandwidthEfficiency: 0.8, AttentionBandwidthEfficiency: 0.7,
	ComputeEfficiency: 0.6, GEMMHalfTokens: 16, AttentionEfficiency: 0.4,
	StepOverheadMs: 1, SequenceOverheadUs: 5, LayerOverheadUs: 8, ContextOverheadMs: 0,
}

// readCases reads the case files (a missing one is skipped with a note).
func readCases(paths []string) []validation.Case {
	cs, missing, err := validation.ReadCases(paths...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "calibrate:", err)
		os.Exit(1)
	}
	for _, m := range missing {
		fmt.Fprintln(os.Stderr, "calibrate: skipped (not present):", m)
	}
	return cs
}

// target is one set of step terms the fit can change: an engine profile's
// Eff, vLLM's V0 terms (EffV0) as "vllm@0.6", an engine's terms on Apple
// GPUs (EffMetal) as "llamacpp@metal", or on AMD accelerators (EffROCm) as
// "vllm@rocm", fitted on the V1 cases; vLLM V0's on AMD accelerators under
// 0.6 (EffV06ROCm) as "vllm@0.6+rocm" and under 0.7 (EffV0ROCm) as
// "vllm@0.7+rocm".
type target struct {
	name, engine string
	v0           bool // the cases that ran vLLM's V0 engine
	metal        bool // the cases on Apple GPUs, under the engine's Metal terms
	rocm         bool // the cases on AMD accelerators, under the engine's ROCm terms
	// v06rocm: the V0 cases of release 0.6 on AMD accelerators, under the
	// engine's EffV06ROCm ("vllm@0.6+rocm"); the other targets leave them.
	v06rocm bool
	// v0rocm: the V0 cases of the 0.7 releases on AMD accelerators, under
	// the engine's EffV0ROCm ("vllm@0.7+rocm").
	v0rocm bool
	// sync: the V1 cases of a release that schedules synchronously, under
	// the engine's EffSync ("vllm@sync"), on a vendor without terms of its
	// own; the other targets leave them.
	sync bool
	eff  *calc.Efficiencies
}

// targets returns every fit target, or those named (comma-separated;
// "all": every one).
func targets(names string) []target {
	var all []target
	for _, n := range calc.EngineNames() {
		e := lookup(n)
		all = append(all, target{name: n, engine: n, eff: &e.Eff})
		if e.EffV0 != nil {
			all = append(all, target{name: n + "@" + v0Version, engine: n, v0: true, eff: e.EffV0})
		}
		if e.EffROCm != nil {
			all = append(all, target{name: n + "@rocm", engine: n, rocm: true, eff: e.EffROCm})
		}
		if e.EffV06ROCm != nil {
			all = append(all, target{name: n + "@" + v0Version + "+rocm", engine: n, v0: true, rocm: true, v06rocm: true, eff: e.EffV06ROCm})
		}
		if e.EffV0ROCm != nil {
			all = append(all, target{name: n + "@" + v0Later + "+rocm", engine: n, v0: true, rocm: true, v0rocm: true, eff: e.EffV0ROCm})
		}
		if e.EffMetal != nil {
			all = append(all, target{name: n + "@metal", engine: n, metal: true, eff: e.EffMetal})
		}
		if e.EffSync != nil {
			all = append(all, target{name: n + "@sync", engine: n, sync: true, eff: e.EffSync})
		}
	}
	if names == "all" {
		return all
	}
	return pick(names, all, func(t target) string { return t.name }, "engine (vllm, vllm@0.6, vllm@rocm, vllm@0.6+rocm, vllm@0.7+rocm, vllm@sync, sglang, lmdeploy, trtllm, llamacpp, llamacpp@metal, llamacpp@rocm)")
}

// pick returns the items of all named in the comma-separated list, in its
// order; an unknown name exits with an error naming what it is.
func pick[T any](list string, all []T, name func(T) string, what string) []T {
	var out []T
	for _, n := range strings.Split(list, ",") {
		found := false
		for _, x := range all {
			if name(x) == n {
				out, found = append(out, x), true
			}
		}
		if !found {
			fmt.Fprintln(os.Stderr, "calibrate: unknown", what, n)
			os.Exit(2)
		}
	}
	return out
}

// skipGPU names the GPUs whose cases the fits leave out (-skip-gpus).
var skipGPU = map[string]bool{}

// skipSources are substrings of the source documents whose cases the fits
// leave out (-skip-sources).
var skipSources []string

// skippedSource reports whether a case's source names one of skipSources.
func skippedSource(src string) bool {
	for _, s := range skipSources {
		if strings.Contains(src, s) {
			return true
		}
	}
	return false
}

// v0Version is the engine_version of vLLM's V0 profile; v0Later is V0 as
// the 0.7 releases ran it (the same terms but on ROCm).
const (
	v0Version = "0.6"
	v0Later   = "0.7"
)

// isV0 reports whether a case's release profile is vLLM's V0 engine.
func isV0(version string) bool { return version == v0Version || version == v0Later }

// v06ROCmCase reports whether a case runs under vLLM 0.6's own ROCm terms
// (calc.Engine.ReleaseVendorEff).
func v06ROCmCase(r validation.Result) bool {
	e, ok := release.LookupEngine(r.Engine)
	return ok && e.EffV06ROCm != nil && r.Version == v0Version && rocmCase(r)
}

// v0ROCmCase reports whether a case runs under vLLM V0's 0.7 terms on ROCm
// (calc.Engine.ReleaseVendorEff).
func v0ROCmCase(r validation.Result) bool {
	e, ok := release.LookupEngine(r.Engine)
	return ok && e.EffV0ROCm != nil && r.Version == v0Later && rocmCase(r)
}

// targetCases returns the cases that compare a step-model figure under the
// target (KV-capacity cases do not depend on the efficiencies), with each
// one's result under the current profiles.
func targetCases(cs []validation.Case, t target) ([]validation.Case, []validation.Result) {
	var out []validation.Case
	var rs []validation.Result
	for _, c := range cs {
		if p := c.Profile(); p != "" && p != t.engine {
			continue
		}
		r, err := c.Eval()
		if err != nil {
			fmt.Fprintln(os.Stderr, "calibrate:", err)
			os.Exit(1)
		}
		// A replay (a ShareGPT serving run, its lengths drawn from an
		// assumed spread) is compared, not fitted.
		if r.Comparable && !r.Replay && r.Engine == t.engine && isV0(r.Version) == t.v0 && metalCase(r) == t.metal && rocmCase(r) == t.rocm && v06ROCmCase(r) == t.v06rocm && v0ROCmCase(r) == t.v0rocm && syncCase(r) == t.sync && speedMetric(r.Metric) && r.Measured > 0 && !skipGPU[r.GPU] && !skippedSource(r.Source) {
			out, rs = append(out, c), append(rs, r)
		}
	}
	return out, rs
}

// syncCase reports whether a case runs under its engine's EffSync: a
// release that schedules synchronously, on a vendor whose back end has no
// terms of its own (calc.Engine.SyncEff, applied before the vendor's).
func syncCase(r validation.Result) bool {
	e, ok := release.LookupEngine(r.Engine)
	return ok && e.SyncRelease(r.Version) && !rocmCase(r) && !metalCase(r)
}

// metalCase reports whether a case runs under its engine's Metal terms:
// an Apple GPU under an engine that has them (calc.Engine.VendorEff).
func metalCase(r validation.Result) bool { return vendorCase(r, "Apple") }

// rocmCase reports whether a case runs under its engine's ROCm terms: an
// AMD accelerator under an engine that has them (calc.Engine.VendorEff).
func rocmCase(r validation.Result) bool { return vendorCase(r, "AMD") }

// vendorCase reports whether r's accelerator is of vendor and its engine
// has terms of its own for that vendor's back end, as calc resolves them.
func vendorCase(r validation.Result, vendor string) bool {
	e, ok := release.LookupEngine(r.Engine)
	if !ok || e.VendorEff(vendor) == nil {
		return false
	}
	a, err := hardware.Lookup(r.GPU)
	return err == nil && a.Vendor == vendor
}

func speedMetric(m string) bool {
	return m != "capacity_tokens" && m != "num_blocks" && m != "kv_cache_gib"
}

// caseSD is the log error a case is expected to carry even under the right
// terms (measurement spread, unrecorded settings): about 10 %.
const caseSD = 0.1

// objective is the mean squared log error of the cases under the
// target's current terms plus the prior's penalty: minimising it is the
// maximum a posteriori fit with log-normal case errors of caseSD and a
// normal prior on each term, (caseSD^2 / n) * sum ((term - prior) / sd)^2.
// The penalty keeps a term the cases hardly inform near its physical
// value instead of letting it absorb another term's error.
func objective(cs []validation.Case, t target) float64 {
	mse, n := meanSquaredLogError(cs, t.engine)
	return posterior(t, mse, n)
}

// posterior is the objective of a mean squared log error mse over n
// cases under the target's current terms: mse plus the prior's penalty.
func posterior(t target, mse float64, n int) float64 {
	if n == 0 {
		return 0
	}
	var pen float64
	for _, p := range params {
		z := (*p.ptr(t.eff) - *p.ptr(&prior)) / priorSD(t, p)
		pen += z * z
	}
	return mse + caseSD*caseSD/float64(n)*pen
}

// meanSquaredLogError is the mean of log(predicted/measured)^2 over the
// comparable cases of the engine, and their number.
func meanSquaredLogError(cs []validation.Case, engine string) (float64, int) {
	return validation.Objective(evalAll(cs), engine)
}

// evalAll evaluates the cases on every core (the profiles are not changed
// while they run) and returns each one's first figure; a case that fails
// to evaluate is left out.
func evalAll(cs []validation.Case) []validation.Result {
	var out []validation.Result
	for _, rs := range evalCases(cs, nil) {
		if len(rs) > 0 {
			out = append(out, rs[0])
		}
	}
	return out
}

// fit minimises the objective over the named terms by coordinate descent:
// each round tries 9 values of each term across a window around its
// current value (the whole range at first, halved every round, 5 rounds)
// and keeps the best; a term moves only when that strictly lowers the
// objective. The target's terms are changed in place.
func fit(t target, cs []validation.Case, which []param) float64 {
	best := objective(cs, t)
	for round := 0; round < 5; round++ {
		for _, p := range which {
			ptr := p.ptr(t.eff)
			lo, hi := bounds(t, p)
			span := (hi - lo) / math.Pow(2, float64(round))
			keep := *ptr
			for i := 0; i <= 8; i++ {
				v := keep - span/2 + span*float64(i)/8
				if v < lo || v > hi {
					continue
				}
				*ptr = v
				if s := objective(cs, t); s < best-1e-12 {
					best, keep = s, v
				}
			}
			*ptr = keep
		}
	}
	return best
}

// selectParams returns the terms named in list (comma-separated; "" or
// "all": every term).
func selectParams(list string) []param {
	if list == "" || list == "all" {
		var out []param
		for _, p := range params {
			if !p.named {
				out = append(out, p)
			}
		}
		return out
	}
	return pick(list, params, func(p param) string { return p.name }, "term")
}

func lookup(name string) *calc.Engine {
	e, ok := release.LookupEngine(name)
	if !ok {
		fmt.Fprintln(os.Stderr, "calibrate: unknown engine", name)
		os.Exit(2)
	}
	return e
}

// fitEngines fits each named target from the prior (or, fitting only some
// terms, from the committed ones) and prints the terms and a Go literal for
// calc/release/engine.go.
func fitEngines(paths []string, names, terms string) {
	cs := readCases(paths)
	which := selectParams(terms)
	for _, t := range targets(names) {
		ec, _ := targetCases(cs, t)
		if len(ec) == 0 {
			fmt.Printf("%s: no comparable speed cases; terms left as they are\n", t.name)
			continue
		}
		before, _ := meanSquaredLogError(ec, t.engine)
		if terms == "" || terms == "all" || t.rocm {
			*t.eff = start(t, terms) // a partial fit (-terms) starts from the committed terms
		}
		if t.engine == "sglang" && terms != "" && terms != "all" {
			// SGLang's step terms were vLLM's until fitted on its own
			// cases: a partial fit starts the named ones there, so it
			// does not depend on what is committed (calc/release/engine.go).
			v := lookup("vllm").Eff
			for _, p := range which {
				*p.ptr(t.eff) = *p.ptr(&v)
			}
		}
		start, _ := meanSquaredLogError(ec, t.engine)
		fit(t, ec, which)
		got, _ := meanSquaredLogError(ec, t.engine)
		fmt.Printf("%s: %d cases; mse(log) with the committed terms %.5f, at the start %.5f, the fit %.5f\n", t.name, len(ec), before, start, got)
		for _, p := range params {
			fmt.Printf("  %-32s %8.3f\n", p.name, *p.ptr(t.eff))
		}
		fmt.Printf("  %s\n", literal(*t.eff))
	}
}

// v06ROCmStart is where the vllm@0.6+rocm partial fit starts: the later
// ROCm build's terms as fitted with gemm_half_tokens at its prior (the
// vllm@rocm fit of -terms bandwidth_efficiency,
// attention_bandwidth_efficiency,step_overhead_ms,sequence_overhead_us),
// whose weight streaming and overheads calc's vllmV06ROCmEff keeps. Held
// here so that the 0.6 fit reproduces when the vllm@rocm terms are refitted
// (their GEMM padding, 264 tokens since, is a property of the later
// builds' FP8 hipBLASLt kernels, not of 0.6's 16-bit torch GEMMs).
var v06ROCmStart = calc.Efficiencies{BandwidthEfficiency: 0.525, AttentionBandwidthEfficiency: 0.306, ComputeEfficiency: 0.6, GEMMHalfTokens: 16, AttentionEfficiency: 0.4, StepOverheadMs: 3.29, SequenceOverheadUs: 36.2, LayerOverheadUs: 7.6, ContextOverheadMs: 0}

// start returns the terms a fit of t from scratch starts from: the prior,
// or for the ROCm terms' partial fit (-terms) the engine's vendor-neutral
// V1 terms, so that the fit does not depend on what is committed and the
// terms it leaves alone are the CUDA build's.
func start(t target, terms string) calc.Efficiencies {
	if t.v06rocm && terms != "" && terms != "all" {
		// vLLM 0.6 on ROCm: the ROCm build's terms (bandwidth, overheads
		// of the later V0 and V1 builds) as that fit was made from them,
		// the named ones freed.
		return v06ROCmStart
	}
	if t.v0rocm && terms != "" && terms != "all" {
		// V0 under 0.7 on ROCm: the ROCm build's kernel terms, its
		// CPU terms freed.
		return *lookup(t.engine).EffROCm
	}
	if t.rocm && terms != "" && terms != "all" {
		return lookup(t.engine).Eff
	}
	return prior
}

// literal prints an Efficiencies as the Go literal calc/release/engine.go holds.
func literal(e calc.Efficiencies) string {
	ar := ""
	if e.AllReduceLatencyUs != 0 {
		ar = fmt.Sprintf(", AllReduceLatencyUs: %.3g", e.AllReduceLatencyUs)
	}
	if e.PrefillLayerOverheadUs != 0 {
		ar += fmt.Sprintf(", PrefillLayerOverheadUs: %.3g", e.PrefillLayerOverheadUs)
	}
	if e.SMBytesPerCycle != 0 {
		ar += fmt.Sprintf(", SMBytesPerCycle: %.3g", e.SMBytesPerCycle)
	}
	if e.PagedAttentionV1BandwidthEfficiency != 0 {
		ar += fmt.Sprintf(", PagedAttentionV1BandwidthEfficiency: %.3g", e.PagedAttentionV1BandwidthEfficiency)
	}
	if e.TPStepOverheadMs != 0 {
		ar += fmt.Sprintf(", TPStepOverheadMs: %.3g", e.TPStepOverheadMs)
	}
	if e.MoELayerOverheadUs != 0 {
		ar += fmt.Sprintf(", MoELayerOverheadUs: %.3g", e.MoELayerOverheadUs)
	}
	return fmt.Sprintf("Efficiencies{BandwidthEfficiency: %.3g, AttentionBandwidthEfficiency: %.3g, ComputeEfficiency: %.3g, GEMMHalfTokens: %.3g, AttentionEfficiency: %.3g, StepOverheadMs: %.3g, SequenceOverheadUs: %.3g, LayerOverheadUs: %.3g, ContextOverheadMs: %.3g%s}",
		e.BandwidthEfficiency, e.AttentionBandwidthEfficiency, e.ComputeEfficiency, e.GEMMHalfTokens, e.AttentionEfficiency,
		e.StepOverheadMs, e.SequenceOverheadUs, e.LayerOverheadUs, e.ContextOverheadMs, ar)
}

// leaveOneGroupOut refits each named set with one group's cases held
// out (by "source" document, "repo", "gpu", "model" (checkpoint),
// "version" (engine release profile) or "tp"), from its shipped terms
// (holdOut: terms names the terms freed, "" the set's shipped fit's), and
// prints the held-out errors: how the step model does on measurements
// from a group it was not fitted on.
func leaveOneGroupOut(paths []string, names, terms, by string) {
	cs := readCases(paths)
	if terms == "all" {
		terms = ""
	}
	fmt.Printf("%-14s %-60s %5s %5s %14s %14s\n", "terms", "held-out group", "train", "test", "in sample", "held out")
	figs, fits := holdOut(cs, targets(names), groupKey(by), terms, nil)
	type key struct{ target, metric string }
	held := map[key][]float64{}
	for _, h := range fits {
		var in, out []float64
		for _, f := range figs {
			if f.set == h.set && groupKey(by)(f.r) == h.group {
				in = append(in, math.Abs(f.r.RelErr()))
				out = append(out, math.Abs(f.held/f.r.Measured-1))
				k := key{h.set, validation.MetricClass(f.r.Metric)}
				held[k] = append(held[k], math.Abs(f.held/f.r.Measured-1))
			}
		}
		note := ""
		if !h.refitted {
			note = "  (not fitted on: shipped terms)"
		}
		fmt.Printf("%-14s %-60s %5d %5d %13.1f%% %13.1f%%%s\n", h.set, short(h.group), h.train, h.test, 100*validation.MedianOf(in), 100*validation.MedianOf(out), note)
	}
	fmt.Printf("\n%-14s %-12s %4s %14s %10s %10s\n", "terms", "metric", "n", "median |err|", "<=15%", "<=20%")
	var keys []key
	for k := range held {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].target != keys[j].target {
			return keys[i].target < keys[j].target
		}
		return keys[i].metric < keys[j].metric
	})
	for _, k := range keys {
		errs := held[k]
		fmt.Printf("%-14s %-12s %4d %13.1f%% %9.0f%% %9.0f%%\n", k.target, k.metric, len(errs), 100*validation.MedianOf(errs), 100*within(errs, 0.15), 100*within(errs, 0.20))
	}
}

func within(errs []float64, tol float64) float64 {
	n := 0
	for _, e := range errs {
		if e <= tol {
			n++
		}
	}
	return float64(n) / float64(max(len(errs), 1))
}

func short(s string) string {
	if r := []rune(s); len(r) > 60 {
		return "…" + string(r[len(r)-59:])
	}
	return s
}
