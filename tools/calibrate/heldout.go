package main

import (
	"fmt"
	"math"
	"os"
	"sort"
	"time"

	"github.com/modelrefs/throughput/calc/validation"
)

// class is the aims table's class of a metric: validation.MetricClass,
// with a serving run's median TPOT ("serving_tpot") apart from the decode
// step of a static batch.
func class(metric string) string {
	if metric == "tpot_ms" {
		return "serving_tpot"
	}
	return validation.MetricClass(metric)
}

// classes are the aims table's rows, in order.
var classes = []string{"kv_capacity", "decode_step", "serving_tpot", "ttft", "throughput"}

// score summarises absolute relative errors: n, median, and the shares
// within 5, 15, 20 and 25 %.
type score struct {
	n                 int
	median            float64
	w5, w15, w20, w25 float64
}

func scoreOf(errs []float64) score {
	if len(errs) == 0 {
		return score{}
	}
	return score{len(errs), validation.MedianOf(errs), within(errs, 0.05), within(errs, 0.15), within(errs, 0.20), within(errs, 0.25)}
}

func (s score) String() string {
	if s.n == 0 {
		return fmt.Sprintf("%4d %8s %5s %5s %5s %5s", 0, "-", "-", "-", "-", "-")
	}
	return fmt.Sprintf("%4d %7.1f%% %4.0f%% %4.0f%% %4.0f%% %4.0f%%", s.n, 100*s.median, 100*s.w5, 100*s.w15, 100*s.w20, 100*s.w25)
}

// inAndOut returns the in-sample and held-out scores of figs by the
// label each figure is given (figures labelled "" are left out).
func inAndOut(figs []figure, label func(figure) string) (map[string]score, map[string]score, []string) {
	in, out := map[string][]float64{}, map[string][]float64{}
	for _, f := range figs {
		l := label(f)
		if l == "" {
			continue
		}
		in[l] = append(in[l], math.Abs(f.r.RelErr()))
		out[l] = append(out[l], math.Abs(f.held/f.r.Measured-1))
	}
	si, so := map[string]score{}, map[string]score{}
	var labels []string
	for l := range in {
		si[l], so[l] = scoreOf(in[l]), scoreOf(out[l])
		labels = append(labels, l)
	}
	sort.Strings(labels)
	return si, so, labels
}

// leaveOneSourceOut is calibrate's default report: every comparable
// figure of the cases in sample (the shipped terms) and held out by
// source document (holdOut), per class, then per efficiency set.
func leaveOneSourceOut(paths []string, by string) {
	start := time.Now()
	cs := readCases(paths)
	fmt.Fprintf(os.Stderr, "calibrate: refitting every efficiency set without each %s in turn (set, group held out, cases fitted, cases held out):\n", by)
	figs, fits := holdOut(cs, targets("all"), groupKey(by), "", os.Stderr)
	refits := 0
	for _, h := range fits {
		if h.refitted {
			refits++
		}
	}
	fmt.Printf("Leave-one-%s-out validation: each figure predicted by its efficiency set refitted without any case of its %s\n", by, by)
	fmt.Printf("(%d figures of %d cases; %d refits; in sample: the shipped terms; held out: tools/calibrate/loso.go holdOut;\n", len(figs), len(cs), refits)
	fmt.Printf("KV capacity depends on no step term and is the same in both).\n\n")
	head := fmt.Sprintf("%4s %8s %5s %5s %5s %5s", "n", "med|err|", "<=5%", "<=15%", "<=20%", "<=25%")
	fmt.Printf("%-14s  in sample: %s   held out by %s: %s\n", "class", head, by, head)
	si, so, _ := inAndOut(figs, func(f figure) string { return class(f.r.Metric) })
	for _, c := range classes {
		fmt.Printf("%-14s             %s                %*s%s\n", c, si[c], len(by)-6, "", so[c])
	}
	fmt.Printf("\nby efficiency set and class (sources: distinct source documents of the set's fitted cases)\n")
	fmt.Printf("%-14s %-13s %7s  in sample: %s   held out: %s\n", "set", "class", "sources", head, head)
	src := setSources(figs)
	si, so, labels := inAndOut(figs, func(f figure) string {
		if f.set == "" {
			return ""
		}
		return f.set + "\x00" + class(f.r.Metric)
	})
	for _, l := range labels {
		var set, c string
		for i := range l {
			if l[i] == 0 {
				set, c = l[:i], l[i+1:]
			}
		}
		fmt.Printf("%-14s %-13s %7d             %s              %s\n", set, c, len(src[set]), si[l], so[l])
	}
	fmt.Fprintf(os.Stderr, "calibrate: held-out validation took %.1f s\n", time.Since(start).Seconds())
}

// setSources returns each set's source documents: the distinct sources
// of the figures its fit uses (not replayed, not skipped by its plan).
func setSources(figs []figure) map[string][]string {
	seen := map[string]map[string]bool{}
	for _, f := range figs {
		if f.set == "" || f.r.Replay || !speedMetric(f.r.Metric) || containsAny(f.r.Source, fitPlans[f.set].skip) {
			continue
		}
		if seen[f.set] == nil {
			seen[f.set] = map[string]bool{}
		}
		seen[f.set][f.r.Source] = true
	}
	out := map[string][]string{}
	for set, m := range seen {
		for s := range m {
			out[set] = append(out[set], s)
		}
		sort.Strings(out[set])
	}
	return out
}
