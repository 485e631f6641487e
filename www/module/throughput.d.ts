// Type declarations for @modelrefs/throughput: the module's API. The JSON
// shapes it takes and returns (Request, Report, the catalog answers, the
// engine's tables) are generated from the Go types into contract.d.ts
// (go generate ./wasm/js, tools/gen/dts); this file is written by hand.

import type {
  JSONValue, FieldError, Request, Workload, SLO, SweepOptions, SimulateOptions, LengthDistribution, SimSweepOptions,
  HardwareAccelerator, HardwarePeakFLOPS, HardwareInterconnect, HardwareSource,
  Report, Warning, ModelInfo, HardwareInfo, Config, Efficiencies, MemoryReport, KVCacheReport, KVGroup, DecodeReport,
  PrefillReport, BatchCeiling, PreemptionReport, BestReport, SweepPoint, CostReport, SimulationReport, LatencySummary,
  SimTimelinePoint, SimulationSweep, SimSweepPoint,
  TraceOptions, RateCurve, AutoscaleOptions, TrafficReport, TrafficInterval, FleetReport, FleetOutcome, FleetHour,
  FleetInterval, FleetCheck, FleetSizing,
  ModelSummary, ModelDetail, ModelsModel, ModelsQuantization, ModelsParams, ModelsSource,
  Stats as GoStats, Contract, EngineProfile, EngineDefaults, FieldBounds, ModelID, HardwareID, Fix,
  PlanRequest, PlanWorkload, PlanSLO, PlanConstraints, PlanSearch, PlanVerify,
  PlanReport, PlanDeployment, PlanSimulated, PlanPoint, PlanRejection,
  Calibration, BenchmarkImport, CalibrationReport, CalibrationProfile, CalibrationServingPoint,
} from './contract.js';

export type {
  JSONValue, FieldError, Request, Workload, SLO, SweepOptions, SimulateOptions, LengthDistribution, SimSweepOptions,
  HardwareAccelerator, HardwarePeakFLOPS, HardwareInterconnect, HardwareSource,
  Report, Warning, ModelInfo, HardwareInfo, Config, Efficiencies, MemoryReport, KVCacheReport, KVGroup, DecodeReport,
  PrefillReport, BatchCeiling, PreemptionReport, BestReport, SweepPoint, CostReport, SimulationReport, LatencySummary,
  SimTimelinePoint, SimulationSweep, SimSweepPoint,
  TraceOptions, RateCurve, AutoscaleOptions, TrafficReport, TrafficInterval, FleetReport, FleetOutcome, FleetHour,
  FleetInterval, FleetCheck, FleetSizing,
  ModelSummary, ModelDetail, ModelsModel, ModelsQuantization, ModelsParams, ModelsSource,
  Contract, EngineProfile, EngineDefaults, FieldBounds, ModelID, HardwareID, Fix,
  PlanRequest, PlanWorkload, PlanSLO, PlanConstraints, PlanSearch, PlanVerify,
  PlanReport, PlanDeployment, PlanSimulated, PlanPoint, PlanRejection,
  Calibration, BenchmarkImport, CalibrationReport, CalibrationProfile, CalibrationServingPoint,
};

// The names these types had before contract.d.ts was generated.
export type Accelerator = HardwareAccelerator;
export type PeakFLOPS = HardwarePeakFLOPS;
export type Interconnect = HardwareInterconnect;
export type ModelShape = ModelsModel;
export type Quantization = ModelsQuantization;
export type Params = ModelsParams;
export type ModelSource = ModelsSource;
/** A catalog id or a custom accelerator (calc.HardwareRef). */
export type HardwareRef = Request['hardware'];
/** A config.json object: any JSON object. */
export type ModelConfig = { [key: string]: JSONValue };
/** The values of Request.engine. */
export type EngineName = NonNullable<Request['engine']>;

/** Thrown for invalid input: errors lists every problem found. */
export class ThroughputError extends Error {
  constructor(errors: FieldError[]);
  readonly name: 'ThroughputError';
  readonly errors: FieldError[];
}

/** A catalog accelerator as hardware() and hardwareSpec() return it. */
export interface CatalogAccelerator extends HardwareAccelerator {
  id: string;
  name: string;
  vendor: string;
  peak_flops: Required<HardwarePeakFLOPS>;
  interconnect: Required<HardwareInterconnect>;
}

/** Memory of one instance, in bytes (Go's runtime.ReadMemStats and the wasm memory). */
export interface Stats extends GoStats {
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
  /**
   * The work budget of every evaluate, in sequence-steps: a positive number,
   * Infinity for none. Default: defaultWorkBudget (calc.DefaultWorkBudget, the
   * HTTP API's, about 40 ms of native CPU). A request over it throws a
   * ThroughputError naming the field that drives the cost.
   */
  workBudget?: number;
  /** true loads throughput-planner.wasm, the full engine: plan() and the simulator (the default throughput.wasm has neither). */
  planner?: boolean;
  /**
   * The model catalog (the browser engine is built without it): a URL or
   * string, a Response or a promise of one, its JSON text (a string starting
   * with "["), or the parsed array. Default: catalog.json next to
   * throughput.js, fetched while the engine compiles (a failure leaves the
   * catalog unloaded; an explicit one rejects). 'lazy': fetched by the first
   * prepare() that needs it; false: never.
   */
  catalog?: string | URL | Response | PromiseLike<Response> | JSONValue[] | 'lazy' | false;
  /**
   * Where Hugging Face ids outside the catalog are fetched from (prepare):
   * default { url: DEFAULT_HUB_URL }; false for no Hub.
   */
  hub?: HubOptions | false;
}

