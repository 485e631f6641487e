// Package fleet simulates a fleet of identical serving replicas over a
// day of traffic, autoscaled or static, at the level of time slices: a
// fluid queue per slice fed by the slice's arrivals and drained at the
// replicas' capacity, each slice's latency read from one replica's steady
// state at the slice's utilisation (docs/MODEL.md section 14). It is the
// coarse model that lets a day of millions of requests run in well under
// a second; the iteration-level simulator (package sched) confirms a
// replica's figures on a window.
package fleet

import "math"

// Replica is one replica's serving figures: its capacity and a table of
// its steady-state latencies against utilisation (calc/deploy's Steady at
// a request rate of rho x CapacityPerS, docs/MODEL.md section 5b).
type Replica struct {
	// CapacityPerS is the requests per second one replica completes at
	// saturation.
	CapacityPerS float64
	// Table is the latencies at utilisations from 0 to 1, ascending in
	// Rho (at least one point); between points they are interpolated
	// linearly, beyond the last the last holds.
	Table []Point
}

// Point is one replica's mean latencies at utilisation Rho, in seconds.
type Point struct {
	Rho, TTFTS, TPOTS, E2ES float64
}

// At interpolates the table at rho.
func (r *Replica) At(rho float64) Point {
	t := r.Table
	if rho <= t[0].Rho {
		return t[0]
	}
	for i := 1; i < len(t); i++ {
		if rho <= t[i].Rho {
			a, b := t[i-1], t[i]
			f := (rho - a.Rho) / (b.Rho - a.Rho)
			lerp := func(x, y float64) float64 { return x + (y-x)*f }
			return Point{rho, lerp(a.TTFTS, b.TTFTS), lerp(a.TPOTS, b.TPOTS), lerp(a.E2ES, b.E2ES)}
		}
	}
	return t[len(t)-1]
}

// The autoscaler's metrics.
const (
	// Utilization scales on the demand over the ready replicas' capacity:
	// (arrival rate + backlog / interval) / (ready x capacity).
	Utilization = "utilization"
	// Queue scales on the requests in flight per replica (running and
	// waiting): Little's law's arrival rate x E2E, plus the backlog.
	Queue = "queue"
)

// Policy is an autoscaler, after Kubernetes' Horizontal Pod Autoscaler
// (kubernetes.io/docs/tasks/run-application/horizontal-pod-autoscale,
// "Algorithm details"): every IntervalS it computes
//
//	desired = ceil(current x metric / Target)
//
// (current the ready replicas), keeps the current count when
// |metric / Target - 1| <= Tolerance, clamps to [Min, Max], and scales up
// at once but down only to the largest recommendation of the last
// ScaleDownDelayS (the HPA's scale-down stabilisation window). A replica
// started serves ColdStartS later (loading the weights); it is paid from
// its start. Scaling down removes replicas still starting first.
type Policy struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	Metric                                 string
	Target, Tolerance                      float64
	Min, Max                               int
	ColdStartS, ScaleDownDelayS, IntervalS float64
}

// Options is what a run measures.
type Options struct {
	// SliceS is the fluid model's time step, in seconds.
	SliceS float64
	// TTFTS and TPOTS are the SLO (0: no bound): a slice's requests meet
	// it when the slice's mean TTFT (the replica's at the slice's
	// utilisation, plus the wait for the backlog ahead) and TPOT do.
	TTFTS, TPOTS float64
	// USDPerReplicaHour prices a replica-hour.
	USDPerReplicaHour float64
	// Bins is the chart's intervals (at most; each a whole number of
	// slices).
	Bins int
	// Static is the static fleet's replicas, run beside the autoscaled one.
	Static int
}

// Fleet is one fleet's outcome over the run.
type Fleet struct {
	ReplicaHours, CostUSD    float64
	Requests, Served, Good   float64
	Attainment, GoodputPerS  float64
	PeakReplicas, MaxBacklog float64
	Hours                    []Hour
	WorstHour                int // index into Hours (-1: no requests)
}

// Hour is one hour's (or the last, partial, hour's) outcome.
type Hour struct {
	StartS, Requests, Good, Attainment, GoodputPerS, MeanReplicas, ReplicaHours float64
}

// Bin is one chart interval: the arrival rate, and each fleet's mean
// ready and provisioned replicas, attainment and mean TTFT.
type Bin struct {
	StartS, DurationS, RatePerS              float64
	Replicas, Provisioned, Attainment, TTFTS float64
	StaticAttainment, StaticTTFTS            float64
}

// Result is an autoscaled and a static fleet under the same arrivals.
type Result struct {
	Autoscaled, Static Fleet
	Bins               []Bin
	// ScaleUps and ScaleDowns count the autoscaler's decisions that
	// started or removed replicas.
	ScaleUps, ScaleDowns int
}

