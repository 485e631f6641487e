package planner

import (
	"errors"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/finite"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/jsonx"
	"github.com/modelrefs/throughput/internal/numtext"
	"github.com/modelrefs/throughput/kvcache"
)

// Plan answers a PlanRequest: every candidate deployment is resolved and
// costed with the same code Evaluate runs, and each returned deployment's
// Evaluate request reproduces its figures. An impossible budget is an
// answer (Feasible false, Answer says what comes closest), not an error;
// invalid fields and a search larger than MaxPlanCandidates (or a
// verification over DefaultWorkBudget) return Errors.
func Plan(req spec.PlanRequest) (spec.PlanReport, error) {
	// A report's deployments hold their requests' calc.HardwareRef by
	// value, which the codec encodes from a copy (a deployment passed by
	// value) only once enabled (internal/jsonx/set.go): here, so that
	// every build that plans has it and the light engine does not.
	jsonx.EnableReflectSet()
	s, err := resolvePlanRequest(req)
	if err != nil {
		return spec.PlanReport{}, err
	}
	if n := s.countCandidates(); n > spec.MaxPlanCandidates {
		field := "constraints.accelerators"
		if req.Search != nil {
			field = "search"
		}
		return spec.PlanReport{}, spec.Errors{{Field: field, Message: "the search has " + numtext.Thousands(int64(n)) + " candidate deployments, above the limit of " + numtext.Thousands(spec.MaxPlanCandidates) + "; narrow constraints.accelerators or constraints.engines, or shorten the search lists"}}
	}
	if err := s.preBudget(s.countCandidates()); err != nil {
		return spec.PlanReport{}, err
	}
	p := newPlanner(s)
	r := p.run()
	if p.stopErr != nil {
		// The model cannot be laid out on any candidate (kvcache.MaxGroups):
		// the plan is refused, naming the model, as Evaluate refuses it;
		// or the search ran past the work budget (overBudget).
		return spec.PlanReport{}, p.stopErr
	}
	if s.verifyTop > 0 {
		if err := s.verify(&r); err != nil {
			return spec.PlanReport{}, err
		}
	}
	if nf := finite.PlanNonFinite(&r); nf != "" {
		return spec.PlanReport{}, spec.Errors{{Field: "", Message: "the inputs are too extreme to plan: the report's " + nf + " is not a finite number"}}
	}
	return r, nil
}

// candidate is one evaluated deployment; why is set when it fails: the
// rejection's reason code, with its figures x and y (seconds or bytes)
// and, for reasons without a deployment, its text. The message is written
// only for the rejections the report lists (rejection).
type candidate struct {
	dep  planned
	why  string
	x, y float64
	text string
	rank int // how far the candidate got: a higher rank is a nearer miss
	// bestTPOT and bestTTFT are its fastest figures (batch 1), seconds.
	bestTPOT, bestTTFT float64
}

// Rejection ranks: the nearer to meeting the budget, the higher.
const (
	rankWeights = iota + 1
	rankMaxLen
	rankLatency
	rankGPUs
)

// planner is one search's state.
type planner struct {
	// stopErr ends the search: the model's own refusal (modelError), or
	// the work budget's (overBudget); nil: none. evaluated counts the
	// candidates evaluated so far, layerBuilds the model layers the
	// layouts resolved so far walked (one deploy.ResolveWith each walks
	// every layer).
	stopErr     error
	evaluated   int
	layerBuilds int64
	noStop      bool // counts without stopping (BenchmarkPlanLayers)
	s           *planSpec
	// ok holds, per layout, the best scheduler setting that meets the
	// budget, by value (pointers into it are taken only to rank them).
	ok []planned
	// nearest is per accelerator the nearest miss.
	nearest map[string]*candidate
	// cur is the candidate being evaluated.
	cur     candidate
	layouts map[deploy.LayoutKey][]kvcache.Layout
	// best is, for the layout being searched, the best deployment of
	// each mode (aggregated, disaggregated) that meets the budget; seen
	// counts the layouts met so far (their search order).
	best [1 + maxSplits]planned
	has  [1 + maxSplits]bool
	seen int
	// first is the layout's deployment, resolved in place, and scratch
	// the one variants re-sizes for each other scheduler setting; memo
	// their memoised step times; req holds a candidate's request fields.
	first, scratch deploy.Deployment
	memo           deploy.StepMemo
	req            requestFields
	// all keeps every candidate for tests (nil unless keepAll).
	all     []candidate
	keepAll bool
	// fastest TPOT and TTFT over every candidate that fits, with where.
	fastTPOT, fastTTFT     float64
	fastTPOTAt, fastTTFTAt planned
}

// newPlanner sizes a search's state: ok holds at most one deployment
// per layout and mode, the candidates over the scheduler grid.
func newPlanner(s *planSpec) *planner {
	top := 0
	for _, n := range s.seqs {
		top = max(top, n)
	}
	p := &planner{s: s, nearest: make(map[string]*candidate, len(s.accels)), layouts: map[deploy.LayoutKey][]kvcache.Layout{},
		ok: make([]planned, 0, s.countCandidates()/(len(s.seqs)*len(s.btok))), memo: deploy.NewStepMemo(s.in, s.out, min(top, 4096)+1)}
	p.first.UseLayoutCache(p.layouts)
	return p
}

func (s *planSpec) search() spec.PlanReport { return newPlanner(s).run() }

// modelError reports whether err, a candidate's resolution error, is the
// model's own (a field error on model, the same for every candidate:
// kvcache.MaxGroups), which ends the search.
func modelError(err error) bool {
	if es, ok := errors.AsType[spec.Errors](err); ok {
		for _, e := range es {
			if e.Field == "model" {
				return true
			}
		}
	}
	return false
}

