package sched

import "errors"

// BlockCounter gives the KV blocks one sequence holds at contextTokens
// tokens while newTokens of them are computed in the current step.
// kvcache.Layout implements it. It must be non-decreasing in both
// arguments.
type BlockCounter interface {
	BlocksFor(contextTokens, newTokens int64) int64
}

// Config is one serving instance: its scheduler limits and KV block pool.
type Config struct {
	// NumBlocks is the number of KV blocks the scheduler may hand out
	// (vLLM: num_gpu_blocks minus the reserved null block).
	NumBlocks int64
	// BlockSize is the tokens per block.
	BlockSize int
	// MaxNumSeqs caps the running sequences (max_num_seqs).
	MaxNumSeqs int
	// MaxBatchedTokens is the token budget of one step
	// (max_num_batched_tokens), shared by decodes and prefill chunks.
	MaxBatchedTokens int
	// Blocks counts a sequence's blocks.
	Blocks BlockCounter
	// Prefix and Spec are prefix caching and speculative decoding
	// (features.go); zero values leave them off.
	Prefix  PrefixCache
	Spec    Speculation
	Offload Offload
	// FirstChunkAdmission admits a waiting sequence when its first chunk
	// fits, as vLLM did before PR #37307 (scheduler_reserve_full_isl, on by
	// default since); false requires its whole current sequence to fit.
	FirstChunkAdmission bool
	// PrefillFirst runs a step of prefills alone whenever one can be
	// formed, and decodes only when none can: SGLang's policy
	// (sgl-project/sglang@0003215c python/sglang/srt/managers/scheduler.py
	// get_next_batch_to_run: "Run prefill first if possible"; with
	// server_args enable_mixed_chunk False, its default, a prefill batch
	// carries no decodes). False is vLLM's: decodes first, prefills in the
	// same step.
	PrefillFirst bool
	// LockstepRanks is the number of data-parallel ranks that run every
	// MoE layer together (attention data parallel with the experts shared
	// over the ranks; 0 or 1: none). A step then lasts as long as the
	// slowest rank's (Run): an idle or decoding rank waits for one that
	// prefills. vLLM's data-parallel MoE ranks run dummy forward passes to
	// stay aligned (vllm-project/vllm docs/serving/data_parallel_deployment.md,
	// "the forward passes must be aligned"), SGLang's DP attention syncs
	// every batch before the MoE (scheduler prepare_mlp_sync_batch), and
	// TensorRT-LLM's attention DP exchanges tokens in each MoE layer.
	LockstepRanks int
	// SchedulerSteps is vLLM V0's multi-step scheduling
	// (--num-scheduler-steps; 0 or 1: off): a decode step starts a window
	// of SchedulerSteps decode steps of the same running sequences, and
	// the scheduler runs again only when the window ends, so a request
	// that arrives during it waits for its end before its prefill
	// (vllm-project/vllm v0.6.0 vllm/engine/llm_engine.py LLMEngine.step:
	// "Skip the scheduler if there are any remaining steps in the seq
	// groups"; SchedulerConfig num_lookahead_slots = num_scheduler_steps
	// - 1 for a decode, vllm/core/scheduler.py _get_num_lookahead_slots
	// returns 0 for a prefill, so a prefill step is a window of one).
	// A sequence that finishes within a window stops computing there.
	SchedulerSteps int
	// OverlapSchedule is SGLang's overlap scheduler (the default from
	// v0.4.0, --disable-overlap-schedule turns it off): the scheduler runs
	// one batch ahead of the GPU, forming batch k+1 while batch k runs,
	// from the requests it has received by the time batch k started
	// (sgl-project/sglang v0.4.0 python/sglang/srt/managers/scheduler.py
	// event_loop_overlap: recv_requests, get_next_batch_to_run and
	// run_batch for the next batch, then process_batch_result of the last
	// one, which waits for the GPU). So a request that arrives while a
	// step runs is admitted not at the step's end but one step later: it
	// waits for the rest of the running step and the whole of the step
	// already formed. An idle server receives it at once (Run). A closed
	// loop's follow-up requests, sent when a request finishes, are not
	// delayed (their client's round trip is not modelled either).
	OverlapSchedule bool
	// ReserveOutput is SGLang's admission reserve and retraction
	// (sgl-project/sglang v0.4.0 python/sglang/srt/managers/
	// schedule_policy.py PrefillAdder, scheduler.py update_running_batch,
	// schedule_batch.py retract_decode; the constants of global_config.py,
	// the same in environ.py since). A waiting request is admitted only
	// while its prompt tokens still to compute plus its output (at most
	// 4,096 tokens, CLIP_MAX_NEW_TOKENS_ESTIMATION) stay below the free
	// tokens less a reserve: each running request's remaining output
	// (clipped alike) times new_token_ratio, and the whole remaining
	// prompt and output of each request admitted in the same step. The
	// ratio starts at 0.7 and falls by (0.7 - 0.098) / 600 with every
	// decode step to 0.7 x 0.14 = 0.098; when a decode step does not fit
	// the pool (fewer free tokens than running requests), the newest
	// requests are retracted (preempted, their KV freed, recomputed on
	// return) until 20 decode steps of the rest fit
	// (retract_decode_steps), and the ratio becomes min(1, (tokens decoded
	// + 20 x requests) / their output tokens). An idle server resets it to
	// 0.7. It takes effect with PrefillFirst, SGLang's order, whose
	// decode steps it checks. False: vLLM's admission
	// (FirstChunkAdmission).
	ReserveOutput bool
}