// state is one fleet's running state.
type state struct {
	ready    int
	starting []float64 // ready times, ascending
	backlog  float64
	recs     []rec
	f        Fleet
	hour     Hour
	// the current bin's sums
	binReady, binProv, binGood, binTTFT, binReq float64
}

type rec struct {
	t float64
	n int
}

// Run runs both fleets over counts, the arrivals in each slice of
// o.SliceS seconds. The autoscaled fleet starts at pol.Min replicas,
// ready.
func Run(counts []float64, rep Replica, pol Policy, o Options) Result {
	var res Result
	dt := o.SliceS
	auto := &state{ready: pol.Min}
	static := &state{ready: o.Static}
	perInterval := max(int(math.Round(pol.IntervalS/dt)), 1)
	perHour := max(int(math.Round(3600/dt)), 1)
	perBin := max((len(counts)+max(o.Bins, 1)-1)/max(o.Bins, 1), 1)
	var lastReq float64 // arrivals over the last interval
	for k, a := range counts {
		t := float64(k) * dt
		for len(auto.starting) > 0 && auto.starting[0] <= t+1e-9 {
			auto.starting = auto.starting[1:]
			auto.ready++
		}
		if k > 0 && k%perInterval == 0 {
			up, down := auto.decide(t, lastReq/(float64(perInterval)*dt), rep, pol)
			if up {
				res.ScaleUps++
			}
			if down {
				res.ScaleDowns++
			}
			lastReq = 0
		}
		lastReq += a
		auto.slice(a, dt, rep, o)
		static.slice(a, dt, rep, o)
		if (k+1)%perHour == 0 || k == len(counts)-1 {
			auto.closeHour(float64(k+1-(k%perHour+1))*dt, float64(k%perHour+1)*dt)
			static.closeHour(float64(k+1-(k%perHour+1))*dt, float64(k%perHour+1)*dt)
		}
		if (k+1)%perBin == 0 || k == len(counts)-1 {
			n := float64(k%perBin + 1)
			b := Bin{StartS: float64(k+1)*dt - n*dt, DurationS: n * dt}
			b.RatePerS = auto.binReq / b.DurationS
			b.Replicas, b.Provisioned = auto.binReady/n, auto.binProv/n
			b.Attainment, b.TTFTS = ratio(auto.binGood, auto.binReq), ratio(auto.binTTFT, auto.binReq)
			b.StaticAttainment, b.StaticTTFTS = ratio(static.binGood, static.binReq), ratio(static.binTTFT, static.binReq)
			if auto.binReq == 0 {
				b.Attainment, b.StaticAttainment = 1, 1
			}
			res.Bins = append(res.Bins, b)
			auto.binReady, auto.binProv, auto.binGood, auto.binTTFT, auto.binReq = 0, 0, 0, 0, 0
			static.binReady, static.binProv, static.binGood, static.binTTFT, static.binReq = 0, 0, 0, 0, 0
		}
	}
	dur := float64(len(counts)) * dt
	for _, s := range []*state{auto, static} {
		s.f.CostUSD = s.f.ReplicaHours * o.USDPerReplicaHour
		s.f.Attainment, s.f.GoodputPerS = ratio(s.f.Good, s.f.Requests), ratio(s.f.Good, dur)
		if s.f.Requests == 0 {
			s.f.Attainment = 1 // nothing arrived, nothing missed
		}
		s.f.WorstHour = -1
		for i, h := range s.f.Hours {
			if h.Requests > 0 && (s.f.WorstHour < 0 || h.Attainment < s.f.Hours[s.f.WorstHour].Attainment) {
				s.f.WorstHour = i
			}
		}
	}
	res.Autoscaled, res.Static = auto.f, static.f
	return res
}

// decide runs the autoscaler at t on the last interval's arrival rate
// (requests per second); it reports whether it scaled up or down.
func (s *state) decide(t, rate float64, rep Replica, pol Policy) (up, down bool) {
	cur := s.ready
	var metric float64
	switch pol.Metric {
	case Queue:
		// In flight per ready replica: Little's law at the replicas'
		// utilisation, plus the backlog.
		rho := math.Min(ratio(rate, float64(max(cur, 1))*rep.CapacityPerS), 1)
		metric = (rate*rep.At(rho).E2ES + s.backlog) / float64(max(cur, 1))
	default:
		// The demand over the ready replicas' capacity: the arrival rate
		// and the backlog drained within one interval.
		metric = (rate + s.backlog/pol.IntervalS) / (float64(max(cur, 1)) * rep.CapacityPerS)
	}
	want := cur
	if math.Abs(metric/pol.Target-1) > pol.Tolerance {
		want = int(math.Ceil(float64(max(cur, 1))*metric/pol.Target - 1e-9))
	}
	want = min(max(want, pol.Min), pol.Max)
	// The scale-down stabilisation: the largest recommendation within
	// the window (this one included).
	s.recs = append(s.recs, rec{t, want})
	i := 0
	for i < len(s.recs) && s.recs[i].t < t-pol.ScaleDownDelayS-1e-9 {
		i++
	}
	s.recs = s.recs[i:]
	eff := want
	for _, r := range s.recs {
		eff = max(eff, r.n)
	}
	prov := s.ready + len(s.starting)
	switch {
	case want > prov:
		for range want - prov {
			s.starting = append(s.starting, t+pol.ColdStartS)
		}
		return true, false
	case eff < prov:
		drop := prov - eff
		k := min(drop, len(s.starting))
		s.starting = s.starting[:len(s.starting)-k]
		s.ready -= drop - k
		return false, true
	}
	return false, false
}

