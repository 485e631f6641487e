package deploy

import (
	"math"

	"github.com/modelrefs/throughput/calc/spec"
)

// steady is one replica's steady state, in seconds and per-replica rates.
type steady struct {
	bdec, x          float64 // decodes per step (as a decoding request sees them) and prompt tokens per step
	tdec, tbar, itl  float64 // pure decode step, mean step, median chunk gap
	ttft, queue, e2e float64 // ttft and e2e without the front end; queue is inside ttft
	wave             float64 // a closed loop's first wave's mean ttft without the front end
	rate             float64 // completed requests per second
	saturated        bool
	limitedBy        string
}

// PrefillFirst reports whether a prompt's step runs alone, the decodes
// waiting for it: SGLang (its scheduler's get_next_batch_to_run returns a
// prefill batch before the running decode batch; enable_mixed_chunk is
// off by default, sgl-project/sglang v0.4.0 managers/scheduler.py) and
// vLLM's V0 engine without chunked prefill (v0.6.0 vllm/core/scheduler.py
// _schedule_default: "Don't schedule decodes if prefills are scheduled").
// vLLM's V1 engine mixes them in one step (vllm/v1/core/sched/
// scheduler.py at v0.8: the running requests first, then waiting ones
// within the token budget), as does V0 with chunked prefill (its default
// above a 32K max_model_len; vllm/core/scheduler.py
// _schedule_chunked_prefill at v0.6.3: the running decodes first, then
// prefill chunks within the budget).
func (d *Deployment) PrefillFirst() bool {
	return d.Engine.Name == "sglang" || d.Version.V0 && !d.v0Chunked
}

// Steady returns the workload's steady state under continuous batching
// (docs/MODEL.md section 5b): conc requests kept in flight (a closed
// loop, conc > 0) or rate requests per second arriving (Poisson, rate >
// 0), each in prompt tokens then out output tokens, on a server that runs
// at most runCap requests at once per replica (limitedBy names the
// bound). The figures follow from Little's law and the mixed step:
//
//	steps   = (out - 1) / k           decode steps per request (k tokens a step: 1, or speculation's mean)
//	q       = b / steps               prompts admitted per step (b decodes per step, Little's law)
//	x       = q * u                   prompt tokens per step (u = in - prefix-cached tokens)
//	t_step  = mixed:         T(b, x)  (x spread as whole prompts, or max_num_batched_tokens chunks, over the steps)
//	          prefill-first: T(b, 0) + (x / u) * T(0, u)
//	TTFT    = front end + wait for the running step (open loop: t_step / 2, plus one step
//	          under SGLang's overlap scheduler) + queue + the prompt's own step(s)
//	front end = context_overhead + request_overhead + tokenize_us_per_token * in (Efficiencies.FrontEndS)
//	first wave (closed loop): front end + the w prompts' turn for the budget together,
//	          (J + max(1, u/P)) / 2 prefill steps of P tokens (J = w * u / P)
//	TPOT    = t_step / k;  E2E = TTFT + (out - 1) * TPOT
//	rate    = b / (steps * t_step);  closed loop: queue = conc / rate - (E2E - front end)
//
// with T(b, n) the step model (Step) at b decodes and n prompt tokens,
// and b the decodes a decoding request sees: 1 + the others (a closed
// loop's conc - 1 times the share of a request's life spent decoding; an
// open loop's mean number decoding, rate * steps * t_step, solved as a
// fixed point). Sources: vLLM's V1 scheduler (vllm/v1/core/sched/
// scheduler.py at v0.8: decodes first, then prompts within
// max_num_batched_tokens), SGLang's (sgl-project/sglang v0.4.0
// managers/scheduler.py), and the benchmark clients' definitions (vLLM
// benchmarks/backend_request_func.py and serve.py at v0.8: TPOT =
// (latency - ttft) / (output_len - 1), ITL the gaps between streamed
// chunks). Under data parallelism the workload is each rank's (as the
// cost card and the planner read it) and the rates are every rank's; the
// slowest rank's pace under lockstep MoE is left to the simulator.
func (sv Serving) Steady(in, out, conc int, rate float64, runCap int, limitedBy string) *spec.ServingReport {
	d := sv.d
	dp := float64(max(d.feat.dp, 1))
	in, out = max(in, 1), max(out, 1)
	var s steady
	if conc > 0 {
		s = sv.closedLoop(in, out, float64(conc), runCap, limitedBy)
	} else {
		s = sv.openLoop(in, out, rate, runCap, limitedBy)
	}
	fe := d.Eff.FrontEndS(in)
	tok := sv.tokensPerStep()
	r := &spec.ServingReport{
		InputTokens: in, OutputTokens: out,
		DecodeBatch: s.bdec, PrefillTokensPerStep: s.x, Order: "mixed",
		DecodeStepMs: ms(s.tdec), TPOTMs: ms(s.tbar / tok), ITLMs: ms(s.itl),
		TTFTMs: ms(fe + s.ttft), QueueMs: ms(s.queue), E2EMs: ms(fe + s.e2e),
		FirstWaveTTFTMs: ms(fe + s.wave),
		RequestsPerS:    s.rate * dp, Saturated: s.saturated,
	}
	if d.PrefillFirst() {
		r.Order = "prefill_first"
	}
	if s.saturated {
		r.LimitedBy = s.limitedBy
	}
	r.OutputTokensPerS = r.RequestsPerS * float64(out)
	r.TotalTokensPerS = r.RequestsPerS * float64(in+out)
	if conc > 0 {
		r.Concurrency = float64(conc)
	} else {
		r.FirstWaveTTFTMs = 0
		r.RequestRate = rate
		// Little's law: the mean number in flight at the served rate.
		r.Concurrency = s.rate * (s.e2e + fe)
	}
	return r
}