// SGLang's new_token_ratio schedule and estimation clip (ReserveOutput):
// global_config.py default_init_new_token_ratio,
// default_min_new_token_ratio_factor, default_new_token_ratio_decay_steps
// and retract_decode_steps; schedule_policy.py
// CLIP_MAX_NEW_TOKENS_ESTIMATION.
const (
	sglangInitRatio     = 0.7
	sglangMinRatio      = sglangInitRatio * 0.14
	sglangRatioDecay    = (sglangInitRatio - sglangMinRatio) / 600
	sglangRetractSteps  = 20
	sglangClipNewTokens = 4096
)

// MaxSchedulerSteps bounds Config.SchedulerSteps.
const MaxSchedulerSteps = 1024

// ErrConfig is returned for an unusable Config or Workload.
var ErrConfig = errors.New("sched: invalid configuration")

func (c Config) validate() error {
	if c.NumBlocks < 1 || c.BlockSize < 1 || c.MaxNumSeqs < 1 || c.MaxBatchedTokens < 1 || c.Blocks == nil {
		return ErrConfig
	}
	if c.Prefix.Tokens < 0 || c.Prefix.Prefixes < 0 || c.Spec.Tokens < 0 || c.Spec.Tokens > 64 || c.Offload.Blocks < 0 || c.LockstepRanks < 0 || c.LockstepRanks > 1024 || c.SchedulerSteps < 0 || c.SchedulerSteps > MaxSchedulerSteps ||
		!(c.Spec.Acceptance >= 0 && c.Spec.Acceptance <= 1) {
		return ErrConfig
	}
	return nil
}

// Load is the work of one step, in the terms of the cost model.
type Load struct {
	// DecodeSeqs sequences compute one token each, attending to
	// DecodeContext tokens in total (a token at position p attends p+1).
	DecodeSeqs    int
	DecodeContext int64
	// PrefillTokens prompt (or recomputed) tokens are computed; PrefillSpan
	// is the sum over them of the positions each attends to (a chunk of n
	// tokens starting at a spans n*(a+(n+1)/2)).
	PrefillTokens int
	PrefillSpan   float64
	// PrefillSeqs is the number of prefills that finish this step (each
	// samples a token).
	PrefillSeqs int
	// SpecTokens is the drafted tokens the decodes verify besides their
	// own (speculative decoding; 0 without).
	SpecTokens int
	// ReloadBlocks is the blocks loaded back from the offload tier.
	ReloadBlocks int64
}

