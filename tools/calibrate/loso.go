package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/release"
	"github.com/modelrefs/throughput/calc/validation"
	"github.com/modelrefs/throughput/hardware"
)

// fitPlan is how an efficiency set's shipped terms were fitted (the
// commands calc/release's comments give): the terms the fit freed, what
// those terms are before any case informs them (the prior, the set the fit
// started from), and the sources it left out. The held-out refits repeat
// it.
type fitPlan struct {
	terms string // -terms ("all": every term but the named-only ones)
	// parent is the set whose terms this one started from and keeps where
	// it does not free them (SGLang's are vLLM's; vllm@0.7+rocm's kernel
	// terms are vllm@rocm's): held out, those are the parent's terms
	// refitted without the same group. "": the prior (or base).
	parent string
	// base returns the set's terms before any case where it has no
	// parent: the prior when nil.
	base func() calc.Efficiencies
	skip []string // -skip-sources
}

// fitPlans are the shipped fits, by set (calc/release EffSet's names).
var fitPlans = map[string]fitPlan{
	// vLLM V1's shipped fit is "all" and then its MoE block (named only):
	// held out, the MoE block is refitted without the group too, so a
	// source that alone informs it is predicted without it.
	"vllm":          {terms: "all,moe_layer_overhead_us"},
	"vllm@0.6":      {terms: "bandwidth_efficiency,attention_bandwidth_efficiency,compute_efficiency,gemm_half_tokens,attention_efficiency,step_overhead_ms,sequence_overhead_us,layer_overhead_us,tp_step_overhead_ms"},
	"vllm@sync":     {terms: "step_overhead_ms,sequence_overhead_us", parent: "vllm"},
	"vllm@rocm":     {terms: "attention_bandwidth_efficiency,step_overhead_ms,sequence_overhead_us,gemm_half_tokens", parent: "vllm"},
	"vllm@0.7+rocm": {terms: "step_overhead_ms,sequence_overhead_us", parent: "vllm@rocm"},
	// Its start (v06ROCmStart) is an earlier vllm@rocm fit held as a
	// constant, on another source than its own cases.
	"vllm@0.6+rocm": {terms: "attention_bandwidth_efficiency,paged_attention_v1_bandwidth_efficiency,compute_efficiency,all_reduce_latency_us",
		base: func() calc.Efficiencies { return v06ROCmStart }},
	"sglang":         {terms: "bandwidth_efficiency,layer_overhead_us,prefill_layer_overhead_us", parent: "vllm"},
	"lmdeploy":       {terms: "all"},
	"trtllm":         {terms: "all"},
	"llamacpp":       {terms: "all,sm_bytes_per_cycle"},
	"llamacpp@metal": {terms: "all"},
	"llamacpp@rocm":  {terms: "bandwidth_efficiency,attention_bandwidth_efficiency,step_overhead_ms,sm_bytes_per_cycle", parent: "llamacpp", skip: []string{"LLM-Inference-Bench"}},
}

