// Throughput: the LLM-serving capacity engine (Go, compiled to WebAssembly)
// for browsers, Node.js >= 20 and Cloudflare Workers.
//
//   import { load } from '@modelrefs/throughput';
//   const calc = await load();                  // fetch + instantiate once
//   const report = calc.evaluate({ model: 'llama-3.1-8b', hardware: 'h100-sxm' });
//
// Every call after load() is synchronous. Requests and reports follow the
// engine's JSON contract (calc/spec/request.go, calc/spec/report.go) unchanged; invalid
// input throws a ThroughputError whose .errors lists {field, message}.
// docs/js-module.md describes the API.

// wasm_exec.js comes from the Go toolchain that built throughput.wasm. It
// defines globalThis.Go (and, where they are missing, the fs/process/path
// stubs Go's runtime needs); nothing else is added to the global object.
import './wasm_exec.js';
import { hardwareSources } from './hardware-sources.js';

const GoRuntime = globalThis.Go;

/** Starts a result string that is an error list ("!" + JSON). */
const ERROR_MARK = 33; // '!'

/**
 * An invalid request or input. `errors` is the engine's list of
 * {field, message}; field is a JSON path ("workload.input_tokens") or "".
 */
export class ThroughputError extends Error {
  constructor(errors) {
    super(errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('; '));
    this.name = 'ThroughputError';
    this.errors = errors;
  }
}

let instances = 0;
const compiled = new Map(); // URL string -> Promise<WebAssembly.Module>

/**
 * Loads the engine and returns a Calculator.
 *
 * options.wasm may be a URL or string (fetched; file: URLs are read from disk
 * in Node.js), a Response or a promise of one, an ArrayBuffer or typed array
 * of the .wasm bytes, or a precompiled WebAssembly.Module (Cloudflare Workers
 * import .wasm files as modules). Default: throughput.wasm next to this file.
 *
 * options.planner: true loads throughput-planner.wasm instead, the full
 * engine: plan() and the simulator (a request's simulate). The default
 * throughput.wasm is the light build the page and the widget start with,
 * inside the 1.0 MB gzip budget: it refuses simulate on field simulate.
 *
 * options.workBudget is the work budget of every evaluate, in sequence-steps
 * (a positive number, Infinity for none); default calc.DefaultWorkBudget, the
 * HTTP API's (about 40 ms of native CPU). A request whose simulation would
 * exceed it throws a ThroughputError naming the field that drives the cost.
 * In a browser the CPU is the user's own, so a page may raise it.
 *
 * options.catalog is the model catalog the browser engine is built without
 * (docs/model-catalog.md): a URL or string, a Response or a promise of
 * one, its JSON text (a string starting with "["; Cloudflare Workers import
 * catalog.json as a text module), or the parsed array. Default:
 * catalog.json next to this file, fetched while the engine compiles (a
 * failure leaves the catalog unloaded; an explicit catalog must load), so
 * that load() resolves with every
 * catalog model known and evaluate stays synchronous. 'lazy' fetches it
 * only when prepare() (or evaluateAsync) first needs a model the engine
 * does not know; false never. An engine built with its catalog ignores it.
 *
 * options.hub is where models outside the catalog come from:
 * { url: 'https://huggingface.co' (default), token: a Hugging Face access
 * token for gated models, sent as Authorization: Bearer }, or false for no
 * Hub. prepare() fetches {url}/{id}/resolve/main/config.json for a Hugging
 * Face id the engine does not know and keeps it (the Cache API
 * "throughput.hub" where there is one, and memory) for offline use.
 */
export async function load(options = {}) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('throughput: load(options) takes an object');
  }
  const workBudget = checkWorkBudget(options.workBudget, 'load(options): options.workBudget');
  const hub = checkHub(options.hub);
  const catalogOption = options.catalog;
  // Started before the engine compiles, unless lazy: both are fetched at once.
  const catalogText = catalogOption === 'lazy' || catalogOption === false ? null : catalogSource(catalogOption);
  catalogText?.catch(() => {});
  const go = new GoRuntime();
  const exportName = `__throughput_${++instances}_${Math.random().toString(36).slice(2)}`;
  go.argv = ['throughput'];
  go.env = { THROUGHPUT_EXPORT: exportName };
  go.exit = () => {};
  const instance = await instantiate(options.wasm ?? (options.planner === true ? PLANNER : undefined), go.importObject);
  const exited = go.run(instance); // main publishes the bridge, then waits
  const bridge = globalThis[exportName];
  delete globalThis[exportName];
  if (!bridge) {
    throw new Error('throughput: the WebAssembly module did not start (is it throughput.wasm?)');
  }
  const calc = new Calculator(bridge, instance, go, exited, workBudget, hub, catalogOption);
  if (!bridge.catalogEmbedded && catalogText) {
    // A catalog given explicitly must load; the default one may be
    // missing (a bundle that did not copy catalog.json): then evaluate
    // says the catalog is not loaded, and prepare() tries again.
    if (catalogOption !== undefined) await calc.loadCatalog(catalogText);
    else await calc.loadCatalog(catalogText).catch(() => {});
  }
  calc.warm(); // parse the model catalog now, not in the first evaluate
  return calc;
}