func (p *planner) run() spec.PlanReport {
	s := p.s
	for i := range s.accels {
		if p.stopErr != nil {
			break
		}
		a := &s.accels[i]
		price, why := s.searchPrice(a.ID)
		switch why {
		case "no_price":
			p.nearest[a.ID] = &candidate{why: why, text: "no default price in the table (docs/MODEL.md section 12); set one in constraints.prices"}
			continue
		case "purchase_priced":
			p.nearest[a.ID] = &candidate{why: why, text: "priced only by purchase (amortised over " + itoa(hardware.PurchaseLifeYears) + " years plus power, $" + fielderr.Number(round3(price.USDPerHour)) + " per GPU-hour), not rented on demand: a whole-catalog search compares rented parts; name it in constraints.accelerators or price it in constraints.prices"}
			continue
		}
		engs := enginesFor(*a, s.engines)
		if len(engs) == 0 {
			p.nearest[a.ID] = &candidate{why: "engine", text: "none of the engines allowed runs on " + a.Name}
			continue
		}
		for _, eng := range engs {
			p.accelerator(a, eng, price)
		}
	}
	return p.report()
}

// accelerator searches one accelerator under one engine.
func (p *planner) accelerator(a *hardware.Accelerator, eng string, price hardware.Price) {
	s := p.s
	kvs := s.kvs
	if eng == "llamacpp" || eng == "lmdeploy" {
		kvs = kvs[:1]
	}
	for _, g := range s.gpusFor(*a) {
		if g > s.maxGPUs {
			p.miss(a.ID, &candidate{rank: rankGPUs, why: "max_gpus", text: "a replica of " + itoa(g) + " GPUs exceeds max_gpus " + itoa(s.maxGPUs)})
			continue
		}
		if beyondDomain(g, *a) {
			p.miss(a.ID, &candidate{rank: rankGPUs, why: "max_gpus", text: "a replica of " + itoa(g) + " GPUs spans more than one node of " + itoa(nodeGPUs) + ", and the part has no larger NVLink domain (multi-node replicas are not searched)"})
			continue
		}
		if g > 1 && a.Interconnect.BandwidthBytesPerS <= 0 {
			continue
		}
		for _, sp := range s.shapes(g, eng) {
			for _, prec := range s.precisions {
				q, ok := quantFor(prec, eng, *a, s.model)
				if !ok {
					continue
				}
				for _, kv := range kvs {
					if !p.variants(a, eng, sp, prec, q, kv, price) {
						break // the weights fit under no KV dtype either
					}
					if p.stopErr != nil {
						return // the model's own refusal, or the budget's, ends the search
					}
				}
			}
		}
	}
}

// variants evaluates one layout under every scheduler setting of the
// grid: the first is resolved as Evaluate resolves it, the others share
// its weights, KV layout and cost model and re-size only the memory
// budget (withScheduler). It returns false when the weights alone
// exceed the memory.
func (p *planner) variants(a *hardware.Accelerator, eng string, sp shape, prec, q, kv string, price hardware.Price) bool {
	s := p.s
	var first *deploy.Deployment
	p.has = [1 + maxSplits]bool{}
	defer p.keepBest()
	for _, seqs := range s.seqs {
		for _, bt := range s.btok {
			var d *deploy.Deployment
			var pl deploy.Ask
			if first == nil {
				var err error
				d, pl, err = deploy.ResolveWith(s.evaluateRequest(&p.req, a.ID, eng, sp, q, kv, seqs, bt), s.model, a, &p.first)
				if p.layerBuilds += int64(len(s.model.Layers)); p.overBudget() {
					return true // the search ends (stopErr)
				}
				if err != nil {
					if modelError(err) && p.stopErr == nil {
						p.stopErr = err
					}
					return true // a layout the model cannot take (heads, layers)
				}
				if d.NumBlocks <= 0 && d.WeightsOverBudget() {
					p.miss(a.ID, p.weightsMiss(d, prec))
					return false
				}
				first = d
				p.memo.Reset()
			} else {
				first.WithScheduler(&p.scratch, seqs, max(bt, seqs))
				d, pl = &p.scratch, s.plan()
			}
			p.consider(a.ID, p.aggregated(d, pl, q, prec, price))
			if s.shapeModes(sp) > 1 {
				for _, sl := range s.splitsOrFree() {
					p.consider(a.ID, p.disaggregated(d, pl, q, prec, price, sl))
				}
			}
			if p.evaluated += s.shapeModes(sp); p.overBudget() {
				return true // the search ends (stopErr)
			}
		}
	}
	return true
}

// keepBest keeps the layout's best deployment of each mode.
func (p *planner) keepBest() {
	for i := range p.best {
		if p.has[i] {
			p.ok = append(p.ok, p.best[i])
		}
	}
	p.has = [1 + maxSplits]bool{}
}

// plan is the evaluate plan of a candidate's request (resolvePlan's
// fields, without revalidating).
func (s *planSpec) plan() deploy.Ask {
	return deploy.PlannedAsk(s.in, s.out, s.ttftS, s.tpotS)
}

func (p *planner) weightsMiss(d *deploy.Deployment, prec string) *candidate {
	weights, requested := d.WorstWeightsOverrun()
	// The nearest miss is the one whose weights overshoot least.
	over := float64(weights) / float64(requested)
	return &candidate{rank: rankWeights, bestTPOT: over, why: "weights_do_not_fit", x: float64(weights), y: float64(requested),
		dep: planned{PlanDeployment: spec.PlanDeployment{TensorParallelSize: d.TP, PipelineParallelSize: d.PP, DataParallelSize: d.DataParallel(), ExpertParallel: d.ExpertParallel(), Quantization: prec}}}
}

func gib1(b float64) string { return strconv.FormatFloat(b/(1<<30), 'f', 1, 64) }

func precText(prec string) string {
	if prec == "published" {
		return "published weights"
	}
	return prec + " weights"
}

func splitText(d *spec.PlanDeployment) string {
	tp, pp, dp := d.TensorParallelSize, d.PipelineParallelSize, max(d.DataParallelSize, 1)
	t := itoa(tp*pp*dp) + " GPU" + numtext.Plural(tp*pp*dp) + " (TP " + itoa(tp)
	if pp > 1 {
		t += ", PP " + itoa(pp)
	}
	return t + dpText(d) + ")"
}

// dpText names a deployment's data-parallel attention and expert
// parallelism: ", DP 8, EP 8".
func dpText(d *spec.PlanDeployment) string {
	t := ""
	if d.DataParallelSize > 1 {
		t += ", DP " + itoa(d.DataParallelSize)
	}
	if d.ExpertParallel {
		t += ", EP " + itoa(d.TensorParallelSize*max(d.DataParallelSize, 1))
	}
	return t
}

