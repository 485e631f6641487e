package spec

// Traffic beyond generated arrivals (issue 33, docs/MODEL.md section 14):
// a recorded trace replayed as given, a request rate that varies in time,
// and a fleet autoscaled under either.

// Traffic bounds.
const (
	// MaxRateCurvePoints bounds simulate.rate_curve's points.
	MaxRateCurvePoints = 1000
	// MaxRateCurveS bounds a rate curve's length, and a fleet's day: 7
	// days, in seconds.
	MaxRateCurveS = 7 * 86400
	// MaxFleetRequests bounds the arrivals a fleet simulation draws from
	// a rate curve (its expected count, the rate's integral): 50 million,
	// a week at 80 req/s.
	MaxFleetRequests = 50_000_000
	// MaxReplicas bounds an autoscaler's replicas; DefaultMaxReplicas is
	// max_replicas when not given; MaxSizingReplicas is the largest fleet
	// the sizing tries.
	MaxReplicas        = 10_000
	DefaultMaxReplicas = 16
	MaxSizingReplicas  = 1024
	// FleetSliceS is the fleet model's time slice, in seconds.
	FleetSliceS = 1
	// DefaultAutoscaleTarget is the default target utilisation (and,
	// under metric "queue", the default requests in flight per replica
	// is DefaultAutoscaleQueue).
	DefaultAutoscaleTarget = 0.7
	DefaultAutoscaleQueue  = 32
	// DefaultAutoscaleTolerance is Kubernetes' HPA default tolerance
	// (--horizontal-pod-autoscaler-tolerance, 0.1).
	DefaultAutoscaleTolerance = 0.1
	// DefaultAutoscaleIntervalS is the HPA's default sync period
	// (--horizontal-pod-autoscaler-sync-period, 15 s).
	DefaultAutoscaleIntervalS = 15
	// DefaultScaleDownDelayS is the HPA's default scale-down
	// stabilisation window (300 s; behavior.scaleDown.
	// stabilizationWindowSeconds).
	DefaultScaleDownDelayS = 300
	// DefaultLoadBandwidth is the stated rate at which a starting replica
	// loads its weights, per GPU, in bytes per second (2 GB/s: an
	// assumption, a local NVMe SSD's order of magnitude; give
	// simulate.autoscale.load_bandwidth_bytes_per_s or cold_start_s for
	// yours).
	DefaultLoadBandwidth = 2e9
)

// trafficFields are the traffic options' entries of Fields.
var trafficFields = [...]struct {
	key  string
	spec FieldSpec
}{
	{"TraceOptions.format", FieldSpec{Enum: TraceFormats}},
	{"RateCurve.times_s", FieldSpec{Min: 0, Max: MaxRateCurveS, HasMin: true, HasMax: true, Unit: "s"}},
	{"RateCurve.rates", FieldSpec{Min: 0, Max: MaxRate, HasMin: true, HasMax: true, Unit: "requests/s"}},
	{"RateCurve.shape", FieldSpec{Enum: RateCurveShapes, Default: "linear"}},
	{"AutoscaleOptions.metric", FieldSpec{Enum: AutoscaleMetrics, Default: "utilization"}},
	{"AutoscaleOptions.target", FieldSpec{Min: 0, Max: MaxSeqs, HasMin: true, HasMax: true, ExclusiveMin: true, DefaultText: "0.7 (utilization) or 32 requests in flight per replica (queue)"}},
	{"AutoscaleOptions.tolerance", FieldSpec{Min: 0, Max: 1, HasMin: true, HasMax: true, Default: DefaultAutoscaleTolerance, Unit: "fraction of the target"}},
	{"AutoscaleOptions.min_replicas", FieldSpec{Min: 1, Max: MaxReplicas, HasMin: true, HasMax: true, Default: 1, Unit: "replicas"}},
	{"AutoscaleOptions.max_replicas", FieldSpec{Min: 1, Max: MaxReplicas, HasMin: true, HasMax: true, Default: DefaultMaxReplicas, Unit: "replicas"}},
	{"AutoscaleOptions.static_replicas", FieldSpec{Min: 1, Max: MaxReplicas, HasMin: true, HasMax: true, DefaultText: "max_replicas", Unit: "replicas"}},
	{"AutoscaleOptions.interval_s", FieldSpec{Min: FleetSliceS, Max: 3600, HasMin: true, HasMax: true, Default: DefaultAutoscaleIntervalS, Unit: "s"}},
	{"AutoscaleOptions.scale_down_delay_s", FieldSpec{Min: 0, Max: 86400, HasMin: true, HasMax: true, Default: DefaultScaleDownDelayS, Unit: "s"}},
	{"AutoscaleOptions.cold_start_s", FieldSpec{Min: 0, Max: 86400, HasMin: true, HasMax: true, DefaultText: "one GPU's weights over load_bandwidth_bytes_per_s", Unit: "s"}},
	{"AutoscaleOptions.attainment_target", FieldSpec{Min: 0, Max: 1, HasMin: true, HasMax: true, ExclusiveMin: true, Unit: "fraction of requests"}},
	{"AutoscaleOptions.load_bandwidth_bytes_per_s", FieldSpec{Min: 1e6, Max: 1e13, HasMin: true, HasMax: true, Default: DefaultLoadBandwidth, Unit: "bytes/s"}},
}