// PLANNER stands for the planner build next to this file.
const PLANNER = Symbol('throughput-planner.wasm');
/**
 * A catalog accelerator with its sources' citations: the browser engines
 * are built without their text (they do not import hardware/citations, to
 * stay inside their size budget), so it comes from hardware-sources.js,
 * generated from the same catalog (tools/gen/hwcites).
 */
function withCitations(a) {
  if (a?.sources?.some((s) => s.citation === '')) {
    const sources = hardwareSources(a.id);
    if (sources) a.sources = sources;
  }
  return a;
}

/** The catalog's JSON text from options.catalog (see load). */
async function catalogSource(source) {
  if (Array.isArray(source)) return JSON.stringify(source);
  if (typeof source === 'string' && source.trimStart().startsWith('[')) return source; // the JSON text itself
  if (source === undefined || typeof source === 'string' || source instanceof URL) {
    const url = source === undefined ? new URL('./catalog.json', import.meta.url) : new URL(source, baseURL());
    if (url.protocol === 'file:') {
      const fsModule = 'node:fs/promises';
      const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ fsModule);
      return readFile(url, 'utf8');
    }
    source = fetch(url);
  }
  const response = await source;
  if (typeof Response !== 'undefined' && response instanceof Response) {
    if (!response.ok) throw new Error(`throughput: fetching ${response.url || 'the model catalog'} failed: HTTP ${response.status}`);
    return response.text();
  }
  throw new TypeError('throughput: options.catalog must be a URL, string, Response, the parsed array, \'lazy\' or false');
}

/** The hub option: {url, token} or null for none. */
function checkHub(hub) {
  if (hub === false || hub === null) return null;
  if (hub === undefined) return { url: DEFAULT_HUB_URL, token: '' };
  if (typeof hub !== 'object') throw new TypeError('throughput: options.hub must be {url, token} or false');
  const url = String(hub.url ?? DEFAULT_HUB_URL).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(url)) throw new TypeError(`throughput: options.hub.url must be an http(s) URL, got ${url.slice(0, 80)}`);
  const token = hub.token ?? '';
  if (typeof token !== 'string') throw new TypeError('throughput: options.hub.token must be a string');
  return { url, token: token.trim() };
}

/** The Hugging Face Hub. */
export const DEFAULT_HUB_URL = 'https://huggingface.co';

/**
 * Whether s has the shape of a Hugging Face model id, owner/name (the
 * engine's models.IsHubID: letters, digits, '-', '_', '.', at most 96 per
 * part, no '--' or '..', no '-' or '.' at either end).
 */
export function isHubID(s) {
  if (typeof s !== 'string') return false;
  const parts = s.split('/');
  return parts.length === 2 && parts.every((p) => p.length <= 96 && /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?$/.test(p) && !p.includes('--') && !p.includes('..'));
}

/**
 * Why the Hub's answer is not a config ("" for 200), in the engine's words
 * (contract().hub_messages, package models' Hub* constants, which the API
 * answers with; "{status}" is the status), chosen as models.HubStatusMessage
 * chooses.
 */
function hubStatusMessage(status, withToken, words) {
  if (status === 200) return '';
  const gated = status === 401 || status === 403;
  const template = gated && withToken ? words.token_refused : gated ? words.needs_token : status === 404 ? words.not_found : words.status;
  return template.replaceAll('{status}', String(status));
}

// Not "throughput-...": the page's service worker deletes its old caches by that prefix.
const HUB_CACHE = 'throughput.hub';
const hubMemory = new Map(); // config URL -> config.json text, for this realm

/** The kept config.json text for url, or null. */
async function hubCached(url) {
  if (hubMemory.has(url)) return hubMemory.get(url);
  try {
    const hit = globalThis.caches && await (await globalThis.caches.open(HUB_CACHE)).match(url);
    return hit ? await hit.text() : null;
  } catch {
    return null;
  }
}

