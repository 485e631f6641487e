package sched

import "math"

// DistKind is the shape of a token-length distribution.
type DistKind uint8

const (
	// Constant always gives Mean.
	Constant DistKind = iota
	// Uniform gives an integer uniformly in [Min, Max].
	Uniform
	// Normal has mean Mean and standard deviation Std.
	Normal
	// LogNormal has mean Mean and standard deviation Std (of the length,
	// not of its logarithm).
	LogNormal
	// Exponential has mean Mean.
	Exponential
)

// Dist is a distribution of token lengths. Samples are rounded to the
// nearest integer and clamped to [Min, Max] (Max 0: no upper bound), so
// the realised mean of a wide distribution differs from Mean.
type Dist struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	Kind      DistKind
	Mean, Std float64
	Min, Max  int
}

// sample draws one length (at least 1).
func (d Dist) sample(r *Rand) int {
	lo := max(d.Min, 1)
	var x float64
	switch d.Kind {
	case Constant:
		x = d.Mean
	case Uniform:
		hi := max(d.Max, lo)
		return lo + int(r.Float64()*float64(hi-lo+1))
	case Normal:
		x = d.Mean + float64(d.Std*r.NormFloat64())
	case LogNormal:
		// sigma^2 = ln(1 + std^2/mean^2), mu = ln(mean) - sigma^2/2.
		cv := d.Std / d.Mean
		s2 := ln(1 + float64(cv*cv))
		x = exp(ln(d.Mean) - s2/2 + float64(math.Sqrt(s2)*r.NormFloat64()))
	case Exponential:
		x = d.Mean * r.ExpFloat64()
	}
	n := lo
	if x > float64(lo) {
		n = int(min(math.Floor(x+0.5), 1<<40))
	}
	if d.Max > 0 && n > d.Max {
		n = d.Max
	}
	return n
}

// ArrivalKind is how requests arrive.
type ArrivalKind uint8

const (
	// Burst submits every request at time zero.
	Burst ArrivalKind = iota
	// Poisson submits requests as a Poisson process of RatePerS.
	Poisson
	// ClosedLoop runs Users users, each submitting its next request the
	// moment its previous one finishes (no think time); they all start at
	// time zero.
	ClosedLoop
)

// Workload is the traffic of one simulation. Lengths and arrival gaps
// come from two independent streams of one seed, so changing the rate
// keeps every request's lengths and scales its arrival time (common
// random numbers: a sweep over rates compares like with like).
type Workload struct {
	NumRequests int
	Seed        uint64
	Arrival     ArrivalKind
	RatePerS    float64 // Poisson only, requests per second
	Users       int     // ClosedLoop only
	Input       Dist
	Output      Dist
	// MaxTokens caps input+output (max_model_len): an input is clamped to
	// MaxTokens-1 and its output to MaxTokens-input. 0: no cap.
	MaxTokens int
	// Sessions makes the requests the turns of multi-turn sessions
	// (sessions.go); nil: independent requests.
	Sessions *Sessions
	// Trace is Replay's requests, NumRequests of them (trace.go).
	Trace []TraceRequest
}

// request is one generated request.
type request struct {
	arrivalS      float64
	input, output int
}

// generate fills reqs (len NumRequests) with lengths and, for Burst and
// Poisson, arrival times (ClosedLoop arrivals are set while simulating).
func (w *Workload) generate(reqs []request) {
	if w.Arrival == Replay {
		w.generateReplay(reqs)
		return
	}
	seed := w.Seed
	lengths := NewRand(splitmix64(&seed))
	gaps := NewRand(splitmix64(&seed))
	var t float64
	for i := range reqs {
		in := w.Input.sample(lengths)
		out := w.Output.sample(lengths)
		if w.MaxTokens > 1 {
			in = min(in, w.MaxTokens-1)
			out = min(out, w.MaxTokens-in)
		}
		reqs[i] = request{input: in, output: out}
		if w.Arrival == Poisson {
			t += gaps.ExpFloat64() / w.RatePerS
			reqs[i].arrivalS = t
		}
	}
}

// Lengths calls f with the input and output lengths of the workload's
// first n requests (at most NumRequests), exactly as a run generates
// them, without arrival times: a cheap look at a run's work before it
// runs (a session workload's turns, Sessions not nil, as its run draws
// them).
func (w *Workload) Lengths(n int, f func(input, output int)) {
	if w.Arrival == Replay {
		w.replayLengths(min(n, w.NumRequests), func(_, in, out int) { f(in, out) })
		return
	}
	if w.Sessions != nil {
		seed := w.Seed
		w.sessionTurns(min(n, w.NumRequests), NewRand(splitmix64(&seed)), func(_, _, in, out int) { f(in, out) })
		return
	}
	w.DrawnLengths(n, f)
}

// DrawnLengths is Lengths for a workload of independent requests drawn
// from Input and Output (not Replay, Sessions nil): the part of Lengths
// that does not link the trace's and the sessions' code (the browser's
// light engine, which refuses both, prices its work with it alone).
func (w *Workload) DrawnLengths(n int, f func(input, output int)) {
	seed := w.Seed
	lengths := NewRand(splitmix64(&seed))
	for i := 0; i < min(n, w.NumRequests); i++ {
		in := w.Input.sample(lengths)
		out := w.Output.sample(lengths)
		if w.MaxTokens > 1 {
			in = min(in, w.MaxTokens-1)
			out = min(out, w.MaxTokens-in)
		}
		f(in, out)
	}
}
