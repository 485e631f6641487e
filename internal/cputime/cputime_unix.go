//go:build unix

// Package cputime reads the process's CPU time, so that benchmarks can
// report CPU per operation beside wall time on a shared, noisy machine.
// It is a leaf: it imports only the standard library.
package cputime

import "syscall"

// Seconds returns the process's user+system CPU time in seconds.
func Seconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}