async function hubKeep(url, text) {
  hubMemory.set(url, text);
  try {
    if (globalThis.caches) await (await globalThis.caches.open(HUB_CACHE)).put(url, new Response(text, { headers: { 'Content-Type': 'application/json' } }));
  } catch { /* memory is enough */ }
}

/**
 * Fetches id's config.json from the Hub (network first; the kept copy when
 * the Hub cannot be reached or fails) and returns {text, url}; throws an
 * Error whose message is the reason, in the engine's words (hub_messages of
 * its contract, which the API answers with too).
 */
async function fetchHubConfig(id, hub, words) {
  const url = `${hub.url}/${id}/resolve/main/config.json`;
  let res;
  try {
    res = await fetch(url, hub.token ? { headers: { Authorization: `Bearer ${hub.token}` } } : {});
  } catch {
    const kept = await hubCached(url);
    if (kept !== null) return { text: kept, url };
    throw new Error(words.unreachable);
  }
  const why = hubStatusMessage(res.status, hub.token !== '', words);
  if (why) {
    const kept = res.status >= 500 ? await hubCached(url) : null;
    if (kept !== null) return { text: kept, url };
    throw new Error(why);
  }
  const text = await res.text();
  let cfg;
  try { cfg = JSON.parse(text); } catch { /* below */ }
  if (!isPlainObject(cfg) || text.length > 1 << 20) throw new Error(words.not_a_config);
  await hubKeep(url, text);
  return { text, url };
}

async function instantiate(source, imports) {
  if (source instanceof WebAssembly.Module) {
    return WebAssembly.instantiate(source, imports);
  }
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return (await WebAssembly.instantiate(source, imports)).instance;
  }
  if (source === undefined || source === PLANNER || typeof source === 'string' || source instanceof URL) {
    const url = source === undefined || source === PLANNER ? new URL(source === PLANNER ? './throughput-planner.wasm' : './throughput.wasm', import.meta.url) : new URL(source, baseURL());
    let module = compiled.get(url.href);
    if (!module) {
      module = compileURL(url);
      compiled.set(url.href, module);
      module.catch(() => compiled.delete(url.href));
    }
    return WebAssembly.instantiate(await module, imports);
  }
  const response = await source; // Response or Promise<Response>
  if (typeof Response !== 'undefined' && response instanceof Response) {
    return (await instantiateResponse(response, imports)).instance;
  }
  throw new TypeError('throughput: options.wasm must be a URL, string, Response, ArrayBuffer, typed array or WebAssembly.Module');
}

function baseURL() {
  return typeof location !== 'undefined' && location.href ? location.href : import.meta.url;
}

async function compileURL(url) {
  if (url.protocol === 'file:') {
    // Node.js: fetch has no file: URLs. The specifier is a variable so that
    // bundlers for browsers and workers leave it alone.
    const fsModule = 'node:fs/promises';
    const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ fsModule);
    return WebAssembly.compile(await readFile(url));
  }
  const response = await fetch(url);
  return (await instantiateResponse(response, null)).module;
}

async function instantiateResponse(response, imports) {
  if (!response.ok) {
    throw new Error(`throughput: fetching ${response.url || 'the .wasm'} failed: HTTP ${response.status}`);
  }
  const streaming = typeof WebAssembly.instantiateStreaming === 'function' &&
    (response.headers.get('content-type') || '').startsWith('application/wasm');
  if (imports === null) {
    return { module: streaming ? await WebAssembly.compileStreaming(response) : await WebAssembly.compile(await response.arrayBuffer()) };
  }
  if (streaming) {
    return WebAssembly.instantiateStreaming(response, imports);
  }
  return WebAssembly.instantiate(await response.arrayBuffer(), imports);
}

/** One engine instance. All methods are synchronous. */
class Calculator {
  #bridge;
  #memory;
  #go;
  #closed = false;

  #tapeKeys;
  #schema;
  #maxBytes;
  #contract = null;
  #workBudget;
  #hub;
  #catalogOption;
  #catalogLoading = null;
  #hubFetches = new Map(); // id, lower-cased -> {promise} while fetching, {errors} after a refusal

  constructor(bridge, instance, go, exited, workBudget, hub = null, catalogOption = undefined) {
    this.#bridge = bridge;
    this.#hub = hub;
    this.#catalogOption = catalogOption;
    this.#workBudget = workBudget ?? bridge.defaultWorkBudget;
    /** The engine's default work budget (calc.DefaultWorkBudget), in sequence-steps. */
    this.defaultWorkBudget = bridge.defaultWorkBudget;
    this.#memory = instance.exports.mem;
    this.#go = go;
    this.#tapeKeys = JSON.parse(bridge.tapeKeys);
    this.#schema = JSON.parse(bridge.requestSchema);
    this.version = bridge.version;
    // calc.MaxRequestBytes: a text over it is refused here, before Go
    // copies it into wasm memory.
    this.#maxBytes = bridge.maxRequestBytes ?? 64 * 1024;
    this.exited = exited;
  }