// Tokens returns the tokens computed in the step.
func (l Load) Tokens() int { return l.DecodeSeqs + l.PrefillTokens + l.SpecTokens }

// seq is one request's state while it is not running (and its record).
type seq struct {
	arrivalS, firstS, finishS float64
	input, output             int
	generated                 int // output tokens sampled so far
	preemptions               int
	cached                    int32   // prompt tokens the prefix cache served at its first admission
	lastS                     float64 // when its latest output token was sampled, while not running (slot.lastS)
}

// slot is a running sequence's hot state, kept in a compact array that
// stays in cache however many requests the simulation holds.
type slot struct {
	id        int32
	total     int32 // tokens known: input + generated
	generated int32
	output    int32
	computed  int32 // tokens whose KV is in the cache
	scheduled int32 // tokens scheduled in the current step
	spec      int32 // of which drafted tokens to verify
	shared    int32 // blocks of a cached prefix it uses (not in held)
	// heldUpTo is the largest context at which held stays valid for
	// steps of heldN new tokens (0: recount): for a fixed number of new
	// tokens a sequence's block count only changes at block boundaries.
	heldUpTo, heldN int32
	held            int64
	lastS           float64 // when its latest output token was sampled
}

// Scheduled is one sequence's share of a step.
type Scheduled struct {
	ID, Tokens int
}

// Scheduler is vLLM v1's scheduler over a paged KV pool, without the
// clock: Schedule decides one step, Complete applies it. Run drives it
// with a cost model and a workload; tests drive it by hand.
type Scheduler struct {
	cfg       Config
	bs        int
	seqs      []seq
	running   []slot
	waiting   ring
	free      int64
	preempted bool
	// Features: the prefix cache, speculation's draws and its lookahead.
	cache cache
	spec  Speculation
	rng   *Rand
	pow   []float64 // a^1 .. a^k
	la    int32
	// drafted and acceptedN count verified and accepted drafts; tier is
	// the offload tier (nil: none), reloaded the tokens it gave back.
	drafted, acceptedN int64
	tier               *tier
	reloaded           int64

	// Counters. blockEvents counts the calls of cfg.Blocks.BlocksFor
	// (blocksFor), each of which walks every KV-cache group.
	blockEvents      int64
	Preemptions      int
	RecomputedTokens int64
	ProcessedTokens  int64
	peakUsed         int64
	firstPreemptS    float64
	runningAtPreempt int
	nowS             float64
	// window is the decode steps left in the current multi-step window
	// (Config.SchedulerSteps).
	window int
	// itl collects the gaps between consecutive output tokens; lastS is
	// the end of the previous step (Complete's previous nowS).
	itl   gapHist
	lastS float64
	// ratio is SGLang's new_token_ratio (Config.ReserveOutput).
	ratio float64
}

// NewScheduler returns a scheduler for up to capacity requests (ids 0 to
// capacity-1).
func NewScheduler(cfg Config, capacity int) (*Scheduler, error) {
	if err := cfg.validate(); err != nil || capacity < 0 {
		return nil, ErrConfig
	}
	s := &Scheduler{
		cfg: cfg, bs: cfg.BlockSize,
		seqs:          make([]seq, capacity),
		running:       make([]slot, 0, cfg.MaxNumSeqs),
		waiting:       newRing(capacity),
		free:          cfg.NumBlocks,
		firstPreemptS: -1,
		cache:         newCache(cfg, capacity),
		spec:          cfg.Spec,
		tier:          newTier(cfg.Offload, capacity),
		la:            int32(cfg.Spec.Tokens),
		ratio:         sglangInitRatio,
	}
	if s.la > 0 {
		s.rng = NewRand(cfg.Spec.Seed)
		s.pow = make([]float64, s.la)
		p := 1.0
		for i := range s.pow {
			p *= cfg.Spec.Acceptance
			s.pow[i] = p
		}
	}
	return s, nil
}

