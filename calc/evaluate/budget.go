package evaluate

import (
	"math"

	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/finite"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/numtext"
	"github.com/modelrefs/throughput/sched"
)

// The work budget. A request's cost is counted in work units before it
// runs (EstimateWork), deterministically, and a request over its budget is
// refused with a field error instead of run.
//
// One work unit is one sequence-step: one running sequence carried through
// one scheduler step (scheduled, costed, completed). A step also costs a
// fixed amount whatever its batch (the cost model, the meter, the loop),
// and a request one at its start and end (generating it, its latencies
// and their percentiles), so a simulation run costs
//
//	SeqSteps + StepWorkUnits*Steps + RequestWorkUnits*requests
//
// units, sched.Result counting SeqSteps and Steps, plus
//
//	GroupWorkUnits*groups*BlockEvents
//
// for the block events (sched.Result.BlockEvents: a call of
// kvcache.Layout.BlocksFor, which walks every one of the layout's KV-cache
// groups; up to kvcache.MaxGroups). The derivation: probes
// of runs of batch 1 to 1,024 (burst, Poisson, closed loop; 100k-token
// prompts; preemption) on the development machine (2 shared cores,
// go1.26, amd64) measured about 9 ns per sequence-step, 90 ns per step
// and 160-250 ns per request, hence StepWorkUnits = 10 and
// RequestWorkUnits = 20; BenchmarkWorkBudget, the dearest requests the
// default budget accepts, measures 8.3 to 14 ns per unit (medians 10-12 on
// the loaded machine), hence NsPerWorkUnit = 10.
const (
	// StepWorkUnits is the fixed cost of one simulated step in
	// sequence-steps.
	StepWorkUnits = 10
	// RequestWorkUnits is the fixed cost of one simulated request in
	// sequence-steps.
	RequestWorkUnits = 20
	// GroupWorkUnits is the cost of one KV-cache group in one block event
	// in sequence-steps: 1 full and 1, 7 or 63 sliding layers (2, 8 and
	// 64 groups), 1,000 requests of 1024+256 tokens at block_size 1 and
	// 16 on an H200, measured 2.5 to 4.5 ns a group and event (sched.Run
	// alone, best of 5) against about 6 ns a sequence-step on the same
	// runs, hence 0.5 (issue 35: the probe's 4,096 groups at block_size 1
	// ran 42 s of CPU inside an estimate that counted no groups).
	GroupWorkUnits = 0.5
	// NsPerWorkUnit is the measured native CPU time of one work unit, in
	// nanoseconds (WebAssembly on workerd or node is 3-4x slower: issue
	// 16's request took 8.3 s natively, 25 s in node, 31 s on workerd).
	NsPerWorkUnit = 10
	// DefaultWorkBudget is the work budget of Evaluate and of every HTTP
	// request: 4e6 units, about 40 ms of native CPU
	// (4e6 * NsPerWorkUnit; 45-58 ms measured on the loaded development
	// machine), 120-160 ms as WebAssembly on workerd, so no request the
	// edge API accepts runs longer than about 50 ms natively. The default
	// simulation (1,000 requests of 1024+256 tokens on Llama 3.1 8B, H100
	// SXM) costs about 2.9e5 units, with its default 8-point sweep about
	// 2.9e6.
	DefaultWorkBudget = 4e6
)

// workSample is how many of a run's requests the estimate draws to learn
// its lengths (all of them when the run has fewer): enough for a sample
// mean within a few per cent, cheap enough (one pass, shared by the main
// run and the sweep: about 0.3 ms natively for two lognormal
// distributions) that a refusal costs little.
const workSample = 1024

// lengthStats sums the first requests of a workload, as a run generates
// them: k drawn, resident the steps they spend in the running batch,
// tokens computed, and their lengths; requests too long for the pool are
// left out but counted in k (they are dropped).
type lengthStats struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	k, resident, tokens, in, out float64
	// events is the block events of the requests that fit (2 to admit
	// them, one per prefill chunk and one per block of output; see
	// runWork).
	events float64
}

