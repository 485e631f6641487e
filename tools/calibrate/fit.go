package main

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strings"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/validation"
)

// param is one fitted term of the step model: its report name, where it
// lives in an engine's Efficiencies, and the physically plausible range
// the search keeps it in.
type param struct {
	name   string
	ptr    func(*calc.Efficiencies) *float64
	lo, hi float64
	// sd is the prior's standard deviation (the prior's mean is the
	// term's value in prior).
	sd float64
}

// params are the step model's nine terms (docs/MODEL.md section 4).
var params = []param{
	{"bandwidth_efficiency", func(e *calc.Efficiencies) *float64 { return &e.BandwidthEfficiency }, 0.4, 1, 0.1},
	{"attention_bandwidth_efficiency", func(e *calc.Efficiencies) *float64 { return &e.AttentionBandwidthEfficiency }, 0.3, 1, 0.15},
	{"compute_efficiency", func(e *calc.Efficiencies) *float64 { return &e.ComputeEfficiency }, 0.2, 0.95, 0.15},
	{"gemm_half_tokens", func(e *calc.Efficiencies) *float64 { return &e.GEMMHalfTokens }, 0, 1024, 32},
	{"attention_efficiency", func(e *calc.Efficiencies) *float64 { return &e.AttentionEfficiency }, 0.05, 0.9, 0.15},
	{"step_overhead_ms", func(e *calc.Efficiencies) *float64 { return &e.StepOverheadMs }, 0, 10, 1},
	{"sequence_overhead_us", func(e *calc.Efficiencies) *float64 { return &e.SequenceOverheadUs }, 0, 100, 10},
	{"layer_overhead_us", func(e *calc.Efficiencies) *float64 { return &e.LayerOverheadUs }, 0, 100, 8},
	{"context_overhead_ms", func(e *calc.Efficiencies) *float64 { return &e.ContextOverheadMs }, 0, 200, 20},
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

// engineCases returns the cases that compare a step-model figure under
// the engine (KV-capacity cases do not depend on the efficiencies).
func engineCases(cs []validation.Case, engine string) []validation.Case {
	var out []validation.Case
	for _, c := range cs {
		if p := c.Profile(); p != "" && p != engine {
			continue
		}
		r, err := c.Eval()
		if err != nil {
			fmt.Fprintln(os.Stderr, "calibrate:", err)
			os.Exit(1)
		}
		if r.Comparable && r.Engine == engine && speedMetric(r.Metric) {
			out = append(out, c)
		}
	}
	return out
}

func speedMetric(m string) bool {
	return m != "capacity_tokens" && m != "num_blocks" && m != "kv_cache_gib"
}

// caseSD is the log error a case is expected to carry even under the right
// terms (measurement spread, unrecorded settings): about 10 %.
const caseSD = 0.1

// objective is the mean squared log error of the cases under the
// engine's current profile plus the prior's penalty: minimising it is the
// maximum a posteriori fit with log-normal case errors of caseSD and a
// normal prior on each term, (caseSD^2 / n) * sum ((term - prior) / sd)^2.
// The penalty keeps a term the cases hardly inform near its physical
// value instead of letting it absorb another term's error.
func objective(cs []validation.Case, engine string) float64 {
	mse, n := meanSquaredLogError(cs, engine)
	if n == 0 {
		return 0
	}
	e := lookup(engine)
	var pen float64
	for _, p := range params {
		z := (*p.ptr(&e.Eff) - *p.ptr(&prior)) / p.sd
		pen += z * z
	}
	return mse + caseSD*caseSD/float64(n)*pen
}

// meanSquaredLogError is the mean of log(predicted/measured)^2 over the
// comparable cases of the engine, and their number.
func meanSquaredLogError(cs []validation.Case, engine string) (float64, int) {
	rs := make([]validation.Result, 0, len(cs))
	for _, c := range cs {
		if r, err := c.Eval(); err == nil {
			rs = append(rs, r)
		}
	}
	return validation.Objective(rs, engine)
}

// fit minimises the objective over the named terms by coordinate descent:
// each round tries 17 values of each term across a window around its
// current value (the whole range at first, halved every round, 6 rounds)
// and keeps the best; a term moves only when that strictly lowers the
// error, so a term no case informs keeps the prior. The profile of the
// engine is changed in place.
func fit(e *calc.Engine, cs []validation.Case, which []param) float64 {
	best := objective(cs, e.Name)
	for round := 0; round < 6; round++ {
		for _, p := range which {
			ptr := p.ptr(&e.Eff)
			span := (p.hi - p.lo) / math.Pow(2, float64(round))
			keep := *ptr
			for i := 0; i <= 16; i++ {
				v := keep - span/2 + span*float64(i)/16
				if v < p.lo || v > p.hi {
					continue
				}
				*ptr = v
				if s := objective(cs, e.Name); s < best-1e-12 {
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
		return params
	}
	var out []param
	for _, n := range strings.Split(list, ",") {
		found := false
		for _, p := range params {
			if p.name == n {
				out, found = append(out, p), true
			}
		}
		if !found {
			fmt.Fprintln(os.Stderr, "calibrate: unknown term", n)
			os.Exit(2)
		}
	}
	return out
}

func lookup(name string) *calc.Engine {
	e, ok := calc.LookupEngine(name)
	if !ok {
		fmt.Fprintln(os.Stderr, "calibrate: unknown engine", name)
		os.Exit(2)
	}
	return e
}

// fitEngines fits each named engine ("all": every engine with cases) from
// the prior and prints the terms and a Go literal for calc/engine.go.
func fitEngines(paths []string, names, terms string) {
	cs := readCases(paths)
	which := selectParams(terms)
	if names == "all" {
		names = strings.Join(calc.EngineNames(), ",")
	}
	for _, name := range strings.Split(names, ",") {
		e := lookup(name)
		ec := engineCases(cs, name)
		if len(ec) == 0 {
			fmt.Printf("%s: no comparable speed cases; profile left as it is\n", name)
			continue
		}
		before, _ := meanSquaredLogError(ec, name)
		e.Eff = prior
		start, _ := meanSquaredLogError(ec, name)
		fit(e, ec, which)
		got, _ := meanSquaredLogError(ec, name)
		fmt.Printf("%s: %d cases; mse(log) with the committed profile %.5f, the prior %.5f, the fit %.5f\n", name, len(ec), before, start, got)
		for _, p := range params {
			fmt.Printf("  %-32s %8.3f\n", p.name, *p.ptr(&e.Eff))
		}
		fmt.Printf("  Eff: %s\n", literal(e.Eff))
	}
}

// literal prints an Efficiencies as the Go literal calc/engine.go holds.
func literal(e calc.Efficiencies) string {
	return fmt.Sprintf("Efficiencies{BandwidthEfficiency: %.3g, AttentionBandwidthEfficiency: %.3g, ComputeEfficiency: %.3g, GEMMHalfTokens: %.3g, AttentionEfficiency: %.3g, StepOverheadMs: %.3g, SequenceOverheadUs: %.3g, LayerOverheadUs: %.3g, ContextOverheadMs: %.3g}",
		e.BandwidthEfficiency, e.AttentionBandwidthEfficiency, e.ComputeEfficiency, e.GEMMHalfTokens, e.AttentionEfficiency,
		e.StepOverheadMs, e.SequenceOverheadUs, e.LayerOverheadUs, e.ContextOverheadMs)
}

// leaveOneGroupOut refits each engine with one source document's cases
// held out, from the prior, and scores the held-out cases: how the step
// model does on measurements from a source it was not fitted on. An
// engine whose cases all come from the held-out source is predicted by the
// prior alone.
func leaveOneGroupOut(paths []string, terms string) {
	cs := readCases(paths)
	which := selectParams(terms)
	type key struct{ engine, metric string }
	held := map[key][]float64{}
	fmt.Printf("%-9s %-44s %5s %5s %14s\n", "engine", "held-out source", "train", "test", "median |err|")
	for _, name := range calc.EngineNames() {
		e := lookup(name)
		keep := e.Eff
		ec := engineCases(cs, name)
		bySource := map[string][]validation.Case{}
		var sources []string
		for _, c := range ec {
			r, _ := c.Eval()
			if _, ok := bySource[r.Source]; !ok {
				sources = append(sources, r.Source)
			}
			bySource[r.Source] = append(bySource[r.Source], c)
		}
		sort.Strings(sources)
		for _, src := range sources {
			var train []validation.Case
			for _, c := range ec {
				if r, _ := c.Eval(); r.Source != src {
					train = append(train, c)
				}
			}
			e.Eff = prior
			if len(train) > 0 {
				fit(e, train, which)
			}
			var errs []float64
			for _, c := range bySource[src] {
				r, _ := c.Eval()
				held[key{name, r.Metric}] = append(held[key{name, r.Metric}], math.Abs(r.RelErr()))
				errs = append(errs, math.Abs(r.RelErr()))
			}
			sort.Float64s(errs)
			fmt.Printf("%-9s %-44s %5d %5d %13.1f%%\n", name, short(src), len(train), len(errs), 100*validation.Median(errs))
		}
		e.Eff = keep
	}
	fmt.Printf("\n%-9s %-20s %4s %14s %10s %10s\n", "engine", "metric", "n", "median |err|", "<=15%", "<=20%")
	var keys []key
	for k := range held {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].engine != keys[j].engine {
			return keys[i].engine < keys[j].engine
		}
		return keys[i].metric < keys[j].metric
	})
	for _, k := range keys {
		errs := held[k]
		sort.Float64s(errs)
		fmt.Printf("%-9s %-20s %4d %13.1f%% %9.0f%% %9.0f%%\n", k.engine, k.metric, len(errs), 100*validation.Median(errs), 100*within(errs, 0.15), 100*within(errs, 0.20))
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
	if len(s) > 44 {
		return "…" + s[len(s)-43:]
	}
	return s
}
