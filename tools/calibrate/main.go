// Command calibrate prints the engine's error against every published
// measurement in ../shared/validation/cases.json, case by case and
// summarised per group and engine. `./build.sh calibrate` runs it.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/modelrefs/throughput/calc/validation"
)

func main() {
	path := flag.String("cases", "../shared/validation/cases.json", "validation cases files, comma-separated")
	all := flag.Bool("all", false, "also list cases that are not comparable")
	fitE := flag.String("fit", "", "fit these engine profiles' step-model terms (comma-separated, or all) from the prior by coordinate descent on the mean squared log error, and print them")
	terms := flag.String("terms", "all", "with -fit or -logo: the terms to fit, comma-separated (the others keep the prior)")
	logo := flag.Bool("logo", false, "leave-one-group-out: refit each engine without each source document's cases and print the held-out errors")
	fitMem := flag.Bool("fit-memory", false, "refit the memory model's CUDA-graph estimate (least squares on group A's logged estimates) and print it")
	flag.Parse()
	if *fitMem {
		fitMemory(*path)
		return
	}
	if *fitE != "" {
		fitEngines(*path, *fitE, *terms)
		return
	}
	if *logo {
		leaveOneGroupOut(*path, *terms)
		return
	}
	rs, err := validation.Load(strings.Split(*path, ",")...)
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
}