  /** The work budget of this instance's evaluations, in sequence-steps. */
  get workBudget() {
    return this.#workBudget;
  }

  /**
   * Evaluates a request object and returns the report object.
   * options.workBudget overrides load()'s for this call.
   */
  evaluate(request, options = undefined) {
    const budget = this.#budget(options, 'evaluate');
    const problems = checkRequest(request, this.#schema);
    // Unknown keys alone do not stop the request: as Go's decoder does
    // (calc.ParseRequest), the engine validates the rest, without them,
    // and every problem is reported, the unknown keys first.
    const unknown = problems.unknown;
    if (problems.length > unknown.count) {
      throw new ThroughputError([...problems]);
    }
    if (this.#closed) {
      throw new Error('throughput: the calculator is closed');
    }
    if (this.#hubFetches.size > 0 && typeof request.model === 'string') {
      const refused = this.#hubFetches.get(request.model.trim().toLowerCase())?.errors;
      if (refused && !this.#knows(request.model)) throw new ThroughputError(refused);
    }
    const text = checkSize(JSON.stringify(request, unknown.count ? function (k, v) { return unknown.holders.get(this)?.has(k) ? undefined : v; } : undefined), '', this.#maxBytes);
    const out = this.#bridge.evaluateTape(text, budget);
    if (typeof out === 'string') {
      throw new ThroughputError([...problems, ...JSON.parse(out.slice(1))]);
    }
    if (problems.length > 0) {
      throw new ThroughputError([...problems]);
    }
    return decodeTape(this.#memory.buffer, out, this.#tapeKeys);
  }

  /** Evaluates a request given as JSON text and returns the report as JSON text. */
  evaluateJSON(json, options = undefined) {
    const budget = this.#budget(options, 'evaluateJSON');
    if (typeof json !== 'string') {
      throw new TypeError('throughput: evaluateJSON takes a string of JSON');
    }
    return this.#call('evaluate', checkSize(json, '', this.#maxBytes), budget);
  }

  /**
   * Plans a deployment: a plan request object (model, workload, slo,
   * constraints, search, verify) in, the plan report object out
   * (calc.Plan). Invalid fields throw a ThroughputError naming them; an
   * impossible budget is a report with feasible false.
   */
  plan(request) {
    this.#planner();
    const problems = [];
    checkJSONObject(request, '', problems);
    if (problems.length > 0) {
      throw new ThroughputError(problems);
    }
    return JSON.parse(this.#call('plan', checkSize(JSON.stringify(request), '', this.#maxBytes)));
  }

  /** Plans from a plan request given as JSON text; returns the report as JSON text. */
  planJSON(json) {
    this.#planner();
    if (typeof json !== 'string') {
      throw new TypeError('throughput: planJSON takes a string of JSON');
    }
    return this.#call('plan', checkSize(json, '', this.#maxBytes));
  }

  /**
   * Fits a deployment to the measurements of request.calibration (imports:
   * benchmark tools' result files, up to 16 MiB each; bench_serve; points)
   * and returns the fit, its calibration_profile included (calc.Calibrate;
   * the full engine, load({planner: true})). The request may exceed
   * evaluate's 64 KiB, up to calc.MaxCalibrateBytes; the profile it returns
   * is small enough to send back as calibration.profile to evaluate.
   */
  calibrate(request) {
    this.#planner();
    const problems = [];
    checkJSONObject(request, '', problems);
    if (problems.length > 0) {
      throw new ThroughputError(problems);
    }
    const max = this.#bridge.maxCalibrateBytes ?? this.#maxBytes;
    return JSON.parse(this.#call('calibrate', checkSize(JSON.stringify(request), '', max)));
  }

  /** Whether this engine has the planner (load({planner: true})). */
  get hasPlanner() {
    return typeof this.#bridge.plan === 'function';
  }

  /**
   * Whether this engine has the simulator (a request's simulate): false for
   * the light throughput.wasm, true for load({planner: true}), the full
   * engine.
   */
  get simulator() {
    return this.#bridge.simulator !== false;
  }

  #planner() {
    if (!this.hasPlanner) {
      throw new Error('throughput: this engine has no planner; load({ planner: true }) loads throughput-planner.wasm');
    }
  }

  #budget(options, method) {
    if (options === undefined) return this.#workBudget;
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`throughput: ${method}(request, options) takes an options object`);
    }
    return checkWorkBudget(options.workBudget, `${method}: options.workBudget`) ?? this.#workBudget;
  }

  /**
   * Makes the request's model (request.model, or a model id) known to the
   * engine, so that evaluate can answer for it: fetches the model catalog
   * if it is not yet loaded (load's catalog: 'lazy'), and a Hugging Face id
   * outside it from the Hub (load's hub option; options.token overrides
   * its token, options.url its URL). Resolves when evaluate can run; rejects with a
   * ThroughputError on field "model" saying why not (the Hub refused: the
   * model needs a token; no such model on the Hub; offline with nothing
   * kept). A refusal is remembered: evaluate throws it for that id until
   * prepare is called again (with a token, back online).
   */
  async prepare(request, options = {}) {
    const name = typeof request === 'string' ? request : (isPlainObject(request) && request.model_config == null ? request.model : undefined);
    if (typeof name !== 'string' || this.#knows(name)) return;
    if (!this.#bridge.catalogEmbedded && this.#catalogOption !== false) {
      await this.loadCatalog();
      if (this.#knows(name)) return;
    }
    const id = name.trim();
    const hub = this.#hubFor(options);
    if (!hub || !isHubID(id)) return; // evaluate says "unknown model"
    const key = id.toLowerCase();
    let state = this.#hubFetches.get(key);
    if (!state?.promise || state.url !== hub.url || state.token !== hub.token) {
      const promise = fetchHubConfig(id, hub, this.contract().hub_messages).then(({ text, url }) => {
        this.#call('addModel', JSON.stringify({ id, config: JSON.parse(text), source_url: url }));
        this.#hubFetches.delete(key);
      }, (err) => {
        const errors = [{ field: 'model', message: `unknown model ${JSON.stringify(id)}: ${err.message}` }];
        this.#hubFetches.set(key, { errors, url: hub.url, token: hub.token });
        throw new ThroughputError(errors);
      });
      state = { promise, url: hub.url, token: hub.token };
      this.#hubFetches.set(key, state);
    }
    return state.promise.catch((err) => {
      if (err instanceof ThroughputError) throw err;
      throw new ThroughputError([{ field: 'model', message: String(err?.message ?? err) }]);
    });
  }

  /**
   * The promise of prepare(request) when evaluate cannot answer for its
   * model yet (the catalog or a Hub config must be fetched), else null:
   * a user interface evaluates at once, or shows "fetching" and evaluates
   * when it settles.
   */
  pending(request, options = {}) {
    const name = typeof request === 'string' ? request : (isPlainObject(request) && request.model_config == null ? request.model : undefined);
    if (typeof name !== 'string' || this.#knows(name)) return null;
    const hub = this.#hubFor(options);
    const state = this.#hubFetches.get(name.trim().toLowerCase());
    const same = state && hub && state.url === hub.url && state.token === hub.token;
    if (same && state.errors) return null; // evaluate throws the refusal
    if (same && state.promise) return state.promise;
    const catalogMissing = !this.#bridge.catalogEmbedded && this.#catalogOption !== false && !this.#catalogLoaded;
    if (!catalogMissing && !(hub && isHubID(name.trim()))) return null;
    const p = this.prepare(name, options);
    p.catch(() => {});
    return p;
  }

  /** The Hub of a prepare call: load's (or setHub's), with options.url and options.token over it; null for none. */
  #hubFor(options) {
    if (!this.#hub || !options || (options.url === undefined && options.token === undefined)) return this.#hub;
    return checkHub({ url: options.url ?? this.#hub.url, token: options.token ?? this.#hub.token });
  }

  /** Evaluates after prepare(request): for any Hugging Face id. */
  async evaluateAsync(request, options = undefined) {
    await this.prepare(request);
    return this.evaluate(request, options);
  }

  /**
   * Sets the Hub's token (a Hugging Face access token; '' for none) for
   * later prepare calls, and forgets the refusals recorded so far.
   */
  setHubToken(token) {
    if (typeof token !== 'string') throw new TypeError('throughput: setHubToken takes a string');
    if (this.#hub) this.#hub = { ...this.#hub, token: token.trim() };
    this.#forgetRefusals();
  }

  /** Sets the Hub (as load's options.hub) and forgets recorded refusals. */
  setHub(hub) {
    this.#hub = checkHub(hub);
    this.#forgetRefusals();
  }

  #forgetRefusals() {
    for (const [k, v] of this.#hubFetches) if (v.errors) this.#hubFetches.delete(k);
  }

  /**
   * Loads the model catalog (into an engine built without it): source as
   * load's options.catalog, default catalog.json next to this file. Once;
   * a failed load may be retried.
   */
  loadCatalog(source = undefined) {
    if (this.#bridge.catalogEmbedded || this.#catalogLoaded) return Promise.resolve();
    if (!this.#catalogLoading) {
      const text = source instanceof Promise ? source : catalogSource(source ?? (this.#catalogOption === 'lazy' ? undefined : this.#catalogOption));
      this.#catalogLoading = text.then((t) => {
        this.#call('setCatalog', t);
        this.#catalogLoaded = true;
      });
      this.#catalogLoading.catch(() => { this.#catalogLoading = null; });
    }
    return this.#catalogLoading;
  }

  #catalogLoaded = false;

  #knows(name) {
    return this.#call('knows', checkSize(name, 'model', this.#maxBytes)) === '1';
  }

  /** Summaries of every catalog model, in catalog order. */
  models() {
    return JSON.parse(this.#call('models', ''));
  }

  /** One catalog model in full, by id or alias. */
  model(id) {
    return JSON.parse(this.#call('model', checkSize(stringArg('model', id), 'model', this.#maxBytes)));
  }

  /**
   * The engine's tables, computed once by the engine and frozen: its
   * engines with their defaults, the values of the enumerated fields and
   * every request field's bounds, default and unit by JSON path.
   */
  contract() {
    this.#contract ??= deepFreeze(JSON.parse(this.#call('contract', '')));
    return this.#contract;
  }

  /** The engines, the default first: [{name, label, defaults}]. */
  engines() {
    return this.contract().engines;
  }

  /** The values of dtype. */
  dtypes() {
    return this.contract().dtypes;
  }

  /** The values of kv_cache_dtype. */
  kvCacheDtypes() {
    return this.contract().kv_cache_dtypes;
  }

  /** The values of quantization. */
  quantizations() {
    return this.contract().quantizations;
  }

  /** The values of block_size, in tokens. */
  blockSizes() {
    return this.contract().block_sizes;
  }

  /**
   * Bounds, default and unit of the request fields by JSON path
   * ("gpu_memory_utilization", "workload.input_tokens"); with a path, that
   * field's entry or undefined.
   */
  fieldBounds(path) {
    const fields = this.contract().fields;
    if (path === undefined) return fields;
    return Object.hasOwn(fields, path) ? fields[path] : undefined;
  }

  /** Every catalog accelerator, in catalog order. */
  hardware() {
    return JSON.parse(this.#call('hardware', '')).map(withCitations);
  }

  /** One catalog accelerator, by id, name or alias. */
  hardwareSpec(id) {
    return withCitations(JSON.parse(this.#call('hardwareSpec', checkSize(stringArg('hardware', id), 'hardware', this.#maxBytes))));
  }

  /**
   * The default price table (hardware.DefaultPrice, docs/MODEL.md section
   * 12) by accelerator id: {usd_per_gpu_hour, kind, source, date}. Only in
   * the full engine, load({ planner: true }), as plan() is.
   */
  prices() {
    this.#planner();
    return JSON.parse(this.#call('prices', ''));
  }

  /** Derives a model from a Hugging Face config.json object. */
  importConfig(config) {
    const problems = [];
    checkJSONObject(config, 'model_config', problems);
    if (problems.length > 0) {
      throw new ThroughputError([...problems]);
    }
    return JSON.parse(this.#call('importConfig', checkSize(JSON.stringify(config), '', this.#maxBytes)));
  }

  /** Parses the engine's model catalog if it is not yet (load() does). */
  warm() {
    this.#call('warm', '');
  }

  /**
   * Memory figures: the Go heap (runtime.ReadMemStats, after a garbage
   * collection when gc is true) and the WebAssembly memory, in bytes, and
   * the number of JavaScript values Go holds.
   */
  stats({ gc = false } = {}) {
    const s = JSON.parse(this.#call('stats', gc ? 'gc' : ''));
    s.wasm_memory_bytes = this.#memory.buffer.byteLength;
    // JavaScript values Go holds references to (wasm_exec.js's table less
    // its free ids): it grows if the bridge leaks js.Value references.
    s.js_refs = this.#go._values.length - this.#go._idPool.length;
    return s;
  }

  /** Test-only: makes the Go side panic; throws the recovered "internal error". */
  __panic() {
    return this.#call('panic', '');
  }

  /** Releases the Go functions and ends the Go program. Idempotent. */
  close() {
    if (!this.#closed) {
      this.#closed = true;
      this.#bridge.close();
      this.#bridge = null;
      // Go's runtime may have set timers (wasm_exec.js keeps them in
      // _scheduledTimeouts); one firing after exit would throw.
      for (const id of this.#go._scheduledTimeouts.values()) clearTimeout(id);
      this.#go._scheduledTimeouts.clear();
      this.#go = null;
    }
  }

  get closed() {
    return this.#closed;
  }

  #call(name, arg, extra) {
    if (this.#closed) {
      throw new Error('throughput: the calculator is closed');
    }
    const out = extra === undefined ? this.#bridge[name](arg) : this.#bridge[name](arg, extra);
    if (out.charCodeAt(0) === ERROR_MARK) {
      throw new ThroughputError(JSON.parse(out.slice(1)));
    }
    return out;
  }
}

/** A work budget option: undefined, or a number > 0 (Infinity: none). */
function checkWorkBudget(budget, what) {
  if (budget === undefined) return undefined;
  if (typeof budget !== 'number' || !(budget > 0)) {
    throw new TypeError(`throughput: ${what} must be a positive number of sequence-steps (Infinity for none), got ${String(budget).slice(0, 40)}`);
  }
  return budget;
}

const utf8 = new TextDecoder();

/**
 * Reads the report Go left on its tape (wasm/js/bridge/tape.go) straight from the
 * WebAssembly memory: the same object JSON.parse would make of the report's
 * JSON, without formatting or parsing a number. header is the address of
 * four uint32: the words' address and count, the blob's address and length.
 */
function decodeTape(buffer, header, keys) {
  const [wordsAt, wordCount, blobAt, blobBytes] = new Uint32Array(buffer, header, 4);
  const words = new Float64Array(buffer, wordsAt, wordCount);
  const blob = blobBytes ? utf8.decode(new Uint8Array(buffer, blobAt, blobBytes)) : '';
  let i = 0;
  let p = 0;
  const value = () => {
    switch (words[i++]) {
      case 0: return null;
      case 1: return false;
      case 2: return true;
      case 3: return words[i++];
      case 4: {
        const n = words[i++];
        p += n;
        return blob.slice(p - n, p);
      }
      case 5: {
        const a = new Array(words[i++]);
        for (let k = 0; k < a.length; k++) a[k] = value();
        return a;
      }
      case 6: {
        const o = {};
        for (let n = words[i++]; n > 0; n--) {
          const key = keys[words[i++]];
          o[key] = value();
        }
        return o;
      }
      default:
        throw new Error(`throughput: bad report tape at word ${i - 1}`);
    }
  };
  return value();
}

/** Freezes v and everything it holds. */
function deepFreeze(v) {
  if (v !== null && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

/**
 * Returns text, or throws calc.ParseRequest's error when its UTF-8 form is
 * over max bytes; it counts without encoding, so a 10 MB text is refused
 * before anything is copied into wasm memory. An id (field set) over the
 * limit is refused in the same words, under its field.
 */
function checkSize(text, field, max) {
  if (text.length <= max / 3) return text; // at most 3 bytes per UTF-16 unit
  const n = utf8Length(text);
  if (n > max) {
    const message = field === '' ? `request is ${n} bytes, above the limit of ${max}` : `is ${n} bytes, above the limit of ${max}`;
    throw new ThroughputError([{ field, message }]);
  }
  return text;
}

/** s cut to 200 code points with "…" after the cut (fielderr.Truncate). */
function truncate(s) {
  if (s.length <= 200) return s;
  let n = 0;
  for (let i = 0; i < s.length; n++) {
    if (n === 200) return `${s.slice(0, i)}…`;
    i += s.codePointAt(i) > 0xffff ? 2 : 1;
  }
  return s;
}

/** The length of s in UTF-8 bytes (a lone surrogate counts as U+FFFD's 3). */
function utf8Length(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

function stringArg(field, v) {
  if (typeof v !== 'string') {
    throw new ThroughputError([{ field, message: `must be a string, got ${jsonType(v)}` }]);
  }
  return v;
}

// ---- boundary checks ----------------------------------------------------
// They mirror what the Go decoder enforces (calc.ParseRequest) and add what
// JSON.stringify would hide: NaN and Infinity (which it writes as null),
// and values JSON cannot hold.

function checkRequest(request, schema) {
  const problems = [];
  // The unknown keys, as the objects that hold them and their names
  // (checkObject adds each), and how many of the problems they are.
  problems.unknown = { holders: new Map(), count: 0 };
  if (!isPlainObject(request)) {
    problems.push({ field: '', message: `must be an object, got ${jsonType(request)}` });
    return problems;
  }
  checkObject(request, schema, '', problems);
  // Every path is cut to 200 code points, as Go cuts them (fielderr.MaxPath).
  for (const p of problems) p.field = truncate(p.field);
  return problems;
}

// The schema comes from the Go types (wasm/js/bridge/schema.go): "integer",
// "number", "string", "bool", "object" (any JSON object: a config.json),
// "any", [T] for an array of T, {key: T, ...} for an object with exactly
// these keys, {$string_or: {...}} for a string or that object (hardware).

/** JSON nesting deeper than this is refused (it also stops cycles). */
const MAX_DEPTH = 64;

function checkObject(obj, schema, path, problems) {
  for (const key of Object.keys(obj)) {
    const field = path ? `${path}.${key}` : key;
    if (Object.hasOwn(schema, key)) {
      checkValue(obj[key], schema[key], field, problems);
    } else {
      // An unknown key is named by its first 200 characters, as Go does
      // (fielderr.Truncate).
      problems.push({ field: path ? `${path}.${truncate(key)}` : truncate(key), message: 'unknown field' });
      if (!problems.unknown.holders.has(obj)) problems.unknown.holders.set(obj, new Set());
      problems.unknown.holders.get(obj).add(key);
      problems.unknown.count++;
    }
  }
}

const WANT = { integer: 'an integer', number: 'a number', string: 'a string', bool: 'true or false' };

function checkValue(v, type, field, problems) {
  if (v === undefined || v === null || type === 'any') {
    return; // JSON.stringify drops undefined; the engine reads null as "not given"
  }
  const fail = (want) => problems.push({ field, message: `must be ${want}, got ${jsonType(v)}` });
  switch (type) {
    case 'integer':
    case 'number':
      if (typeof v !== 'number') {
        fail(WANT[type]);
      } else if (!Number.isFinite(v)) {
        problems.push({ field, message: 'must be a finite number' });
      } else if (type === 'integer' && !Number.isInteger(v)) {
        problems.push({ field, message: `must be an integer, got ${v}` });
      }
      return;
    case 'string':
    case 'bool':
      if (typeof v !== (type === 'bool' ? 'boolean' : 'string')) fail(WANT[type]);
      return;
    case 'object':
      checkJSONObject(v, field, problems);
      return;
  }
  if (Array.isArray(type)) {
    if (!Array.isArray(v)) {
      fail('an array');
    } else {
      v.forEach((item, i) => checkValue(item, type[0], `${field}[${i}]`, problems));
    }
  } else if (type.$string_or) {
    if (isPlainObject(v)) {
      checkObject(v, type.$string_or, field, problems);
    } else if (typeof v !== 'string') {
      // calc.HardwareRef's own words, without "got ...", as the Go decoder says it
      problems.push({ field, message: 'must be a catalog id (a string) or an object of figures' });
    }
  } else if (!isPlainObject(v)) {
    fail('an object');
  } else {
    checkObject(v, type, field, problems);
  }
}

/** Checks that v is a plain object JSON can carry unchanged. */
function checkJSONObject(v, field, problems) {
  if (!isPlainObject(v)) {
    problems.push({ field, message: `must be an object, got ${jsonType(v)}` });
    return;
  }
  checkJSON(v, field, 0, problems);
}

function checkJSON(v, field, depth, problems) {
  switch (typeof v) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return;
    case 'number':
      if (!Number.isFinite(v)) problems.push({ field, message: 'must be a finite number' });
      return;
    case 'object':
      if (v === null) return;
      if (depth >= MAX_DEPTH) {
        problems.push({ field, message: `nests deeper than ${MAX_DEPTH} levels (or holds a cycle)` });
      } else if (Array.isArray(v)) {
        v.forEach((item, i) => checkJSON(item, `${field}[${i}]`, depth + 1, problems));
      } else if (isPlainObject(v)) {
        for (const key of Object.keys(v)) checkJSON(v[key], `${field}.${key}`, depth + 1, problems);
      } else {
        problems.push({ field, message: `must be a JSON value, got ${jsonType(v)}` });
      }
      return;
    default:
      problems.push({ field, message: `must be a JSON value, got ${jsonType(v)}` });
  }
}

/** A plain object: {} or Object.create(null), from any realm. */
function isPlainObject(v) {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** Names a value's type the way Go's JSON errors do ("bool", "array"). */
// jsonType names a value the way the engine's messages do ("a string",
// "an array"; a class instance by its class).
function jsonType(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  switch (typeof v) {
    case 'boolean':
      return 'a boolean';
    case 'object': {
      const name = Object.getPrototypeOf(v)?.constructor?.name;
      return isPlainObject(v) || !name ? 'an object' : `a ${name}`;
    }
    case 'undefined':
      return 'undefined';
    default:
      return `a ${typeof v}`;
  }
}
