package sched

// Serving features the scheduler models beside plain paged attention
// (docs/MODEL.md section 10). Both are off in a zero Config.

// PrefixCache is vLLM v1's automatic prefix caching
// (vllm/v1/core/kv_cache_manager.py get_computed_blocks,
// vllm/v1/core/block_pool.py, vLLM 0.19): a full block is known by the
// hash of its tokens and of every block before it, only full blocks are
// hashed, and a request's longest run of cached blocks from its start is
// reused, up to num_tokens - 1 tokens (the last prompt token is always
// computed, for its logits). Freed blocks keep their hash in the free
// queue and are evicted least recently freed first (the queue's head);
// a request frees its blocks tail first, so a prefix loses its last
// blocks first.
type PrefixCache struct {
	// Enabled keeps freed blocks cached: a preempted request that resumes
	// hits the full blocks of its own that survived eviction.
	Enabled bool
	// Tokens is the shared prefix (a system prompt) at the start of every
	// request's prompt, in tokens (0: none); Prefixes distinct ones, request
	// i using prefix i mod Prefixes (at least 1). A request whose prompt
	// is not longer than the prefix does not use it (a system prompt is
	// part of every prompt).
	Tokens, Prefixes int
	// SharedGroups is the number of the layout's groups whose blocks a
	// prefix shares (full-attention and latent groups); sliding-window and
	// state groups keep their own blocks.
	SharedGroups int
}

// Speculation is speculative decoding: each decode step verifies the
// sequence's next token plus Tokens drafted ones (vLLM's
// num_speculative_tokens; the target scores all k+1 positions at once),
// and accepts each draft with probability Acceptance, independently, until
// the first rejection (Leviathan et al. 2023, "Fast Inference from
// Transformers via Speculative Decoding", section 3.1), then adds one
// token of its own. Drafted tokens count against the step's token budget
// and need KV slots (vllm/v1/core/sched/scheduler.py: spec tokens are
// scheduled tokens; allocate_slots reserves num_lookahead_tokens).
type Speculation struct {
	Tokens     int
	Acceptance float64
	// Seed drives the acceptance draws.
	Seed uint64
}

// segment is a run of free blocks in the free queue, owned by a prefix
// (owner in [0, prefixes)), by a preempted request's own cached blocks
// (prefixes + request id), or by nobody (-1: blocks whose hash no request
// will look up again).
type segment struct {
	owner int32
	n     int64
}

// freeQueue is vLLM's free block queue at the granularity of segments:
// blocks are taken from the head (evicting whatever they cached) and
// freed to the tail. Segments are addressed by their absolute position
// (a counter), so an owner can be found and taken out of the middle.
type freeQueue struct {
	buf        []segment
	head, tail int64 // absolute positions; live segments are [head, tail)
}

func (f *freeQueue) at(i int64) *segment { return &f.buf[i&int64(len(f.buf)-1)] }

func (f *freeQueue) push(owner int32, n int64) int64 {
	if n <= 0 {
		return -1
	}
	if f.tail-f.head == int64(len(f.buf)) {
		nb := make([]segment, 2*len(f.buf))
		for i := f.head; i < f.tail; i++ {
			nb[i&int64(len(nb)-1)] = *f.at(i)
		}
		f.buf = nb
	}
	*f.at(f.tail) = segment{owner, n}
	f.tail++
	return f.tail - 1
}

// cache is the prefix-cache state of a scheduler.
type cache struct {
	on       bool
	cfg      PrefixCache
	q        freeQueue
	prefixBk int32   // whole blocks of the shared prefix (per group)
	res      []int32 // per prefix: blocks resident (per group), from the start
	ref      []int32 // per prefix: running sequences using it
	seg      []int64 // per prefix: its segment in the free queue (-1: none)
	ownSeg   []int64 // per owner: its own cached blocks' segment (-1: none)
	// owner maps a request to the owner of its own cached blocks (nil:
	// itself): a session's turns share their conversation's blocks, owned
	// by its first turn (sessions.go); keep says a finished request keeps
	// its full blocks for its session's next turn.
	owner []int32
	keep  []bool
	// hitTokens counts prompt tokens served from the cache; resumeHits
	// those of preempted requests, whose recomputation they spare.
	hitTokens, resumeHits int64
}