// The values of simulate.rate_curve.shape, simulate.autoscale.metric and
// simulate.trace.format.
var (
	RateCurveShapes  = []string{"linear", "steps"}
	AutoscaleMetrics = []string{"utilization", "queue"}
	TraceFormats     = []string{"mooncake", "azure", "csv", "jsonl"}
)

// TraceOptions is a request trace to replay exactly: each request arrives
// at its recorded time (shifted so the first arrives at 0) with its
// recorded prompt and output lengths.
type TraceOptions struct {
	_ noCompare
	// Format is "mooncake" (kvcache-ai/Mooncake's trace: one JSON object
	// a line with timestamp in ms, input_length, output_length and
	// hash_ids, one id per shared 512-token block), "azure" (the Azure LLM
	// inference traces' CSV: TIMESTAMP, ContextTokens, GeneratedTokens),
	// "csv" (a header naming arrival_s, input_tokens, output_tokens, and
	// optionally session_id or prefix_id) or "jsonl" (one object a line
	// with those keys).
	Format string `json:"format"`
	// Data is the trace's text: at most 16 MiB and 1,000,000 requests,
	// in arrival order; a replay on one instance takes at most 100,000.
	Data string `json:"data"`
}

// RateCurve is a request rate that varies in time: rates[i] requests per
// second at times_s[i] seconds, from 0 to the curve's end at the last
// time. Arrivals are a non-homogeneous Poisson process of that rate.
type RateCurve struct {
	_ noCompare
	// TimesS are the points' times in seconds: the first 0, then not
	// decreasing (a time given twice is a jump), at most 7 days.
	TimesS []float64 `json:"times_s"`
	// Rates are the request rates at those times, in requests per second.
	Rates []float64 `json:"rates"`
	// Shape is "linear" (the rate runs straight between points) or
	// "steps" (each rate holds until the next point). Default linear.
	Shape string `json:"shape,omitempty"`
}

// AutoscaleOptions simulates a fleet of replicas of the deployment over
// the trace or the rate curve, scaled by a policy after Kubernetes'
// Horizontal Pod Autoscaler, against a static fleet.
type AutoscaleOptions struct {
	_ noCompare
	// Metric is "utilization" (the demand over the ready replicas'
	// capacity) or "queue" (requests in flight per replica). Default
	// utilization.
	Metric string `json:"metric,omitempty"`
	// Target is the metric's target: a utilisation (default 0.7) or
	// requests in flight per replica (default 32).
	Target *float64 `json:"target,omitempty"`
	// Tolerance is how far the metric may stray from its target, as a
	// fraction of it, before the policy acts (default 0.1, the HPA's).
	Tolerance *float64 `json:"tolerance,omitempty"`
	// MinReplicas and MaxReplicas bound the fleet (default 1 and 16).
	MinReplicas *int `json:"min_replicas,omitempty"`
	MaxReplicas *int `json:"max_replicas,omitempty"`
	// StaticReplicas is the static fleet compared (default max_replicas).
	StaticReplicas *int `json:"static_replicas,omitempty"`
	// IntervalS is how often the policy decides, in seconds (default 15).
	IntervalS *float64 `json:"interval_s,omitempty"`
	// ScaleDownDelayS is the scale-down stabilisation window, in seconds:
	// the fleet shrinks only to the largest recommendation within it
	// (default 300).
	ScaleDownDelayS *float64 `json:"scale_down_delay_s,omitempty"`
	// ColdStartS is how long a new replica takes to serve, in seconds
	// (default: one GPU's weights over load_bandwidth_bytes_per_s).
	ColdStartS *float64 `json:"cold_start_s,omitempty"`
	// LoadBandwidthBytesPerS is the rate at which each GPU of a new
	// replica loads its weights (default 2e9 bytes/s, a stated
	// assumption).
	LoadBandwidthBytesPerS *float64 `json:"load_bandwidth_bytes_per_s,omitempty"`
	// AttainmentTarget sizes the fleets for this SLO attainment (a
	// fraction of the requests): the report's fleet.sizing gives the
	// smallest static fleet and the smallest max_replicas that reach it.
	AttainmentTarget *float64 `json:"attainment_target,omitempty"`
}