// rejection writes a rejected candidate's message.
func (c *candidate) rejection(id string, s *planSpec) spec.PlanRejection {
	r := spec.PlanRejection{Accelerator: id, Reason: c.why, Message: c.text}
	d := &c.dep.PlanDeployment
	switch {
	case c.text != "":
	case c.why == "weights_do_not_fit":
		r.Message = "weights do not fit (" + gib1(c.x) + " GiB > " + gib1(c.y) + " GiB per GPU at " + splitText(d) + ", " + precText(d.Quantization) + ")"
	case c.why == "max_model_len":
		r.Message = "the KV cache left after the weights holds fewer than one " + itoa(d.MaxModelLen) + "-token sequence on " + label(d)
	case c.why == "max_gpus":
		r.Message = "needs " + itoa(d.GPUs) + " GPUs > " + itoa(s.maxGPUs) + " on " + label(d)
	case c.why == "max_power_kw" && d.DeploymentKW == 0:
		r.Message = "no rated power for " + label(d) + " to check max_power_kw against (docs/MODEL.md section 5c)"
	case c.why == "max_power_kw":
		r.Message = "draws " + fielderr.Number(round3(d.DeploymentKW)) + " kW > " + fielderr.Number(s.maxKW) + " kW on " + label(d)
	case c.rank == rankLatency:
		r.Message = strings.ToUpper(c.why) + " " + msText(c.x) + " > " + msText(c.y) + " even at batch 1 on " + label(d)
	default:
		r.Message = strings.ToUpper(c.why) + " " + msText(c.x) + " > " + msText(c.y) + " at the needed batch on " + label(d)
	}
	return r
}

// consider records a candidate: kept when it meets the budget, else as a
// miss of its accelerator.
func (p *planner) consider(id string, c *candidate) {
	if c == nil {
		return
	}
	if p.keepAll {
		p.all = append(p.all, *c)
	}
	if c.bestTPOT > 0 && (p.fastTPOT == 0 || c.bestTPOT < p.fastTPOT) {
		p.fastTPOT, p.fastTPOTAt = c.bestTPOT, c.dep
	}
	if c.bestTTFT > 0 && (p.fastTTFT == 0 || c.bestTTFT < p.fastTTFT) {
		p.fastTTFT, p.fastTTFTAt = c.bestTTFT, c.dep
	}
	if c.why == "" {
		// Of one layout under several scheduler settings (searched
		// together by variants), keep the best; Rank is the layout's
		// search order, the last tie-break.
		i := p.modeSlot(&c.dep.PlanDeployment)
		switch {
		case !p.has[i]:
			p.best[i], p.has[i] = c.dep, true
			p.best[i].Rank = p.seen
			p.seen++
		case better(&c.dep.PlanDeployment, &p.best[i].PlanDeployment) < 0:
			rank := p.best[i].Rank
			p.best[i] = c.dep
			p.best[i].Rank = rank
		}
		return
	}
	p.miss(id, c)
}

func (p *planner) miss(id string, c *candidate) {
	if p.keepAll && c.rank == rankWeights {
		p.all = append(p.all, *c)
	}
	// The nearest miss: the highest rank; among weight misses the least
	// overshoot; otherwise the first of its rank (the fewest GPUs).
	old := p.nearest[id]
	if old == nil || c.rank > old.rank || (c.rank == rankWeights && old.rank == rankWeights && c.bestTPOT < old.bestTPOT) {
		cp := *c
		p.nearest[id] = &cp
	}
}

// base fills what every deployment of d carries.
func (p *planner) base(d *deploy.Deployment, q, prec, mode string, price hardware.Price) planned {
	return planned{quant: q, util: d.Utilization, PlanDeployment: spec.PlanDeployment{
		Accelerator: d.Hardware.ID, AcceleratorName: d.Hardware.Name, Engine: d.Engine.Name, Mode: mode,
		TensorParallelSize: d.TP, PipelineParallelSize: d.PP, DataParallelSize: d.DataParallel(), ExpertParallel: d.ExpertParallel(),
		Quantization: prec, KVCacheDtype: d.KVDtype, MaxNumSeqs: d.MaxNumSeqs, MaxNumBatchedTokens: d.MaxBatched,
		MaxModelLen: d.MaxModelLen, GPUHourUSD: price.USDPerHour, PriceKind: price.Kind, PriceSource: price.Source,
	}}
}

// latencyMiss is a candidate that cannot meet the budget even at batch 1.
func (p *planner) latencyMiss(d *deploy.Deployment, dep planned, tpot1, ttft1 float64) *candidate {
	s := p.s
	c := p.tmp(candidate{dep: dep, rank: rankLatency, bestTPOT: tpot1, bestTTFT: ttft1})
	if s.tpotS > 0 && tpot1 > s.tpotS {
		c.why, c.x, c.y = "tpot", tpot1, s.tpotS
	} else {
		c.why, c.x, c.y = "ttft", ttft1, s.ttftS
	}
	return c
}

func msText(sec float64) string {
	ms := sec * 1000
	prec := 1
	if ms >= 100 {
		prec = 0
	}
	return strconv.FormatFloat(ms, 'f', prec, 64) + " ms"
}

// fitMiss is a candidate whose KV cache cannot hold one sequence.
func (p *planner) fitMiss(d *deploy.Deployment, dep planned) *candidate {
	return p.tmp(candidate{dep: dep, rank: rankMaxLen, why: "max_model_len"})
}