// Submit appends request id (input prompt tokens, output tokens to
// generate, both >= 1) to the waiting queue at time arrivalS.
func (s *Scheduler) Submit(id int, arrivalS float64, input, output int) {
	s.seqs[id] = seq{arrivalS: arrivalS, input: input, output: output}
	s.waiting.pushBack(int32(id))
}

// FreeBlocks returns the blocks not held by any sequence.
func (s *Scheduler) FreeBlocks() int64 { return s.cfg.NumBlocks - s.UsedBlocks() }

// UsedBlocks returns the blocks held by sequences.
func (s *Scheduler) UsedBlocks() int64 { return s.cfg.NumBlocks - s.free }

// PeakBlocks returns the most blocks held at once so far.
func (s *Scheduler) PeakBlocks() int64 { return s.peakUsed }

// Running returns the running ids in scheduling order (a fresh slice).
func (s *Scheduler) Running() []int {
	out := make([]int, len(s.running))
	for i := range s.running {
		out[i] = int(s.running[i].id)
	}
	return out
}

// Waiting returns the waiting ids, front first (a fresh slice).
func (s *Scheduler) Waiting() []int { return s.waiting.ids() }

// Scheduled returns the step's scheduled sequences in order (a fresh
// slice); valid between Schedule and Complete.
func (s *Scheduler) Scheduled() []Scheduled {
	var out []Scheduled
	for i := range s.running {
		if q := &s.running[i]; q.scheduled > 0 {
			out = append(out, Scheduled{int(q.id), int(q.scheduled)})
		}
	}
	return out
}

// blocksFor is cfg.Blocks.BlocksFor, counted in blockEvents: a call
// walks every KV-cache group (kvcache.Layout.BlocksFor), so a run's CPU
// time grows with BlockEvents times the groups (Result.BlockEvents).
func (s *Scheduler) blocksFor(contextTokens, newTokens int64) int64 {
	s.blockEvents++
	return s.cfg.Blocks.BlocksFor(contextTokens, newTokens)
}

// tryAlloc grows q's blocks for n new tokens (context computed+n); it
// fails, holding what it held, when the pool is short.
func (s *Scheduler) tryAlloc(q *slot, n int32) bool {
	ctx := q.computed + n + s.la
	if n == q.heldN && ctx <= q.heldUpTo {
		return true // same block count as the last step of n tokens
	}
	need := s.blocksFor(int64(ctx), int64(n)) - int64(q.shared)
	d := max(need-q.held, 0)
	if d > s.free {
		return false
	}
	s.free -= d
	if s.cache.on {
		s.evict(d)
	}
	need = max(need, q.held)
	s.peakUsed = max(s.peakUsed, s.cfg.NumBlocks-s.free)
	q.held = need
	bs := int32(s.bs)
	q.heldUpTo, q.heldN = (ctx+bs-1)/bs*bs, n
	return true
}

// release frees all of q's blocks; own keeps its full blocks cached for
// its return (a preemption) when prefix caching is on.
func (s *Scheduler) release(q *slot, own bool) {
	if s.cache.on {
		s.releaseCached(q, own)
		return
	}
	s.free += q.held
	q.held, q.heldUpTo, q.heldN = 0, 0, 0
}

