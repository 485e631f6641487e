// Type declarations for @modelrefs/throughput. They mirror, field for field,
// the engine's JSON contract: calc/request.go (Request), calc/report.go
// (Report), calc/errors.go (FieldError), hardware/hardware.go (Accelerator)
// and the bridge's summaries (wasm/js/api.go). Sizes are bytes, times
// milliseconds unless the name says seconds (_s), rates per second.

/** One problem with one input field. field is a JSON path or "". */
export interface FieldError {
  field: string;
  message: string;
}

/** Thrown for invalid input: errors lists every problem found. */
export class ThroughputError extends Error {
  constructor(errors: FieldError[]);
  readonly name: 'ThroughputError';
  readonly errors: FieldError[];
}

// ---- request ------------------------------------------------------------

/** One capacity question (calc.Request). Exactly one of model and model_config. */
export interface Request {
  /** Catalog id (Hugging Face id, case-insensitive) or alias. */
  model?: string;
  /** A Hugging Face config.json object, as published. */
  model_config?: ModelConfig;
  /** Catalog id ("h100-sxm") or a custom accelerator's figures. */
  hardware: HardwareRef;
  /** "vllm" (default), "sglang", "lmdeploy", "trtllm" or "llamacpp". */
  engine?: string;
  tensor_parallel_size?: number;
  pipeline_parallel_size?: number;
  /** "auto", "bfloat16", "float16" or "float32". */
  dtype?: string;
  /** Online weight quantization ("fp8", "int8", "awq", GGUF "q4_k_m", ...). */
  quantization?: string;
  /** "auto", "fp8", "fp8_e4m3", "fp8_e5m2", "bfloat16", "float16", "float32". */
  kv_cache_dtype?: string;
  gpu_memory_utilization?: number;
  /** Tokens per KV block (a power of two). */
  block_size?: number;
  max_model_len?: number;
  max_num_seqs?: number;
  max_num_batched_tokens?: number;
  workload?: Workload;
  slo?: SLO;
  /** Price of one GPU-hour in US dollars; the cost section needs it. */
  gpu_hour_usd?: number;
  sweep?: SweepOptions;
  /** Asks for a step-by-step simulation of the workload. */
  simulate?: SimulateOptions;
}

/** A config.json object: any JSON object. */
export type ModelConfig = { [key: string]: JSONValue };
export type JSONValue = string | number | boolean | null | JSONValue[] | { [key: string]: JSONValue };

/** The traffic (calc.Workload). At most one of concurrency and request_rate. */
export interface Workload {
  /** Prompt tokens per request (default 1024). */
  input_tokens?: number;
  /** Output tokens per request (default 256). */
  output_tokens?: number;
  /** Requests in flight (closed loop). */
  concurrency?: number;
  /** Arrival rate in requests per second (open loop). */
  request_rate?: number;
}

/** A latency budget (calc.SLO), in milliseconds. */
export interface SLO {
  ttft_ms?: number;
  tpot_ms?: number;
}

/** The batch-size sweep (calc.SweepOptions). */
export interface SweepOptions {
  /** Number of batch sizes (default 64, at most 1024). */
  points?: number;
  max_batch_size?: number;
}

/** The step-by-step simulation (calc.SimulateOptions). */
export interface SimulateOptions {
  /** Requests simulated (default 1000, at most 100,000). */
  num_requests?: number;
  /** Makes the workload reproducible (default 0, at most 2^53). */
  seed?: number;
  /** "poisson", "closed_loop" or "burst". */
  arrival?: string;
  /** Poisson arrival rate in requests per second. */
  request_rate?: number;
  /** Closed-loop users. */
  concurrency?: number;
  input_tokens?: LengthDistribution;
  output_tokens?: LengthDistribution;
  /** Caps the timeline (default 200; 0 omits it). */
  timeline_points?: number;
  sweep?: SimSweepOptions;
}

/** A distribution of token lengths (calc.LengthDistribution). */
export interface LengthDistribution {
  /** "constant", "uniform", "normal", "lognormal" or "exponential". */
  distribution: string;
  mean?: number;
  std?: number;
  min?: number;
  max?: number;
}

/** The simulation over several loads (calc.SimSweepOptions). */
export interface SimSweepOptions {
  points?: number;
  num_requests?: number;
  request_rates?: number[];
  concurrencies?: number[];
}