// aggregated costs d serving the whole workload with replicas that each
// prefill and decode (vLLM's default). Each replica's load is capped by
// the largest batch within the budget (d.best, as Evaluate's best
// section) and by the preemption onset; replicas are added until the
// workload's rate (or users) fits, and the figures are those Evaluate
// reports for one replica at its share of the load.
func (p *planner) aggregated(d *deploy.Deployment, pl deploy.Ask, q, prec string, price hardware.Price) *candidate {
	s := p.s
	dep := p.base(d, q, prec, "aggregated", price)
	in, out := s.in, s.out
	mean := float64(in) + float64(out)/2
	final := float64(in + out)
	if !d.ServesOne(final) {
		return p.fitMiss(d, dep)
	}
	sv := deploy.Analyse(d, &p.memo)
	kvCap := d.Pool().KVCapacity(final)
	schedCap, schedWhy := d.SchedulerCap()
	tpot1 := sv.TPOT(1, mean)
	ttft1 := sv.PrefillAt(in, 1, mean)
	best := sv.Best(pl, in, out, mean, kvCap, schedCap, schedWhy)
	if !best.Feasible {
		return p.latencyMiss(d, dep, tpot1, ttft1)
	}
	capB, limiter := best.BatchSize, best.LimitedBy
	onset := d.Pool().Onset(sv.BlocksStaggered(in, out))
	reachable := onset < schedCap
	if reachable && onset < capB {
		capB, limiter = onset, "preemption_onset"
	}
	if limiter == "latency_budget" {
		limiter = "tpot"
	}
	// A replica of dp data-parallel ranks serves dp shares of the load,
	// each rank at the figures of one (its evaluate request's workload).
	rMax, _ := sv.ServingRate(capB, in, out)
	dp := d.DataParallel()
	g := d.TP * d.PP * dp
	var replicas, op int
	var rate float64
	if s.rate > 0 {
		replicas = max(1, int(math.Ceil(s.rate/(rMax*float64(dp)))))
		for {
			op = sv.ConcurrencyForRate(s.rate/float64(replicas*dp), in, out, schedCap)
			if op <= capB || replicas > s.maxGPUs {
				break
			}
			replicas++
		}
		rate = s.rate
		dep.perRate = s.rate / float64(replicas*dp)
	} else {
		ranks := (s.users + capB - 1) / capB
		replicas = (ranks + dp - 1) / dp
		op = (s.users + replicas*dp - 1) / (replicas * dp)
		r, _ := sv.ServingRate(op, in, out)
		rate = r * float64(s.users) / float64(op)
		dep.perUsers = op
	}
	// TPOT and TTFT are a rank's steady state at its share of the load
	// (deploy.Serving.Steady: the decodes' steps carry the prompts
	// admitted beside them, and a prompt waits for its turn), as
	// Evaluate's serving section reports them for the row's request.
	// Where that misses a budget the pure decode step met, replicas are
	// added until the share meets it.
	runCap, runWhy := schedCap, schedWhy
	if onset < runCap {
		runCap, runWhy = max(onset, 1), "kv_cache"
	}
	steadyAt := func(replicas int) *spec.ServingReport {
		if s.rate > 0 {
			return sv.Steady(in, out, 0, s.rate/float64(replicas*dp), runCap, runWhy)
		}
		st := sv.Steady(in, out, (s.users+replicas*dp-1)/(replicas*dp), 0, runCap, runWhy)
		if s.burst {
			// A burst's prompts arrive together: its TTFT is the first
			// wave's (each waits for the prefills ahead of it), or the
			// loop's when more than a rank runs at once queue behind them.
			st.TTFTMs = max(st.FirstWaveTTFTMs, st.TTFTMs)
		}
		return st
	}
	if s.numGPUs > 0 {
		// constraints.num_gpus: exactly that many GPUs, whatever the load
		// needs (gpusFor keeps the layouts whose g divides it).
		replicas = s.numGPUs / g
	}
	st := steadyAt(replicas)
	for s.numGPUs == 0 && (s.tpotS > 0 && st.TPOTMs > s.tpotS*1000 || s.ttftS > 0 && st.TTFTMs > s.ttftS*1000 || st.Saturated) && (replicas+1)*g <= s.maxGPUs {
		next := steadyAt(replicas + 1)
		if next.TPOTMs >= st.TPOTMs && next.TTFTMs >= st.TTFTMs && next.Saturated == st.Saturated {
			break // more replicas do not help (the share's latency floor)
		}
		replicas++
		st = next
	}
	if s.rate > 0 {
		op = sv.ConcurrencyForRate(s.rate/float64(replicas*dp), in, out, schedCap)
		dep.perRate = s.rate / float64(replicas*dp)
	} else {
		op = (s.users + replicas*dp - 1) / (replicas * dp)
		dep.perUsers = op
		rate = st.RequestsPerS * float64(replicas)
	}
	dep.Replicas, dep.GPUs, dep.BatchSize = replicas, replicas*g, op
	step, ttft := st.TPOTMs/1000, st.TTFTMs/1000
	dep.TPOTMs, dep.TTFTMs = st.TPOTMs, st.TTFTMs
	dep.Limiter = limiter
	dep.SaturationRequestRate = float64(replicas*dp) * rMax
	if s.rate == 0 {
		// A closed loop of at most capB users a rank delivers the steady
		// state's rate within the budget (checked below), so it saturates
		// at no lower a rate. The steady state, which admits prompts
		// beside the decodes, can deliver a little more than ServingRate's
		// fixed batch (0.3 % for 16 RTX 4090 replicas of 17 users).
		dep.SaturationRequestRate = max(dep.SaturationRequestRate, rate)
	}
	if reachable && onset >= 1 {
		dep.PreemptionOnsetRequestRate = float64(replicas*dp) * sv.RateForConcurrency(deploy.MeanInFlightForPeak(float64(onset)), in, out)
	}
	p.finish(&dep, rate, price.USDPerHour)
	kwOK := p.power(d, &dep.PlanDeployment, float64(op), 0)
	c := p.tmp(candidate{dep: dep, rank: rankGPUs, bestTPOT: tpot1, bestTTFT: ttft1})
	// A candidate over max_gpus keeps its batch-1 figures: it fits, and
	// the answer's fastest candidate may be one.
	switch {
	case dep.GPUs > s.maxGPUs:
		c.why = "max_gpus"
	case s.numGPUs > 0 && st.Saturated:
		c.why, c.text = "max_gpus", itoa(s.numGPUs)+" GPUs (num_gpus) saturate under the workload on "+label(&dep.PlanDeployment)+": "+itoa(replicas*dp)+" ranks of "+itoa(runCap)+" sequences at most"
	case !kwOK:
		c.why = "max_power_kw"
	case s.tpotS > 0 && step > s.tpotS:
		c.why, c.x, c.y = "tpot", step, s.tpotS
	case s.ttftS > 0 && ttft > s.ttftS:
		c.why, c.x, c.y = "ttft", ttft, s.ttftS
	}
	return c
}