// planTerms returns the terms a plan's list names ("all" stands for every
// term but the named-only ones).
func planTerms(list string) []param {
	var out []param
	seen := map[string]bool{}
	for _, n := range strings.Split(list, ",") {
		for _, p := range selectParams(n) {
			if !seen[p.name] {
				seen[p.name] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// effSet names the efficiency set a result ran under (calc/release
// EffSet), "" for a figure no step term enters (KV capacity) or one that
// is not compared.
func effSet(r validation.Result) string {
	if !r.Comparable || !speedMetric(r.Metric) {
		return ""
	}
	e, ok := calc.LookupEngine(r.Engine)
	if !ok {
		return ""
	}
	v, _ := release.LookupVersion(e.Name, r.Version)
	vendor := ""
	if a, err := hardware.Lookup(r.GPU); err == nil {
		vendor = a.Vendor
	}
	return e.EffSet(vendor, v)
}

// figure is one compared figure: a case's result under the shipped terms
// and under the fit that did not see its group.
type figure struct {
	c   int // the case (index into the cases)
	r   validation.Result
	set string
	// held is the figure predicted by the terms fitted without its
	// group's cases; it is r.Predicted where no step term enters (KV
	// capacity) or the set's fit never used the group.
	held float64
}

// heldFit records one held-out refit: the set, the group held out, the
// cases it was fitted and tested on, and the terms it ended with.
type heldFit struct {
	set, group  string
	train, test int
	terms       calc.Efficiencies
	refitted    bool // false: the group was not among the fit's cases, so the shipped terms predict it
}

// holdOut is leave-one-group-out validation of the efficiency sets: every
// comparable figure of the cases is predicted once with the shipped
// terms and once by its set's terms refitted without any case of its
// group (key: the source document for leave-one-source-out). Each refit
// repeats the set's shipped fit (fitPlans; terms overrides its terms when
// not ""), starting from the shipped terms: a freed term that the
// remaining cases inform is refitted (refit), one that only the held-out
// cases inform falls back to the plan's base (what it was before any case
// informed it), and one that no case informs keeps its shipped value. A
// group that was none of the fit's cases is predicted by the shipped terms.
// The engine profiles are left as they were. progress, when not nil, gets
// one line per refit.
func holdOut(cs []validation.Case, sets []target, key func(validation.Result) string, terms string, progress io.Writer) ([]figure, []heldFit) {
	all, figs, byCase := figuresOf(cs)
	// The sets are refitted concurrently (each changes its own terms
	// only, and a case reads its own set's), a child once its parent is
	// done, since it starts from the parent's held-out terms.
	var mu sync.Mutex
	var wg sync.WaitGroup
	var fits []heldFit
	held := map[string]map[string]calc.Efficiencies{} // set -> group -> refitted terms
	done := map[string]chan struct{}{}
	for _, t := range sets {
		done[t.name] = make(chan struct{})
	}
	for _, t := range sets {
		wg.Add(1)
		go func(t target) {
			defer wg.Done()
			defer close(done[t.name])
			if ch, ok := done[fitPlans[t.name].parent]; ok {
				<-ch
			}
			mu.Lock()
			parents := map[string]map[string]calc.Efficiencies{}
			for k, v := range held {
				parents[k] = v
			}
			mu.Unlock()
			fs := holdOutSet(cs, all, figs, byCase, t, key, terms, parents, progress)
			mine := map[string]calc.Efficiencies{}
			for _, h := range fs {
				if h.refitted {
					mine[h.group] = h.terms
				}
			}
			mu.Lock()
			held[t.name] = mine
			fits = append(fits, fs...)
			mu.Unlock()
		}(t)
	}
	wg.Wait()
	sort.SliceStable(fits, func(i, j int) bool {
		if fits[i].set != fits[j].set {
			return fits[i].set < fits[j].set
		}
		return fits[i].group < fits[j].group
	})
	return figs, fits
}

// figuresOf evaluates the cases under the shipped terms: each case's
// figures (all), the comparable ones (figs, held = in sample) and, by
// case, the indices of its figures in figs.
func figuresOf(cs []validation.Case) (all [][]validation.Result, figs []figure, byCase map[int][]int) {
	all = evalCases(cs, nil)
	byCase = map[int][]int{}
	for i, rs := range all {
		for _, r := range rs {
			if !r.Comparable || r.Measured <= 0 {
				continue
			}
			byCase[i] = append(byCase[i], len(figs))
			figs = append(figs, figure{c: i, r: r, set: effSet(r), held: r.Predicted})
		}
	}
	return all, figs, byCase
}

// holdOutSet is holdOut for one set; it fills figs' held figures of the set.
// held are the parents' refitted terms, by set and group.
func holdOutSet(cs []validation.Case, all [][]validation.Result, figs []figure, byCase map[int][]int, t target, key func(validation.Result) string, terms string, held map[string]map[string]calc.Efficiencies, progress io.Writer) []heldFit {
	plan, ok := fitPlans[t.name]
	if !ok {
		plan = fitPlan{terms: "all"}
	}
	if terms != "" {
		plan.terms = terms
	}
	free := planTerms(plan.terms)
	freed := map[string]bool{}
	for _, p := range free {
		freed[p.name] = true
	}
	shipped := *t.eff
	defer func() { *t.eff = shipped }()

	// The set's cases: every case with a figure of the set (scored), and
	// those its fit uses (pool: not replayed, not skipped).
	var cases []int
	group := map[int]string{}
	pool := map[int]bool{}
	for _, c := range sortedKeys(byCase) {
		var in bool
		for _, f := range byCase[c] {
			in = in || figs[f].set == t.name
		}
		if !in {
			continue
		}
		cases = append(cases, c)
		r := all[c][0]
		group[c] = key(r)
		pool[c] = !r.Replay && figs[byCase[c][0]].set == t.name && !skipGPU[r.GPU] && !skippedSource(r.Source) && !containsAny(r.Source, plan.skip)
	}
	if len(cases) == 0 {
		return nil
	}
	informs := informedBy(cs, cases, t, free)
	var groups []string
	seen := map[string]bool{}
	for _, c := range cases {
		if !seen[group[c]] {
			seen[group[c]] = true
			groups = append(groups, group[c])
		}
	}
	sort.Strings(groups)
	var out []heldFit
	for _, g := range groups {
		var train, test []int
		inPool := false
		for _, c := range cases {
			switch {
			case group[c] == g:
				test = append(test, c)
				inPool = inPool || pool[c]
			case pool[c]:
				train = append(train, c)
			}
		}
		// The terms before any case of this set (base), and where it
		// starts: its shipped terms, with those it keeps from its parent
		// as the parent was refitted without g.
		start, base := shipped, prior
		if plan.base != nil {
			base = plan.base()
		}
		if plan.parent != "" {
			base = *lookupSet(plan.parent)
			if pt, ok := held[plan.parent][g]; ok {
				base = pt
				for _, p := range params {
					if !freed[p.name] {
						*p.ptr(&start) = *p.ptr(&pt)
					}
				}
				inPool = true // its parent's terms move: predict g anew
			}
		}
		h := heldFit{set: t.name, group: g, train: len(train), test: len(test), terms: shipped}
		if !inPool {
			out = append(out, h) // the shipped fit never saw g: its figures stand
			continue
		}
		began := time.Now()
		*t.eff = start
		var fitted []param
		for _, p := range free {
			switch {
			case anyOf(train, informs[p.name]):
				fitted = append(fitted, p)
			case anyOf(test, informs[p.name]):
				*p.ptr(t.eff) = *p.ptr(&base) // only g informed it
			}
		}
		if len(fitted) > 0 {
			refit(t, subset(cs, train), fitted, informsOf(train, informs))
		}
		h.terms, h.refitted = *t.eff, true
		rs := evalCases(cs, test)
		for i, c := range test {
			for k, f := range byCase[c] {
				if figs[f].set == t.name && k < len(rs[i]) {
					figs[f].held = rs[i][k].Predicted
				}
			}
		}
		if progress != nil {
			fmt.Fprintf(progress, "%-14s %-60s %5d %5d %6.1fs\n", t.name, short(g), len(train), len(test), time.Since(began).Seconds())
		}
		out = append(out, h)
	}
	return out
}

// informedBy returns, for each term, which of the cases (by case index)
// its value enters: moving the term by a tenth of its range (inward from
// a bound) changes the case's prediction.
func informedBy(cs []validation.Case, cases []int, t target, free []param) map[string]map[int]bool {
	before := evalCases(cs, cases)
	out := map[string]map[int]bool{}
	for _, p := range free {
		ptr := p.ptr(t.eff)
		keep := *ptr
		lo, hi := bounds(t, p)
		step := (hi - lo) / 10
		if keep+step > hi {
			step = -step
		}
		*ptr = keep + step
		after := evalCases(cs, cases)
		*ptr = keep
		out[p.name] = map[int]bool{}
		for i, c := range cases {
			if changed(before[i], after[i]) {
				out[p.name][c] = true
			}
		}
	}
	return out
}

// changed reports whether any prediction differs between two evaluations
// of one case.
func changed(a, b []validation.Result) bool {
	if len(a) != len(b) {
		return true
	}
	for i := range a {
		if math.Abs(a[i].Predicted-b[i].Predicted) > 1e-9*math.Abs(a[i].Predicted) {
			return true
		}
	}
	return false
}

// refitSchedule is the held-out refits' coordinate descent from the
// shipped terms: rounds rounds, each trying points values of every term
// across a window (window of its range at first, halved every round).
var refitSchedule = struct {
	rounds, points int
	window         float64
}{rounds: 4, points: 5, window: 0.25}

// refit minimises the fit's objective (objective: mean squared log error
// plus the prior's penalty) over the terms which, from their current
// values, by coordinate descent (refitSchedule). Trying a value of a term
// re-evaluates only the cases that term enters (informs, by position in
// cs); the others keep their last log error. The target's terms are
// changed in place.
func refit(t target, cs []validation.Case, which []param, informs map[string][]bool) {
	le := make([]float64, len(cs)) // squared log error
	ok := make([]bool, len(cs))
	all := make([]int, len(cs))
	for i := range all {
		all[i] = i
	}
	score := func(idx []int, le []float64, ok []bool) {
		rs := evalCases(cs, idx)
		for j, i := range idx {
			le[i], ok[i] = 0, false
			if len(rs[j]) == 0 {
				continue
			}
			r := rs[j][0]
			if r.Comparable && r.Measured > 0 && r.Predicted > 0 {
				l := math.Log(r.Predicted / r.Measured)
				le[i], ok[i] = l*l, true
			}
		}
	}
	obj := func(le []float64, ok []bool) float64 {
		var sum float64
		n := 0
		for i := range le {
			if ok[i] {
				sum += le[i]
				n++
			}
		}
		return posterior(t, sum/float64(max(n, 1)), n)
	}
	score(all, le, ok)
	best := obj(le, ok)
	tryLE, tryOK := make([]float64, len(cs)), make([]bool, len(cs))
	s := refitSchedule
	for round := 0; round < s.rounds; round++ {
		for _, p := range which {
			var idx []int
			for i, in := range informs[p.name] {
				if in {
					idx = append(idx, i)
				}
			}
			ptr := p.ptr(t.eff)
			lo, hi := bounds(t, p)
			span := s.window * (hi - lo) / math.Pow(2, float64(round))
			keep := *ptr
			var keepLE []float64
			var keepOK []bool
			for i := 0; i < s.points; i++ {
				v := keep - span/2 + span*float64(i)/float64(s.points-1)
				if v < lo || v > hi || v == keep {
					continue
				}
				*ptr = v
				copy(tryLE, le)
				copy(tryOK, ok)
				score(idx, tryLE, tryOK)
				if o := obj(tryLE, tryOK); o < best-1e-12 {
					best, keep = o, v
					keepLE, keepOK = append(keepLE[:0], tryLE...), append(keepOK[:0], tryOK...)
				}
			}
			*ptr = keep
			if keepLE != nil {
				copy(le, keepLE)
				copy(ok, keepOK)
			}
		}
	}
}

// evalCases evaluates the cases idx (nil: every case) on every core and
// returns each one's figures (nil for one that fails to evaluate). The
// profiles are not changed while they run.
func evalCases(cs []validation.Case, idx []int) [][]validation.Result {
	if idx == nil {
		idx = make([]int, len(cs))
		for i := range idx {
			idx[i] = i
		}
	}
	out := make([][]validation.Result, len(idx))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				if rs, err := cs[idx[j]].EvalAll(); err == nil {
					out[j] = rs
				}
			}
		}()
	}
	for j := range idx {
		next <- j
	}
	close(next)
	wg.Wait()
	return out
}

func sortedKeys(m map[int][]int) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

func anyOf(cases []int, set map[int]bool) bool {
	for _, c := range cases {
		if set[c] {
			return true
		}
	}
	return false
}

// informsOf re-indexes informs over the cases train (by position).
func informsOf(train []int, informs map[string]map[int]bool) map[string][]bool {
	out := map[string][]bool{}
	for name, set := range informs {
		b := make([]bool, len(train))
		for i, c := range train {
			b[i] = set[c]
		}
		out[name] = b
	}
	return out
}

func subset(cs []validation.Case, idx []int) []validation.Case {
	out := make([]validation.Case, len(idx))
	for i, c := range idx {
		out[i] = cs[c]
	}
	return out
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// groupKey returns the group a leave-one-group-out check holds out:
// "source" (the source document, validation.SourceKey), "repo" (its
// repository or site: the sibling files of one study together), "gpu",
// "model" (checkpoint), "version" (engine release profile) or "tp".
func groupKey(by string) func(validation.Result) string {
	return func(r validation.Result) string {
		switch by {
		case "gpu":
			return r.GPU
		case "tp":
			return "tp" + strconv.Itoa(max(r.TP, 1))
		case "model":
			return r.Model
		case "version":
			return r.Engine + "@" + r.Version
		case "repo":
			return repoOf(r.Source)
		}
		return r.Source
	}
}

// repoOf is the repository ("owner/repo") or site of a source key.
func repoOf(src string) string {
	if i := strings.IndexByte(src, '#'); i >= 0 {
		return src[:i]
	}
	parts := strings.SplitN(src, "/", 3)
	if len(parts) >= 2 && !strings.Contains(parts[0], ".") {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

// lookupSet returns the shipped terms of a set (calc/release EffSet's
// names).
func lookupSet(name string) *calc.Efficiencies {
	for _, t := range targets("all") {
		if t.name == name {
			return t.eff
		}
	}
	fmt.Fprintln(os.Stderr, "calibrate: unknown efficiency set", name)
	os.Exit(2)
	return nil
}