// Schedule decides the next step at time nowS and returns its load (zero
// when there is nothing to run). vLLM v1 semantics
// (vllm/v1/core/sched/scheduler.py schedule()):
//
//  1. Running sequences, in admission order, each take min(tokens not yet
//     computed, remaining budget) tokens: one for a decode, a chunk for a
//     prefill. When the pool cannot grow a sequence, the most recently
//     admitted running sequence is preempted (blocks freed, computed
//     tokens dropped, put at the front of the waiting queue) until the
//     sequence fits or is itself the victim.
//  2. Only if nothing was preempted, waiting sequences are admitted in
//     FCFS order while the budget lasts and fewer than max_num_seqs run:
//     a sequence is admitted if its whole current sequence (prompt plus
//     tokens already generated) fits in the free blocks
//     (scheduler_reserve_full_isl; its first chunk alone under
//     Config.FirstChunkAdmission); it then allocates only for its first
//     chunk. The first one that does not fit stops admission.
//
// Under Config.PrefillFirst (SGLang) a step is a prefill step whenever a
// running prompt has chunks left or a waiting sequence can be admitted:
// the running prompts' chunks and the admissions, as above, with no
// decode; otherwise it is a decode step of the running sequences alone.
//
// Under Config.SchedulerSteps n > 1 a step that only decodes opens a
// window: the next n - 1 steps decode the running sequences alone (those
// still unfinished) and admit nothing, then scheduling resumes.
func (s *Scheduler) Schedule(nowS float64) Load {
	s.nowS = nowS
	s.preempted = false
	if s.window > 0 {
		// Within a multi-step window: its decodes alone, nothing admitted.
		s.window--
		if l := s.step(stepDecode); l.Tokens() > 0 {
			return l
		}
		s.window = 0
	}
	l := s.schedule()
	if s.cfg.SchedulerSteps > 1 && l.PrefillTokens == 0 && l.DecodeSeqs > 0 {
		s.window = s.cfg.SchedulerSteps - 1
	}
	return l
}

// schedule is Schedule's decision outside a multi-step window.
func (s *Scheduler) schedule() Load {
	if !s.cfg.PrefillFirst {
		return s.step(stepMixed)
	}
	if s.prefillPending() {
		// An admission that does not fit leaves nothing behind, so a
		// prefill step that schedules nothing falls through to decode.
		if l := s.step(stepPrefill); l.PrefillTokens > 0 || s.preempted {
			return l
		}
	}
	if s.cfg.ReserveOutput {
		if len(s.running) == 0 {
			s.ratio = sglangInitRatio // idle: SGLang re-inits the ratio
		} else {
			s.retract()
		}
	}
	return s.step(stepDecode)
}

// clipped is a request's output still to generate as SGLang estimates it
// (Config.ReserveOutput): at most CLIP_MAX_NEW_TOKENS_ESTIMATION.
func clipped(output, generated int32) int32 {
	return min(max(output-generated, 0), sglangClipNewTokens)
}

// retract is SGLang's decode-memory check before a decode step
// (Config.ReserveOutput): if the free tokens cannot give each running
// request one more, it retracts the newest until 20 steps of the rest fit
// and re-estimates the ratio from them; otherwise the ratio decays.
func (s *Scheduler) retract() {
	bs := int64(s.bs)
	if s.free*bs >= int64(len(s.running)) {
		s.ratio = max(s.ratio-sglangRatioDecay, sglangMinRatio)
		return
	}
	for len(s.running) > 1 {
		s.preempt()
		if s.free*bs >= int64(sglangRetractSteps*len(s.running)) {
			break
		}
	}
	s.preempted = false // the decode step still runs, as SGLang's does
	var decoded, outputs int64
	for i := range s.running {
		decoded += int64(s.running[i].generated)
		outputs += int64(s.running[i].output)
	}
	if outputs > 0 {
		s.ratio = min(1, float64(decoded+int64(sglangRetractSteps*len(s.running)))/float64(outputs))
	}
}

// outputReserve is the tokens SGLang reserves for the running requests'
// outputs (Config.ReserveOutput): their clipped remaining outputs times
// the ratio.
func (s *Scheduler) outputReserve() float64 {
	var t int64
	for i := range s.running {
		t += int64(clipped(s.running[i].output, s.running[i].generated))
	}
	return float64(t) * s.ratio
}

// stepKind is what a step may schedule: everything (vLLM), or prefills
// alone, or decodes alone (Config.PrefillFirst).
type stepKind uint8

const (
	stepMixed stepKind = iota
	stepPrefill
	stepDecode
)

// prefillPending reports whether a prefill step could have work: a running
// prompt with chunks left, or a waiting sequence and a free seat.
func (s *Scheduler) prefillPending() bool {
	if s.waiting.len() > 0 && len(s.running) < s.cfg.MaxNumSeqs {
		return true
	}
	for i := range s.running {
		if !s.running[i].decoding() {
			return true
		}
	}
	return false
}

