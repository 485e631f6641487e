package deploy

import (
	"math"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/kvcache"
	"github.com/modelrefs/throughput/sched"
)

// SimPlan is a validated SimulateOptions.
type SimPlan struct {
	Work     sched.Workload
	Timeline int
	Sweep    bool
	SweepN   int
	// SweepAuto: simulate.sweep.num_requests was left out (checkBudget may
	// lower sweepN to fit the work budget).
	SweepAuto bool
	Points    int
	Rates     []float64
	Users     []int
	Arrival   string
	Seed      int64
	// WorkLimit is the work, in work units, past which the simulator
	// stops (0: none; evaluate sets it from the work budget); Stopped says
	// it did (the estimate was wrong), and Refusal is then the request's
	// error, naming simulate.
	WorkLimit float64
	Stopped   bool
	Refusal   error
	// Traffic is the trace or rate curve replayed, and its fleet (nil:
	// generated arrivals; traffic.go).
	Traffic *TrafficPlan
}

var distKinds = map[string]sched.DistKind{
	"constant": sched.Constant, "uniform": sched.Uniform, "normal": sched.Normal,
	"lognormal": sched.LogNormal, "exponential": sched.Exponential,
}

// simulateOptions validates o against the resolved deployment and plan
// (d is nil when resolving failed; checks that need it are skipped) and
// appends its problems to prev, the error resolve returned.
func simulateOptions(o *spec.SimulateOptions, d *Deployment, p Ask, prev error) (*SimPlan, error) {
	var e spec.Errs
	if _, ok := prev.(spec.Errors); ok {
		e.AddErr("", prev)
	} else if prev != nil {
		return nil, prev
	}
	if o == nil {
		return nil, e.Err()
	}
	maxLen := spec.MaxTokens * 64
	if d != nil {
		maxLen = d.MaxModelLen
	}
	sp := &SimPlan{}
	w := &sp.Work
	w.NumRequests = e.IntAt("simulate.num_requests", "SimulateOptions.num_requests", o.NumRequests, spec.DefaultSimulatedRequests)
	if o.Seed != nil {
		switch s := *o.Seed; {
		case s < 0:
			e.Add("simulate.seed", "must be at least 0, got "+strconv.FormatInt(s, 10))
		case s > spec.MaxSeed:
			e.Add("simulate.seed", "must be at most 2^53, got "+strconv.FormatInt(s, 10))
		default:
			sp.Seed = s
		}
	}
	w.Seed = uint64(sp.Seed)
	sp.Arrival = strings.ToLower(strings.TrimSpace(o.Arrival))
	if sp.Arrival == "" {
		switch {
		case o.Trace != nil:
			sp.Arrival = "trace"
		case o.RateCurve != nil:
			sp.Arrival = "rate_curve"
		case p.rate > 0:
			sp.Arrival = "poisson"
		case p.concurrency > 0:
			sp.Arrival = "closed_loop"
		default:
			sp.Arrival = "burst"
		}
	}
	switch sp.Arrival {
	case "poisson":
		w.Arrival = sched.Poisson
		w.RatePerS = e.FloatAt("simulate.request_rate", "SimulateOptions.request_rate", o.RequestRate, p.rate)
		if o.RequestRate == nil && p.rate == 0 {
			e.Add("simulate.request_rate", "is required for poisson arrivals (or give workload.request_rate)")
		}
	case "closed_loop":
		w.Arrival = sched.ClosedLoop
		w.Users = e.IntAt("simulate.concurrency", "SimulateOptions.concurrency", o.Concurrency, p.concurrency)
		if o.Concurrency == nil && p.concurrency == 0 {
			e.Add("simulate.concurrency", "is required for closed_loop arrivals (or give workload.concurrency)")
		}
	case "burst":
		w.Arrival = sched.Burst
	case "trace", "rate_curve":
		w.Arrival = sched.Replay
	default:
		e.Add("simulate.arrival", "unknown arrival "+fielderr.Quote(o.Arrival)+"; one of "+strings.Join(spec.Arrivals, ", "))
	}
	if sp.Arrival != "poisson" && o.RequestRate != nil {
		e.Add("simulate.request_rate", "applies to poisson arrivals only")
	}
	if sp.Arrival != "closed_loop" && o.Concurrency != nil {
		e.Add("simulate.concurrency", "applies to closed_loop arrivals only")
	}
	if p.sessions != nil {
		Sessions.Sim(&e, o, p, sp)
	}
	w.Input = LengthDist(&e, "simulate.input_tokens", o.InputTokens, p.In, maxLen-1)
	w.Output = LengthDist(&e, "simulate.output_tokens", o.OutputTokens, p.Out, maxLen-1)
	w.MaxTokens = maxLen
	sp.Timeline = e.IntAt("simulate.timeline_points", "SimulateOptions.timeline_points", o.TimelinePoints, spec.DefaultTimelinePoints)
	if s := o.Sweep; s != nil {
		sp.Sweep = true
		sp.Points = e.IntAt("simulate.sweep.points", "SimSweepOptions.points", s.Points, spec.DefaultSimSweepPoints)
		sp.SweepN = e.IntAt("simulate.sweep.num_requests", "SimSweepOptions.num_requests", s.NumRequests, min(spec.DefaultSimSweepRequests, w.NumRequests))
		sp.SweepAuto = s.NumRequests == nil
		switch {
		case len(s.RequestRates) > 0 && sp.Arrival != "poisson":
			e.Add("simulate.sweep.request_rates", "applies to poisson arrivals only; sweep concurrencies instead")
		case len(s.Concurrencies) > 0 && sp.Arrival == "poisson":
			e.Add("simulate.sweep.concurrencies", "applies to closed_loop and burst arrivals only; sweep request_rates instead")
		}
		if len(s.RequestRates) > spec.MaxSimSweepPoints || len(s.Concurrencies) > spec.MaxSimSweepPoints {
			e.Add("simulate.sweep", "at most "+itoa(spec.MaxSimSweepPoints)+" loads")
		}
		for i, r := range s.RequestRates {
			sp.Rates = append(sp.Rates, e.FloatAt("simulate.sweep.request_rates["+itoa(i)+"]", "SimSweepOptions.request_rates", &r, 1))
		}
		for i, c := range s.Concurrencies {
			sp.Users = append(sp.Users, e.IntAt("simulate.sweep.concurrencies["+itoa(i)+"]", "SimSweepOptions.concurrencies", &c, 1))
		}
	}
	trafficOptions(&e, o, sp, d, p)
	if err := e.Err(); err != nil {
		return nil, err
	}
	return sp, nil
}

