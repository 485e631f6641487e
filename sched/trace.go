package sched

// Replay submits Workload.Trace's requests at their given arrival times
// (a recorded trace, or arrivals drawn from a time-varying rate). Its
// value stays clear of the small kinds other workloads may add.
const Replay ArrivalKind = 16

// TraceRequest is one request of a replayed workload: its arrival time in
// seconds from the start, and its prompt and output lengths in tokens (0:
// drawn from Workload.Input or Workload.Output, as for generated
// arrivals).
type TraceRequest struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	ArrivalS      float64
	Input, Output int32
}

// generateReplay fills reqs from w.Trace: arrival times exactly as given,
// lengths as given or drawn (in order, from the lengths stream of w.Seed,
// as generate draws them), each clamped to MaxTokens as generate does.
func (w *Workload) generateReplay(reqs []request) {
	w.replayLengths(len(reqs), func(i, in, out int) {
		reqs[i] = request{arrivalS: w.Trace[i].ArrivalS, input: in, output: out}
	})
}

// replayLengths calls f with the index and lengths of the trace's first n
// requests.
func (w *Workload) replayLengths(n int, f func(i, input, output int)) {
	seed := w.Seed
	lengths := NewRand(splitmix64(&seed))
	for i := 0; i < min(n, len(w.Trace)); i++ {
		t := w.Trace[i]
		in, out := int(t.Input), int(t.Output)
		if in <= 0 {
			in = w.Input.sample(lengths)
		}
		if out <= 0 {
			out = w.Output.sample(lengths)
		}
		if w.MaxTokens > 1 {
			in = min(in, w.MaxTokens-1)
			out = min(out, w.MaxTokens-in)
		}
		f(i, in, out)
	}
}

// validTrace reports whether the trace can be replayed: one request per
// NumRequests, arrival times finite, non-negative and non-decreasing.
func (w *Workload) validTrace() bool {
	if len(w.Trace) != w.NumRequests {
		return false
	}
	last := 0.0
	for _, t := range w.Trace {
		if !(t.ArrivalS >= last) || t.ArrivalS > 1e12 || t.Input < 0 || t.Output < 0 {
			return false
		}
		last = t.ArrivalS
	}
	return true
}

// MeanRate is a replayed trace's mean arrival rate, in requests per
// second: its requests over the time from zero to its last arrival (0 for
// one request at time zero).
func (w *Workload) MeanRate() float64 {
	if len(w.Trace) == 0 {
		return 0
	}
	if end := w.Trace[len(w.Trace)-1].ArrivalS; end > 0 {
		return float64(len(w.Trace)) / end
	}
	return 0
}
