package spec

import (
	"math"
	"strconv"

	"github.com/modelrefs/throughput/calc/release"

	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/models"
	"github.com/modelrefs/throughput/sched"
)

// FieldSpec is what a request field's Go type cannot say: the range of a
// number, the values of a string, its default and its unit. The engine
// validates with it (resolve.go, simulate.go), and package calc/contract
// joins it to the Go types, so that every door (the JSON decoder, the
// JavaScript module's boundary checks and exports, OpenAPI, GET query
// parsing, the TypeScript declarations, the docs) states the same bounds.
type FieldSpec struct {
	_ noCompare
	// Min and Max bound a number when HasMin / HasMax; ExclusiveMin makes
	// the lower bound strict (a rate must be greater than 0).
	Min, Max       float64
	HasMin, HasMax bool
	ExclusiveMin   bool
	// PowerOfTwo restricts an integer to powers of two (block_size).
	PowerOfTwo bool
	// Enum lists the accepted values of a string (lower case; the engine
	// also accepts the aliases it documents, such as "bf16").
	Enum []string
	// Default is the value an omitted field takes, when it is a constant;
	// DefaultText says how it is chosen when it depends on other fields
	// ("the engine's own", "the model's max_position_embeddings").
	Default     any
	DefaultText string
	// Unit is the number's unit, for docs and labels ("tokens", "ms").
	Unit string
}

// Bounds that keep every figure finite; far beyond any real deployment.
const (
	MaxParallel    = 1024
	MaxSeqs        = 1 << 20
	MaxTokens      = 1 << 24
	MaxModelLen    = MaxTokens * 64
	MaxRate        = 1e6
	MaxLatencyMs   = 1e9
	MaxPriceUSD    = 1e6
	MaxPowerW      = 1e5
	MaxBlockTokens = 256

	// MinRate is the least request rate: one request every 11.6 days
	// (1e-6 requests/s). A real service sees far more; below it the
	// simulated clock (num_requests / rate) and the latencies it yields
	// leave float64's useful range (1e-320 gave NaN latencies, 1e-300 a
	// TTFT of 1.8e22 ms), and the answer means nothing.
	MinRate = 1e-6
)

// Dtypes are the values of dtype.
var Dtypes = []string{"auto", "bfloat16", "float16", "float32"}

// KVCacheDtypes are the values of kv_cache_dtype (vLLM's CacheDType,
// vllm/config/cache.py).
var KVCacheDtypes = []string{"auto", "fp8", "fp8_e4m3", "fp8_e5m2", "bfloat16", "float16", "float32"}

// Arrivals are the values of simulate.arrival.
var Arrivals = []string{"poisson", "closed_loop", "burst", "trace", "rate_curve"}

// Distributions are the values of a length distribution.
var Distributions = []string{"constant", "uniform", "normal", "lognormal", "exponential"}

// BlockSizes are the block_size values the engine accepts: the powers of
// two up to 256 tokens (vLLM's CacheConfig.block_size choices, 1 to 256).
func BlockSizes() []int {
	var out []int
	for b := 1; b <= MaxBlockTokens; b *= 2 {
		out = append(out, b)
	}
	return out
}

// Fields is the request contract's table: for each field ("Type.json_key",
// Type the Go type's name), what its Go type cannot say. A field of a
// request type that is not listed has no bound beyond its JSON type.
var Fields = fieldMap(fieldList[:], featureFields[:], calibrationFields[:], trafficFields[:])