// LengthDist validates one length distribution; nil is constant def.
func LengthDist(e *spec.Errs, field string, l *spec.LengthDistribution, def, hi int) sched.Dist {
	d := sched.Dist{Kind: sched.Constant, Mean: float64(def), Min: 1, Max: hi}
	if l == nil {
		return d
	}
	name := strings.ToLower(strings.TrimSpace(l.Distribution))
	kind, ok := distKinds[name]
	if !ok {
		e.Add(field+".distribution", "unknown distribution "+fielderr.Quote(l.Distribution)+"; one of "+strings.Join(spec.Distributions, ", "))
		return d
	}
	d.Kind = kind
	d.Mean = floatField(e, field+".mean", l.Mean, float64(def), 0, float64(hi), false)
	if l.Mean != nil && *l.Mean < 1 && *l.Mean > 0 {
		e.Add(field+".mean", "must be at least 1 token, got "+fielderr.Number(*l.Mean))
	}
	d.Min = intField(e, field+".min", l.Min, 1, 1, hi)
	d.Max = intField(e, field+".max", l.Max, hi, 1, hi)
	if d.Min > d.Max {
		e.Add(field+".min", "("+itoa(d.Min)+") must not exceed max ("+itoa(d.Max)+")")
	}
	switch kind {
	case sched.Normal, sched.LogNormal:
		if l.Std == nil {
			e.Add(field+".std", "is required for the "+name+" distribution")
		}
		d.Std = floatField(e, field+".std", l.Std, 0, 0, float64(spec.MaxTokens), true)
	default:
		if l.Std != nil {
			e.Add(field+".std", "is not used by the "+name+" distribution")
		}
	}
	if kind == sched.Uniform {
		if l.Mean != nil {
			e.Add(field+".mean", "is not used by the uniform distribution; give min and max")
		}
		if l.Min == nil || l.Max == nil {
			e.Add(field, "the uniform distribution needs min and max")
		}
	}
	return d
}

// Layout returns the KV cache layout of the tightest pipeline stage (the
// one whose pool bounds the deployment).
func (d *Deployment) Layout() kvcache.Layout { return d.stages[d.tight].layout }