/** A catalog id or a custom accelerator (calc.HardwareRef). */
export type HardwareRef = string | Accelerator;

/** One accelerator (hardware.Accelerator). */
export interface Accelerator {
  id?: string;
  name?: string;
  vendor?: string;
  aliases?: string[];
  /** Nominal memory capacity in bytes. */
  memory_bytes: number;
  /** Total the driver reports, in bytes (0 or absent: estimated). */
  memory_reported_bytes?: number;
  memory_bandwidth_bytes_per_s: number;
  peak_flops: PeakFLOPS;
  interconnect?: Interconnect;
  sources?: HardwareSource[];
}

/** Dense peak per precision in operations per second (0: not native). */
export interface PeakFLOPS {
  fp32?: number;
  tf32?: number;
  bf16: number;
  fp8?: number;
  int8?: number;
  fp4?: number;
}

/** The tensor-parallel link (hardware.Interconnect). */
export interface Interconnect {
  name?: string;
  /** Unidirectional bandwidth per GPU, bytes per second. */
  bandwidth_bytes_per_s?: number;
  /** Latency of one small all-reduce step, seconds. */
  latency_s?: number;
}

/** Where figures come from (hardware.Source). */
export interface HardwareSource {
  fields: string[];
  citation: string;
}

/** A catalog accelerator as hardware() and hardwareSpec() return it. */
export interface CatalogAccelerator extends Accelerator {
  id: string;
  name: string;
  vendor: string;
  peak_flops: Required<PeakFLOPS>;
  interconnect: Required<Interconnect>;
}

// ---- report -------------------------------------------------------------

/** The answer to a Request (calc.Report). */
export interface Report {
  version: string;
  fits: boolean;
  model: ModelInfo;
  hardware: HardwareInfo;
  config: Config;
  memory: MemoryReport;
  kv_cache: KVCacheReport;
  decode?: DecodeReport;
  prefill?: PrefillReport;
  batch_ceiling: BatchCeiling;
  preemption?: PreemptionReport;
  best?: BestReport;
  sweep?: SweepPoint[];
  cost?: CostReport;
  simulation?: SimulationReport;
  warnings: Warning[];
}

export interface Warning {
  code: string;
  message: string;
}

export interface ModelInfo {
  id: string;
  name: string;
  /** "dense", "moe", "mla", "moe+mla", "hybrid", "hybrid+moe", each maybe "+sliding_window". */
  architecture: string;
  num_hidden_layers: number;
  params_total: number;
  params_active_per_token: number;
  weight_format: string;
  quantization: string;
  bits_per_quantized_weight?: number;
  max_position_embeddings: number;
}

export interface HardwareInfo {
  id: string;
  name: string;
  memory_bytes: number;
  memory_reported_bytes: number;
  memory_bandwidth_bytes_per_s: number;
  peak_flops_per_s: number;
  compute_precision: string;
}

export interface Config {
  engine: string;
  tensor_parallel_size: number;
  pipeline_parallel_size: number;
  num_gpus: number;
  dtype: string;
  kv_cache_dtype: string;
  gpu_memory_utilization: number;
  block_size: number;
  max_model_len: number;
  max_num_seqs: number;
  max_num_batched_tokens: number;
  input_tokens: number;
  output_tokens: number;
  concurrency?: number;
  request_rate?: number;
  efficiencies: Efficiencies;
}

export interface Efficiencies {
  bandwidth_efficiency: number;
  compute_efficiency: number;
  prefill_efficiency: number;
  step_overhead_ms: number;
}

export interface MemoryReport {
  total_bytes: number;
  requested_bytes: number;
  weights_bytes: number;
  activation_bytes: number;
  non_torch_bytes: number;
  kv_cache_bytes: number;
}

export interface KVCacheReport {
  bytes_per_token: number;
  bytes_per_token_per_gpu: number;
  state_bytes_per_sequence?: number;
  block_size: number;
  num_blocks: number;
  capacity_tokens: number;
  max_concurrency: number;
  max_model_len: number;
  groups: KVGroup[];
}

export interface KVGroup {
  /** "full_attention", "sliding_attention", "mla", "state", ... */
  kind: string;
  layers: number;
  window?: number;
}