func (b *workBudget) lengthStats(w sched.Workload) lengthStats {
	d := b.d
	// The pool and the chunk as schedConfig gives the simulator, read here
	// without building its whole configuration (which would link it into
	// the light engine): NumBlocks - 1 is its pool less vLLM's null block.
	lay, blocks := d.Layout(), d.NumBlocks-1
	chunk, bs := int64(d.MaxBatched), int64(max(lay.BlockSize, 1))
	var st lengthStats
	add := func(i, o int) {
		st.k++
		all := int64(i + o)
		if lay.BlocksFor(all, min(all, chunk)) > blocks {
			return
		}
		chunks := (int64(i) + chunk - 1) / chunk
		st.resident += float64(chunks + int64(o) - 1)
		st.events += float64(2 + chunks + (int64(o)+bs-1)/bs)
		st.tokens += float64(i + o - 1)
		st.in += float64(i)
		st.out += float64(o)
	}
	switch {
	case w.Arrival != sched.Replay && w.Sessions == nil:
		w.DrawnLengths(workSample, add)
	case deploy.TurnLengths != nil:
		// A trace's or a session workload's turns (nil in the light
		// engine, which refuses both and so draws none).
		deploy.TurnLengths(&w, workSample, add)
	}
	return st
}

// WorkEstimate is what a request is expected to cost, in work units
// (sequence-steps; see DefaultWorkBudget).
type WorkEstimate struct {
	// Total is the whole request: Base + Simulation + Sweep.
	Total float64
	// Base is the analytic report (decode sweep, searches): one step each.
	Base float64
	// Simulation is the main simulation run; Sweep the simulated sweep's
	// runs (its loads and the onset bisection), Runs their number.
	Simulation, Sweep float64
	Runs              int

	meanOutput float64 // of the main run's sampled requests
}

// EstimateWork returns a request's estimated work, in work units, without
// running its simulation (it resolves the request and computes the cheap
// analytic report). Invalid requests return their Errors.
func EstimateWork(req spec.Request) (WorkEstimate, error) {
	d, p, err := deploy.ResolveAsk(req)
	sim, err := deploy.SimulationPlan(req.Simulate, d, p, err)
	if err != nil {
		return WorkEstimate{}, err
	}
	r := deploy.Assemble(d, p)
	return (&workBudget{d, p, sim, r.Preemption}).estimateWork(), nil
}

// NoSimulatorMessage is the error on field simulate from an engine built
// without the simulator: the browser's light engine, whose main does not
// import package calc/simulate.
const NoSimulatorMessage = "this engine is the browser's light build, without the simulator: load({ planner: true }) loads the full engine (throughput-planner.wasm), which simulates"

// SimulatorBuilt reports whether this build has the simulator: whether
// package calc/simulate is linked in (every build but the browser's light
// engine).
func SimulatorBuilt() bool { return deploy.Simulator != nil }

// EvaluateWithBudget is Evaluate with a work budget other than
// DefaultWorkBudget (in work units; +Inf: none, though each simulation run
// still stops after 2^25 steps). A request whose estimated work exceeds
// it returns Errors naming the field that drives the cost, without
// running. The HTTP API always uses DefaultWorkBudget; the JavaScript
// module lets its caller choose (load({workBudget})).
func EvaluateWithBudget(req spec.Request, budget float64) (spec.Report, error) {
	d, p, err := deploy.ResolveAsk(req)
	sim, err := deploy.SimulationPlan(req.Simulate, d, p, err)
	if err != nil {
		return spec.Report{}, err
	}
	if !(budget > 0) {
		return spec.Report{}, fielderr.New("", "the work budget must be a positive number of sequence-steps, got "+fielderr.Number(budget))
	}
	r := deploy.Assemble(d, p)
	r.Fixes = nearestFixes(req, d, &r)
	if err := (&workBudget{d, p, sim, r.Preemption}).checkBudget(budget); err != nil {
		return spec.Report{}, err
	}
	if sim != nil && deploy.Simulator == nil {
		return spec.Report{}, fielderr.New("simulate", NoSimulatorMessage)
	}
	if sim != nil {
		if err := simulateWithin(d, &r, p, sim, budget); err != nil {
			return spec.Report{}, err
		}
	}
	if err := finite.Check(&r); err != nil {
		return spec.Report{}, err
	}
	return r, nil
}

