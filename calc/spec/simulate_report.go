package spec

// SimulationReport is what a step-by-step simulation of one serving
// instance measured. Times are from the start of the simulation; a
// figure with nothing to measure (no preemption, no request with two
// output tokens) is 0.
type SimulationReport struct {
	_ noCompare
	// Arrival is "poisson", "closed_loop" or "burst", with its rate or
	// users.
	Arrival     string  `json:"arrival"`
	RequestRate float64 `json:"request_rate,omitempty"`
	Concurrency int     `json:"concurrency,omitempty"`
	Seed        int64   `json:"seed"`
	NumRequests int     `json:"num_requests"`
	// CompletedRequests finished; RejectedRequests could not fit in the
	// KV cache even alone and were dropped.
	CompletedRequests int `json:"completed_requests"`
	RejectedRequests  int `json:"rejected_requests"`
	// Truncated is true when the simulation hit its step limit.
	Truncated bool `json:"truncated,omitempty"`
	// DurationS is the simulated time until the last request finished.
	DurationS float64 `json:"duration_s"`
	// Steps is the number of scheduler steps (forward passes).
	Steps int64 `json:"steps"`
	// MeanInputTokens and MeanOutputTokens are the realised means.
	MeanInputTokens  float64 `json:"mean_input_tokens"`
	MeanOutputTokens float64 `json:"mean_output_tokens"`

	// TTFTMs, TPOTMs (requests with at least two output tokens) and
	// E2ELatencyMs summarise completed requests.
	TTFTMs       LatencySummary `json:"ttft_ms"`
	TPOTMs       LatencySummary `json:"tpot_ms"`
	E2ELatencyMs LatencySummary `json:"e2e_latency_ms"`
	// ITLMs summarises the inter-token latencies: every gap between two
	// consecutive output tokens of a request, over all requests, as vLLM's
	// benchmark reports ITL (TPOT is each request's mean gap). Under load
	// its median stays near a decode step while TPOT's rises with the
	// prompt chunks and preemptions that stall requests (percentiles to
	// within 1.1 %).
	ITLMs LatencySummary `json:"itl_ms"`

	RequestsPerS     float64 `json:"requests_per_s"`
	OutputTokensPerS float64 `json:"output_tokens_per_s"`
	// TotalTokensPerS counts prompt and output tokens of completed
	// requests (vLLM's benchmark "total token throughput").
	TotalTokensPerS float64 `json:"total_tokens_per_s"`
	// GoodputRequestsPerS counts requests per second within the slo
	// (ttft_ms and tpot_ms, whichever are given); SLOAttainment is their
	// fraction of completed requests. Both are present only when the
	// request gives an slo: without a budget nothing is measured against
	// one (goodput would equal requests_per_s whatever the latency).
	GoodputRequestsPerS *float64 `json:"goodput_requests_per_s,omitempty"`
	SLOAttainment       *float64 `json:"slo_attainment,omitempty"`

	// Preemptions counts evictions by recomputation; PreemptedRequests
	// the requests evicted at least once.
	Preemptions       int `json:"preemptions"`
	PreemptedRequests int `json:"preempted_requests"`
	// RecomputedTokens were computed, dropped by a preemption and computed
	// again; RecomputeOverhead is their number per delivered output token.
	RecomputedTokens  int64   `json:"recomputed_tokens"`
	RecomputeOverhead float64 `json:"recompute_overhead"`
	// WorkPerOutputToken is every token the steps computed (prompts,
	// recomputation, decodes) per delivered output token; without
	// preemption (input + output - 1) / output.
	WorkPerOutputToken float64 `json:"work_per_output_token"`
	// FirstPreemptionS is when the first preemption happened and
	// RunningAtFirstPreemption how many sequences ran just before it: the
	// measured counterpart of preemption.onset_concurrency.
	FirstPreemptionS         float64 `json:"first_preemption_s"`
	RunningAtFirstPreemption int     `json:"running_at_first_preemption"`

	// CachedTokens is the prompt tokens the prefix cache served (shared
	// prefixes and preempted requests' own blocks); DraftedTokens and
	// AcceptedTokens are speculative decoding's verified and accepted
	// drafts (0 without the features).
	CachedTokens   int64 `json:"cached_tokens,omitempty"`
	DraftedTokens  int64 `json:"drafted_tokens,omitempty"`
	AcceptedTokens int64 `json:"accepted_tokens,omitempty"`
	// ReloadedTokens were loaded back from the kv_offload tier instead of
	// recomputed after a preemption.
	ReloadedTokens int64 `json:"reloaded_tokens,omitempty"`

	// Time-weighted means over the steps, and the peak pool use.
	MeanRunning      float64 `json:"mean_running"`
	MeanWaiting      float64 `json:"mean_waiting"`
	MeanKVCacheUsage float64 `json:"mean_kv_cache_usage"`
	PeakKVCacheUsage float64 `json:"peak_kv_cache_usage"`

	// Timeline is the run downsampled to at most timeline_points buckets.
	Timeline []SimTimelinePoint `json:"timeline,omitempty"`
	// Sweep is the simulation over a range of loads.
	Sweep *SimulationSweep `json:"sweep,omitempty"`
	// Sessions is a session workload's outcome (workload.sessions).
	Sessions *SimSessionsReport `json:"sessions,omitempty"`
	// Traffic is the trace or rate curve simulated, over time, and the
	// fleet autoscaled under it (traffic.go).
	Traffic *TrafficReport `json:"traffic,omitempty"`
}

