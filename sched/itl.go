package sched

import "math"

// gapHist is the distribution of inter-token latencies: every gap, in
// seconds, between two consecutive output tokens of one request, over all
// requests. It is what vLLM's benchmark reports as ITL (vllm/benchmarks/
// serve.py at v0.10.1 and v0.19.0: each streamed chunk after the first
// appends timestamp - most_recent_timestamp to the request's itl list,
// and the medians and percentiles are over the concatenated lists), where
// TPOT is each request's mean gap, (finish - first token) / (output - 1),
// summarised over requests. The two part under load: a request that waits
// out other requests' prompt chunks or a preemption has one long gap among
// many step-long ones, which moves its mean (TPOT) but barely the median
// of all gaps (ITL).
//
// A run can sample up to 10^5 requests x their outputs, so the gaps are
// binned, not kept: bins are 2^(1/64) wide (about 1.1 %) from
// gapHistMinS up, each with its count and the sum of its gaps, so a bin
// holding one distinct gap (a step's duration, which every sequence that
// decoded in that step and in the step before shares) returns it exactly,
// and percentiles are read to within a bin's width (1.1 %).
type gapHist struct {
	count []int64
	sum   []float64
	n     int64
	total float64
	max   float64
}

const (
	gapHistPerOctave = 64
	gapHistMinS      = 1e-6 // seconds: the first bin's lower edge
	// gapHistBins covers gapHistMinS to 2^34 times it (4.8 hours); a
	// longer gap joins the last bin.
	gapHistBins = 34 * gapHistPerOctave
)

// gapBin returns the index of the bin holding gap x (seconds, > 0).
func gapBin(x float64) int {
	if !(x > gapHistMinS) {
		return 0
	}
	i := int(math.Log2(x/gapHistMinS) * gapHistPerOctave)
	return min(i, gapHistBins-1)
}

// add records k gaps of x seconds each.
func (h *gapHist) add(x float64, k int64) {
	if k <= 0 {
		return
	}
	if h.count == nil {
		h.count = make([]int64, gapHistBins)
		h.sum = make([]float64, gapHistBins)
	}
	i := gapBin(x)
	h.count[i] += k
	h.sum[i] += x * float64(k)
	h.n += k
	h.total += x * float64(k)
	h.max = max(h.max, x)
}

// summary returns the gaps' mean, percentiles and maximum (zero with no
// gap). Percentiles interpolate linearly between the closest ranks, as
// summarize does (numpy's default), each rank's value being the mean of
// the bin that holds it.
func (h *gapHist) summary() Summary {
	if h.n == 0 {
		return Summary{}
	}
	return Summary{
		Mean: h.total / float64(h.n),
		P50:  h.percentile(50), P90: h.percentile(90), P99: h.percentile(99),
		Max: h.max,
	}
}

func (h *gapHist) percentile(p float64) float64 {
	r := float64(h.n-1) * p / 100
	i := int64(r)
	lo := h.at(i)
	if i+1 >= h.n {
		return lo
	}
	return lo + (r-float64(i))*(h.at(i+1)-lo)
}

// at returns the value of the gap of rank i (0-based, ascending): the mean
// of its bin.
func (h *gapHist) at(i int64) float64 {
	var seen int64
	for b, c := range h.count {
		seen += c
		if seen > i {
			return h.sum[b] / float64(c)
		}
	}
	return h.max
}
