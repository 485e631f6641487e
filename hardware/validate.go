package hardware

import (
	"math"
	"strconv"

	"github.com/modelrefs/throughput/internal/fielderr"
)

// MaxMemoryBytes bounds memory_bytes of a custom accelerator: 10 TB, far above
// any single chip (the largest here has 288 GiB), low enough to catch a value
// given in bits or with the unit multiplied twice.
const MaxMemoryBytes = 10 * TB

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
//   - memory_bandwidth_bytes_per_s must be greater than 0;
//   - peak_flops.bf16 must be greater than 0: it is the rate every other
//     precision falls back to (see PeakFLOPS.For); it also stands for fp16;
//   - interconnect figures may be 0 (a single chip).
func (a *Accelerator) Problems() fielderr.Errors {
	var ps fielderr.Errors
	add := func(field, msg string, v float64) {
		ps = append(ps, fielderr.Error{Field: field, Message: msg + " (got " + formatFloat(v) + ")"})
	}
	// nonNegative reports whether v is finite and >= 0, recording a
	// problem when it is not.
	nonNegative := func(field string, v float64) bool {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			add(field, "must be a finite number", v)
			return false
		case v < 0:
			add(field, "must not be negative", v)
			return false
		}
		return true
	}
	positive := func(field string, v float64) bool {
		if !nonNegative(field, v) {
			return false
		}
		if v == 0 {
			add(field, "must be greater than 0", v)
			return false
		}
		return true
	}

	mem := float64(a.MemoryBytes)
	memOK := positive(fieldMemory, mem)
	if memOK && mem > float64(MaxMemoryBytes) {
		add(fieldMemory, "must be at most 1e+13 (10 TB)", mem)
		memOK = false
	}
	rep := float64(a.MemoryReportedBytes)
	if nonNegative(fieldReported, rep) && memOK && rep > mem {
		add(fieldReported, "must not exceed memory_bytes ("+formatFloat(mem)+")", rep)
	}
	positive(fieldBandwidth, a.MemoryBandwidthBytesPerS)

	f := a.PeakFLOPS
	nonNegative("peak_flops.fp32", f.FP32)
	nonNegative("peak_flops.tf32", f.TF32)
	if nonNegative("peak_flops.bf16", f.BF16) && f.BF16 == 0 {
		add("peak_flops.bf16", "must be greater than 0: every other precision falls back to it", f.BF16)
	}
	nonNegative("peak_flops.fp8", f.FP8)
	nonNegative("peak_flops.int8", f.INT8)
	nonNegative("peak_flops.fp4", f.FP4)

	nonNegative("interconnect.bandwidth_bytes_per_s", a.Interconnect.BandwidthBytesPerS)
	nonNegative(fieldLatency, a.Interconnect.LatencyS)
	return ps
}

// formatFloat writes v in the shortest form that round-trips, integers below
// 1e15 in plain digits ("51539607552", "-1", "0.5", "2.5e+20", "NaN", "+Inf").
func formatFloat(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