// TrafficReport describes the traffic a simulation replayed or drew, and
// its outcome over time.
type TrafficReport struct {
	_ noCompare
	// Source is "trace" or "rate_curve"; Format the trace's format.
	Source string `json:"source"`
	Format string `json:"format,omitempty"`
	// Requests arrived (the trace's rows, or those drawn from the rate
	// curve) over DurationS seconds (the last arrival, or the curve's
	// end): MeanRequestRate on average, PeakRequestRate at most (the
	// curve's largest rate, or a trace's busiest interval's).
	Requests        int     `json:"requests"`
	DurationS       float64 `json:"duration_s"`
	MeanRequestRate float64 `json:"mean_request_rate"`
	PeakRequestRate float64 `json:"peak_request_rate"`
	// ExpectedRequests is the rate curve's integral: the arrivals' mean
	// count (0 for a trace).
	ExpectedRequests float64 `json:"expected_requests,omitempty"`
	// PrefixBlocks is a Mooncake trace's hash ids over every request
	// (blocks of PrefixBlockTokens tokens); ReusedPrefixBlocks those that
	// an earlier request had, PrefixReuse their share: the hit rate of a
	// prefix cache that kept every block (an upper bound). The simulation
	// itself uses the workload's prefix settings, not the hash ids.
	PrefixBlocks       int64   `json:"prefix_blocks,omitempty"`
	ReusedPrefixBlocks int64   `json:"reused_prefix_blocks,omitempty"`
	PrefixBlockTokens  int     `json:"prefix_block_tokens,omitempty"`
	PrefixReuse        float64 `json:"prefix_reuse,omitempty"`
	// Intervals is the traffic over time on the simulated instance, by
	// arrival time (absent with a fleet: see fleet.intervals).
	Intervals []TrafficInterval `json:"intervals,omitempty"`
	// Fleet is the autoscaled fleet against the static one
	// (simulate.autoscale).
	Fleet *FleetReport `json:"fleet,omitempty"`
}

// TrafficInterval is one interval of a simulated instance's traffic.
type TrafficInterval struct {
	_ noCompare
	// StartS and DurationS place it, in seconds.
	StartS    float64 `json:"start_s"`
	DurationS float64 `json:"duration_s"`
	// RequestRate is the rate curve's mean rate over it, or the trace's
	// arrivals over its length, in requests per second.
	RequestRate float64 `json:"request_rate"`
	// Arrivals arrived in it; Completed of those finished.
	Arrivals  int `json:"arrivals"`
	Completed int `json:"completed"`
	// TTFTMs is their mean time to first token, in milliseconds.
	TTFTMs float64 `json:"ttft_ms"`
	// SLOAttainment is the share of its arrivals that completed within
	// the SLO (when one is given).
	SLOAttainment *float64 `json:"slo_attainment,omitempty"`
}

// FleetReport is an autoscaled fleet against a static one under the same
// arrivals, by the slice-level fleet model (docs/MODEL.md section 14).
type FleetReport struct {
	_ noCompare
	// The policy, resolved.
	Metric          string  `json:"metric"`
	Target          float64 `json:"target"`
	MinReplicas     int     `json:"min_replicas"`
	MaxReplicas     int     `json:"max_replicas"`
	StaticReplicas  int     `json:"static_replicas"`
	IntervalS       float64 `json:"interval_s"`
	ScaleDownDelayS float64 `json:"scale_down_delay_s"`
	ColdStartS      float64 `json:"cold_start_s"`
	// ReplicaCapacity is the requests per second one replica completes
	// at saturation (the serving model at the traffic's mean lengths);
	// GPUsPerReplica and ReplicaHourUSD price it (0 without a price).
	ReplicaCapacity float64 `json:"replica_capacity_requests_per_s"`
	GPUsPerReplica  int     `json:"gpus_per_replica"`
	ReplicaHourUSD  float64 `json:"replica_hour_usd"`
	// SliceS is the model's time step, in seconds.
	SliceS float64 `json:"slice_s"`
	// Autoscaled and Static are the two fleets' outcomes; SavedUSD what
	// autoscaling saves (negative: what it costs more).
	Autoscaled FleetOutcome `json:"autoscaled"`
	Static     FleetOutcome `json:"static"`
	SavedUSD   float64      `json:"saved_usd"`
	// ScaleUps and ScaleDowns count the policy's decisions that started
	// or removed replicas.
	ScaleUps   int `json:"scale_ups"`
	ScaleDowns int `json:"scale_downs"`
	// Intervals is the run over time, chart-sized.
	Intervals []FleetInterval `json:"intervals"`
	// Sizing is the smallest fleets that reach
	// simulate.autoscale.attainment_target, when given.
	Sizing *FleetSizing `json:"sizing,omitempty"`
	// Check confirms one replica's figures with the step-by-step
	// simulator (the report's simulation section) at the busiest hour's
	// load per replica.
	Check *FleetCheck `json:"check,omitempty"`
}