export interface DecodeReport {
  batch_size: number;
  context_tokens: number;
  step_time_ms: number;
  tokens_per_s: number;
  tokens_per_s_per_sequence: number;
  /** "memory" or "compute". */
  bound: string;
  memory_time_ms: number;
  compute_time_ms: number;
  communication_time_ms: number;
  overhead_ms: number;
  weights_read_bytes: number;
  kv_read_bytes: number;
  flops: number;
  kv_cache_usage: number;
}

export interface PrefillReport {
  input_tokens: number;
  time_ms: number;
  ttft_ms: number;
  tokens_per_s: number;
  bound: string;
  chunks: number;
}

export interface BatchCeiling {
  batch_size: number;
  context_tokens: number;
  /** "kv_cache", "max_num_seqs", "max_num_batched_tokens", "latency_budget" or "weights_do_not_fit". */
  limited_by: string;
  step_time_ms: number;
  tokens_per_s: number;
  tokens_per_s_per_sequence: number;
}

export interface PreemptionReport {
  onset_concurrency: number;
  onset_concurrency_lockstep: number;
  reachable: boolean;
  onset_request_rate: number;
  /** Serving rate at the onset concurrency: arrivals above it queue. */
  saturation_request_rate: number;
  recompute_overhead: number;
  work_per_output_token: number;
  context_tokens: number;
  concurrency: number;
}

export interface BestReport {
  batch_size: number;
  context_tokens: number;
  step_time_ms: number;
  ttft_ms: number;
  tokens_per_s: number;
  tokens_per_s_per_sequence: number;
  /** "tpot", "ttft" or the batch ceiling's reason. */
  limited_by: string;
  feasible: boolean;
}

export interface SweepPoint {
  batch_size: number;
  context_tokens: number;
  step_time_ms: number;
  tokens_per_s: number;
  tokens_per_s_per_sequence: number;
  kv_cache_usage: number;
  bound: string;
}

export interface CostReport {
  gpu_hour_usd: number;
  num_gpus: number;
  usd_per_million_output_tokens: number;
  batch_size: number;
  context_tokens: number;
  tokens_per_s: number;
}

/** The step-by-step simulation (calc.SimulationReport). */
export interface SimulationReport {
  /** "poisson", "closed_loop" or "burst". */
  arrival: string;
  request_rate?: number;
  concurrency?: number;
  seed: number;
  num_requests: number;
  completed_requests: number;
  rejected_requests: number;
  truncated?: boolean;
  duration_s: number;
  steps: number;
  mean_input_tokens: number;
  mean_output_tokens: number;
  ttft_ms: LatencySummary;
  tpot_ms: LatencySummary;
  e2e_latency_ms: LatencySummary;
  requests_per_s: number;
  output_tokens_per_s: number;
  total_tokens_per_s: number;
  goodput_requests_per_s: number;
  slo_attainment: number;
  preemptions: number;
  preempted_requests: number;
  recomputed_tokens: number;
  recompute_overhead: number;
  work_per_output_token: number;
  first_preemption_s: number;
  running_at_first_preemption: number;
  mean_running: number;
  mean_waiting: number;
  mean_kv_cache_usage: number;
  peak_kv_cache_usage: number;
  timeline?: SimTimelinePoint[];
  sweep?: SimulationSweep;
}

