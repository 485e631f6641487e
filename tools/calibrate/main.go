// Command calibrate prints the engine's error against every published
// measurement in ../shared/validation/cases.json, case by case and
// summarised per group and engine, and the leave-one-out coverage of the
// error bands per engine. `./build.sh calibrate` runs it; -bands writes
// the band table (go generate ./calc runs that).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/validation"
)

func main() {
	path := flag.String("cases", "../shared/validation/cases.json", "validation cases file")
	all := flag.Bool("all", false, "also list cases that are not comparable")
	fit := flag.String("fit", "", "fit this engine profile's efficiencies (coordinate descent on the mean squared log error) and print them")
	fitMem := flag.Bool("fit-memory", false, "refit the memory model's CUDA-graph estimate (least squares on group A's logged estimates) and print it")
	bands := flag.Bool("bands", false, "write the error-band table (80 % prediction intervals of the validation residuals) to -o and print its leave-one-out coverage")
	bandsOut := flag.String("o", "calc/bands_gen.go", "with -bands: the Go file to write")
	bandsJS := flag.String("js", "", "with -bands: also write the table as an ES module (www/module/bands-table.js) for the JavaScript module")
	coverage := flag.Bool("coverage", false, "print the leave-one-out coverage of the error bands per engine and family")
	flag.Parse()
	if *bands {
		writeBands(*path, *bandsOut, *bandsJS)
		return
	}
	if *coverage {
		rs, err := validation.LoadFiles(caseFiles(moduleRoot(), *path))
		if err != nil {
			fmt.Fprintln(os.Stderr, "calibrate:", err)
			os.Exit(1)
		}
		printCoverage(rs)
		return
	}
	if *fitMem {
		fitMemory(*path)
		return
	}
	if *fit != "" {
		fitEngine(*path, *fit)
		return
	}
	rs, err := validation.Load(*path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "calibrate:", err)
		os.Exit(1)
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
	fmt.Printf("\n%-6s %-9s %-20s %4s %14s %10s %10s\n", "group", "engine", "metric", "n", "median |err|", "<=5%", "<=15%")
	for _, s := range validation.Summarise(rs) {
		fmt.Printf("%-6s %-9s %-20s %4d %13.1f%% %9.0f%% %9.0f%%\n", s.Group, s.Engine, s.Metric, s.N, 100*s.MedianAbsErr, 100*s.Within5, 100*s.Within15)
	}
	fmt.Println("\nError bands (docs/MODEL.md section 7):")
	printCoverage(rs)
}

// fitEngine minimises the engine's mean squared log error over its four
// efficiencies by coordinate descent on fixed grids, then prints them.
func fitEngine(path, name string) {
	e, ok := calc.LookupEngine(name)
	if !ok {
		fmt.Fprintln(os.Stderr, "calibrate: unknown engine", name)
		os.Exit(2)
	}
	grid := func(lo, hi, step float64) []float64 {
		var g []float64
		for x := lo; x <= hi+1e-9; x += step {
			g = append(g, x)
		}
		return g
	}
	params := []struct {
		name string
		ptr  *float64
		vals []float64
	}{
		{"bandwidth_efficiency", &e.Eff.BandwidthEfficiency, grid(0.5, 0.95, 0.01)},
		{"compute_efficiency", &e.Eff.ComputeEfficiency, grid(0.2, 0.8, 0.02)},
		{"prefill_efficiency", &e.Eff.PrefillEfficiency, grid(0.2, 0.8, 0.02)},
		{"step_overhead_ms", &e.Eff.StepOverheadMs, grid(0, 4, 0.05)},
	}
	score := func() (float64, int) {
		rs, err := validation.Load(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "calibrate:", err)
			os.Exit(1)
		}
		return validation.Objective(rs, name)
	}
	best, n := score()
	fmt.Printf("start: mse(log) %.5f over %d cases\n", best, n)
	for round := 0; round < 4; round++ {
		for _, p := range params {
			keep := *p.ptr
			for _, v := range p.vals {
				*p.ptr = v
				if s, _ := score(); s < best {
					best, keep = s, v
				}
			}
			*p.ptr = keep
		}
	}
	fmt.Printf("fit:   mse(log) %.5f\n", best)
	for _, p := range params {
		fmt.Printf("  %-22s %.3f\n", p.name, *p.ptr)
	}
}