// WatchdogFactor is how far past its budget an accepted simulation may run
// before the simulator stops it: the estimate tracks the work done within
// 0.8x to 1.5x (TestWorkEstimateTracksTheSimulator), so a run that passes
// twice the budget is one the estimate got wrong, and it is stopped at the
// next step and refused rather than left to block the isolate.
const WatchdogFactor = 2

// simulateWithin runs sp's simulation into r under the watchdog
// (WatchdogFactor times budget; none for an infinite budget), and returns
// the simulator's refusal (SimPlan.Refusal, naming simulate) when the
// watchdog stopped it: the request then has no partial figures.
func simulateWithin(d *deploy.Deployment, r *spec.Report, p deploy.Ask, sp *deploy.SimPlan, budget float64) error {
	if !math.IsInf(budget, 1) {
		sp.WorkLimit = WatchdogFactor * budget
	}
	deploy.Simulator(d, r, p, sp)
	return sp.Refusal
}

// workBudget prices one request's work: its deployment, what it asks,
// the simulation it plans (nil: none) and its report's preemption figures
// (the simulated sweep's loads derive from them).
type workBudget struct {
	d   *deploy.Deployment
	p   deploy.Ask
	sp  *deploy.SimPlan
	pre *spec.PreemptionReport
}

// estimateWork prices the analytic report and every simulation run sp
// asks for.
func (b *workBudget) estimateWork() WorkEstimate {
	d, p, sp, pre := b.d, b.p, b.sp, b.pre
	est := WorkEstimate{Base: StepWorkUnits * float64(p.SweepPoints()+64)}
	if sp != nil && pre != nil && d.NumBlocks >= 2 {
		st := b.lengthStats(sp.Work)
		est.Simulation = b.runWork(sp.Work, st)
		if deploy.TrafficWork != nil {
			est.Simulation += deploy.TrafficWork(sp)
		}
		if st.k > 0 {
			est.meanOutput = st.out / st.k
		}
		if sp.Sweep {
			sw := st
			if min(sp.SweepN, workSample) != min(sp.Work.NumRequests, workSample) {
				w := sp.Work
				w.NumRequests = sp.SweepN
				sw = b.lengthStats(w)
			}
			est.Sweep, est.Runs = b.sweepWork(sw)
		}
	}
	est.Total = est.Base + est.Simulation + est.Sweep
	return est
}