// LatencySummary is a latency distribution in milliseconds; percentiles
// interpolate linearly between ranks. All 0 when there is no sample.
type LatencySummary struct {
	_    noCompare
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
}

// SimTimelinePoint is consecutive steps from TimeS lasting DurationS,
// with time-weighted means of the running sequences (the batch), the
// waiting queue and the fraction of the KV block pool in use.
type SimTimelinePoint struct {
	_            noCompare
	TimeS        float64 `json:"time_s"`
	DurationS    float64 `json:"duration_s"`
	Running      float64 `json:"running"`
	Waiting      float64 `json:"waiting"`
	KVCacheUsage float64 `json:"kv_cache_usage"`
}

// SimulationSweep is the simulation at several loads beside the analytic
// preemption estimate.
type SimulationSweep struct {
	_ noCompare
	// Load is "request_rate" (requests/s, Poisson) or "concurrency"
	// (closed-loop users).
	Load        string          `json:"load"`
	NumRequests int             `json:"num_requests_per_point"`
	Points      []SimSweepPoint `json:"points"`
	// PreemptionOnset is the smallest load at which the simulation
	// preempted, bisected between sweep points (0 when no load of the
	// sweep preempted). RunningAtOnset is the running sequences at the
	// first preemption there.
	PreemptionOnset float64 `json:"preemption_onset"`
	RunningAtOnset  int     `json:"running_at_onset"`
	// AnalyticOnset is the engine's estimate of the same load
	// (preemption.onset_request_rate or .onset_concurrency; 0 when not
	// reachable); OnsetDifference = measured - analytic and OnsetRatio =
	// measured / analytic (0 when either is 0).
	AnalyticOnset   float64 `json:"analytic_onset"`
	OnsetDifference float64 `json:"onset_difference"`
	OnsetRatio      float64 `json:"onset_ratio"`
	// KneeLoad is the smallest load whose output throughput reaches 95 %
	// of the sweep's best (KneeOutputTokensPerS); beyond it more load buys
	// latency, not throughput.
	KneeLoad             float64 `json:"knee_load"`
	KneeOutputTokensPerS float64 `json:"knee_output_tokens_per_s"`
	MaxOutputTokensPerS  float64 `json:"max_output_tokens_per_s"`
}

// SimSweepPoint is one load of the sweep.
type SimSweepPoint struct {
	_                noCompare
	Load             float64 `json:"load"`
	OutputTokensPerS float64 `json:"output_tokens_per_s"`
	RequestsPerS     float64 `json:"requests_per_s"`
	// GoodputRequestsPerS is present only when the request gives an slo
	// (as SimulationReport's).
	GoodputRequestsPerS *float64 `json:"goodput_requests_per_s,omitempty"`
	TTFTP50Ms           float64  `json:"ttft_p50_ms"`
	TTFTP99Ms           float64  `json:"ttft_p99_ms"`
	TPOTP50Ms           float64  `json:"tpot_p50_ms"`
	TPOTP99Ms           float64  `json:"tpot_p99_ms"`
	E2EP50Ms            float64  `json:"e2e_latency_p50_ms"`
	E2EP99Ms            float64  `json:"e2e_latency_p99_ms"`
	MeanRunning         float64  `json:"mean_running"`
	Preemptions         int      `json:"preemptions"`
	WorkPerOutputToken  float64  `json:"work_per_output_token"`
}