// finish fills the cost and rate figures of a deployment carrying rate
// requests/s: $/h = GPUs * price; delivered output tokens/s = rate * mean
// output tokens; $/M = $/h / (3600 * tokens/s) * 1e6.
func (p *planner) finish(dep *planned, rate, price float64) {
	tps := rate * float64(p.s.out)
	dep.RequestRate = rate
	dep.USDPerHour = float64(dep.GPUs) * price
	dep.USDPerMillionOutputTokens = dep.USDPerHour / 3600 / tps * 1e6
	dep.TokensPerSPerGPU = tps / float64(dep.GPUs)
	dep.TokensPerSPerUser = 1000 / dep.TPOTMs
	dep.Headroom = dep.SaturationRequestRate / rate
}

// disaggregated costs d as separate prefill and decode pools (xPyD):
//
//   - a prefill instance takes a prompt in t_p = prefillTime(in) on an
//     idle server; with P instances sharing Poisson arrivals at rate λ
//     each is an M/D/1 queue at utilisation ρ = λ t_p / P, whose mean wait
//     is ρ t_p / (2 (1 - ρ)) (Pollaczek-Khinchine);
//   - the KV cache of the prompt moves to a decode instance over the
//     interconnect: latency + in * KV bytes per token per GPU / link
//     bandwidth (each GPU sends its own shard);
//   - a decode instance running c sequences finishes c requests every
//     out * t_step(c) seconds, so serves c / (out * t_step(c)) requests/s;
//     c is capped by the TPOT budget, the KV pool and the scheduler;
//   - TTFT = wait + t_p + transfer + one decode step (vLLM's P/D proxy
//     runs the prompt on the prefill instance with max_tokens=1, then
//     streams from the decode instance: docs/features/disagg_prefill.md,
//     vLLM 0.19).
//
// Under a request rate λ, D is the fewest decode instances carrying λ and
// P the fewest prefill instances whose wait fits the TTFT budget (ρ < 1
// without one). Under a closed loop of U users, D is the fewest decode
// instances holding all U at once (each user spends out * TPOT of its
// cycle decoding and only its TTFT elsewhere, so this over-provisions
// decode by at most TTFT / cycle), and the loop's rate is the fixed point
// λ = U / (TTFT(λ) + out * TPOT) (Little's law over the cycle) with the
// prefill wait at that λ; P is the fewest prefill instances whose TTFT
// fits the budget. A split held to xPyD (search.disaggregated_splits) is
// the fewest whole units of x prefill and y decode instances that carry
// the load that way.
func (p *planner) disaggregated(d *deploy.Deployment, pl deploy.Ask, q, prec string, price hardware.Price, split xpyd) *candidate {
	s := p.s
	dep := p.base(d, q, prec, "disaggregated", price)
	in, out := s.in, s.out
	mean := float64(in) + float64(out)/2
	final := float64(in + out)
	link := d.Hardware.Interconnect
	if link.BandwidthBytesPerS <= 0 {
		return nil
	}
	if !d.ServesOne(final) {
		return p.fitMiss(d, dep)
	}
	sv := deploy.Analyse(d, &p.memo)
	tPre := sv.PrefillAt(in, 0, 0)
	xfer := link.LatencyS + float64(in)*d.Layout().BytesPerToken/link.BandwidthBytesPerS
	schedCap, _ := d.SchedulerCap()
	kvCap := d.Pool().KVCapacity(final)
	hi, limiter := min(kvCap, schedCap), "kv_cache"
	if schedCap < kvCap {
		_, limiter = d.SchedulerCap()
	}
	onset := d.Pool().Onset(sv.BlocksStaggered(in, out))
	if onset < schedCap && onset < hi {
		hi, limiter = onset, "kv_cache"
	}
	// tpotAt is the time per output token at batch c: a decode step over
	// the tokens it yields per sequence (1, or more with speculation).
	tpotAt := func(c int) float64 { return sv.TPOT(c, mean) }
	cD := hi
	if s.tpotS > 0 {
		cD = deploy.LargestBatch(hi, func(c int) bool { return tpotAt(c) <= s.tpotS })
		if cD < hi {
			limiter = "tpot"
		}
	}
	tpot1 := tpotAt(1)
	step1, _ := sv.DecodeTime(1, mean)
	if cD == 0 || (s.ttftS > 0 && tPre+xfer+step1 > s.ttftS) {
		c := p.latencyMiss(d, dep, tpot1, tPre+xfer+step1)
		c.dep.Mode = "disaggregated"
		return c
	}
	decodeRate := func(c int) float64 { return float64(c) / (float64(out) * tpotAt(c)) }
	// rhoMax is the largest prefill utilisation a TTFT budget allows, the
	// decode step at batch c beside it: the M/D/1 wait ρ t_p / (2 (1 - ρ))
	// within the slack the budget leaves.
	rhoMax := func(c int) float64 {
		if s.ttftS <= 0 {
			return 1
		}
		step, _ := sv.DecodeTime(c, mean)
		slack := s.ttftS - (tPre + xfer + step)
		if slack <= 0 {
			return 0
		}
		return 2 * slack / (tPre + 2*slack)
	}
	wait := func(rho float64) float64 { return rho * tPre / (2 * (1 - rho)) }
	// pools are the figures of P prefill and D decode instances under the
	// workload, ok when they carry it within the budget.
	type poolFig struct {
		rate, rho float64
		cOp       int
	}
	pools := func(P, D int) (poolFig, bool) {
		if s.rate > 0 {
			per := s.rate / float64(D)
			if per > decodeRate(cD) {
				return poolFig{}, false
			}
			cOp := min(deploy.LargestBatch(cD, func(c int) bool { return decodeRate(c) < per })+1, cD)
			rho := s.rate * tPre / float64(P)
			return poolFig{s.rate, rho, cOp}, rho < rhoMax(cOp)
		}
		cOp := (s.users + D - 1) / D
		if cOp > cD {
			return poolFig{}, false
		}
		step, _ := sv.DecodeTime(cOp, mean)
		busy := tPre + xfer + step + float64(out)*tpotAt(cOp)
		// The loop's rate: λ (busy + wait(λ t_p / P)) = U, increasing in
		// λ below P / t_p, found by bisection.
		lo, up := 0.0, min(float64(s.users)/busy, float64(P)/tPre)
		for range 60 {
			mid := (lo + up) / 2
			if mid*(busy+wait(mid*tPre/float64(P))) < float64(s.users) {
				lo = mid
			} else {
				up = mid
			}
		}
		rho := lo * tPre / float64(P)
		return poolFig{lo, rho, cOp}, rho < rhoMax(cOp)
	}
	var P, D int
	var f poolFig
	ok := false
	switch n := s.numGPUs / (d.TP * d.PP); {
	case s.numGPUs > 0 && split.p > 0:
		// Exactly num_gpus: whole units of the split, or none.
		if k := n / (split.p + split.d); k >= 1 && k*(split.p+split.d) == n {
			P, D = k*split.p, k*split.d
			f, ok = pools(P, D)
		}
	case s.numGPUs > 0:
		// Exactly num_gpus: the fewest prefill instances that carry the
		// load within the budget, the rest decoding.
		for P = 1; !ok && P < n; P++ {
			D = n - P
			f, ok = pools(P, D)
		}
		P--
	case split.p > 0:
		for k := 1; !ok && (k*(split.p+split.d)-1)*d.TP*d.PP < s.maxGPUs*2 && k <= maxSplitUnits; k++ {
			P, D = k*split.p, k*split.d
			f, ok = pools(P, D)
		}
	case s.rate > 0:
		D = max(1, int(math.Ceil(s.rate/decodeRate(cD))))
		per := s.rate / float64(D)
		cOp := min(deploy.LargestBatch(cD, func(c int) bool { return decodeRate(c) < per })+1, cD)
		r := rhoMax(cOp)
		if r > 0 {
			P = max(1, int(math.Ceil(s.rate*tPre/r)))
			if float64(P) <= s.rate*tPre/r {
				P++ // ρ strictly below its bound
			}
			f, ok = pools(P, D)
		}
	default:
		// The fewest prefill instances: with D fixed, ρ falls as P grows
		// (ρ <= U t_p / (busy P), busy the cycle without the wait), so
		// ok is monotone in P and P = ceil(U t_p / (busy ρmax)) + 1
		// always carries the loop: a binary search below that bound
		// (log2 of it pools, not one per instance).
		D = (s.users + cD - 1) / cD
		cOp := (s.users + D - 1) / D
		step, _ := sv.DecodeTime(cOp, mean)
		busy := tPre + xfer + step + float64(out)*tpotAt(cOp)
		if r := rhoMax(cOp); r > 0 {
			hi := int(min(math.Ceil(float64(s.users)*tPre/(busy*r)), maxPrefillInstances)) + 1
			P = sort.Search(hi, func(i int) bool { _, ok := pools(i+1, D); return ok }) + 1
			f, ok = pools(P, D)
		}
	}
	if !ok {
		step, _ := sv.DecodeTime(min(cD, max(s.users, 1)), mean)
		c := p.latencyMiss(d, dep, tpot1, tPre+xfer+step)
		c.dep.Mode = "disaggregated"
		return c
	}
	step, _ := sv.DecodeTime(f.cOp, mean)
	g := d.TP * d.PP
	dep.PrefillReplicas, dep.DecodeReplicas = P, D
	if split.p > 0 {
		dep.Split = split.name
	}
	dep.Replicas, dep.GPUs, dep.BatchSize = P+D, (P+D)*g, f.cOp
	dep.TPOTMs, dep.TTFTMs, dep.KVTransferMs = ms(tpotAt(f.cOp)), ms(wait(f.rho)+tPre+xfer+step), ms(xfer)
	prefillSat := float64(P) * rhoMax(f.cOp) / tPre
	decodeSat := float64(D) * decodeRate(cD)
	dep.SaturationRequestRate = min(prefillSat, decodeSat)
	dep.Limiter = limiter
	if prefillSat < decodeSat {
		dep.Limiter = "prefill"
	}
	if onset < schedCap && onset >= 1 {
		dep.PreemptionOnsetRequestRate = float64(D) * decodeRate(onset)
	}
	dep.perUsers = f.cOp
	p.finish(&dep, f.rate, price.USDPerHour)
	kwOK := p.power(d, &dep.PlanDeployment, float64(f.cOp), P)
	c := p.tmp(candidate{dep: dep, rank: rankGPUs, bestTPOT: tpot1, bestTTFT: tPre + xfer + step1})
	if dep.GPUs > s.maxGPUs {
		c.why = "max_gpus"
	} else if !kwOK {
		c.why = "max_power_kw"
	}
	return c
}