// decoding reports whether q's next step computes one token after its
// prompt: a decode (with its drafts), not a prompt chunk.
func (q *slot) decoding() bool { return q.generated > 0 && q.total-q.computed == 1 }

// step schedules one step of the given kind (see Schedule).
func (s *Scheduler) step(kind stepKind) Load {
	budget := int32(s.cfg.MaxBatchedTokens)
	var l Load
	for i := 0; i < len(s.running) && budget > 0; i++ {
		q := &s.running[i]
		if kind != stepMixed && q.decoding() != (kind == stepDecode) {
			continue // a decode in a prefill step, or a prompt chunk in a decode step
		}
		n := min(q.total-q.computed, budget)
		spec := int32(0)
		if s.la > 0 && n == 1 && q.generated > 0 {
			spec = min(s.la, budget-1, q.output-q.generated-1)
			n += spec
		}
		if !(n == q.heldN && q.computed+n+s.la <= q.heldUpTo) && !s.tryAlloc(q, n) {
			// Preempt the newest until q fits or is itself the victim.
			for s.preempt() != i && !s.tryAlloc(q, n) {
			}
			if i >= len(s.running) {
				break
			}
		}
		q.scheduled, q.spec = n, spec
		budget -= n
		s.account(&l, q, n)
	}
	if s.preempted || kind == stepDecode {
		return l
	}
	reserve := -1.0 // SGLang's reserve, in tokens (Config.ReserveOutput)
	if s.cfg.ReserveOutput && s.waiting.len() > 0 {
		reserve = s.outputReserve()
	}
	for s.waiting.len() > 0 && budget > 0 && len(s.running) < s.cfg.MaxNumSeqs {
		id := s.waiting.front()
		r := &s.seqs[id]
		total := int32(r.input + r.generated)
		q := slot{id: id, total: total, generated: int32(r.generated), output: int32(r.output), lastS: r.lastS}
		bs := int32(s.bs)
		var re int32 // positions reloaded from the offload tier
		if s.tier != nil && r.preemptions > 0 {
			re = s.tier.reload(id, total, 0, bs)
		}
		n := min(total-re*bs, budget)
		if s.cache.on {
			a := s.planAdmission(id, total)
			if s.tier != nil && r.preemptions > 0 {
				re = s.tier.reload(id, total, a.hit+a.ownHt, bs)
			}
			n = min(total-(a.hit+a.ownHt+re)*bs, budget)
			g := int64(s.cache.cfg.SharedGroups)
			ctx := s.admitContext(total, (a.hit+a.ownHt+re)*bs, n)
			need := s.blocksFor(int64(ctx+s.la), int64(n)) - int64(a.after)*g - int64(a.ownHt)*g + a.fresh
			if need > s.free-a.touch || s.reserveRefuses(reserve, total-(a.hit+a.ownHt+re)*bs, clipped(q.output, q.generated)) {
				break
			}
			s.admitTake(id, a, &q)
			q.computed += re * bs
			if !s.tryAlloc(&q, n) {
				return l // cannot happen: the check above covers the first chunk
			}
		} else {
			q.computed = re * bs
			if s.reserveRefuses(reserve, total-re*bs, clipped(q.output, q.generated)) || s.blocksFor(int64(s.admitContext(total, re*bs, n)+s.la), int64(n)) > s.free || !s.tryAlloc(&q, n) {
				break
			}
		}
		if s.tier != nil && r.preemptions > 0 {
			s.tier.drop(id)
			l.ReloadBlocks += int64(re) * s.tier.g
			s.RecomputedTokens -= int64(re * bs)
			s.reloaded += int64(re * bs)
		}
		if reserve >= 0 {
			// Admitted: its prompt beyond this chunk and its whole
			// clipped output are reserved for the rest of the step.
			reserve += float64(q.total-q.computed-n) + float64(clipped(q.output, q.generated))
		}
		s.waiting.popFront()
		q.scheduled = n
		s.running = append(s.running, q)
		budget -= n
		s.account(&l, &q, n)
	}
	return l
}

