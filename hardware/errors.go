package hardware

import (
	"strings"

	"github.com/modelrefs/throughput/internal/fielderr"
)

// Sentinel errors. Test for them with errors.Is.
var (
	// ErrUnknown: no catalog entry matches the name.
	ErrUnknown error = &sentinel{"hardware: unknown accelerator"}
	// ErrAmbiguous: the name matches several entries that differ in memory
	// capacity (for example "A100": 40 GB or 80 GB).
	ErrAmbiguous error = &sentinel{"hardware: ambiguous accelerator name"}
	// ErrInvalid: custom accelerator figures failed Validate (the
	// project's one field-error sentinel, fielderr.ErrInvalid).
	ErrInvalid = fielderr.ErrInvalid
)

// sentinel is errors.New's kind of error, written as a literal: a call
// among the package's initialisers (errors.New here, before the catalog in
// initialisation order) makes the compiler stop copying one package-level
// value into another statically, and without inlining (the browser
// engine's -gcflags=all=-l) every catalog entry's shared datasheet,
// latencyFields, PeakFLOPS and Interconnect values were then copied in by
// initialisation code: hardware.init was 26 KB of wasm code, 2 KB without
// the call (4 KB of the browser engine's gzip; scripts/wasm-sizes.py).
type sentinel struct{ text string }

func (e *sentinel) Error() string { return e.text }

// LookupError records a failed Lookup: the input as given, the kind
// (ErrUnknown or ErrAmbiguous, returned by Unwrap) and the catalog ids worth
// showing the user (the nearest id for ErrUnknown, if any is close; every
// matching id for ErrAmbiguous).
type LookupError struct {
	Input      string
	Err        error
	Candidates []string
}

// Error reads
//
//	unknown hardware "mi300"; did you mean "mi300x"?
//	ambiguous hardware "A100"; candidates: "a100-pcie-40gb", "a100-sxm-80gb"
func (e *LookupError) Error() string {
	var b strings.Builder
	if e.Err == ErrAmbiguous {
		b.WriteString("ambiguous hardware ")
	} else {
		b.WriteString("unknown hardware ")
	}
	b.WriteString(fielderr.Quote(e.Input))
	switch {
	case len(e.Candidates) == 0:
	case e.Err == ErrAmbiguous:
		b.WriteString("; candidates: ")
		for i, c := range e.Candidates {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(fielderr.Quote(c))
		}
	default:
		b.WriteString("; did you mean ")
		b.WriteString(fielderr.Quote(e.Candidates[0]))
		b.WriteString("?")
	}
	return b.String()
}

// Unwrap returns ErrUnknown or ErrAmbiguous.
func (e *LookupError) Unwrap() error { return e.Err }
