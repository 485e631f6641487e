package deploy

// StepMemo memoises, for the planner, what one layout's candidates
// compute again and again: decode steps at the workload's mean context,
// the marginal prefill and the chunked prefill of one prompt (beside a
// batch decoding at that context), and the mean blocks per sequence.
// The candidates of one layout differ only in max_num_seqs and
// max_num_batched_tokens, on which neither a decode step (Step reads the
// cost model and the features), nor a prefill's compute, nor the blocks a
// sequence holds depend; a chunked prefill does depend on
// max_num_batched_tokens (its chunk), so its entries are kept for one
// value of it. The figures are those DecodeStep, prefillMarginal,
// prefillTime and Pool.meanStaggered compute, computed once. Only the
// planner's analyses carry one (Analyse); Evaluate's have none and are
// safe for concurrent use.
type StepMemo struct {
	gen    uint32 // entries of another generation are stale
	ctx    float64
	in     int // the prompt's tokens
	out    int
	dec    []memoStep
	marg   float64
	margOK bool
	// pre holds prefillTime(in, b, ctx) by b, of generation preGen, for
	// max_num_batched_tokens preBatched.
	pre        []memoStep
	preGen     uint32
	preBatched int
	blocks     float64
	blocksOK   bool
	// chunks counts the prompt chunks priced through this memo (each a
	// Step; prefillFrom), over every layout: the planner's work counter
	// (Reset keeps it).
	chunks int64
}

// PrefillChunks returns the prompt chunks the serving analyses priced
// through m since it was made: one Step each (prefillFrom), the planner's
// one per-candidate loop whose length the request controls (the prompt's
// tokens over the step's token budget).
func (m *StepMemo) PrefillChunks() int64 { return m.chunks }

type memoStep struct {
	gen       uint32
	time, tok float64
}

// NewStepMemo memoises the figures of in+out-token requests, for
// batches below n.
func NewStepMemo(in, out, n int) StepMemo {
	return StepMemo{ctx: float64(in) + float64(out)/2, in: in, out: out, dec: make([]memoStep, n), pre: make([]memoStep, n), gen: 1, preGen: 1}
}

// Reset forgets every memoised figure (a new layout).
func (m *StepMemo) Reset() {
	m.gen++
	m.preGen++
	m.margOK, m.blocksOK = false, false
}

// DecodeTime is DecodeStep(b, ctx)'s TimeS and TokensPerSeq, memoised.
func (sv Serving) DecodeTime(b int, ctx float64) (timeS, tokensPerSeq float64) {
	d := sv.d
	if m := sv.memo; m != nil && ctx == m.ctx && b >= 0 && b < len(m.dec) {
		e := &m.dec[b]
		if e.gen != m.gen {
			s := d.DecodeStep(b, ctx)
			*e = memoStep{m.gen, s.TimeS, s.TokensPerSeq}
		}
		return e.time, e.tok
	}
	s := d.DecodeStep(b, ctx)
	return s.TimeS, s.TokensPerSeq
}

// marginal is prefillMarginal(n), memoised.
func (sv Serving) marginal(n int) float64 {
	m := sv.memo
	if m == nil || n != m.in {
		return sv.prefillMarginal(n)
	}
	if !m.margOK {
		m.marg, m.margOK = sv.prefillMarginal(n), true
	}
	return m.marg
}

// PrefillAt is prefillTime(n, b, ctx)'s time, memoised (the planner's
// own calls; best, shared with Evaluate, calls prefillTime: memoising it
// there bought nothing measurable and cost the light engine bytes).
func (sv Serving) PrefillAt(n, b int, ctx float64) float64 {
	d := sv.d
	m := sv.memo
	if m == nil || n != m.in || (ctx != m.ctx && b != 0) || b < 0 || b >= len(m.pre) {
		t, _, _ := sv.prefillTime(n, b, ctx)
		return t
	}
	if d.MaxBatched != m.preBatched {
		m.preGen++
		m.preBatched = d.MaxBatched
	}
	e := &m.pre[b]
	if e.gen != m.preGen {
		t, _, _ := sv.prefillTime(n, b, ctx)
		*e = memoStep{gen: m.preGen, time: t}
	}
	return e.time
}

// BlocksStaggered is the pool's meanStaggered(in, out), memoised.
func (sv Serving) BlocksStaggered(in, out int) float64 {
	d := sv.d
	m := sv.memo
	if m == nil || in != m.in || out != m.out {
		return d.Pool().MeanStaggered(in, out)
	}
	if !m.blocksOK {
		m.blocks, m.blocksOK = d.Pool().MeanStaggered(in, out), true
	}
	return m.blocks
}