// reserveRefuses reports whether SGLang's admission reserve
// (Config.ReserveOutput; reserve < 0: off) refuses a waiting request
// with toCompute prompt tokens to compute and out (clipped) output tokens
// to come: PrefillAdder.add_one_req's total_tokens >= rem_total_tokens.
func (s *Scheduler) reserveRefuses(reserve float64, toCompute, out int32) bool {
	return reserve >= 0 && float64(toCompute+out) >= float64(s.free*int64(s.bs))-reserve
}

// admitContext is the context, in tokens, a waiting sequence of total
// tokens must fit to be admitted with a first chunk of n after done tokens
// it already holds (cached or reloaded): all of it, or done + n under
// FirstChunkAdmission.
func (s *Scheduler) admitContext(total, done, n int32) int32 {
	if s.cfg.FirstChunkAdmission {
		return min(total, done+n)
	}
	return total
}

// account adds q's n scheduled tokens to the load.
func (s *Scheduler) account(l *Load, q *slot, n int32) {
	c := q.computed
	s.ProcessedTokens += int64(n)
	if n-q.spec == 1 && q.generated > 0 && c == q.total-1 {
		l.DecodeSeqs++
		l.DecodeContext += int64(c + 1)
		l.SpecTokens += int(q.spec)
		return
	}
	l.PrefillTokens += int(n)
	l.PrefillSpan += float64(n) * (float64(c) + float64(n+1)/2)
	if c+n == q.total {
		l.PrefillSeqs++
	}
}

// preempt evicts the newest running sequence (the last of the list) and
// returns its former index.
func (s *Scheduler) preempt() int {
	last := len(s.running) - 1
	q := &s.running[last]
	if s.Preemptions == 0 {
		s.firstPreemptS = s.nowS
		s.runningAtPreempt = len(s.running)
	}
	s.RecomputedTokens += int64(q.computed)
	if s.tier != nil {
		s.tier.store(q.id, q.computed, int32(s.bs))
	}
	s.release(q, true)
	r := &s.seqs[q.id]
	r.generated, r.lastS = int(q.generated), q.lastS
	r.preemptions++
	s.Preemptions++
	s.preempted = true
	s.waiting.pushFront(q.id)
	s.running = s.running[:last]
	return last
}

// Complete ends the step at time nowS: scheduled tokens become computed,
// each sequence whose every token is computed samples one output token,
// and sequences with all their output tokens finish and free their
// blocks. It calls done(id) for each finished request, in running order.
func (s *Scheduler) Complete(nowS float64, done func(id int)) {
	w := 0
	var steady int64 // tokens whose previous token ended the previous step
	for i := range s.running {
		q := &s.running[i]
		if q.scheduled > 0 {
			spec := q.spec
			q.computed += q.scheduled - spec
			q.scheduled, q.spec = 0, 0
			if q.computed == q.total {
				gen := int32(1)
				if spec > 0 {
					j := s.accepted(spec)
					s.drafted += int64(spec)
					s.acceptedN += int64(j)
					gen += j
					q.computed += j
				}
				switch {
				case q.generated == 0:
					s.seqs[q.id].firstS = nowS
				case q.lastS == s.lastS:
					steady++
				default:
					s.itl.add(nowS-q.lastS, 1) // after a stall or a preemption
				}
				q.lastS = nowS
				q.generated += gen
				q.total += gen
				if q.generated >= q.output {
					r := &s.seqs[q.id]
					r.generated, r.finishS = int(q.generated), nowS
					s.release(q, s.cache.keep != nil && s.cache.keep[q.id])
					if done != nil {
						done(int(q.id))
					}
					continue
				}
			}
		}
		if w != i {
			s.running[w] = *q
		}
		w++
	}
	s.running = s.running[:w]
	s.itl.add(nowS-s.lastS, steady)
	s.lastS = nowS
}

// ITL summarises the gaps between consecutive output tokens of every
// request so far (gapHist), in seconds.
func (s *Scheduler) ITL() Summary { return s.itl.summary() }
