package hardware

import (
	"math"

	"github.com/modelrefs/throughput/internal/fielderr"
)

// MaxMemoryBytes bounds memory_bytes of a custom accelerator: 10 TB, far above
// any single chip (the largest here has 288 GiB), low enough to catch a value
// given in bits or with the unit multiplied twice.
const MaxMemoryBytes = 10 * TB

// Lower bounds on a custom accelerator's figures. A real chip is orders of
// magnitude above each (the slowest here, an L4, has 300 GB/s, 121 TFLOP/s
// bf16 and 24 GB; a Raspberry Pi 4's CPU manages about 10 GFLOP/s over
// LPDDR4 at 4 GB/s), yet each keeps every derived figure finite: a time is
// bytes or FLOPs over these rates, so a rate of 1e-300 turns a step of a few
// GB into 1e309 s (+Inf), and a product of such times overflows sooner.
// With these floors the longest step of the largest model the importer
// accepts stays below about 1e15 s.
const (
	// MinMemoryBytes: 1 MiB; a model needs at least its weights.
	MinMemoryBytes = 1 << 20
	// MinMemoryBandwidth: 1 GB/s, a sixth of one DDR3 channel.
	MinMemoryBandwidth = 1e9
	// MinPeakFLOPS: 1 GFLOP/s for any precision given (0: not supported,
	// falls back to bf16), below a 2010 phone's CPU.
	MinPeakFLOPS = 1e9
	// MinInterconnectBandwidth: 1 MB/s when given (0: a single chip),
	// below 10 Mbit Ethernet.
	MinInterconnectBandwidth = 1e6
	// MaxRate bounds bandwidths and FLOP/s from above: 1e18 (1 EFLOP/s,
	// 1 EB/s), 100x the fastest chip's fp4 FLOP/s, so that no time rounds
	// to 0 and no throughput is 1/0.
	MaxRate = 1e18
	// MaxInterconnectLatency: 1 s, three WAN round trips around the Earth.
	MaxInterconnectLatency = 1.0
	// MaxSMs bounds sms: 100,000, 500x the largest chip's 170 (0: not
	// given).
	MaxSMs = 100_000
	// MinClockHz and MaxClockHz bound boost_clock_hz when given: 1 MHz to
	// 10 GHz, around the 1.4-2.6 GHz of today's GPUs.
	MinClockHz = 1e6
	MaxClockHz = 1e10
	// MaxNVLinkDomainGPUs bounds nvlink_domain_gpus: 576, NVIDIA's largest
	// announced NVLink domain (Vera Rubin NVL576).
	MaxNVLinkDomainGPUs = 576
)

// CustomID is the id Validate gives a custom accelerator that has none.
const CustomID = "custom"

// Validate checks figures given for a custom accelerator (a request may
// carry an object instead of a catalog id) and returns every problem as
// fielderr.Errors (which wraps ErrInvalid), or nil. It fills an empty ID
// with CustomID.
func (a *Accelerator) Validate() error {
	if a.ID == "" {
		a.ID = CustomID
	}
	if ps := a.Problems(); len(ps) > 0 {
		return ps
	}
	return nil
}