func newCache(cfg Config, capacity int) cache {
	p := cfg.Prefix
	if !p.Enabled {
		return cache{}
	}
	c := cache{on: true, cfg: p}
	c.cfg.SharedGroups = max(p.SharedGroups, 1)
	// Request i uses prefix i mod Prefixes, so beyond capacity (the
	// request ids) prefixes are never used: i mod capacity is then i as
	// well, and the per-prefix arrays stay within the run's size whatever
	// workload.num_prefixes asks (issue 35: 1,048,576 prefixes over a
	// 32-point sweep allocated 535 MB).
	c.cfg.Prefixes = max(min(p.Prefixes, capacity), 1)
	if p.Tokens > 0 {
		c.prefixBk = int32(p.Tokens / cfg.BlockSize)
	}
	c.res = make([]int32, c.cfg.Prefixes)
	c.ref = make([]int32, c.cfg.Prefixes)
	c.seg = make([]int64, c.cfg.Prefixes)
	c.ownSeg = make([]int64, capacity)
	for i := range c.seg {
		c.seg[i] = -1
	}
	for i := range c.ownSeg {
		c.ownSeg[i] = -1
	}
	c.q.buf = make([]segment, 64)
	c.q.push(-1, cfg.NumBlocks)
	return c
}

// evict takes n blocks from the head of the free queue, dropping what
// they cached.
func (s *Scheduler) evict(n int64) {
	c := &s.cache
	g := int64(c.cfg.SharedGroups)
	for n > 0 && c.q.head < c.q.tail {
		sg := c.q.at(c.q.head)
		take := min(sg.n, n)
		sg.n -= take
		n -= take
		switch o := sg.owner; {
		case o < 0:
		case int(o) < len(c.res):
			c.res[o] = int32(sg.n / g)
		}
		if sg.n == 0 {
			if o := sg.owner; o >= 0 && int(o) < len(c.res) {
				c.seg[o] = -1
			} else if o >= 0 {
				c.ownSeg[int(o)-len(c.res)] = -1
			}
			c.q.head++
		}
	}
}

// take removes the segment at i from the free queue (its blocks are in
// use again) and returns its blocks.
func (s *Scheduler) take(i int64) int64 {
	if i < 0 {
		return 0
	}
	sg := s.cache.q.at(i)
	n := sg.n
	sg.n, sg.owner = 0, -1
	s.free -= n
	return n
}

// ownResident is the full blocks (per shared group) of request id's own
// cached segment.
func (s *Scheduler) ownResident(id int32) int32 {
	i := s.cache.ownSeg[s.cache.own(id)]
	if i < 0 {
		return 0
	}
	return int32(s.cache.q.at(i).n / int64(s.cache.cfg.SharedGroups))
}

// own is the owner of request id's own cached blocks: itself, or its
// session's first turn.
func (c *cache) own(id int32) int32 {
	if c.owner == nil {
		return id
	}
	return c.owner[id]
}

// admission is what a waiting request reuses from the cache: its prefix,
// that prefix's resident blocks before and after it computes its share,
// the blocks it hits (per group) of the prefix and of its own, the blocks
// that leave the free queue (touch) and the new prefix blocks (fresh).
type admission struct {
	prefix                 int32
	res, after, hit, ownHt int32
	touch, fresh           int64 // blocks leaving the free queue; new prefix blocks
}

// planAdmission works out a's figures for request id whose current
// sequence is total tokens; it changes nothing (admitTake applies it).
func (s *Scheduler) planAdmission(id int32, total int32) admission {
	c := &s.cache
	g := int64(c.cfg.SharedGroups)
	a := admission{prefix: -1}
	limit := (total - 1) / s.bs32()
	full := true
	if c.prefixBk > 0 && s.seqs[id].input > c.cfg.Tokens {
		// Every user of a prefix holds all its whole blocks: its prompt is
		// longer than the prefix, so (total-1)/bs >= prefixBk.
		p := id % int32(c.cfg.Prefixes)
		a.prefix = p
		a.res = c.res[p]
		a.hit = a.res
		a.after = c.prefixBk
		full = a.hit == c.prefixBk
		if c.ref[p] == 0 && c.seg[p] >= 0 {
			a.touch += c.q.at(c.seg[p]).n
		}
		a.fresh = int64(a.after-a.res) * g
	}
	if full {
		a.ownHt = min(s.ownResident(id), limit-a.hit)
	}
	a.touch += int64(a.ownHt) * g
	return a
}

func (s *Scheduler) bs32() int32 { return int32(s.bs) }