// fieldList is Fields as a list: a loop over it at start-up is a fraction
// of the code a map literal of this size compiles to (the browser engine's
// size budget). Its rows are literals, not built by helper functions: the
// compiler lays out a literal as static data, while each call (the browser
// engine is built without inlining) was initialisation code: calc.init
// was 19 KB of wasm code, 5 KB with literals. An integer field is {Min: lo, Max: hi, HasMin: true, HasMax: true};
// a rate's least value is minRate; DefaultText says how a default is chosen
// when it is not a constant.
var fieldList = [...]struct {
	key  string
	spec FieldSpec
}{
	{"Request.engine", FieldSpec{Enum: release.EngineNames(), Default: release.DefaultEngine}},
	{"Request.engine_version", FieldSpec{Enum: release.AllEngineVersions(), Default: release.DefaultEngineVersion, DefaultText: "the newest vLLM release modelled (" + release.DefaultEngineVersion + "); SGLang's own under engine sglang; TensorRT-LLM's newest (" + release.TRTLLMDefaultVersion + ") under engine trtllm"}},
	{"Request.tensor_parallel_size", FieldSpec{Min: 1, Max: MaxParallel, HasMin: true, HasMax: true, Default: 1, Unit: "GPUs"}},
	{"Request.pipeline_parallel_size", FieldSpec{Min: 1, Max: MaxParallel, HasMin: true, HasMax: true, Default: 1, Unit: "GPUs"}},
	{"Request.p2p", FieldSpec{Default: true}},
	{"Request.flashinfer_sampler", FieldSpec{Default: false}},
	{"Request.dtype", FieldSpec{Enum: Dtypes, Default: "auto"}},
	{"Request.quantization", FieldSpec{Enum: models.QuantizationNames(), DefaultText: "the checkpoint's own (none for an unquantized checkpoint)"}},
	{"Request.kv_cache_dtype", FieldSpec{Enum: KVCacheDtypes, Default: "auto"}},
	{"Request.gpu_memory_utilization", FieldSpec{Min: 0, Max: 1, HasMin: true, HasMax: true, ExclusiveMin: true, DefaultText: "the engine's own (see engines); vLLM: its release's, 0.92 from 0.21, 0.9 before; SGLang: by release, GPU memory and TP", Unit: "fraction of GPU memory"}},
	{"Request.block_size", FieldSpec{Min: 1, Max: MaxBlockTokens, HasMin: true, HasMax: true, PowerOfTwo: true, Default: DefaultBlockSize, Unit: "tokens"}},
	{"Request.max_model_len", FieldSpec{Min: 1, Max: MaxModelLen, HasMin: true, HasMax: true, DefaultText: "the model's max_position_embeddings", Unit: "tokens"}},
	{"Request.max_num_seqs", FieldSpec{Min: 1, Max: MaxSeqs, HasMin: true, HasMax: true, Default: DefaultMaxNumSeqs, DefaultText: "vLLM: 1024 on a GPU of 70 GiB or more but an A100, else 256; SGLang: 2048-4096, at most half the KV pool's tokens", Unit: "sequences"}},
	{"Request.max_num_batched_tokens", FieldSpec{Min: 1, Max: MaxTokens, HasMin: true, HasMax: true, Default: DefaultMaxNumBatchedTokens, DefaultText: "vLLM: 8192 on a GPU of 70 GiB or more but an A100 (16384 from 160 GiB under 0.28 on), else 2048; SGLang: by GPU memory", Unit: "tokens"}},
	{"Request.num_scheduler_steps", FieldSpec{Min: 1, Max: sched.MaxSchedulerSteps, HasMin: true, HasMax: true, Default: 1, Unit: "steps"}},
	{"Request.gpu_hour_usd", FieldSpec{Min: 0, Max: MaxPriceUSD, HasMin: true, HasMax: true, Unit: "USD per GPU-hour"}},
	{"Request.gpu_power_w", FieldSpec{Max: MaxPowerW, HasMin: true, HasMax: true, ExclusiveMin: true, DefaultText: "the accelerator's rated power (datasheet TDP)", Unit: "W per GPU"}},
	{"Request.usd_per_kwh", FieldSpec{Min: 0, Max: MaxPriceUSD, HasMin: true, HasMax: true, Default: hardware.USDPerKWh, Unit: "USD per kWh"}},

	{"Workload.input_tokens", FieldSpec{Min: 1, Max: MaxTokens, HasMin: true, HasMax: true, Default: DefaultInputTokens, Unit: "tokens"}},
	{"Workload.output_tokens", FieldSpec{Min: 1, Max: MaxTokens, HasMin: true, HasMax: true, Default: DefaultOutputTokens, Unit: "tokens"}},
	{"Workload.concurrency", FieldSpec{Min: 1, Max: MaxSeqs, HasMin: true, HasMax: true, Unit: "requests in flight"}},
	{"Workload.request_rate", FieldSpec{Min: MinRate, Max: MaxRate, HasMin: true, HasMax: true, Unit: "requests/s"}},

	{"SessionWorkload.turns", FieldSpec{Min: 1, Max: MaxSessionTurns, HasMin: true, HasMax: true, Default: DefaultSessionTurns, Unit: "turns"}},
	{"SessionWorkload.new_tokens", FieldSpec{Min: 0, Max: MaxTokens, HasMin: true, HasMax: true, Default: DefaultSessionNewTokens, Unit: "tokens"}},
	{"SessionWorkload.think_time_s", FieldSpec{Min: 0, Max: MaxThinkTimeS, HasMin: true, HasMax: true, Default: float64(DefaultThinkTimeS), Unit: "s"}},
	{"SessionWorkload.think_distribution", FieldSpec{Enum: ThinkDistributions, Default: "exponential"}},
	{"SessionWorkload.session_rate", FieldSpec{Min: MinRate, Max: MaxRate, HasMin: true, HasMax: true, Unit: "sessions/s"}},
	{"SessionWorkload.users", FieldSpec{Min: 1, Max: MaxSimulatedRequests, HasMin: true, HasMax: true, Unit: "users"}},
	{"SessionWorkload.replicas", FieldSpec{Min: 1, Max: MaxSessionReplicas, HasMin: true, HasMax: true, Default: 1, Unit: "replicas"}},
	{"SessionWorkload.routing", FieldSpec{Enum: SessionRoutings, Default: "session_affine"}},

	{"SLO.ttft_ms", FieldSpec{Max: MaxLatencyMs, HasMin: true, HasMax: true, ExclusiveMin: true, Unit: "ms"}},
	{"SLO.tpot_ms", FieldSpec{Max: MaxLatencyMs, HasMin: true, HasMax: true, ExclusiveMin: true, Unit: "ms"}},

	{"SweepOptions.points", FieldSpec{Min: 2, Max: MaxSweepPoints, HasMin: true, HasMax: true, Default: DefaultSweepPoints, Unit: "batch sizes"}},
	{"SweepOptions.max_batch_size", FieldSpec{Min: 1, Max: MaxSeqs, HasMin: true, HasMax: true, DefaultText: "the larger of the batch ceiling and max_num_seqs", Unit: "sequences"}},

	{"SimulateOptions.num_requests", FieldSpec{Min: 1, Max: MaxSimulatedRequests, HasMin: true, HasMax: true, Default: DefaultSimulatedRequests, Unit: "requests"}},
	{"SimulateOptions.seed", FieldSpec{Min: 0, Max: MaxSeed, HasMin: true, HasMax: true, Default: 0}},
	{"SimulateOptions.arrival", FieldSpec{Enum: Arrivals, DefaultText: "poisson when workload.request_rate is given, closed_loop when workload.concurrency is, else burst"}},
	{"SimulateOptions.request_rate", FieldSpec{Min: MinRate, Max: MaxRate, HasMin: true, HasMax: true, DefaultText: "workload.request_rate", Unit: "requests/s"}},
	{"SimulateOptions.concurrency", FieldSpec{Min: 1, Max: MaxSimulatedRequests, HasMin: true, HasMax: true, DefaultText: "workload.concurrency", Unit: "users"}},
	{"SimulateOptions.timeline_points", FieldSpec{Max: MaxTimelinePoints, HasMin: true, HasMax: true, Default: DefaultTimelinePoints, Unit: "points"}},

	{"LengthDistribution.distribution", FieldSpec{Enum: Distributions}},
	{"LengthDistribution.mean", FieldSpec{Max: MaxTokens, HasMin: true, HasMax: true, ExclusiveMin: true, DefaultText: "the workload's length", Unit: "tokens"}},
	{"LengthDistribution.std", FieldSpec{Min: 0, Max: MaxTokens, HasMin: true, HasMax: true, Unit: "tokens"}},
	{"LengthDistribution.min", FieldSpec{Min: 1, Max: MaxModelLen, HasMin: true, HasMax: true, Default: 1, Unit: "tokens"}},
	{"LengthDistribution.max", FieldSpec{Min: 1, Max: MaxModelLen, HasMin: true, HasMax: true, DefaultText: "max_model_len - 1", Unit: "tokens"}},

	{"SimSweepOptions.points", FieldSpec{Min: 2, Max: MaxSimSweepPoints, HasMin: true, HasMax: true, Default: DefaultSimSweepPoints, Unit: "loads"}},
	{"SimSweepOptions.num_requests", FieldSpec{Min: 1, Max: MaxSimulatedRequests, HasMin: true, HasMax: true, DefaultText: "the smaller of 1000 and simulate.num_requests, lowered to fit the work budget", Unit: "requests"}},
	{"SimSweepOptions.request_rates", FieldSpec{Min: MinRate, Max: MaxRate, HasMin: true, HasMax: true, Unit: "requests/s"}},
	{"SimSweepOptions.concurrencies", FieldSpec{Min: 1, Max: MaxSimulatedRequests, HasMin: true, HasMax: true, Unit: "users"}},

	{"PlanRequest.limit", FieldSpec{Min: 1, Max: MaxPlanLimit, HasMin: true, HasMax: true, Default: DefaultPlanLimit, Unit: "deployments"}},
	{"PlanWorkload.input_tokens", FieldSpec{Min: 1, Max: MaxTokens, HasMin: true, HasMax: true, Default: DefaultInputTokens, Unit: "tokens"}},
	{"PlanWorkload.output_tokens", FieldSpec{Min: 1, Max: MaxTokens, HasMin: true, HasMax: true, Default: DefaultOutputTokens, Unit: "tokens"}},
	{"PlanWorkload.concurrency", FieldSpec{Min: 1, Max: MaxSeqs, HasMin: true, HasMax: true, Unit: "users"}},
	{"PlanWorkload.burst", FieldSpec{Min: 1, Max: MaxSeqs, HasMin: true, HasMax: true, Unit: "requests"}},
	{"PlanWorkload.request_rate", FieldSpec{Min: MinRate, Max: MaxRate, HasMin: true, HasMax: true, Unit: "requests/s"}},
	{"PlanSLO.ttft_ms", FieldSpec{Max: MaxLatencyMs, HasMin: true, HasMax: true, ExclusiveMin: true, Unit: "ms"}},
	{"PlanSLO.tpot_ms", FieldSpec{Max: MaxLatencyMs, HasMin: true, HasMax: true, ExclusiveMin: true, Unit: "ms"}},
	{"PlanSLO.ttft_stat", FieldSpec{Enum: PlanStats, Default: "mean"}},
	{"PlanSLO.tpot_stat", FieldSpec{Enum: PlanStats, Default: "mean"}},
	{"PlanConstraints.engines", FieldSpec{Enum: release.EngineNames(), DefaultText: "vllm and sglang"}},
	{"PlanConstraints.max_gpus", FieldSpec{Min: 1, Max: MaxParallel, HasMin: true, HasMax: true, Unit: "GPUs"}},
	{"PlanConstraints.num_gpus", FieldSpec{Min: 1, Max: MaxParallel, HasMin: true, HasMax: true, Unit: "GPUs"}},
	{"PlanConstraints.max_power_kw", FieldSpec{Max: MaxPowerW, HasMin: true, HasMax: true, ExclusiveMin: true, Unit: "kW"}},
	{"PlanConstraints.accelerators", FieldSpec{DefaultText: "every accelerator in the catalog"}},
	{"PlanConstraints.prices", FieldSpec{DefaultText: "the default price table (hardware/prices.go)", Unit: "USD per GPU-hour"}},
	{"PlanSearch.gpus_per_replica", FieldSpec{Min: 1, Max: 8, HasMin: true, HasMax: true, PowerOfTwo: true, DefaultText: "1, 2, 4, 8", Unit: "GPUs"}},
	{"PlanSearch.precisions", FieldSpec{Enum: PlanPrecisions, DefaultText: "all, each where the chip and engine run it"}},
	{"PlanSearch.kv_cache_dtypes", FieldSpec{Enum: PlanKVDtypes, DefaultText: "auto, fp8"}},
	{"PlanSearch.max_num_seqs", FieldSpec{Min: 1, Max: MaxSeqs, HasMin: true, HasMax: true, DefaultText: "128, 512", Unit: "sequences"}},
	{"PlanSearch.max_num_batched_tokens", FieldSpec{Min: 1, Max: MaxTokens, HasMin: true, HasMax: true, DefaultText: "8192", Unit: "tokens"}},
	{"PlanSearch.disaggregated", FieldSpec{Default: true}},
	{"PlanSearch.expert_parallel", FieldSpec{Default: true}},
	{"PlanWorkload.shared_prefix_tokens", FieldSpec{Max: MaxTokens, HasMin: true, HasMax: true, Default: 0, Unit: "tokens"}},
	{"PlanWorkload.num_prefixes", FieldSpec{Min: 1, Max: MaxSeqs, HasMin: true, HasMax: true, Default: 1, Unit: "prefixes"}},
	{"PlanWorkload.prefix_hit_rate", FieldSpec{Min: 0, Max: 1, HasMin: true, HasMax: true, Unit: "fraction of prompt tokens"}},
	{"PlanVerify.top", FieldSpec{Min: 0, Max: MaxVerifyTop, HasMin: true, HasMax: true, Default: DefaultVerifyTop, Unit: "deployments"}},
	{"PlanVerify.num_requests", FieldSpec{Min: 1, Max: MaxSimulatedRequests, HasMin: true, HasMax: true, Default: DefaultVerifyRequests, Unit: "requests"}},
	{"PlanVerify.seed", FieldSpec{Min: 0, Max: MaxSeed, HasMin: true, HasMax: true, Default: 0}},

	// A custom accelerator's figures: hardware.Accelerator.Problems
	// validates them (hardware/validate.go gives the reasons); these entries
	// state the same bounds for OpenAPI and the JavaScript exports. A
	// figure that may be 0 ("not given": memory_reported_bytes, the other
	// precisions, the link) states only its upper bound here.
	{"HardwareAccelerator.memory_bytes", FieldSpec{Min: hardware.MinMemoryBytes, Max: float64(int(hardware.MaxMemoryBytes)), HasMin: true, HasMax: true, Unit: "bytes"}},
	{"HardwareAccelerator.memory_bandwidth_bytes_per_s", FieldSpec{Min: hardware.MinMemoryBandwidth, Max: hardware.MaxRate, HasMin: true, HasMax: true, Unit: "bytes/s"}},
	{"HardwarePeakFLOPS.bf16", FieldSpec{Min: hardware.MinPeakFLOPS, Max: hardware.MaxRate, HasMin: true, HasMax: true, Unit: "FLOP/s"}},
	{"HardwarePeakFLOPS.fp32", FieldSpec{Max: hardware.MaxRate, HasMin: true, HasMax: true, Unit: "FLOP/s"}},
	{"HardwarePeakFLOPS.tf32", FieldSpec{Max: hardware.MaxRate, HasMin: true, HasMax: true, Unit: "FLOP/s"}},
	{"HardwarePeakFLOPS.fp8", FieldSpec{Max: hardware.MaxRate, HasMin: true, HasMax: true, Unit: "FLOP/s"}},
	{"HardwarePeakFLOPS.int8", FieldSpec{Max: hardware.MaxRate, HasMin: true, HasMax: true, Unit: "FLOP/s"}},
	{"HardwarePeakFLOPS.fp4", FieldSpec{Max: hardware.MaxRate, HasMin: true, HasMax: true, Unit: "FLOP/s"}},
	{"HardwareInterconnect.bandwidth_bytes_per_s", FieldSpec{Max: hardware.MaxRate, HasMin: true, HasMax: true, Unit: "bytes/s"}},
	{"HardwareInterconnect.latency_s", FieldSpec{Max: hardware.MaxInterconnectLatency, HasMin: true, HasMax: true, Unit: "s"}},
}

