package hardware

// JSON field names a Source can back. "peak_flops" covers every precision of
// PeakFLOPS; "interconnect" covers its name and bandwidth.
const (
	fieldMemory       = "memory_bytes"
	fieldReported     = "memory_reported_bytes"
	fieldFree         = "memory_free_bytes"
	fieldBandwidth    = "memory_bandwidth_bytes_per_s"
	fieldPeakFLOPS    = "peak_flops"
	fieldInterconnect = "interconnect"
	fieldLatency      = "interconnect.latency_s"
	fieldSMs          = "sms"
	fieldClock        = "boost_clock_hz"
	fieldDomain       = "nvlink_domain_gpus"
)

// datasheet is the usual set of fields one vendor spec page backs.
var datasheet = []string{fieldMemory, fieldBandwidth, fieldPeakFLOPS, fieldInterconnect}

// The catalog's Source values are literals, not built by a helper: a
// composite literal of constants is laid out as static data by the
// compiler, while a function call in it makes the whole entry list
// initialisation code, which the browser engine would carry (about 150
// bytes of gzip per entry; scripts/wasm-size.sh).

// Shared citations for the all-reduce latency estimates (see the
// AllReduceLatency constants for the reasoning), each written into an entry
// as {Fields: latencyFields, Citation: citeLatency...}: a Source variable
// there instead, an element of a slice literal, is copied in by
// initialisation code in any build (the compiler lays out only literals and
// copies of slice and struct variables as static data): 1.1 KB of the
// browser engine's gzip for the 80 entries that cite one.
var latencyFields = []string{fieldLatency}

// GiB-versus-GB note shared by the HBM entries: HBM stacks come in binary
// sizes (16 GiB, 24 GiB, 36 GiB), so a vendor's "80 GB" part has 80 GiB. The
// reported totals prove it: an H200 "141 GB" reports 139.80 GiB to PyTorch,
// more than 141e9 bytes (131.3 GiB) could hold. GDDR and LPDDR parts are
// binary-sized for the same reason (24 GB GDDR6X = 24 GiB).

// Streaming-multiprocessor counts and boost clocks (sms, boost_clock_hz).
var smFields = []string{fieldSMs, fieldClock}

// RegisterCitations fills in the Citation of every catalog source: table
// holds each accelerator's citations by id, in the order of its Sources.
// Package hardware/citations calls it from its init: a program imports
// that package for the citation text (as it imports time/tzdata for the
// time-zone database) rather than calling this. In one that does not (the
// browser engines) every Citation is empty: the entries name their
// citations by constants (citations_gen.go) that are empty here.
func RegisterCitations(table map[string][]string) {
	for i := range catalog {
		src := catalog[i].Sources
		for j, c := range table[catalog[i].ID] {
			if j < len(src) {
				src[j].Citation = c
			}
		}
	}
}