export interface HubOptions {
  /** The Hub's base URL (default https://huggingface.co); a test points it at a stand-in. */
  url?: string;
  /** A Hugging Face access token for gated models, sent as Authorization: Bearer. */
  token?: string;
}

/** https://huggingface.co */
export const DEFAULT_HUB_URL: string;
/** Whether s has the shape of a Hugging Face model id, owner/name. */
export function isHubID(s: unknown): boolean;

/** Per-call options of evaluate and evaluateJSON. */
export interface EvaluateOptions {
  /** Overrides load()'s workBudget for this call. */
  workBudget?: number;
}

/** Deeply read-only: the engine's tables are frozen. */
export type Frozen<T> = T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T;

/** One engine instance. Every method is synchronous but prepare, evaluateAsync and loadCatalog. */
export interface Calculator {
  /** The engine version (calc.Version). */
  readonly version: string;
  readonly closed: boolean;
  /** Resolves when the Go program has ended (after close()). */
  readonly exited: Promise<void>;
  /** The work budget of this instance's evaluations (load's workBudget or the default). */
  readonly workBudget: number;
  /** The engine's default work budget (calc.DefaultWorkBudget), in sequence-steps. */
  readonly defaultWorkBudget: number;
  /** Throws ThroughputError for invalid requests and for requests over the work budget. */
  evaluate(request: Request, options?: EvaluateOptions): Report;
  /** JSON text in, JSON text out (no boundary checks beyond the engine's). */
  evaluateJSON(json: string, options?: EvaluateOptions): string;
  /**
   * Plans a deployment for a workload and a latency budget (calc.Plan). Throws ThroughputError naming every
   * invalid field, and for a search over 32,000 candidates; an impossible budget is a report with feasible false.
   */
  plan(request: PlanRequest): PlanReport;
  /** plan with JSON text in and out. */
  planJSON(json: string): string;
  /**
   * Fits the deployment to the measurements of request.calibration (imports: benchmark tools' result files,
   * `{format, data}`, up to 16 MiB each; bench_serve; points) and returns the fit (calc.Calibrate) with its
   * calibration_profile, a versioned document of about 1 KB to send back as calibration.profile. The full
   * engine only (load({ planner: true })); the request may exceed evaluate's 64 KiB. Throws ThroughputError
   * naming every invalid field, a file's by its JSON path or CSV row and column.
   */
  calibrate(request: Request): CalibrationReport;
  /**
   * The default price of one GPU-hour by accelerator id (hardware.DefaultPrice, docs/MODEL.md section 12), the
   * table the cost section and plan() read. Only in the planner build, load({ planner: true }).
   */
  prices(): Record<string, GPUPrice>;
  /** Whether this engine has plan(): load({ planner: true }) loads the planner build. */
  readonly hasPlanner: boolean;
  /**
   * Whether this engine simulates (a request's simulate): false for the light
   * throughput.wasm, which refuses it on field simulate; true for
   * load({ planner: true }), the full engine.
   */
  readonly simulator: boolean;
  /** The engine's tables, computed once and frozen. */
  contract(): Frozen<Contract>;
  /** The engines, the default first, with the defaults of the settings a request leaves out. */
  engines(): Frozen<EngineProfile[]>;
  /** The values of dtype. */
  dtypes(): readonly string[];
  /** The values of kv_cache_dtype. */
  kvCacheDtypes(): readonly string[];
  /** The values of quantization. */
  quantizations(): readonly string[];
  /** The values of block_size, in tokens. */
  blockSizes(): readonly number[];
  /** Every bounded request field by JSON path ("workload.input_tokens"). */
  fieldBounds(): Frozen<{ [path: string]: FieldBounds }>;
  /** One field's bounds, or undefined when it has none. */
  fieldBounds(path: string): Frozen<FieldBounds> | undefined;
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
  /**
   * Makes the request's model (or the model id) known to evaluate: loads a
   * lazy catalog, fetches a Hugging Face id outside it from the Hub (and
   * keeps it for offline use). Rejects with ThroughputError (field "model")
   * when the Hub refuses ("needs a token"), has no such model, or cannot be
   * reached with nothing kept; evaluate then throws the same for that id.
   */
  prepare(request: Request | string, options?: HubOptions): Promise<void>;
  /** prepare's promise when evaluate cannot answer for the model yet, else null. */
  pending(request: Request | string, options?: HubOptions): Promise<void> | null;
  /** prepare, then evaluate. */
  evaluateAsync(request: Request, options?: EvaluateOptions): Promise<Report>;
  /** Sets the Hub token of later prepare calls and forgets recorded refusals. */
  setHubToken(token: string): void;
  /** Sets the Hub (as load's hub option) and forgets recorded refusals. */
  setHub(hub: HubOptions | false): void;
  /** Loads the model catalog into an engine built without it (once). */
  loadCatalog(source?: LoadOptions['catalog']): Promise<void>;
  /** Test-only: panics inside Go; always throws ThroughputError "internal error: ...". */
  __panic(): never;
  /** Releases every Go function of this instance and ends its Go program. */
  close(): void;
}

export function load(options?: LoadOptions): Promise<Calculator>;

/** One row of the default price table (prices()). */
export interface GPUPrice {
  /** US dollars per GPU-hour. */
  usd_per_gpu_hour: number;
  /** "cloud_on_demand" (an on-demand list price) or "purchase_amortised" (a purchase over 4 years, plus power). */
  kind: string;
  /** The price list or page it was read from. */
  source: string;
  /** When the source states it: YYYY-MM or YYYY. */
  date: string;
}
