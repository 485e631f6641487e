package spec

// Band is one headline figure's 80 % prediction interval (docs/MODEL.md
// section 7): the range in which the measured value of a deployment like
// this one fell for 80 % of the published cases of its engine, metric and
// regime (BandCoverage).
type Band struct {
	_ noCompare
	// Figure is the report figure the range is for:
	// "kv_cache.capacity_tokens", "decode.step_time_ms",
	// "decode.tokens_per_s", "prefill.ttft_ms", "batch_ceiling.batch_size",
	// "preemption.onset_concurrency", or with a workload's steady state
	// "serving.tpot_ms", "serving.e2e_ms", "serving.output_tokens_per_s"
	// and "serving.ttft_ms" (docs/MODEL.md section 5b; under a request rate
	// below capacity the output rate's range stops at the arrival rate's).
	Figure string  `json:"figure"`
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
	// Basis names the validation cases the range comes from: the engine
	// (or "all engines"), the family and the regime, and their count.
	Basis string `json:"basis"`
	// Widened is true when the range was doubled: the request lies
	// outside the validated domain, or the cases are other engines' or
	// another family's (a warning says which).
	Widened bool `json:"widened,omitempty"`
}