// tokensPerStep is the tokens a decode step yields per sequence: 1, or
// under speculative decoding (1 - a^(k+1)) / (1 - a).
func (sv Serving) tokensPerStep() float64 {
	if sv.d.feat.specK > 0 {
		return sv.d.feat.specE
	}
	return 1
}

// stepAt is the step time T(b, n) for a fractional decode batch b
// (interpolated between the whole batches around it) with n prompt
// tokens in pieces of c tokens of u-token prompts whose first h tokens
// are cached: a piece of c tokens of a prompt starting on average at
// position h + (u - c) / 2 spans c * (h + (u - c)/2 + (c + 1)/2).
func (sv Serving) stepAt(b, ctx, n, c float64, u, h int) float64 {
	d := sv.d
	lo := math.Floor(b)
	w := b - lo
	at := func(bi int) float64 {
		l := StepLoad{DecodeSeqs: bi, DecodeContext: float64(bi) * ctx, SpecTokens: bi * d.feat.specK}
		if n > 0 {
			l.PrefillTokens = max(int(math.Round(n)), 1)
			l.PrefillSpan = n * (float64(h) + (float64(u)-c)/2 + (c+1)/2)
			if c >= float64(u) {
				l.PrefillSeqs = max(int(math.Round(n/c)), 1)
			}
		}
		return d.Step(l).TimeS
	}
	t := at(int(lo))
	if w > 1e-9 {
		t += w * (at(int(lo)+1) - t)
	}
	return t
}

// phase is one pass of the steady state's figures at b decodes a step
// (as a decoding request sees them) and x prompt tokens a step: the pure
// decode step, the mean step, the median chunk gap and the prompt's own
// prefill time (without waiting).
func (sv Serving) phase(b, x, ctx float64, u, h int) (tdec, tbar, itl, pre float64) {
	d := sv.d
	chunk := math.Max(float64(d.MaxBatched)-b*float64(d.feat.tokensPerSeq()), 1)
	unit := math.Min(float64(u), chunk)
	tdec = sv.stepAt(b, ctx, 0, 0, u, h)
	if d.PrefillFirst() {
		// A prompt's step runs alone; the decodes wait for it.
		var s, tp float64
		if x <= unit {
			s, tp = x/unit, sv.stepAt(0, 0, unit, unit, u, h)
		} else {
			n := math.Min(x, chunk)
			s, tp = x/n, sv.stepAt(0, 0, n, unit, u, h)
		}
		tbar = tdec + s*tp
		itl = tdec
		if s >= 0.5 {
			itl += tp
		}
		pre = sv.ownPrefill(0, 0, math.Max(x, unit), chunk, u, h)
		return tdec, tbar, itl, pre
	}
	// Mixed steps: x tokens a step in pieces of unit tokens, so a share
	// f - floor(f) of the steps carries one piece more than the rest.
	f := x / unit
	k := math.Floor(f)
	lo := tdec
	if k > 0 {
		lo = sv.stepAt(b, ctx, math.Min(k*unit, chunk), unit, u, h)
	}
	tbar = lo
	if w := f - k; w > 1e-9 {
		tbar += w * (sv.stepAt(b, ctx, math.Min((k+1)*unit, chunk), unit, u, h) - lo)
	}
	itl = tdec
	if f >= 0.5 {
		itl = sv.stepAt(b, ctx, math.Min(math.Max(k, 1)*unit, chunk), unit, u, h)
	}
	pre = sv.ownPrefill(b, ctx, math.Max(x, unit), chunk, u, h)
	return tdec, tbar, itl, pre
}