func fieldMap(lists ...[]struct {
	key  string
	spec FieldSpec
}) map[string]FieldSpec {
	m := map[string]FieldSpec{}
	for _, list := range lists {
		for _, e := range list {
			m[e.key] = e.spec
		}
	}
	return m
}

// Field returns the table entry for key, which must exist: a missing entry
// is a programming error caught by every test that resolves a request.
func Field(key string) FieldSpec {
	s, ok := Fields[key]
	if !ok {
		panic("calc: no field spec " + key)
	}
	return s
}

// IntAt validates an optional integer at path against the table entry key:
// nil gives def; otherwise it must lie in the spec's bounds.
func (e *Errs) IntAt(path, key string, v *int, def int) int {
	if v == nil {
		return def
	}
	s := Field(key)
	x := *v
	switch {
	case s.HasMin && float64(x) < s.Min:
		e.Add(path, "must be at least "+fielderr.Number(s.Min)+", got "+strconv.Itoa(x))
	case s.HasMax && float64(x) > s.Max:
		e.Add(path, "must be at most "+fielderr.Number(s.Max)+", got "+strconv.Itoa(x))
	case s.PowerOfTwo && x&(x-1) != 0:
		e.Add(path, "must be a power of two ("+joinInts(BlockSizes())+"), got "+strconv.Itoa(x))
	default:
		return x
	}
	return def
}