// runWork estimates one run of w: every request is resident in the
// running batch for its prefill chunks and its output tokens (the steps
// between admission and finish), so the run costs the sum of those over
// its requests in sequence-steps (drawn from the workload's own lengths),
// plus StepWorkUnits per step, the steps being that sum over the batch the
// run sustains: the least of max_num_seqs, what the KV pool holds at the
// mean lengths, and what the load keeps in flight (every request for a
// burst, the users of a closed loop, Little's law for Poisson arrivals,
// and never more than the run's requests), the pool's share counted at
// the larger of a sequence's staggered mean blocks and its largest prompt
// chunk's blocks.
//
// Its block events (sched.Result.BlockEvents), each priced GroupWorkUnits
// a KV-cache group: every request is checked against the pool once; one
// that fits is checked and allocated at admission (2), then reallocated
// at each of its prefill chunks and each time its context crosses a block
// (ceil(output/block_size)); and while the KV pool, not max_num_seqs or
// the load, bounds the batch, every step checks the waiting queue's head
// once more and finds it does not fit.
//
// Capped by what 2^25 steps (MaxSimSteps) can do.
func (b *workBudget) runWork(w sched.Workload, st lengthStats) float64 {
	d := b.d
	if st.k == 0 || st.resident == 0 {
		return 0
	}
	k := st.k
	chunk := float64(d.MaxBatched)
	n := float64(w.NumRequests)
	seqSteps := st.resident * n / k
	capc, _ := d.SchedulerCap()
	batch := float64(capc)
	meanIn, meanOut := max(1, int(st.in/k)), max(1, int(st.out/k))
	load, rate, users, fresh := n, w.RatePerS, float64(w.Users), meanIn
	if ss := w.Sessions; ss != nil {
		// One replica's turns: a session's first turns arrive together
		// under a burst, its turns at turns x session_rate / replicas, and
		// a turn that finds its conversation cached computes only what
		// the conversation gained (a shorter turn, fewer in flight: the
		// fewest, and so the most steps, when every turn hits).
		turns, r := max(ss.Turns.Mean, 1), float64(max(ss.Replicas, 1))
		load, rate, users = n/turns, rate*turns/r, max(math.Round(users/r), 1)
		fresh = max(1, int((w.Input.Mean+(turns-1)*ss.NewTokens.Mean)/turns))
	}
	switch w.Arrival {
	case sched.ClosedLoop:
		load = users
	case sched.Poisson:
		load = float64(deploy.Analyse(d, nil).ConcurrencyForRate(rate, fresh, meanOut, capc))
	case sched.Replay:
		// A replayed trace at its mean rate (Little's law; its bursts
		// hold more for a while, which the watchdog's factor covers), or
		// every request at once.
		load = n
		if rate := w.MeanRate(); rate > 0 {
			load = float64(deploy.Analyse(d, nil).ConcurrencyForRate(rate, meanIn, meanOut, capc))
		}
	}
	// No run holds more requests than it has (a sweep's load of 1,000
	// users over its 2 requests runs a batch of 2).
	batch = min(batch, load, n)
	poolBound := false
	pool := d.Pool()
	// A sequence holds at least the blocks of its largest prompt chunk:
	// the scheduler never shrinks what a sequence holds (sched's tryAlloc
	// keeps max(need, held)), and a sliding-window group needs its window
	// plus the chunk's tokens while it computes that chunk
	// (kvcache.Layout.BlocksFor). Where that peak passes the staggered
	// mean (many sliding groups at a small block size) the pool holds
	// fewer sequences than the mean suggests: issue 35's 64-group probe at
	// block size 1 ran 4 at a time, and 22 times the steps the mean gave.
	peak := float64(d.Layout().BlocksFor(int64(meanIn), int64(min(meanIn, max(d.MaxBatched, 1)))))
	if mb := max(pool.MeanStaggered(meanIn, meanOut), peak); mb > 0 {
		held := math.Floor(float64(pool.Usable()) / mb)
		poolBound = held < batch
		batch = min(batch, held)
	}
	batch = max(batch, 1)
	// A step computes at most max_num_batched_tokens tokens.
	steps := max(seqSteps/batch, st.tokens*n/k/chunk)
	events := n + st.events*n/k
	if poolBound {
		events += steps
	}
	groups := GroupWorkUnits * float64(len(d.Layout().Groups))
	work := seqSteps + StepWorkUnits*steps + RequestWorkUnits*n + groups*events
	return min(work, float64(spec.MaxSimSteps)*(float64(capc)+StepWorkUnits+groups*float64(capc+1)))
}

// sweepWork estimates the simulated sweep: one run per load, and the
// onset bisection (6 runs for request rates, log2 of the widest gap
// between loads for users), each bisection run priced as the dearest load.
func (b *workBudget) sweepWork(st lengthStats) (work float64, runs int) {
	d, sp := b.d, b.sp
	w := sp.Work
	w.NumRequests = sp.SweepN
	poisson := w.Arrival == sched.Poisson
	if !poisson {
		w.Arrival = sched.ClosedLoop
	}
	loads, _ := d.SimSweepLoads(b.p, sp, b.pre)
	var dearest, prev, gap float64
	for _, load := range loads {
		if poisson {
			w.RatePerS = load
		} else {
			w.Users = int(load)
		}
		c := b.runWork(w, st)
		work += c
		dearest = max(dearest, c)
		gap = max(gap, load-prev)
		prev = load
	}
	runs = len(loads)
	// The bisection runs only when a load preempts; expect that when the
	// analytic onset is within reach or the lengths vary.
	bisect := 0
	if b.pre.Reachable || sp.Work.Input.Kind != sched.Constant || sp.Work.Output.Kind != sched.Constant {
		bisect = deploy.OnsetBisections
		if !poisson {
			bisect = int(math.Ceil(math.Log2(max(gap, 1)))) + 1
		}
	}
	return work + float64(bisect)*dearest, runs + bisect
}