// ownPrefill is the time of the step(s) that compute one prompt of u
// uncached tokens beside b decodes, with n prompt tokens in its step (its
// own and others'): one step when the prompt fits the step's budget
// (chunk tokens), else its chunks one per step.
func (sv Serving) ownPrefill(b, ctx, n, chunk float64, u, h int) float64 {
	if float64(u) <= chunk {
		return sv.stepAt(b, ctx, math.Min(n, chunk), float64(u), u, h)
	}
	t, _, _ := sv.prefillFrom(h, h+u, int(math.Round(b)), ctx)
	return t
}

// steadyIters bounds the fixed-point passes of the steady state; each
// converges geometrically at the rate the step time grows with the batch,
// which is small while decode is bound by memory.
const steadyIters = 8

// spread is the steady state of c requests in flight on one replica
// that runs at most runCap at once, their phases spread evenly (the
// running batch of an open loop at its capacity): each step admits the
// prompts of the requests that finished.
func (sv Serving) spread(in, out int, c float64, runCap int, limitedBy string) steady {
	d := sv.d
	h := d.Pool().cachedFor(in)
	u := max(in-h, 1)
	ctx := float64(in) + float64(out)/2
	steps := float64(out-1) / sv.tokensPerStep()
	run := math.Min(c, float64(max(runCap, 1)))
	var s steady
	s.saturated = c > run
	s.limitedBy = limitedBy
	frac := 1.0 // share of a running request's life spent decoding
	for i := 0; i < steadyIters; i++ {
		bdec := run * frac
		if steps <= 0 {
			bdec = 0
		}
		seen := math.Max(1+(run-1)*frac, 1)
		if steps <= 0 {
			seen = 0
		}
		// Prompts admitted per step: the decodes finishing (b / steps),
		// or with no decode phase every running prompt at once.
		x := run * float64(u)
		if steps > 0 {
			x = bdec / steps * float64(u)
		}
		chunk := math.Max(float64(d.MaxBatched)-seen*float64(d.feat.tokensPerSeq()), 1)
		if x > chunk && steps > 0 {
			// max_num_batched_tokens binds: every step is full of prompt
			// tokens, and only chunk / u prompts are admitted a step.
			x = chunk
			bdec = x / float64(u) * steps
			seen = math.Max(math.Min(seen, 1+bdec), 1)
			s.saturated, s.limitedBy = true, "max_num_batched_tokens"
		}
		tdec, tbar, itl, pre := sv.phase(seen, x, ctx, u, h)
		prev := s.tbar
		s.bdec, s.x, s.tdec, s.tbar, s.itl = seen, x, tdec, tbar, itl
		s.ttft = pre
		s.e2e = pre + steps*tbar
		if steps > 0 {
			s.rate = ratio(bdec, steps*tbar)
		} else {
			s.rate = ratio(x/float64(u), tbar)
		}
		frac = ratio(steps*tbar, s.e2e)
		if i > 0 && math.Abs(tbar-prev) <= 1e-4*tbar {
			break
		}
	}
	if q := ratio(c, s.rate) - s.e2e; q > 0 && s.saturated {
		s.queue = q
		s.ttft += q
		s.e2e += q
	}
	return s
}