// Problems lists every problem with a's figures, in JSON field order; nil
// when there is none. The rules:
//
//   - every number must be finite (no NaN or ±Inf) and not negative;
//   - memory_bytes must be greater than 0 and at most MaxMemoryBytes;
//   - memory_reported_bytes, when set, must not exceed memory_bytes;
//   - memory_free_bytes, when set, must not exceed memory_reported_bytes
//     (memory_bytes when that is not set): free memory is part of the total;
//   - memory_bandwidth_bytes_per_s must be greater than 0;
//   - peak_flops.bf16 must be greater than 0: it is the rate every other
//     precision falls back to (see PeakFLOPS.For); it also stands for fp16;
//   - interconnect figures may be 0 (a single chip);
//   - nvlink_domain_gpus may be 0 (one node), at most MaxNVLinkDomainGPUs;
//   - sms and boost_clock_hz may be 0 (not given); sms at most MaxSMs,
//     boost_clock_hz between MinClockHz and MaxClockHz;
//   - the physical bounds: memory (and reported and free memory, when given) at least
//     MinMemoryBytes; bandwidth and every FLOP/s figure given between
//     MinMemoryBandwidth / MinPeakFLOPS and MaxRate; interconnect bandwidth,
//     when given, at least MinInterconnectBandwidth; latency at most
//     MaxInterconnectLatency.
func (a *Accelerator) Problems() fielderr.Errors {
	const (
		memLo    = "1048576 bytes (1 MiB)"
		rateMax  = "1e18 bytes/s (1 EB/s)"
		flopsLo  = "1e9 FLOP/s (1 GFLOP/s)"
		flopsMax = "1e18 FLOP/s (1 EFLOP/s)"
		positive = "must be greater than 0"
	)
	var ps fielderr.Errors
	mem := float64(a.MemoryBytes)
	memOK := figureRule{field: fieldMemory, zero: positive, lo: MinMemoryBytes, loText: memLo}.check(&ps, mem)
	if memOK && mem > float64(MaxMemoryBytes) {
		ps = append(ps, fielderr.Error{Field: fieldMemory, Message: "must be at most 1e+13 (10 TB) (got " + fielderr.Number(mem) + ")"})
		memOK = false
	}
	rep := float64(a.MemoryReportedBytes)
	if (figureRule{field: fieldReported, lo: MinMemoryBytes, loText: memLo}).check(&ps, rep) && rep != 0 && memOK && rep > mem {
		ps = append(ps, fielderr.Error{Field: fieldReported, Message: "must not exceed memory_bytes (" + fielderr.Number(mem) + ") (got " + fielderr.Number(rep) + ")"})
	}
	free := float64(a.MemoryFreeBytes)
	limit, limitField := mem, fieldMemory
	if rep > 0 {
		limit, limitField = rep, fieldReported
	}
	if (figureRule{field: fieldFree, lo: MinMemoryBytes, loText: memLo}).check(&ps, free) && free != 0 && memOK && free > limit {
		ps = append(ps, fielderr.Error{Field: fieldFree, Message: "must not exceed " + limitField + " (" + fielderr.Number(limit) + ") (got " + fielderr.Number(free) + ")"})
	}
	figureRule{field: fieldBandwidth, zero: positive, lo: MinMemoryBandwidth, loText: "1e9 bytes/s (1 GB/s)", hi: MaxRate, hiText: rateMax}.check(&ps, a.MemoryBandwidthBytesPerS)

	f := a.PeakFLOPS
	for _, p := range [...]struct {
		field string
		v     float64
		zero  string
	}{
		{"peak_flops.fp32", f.FP32, ""},
		{"peak_flops.tf32", f.TF32, ""},
		{"peak_flops.bf16", f.BF16, "must be greater than 0: every other precision falls back to it"},
		{"peak_flops.fp8", f.FP8, ""},
		{"peak_flops.int8", f.INT8, ""},
		{"peak_flops.fp4", f.FP4, ""},
		{"peak_flops.fp16_acc", f.FP16Acc, ""},
	} {
		figureRule{field: p.field, zero: p.zero, lo: MinPeakFLOPS, loText: flopsLo, hi: MaxRate, hiText: flopsMax}.check(&ps, p.v)
	}

	figureRule{field: "interconnect.bandwidth_bytes_per_s", lo: MinInterconnectBandwidth, loText: "1e6 bytes/s (1 MB/s)", hi: MaxRate, hiText: rateMax}.check(&ps, a.Interconnect.BandwidthBytesPerS)
	figureRule{field: fieldLatency, hi: MaxInterconnectLatency, hiText: "1 s"}.check(&ps, a.Interconnect.LatencyS)
	figureRule{field: fieldSMs, hi: MaxSMs, hiText: "100000"}.check(&ps, float64(a.SMs))
	figureRule{field: fieldDomain, hi: MaxNVLinkDomainGPUs, hiText: "576"}.check(&ps, float64(a.NVLinkDomainGPUs))
	figureRule{field: fieldClock, lo: MinClockHz, loText: "1e6 Hz (1 MHz)", hi: MaxClockHz, hiText: "1e10 Hz (10 GHz)"}.check(&ps, a.BoostClockHz)
	return ps
}

// figureRule is one figure's checks, in order: finite, not negative; 0 is
// either refused with the message zero or, when zero is "", means "not
// given" and skips the range; then at least lo and at most hi, each checked
// when its text (the bound with its unit) is given.
type figureRule struct {
	field          string
	zero           string
	lo, hi         float64
	loText, hiText string
}

// check appends v's first problem to ps and reports whether it had none.
func (r figureRule) check(ps *fielderr.Errors, v float64) bool {
	var msg string
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		msg = "must be a finite number (got " + fielderr.Number(v) + ")"
	case v < 0:
		msg = "must not be negative (got " + fielderr.Number(v) + ")"
	case v == 0 && r.zero != "":
		msg = r.zero + " (got 0)"
	case v == 0:
		return true
	case r.loText != "" && v < r.lo:
		msg = "must be at least " + r.loText + ", got " + fielderr.Number(v)
	case r.hiText != "" && v > r.hi:
		msg = "must be at most " + r.hiText + ", got " + fielderr.Number(v)
	default:
		return true
	}
	*ps = append(*ps, fielderr.Error{Field: r.field, Message: msg})
	return false
}
