// Command calibrate prints the engine's error against every published
// measurement in calc/validation/testdata/shared-cases.json (the
// repository's copy of the shared validation cases) and in the project's
// own public cases (calc/validation/testdata/public-cases.json). By
// default it reports leave-one-source-out validation: per metric class
// (KV capacity, decode step, serving TPOT, TTFT, throughput) and per
// efficiency set, every figure in sample (the shipped terms) beside the
// figure predicted by its set refitted without any case of its source
// document (loso.go). -tables prints the in-sample tables instead: case by
// case, summarised per group, engine and metric, broken down by engine and
// tensor-parallel size, GPU and batch bucket, checked against the aims of
// issue 12 per metric class, and the leave-one-out coverage of the error
// bands per engine from the in-sample residuals. `./build.sh calibrate`
// runs it; -bands writes the band table (go generate ./calc/bands runs
// that) and -coverage prints its coverage, both from the residuals held
// out by source document (bands.go heldOutResults).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/calc/validation"
	_ "github.com/modelrefs/throughput/models/catalog" // the cases name catalog models
	_ "github.com/modelrefs/throughput/models/deepseekv4"
)

func main() {
	path := flag.String("cases", defaultCases, "validation cases files, comma-separated, a relative path from the repository root (a missing one is skipped with a note; with -bands or -coverage it is an error)")
	all := flag.Bool("all", false, "also list cases that are not comparable")
	fitE := flag.String("fit", "", "fit these engine profiles' step-model terms (comma-separated, or all; vllm@0.6 is vLLM's V0 terms, vllm@sync vLLM V1's under the releases that schedule synchronously (0.10-0.13), vllm@rocm vLLM V1's on AMD accelerators, vllm@0.6+rocm vLLM 0.6's upstream ROCm build's, vllm@0.7+rocm vLLM V0's under 0.7 on AMD accelerators, llamacpp@metal llama.cpp's on Apple GPUs, llamacpp@rocm its HIP build's on AMD ones) from the prior by coordinate descent on the maximum a posteriori objective, and print them")
	terms := flag.String("terms", "all", "with -fit or -logo: the terms to fit, comma-separated (with -fit the others keep the prior; with -logo, all: each set's shipped fit's terms)")
	logo := flag.String("logo", "", "leave-one-group-out for these fit targets (comma-separated, or all): refit each without each group's cases, from its shipped terms (the terms its shipped fit freed, unless -terms names others; a term no remaining case informs keeps its shipped value, or its value before the fit when only the held-out cases inform it), and print the held-out errors per group")
	logoBy := flag.String("logo-by", "source", "with -logo or the default report: the group held out, source (document), repo (a source's repository or site), gpu, model (checkpoint), version (engine release profile) or tp")
	tables := flag.Bool("tables", false, "print the in-sample tables (every case; by group, engine and metric; by TP, GPU and batch bucket; the aims of issue 12; the bands' coverage) instead of the leave-one-source-out report")
	fitMem := flag.Bool("fit-memory", false, "refit the memory model's CUDA-graph estimate (least squares on group A's logged estimates) and print it")
	skip := flag.String("skip-gpus", "", "with -fit or -logo: leave out the cases on these GPUs (catalog ids, comma-separated), e.g. builds whose kernels the profile does not model")
	skipSrc := flag.String("skip-sources", "", "with -fit or -logo: leave out the cases whose source document (repository/path or URL) contains one of these strings (comma-separated), e.g. LLM-Inference-Bench")
	bands := flag.Bool("bands", false, "write the error-band table (80 % prediction intervals of the validation residuals, each held out by source document: predicted by its efficiency set refitted without its source) to -o and print its leave-one-out coverage")
	bandsOut := flag.String("o", "calc/bands/bands_gen.go", "with -bands: the Go file to write")
	compare := flag.String("compare", "", "with -tables: score every serving benchmark that measured this figure on it (e.g. ttft_mean_ms), whatever its case's own compare, and leave out the others")
	coverage := flag.Bool("coverage", false, "print the leave-one-out coverage of the error bands per engine and family, from the residuals held out by source document (as -bands builds them)")
	accPage := flag.Bool("accuracy-page", false, "rewrite the accuracy page (docs/accuracy.md, www/page/accuracy.html) from its data, calc/validation/testdata/accuracy.json, without the refits (-bands writes all three)")
	flag.Parse()
	if *accPage {
		if err := rewriteAccuracyPage(moduleRoot()); err != nil {
			fmt.Fprintln(os.Stderr, "calibrate:", err)
			os.Exit(1)
		}
		return
	}
	if *bands {
		writeBands(*path, *bandsOut)
		return
	}
	if *coverage {
		files, err := caseFiles(moduleRoot(), *path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "calibrate:", err)
			os.Exit(1)
		}
		printCoverage(heldOutResults(files), "leave-one-source-out")
		return
	}
	for _, g := range strings.Split(*skip, ",") {
		if g != "" {
			skipGPU[g] = true
		}
	}
	for _, s := range strings.Split(*skipSrc, ",") {
		if s != "" {
			skipSources = append(skipSources, s)
		}
	}
	paths := fromRoot(moduleRoot(), *path)
	if *fitMem {
		fitMemory(paths[0])
		return
	}
	if *fitE != "" {
		fitEngines(paths, *fitE, *terms)
		return
	}
	if *logo != "" {
		leaveOneGroupOut(paths, *logo, *terms, *logoBy)
		return
	}
	if !*tables {
		leaveOneSourceOut(paths, *logoBy)
		return
	}
	rs, missing, err := loadTables(paths, *compare)
	if err != nil {
		fmt.Fprintln(os.Stderr, "calibrate:", err)
		os.Exit(1)
	}
	for _, m := range missing {
		fmt.Fprintln(os.Stderr, "calibrate: skipped (not present):", m)
	}
	fmt.Printf("%-5s %-6s %-9s %-20s %12s %12s %8s  %s\n", "id", "group", "engine", "metric", "measured", "predicted", "error", "case")
	for _, r := range rs {
		if !r.Comparable {
			if *all {
				fmt.Printf("%-5s %-6s %-9s %-20s %12s %12s %8s  %s (not comparable: %s)\n", r.ID, r.Group, r.Engine, r.Metric, "-", "-", "-", r.Desc, r.Reason)
			}
			continue
		}
		fmt.Printf("%-5s %-6s %-9s %-20s %12.4g %12.4g %+7.1f%%  %s\n", r.ID, r.Group, r.Engine, r.Metric, r.Measured, r.Predicted, 100*r.RelErr(), r.Desc)
	}
	table("group, engine and metric", validation.Summarise(rs))
	table("by engine and tensor-parallel size", validation.Breakdown(rs, func(r validation.Result) string { return "tp" + strconv.Itoa(max(r.TP, 1)) }))
	table("by engine and GPU", validation.Breakdown(rs, func(r validation.Result) string { return r.GPU }))
	table("by engine and batch bucket", validation.Breakdown(rs, func(r validation.Result) string { return validation.BatchBucket(r.Batch) }))
	aims("all comparable cases", rs)
	var public []validation.Result
	for _, r := range rs {
		if r.Kind != "" {
			public = append(public, r)
		}
	}
	aims("the public cases (calc/validation/testdata/public-cases.json)", public)
	fmt.Println("\nError bands (docs/MODEL.md section 7; the shipped table and -coverage use the leave-one-source-out residuals):")
	printCoverage(rs, "in-sample")
}