// openLoop is the steady state of rate requests per second arriving at
// one replica (Poisson): the decodes per step solve b = rate * steps *
// t_step(b); at or above the replica's capacity (its closed loop at
// runCap) it is saturated and serves its capacity.
func (sv Serving) openLoop(in, out int, rate float64, runCap int, limitedBy string) steady {
	d := sv.d
	capS := sv.spread(in, out, float64(max(runCap, 1)), runCap, limitedBy)
	if rate >= capS.rate {
		capS.saturated, capS.queue = true, 0
		capS.ttft, capS.e2e = capS.ttft+capS.tbar/2, capS.e2e+capS.tbar/2
		if capS.limitedBy != "max_num_batched_tokens" {
			capS.limitedBy = limitedBy
		}
		return capS
	}
	h := d.Pool().cachedFor(in)
	u := max(in-h, 1)
	ctx := float64(in) + float64(out)/2
	steps := float64(out-1) / sv.tokensPerStep()
	var s steady
	s.rate = rate
	// Start from an idle server's decode step.
	tbar := sv.stepAt(1, ctx, 0, 0, u, h)
	for i := 0; i < steadyIters; i++ {
		// Arrivals see the time average (Poisson arrivals): a decoding
		// request runs beside the mean number of others decoding.
		others := rate * steps * tbar
		seen := 1 + others
		if steps <= 0 {
			seen = 0
		}
		x := rate * tbar * float64(u)
		tdec, t, itl, pre := sv.phase(seen, x, ctx, u, h)
		s.bdec, s.x, s.tdec, s.itl = seen, x, tdec, itl
		// The wait for the running step (mean residual), plus under
		// SGLang's overlap scheduler the step already formed.
		wait := t / 2
		if d.Version.OverlapSchedule {
			wait += t
		}
		// Prompts queue for the token budget: an M/D/1 queue whose
		// server is busy a share rho of the time (the steps that carry
		// a full budget of prompt tokens), each prompt served in its own
		// prefill time pre: W = rho / (2 (1 - rho)) * pre.
		chunk := math.Max(float64(d.MaxBatched)-seen*float64(d.feat.tokensPerSeq()), 1)
		rho := math.Min(x/chunk*ratio(sv.stepAt(seen, ctx, chunk, math.Min(float64(u), chunk), u, h), t), 0.95)
		s.queue = rho / (2 * (1 - rho)) * pre
		s.ttft = wait + s.queue + pre
		// A request decodes beside the prompts that arrive meanwhile
		// (in t, the mean step) and, besides, beside those that queued
		// behind its own prefill: a share busy = 1 - t_decode / t of
		// its time is spent in their steps, so those queued in its
		// wait and prefill add busy / (1 - busy) * (W + pre).
		s.e2e = s.ttft + steps*t + (t/tdec-1)*(s.queue+pre)
		done := math.Abs(t-tbar) <= 1e-4*t
		tbar = t
		if done {
			break
		}
	}
	s.tbar = ratio(s.e2e-s.ttft, steps)
	if steps <= 0 {
		s.tbar = tbar
	}
	return s
}