// StepSeconds adapts the deployment's cost model to the scheduler. With a
// CPU tier, the host link carries, per step, the blocks loaded back
// (host to GPU) and the KV the step writes, copied to the tier as blocks
// fill (GPU to host, the other direction of the full-duplex link), both
// at offloadBW. vLLM's native offloading connector overlaps both with
// compute: its loads are asynchronous (OffloadingConnectorScheduler.
// get_num_new_matched_tokens returns load_kv_async = True, so the request
// waits in WAITING_FOR_REMOTE_KVS while the batch runs; vllm/distributed/
// kv_transfer/kv_connector/v1/offloading_connector.py) and its stores are
// submitted after the forward and polled (get_finished); each direction
// has its own handler, its transfers in order on CUDA streams of their own
// (vllm/v1/kv_offload/worker/cpu_gpu.py SingleDirectionOffloadingHandler).
// So the step lasts
// max(compute, load, store): a transfer shorter than the forward is
// hidden, a longer one sets the pace (the returning request's tokens
// arrive with its blocks). A synchronous connector (async_load false)
// loads before the forward: compute + load, stores still overlapped.
func (d *Deployment) StepSeconds(l sched.Load) float64 {
	t := d.Step(StepLoad{
		DecodeSeqs: l.DecodeSeqs, DecodeContext: float64(l.DecodeContext),
		PrefillTokens: l.PrefillTokens, PrefillSpan: l.PrefillSpan, PrefillSeqs: l.PrefillSeqs,
		SpecTokens: l.SpecTokens,
	}).TimeS
	f := &d.feat
	if f.offloadBytes <= 0 {
		return t
	}
	lay := d.Layout()
	block := lay.PageBytes * float64(lay.LayersPerBlock) // bytes of one block, all its layers
	load := float64(l.ReloadBlocks) * block / f.offloadBW
	store := float64(l.PrefillTokens+l.DecodeSeqs) * block / float64(lay.BlockSize) / f.offloadBW
	if f.offloadSync {
		return math.Max(t+load, store)
	}
	return math.Max(t, math.Max(load, store))
}

// SchedConfig is the scheduler's view of the deployment: the block pool
// less vLLM's null block (block 0 is reserved, BlockPool.null_block).
func (d *Deployment) SchedConfig() sched.Config {
	lay := d.Layout()
	sg := d.Engine.Name == "sglang"
	c := sched.Config{
		NumBlocks: d.NumBlocks - 1, BlockSize: lay.BlockSize,
		MaxNumSeqs: d.MaxNumSeqs, MaxBatchedTokens: d.MaxBatched, Blocks: lay,
		FirstChunkAdmission: !d.Version.FullPromptAdmission,
		// SGLang runs prefills alone, first (sched.Config.PrefillFirst),
		// as does vLLM's V0 engine without chunked prefill (v0.6.0
		// vllm/core/scheduler.py _schedule_default: "Don't schedule
		// decodes if prefills are scheduled"; Deployment.PrefillFirst).
		PrefillFirst:    d.PrefillFirst(),
		SchedulerSteps:  d.schedSteps,
		OverlapSchedule: d.Version.OverlapSchedule,
		// SGLang admits against a reserve for the running requests'
		// outputs and retracts when a decode does not fit.
		ReserveOutput: sg,
	}
	if d.Model.IsMoE() && d.feat.dp > 1 {
		// Attention data parallel over experts shared by the ranks: every
		// MoE layer runs on all of them at once (sched.Config.LockstepRanks).
		c.LockstepRanks = d.feat.dp
	}
	f := &d.feat
	if f.prefixOn {
		c.Prefix = sched.PrefixCache{Enabled: true, Tokens: f.prefixTokens, Prefixes: f.prefixes, SharedGroups: max(sharedGroups(lay), 1)}
		if sharedGroups(lay) == 0 {
			c.Prefix.Tokens = 0 // nothing a prefix could share
		}
	}
	if f.specK > 0 {
		c.Spec = sched.Speculation{Tokens: f.specK, Acceptance: f.specAccept}
	}
	if f.offloadBytes > 0 {
		c.Offload = sched.Offload{Blocks: d.feat.offloadBlocks(lay, d.TP), Groups: max(sharedGroups(lay), 1)}
	}
	return c
}
