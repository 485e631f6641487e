// Package units gives the engine's physical quantities their own types, so
// that a byte count cannot be added to a time or divided by the wrong rate
// without the compiler seeing it: memory in bytes, bandwidth in bytes per
// second, time in seconds. Conversions are methods that name their result
// (Bytes.Over gives Seconds; Seconds.Ms gives milliseconds).
//
// Units: GB means 10^9 bytes and GiB 2^30 bytes, as datasheets and vLLM's
// logs use them respectively. It is a leaf: it imports only the standard
// library.
package units

import "math"

// Bytes is an amount of memory in bytes. Per-rank shares of a tensor split
// can be fractional; Int64 rounds for reports.
type Bytes float64

// Binary and decimal byte multiples.
const (
	KiB Bytes = 1 << 10
	MiB Bytes = 1 << 20
	GiB Bytes = 1 << 30
	GB  Bytes = 1e9
	TB  Bytes = 1e12
)

// GiB returns b in gibibytes (2^30 bytes).
func (b Bytes) GiB() float64 { return float64(b) / float64(GiB) }

// Int64 returns b rounded to whole bytes (0 for a negative, NaN or
// infinite amount), the form every report gives a byte count in.
func (b Bytes) Int64() int64 {
	x := float64(b)
	if !(x > 0) || math.IsInf(x, 0) {
		return 0
	}
	if x >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(math.Round(x))
}

// Over returns the time to move b at rate r: b / r seconds.
func (b Bytes) Over(r BytesPerSecond) Seconds { return Seconds(float64(b) / float64(r)) }

// BytesPerSecond is a bandwidth in bytes per second (datasheets quote TB/s
// as 10^12 bytes per second).
type BytesPerSecond float64

// Seconds is a duration in seconds.
type Seconds float64

// Ms returns s in milliseconds.
func (s Seconds) Ms() float64 { return float64(s) * 1000 }