// fromRoot splits a comma-separated list of paths and makes each relative
// one relative to the repository root, so that calibrate reads the same
// files from any directory of the module.
func fromRoot(root, list string) []string {
	ps := strings.Split(list, ",")
	for i, p := range ps {
		if p != "" && !filepath.IsAbs(p) {
			ps[i] = filepath.Join(root, p)
		}
	}
	return ps
}

// table prints summaries under a title; the first column is the group and
// the breakdown's label.
func table(title string, ss []validation.Summary) {
	fmt.Printf("\n%s\n%-34s %-9s %-20s %4s %13s %11s %6s %6s %6s\n", title, "group", "engine", "metric", "n", "median |err|", "median err", "<=5%", "<=15%", "<=20%")
	for _, s := range ss {
		fmt.Printf("%-34s %-9s %-20s %4d %12.1f%% %+10.1f%% %5.0f%% %5.0f%% %5.0f%%\n", s.Group, s.Engine, s.Metric, s.N, 100*s.MedianAbsErr, 100*s.MedianErr, 100*s.Within5, 100*s.Within15, 100*s.Within20)
	}
}

// aims checks every comparable case, by metric class, against issue 12's
// "Done means": KV capacity median error <= 3 % and >= 90 % within 5 %;
// decode step and throughput within 15 % on >= 80 %; TTFT within 20 % on
// >= 80 %.
func aims(title string, rs []validation.Result) {
	byClass := map[string][]validation.Result{}
	for _, r := range rs {
		if r.Comparable {
			c := validation.MetricClass(r.Metric)
			byClass[c] = append(byClass[c], r)
		}
	}
	fmt.Printf("\naims (issue 12), %s, by metric class\n%-12s %4s %13s %6s %6s %6s  %s\n", title, "class", "n", "median |err|", "<=5%", "<=15%", "<=20%", "aim")
	for _, c := range []string{"kv_capacity", "decode_step", "throughput", "ttft"} {
		ss := validation.Breakdown(byClass[c], func(validation.Result) string { return "" })
		if len(byClass[c]) == 0 {
			fmt.Printf("%-12s %4d\n", c, 0)
			continue
		}
		// One summary over the class: fold the per-engine rows.
		var n int
		var w5, w15, w20 float64
		var errs []float64
		for _, r := range byClass[c] {
			e := r.RelErr()
			if e < 0 {
				e = -e
			}
			errs = append(errs, e)
		}
		for _, s := range ss {
			n += s.N
			w5 += s.Within5 * float64(s.N)
			w15 += s.Within15 * float64(s.N)
			w20 += s.Within20 * float64(s.N)
		}
		w5, w15, w20 = w5/float64(n), w15/float64(n), w20/float64(n)
		med := validation.MedianOf(errs)
		var aim string
		var met bool
		switch c {
		case "kv_capacity":
			aim, met = "median <= 3 % and >= 90 % within 5 %", med <= 0.03 && w5 >= 0.9
		case "ttft":
			aim, met = ">= 80 % within 20 %", w20 >= 0.8
		default:
			aim, met = ">= 80 % within 15 %", w15 >= 0.8
		}
		verdict := "NOT MET"
		if met {
			verdict = "met"
		}
		fmt.Printf("%-12s %4d %12.1f%% %5.1f%% %5.1f%% %5.1f%%  %s: %s\n", c, n, 100*med, 100*w5, 100*w15, 100*w20, aim, verdict)
	}
}

// loadTables evaluates the cases of -tables: every case, or with compare
// only the serving benchmarks that measured that figure, each scored on
// it (validation.Case.Comparing).
func loadTables(paths []string, compare string) ([]validation.Result, []string, error) {
	if compare == "" {
		return validation.LoadAll(paths)
	}
	cs, missing, err := validation.ReadCases(paths...)
	if err != nil {
		return nil, missing, err
	}
	var rs []validation.Result
	for _, c := range cs {
		c, ok := c.Comparing(compare)
		if !ok {
			continue
		}
		r, err := c.EvalAll()
		if err != nil {
			return nil, missing, err
		}
		rs = append(rs, r...)
	}
	return rs, missing, nil
}