// checkBudget refuses a request whose estimated work exceeds budget,
// naming the field that drives the cost and the value that would fit. The
// cost of a run is linear in its requests: when the main run alone is over
// the budget, it names simulate.num_requests, else the sweep's.
//
// A sweep left at its default size (simulate.sweep.num_requests not given)
// is not refused: it runs the most requests a load, in two significant
// digits, that keep it within the budget (vLLM's 1024 default sequences on
// an H100 make the default sweep preempt, and bisect, past 4e6
// sequence-steps); the report's simulation.sweep.num_requests gives the
// count.
func (b *workBudget) checkBudget(budget float64) error {
	sp := b.sp
	est := b.estimateWork()
	if left := budget - est.Base - est.Simulation; est.Total > budget && est.Sweep > 0 && left > 0 && sp.SweepAuto {
		sp.SweepN = b.fitSweep(left, est.Sweep)
		est = b.estimateWork()
	}
	if est.Total <= budget || est.Simulation+est.Sweep == 0 {
		return nil // the analytic report alone is never refused
	}
	over := " needs about " + numtext.Sci(est.Total) + " sequence-steps, above the work budget of " + numtext.Sci(budget)
	lengths := "workload.output_tokens"
	if sp.Work.Output.Kind != sched.Constant {
		lengths = "simulate.output_tokens"
	}
	if left := budget - est.Base - est.Simulation; left > 0 {
		n := sp.SweepN
		fit := b.fitSweep(left, est.Sweep)
		sp.SweepN = n
		msg := "the simulated sweep (" + itoa(est.Runs) + " runs of " + numtext.Thousands(int64(n)) + " requests)" + over +
			"; lower simulate.sweep.num_requests to about " + numtext.Thousands(int64(fit)) + ", or simulate.sweep.points, or " + lengths
		return fielderr.New("simulate.sweep.num_requests", msg)
	}
	if deploy.TrafficRefusal != nil {
		if err := deploy.TrafficRefusal(sp, est.Total, budget); err != nil {
			return err
		}
	}
	what := "the simulation (" + numtext.Thousands(int64(sp.Work.NumRequests)) + " requests of about " + numtext.Thousands(int64(math.Round(est.meanOutput))) + " output tokens"
	if sp.Sweep {
		what += ", and a sweep of " + itoa(est.Runs) + " runs"
	}
	msg := what + ")" + over + "; lower simulate.num_requests to about " + numtext.Fit(sp.Work.NumRequests, (budget-est.Base)/est.Simulation) + ", or " + lengths
	if sp.Sweep {
		msg += ", and drop simulate.sweep"
	}
	return fielderr.New("simulate.num_requests", msg)
}

// fitSweep sets sp.SweepN to the most requests a load, in two significant
// digits, whose sweep the estimate prices within left units, and returns
// it (1 when none does), starting from sweep, the price at today's count.
// A sweep's price is nearly linear in its requests, so the first guess is
// the proportional one; below a load's users it is not (a run of n
// requests holds at most n at once: runWork), so the guess is priced and
// narrowed again, a few times at most.
func (b *workBudget) fitSweep(left, sweep float64) int {
	sp := b.sp
	for range 6 {
		n := numtext.FitN(sp.SweepN, left/sweep)
		if n >= sp.SweepN {
			break
		}
		sp.SweepN = n
		if sweep = b.estimateWork().Sweep; sweep <= left || n == 1 {
			break
		}
	}
	return sp.SweepN
}
