package spec

import "github.com/modelrefs/throughput/sched"

// Simulation defaults and bounds.
const (
	// DefaultSimulatedRequests is the number of requests a simulation
	// runs when simulate.num_requests is not given.
	DefaultSimulatedRequests = 1000
	// MaxSimulatedRequests bounds simulate.num_requests.
	MaxSimulatedRequests = sched.MaxRequests
	// DefaultTimelinePoints is the timeline's size cap, chart-sized.
	DefaultTimelinePoints = 200
	// MaxTimelinePoints bounds simulate.timeline_points.
	MaxTimelinePoints = 2000
	// DefaultSimSweepPoints is the number of loads a simulated sweep runs.
	DefaultSimSweepPoints = 8
	// MaxSimSweepPoints bounds simulate.sweep.points.
	MaxSimSweepPoints = 32
	// DefaultSimSweepRequests is the requests per sweep point (at most
	// simulate.num_requests).
	DefaultSimSweepRequests = 1000
	// MaxSeed keeps seeds exact in JavaScript numbers (2^53).
	MaxSeed = 1 << 53
	// MaxSimSteps stops a simulation that would take seconds of CPU.
	MaxSimSteps = 1 << 25
)

// SimulateOptions asks for a step-by-step simulation of one serving
// instance under a workload (the report's simulation section).
type SimulateOptions struct {
	_ noCompare
	// NumRequests is the number of requests simulated (default 1000, at
	// most 100,000).
	NumRequests *int `json:"num_requests,omitempty"`
	// Seed makes the workload reproducible (default 0, at most 2^53).
	Seed *int64 `json:"seed,omitempty"`
	// Arrival is "poisson" (at request_rate), "closed_loop" (concurrency
	// users, each sending its next request when the last one finishes),
	// "burst" (every request at time zero), "trace" (simulate.trace's
	// arrivals) or "rate_curve" (simulate.rate_curve's). Default: trace or
	// rate_curve when given, poisson when workload.request_rate is given,
	// closed_loop when workload.concurrency is, else burst.
	Arrival string `json:"arrival,omitempty"`
	// RequestRate is the Poisson arrival rate in requests per second
	// (default workload.request_rate).
	RequestRate *float64 `json:"request_rate,omitempty"`
	// Concurrency is the number of closed-loop users (default
	// workload.concurrency).
	Concurrency *int `json:"concurrency,omitempty"`
	// InputTokens and OutputTokens are the length distributions (default:
	// constant workload.input_tokens and workload.output_tokens).
	InputTokens  *LengthDistribution `json:"input_tokens,omitempty"`
	OutputTokens *LengthDistribution `json:"output_tokens,omitempty"`
	// TimelinePoints caps the timeline (default 200; 0 omits it).
	TimelinePoints *int `json:"timeline_points,omitempty"`
	// Sweep runs the simulation over a range of loads.
	Sweep *SimSweepOptions `json:"sweep,omitempty"`
	// Trace replays a request trace (arrival "trace"), RateCurve draws
	// arrivals from a rate that varies in time (arrival "rate_curve"),
	// and Autoscale runs a fleet under either (traffic.go).
	Trace     *TraceOptions     `json:"trace,omitempty"`
	RateCurve *RateCurve        `json:"rate_curve,omitempty"`
	Autoscale *AutoscaleOptions `json:"autoscale,omitempty"`
}

// LengthDistribution is a distribution of token lengths. Samples are
// rounded to whole tokens and clamped to [min, max]; input + output is
// clamped to max_model_len.
type LengthDistribution struct {
	_ noCompare
	// Distribution is "constant" (mean), "uniform" (min and max), "normal"
	// (mean and std), "lognormal" (mean and std of the length itself) or
	// "exponential" (mean).
	Distribution string `json:"distribution"`
	// Mean is the mean length in tokens (default: the workload's length).
	Mean *float64 `json:"mean,omitempty"`
	// Std is the standard deviation in tokens (normal, lognormal).
	Std *float64 `json:"std,omitempty"`
	// Min and Max bound the samples in tokens (default 1 and
	// max_model_len - 1).
	Min *int `json:"min,omitempty"`
	Max *int `json:"max,omitempty"`
}

// SimSweepOptions runs the simulation at several loads: request rates
// for Poisson arrivals, closed-loop users otherwise.
type SimSweepOptions struct {
	_ noCompare
	// Points is the number of loads (default 8, 2 to 32), spread evenly
	// up to twice the analytic preemption onset (or, where the scheduler's
	// cap binds first, twice the load that fills it).
	Points *int `json:"points,omitempty"`
	// NumRequests is the requests per point (default the smaller of 1000
	// and simulate.num_requests).
	NumRequests *int `json:"num_requests,omitempty"`
	// RequestRates or Concurrencies give the loads explicitly instead.
	RequestRates  []float64 `json:"request_rates,omitempty"`
	Concurrencies []int     `json:"concurrencies,omitempty"`
}
