package sched

import "slices"

// meter collects per-request latencies and the downsampled timeline.
type meter struct {
	o               Options
	ttft, tpot, e2e []float64
	in, out         int64
	preempted, met  int
	// Time-weighted sums over all steps.
	total, running, waiting, kv float64
	// Timeline: buckets of `stride` steps, merged pairwise when the
	// buffer holds 2*limit points.
	pts    []Point
	limit  int
	stride int
	cur    Point
	inCur  int
}

func newMeter(n int, o Options) *meter {
	m := &meter{
		o:    o,
		ttft: make([]float64, 0, n), tpot: make([]float64, 0, n), e2e: make([]float64, 0, n),
		limit: o.TimelinePoints, stride: 1,
	}
	if m.limit > 0 {
		m.pts = make([]Point, 0, 2*m.limit)
	}
	return m
}

// finish records a completed request and returns its TTFT and TPOT.
func (m *meter) finish(q *seq) (ttft, tpot float64) {
	fe := m.o.FrontEndS + float64(q.input)*m.o.FrontEndPerTokenS
	ttft = q.firstS - q.arrivalS + fe
	e2e := q.finishS - q.arrivalS + fe
	m.ttft = append(m.ttft, ttft)
	m.e2e = append(m.e2e, e2e)
	if q.output > 1 {
		tpot = (q.finishS - q.firstS) / float64(q.output-1)
		m.tpot = append(m.tpot, tpot)
	}
	m.in += int64(q.input)
	m.out += int64(q.generated)
	if q.preemptions > 0 {
		m.preempted++
	}
	if (m.o.TTFTS <= 0 || ttft <= m.o.TTFTS) && (m.o.TPOTS <= 0 || tpot <= m.o.TPOTS) {
		m.met++
	}
	return ttft, tpot
}

// step records one step of dt seconds starting at t.
func (m *meter) step(t, dt, running, waiting, kv float64) {
	m.total += dt
	m.running += running * dt
	m.waiting += waiting * dt
	m.kv += kv * dt
	if m.limit <= 0 {
		return
	}
	if m.inCur == 0 {
		m.cur = Point{TimeS: t}
	}
	m.cur.DurationS += dt
	m.cur.Running += running * dt
	m.cur.Waiting += waiting * dt
	m.cur.KVUsage += kv * dt
	m.inCur++
	if m.inCur == m.stride {
		m.flush()
	}
}

// flush closes the current bucket (sums still weighted by time).
func (m *meter) flush() {
	if m.inCur == 0 {
		return
	}
	m.pts = append(m.pts, m.cur)
	m.inCur = 0
	if len(m.pts) == 2*m.limit {
		m.halve()
		m.stride *= 2
	}
}

// halve merges adjacent points pairwise.
func (m *meter) halve() {
	k := 0
	for i := 0; i < len(m.pts); i += 2 {
		p := m.pts[i]
		if i+1 < len(m.pts) {
			q := m.pts[i+1]
			p.DurationS += q.DurationS
			p.Running += q.Running
			p.Waiting += q.Waiting
			p.KVUsage += q.KVUsage
		}
		m.pts[k] = p
		k++
	}
	m.pts = m.pts[:k]
}

func (m *meter) result(r *Result) {
	r.Completed = len(m.e2e)
	r.InputTokens, r.OutputTokens = m.in, m.out
	r.PreemptedRequests, r.SLOMet = m.preempted, m.met
	r.TTFT, r.TPOT, r.E2E = summarize(m.ttft), summarize(m.tpot), summarize(m.e2e)
	if m.total > 0 {
		r.MeanRunning, r.MeanWaiting, r.MeanKVUsage = m.running/m.total, m.waiting/m.total, m.kv/m.total
	}
	if m.limit <= 0 {
		return
	}
	m.flush()
	if len(m.pts) > m.limit {
		m.halve()
	}
	for i := range m.pts {
		p := &m.pts[i]
		if p.DurationS > 0 {
			p.Running /= p.DurationS
			p.Waiting /= p.DurationS
			p.KVUsage /= p.DurationS
		}
	}
	r.Timeline = m.pts
}

// summarize sorts xs in place and returns its mean and percentiles.
func summarize(xs []float64) Summary {
	if len(xs) == 0 {
		return Summary{}
	}
	slices.Sort(xs)
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return Summary{
		Mean: sum / float64(len(xs)),
		P50:  percentile(xs, 50), P90: percentile(xs, 90), P99: percentile(xs, 99),
		Max: xs[len(xs)-1],
	}
}

// percentile returns the p-th percentile of sorted xs (non-empty),
// interpolating linearly between ranks floor(h) and ceil(h) with
// h = (len-1)*p/100.
func percentile(xs []float64, p float64) float64 {
	h := float64(len(xs)-1) * p / 100
	i := int(h)
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	f := h - float64(i)
	return xs[i] + f*(xs[i+1]-xs[i])
}