// FleetOutcome is one fleet's outcome over the run.
type FleetOutcome struct {
	_ noCompare
	// ReplicaHours were paid for (a starting replica's included), at
	// CostUSD.
	ReplicaHours float64 `json:"replica_hours"`
	CostUSD      float64 `json:"cost_usd"`
	// SLOAttainment is the share of requests that arrived in slices whose
	// mean TTFT and TPOT met the SLO; GoodputRequestsPerS those requests
	// over the run's length.
	SLOAttainment       float64 `json:"slo_attainment"`
	GoodputRequestsPerS float64 `json:"goodput_requests_per_s"`
	// PeakReplicas is the most replicas paid for at once; MaxBacklog the
	// most requests queued beyond the ready replicas' capacity.
	PeakReplicas float64 `json:"peak_replicas"`
	MaxBacklog   float64 `json:"max_backlog"`
	// Hours is the outcome hour by hour; WorstHour the index of the hour
	// with the lowest attainment (-1: no requests).
	Hours     []FleetHour `json:"hours"`
	WorstHour int         `json:"worst_hour"`
}

// FleetHour is one hour of a fleet (the last may be shorter).
type FleetHour struct {
	_                   noCompare
	StartS              float64 `json:"start_s"`
	Requests            float64 `json:"requests"`
	SLOAttainment       float64 `json:"slo_attainment"`
	GoodputRequestsPerS float64 `json:"goodput_requests_per_s"`
	MeanReplicas        float64 `json:"mean_replicas"`
	ReplicaHours        float64 `json:"replica_hours"`
	CostUSD             float64 `json:"cost_usd"`
}

// FleetInterval is one chart interval of the fleet run.
type FleetInterval struct {
	_         noCompare
	StartS    float64 `json:"start_s"`
	DurationS float64 `json:"duration_s"`
	// RequestRate is the arrivals over the interval's length.
	RequestRate float64 `json:"request_rate"`
	// Replicas is the autoscaled fleet's mean ready replicas,
	// Provisioned those paid for (starting ones too).
	Replicas    float64 `json:"replicas"`
	Provisioned float64 `json:"provisioned"`
	// SLOAttainment and TTFTMs (mean) are the autoscaled fleet's;
	// StaticSLOAttainment and StaticTTFTMs the static fleet's.
	SLOAttainment       float64 `json:"slo_attainment"`
	TTFTMs              float64 `json:"ttft_ms"`
	StaticSLOAttainment float64 `json:"static_slo_attainment"`
	StaticTTFTMs        float64 `json:"static_ttft_ms"`
}

// FleetSizing is the smallest fleets that reach an SLO attainment
// target under the same arrivals, found by bisection on the fleet model.
type FleetSizing struct {
	_ noCompare
	// AttainmentTarget is the target (simulate.autoscale.attainment_target).
	AttainmentTarget float64 `json:"attainment_target"`
	// StaticReplicas is the smallest static fleet that reaches it, with
	// its StaticCostUSD and StaticSLOAttainment (0 replicas: none of up to
	// MaxReplicasSearched does).
	StaticReplicas      int     `json:"static_replicas"`
	StaticCostUSD       float64 `json:"static_cost_usd"`
	StaticSLOAttainment float64 `json:"static_slo_attainment"`
	// MaxReplicas is the smallest max_replicas with which the autoscaler
	// (its other settings kept) reaches it, with AutoscaledCostUSD and
	// AutoscaledSLOAttainment (0: none does).
	MaxReplicas             int     `json:"max_replicas"`
	AutoscaledCostUSD       float64 `json:"autoscaled_cost_usd"`
	AutoscaledSLOAttainment float64 `json:"autoscaled_slo_attainment"`
	// MaxReplicasSearched is the largest fleet tried.
	MaxReplicasSearched int `json:"max_replicas_searched"`
}

// FleetCheck compares the fleet model's replica with the step-by-step
// simulation of one replica at the busiest hour's load per replica.
type FleetCheck struct {
	_ noCompare
	// RequestRatePerReplica is the load simulated, in requests per
	// second; Utilization its share of the replica's capacity.
	RequestRatePerReplica float64 `json:"request_rate_per_replica"`
	Utilization           float64 `json:"utilization"`
	// ModelTTFTMs and ModelTPOTMs are the fleet model's mean latencies at
	// that load; SimulatedTTFTMs and SimulatedTPOTMs the simulation's.
	ModelTTFTMs     float64 `json:"model_ttft_ms"`
	SimulatedTTFTMs float64 `json:"simulated_ttft_ms"`
	ModelTPOTMs     float64 `json:"model_tpot_ms"`
	SimulatedTPOTMs float64 `json:"simulated_tpot_ms"`
}