// admitTake applies a: the reused blocks leave the free queue, the new
// prefix blocks are allocated, and q starts after the cached tokens.
func (s *Scheduler) admitTake(id int32, a admission, q *slot) {
	c := &s.cache
	g := int64(c.cfg.SharedGroups)
	bs := int32(s.bs)
	if p := a.prefix; p >= 0 {
		if c.ref[p] == 0 {
			s.take(c.seg[p])
			c.seg[p] = -1
		}
		c.ref[p]++
		s.free -= a.fresh
		s.evict(a.fresh)
		c.res[p] = a.after
		q.shared = int32(int64(a.after) * g)
	}
	if i := c.ownSeg[c.own(id)]; i >= 0 {
		if a.ownHt > 0 {
			sg := c.q.at(i)
			use := int64(a.ownHt) * g
			sg.n -= use
			s.free -= use
			sg.owner = -1 // what is left will not be looked up again
			q.held = use
		} else {
			c.q.at(i).owner = -1
		}
		c.ownSeg[c.own(id)] = -1
	}
	q.computed = (a.hit + a.ownHt) * bs
	c.hitTokens += int64(q.computed)
	if s.seqs[id].preemptions == 0 {
		s.seqs[id].cached = q.computed
	} else {
		s.RecomputedTokens -= int64(q.computed)
		c.resumeHits += int64(q.computed)
	}
}

// releaseCached frees q's blocks to the free queue, tail first: the
// partial and uncacheable blocks, then (own) its full blocks beyond the
// prefix, kept for its own return when it was preempted, then the
// prefix's blocks when no running sequence uses them any more.
func (s *Scheduler) releaseCached(q *slot, own bool) {
	c := &s.cache
	g := int64(c.cfg.SharedGroups)
	var ownN int64
	if own {
		fullBk := int64(q.computed/int32(s.bs)) - int64(q.shared)/g
		ownN = min(max(fullBk, 0)*g, q.held)
	}
	c.q.push(-1, q.held-ownN)
	if ownN > 0 {
		o := c.own(q.id)
		c.ownSeg[o] = c.q.push(int32(len(c.res))+o, ownN)
	}
	s.free += q.held
	if q.shared > 0 {
		p := q.id % int32(c.cfg.Prefixes)
		c.ref[p]--
		if c.ref[p] == 0 {
			n := int64(c.res[p]) * g
			c.seg[p] = c.q.push(p, n)
			s.free += n
		}
	}
	q.held, q.heldUpTo, q.heldN, q.shared = 0, 0, 0, 0
}

// accepted draws how many of k drafted tokens the target accepts: each
// with probability a until the first rejection, so P(j >= m) = a^m. One
// uniform u gives j = #{m <= k : u < a^m} (the powers are tabled).
func (s *Scheduler) accepted(k int32) int32 {
	u := s.rng.Float64()
	var j int32
	for j < k && u < s.pow[j] {
		j++
	}
	return j
}

// Offload is a CPU tier for the KV cache (vLLM's offloading connector,
// PR #29870: a preempted request's blocks, copied to host memory as they
// fill, are loaded back when it returns instead of recomputed). The tier
// keeps the full blocks of preempted requests, least recently stored
// evicted first; a returning request reloads those of its own still
// there, from its first token on, past what the GPU cache already gives
// it. Load.ReloadBlocks says how many a step loads (its cost is the cost
// function's).
type Offload struct {
	// Blocks is the tier's size in blocks; Groups the blocks one
	// position of a sequence holds there (the full-attention groups).
	Blocks int64
	Groups int
}

// tier is the offload tier's state.
type tier struct {
	cap, used int64
	g         int64
	q         []tierEntry
	head      int
	held      []int64 // per request: blocks in the tier
}

type tierEntry struct {
	id int32
	n  int64
}

func newTier(o Offload, capacity int) *tier {
	if o.Blocks <= 0 {
		return nil
	}
	return &tier{cap: o.Blocks, g: int64(max(o.Groups, 1)), held: make([]int64, capacity)}
}

// store keeps the first full blocks of request id, computed tokens long,
// evicting the oldest entries to make room.
func (t *tier) store(id int32, computed, bs int32) {
	n := min(int64(computed/bs)*t.g, t.cap/t.g*t.g)
	t.drop(id)
	if n <= 0 {
		return
	}
	for t.used+n > t.cap && t.head < len(t.q) {
		e := &t.q[t.head]
		if t.held[e.id] == e.n {
			t.used -= e.n
			t.held[e.id] = 0
		}
		t.head++
	}
	if t.head > 1024 && t.head*2 > len(t.q) {
		t.q = append(t.q[:0], t.q[t.head:]...)
		t.head = 0
	}
	t.q = append(t.q, tierEntry{id, n})
	t.held[id] = n
	t.used += n
}

// drop forgets request id's blocks (its queue entry goes stale).
func (t *tier) drop(id int32) {
	t.used -= t.held[id]
	t.held[id] = 0
}

// reload returns the positions (blocks per group) request id can load
// back beyond the first `have` it already has, when its current sequence
// is total tokens (at most (total-1)/bs positions are ever reused).
func (t *tier) reload(id, total, have, bs int32) int32 {
	if t == nil {
		return 0
	}
	pos := int32(t.held[id] / t.g)
	return max(min(pos, (total-1)/bs)-have, 0)
}
