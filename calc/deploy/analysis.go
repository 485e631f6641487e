package deploy

import (
	"math"
)

// Serving is the analysis of a server running a deployment under load:
// its serving rate at a concurrency and the concurrency at a rate
// (Little's law), its time per output token and to the first token, and
// the largest batch within a latency budget, from the deployment's step
// model and block pool. memo (nil: none) memoises the step times the
// planner's candidates of one layout repeat (StepMemo); Evaluate's
// analyses have none, and are safe for concurrent use.
type Serving struct {
	d    *Deployment
	memo *StepMemo
}

// Analyse returns the serving analysis of d, its step times memoised in
// memo (nil: none).
func Analyse(d *Deployment, memo *StepMemo) Serving { return Serving{d, memo} }

// fluctuationZ is how many standard deviations above its mean the number of
// requests in flight may reach before we call preemption begun. Under
// Poisson arrivals that number is roughly Poisson-distributed (an
// infinite-server queue), so its standard deviation is sqrt(mean); z = 2 is
// its 97.7th percentile.
const fluctuationZ = 2

// MeanInFlightForPeak returns the mean c whose c + z*sqrt(c) equals peak:
// the largest mean number in flight whose fluctuations stay within peak.
func MeanInFlightForPeak(peak float64) float64 {
	if peak <= 0 {
		return 0
	}
	r := (-fluctuationZ + math.Sqrt(fluctuationZ*fluctuationZ+4*peak)) / 2
	return r * r
}

// SchedulerCap is the most sequences vLLM's scheduler runs in one step:
// max_num_seqs, and one token of the max_num_batched_tokens budget each.
// With speculative decoding each decode takes 1 + k tokens of the budget.
func (d *Deployment) SchedulerCap() (int, string) {
	if byTokens := d.MaxBatched / d.feat.tokensPerSeq(); byTokens < d.MaxNumSeqs {
		return max(byTokens, 1), "max_num_batched_tokens"
	}
	return d.MaxNumSeqs, "max_num_seqs"
}

// prefillTime returns the time to prefill one prompt of n tokens on an
// otherwise idle server, in seconds, and the number of chunks: the prompt
// is split into chunks of max_num_batched_tokens tokens, one per step
// (vLLM v1 chunked prefill); each chunk attends to everything before it.
// A busy server interleaves decodes of `batch` sequences at ctx tokens
// into every chunk step.
//
// The prompt's cached tokens (prefix caching: cachedFor) are skipped: its
// chunks start after them. The time includes the front end (FrontEndS:
// the context phase's fixed latency, the API server's request handling
// and the first token's return, and the prompt's tokenisation, which no
// step pays), so it is the request's TTFT.
func (sv Serving) prefillTime(n, batch int, ctx float64) (float64, int, bool) {
	d := sv.d
	t, chunks, bound := sv.prefillFrom(d.Pool().cachedFor(n), n, batch, ctx)
	return d.Eff.FrontEndS(n) + t, chunks, bound
}

// prefillFrom is prefillTime with the first `from` tokens already cached.
func (sv Serving) prefillFrom(from, n, batch int, ctx float64) (float64, int, bool) {
	d := sv.d
	chunk := max(d.MaxBatched-batch*d.feat.tokensPerSeq(), 1)
	var t float64
	chunks := 0
	bound := false
	for start := from; start < n; start += chunk {
		c := min(chunk, n-start)
		last := start+c >= n
		l := StepLoad{
			DecodeSeqs: batch, DecodeContext: float64(batch) * ctx,
			PrefillTokens: c, PrefillSpan: float64(c) * (float64(start) + float64(c+1)/2),
		}
		if last {
			l.PrefillSeqs = 1
		}
		if batch > 0 {
			l.SpecTokens = batch * d.feat.specK
		}
		s := d.Step(l)
		t += s.TimeS
		bound = bound || s.ComputeBound
		chunks++
		if chunks > 1<<16 {
			// Guard: absurd prompt/chunk ratios are extrapolated.
			t *= float64(n-from) / float64(start+c-from)
			break
		}
	}
	if sv.memo != nil {
		sv.memo.chunks += int64(chunks)
	}
	return t, chunks, bound
}

// prefillMarginal returns the extra step time, in seconds, that prefilling
// one prompt of n tokens adds to a server that is decoding anyway: its
// compute (the weights are read for the decodes regardless).
// Cached prompt tokens are not computed: n - h tokens starting at h span
// (n-h)*(h + (n-h+1)/2).
func (sv Serving) prefillMarginal(n int) float64 {
	d := sv.d
	h := d.Pool().cachedFor(n)
	c := n - h
	s := d.Step(StepLoad{PrefillTokens: c, PrefillSpan: float64(c) * (float64(h) + float64(c+1)/2), PrefillSeqs: 1})
	return s.ComputeS
}

// RateForConcurrency returns the arrival rate that keeps a mean of c
// (possibly fractional) requests in flight: Little's law with the serving
// latency at the nearest whole batch.
func (sv Serving) RateForConcurrency(c float64, in, out int) float64 {
	if c <= 0 {
		return 0
	}
	b := max(int(math.Round(c)), 1)
	r, _ := sv.ServingRate(b, in, out)
	return r * c / float64(b)
}

// ServingRate returns requests/s and output tokens/s of a closed loop of c
// sequences at steady state: each request needs `out` decode steps at batch
// c plus its prefill's compute, so c requests complete every
// out*t_step(c) + c*t_prefill seconds.
func (sv Serving) ServingRate(c int, in, out int) (reqPerS, tokPerS float64) {
	if c <= 0 {
		return 0, 0
	}
	ctx := float64(in) + float64(out)/2
	t, tok := sv.DecodeTime(c, ctx)
	// A step yields TokensPerSeq tokens per sequence (speculation).
	cycle := float64(out)/tok*t + float64(c)*sv.marginal(in)
	reqPerS = ratio(float64(c), cycle)
	return reqPerS, reqPerS * float64(out)
}

// LargestBatch returns the largest b in [1, hi] for which ok(b) holds,
// assuming ok is monotone (true then false); 0 when ok(1) is false.
func LargestBatch(hi int, ok func(int) bool) int {
	if hi < 1 || !ok(1) {
		return 0
	}
	lo := 1
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// sweepBatches returns n distinct batch sizes from 1 to hi, spaced
// quadratically so small batches (where per-user speed changes fastest)
// are resolved finely.
func sweepBatches(n, hi int) []int {
	if hi <= n {
		out := make([]int, hi)
		for i := range out {
			out[i] = i + 1
		}
		return out
	}
	out := make([]int, 0, n)
	last := 0
	for i := 0; i < n; i++ {
		f := float64(i) / float64(n-1)
		b := int(math.Round(1 + float64(hi-1)*f*f))
		if b <= last {
			b = last + 1
		}
		out = append(out, b)
		last = b
	}
	out[n-1] = max(out[n-1], hi)
	return out
}

// ratio is a/b, or 0 when b is not positive or the quotient is not finite:
// a rate over a step time that rounded to 0, a price over no throughput.
// The input bounds keep every denominator well away from 0; this guards
// the division anyway.
func ratio(a, b float64) float64 {
	if !(b > 0) {
		return 0
	}
	q := a / b
	if math.IsNaN(q) || math.IsInf(q, 0) {
		return 0
	}
	return q
}
