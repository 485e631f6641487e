package deploy

import (
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/internal/units"
	"github.com/modelrefs/throughput/kvcache"
)

// What the planner (package calc/planner) asks of a deployment, beside
// the step model's, the block pool's (Pool) and the serving analysis's
// (Serving) own methods: a search resolves one deployment per layout with
// ResolveWith, re-sizes it for each scheduler setting with WithScheduler,
// and shares a layout cache and a step memo (Analyse) across its
// candidates.

// LayoutCache is a search's cache of KV layouts, one per layout key; a
// deployment given one (UseLayoutCache) reuses the layouts it holds.
type LayoutCache = map[LayoutKey][]kvcache.Layout

// UseLayoutCache makes d's resolutions read and fill c.
func (d *Deployment) UseLayoutCache(c LayoutCache) { d.layouts = c }

// PlannedAsk is what a planner's candidate asks beside its deployment:
// the workload's mean lengths and the latency budget (seconds; 0: none),
// without a price and with the default sweep.
func PlannedAsk(in, out int, ttftS, tpotS float64) Ask {
	return Ask{In: in, Out: out, TTFTS: ttftS, TPOTS: tpotS, priceUSD: -1, powerW: -1, usdPerKWh: hardware.USDPerKWh, noPrice: true, sweepPoints: spec.DefaultSweepPoints}
}

// WorstWeightsOverrun returns the weights and the requested memory, in
// bytes per GPU, of the pipeline stage whose weights overshoot its memory
// most (the nearest miss of a deployment whose weights do not fit is the
// one that overshoots least).
func (d *Deployment) WorstWeightsOverrun() (weights, requested units.Bytes) {
	st := &d.stages[0]
	for i := range d.stages {
		if d.stages[i].weightsBytes-d.stages[i].requestedBytes > st.weightsBytes-st.requestedBytes {
			st = &d.stages[i]
		}
	}
	return st.weightsBytes, st.requestedBytes
}

// DataParallel is the attention data-parallel ranks (1 without DP).
func (d *Deployment) DataParallel() int { return max(d.feat.dp, 1) }

// ExpertParallel reports whether the MoE experts are sharded by expert
// parallelism.
func (d *Deployment) ExpertParallel() bool { return d.feat.ep }

// SpecMethod is the resolved speculative-decoding method ("": none).
func (d *Deployment) SpecMethod() string { return d.feat.specMethod }

// WithScheduler is d under other max_num_seqs and max_num_batched_tokens:
// the same weights, KV layout and cost model (none depends on them), the
// memory budget and block pool sized again as build sizes them.
// It writes into c (reusing its stages), which the caller owns.
func (d *Deployment) WithScheduler(c *Deployment, seqs, batched int) {
	stages := append(c.stages[:0], d.stages...)
	*c = *d
	c.stages = stages
	c.MaxNumSeqs, c.MaxBatched = seqs, batched
	c.NumBlocks = -1
	for i := range c.stages {
		st := &c.stages[i]
		c.budget(st)
		st.blocks = st.layout.NumBlocks(float64(st.kvBytes))
		if c.NumBlocks < 0 || st.blocks < c.NumBlocks {
			c.NumBlocks, c.tight = st.blocks, i
		}
	}
}

// ServesOne reports whether d starts and serves one request of final
// tokens: a block pool (the weights fit), room for one max_model_len
// sequence (vLLM refuses to start without it) and for the request, the
// tests Evaluate's report makes.
func (d *Deployment) ServesOne(final float64) bool {
	if d.NumBlocks <= 0 || d.Pool().BlocksPerSeq(final) > d.NumBlocks {
		return false
	}
	return d.stages[d.tight].layout.MaxConcurrency(d.NumBlocks, int64(d.MaxModelLen), int64(d.MaxBatched)) >= 1
}

// WeightsOverBudget reports whether the weights alone exceed the memory a
// stage may request, whatever the scheduler and cache settings.
func (d *Deployment) WeightsOverBudget() bool {
	for i := range d.stages {
		if d.stages[i].weightsBytes > d.stages[i].requestedBytes {
			return true
		}
	}
	return false
}

// The evaluation pipeline (package calc/evaluate) resolves, validates the
// simulation, assembles the report and prices the work with these.

// ResolveAsk validates a request and builds its deployment and what it
// asks beside (the workload, the budget, the price, the sweep): every
// problem is a FieldError naming the field; a model whose weights do not
// fit is not an error (the deployment has no blocks).
func ResolveAsk(req spec.Request) (*Deployment, Ask, error) { return resolve(req) }

// SimulationPlan validates a request's simulate options against its
// deployment and ask (d nil: resolving failed, and the checks that need it
// are skipped), appending its problems to prev, resolve's error.
func SimulationPlan(o *spec.SimulateOptions, d *Deployment, p Ask, prev error) (*SimPlan, error) {
	return simulateOptions(o, d, p, prev)
}

// SweepPoints is the batch sizes the report's sweep evaluates.
func (p Ask) SweepPoints() int { return p.sweepPoints }