// slice serves a slice of dt seconds with a arrivals.
func (s *state) slice(a, dt float64, rep Replica, o Options) {
	n := float64(s.ready)
	c := n * rep.CapacityPerS * dt
	total := s.backlog + a
	served := math.Min(total, c)
	s.backlog = total - served
	s.f.MaxBacklog = math.Max(s.f.MaxBacklog, s.backlog)
	prov := n + float64(len(s.starting))
	s.f.PeakReplicas = math.Max(s.f.PeakReplicas, prov)
	rh := prov * dt / 3600
	s.f.ReplicaHours += rh
	s.hour.ReplicaHours += rh
	s.hour.MeanReplicas += prov * dt
	s.f.Requests += a
	s.f.Served += served
	s.hour.Requests += a
	s.binReady += n
	s.binProv += prov
	s.binReq += a
	if a == 0 {
		return
	}
	good := false
	ttft := math.Inf(1)
	if c > 0 {
		p := rep.At(served / c)
		// The slice's requests wait, besides, for the backlog ahead of
		// them, drained at the ready replicas' capacity.
		ttft = p.TTFTS + s.backlog/(n*rep.CapacityPerS)
		good = (o.TTFTS <= 0 || ttft <= o.TTFTS) && (o.TPOTS <= 0 || p.TPOTS <= o.TPOTS)
	}
	if good {
		s.f.Good += a
		s.hour.Good += a
		s.binGood += a
	}
	// A slice without capacity charges its requests the longest TTFT the
	// chart can show: the slice's own length beyond the table's last.
	if math.IsInf(ttft, 1) {
		ttft = rep.Table[len(rep.Table)-1].TTFTS + dt
	}
	s.binTTFT += a * ttft
}

// closeHour ends the hour that started at start and lasted dur seconds.
func (s *state) closeHour(start, dur float64) {
	h := s.hour
	h.StartS = start
	h.MeanReplicas /= dur
	h.Attainment = ratio(h.Good, h.Requests)
	if h.Requests == 0 {
		h.Attainment = 1
	}
	h.GoodputPerS = h.Good / dur
	s.f.Hours = append(s.f.Hours, h)
	s.hour = Hour{}
}

func ratio(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}

// Smallest finds, by bisection over [1, hi], the smallest fleet whose
// SLO attainment reaches target: the static fleet's replicas (autoscaled
// false) or the autoscaler's max_replicas (true, the policy's other
// settings kept; min_replicas raised with it when above). Attainment
// grows with replicas in this model (more capacity: a shorter backlog
// and a lower utilisation, whose latencies the table gives rising), so
// bisection finds the least. It returns 0 and the fleet at hi when even
// hi misses the target, and the runs it made.
func Smallest(counts []float64, rep Replica, pol Policy, o Options, target float64, hi int, autoscaled bool) (n int, f Fleet, runs int) {
	at := func(k int) Fleet {
		runs++
		p, op := pol, o
		op.Bins = 1
		if autoscaled {
			p.Max, p.Min = k, min(p.Min, k)
			return Run(counts, rep, p, op).Autoscaled
		}
		op.Static = k
		return Run(counts, rep, p, op).Static
	}
	top := at(hi)
	if top.Attainment < target {
		return 0, top, runs
	}
	lo, best := 0, hi // at(lo) misses (0: no replicas), at(best) reaches
	f = top
	for best-lo > 1 {
		mid := (lo + best) / 2
		if g := at(mid); g.Attainment >= target {
			best, f = mid, g
		} else {
			lo = mid
		}
	}
	return best, f, runs
}

// SizingRuns is how many runs Smallest makes at most over [1, hi]: the
// top, then a bisection.
func SizingRuns(hi int) int {
	r := 1
	for n := hi; n > 1; n = (n + 1) / 2 {
		r++
	}
	return r
}