// FloatAt validates an optional number at path against the table entry
// key: nil gives def; otherwise it must be finite and in the spec's bounds.
func (e *Errs) FloatAt(path, key string, v *float64, def float64) float64 {
	if v == nil {
		return def
	}
	s := Field(key)
	x := *v
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		e.Add(path, "must be a finite number")
	case s.HasMin && s.ExclusiveMin && x <= s.Min:
		e.Add(path, "must be greater than "+fielderr.Number(s.Min)+", got "+fielderr.Number(x))
	case s.HasMin && !s.ExclusiveMin && x < s.Min:
		e.Add(path, "must be at least "+fielderr.Number(s.Min)+s.unitText()+", got "+fielderr.Number(x))
	case s.HasMax && x > s.Max:
		e.Add(path, "must be at most "+fielderr.Number(s.Max)+s.unitText()+", got "+fielderr.Number(x))
	default:
		return x
	}
	return def
}

// unitText is " " and the unit of a rate, for a bound's message
// ("must be at least 1e-06 requests/s"); other fields' messages keep their
// bare numbers.
func (s FieldSpec) unitText() string {
	if s.Unit == "requests/s" {
		return " " + s.Unit
	}
	return ""
}

// DefaultInt is the table's constant default of key.
func DefaultInt(key string) int { return Field(key).Default.(int) }

func joinInts(xs []int) string {
	var b []byte
	for i, x := range xs {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return string(b)
}