// modeSlot is a deployment's slot among its layout's bests: 0
// aggregated, 1 a free disaggregated split, 1 + i the i-th of
// search.disaggregated_splits (each listed on its own, so a plan compares
// them).
func (p *planner) modeSlot(d *spec.PlanDeployment) int {
	if d.Mode != "disaggregated" {
		return 0
	}
	for i, sl := range p.s.splits {
		if sl.name == d.Split {
			return 1 + i
		}
	}
	return 1
}

// maxSplitUnits bounds the units of an xPyD split the search tries, and
// maxPrefillInstances a closed loop's free prefill pool (the search's
// upper bound; spec.MaxParallel GPUs could not hold more).
const (
	maxSplitUnits       = 64
	maxPrefillInstances = spec.MaxParallel
)

// power sets dep.DeploymentKW, every GPU's power at the load (the energy
// section's model, deploy.GPUPower, docs/MODEL.md section 5c): the
// replicas' steps at decode batch b with the prompts the load admits
// beside them, or, with prefill instances (disaggregated), the decode
// instances' pure decode steps and the prefill instances' prompt steps.
// It reports whether the deployment meets constraints.max_power_kw (a
// part without a rated power does not, when a cap is given).
func (p *planner) power(d *deploy.Deployment, dep *spec.PlanDeployment, b float64, prefill int) bool {
	in, out := p.s.in, p.s.out
	bp, ok := hardware.DefaultBoardPower(d.Hardware.ID)
	if !ok {
		return p.s.maxKW == 0
	}
	g := dep.GPUs / max(dep.Replicas, 1)
	x := b * float64(in) / float64(out)
	if prefill > 0 {
		x = 0
	}
	w, _, _ := deploy.GPUPower(d.OperatingStep(b, x, in, out), bp.Watts)
	kw := w * float64(g*(dep.Replicas-prefill)) / 1000
	if prefill > 0 {
		wp, _, _ := deploy.GPUPower(d.OperatingStep(0, float64(in), in, out), bp.Watts)
		kw += wp * float64(g*prefill) / 1000
	}
	dep.DeploymentKW = kw
	return p.s.maxKW == 0 || kw <= p.s.maxKW
}

