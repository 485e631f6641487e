// Command benchmedian reads `go test -bench -count N` output on standard
// input, echoes it, and prints the median ns/op, B/op and allocs/op of each
// benchmark, and of its CPU-time metric when it reports one (cpu-ms/op,
// cpu-us/op: on a shared machine wall time includes waiting for a core)
// (shared machines are noisy: medians, not single runs).
//
//	go test -run '^$' -bench . -benchmem -count 10 ./calc/ | go run ./tools/benchmedian
package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

type samples struct {
	ns, bytes, allocs []float64
	cpu               []float64 // the cpu-* metric, in cpuUnit
	cpuUnit           string
}

func main() {
	byName := map[string]*samples{}
	var order []string
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		line := sc.Text()
		fmt.Println(line)
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		s, ok := byName[f[0]]
		if !ok {
			s = &samples{}
			byName[f[0]] = s
			order = append(order, f[0])
		}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "ns/op":
				s.ns = append(s.ns, v)
			case "B/op":
				s.bytes = append(s.bytes, v)
			case "allocs/op":
				s.allocs = append(s.allocs, v)
			default:
				if strings.HasPrefix(f[i+1], "cpu-") {
					s.cpu, s.cpuUnit = append(s.cpu, v), f[i+1]
				}
			}
		}
	}
	fmt.Printf("\n%-40s %6s %14s %10s %10s %16s\n", "benchmark (medians)", "runs", "time/op", "B/op", "allocs/op", "cpu")
	for _, name := range order {
		s := byName[name]
		cpu := ""
		if len(s.cpu) > 0 {
			cpu = strconv.FormatFloat(median(s.cpu), 'f', 2, 64) + " " + s.cpuUnit
		}
		fmt.Printf("%-40s %6d %14s %10.0f %10.0f %16s\n", name, len(s.ns), human(median(s.ns)), median(s.bytes), median(s.allocs), cpu)
	}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sort.Float64s(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

func human(ns float64) string {
	switch {
	case ns >= 1e6:
		return strconv.FormatFloat(ns/1e6, 'f', 2, 64) + " ms"
	case ns >= 1e3:
		return strconv.FormatFloat(ns/1e3, 'f', 2, 64) + " µs"
	}
	return strconv.FormatFloat(ns, 'f', 1, 64) + " ns"
}