// closedLoop is the steady state of c users, each sending its next
// request when the last one ends, on one replica that runs at most runCap
// at once. Requests of equal lengths stay in waves: those that finish
// together are resubmitted together and prefill together (vLLM's V1
// scheduler admits the waiting prompts in one step within
// max_num_batched_tokens M; SGLang runs the waiting prompts' prefill
// before the next decode). A cycle of the wave, with w = min(c, runCap)
// running and steps = (out - 1) / k decode steps a request:
//
//	P     = prompt tokens a prefill step computes: all w*u at once when
//	        they fit, else the budget left by the step's decodes,
//	        M - (w - n) with n = P/u prompts in it (vLLM), or M (SGLang)
//	J     = w*u / P prefill steps a cycle;  m = max(1, u/P) of them a prompt's own
//	cycle = J * T(w - n, P) + (L - J) * T(w, 0),  L = max(J, m + steps) steps
//	        (vLLM: the prompts' steps overlap the others' decodes)
//	      = J * T(0, P) + steps * T(w, 0)  (SGLang: the decodes wait)
//	TTFT  = m * T_prefill (vLLM; SGLang: the mean of the J steps' ends, (J+1)/2 * T(0, P))
//	E2E   = cycle (plus the queue when c > w: c/w - 1 cycles)
//	TPOT  = (E2E - TTFT - queue) / steps / k;  rate = c / E2E
//
// The simulator (sched.Run) steps the same waves request by request.
func (sv Serving) closedLoop(in, out int, c float64, runCap int, limitedBy string) steady {
	d := sv.d
	h := d.Pool().cachedFor(in)
	uI := max(in-h, 1)
	u := float64(uI)
	ctx := float64(in) + float64(out)/2
	tok := sv.tokensPerStep()
	steps := float64(out-1) / tok
	w := math.Min(c, float64(max(runCap, 1)))
	var s steady
	s.saturated, s.limitedBy = c > w, limitedBy
	M := float64(d.MaxBatched)
	per := float64(d.feat.tokensPerSeq()) // budget a decode takes
	all := w * u
	var P, n, tp, tdec, cycle float64
	tdec = sv.stepAt(w, ctx, 0, 0, uI, h)
	if steps <= 0 {
		tdec = 0
	}
	if d.PrefillFirst() {
		P = math.Min(all, M)
		n = P / u
		J := all / P
		tp = sv.stepAt(0, 0, P, math.Min(u, P), uI, h)
		cycle = J*tp + steps*tdec
		// The waves stay whole: the prompts of a wave prefill in J
		// steps in turn, then decode together; a prompt's first token
		// comes at the end of its step, (J + 1) / 2 steps on average
		// (a prompt longer than the budget: all J of its chunks).
		s.ttft = (J + 1) / 2 * tp
		if u > P {
			s.ttft = J * tp
		}
		s.wave = s.ttft // the first wave is any other
		s.itl = tdec
		if w >= 2*steps {
			s.itl += tp // half the gaps hold a prefill step
		}
		s.x = all / (J + steps)
	} else {
		P = all
		n = w
		if all+0 > M {
			// The budget left by the decodes of the requests not
			// prefilling: P = M - (w - max(n, 1)) * per, n = P / u.
			P = (M - w*per) / (1 - per/u)
			if P/u < 1 {
				P = M - (w-1)*per
			}
			P = math.Max(math.Min(P, all), 1)
			n = math.Max(P/u, 1)
		}
		J := all / P
		// A prompt spans u/P steps, or one; when the prompts fill
		// several steps back to back (J > 1) they straddle step
		// boundaries, one step more on average.
		m := math.Max(1, u/P)
		m += math.Min(1, math.Max(J-m, 0)) * math.Min(1, u/P)
		L := math.Max(J, m+steps)
		dp := math.Max(w-n, 0)
		tp = sv.stepAt(dp, ctx, P, math.Min(u, P), uI, h)
		cycle = J*tp + (L-J)*tdec
		s.ttft = m * tp
		// The first wave: every user sends at time 0 to an idle server,
		// so the w prompts queue for the budget together: the i-th's
		// first token comes after i*u/P steps (at least its own
		// max(1, u/P)), (J + max(1, u/P)) / 2 steps on average, beside
		// half the wave's decodes. Later waves fray (a request resubmits
		// as soon as it finishes, and those finishing first prefilled
		// first), so a prompt then waits only for its own step(s).
		s.wave = (J + math.Max(1, u/P)) / 2 * sv.stepAt(dp/2, ctx, P, math.Min(u, P), uI, h)
		s.itl = tdec
		if J >= L/2 {
			s.itl = tp
		}
		if L > m+steps {
			// Every step is full of prompt tokens: the budget binds and
			// the requests wait their turn.
			s.saturated, s.limitedBy = true, "max_num_batched_tokens"
		}
		s.x = all / L
	}
	s.bdec, s.tdec = w, tdec
	s.e2e = cycle
	if c > w {
		q := (c/w - 1) * cycle
		s.queue += q
		s.ttft += q
		s.e2e += q
	}
	s.rate = ratio(c, s.e2e)
	s.tbar = ratio(s.e2e-s.ttft, steps)
	if steps <= 0 {
		s.tbar = tdec
	}
	return s
}