// requestFields holds what an evaluate request's pointers point to: the
// planner reuses one for every candidate it resolves (the request is read
// only while resolving), and a listed deployment's request has its own.
type requestFields struct {
	tp, pp, dp, maxLen, seqs, batched, in, out int
	ep                                         bool
	workload                                   spec.Workload
	slo                                        spec.SLO
}

// evaluateRequest is the Evaluate request of one candidate replica, its
// fields stored in f (nil: new ones).
func (s *planSpec) evaluateRequest(f *requestFields, hw, eng string, sh shape, quant, kv string, seqs, bt int) spec.Request {
	if f == nil {
		f = new(requestFields)
	}
	*f = requestFields{tp: sh.tp, pp: sh.pp, dp: sh.dp, ep: sh.ep, maxLen: s.maxModelLen, seqs: seqs, batched: max(bt, seqs), in: s.in, out: s.out}
	w := s.req.Workload
	f.workload = spec.Workload{InputTokens: &f.in, OutputTokens: &f.out,
		SharedPrefixTokens: w.SharedPrefixTokens, PrefixHitRate: w.PrefixHitRate, NumPrefixes: w.NumPrefixes}
	r := spec.Request{SpeculativeConfig: s.req.SpeculativeConfig,
		Model: s.req.Model, ModelConfig: s.req.ModelConfig, Hardware: spec.HardwareRef{ID: hw}, Engine: eng,
		TensorParallelSize: &f.tp, PipelineParallelSize: &f.pp, Quantization: quant,
		MaxModelLen: &f.maxLen, MaxNumSeqs: &f.seqs, MaxNumBatchedTokens: &f.batched,
		Workload: &f.workload,
	}
	if sh.dp > 1 {
		r.DataParallelSize = &f.dp
	}
	if sh.ep {
		r.EnableExpertParallel = &f.ep
	}
	if kv != "auto" {
		r.KVCacheDtype = kv
	}
	if s.req.SLO.TTFTMs != nil || s.req.SLO.TPOTMs != nil {
		f.slo = spec.SLO{TTFTMs: s.req.SLO.TTFTMs, TPOTMs: s.req.SLO.TPOTMs}
		r.SLO = &f.slo
	}
	return r
}

// requests fills a listed deployment's evaluate requests: one replica
// at its share of the load (aggregated), or the decode instance at its
// batch and the prefill instance (disaggregated).
func (s *planSpec) requests(dep *planned) {
	sh := shape{dep.TensorParallelSize, dep.PipelineParallelSize, dep.DataParallelSize, dep.ExpertParallel}
	r := s.evaluateRequest(nil, dep.Accelerator, dep.Engine, sh, dep.quant, dep.KVCacheDtype, dep.MaxNumSeqs, dep.MaxNumBatchedTokens)
	if dep.PriceKind == hardware.PriceUser {
		// The user's price; without one the calculator reads the same
		// default table (hardware.DefaultPrice) and names its source.
		r.GPUHourUSD = spec.Float(dep.GPUHourUSD)
	}
	if dep.Mode == "disaggregated" {
		pre := r
		pre.Workload = s.workload()
		pre.SLO = nil
		dep.PrefillEvaluate = &pre
		r.SLO = nil
		if s.req.SLO.TPOTMs != nil {
			r.SLO = &spec.SLO{TPOTMs: s.req.SLO.TPOTMs}
		}
	}
	if dep.perRate > 0 {
		r.Workload.RequestRate = spec.Float(dep.perRate)
	} else {
		r.Workload.Concurrency = spec.Int(dep.perUsers)
	}
	dep.Evaluate = r
}

// label names a deployment in a sentence: "NVIDIA H100 SXM5 80GB, TP 2,
// fp8 weights, vllm".
func label(d *spec.PlanDeployment) string {
	t := d.AcceleratorName + ", TP " + itoa(d.TensorParallelSize)
	if d.PipelineParallelSize > 1 {
		t += ", PP " + itoa(d.PipelineParallelSize)
	}
	t += dpText(d) + ", " + precText(d.Quantization)
	if d.KVCacheDtype != "auto" {
		t += ", " + d.KVCacheDtype + " KV"
	}
	t += ", " + d.Engine
	if d.Mode == "disaggregated" {
		t += ", disaggregated"
		if d.Split != "" {
			t += " " + d.Split
		}
	}
	return t
}

// better orders deployments: by cost, then GPUs, then TPOT, then search
// order.
func better(a, b *spec.PlanDeployment) int {
	switch {
	case a.USDPerMillionOutputTokens != b.USDPerMillionOutputTokens:
		return cmpF(a.USDPerMillionOutputTokens, b.USDPerMillionOutputTokens)
	case a.GPUs != b.GPUs:
		return a.GPUs - b.GPUs
	case a.TPOTMs != b.TPOTMs:
		return cmpF(a.TPOTMs, b.TPOTMs)
	}
	return a.Rank - b.Rank
}

// tmp holds the candidate being evaluated, so that evaluating one
// allocates nothing; whatever keeps it copies it.
func (p *planner) tmp(c candidate) *candidate {
	p.cur = c
	return &p.cur
}