/** A latency distribution in milliseconds (calc.LatencySummary). */
export interface LatencySummary {
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface SimTimelinePoint {
  time_s: number;
  duration_s: number;
  running: number;
  waiting: number;
  kv_cache_usage: number;
}

export interface SimulationSweep {
  /** "request_rate" or "concurrency". */
  load: string;
  num_requests_per_point: number;
  points: SimSweepPoint[];
  preemption_onset: number;
  running_at_onset: number;
  analytic_onset: number;
  onset_difference: number;
  onset_ratio: number;
  knee_load: number;
  knee_output_tokens_per_s: number;
  max_output_tokens_per_s: number;
}

export interface SimSweepPoint {
  load: number;
  output_tokens_per_s: number;
  requests_per_s: number;
  goodput_requests_per_s: number;
  ttft_p50_ms: number;
  ttft_p99_ms: number;
  tpot_p50_ms: number;
  tpot_p99_ms: number;
  e2e_latency_p50_ms: number;
  e2e_latency_p99_ms: number;
  mean_running: number;
  preemptions: number;
  work_per_output_token: number;
}

// ---- models -------------------------------------------------------------

/** A model without a deployment (one GPU, tensor_parallel_size 1). */
export interface ModelSummary extends ModelInfo {
  family?: string;
  aliases?: string[];
  /** One token's KV cache over all layers at the model dtype, bytes. */
  kv_bytes_per_token: number;
  /** The same with kv_cache_dtype "fp8", bytes. */
  kv_bytes_per_token_fp8: number;
  /** Mamba/linear-attention state per sequence, bytes. */
  state_bytes_per_sequence?: number;
  kv_groups: KVGroup[];
}

/** One model in full: model(id) and importConfig(config). */
export interface ModelDetail extends ModelSummary {
  shape: ModelShape;
  /** Catalog models: where the config came from. */
  source?: ModelSource;
  /** Catalog models: the config.json. */
  config?: ModelConfig;
}

/** The architecture the engine derived (models.Model). */
export interface ModelShape {
  id: string;
  name: string;
  model_type: string;
  hidden_size: number;
  num_hidden_layers: number;
  num_attention_heads: number;
  num_key_value_heads: number;
  head_dim: number;
  v_head_dim: number;
  vocab_size: number;
  intermediate_size: number;
  gated_mlp: boolean;
  tie_word_embeddings: boolean;
  max_position_embeddings: number;
  dtype: string;
  num_experts?: number;
  num_experts_per_tok?: number;
  moe_intermediate_size?: number;
  shared_expert_intermediate_size?: number;
  dense_intermediate_size?: number;
  q_lora_rank?: number;
  kv_lora_rank?: number;
  qk_nope_head_dim?: number;
  qk_rope_head_dim?: number;
  quantization: Quantization;
  params: Params;
}

/** Weight quantization (models.Quantization). */
export interface Quantization {
  method: string;
  weight_format?: string;
  bits_per_weight?: number;
  experts_only?: boolean;
  all_weights?: boolean;
  activation_format?: string;
}

/** Parameter counts by component (models.Params). */
export interface Params {
  embedding: number;
  lm_head: number;
  attention: number;
  mixer: number;
  dense_mlp: number;
  routed_experts: number;
  shared_experts: number;
  router: number;
  norms: number;
  vision: number;
  params_per_expert: number;
  total: number;
  active_per_token: number;
}

export interface ModelSource {
  repo?: string;
  path?: string;
  commit?: string;
  url?: string;
}

// ---- the calculator -----------------------------------------------------

/** Memory of one instance, in bytes (Go's runtime.ReadMemStats and the wasm memory). */
export interface Stats {
  heap_alloc_bytes: number;
  heap_sys_bytes: number;
  heap_objects: number;
  sys_bytes: number;
  total_alloc_bytes: number;
  num_gc: number;
  wasm_memory_bytes: number;
  /** JavaScript values the Go side holds references to (a count, not bytes). */
  js_refs: number;
}

export interface LoadOptions {
  /**
   * The engine: a URL or string (fetched; file: URLs are read from disk in
   * Node.js), a Response or a promise of one, the .wasm bytes, or a compiled
   * WebAssembly.Module. Default: throughput.wasm next to throughput.js.
   */
  wasm?: string | URL | Response | PromiseLike<Response> | ArrayBuffer | ArrayBufferView | WebAssembly.Module;
}

/** One engine instance. Every method is synchronous. */
export interface Calculator {
  /** The engine version (calc.Version). */
  readonly version: string;
  readonly closed: boolean;
  /** Resolves when the Go program has ended (after close()). */
  readonly exited: Promise<void>;
  /** Throws ThroughputError for invalid requests. */
  evaluate(request: Request): Report;
  /** JSON text in, JSON text out (no boundary checks beyond the engine's). */
  evaluateJSON(json: string): string;
  models(): ModelSummary[];
  /** Throws ThroughputError (field "model") for an unknown id. */
  model(id: string): ModelDetail;
  hardware(): CatalogAccelerator[];
  /** Throws ThroughputError (field "hardware") for an unknown or ambiguous name. */
  hardwareSpec(id: string): CatalogAccelerator;
  /** Throws ThroughputError (fields "model_config.*") for an unusable config. */
  importConfig(config: ModelConfig): ModelDetail;
  stats(options?: { gc?: boolean }): Stats;
  /** Parses the model catalog now; load() already calls it. */
  warm(): void;
  /** Test-only: panics inside Go; always throws ThroughputError "internal error: ...". */
  __panic(): never;
  /** Releases every Go function of this instance and ends its Go program. */
  close(): void;
}

export function load(options?: LoadOptions): Promise<Calculator>;