// report ranks the deployments and writes the answer. Of candidates that
// differ only in their scheduler settings, the cheapest is listed.
func (p *planner) report() spec.PlanReport {
	s := p.s
	r := spec.PlanReport{Version: deploy.Version, Model: deploy.DescribeModel(s.model, s.model.Quant), Candidates: s.countCandidates(),
		Cheapest: -1, FewestGPUs: -1, LowestLatency: -1, Deployments: []spec.PlanDeployment{}, Frontier: []spec.PlanPoint{},
		Rejections: []spec.PlanRejection{}, Warnings: []spec.Warning{}}
	if c := s.model.Checkpoint; c != "" {
		r.Warnings = append(r.Warnings, spec.Warning{Code: "checkpoint_resolved", Message: c})
	}
	ok := make([]*planned, len(p.ok))
	for i := range p.ok {
		ok[i] = &p.ok[i]
	}
	slices.SortFunc(ok, func(a, b *planned) int { return better(&a.PlanDeployment, &b.PlanDeployment) })
	for i := range ok {
		ok[i].Rank = i + 1
	}
	// The picks, among all that meet the budget; each is listed even when
	// it ranks below the limit.
	fewest, fastest := -1, -1
	for i, d := range ok {
		if fewest < 0 || d.GPUs < ok[fewest].GPUs {
			fewest = i
		}
		if fastest < 0 || d.TPOTMs < ok[fastest].TPOTMs || (d.TPOTMs == ok[fastest].TPOTMs && d.TTFTMs < ok[fastest].TTFTMs) {
			fastest = i
		}
	}
	list := slices.Clone(ok[:min(len(ok), s.limit)])
	index := func(i int) int {
		if i < len(list) {
			return i
		}
		list = append(list, ok[i])
		return len(list) - 1
	}
	if len(ok) > 0 {
		r.Cheapest, r.FewestGPUs = 0, index(fewest)
		if fastest != fewest || fastest < s.limit {
			r.LowestLatency = index(fastest)
		} else {
			r.LowestLatency = r.FewestGPUs
		}
	}
	r.Deployments = make([]spec.PlanDeployment, len(list))
	for i, d := range list {
		s.requests(d)
		d.Launch, d.Notes = launchCommand(s, d)
		r.Deployments[i] = d.PlanDeployment
	}
	r.Frontier = frontier(ok, list)
	for _, a := range s.accels {
		if slices.ContainsFunc(ok, func(d *planned) bool { return d.Accelerator == a.ID }) {
			continue
		}
		if c := p.nearest[a.ID]; c != nil && c.why != "" {
			r.Rejections = append(r.Rejections, c.rejection(a.ID, s))
		}
	}
	// Accelerators searched first; those without a price after them.
	slices.SortStableFunc(r.Rejections, func(a, b spec.PlanRejection) int {
		return boolInt(a.Reason == "no_price" || a.Reason == "purchase_priced") - boolInt(b.Reason == "no_price" || b.Reason == "purchase_priced")
	})
	r.Feasible = len(ok) > 0
	r.Answer = p.answer(ok)
	if s.ttftStat != "mean" || s.tpotStat != "mean" {
		r.Warnings = append(r.Warnings, spec.Warning{Code: "percentile_budget", Message: "the analytic search holds the modelled steady-state latencies to the budget; the " + s.ttftStat + " TTFT and " + s.tpotStat + " TPOT are checked only by the simulator (verify)"})
	}
	return r
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// frontier is the Pareto frontier of tokens/s per GPU against tokens/s
// per user: the deployments no other beats on both (of equal ones, the
// cheapest), by rising tokens/s per user.
func frontier(ok, list []*planned) []spec.PlanPoint {
	byUser := slices.Clone(ok)
	slices.SortStableFunc(byUser, func(a, b *planned) int {
		if c := cmpF(b.TokensPerSPerUser, a.TokensPerSPerUser); c != 0 {
			return c
		}
		return cmpF(b.TokensPerSPerGPU, a.TokensPerSPerGPU)
	})
	out := []spec.PlanPoint{}
	bestGPU := -1.0
	for _, d := range byUser { // by falling tokens/s per user
		if d.TokensPerSPerGPU <= bestGPU {
			continue
		}
		bestGPU = d.TokensPerSPerGPU
		at := slices.Index(list, d)
		out = append(out, spec.PlanPoint{Index: at, Accelerator: d.Accelerator, GPUs: d.GPUs, TokensPerSPerGPU: d.TokensPerSPerGPU,
			TokensPerSPerUser: d.TokensPerSPerUser, USDPerMillionOutputTokens: d.USDPerMillionOutputTokens, Label: label(&d.PlanDeployment)})
	}
	slices.Reverse(out)
	return out
}

// answer is the plan in one sentence.
func (p *planner) answer(ok []*planned) string {
	s := p.s
	if len(ok) > 0 {
		return headline(&ok[0].PlanDeployment)
	}
	switch {
	case s.tpotS > 0 && p.fastTPOT > s.tpotS:
		return "no deployment meets TPOT <= " + msText(s.tpotS) + "; the fastest is " + msText(p.fastTPOT) + " on " + label(&p.fastTPOTAt.PlanDeployment)
	case s.ttftS > 0 && p.fastTTFT > s.ttftS:
		return "no deployment meets TTFT <= " + msText(s.ttftS) + "; the fastest is " + msText(p.fastTTFT) + " on " + label(&p.fastTTFTAt.PlanDeployment)
	case p.fastTPOT == 0:
		return "no deployment fits: the model's weights do not fit on any accelerator searched"
	}
	return "no deployment meets the budget within the constraints; the rejections say why per accelerator"
}

// headline is the answer naming the plan's first deployment.
func headline(d *spec.PlanDeployment) string {
	return "cheapest: " + itoa(d.GPUs) + " GPU" + numtext.Plural(d.GPUs) + " in " + itoa(d.Replicas) + " replica" + numtext.Plural(d.Replicas) + " of " + label(d) +
		", $" + fielderr.Number(round3(d.USDPerMillionOutputTokens)) + " per million output tokens at TTFT " +
		strconv.FormatFloat(d.TTFTMs, 'f', 1, 64) + " ms, TPOT " + strconv.FormatFloat(d.TPOTMs, 'f', 1, 64) + " ms" +
		" (at $" + fielderr.Number(round3(d.GPUHourUSD)) + " per GPU-hour, " + priceText(d.PriceKind) + ")"
}

// priceText names a price's kind for the answer.
func priceText(kind string) string {
	switch kind {
	case hardware.PriceUser:
		return "your price"
	case hardware.PricePurchase:
		return "purchase price amortised over 4 years plus power"
	}
	return "on-demand cloud list price"
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// planned is a deployment as the planner builds it: the answer's row and
// what the planner needs besides to finish it.
type planned struct {
	spec.PlanDeployment
	quant    string  // the request's quantization ("" as published)
	util     float64 // the memory fraction it was costed with (resolved gpu_memory_utilization)
	perRate  float64 // one replica's request rate (aggregated, rate workloads)
	perUsers int     // one replica's users, or the decode instance's batch
}
