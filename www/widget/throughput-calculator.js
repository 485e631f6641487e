// <throughput-calculator>: the calculator as an embeddable custom element.
//
// This module has no side effects: it defines a class and registers
// nothing. widget.js is the entry point that calls define(). The engine
// (throughput.js and its .wasm) is imported relative to this file, and only
// when the first element connects.
//
//   <script type="module" src="https://example.org/throughput/widget.js"></script>
//   <throughput-calculator model="llama-3.1-8b" hardware="h100-sxm" mode="compact">
//     <a href="https://example.org/throughput/">Open the capacity calculator</a>
//   </throughput-calculator>
import * as fmt from '../ui/format.js';
import { ThroughputChart, CHART_CSS } from '../ui/chart.js';
import { evaluateWithRange, sweepMax } from '../ui/sweep-range.js';
import { verdict, TERMS } from '../ui/verdict.js';
import { escapeHTML } from '../ui/dom.js';
import { steadyAt, steadyLoad, steadyConditions } from '../ui/steady.js';
import { fullEngine } from './full-engine.js';

const term = (k) => escapeHTML(TERMS[k]);

/** Defaults for the attributes: the page's working example. */
export const WIDGET_DEFAULTS = Object.freeze({
  model: 'llama-3.1-8b',
  hardware: 'h100-sxm',
  mode: 'full',
});

const MODES = ['full', 'compact'];
const SWEEP_POINTS = 96;

/** Integer attributes: name -> [request path, minimum]. */
const INT_ATTRS = {
  'tensor-parallel-size': ['tensor_parallel_size', 1],
  'pipeline-parallel-size': ['pipeline_parallel_size', 1],
  'input-tokens': ['workload.input_tokens', 1],
  'output-tokens': ['workload.output_tokens', 1],
  'max-model-len': ['max_model_len', 1],
  'max-num-seqs': ['max_num_seqs', 1],
  concurrency: ['workload.concurrency', 1],
};

/**
 * The serving features' attributes (docs/MODEL.md section 10): name ->
 * [request path, kind, minimum, the page's URL key, scale]. Each is off
 * when absent; an invalid value is left out (the feature stays off).
 */
const FEATURE_ATTRS = {
  'shared-prefix-tokens': ['workload.shared_prefix_tokens', 'int', 1, 'shared_prefix_tokens'],
  'prefix-hit-rate': ['workload.prefix_hit_rate', 'num', 0, 'prefix_hit_rate'],
  'num-prefixes': ['workload.num_prefixes', 'int', 1, 'num_prefixes'],
  'spec-method': ['speculative_config.method', 'text', 0, 'spec_method'],
  'num-speculative-tokens': ['speculative_config.num_speculative_tokens', 'int', 1, 'spec_tokens'],
  'acceptance-rate': ['speculative_config.acceptance_rate', 'num', 0, 'spec_acceptance'],
  'max-loras': ['lora.max_loras', 'int', 1, 'max_loras'],
  'max-lora-rank': ['lora.max_lora_rank', 'int', 1, 'max_lora_rank'],
  'kv-offload-gib': ['kv_offload.cpu_bytes', 'num', 0, 'offload_gib', 2 ** 30],
  'data-parallel-size': ['data_parallel_size', 'int', 1, 'data_parallel_size'],
  'enable-expert-parallel': ['enable_expert_parallel', 'bool', 0, 'expert_parallel'],
};
const SPEC_METHODS = ['eagle', 'eagle3', 'mtp', 'ngram'];

/**
 * The session workload's attributes (workload.sessions, docs/MODEL.md
 * section 10, "Agentic multi-turn sessions"), each its field's name with
 * dashes. Any of them set sends workload.sessions; each value goes to the
 * engine as it is (a number when it reads as one), so an invalid one shows
 * the engine's error naming its field, as an unknown model does.
 */
const SESSION_ATTRS = ['turns', 'new-tokens', 'think-time-s', 'think-distribution', 'users', 'session-rate', 'replicas', 'routing'];

/** Models (lower case) the light engine refused as needing the full engine (DeepSeek-V4, as the page's app.js). */
const fullOnlyModels = new Set();

/**
 * Whether a request needs the full engine (full-engine.js), as the page
 * decides (www/page/app.js needsFull): a session workload, which the light
 * engine refuses (calc/deploy/sessions.go), or a model it left to the full one.
 */
const needsFull = (req) => Boolean(req.workload?.sessions || fullOnlyModels.has(String(req.model).toLowerCase()));

const HTMLElementBase = globalThis.HTMLElement ?? class {};

let enginePromise = null;
/**
 * The engine's tables (calc.contract(): engines, value lists, bounds),
 * once the engine has loaded; attributes are checked against them.
 */
let tables = null;
/** The engine, loaded once for every element on the page. */
function engine() {
  enginePromise ??= import('../module/throughput.js').then((m) => m.load()).then((calc) => {
    tables = calc.contract();
    return calc;
  });
  return enginePromise;
}

/** v when the engine's tables list it under key (or have not loaded yet), else fallback. */
const listed = (key, v, fallback) => (v && (!tables || tables[key].some((x) => (x.name ?? x) === v)) ? v : fallback);

const CSS = `
:host { display: block; contain: content; max-width: 720px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  --bg: #ffffff; --fg: #14171c; --muted: #5b6472; --line: #d9dde4; --accent: #1d4ed8; --agg: #1d4ed8; --per: #c2410c;
  --kv: #7c3aed; --onset: #b91c1c; --panel: #f7f8fa; --err: #b91c1c; --ok: #15803d; --warn: #b45309;
  color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 12px; padding: 14px 16px; }
:host([hidden]) { display: none; }
@media (prefers-color-scheme: dark) {
  :host { --bg: #161b22; --fg: #e6e9ee; --muted: #9aa4b2; --line: #2d3440; --accent: #7aa2ff; --agg: #7aa2ff; --per: #fb923c;
    --kv: #c4b5fd; --onset: #f87171; --panel: #0e1116; --err: #fca5a5; --ok: #4ade80; --warn: #fbbf24; }
}
* { box-sizing: border-box; }
h2 { font-size: 1rem; margin: 0 0 2px; }
p { margin: 0; }
.cond, .hint, .range { color: var(--muted); font-size: .8rem; }
.trade { display: grid; grid-template-columns: 1fr 1fr; gap: 10px; margin: 10px 0; }
.side { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 10px 12px; }
.side h3 { font-size: .82rem; margin: 0 0 4px; color: var(--muted); font-weight: 600; }
.fig { font-size: 1.3rem; font-weight: 700; font-variant-numeric: tabular-nums; }
.fig.per { color: var(--per); }
.fig.agg { color: var(--agg); }
.kv { margin: 6px 0; }
.steady { margin: 0 0 10px; }
.err { color: var(--err); }
.verdict { margin: 8px 0 0; padding: 6px 10px; border-left: 5px solid var(--v, var(--line)); background: var(--panel); border-radius: 6px; }
.verdict .vh { font-weight: 650; }
.verdict .badge { display: inline-block; font-size: .72rem; font-weight: 700; text-transform: uppercase; padding: 0 7px; border-radius: 99px; margin-right: 6px; background: var(--v); color: var(--bg); }
.verdict .vd { display: block; font-size: .8rem; color: var(--muted); margin-top: 2px; }
.verdict[data-state=fits], .verdict[data-state=meets] { --v: var(--ok); }
.verdict[data-state=misses], .verdict[data-state=overloaded] { --v: var(--warn); }
.verdict[data-state=wont_start] { --v: var(--err); }
abbr[title] { text-decoration: underline dotted; cursor: help; }
.body.failed .title, .body.failed .conditions, .body.failed .verdict, .body.failed .trade, .body.failed .steady, .body.failed .sessions, .body.failed .kv, .body.failed .energy, .body.failed .terms, .body.failed .chart, .body.failed [data-w=version] { display: none; }
.body.failed .error { margin: 6px 0; padding: 8px 10px; border: 1px solid var(--err); border-radius: 8px; }
.body.nofit .trade, .body.nofit .steady, .body.nofit .sessions, .body.nofit .chart, .body.nofit .terms { display: none; }
.steady[hidden], .sessions[hidden] { display: none; }
.sessions { margin: 0 0 10px; }
form { display: grid; grid-template-columns: repeat(auto-fit, minmax(130px, 1fr)); gap: 8px 10px; margin: 10px 0 4px; }
label { display: grid; gap: 2px; font-size: .78rem; color: var(--muted); }
input, select { font: inherit; color: var(--fg); background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 4px 6px; width: 100%; min-width: 0; }
input[aria-invalid=true] { border-color: var(--err); }
.chart { margin-top: 6px; }
a { color: var(--accent); }
.foot { display: flex; justify-content: space-between; gap: 8px; flex-wrap: wrap; margin-top: 6px; font-size: .8rem; }
@media (max-width: 420px) { .trade { grid-template-columns: 1fr; } }
${CHART_CSS}`;

/** One constructed sheet of CSS for every element of the document. */
let sheet = null;

/**
 * Give root the element's styles as a constructed style sheet, which a
 * host page's Content-Security-Policy does not govern, so an embedder needs
 * no style-src 'unsafe-inline' (docs/embedding.md); returns '' then, or a
 * <style> element's markup where constructed sheets are missing.
 */
function adoptStyles(root) {
  try {
    if (!sheet) {
      const s = new CSSStyleSheet();
      s.replaceSync(CSS);
      sheet = s;
    }
    root.adoptedStyleSheets = [sheet];
    return '';
  } catch {
    return `<style>${CSS}</style>`;
  }
}

/**
 * value resolved against base when it is an http: or https: URL, else
 * fallback (also for an empty or unparsable value). Every URL attribute goes
 * through it, so no attribute can put a javascript: or data: URL into a link.
 */
export function httpURL(value, base, fallback) {
  const v = (value ?? '').trim();
  if (v === '') return fallback;
  try {
    const u = new URL(v, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : fallback;
  } catch {
    return fallback;
  }
}

/**
 * The <throughput-calculator> element. Attributes (all optional; invalid
 * values fall back to the defaults): model, hardware, tensor-parallel-size,
 * pipeline-parallel-size, input-tokens, output-tokens, kv-cache-dtype,
 * quantization, engine, engine-version (a release the engine models, as
 * the request's engine_version; one it does not model is reported as the
 * engine's error), max-model-len, max-num-seqs, concurrency or
 * request-rate (the workload's load: users kept in flight, or requests
 * a second; the element then shows the steady state, report.serving;
 * concurrency wins when both are set),
 * gpu-memory-utilization, p2p ("false": PCIe GPUs without peer-to-peer
 * access, the request's p2p: false), flashinfer-sampler (present and not
 * "false": vLLM V1 sampling with FlashInfer, the request's
 * flashinfer_sampler), mode ("full" or "compact"), calculator-url,
 * hub-url and hub-token (a model id outside the catalog is fetched from the
 * Hugging Face Hub, https://huggingface.co unless hub-url names another;
 * hub-token is an access token for a gated model). The serving features:
 * shared-prefix-tokens or prefix-hit-rate and num-prefixes (prefix
 * caching), spec-method (eagle, eagle3, mtp, ngram) with
 * num-speculative-tokens and acceptance-rate (both required with it: the
 * engine has no default for either, as vLLM has none for k),
 * max-loras and max-lora-rank, kv-offload-gib (a CPU tier),
 * data-parallel-size and enable-expert-parallel. Agentic multi-turn
 * sessions: turns, new-tokens, think-time-s, think-distribution, users or
 * session-rate, replicas, routing (workload.sessions: the element then
 * shows report.sessions, computed by the full engine, which it loads for
 * them; an invalid value is the engine's error, naming its field).
 */
export class ThroughputCalculator extends HTMLElementBase {
  static observedAttributes = ['model', 'hardware', 'kv-cache-dtype', 'quantization', 'engine', 'engine-version', 'gpu-memory-utilization', 'p2p', 'flashinfer-sampler', 'mode', 'calculator-url', 'hub-url', 'hub-token', 'request-rate', ...Object.keys(INT_ATTRS), ...Object.keys(FEATURE_ATTRS), ...SESSION_ATTRS];

  /** Register the element (once) under tag; returns the class. */
  static define(tag = 'throughput-calculator', registry = globalThis.customElements) {
    if (registry && !registry.get(tag)) registry.define(tag, this);
    return this;
  }

  #root = null;
  #chart = null;
  #engine = null;
  #full = null; // the full engine, once a request has needed it
  #queued = false;
  #range = undefined; // the last sweep range (sweep-range.js)
  /** The last report shown (read-only for hosts and tests). */
  report = null;

  get model() { return (this.getAttribute('model') ?? '').trim() || WIDGET_DEFAULTS.model; }
  set model(v) { this.setAttribute('model', v); }
  get hardware() { return (this.getAttribute('hardware') ?? '').trim() || WIDGET_DEFAULTS.hardware; }
  set hardware(v) { this.setAttribute('hardware', v); }
  get mode() { const m = this.getAttribute('mode'); return MODES.includes(m) ? m : WIDGET_DEFAULTS.mode; }
  set mode(v) { this.setAttribute('mode', v); }
  get kvCacheDtype() { return listed('kv_cache_dtypes', this.getAttribute('kv-cache-dtype'), 'auto'); }
  /** The engine attribute when the engine knows it, else the default engine. */
  get engine() { return listed('engines', this.getAttribute('engine'), tables?.default_engine ?? 'vllm'); }
  get engineVersion() { return (this.getAttribute('engine-version') ?? '').trim(); }
  /** false when the p2p attribute is "false" (GPUs without peer-to-peer access). */
  get p2p() { return (this.getAttribute('p2p') ?? '').trim() !== 'false'; }
  /** true when flashinfer-sampler is present and not "false". */
  get flashinferSampler() { const v = this.getAttribute('flashinfer-sampler'); return v !== null && v.trim() !== 'false'; }
  get quantization() { return (this.getAttribute('quantization') ?? '').trim(); }
  /** The gpu-memory-utilization attribute within the engine's bounds, else undefined (the engine's default). */
  get gpuMemoryUtilization() {
    const raw = this.getAttribute('gpu-memory-utilization');
    const v = raw == null || raw.trim() === '' ? NaN : Number(raw);
    const b = tables?.fields.gpu_memory_utilization;
    if (!Number.isFinite(v) || !b) return undefined;
    const aboveMin = b.min === undefined || (b.exclusive_min ? v > b.min : v >= b.min);
    return aboveMin && (b.max === undefined || v <= b.max) ? v : undefined;
  }
  /**
   * Base URL of the full calculator page (default: the widget's folder). An
   * attribute that is not an http(s) URL (javascript:, data:, blob:, ...)
   * falls back to the default: it never reaches an href.
   */
  get calculatorURL() {
    const fallback = new URL('./', import.meta.url).href;
    return httpURL(this.getAttribute('calculator-url'), globalThis.document?.baseURI ?? fallback, fallback);
  }

  /**
   * The Hub settings of this element for the engine's prepare(): hub-url
   * when it is an http(s) URL, hub-token; {} for the engine's own.
   */
  hubOptions() {
    const out = {};
    const url = httpURL(this.getAttribute('hub-url'), globalThis.document?.baseURI ?? 'https://huggingface.co/', '');
    if (url) out.url = url.replace(/\/+$/, '');
    const token = (this.getAttribute('hub-token') ?? '').trim();
    if (token) out.token = token;
    return out;
  }

  /** An integer attribute, or undefined when absent or invalid. */
  intAttr(name) {
    const raw = this.getAttribute(name);
    if (raw == null || raw.trim() === '') return undefined;
    const v = Number(raw);
    return Number.isInteger(v) && v >= INT_ATTRS[name][1] ? v : undefined;
  }

  /**
   * The request-rate attribute (requests per second, a positive number),
   * or undefined when absent, invalid, or when concurrency is set (the
   * concurrency wins: a workload has one load).
   */
  get requestRate() {
    if (this.intAttr('concurrency') !== undefined) return undefined;
    const raw = this.getAttribute('request-rate');
    const v = raw == null || raw.trim() === '' ? NaN : Number(raw);
    return Number.isFinite(v) && v > 0 ? v : undefined;
  }

  /** The serving features' attributes that are set and valid: [[name, value], ...]. */
  featureAttrs() {
    const out = [];
    for (const [name, [, kind, lo]] of Object.entries(FEATURE_ATTRS)) {
      const raw = (this.getAttribute(name) ?? '').trim();
      if (raw === '') continue;
      if (kind === 'bool') { if (raw !== 'false') out.push([name, true]); continue; }
      if (kind === 'text') { if (SPEC_METHODS.includes(raw)) out.push([name, raw]); continue; }
      const v = Number(raw);
      if (Number.isFinite(v) && v >= lo && (kind === 'num' || Number.isInteger(v))) out.push([name, v]);
    }
    return out;
  }

  /**
   * workload.sessions from the session attributes (SESSION_ATTRS), or
   * undefined when none is set: each value a number when it reads as one,
   * else the trimmed text, for the engine to check.
   */
  sessionAttrs() {
    let s;
    for (const name of SESSION_ATTRS) {
      const raw = (this.getAttribute(name) ?? '').trim();
      if (raw === '') continue;
      const v = Number(raw);
      (s ??= {})[name.replaceAll('-', '_')] = Number.isFinite(v) ? v : raw;
    }
    return s;
  }

  /** The engine request the attributes stand for. */
  request() {
    const req = { model: this.model, hardware: this.hardware, sweep: { points: SWEEP_POINTS } };
    if (this.engine !== tables?.default_engine) req.engine = this.engine;
    if (this.engineVersion) req.engine_version = this.engineVersion;
    if (this.kvCacheDtype !== 'auto') req.kv_cache_dtype = this.kvCacheDtype;
    if (this.quantization) req.quantization = this.quantization;
    if (this.gpuMemoryUtilization) req.gpu_memory_utilization = this.gpuMemoryUtilization;
    if (!this.p2p) req.p2p = false;
    if (this.flashinferSampler) req.flashinfer_sampler = true;
    for (const name of Object.keys(INT_ATTRS)) {
      const v = this.intAttr(name);
      if (v === undefined) continue;
      const [path] = INT_ATTRS[name];
      if (path.startsWith('workload.')) (req.workload ??= {})[path.slice(9)] = v;
      else req[path] = v;
    }
    if (this.requestRate !== undefined) (req.workload ??= {}).request_rate = this.requestRate;
    for (const [name, v] of this.featureAttrs()) {
      const [path, , , , scale] = FEATURE_ATTRS[name];
      const [a, b] = path.split('.');
      if (b) (req[a] ??= {})[b] = scale ? v * scale : v;
      else req[a] = v;
    }
    // num-speculative-tokens and acceptance-rate have no default: the
    // engine requires them (calc.Fields) and names the one left out.
    const sessions = this.sessionAttrs();
    if (sessions) (req.workload ??= {}).sessions = sessions;
    return req;
  }

  connectedCallback() {
    if (!this.#root) {
      this.#root = this.attachShadow({ mode: 'open' });
      this.#root.innerHTML = `${adoptStyles(this.#root)}<div part="body" class="body" aria-live="polite"><p class="hint">Loading the calculator…</p></div>`;
    }
    engine().then((e) => { this.#engine = e; this.#schedule(); }, (err) => this.#fail(err));
  }

  disconnectedCallback() { this.#chart?.disconnect(); this.#chart = null; }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue || !this.#engine) return;
    this.#schedule();
  }

  /** Coalesce attribute changes into one render per microtask. */
  #schedule() {
    if (this.#queued) return;
    this.#queued = true;
    queueMicrotask(() => { this.#queued = false; if (this.isConnected) this.#render(); });
  }

  #fail(err) {
    const body = this.#root.querySelector('.body');
    body.innerHTML = '<p class="err"></p>';
    body.firstChild.textContent = `The calculator could not load: ${err?.message ?? err}`;
  }

  #render() {
    const body = this.#root.querySelector('.body');
    if (body.dataset.mode !== this.mode) this.#build(body);
    const status = (text, failed = false) => {
      const el = body.querySelector('.error');
      el.textContent = text;
      el.hidden = false;
      if (failed) { body.classList.add('failed'); this.report = null; }
      this.#syncForm();
    };
    const req = this.request();
    const full = needsFull(req);
    if (full && !this.#full) {
      // The light engine refuses it: load the full engine first (once per page).
      status('Loading the full engine (the session model)…');
      fullEngine().then((e) => { this.#full = e; this.#schedule(); },
        (err) => status(`The calculator cannot answer: the full engine (throughput-planner.wasm) could not load: ${err?.message ?? err}`, true));
      return;
    }
    const calc = full ? this.#full : this.#engine;
    // A model outside the catalog: its config.json is fetched first.
    const wait = calc.pending(req, this.hubOptions());
    if (wait) {
      status(`Fetching the config.json of ${this.model} from the Hugging Face Hub…`);
      wait.catch(() => {}).finally(() => this.#schedule());
      return;
    }
    let report;
    try {
      report = evaluateWithRange((q) => calc.evaluate(q), req, this.#range);
      if (report.sweep?.length) this.#range = sweepMax(report);
    } catch (e) {
      const errs = e?.errors ?? [{ field: '', message: String(e?.message ?? e) }];
      if (!full && errs.some((x) => x.field?.startsWith('model') && x.message.includes('needs the full engine'))) {
        fullOnlyModels.add(String(req.model).toLowerCase());
        this.#schedule();
        return;
      }
      body.querySelector('.error').textContent = `The calculator cannot answer: ${errs.map((x) => (x.field ? `${x.field}: ${x.message}` : x.message)).join('; ')}`;
      body.querySelector('.error').hidden = false;
      body.classList.add('failed');
      this.report = null;
      this.#syncForm();
      return;
    }
    body.querySelector('.error').hidden = true;
    body.classList.remove('failed');
    this.report = report;
    this.#fill(body, report);
    this.dispatchEvent(new CustomEvent('throughput-report', { detail: report }));
  }

  #build(body) {
    const full = this.mode === 'full';
    body.dataset.mode = this.mode;
    body.innerHTML = `
      <h2 class="title">…</h2>
      <p class="cond conditions"></p>
      <p class="verdict" data-w-verdict><span class="badge"></span><span class="vh"></span><span class="vd"></span></p>
      <p class="err error" role="alert" hidden></p>
      ${full ? `<form aria-label="Configuration">
        <label>Model<input name="model" list="tc-models" autocomplete="off" spellcheck="false"></label>
        <datalist id="tc-models"></datalist>
        <label>Hardware<select name="hardware"></select></label>
        <label>Tensor parallel<input name="tensor-parallel-size" type="number" min="1" step="1" inputmode="numeric"></label>
        <label>Input tokens<input name="input-tokens" type="number" min="1" step="1" inputmode="numeric"></label>
        <label>Output tokens<input name="output-tokens" type="number" min="1" step="1" inputmode="numeric"></label>
        <label>Engine<select name="engine">${tables.engines.map((e) => `<option value="${e.name}">${e.label}</option>`).join('')}</select></label>
        <label>KV cache<select name="kv-cache-dtype">${tables.kv_cache_dtypes.map((d) => `<option>${d}</option>`).join('')}</select></label>
      </form>` : ''}
      <div class="trade">
        <section class="side one" aria-label="Batch 1">
          <h3 title="${term('batch')}">1 user (batch 1)</h3>
          <p><span class="fig per" data-w="one.per"></span> <span class="hint">each</span></p>
          <p class="hint"><span data-w="one.agg"></span> in total</p>
          <p class="cond" data-w="one.cond"></p>
        </section>
        <section class="side many" aria-label="Large batch">
          <h3 data-w="many.title" title="${term('batch ceiling')}"></h3>
          <p><span class="fig agg" data-w="many.agg"></span> <span class="hint">in total</span></p>
          <p class="range" data-w="many.range" title="80 % prediction intervals from the published measurements (docs/MODEL.md section 7)"></p>
          <p class="hint"><span data-w="many.per"></span> each</p>
          <p class="cond" data-w="many.cond"></p>
        </section>
      </div>
      <section class="side steady" aria-label="Steady state" data-w-steady hidden>
        <h3 data-w="steady.title" title="${term('steady state')}"></h3>
        <p><span class="fig agg" data-w="steady.agg"></span> <span class="hint">in total</span> <span class="range" data-w="steady.range"></span></p>
        <p class="hint"><abbr title="${term('TPOT')}">TPOT</abbr> <span data-w="steady.tpot"></span> · <abbr title="${term('TTFT')}">TTFT</abbr> <span data-w="steady.ttft"></span> · <span data-w="steady.rps"></span></p>
        <p class="cond" data-w="steady.cond"></p>
      </section>
      <section class="side sessions" part="sessions" aria-label="Sessions" data-w-sessions hidden>
        <h3 data-w="sessions.title"></h3>
        <p><span class="fig agg" data-w="sessions.hit"></span> <span class="hint">of the turns' prompt tokens from the prefix cache</span></p>
        <p class="hint">Turn latency <span data-w="sessions.turn"></span> · <span data-w="sessions.rates"></span></p>
        <p class="cond" data-w="sessions.cond"></p>
      </section>
      <p class="kv" data-w="kv" title="${term('KV cache')}"></p>
      <p class="cond energy" part="energy" data-w="energy" hidden></p>
      <p class="cond feats" data-w="features" hidden></p>
      <p class="hint terms"><abbr title="${term('TPOT')}">TPOT</abbr> time per output token · <abbr title="${term('tok/s')}">tok/s</abbr> output tokens per second</p>
      <div class="chart"></div>
      <div class="foot"><span class="cond">Estimates by Throughput <span data-w="version"></span></span><a class="open" target="_blank" rel="noopener">Open in the calculator</a></div>`;
    this.#chart?.disconnect();
    this.#chart = new ThroughputChart(body.querySelector('.chart'), { compact: true });
    if (full) this.#wireForm(body.querySelector('form'));
  }

  #wireForm(form) {
    const hw = form.elements.hardware;
    try {
      for (const a of this.#engine.hardware()) hw.append(new Option(a.name, a.id));
    } catch { /* keep the attribute's value only */ }
    const idle = globalThis.requestIdleCallback ?? ((f) => setTimeout(f, 50));
    idle(() => {
      try {
        const dl = this.#root.querySelector('#tc-models');
        dl.replaceChildren(...this.#engine.models().map((m) => new Option(m.name, m.id)));
      } catch { /* the field still accepts any catalog id */ }
    });
    form.addEventListener('submit', (e) => e.preventDefault());
    form.addEventListener('change', (e) => this.#fromForm(e.target));
    form.addEventListener('input', (e) => { if (e.target.type === 'number') this.#fromForm(e.target); });
    this.#syncForm();
  }

  #fromForm(t) {
    if (!t.name) return;
    if (t.value === '') this.removeAttribute(t.name);
    else this.setAttribute(t.name, t.value); // attributeChangedCallback re-renders
  }

  #syncForm() {
    const form = this.#root.querySelector('form');
    if (!form) return;
    const set = (name, v) => { const c = form.elements[name]; if (c && this.#root.activeElement !== c) c.value = v ?? ''; };
    set('model', this.model);
    const hw = form.elements.hardware;
    const id = this.report?.hardware?.id;
    if (id && ![...hw.options].some((o) => o.value === this.hardware)) hw.value = id;
    else hw.value = this.hardware;
    set('tensor-parallel-size', this.getAttribute('tensor-parallel-size') ?? '1');
    set('input-tokens', this.getAttribute('input-tokens') ?? this.report?.config?.input_tokens);
    set('output-tokens', this.getAttribute('output-tokens') ?? this.report?.config?.output_tokens);
    set('kv-cache-dtype', this.kvCacheDtype);
    set('engine', this.engine);
  }

  /**
   * The session workload's analytic steady state (report.sessions,
   * docs/MODEL.md section 10): the prefix cache's hit rate under the
   * routing, a turn's end-to-end latency and the rates, per replica.
   */
  #fillSessions(body, r, w) {
    const s = r.sessions;
    body.querySelector('[data-w-sessions]').hidden = !s;
    if (!s) return;
    const a = this.request().workload.sessions;
    const dflt = (k) => a[k] ?? tables?.fields[`workload.sessions.${k}`]?.default;
    const load = a.users !== undefined ? `${fmt.int(a.users)} users` : a.session_rate !== undefined ? `${fmt.rate(a.session_rate)} sessions/s` : 'no load given';
    w('sessions.title', `Agentic sessions: ${fmt.int(dflt('turns'))} turns, ${fmt.given(dflt('think_time_s'))} s think time, ${load}`);
    w('sessions.hit', fmt.pct(s.prefix_hit_rate));
    const loaded = s.turn_rate > 0;
    w('sessions.turn', loaded ? fmt.ms(s.turn_latency_ms) : '–');
    w('sessions.rates', loaded ? `${fmt.rate(s.turn_rate)} turns/s, ${fmt.rate(s.session_rate)} sessions/s; the cache spares ${fmt.tokS(s.prefill_tokens_saved_per_s)} of prefill` : 'users or session-rate gives the load');
    const other = s.routing === 'random' ? `session-affine routing ${fmt.pct(s.affine_hit_rate)}` : `random routing ${fmt.pct(s.random_hit_rate)}`;
    const reps = dflt('replicas') > 1 ? `; per replica of ${fmt.int(dflt('replicas'))}` : '';
    w('sessions.cond', `${s.routing === 'random' ? 'Random' : 'Session-affine'} routing (${other}; a cache that never evicts ${fmt.pct(s.unbounded_hit_rate)})${reps}` +
      (loaded ? `; ${fmt.pct(s.resident_probability)} of returning sessions find their conversation still cached.` : '.'));
  }

  #fill(body, r) {
    const w = (k, text) => { const e = body.querySelector(`[data-w="${k}"]`); if (e) e.textContent = text; };
    const c = r.config;
    body.querySelector('.title').textContent = `${r.model.name} on ${c.num_gpus > 1 ? `${c.num_gpus}× ` : ''}${r.hardware.name}`;
    body.querySelector('.conditions').textContent =
      `${c.engine}, weights ${r.model.weight_format}, KV ${c.kv_cache_dtype}; ${fmt.int(c.input_tokens)} input + ${fmt.int(c.output_tokens)} output tokens per request` +
      (r.sessions ? ' (a session\'s first turn; each later turn re-sends the conversation)' : '') +
      (r.serving ? ` at ${steadyLoad(r)}` : '');
    const one = r.sweep?.[0];
    const many = r.decode;
    w('one.per', one ? fmt.tokS(one.tokens_per_s_per_sequence) : '–');
    w('one.agg', one ? fmt.tokS(one.tokens_per_s) : '–');
    w('one.cond', one ? `${fmt.at(one.batch_size, one.context_tokens)}; TPOT ${fmt.ms(one.step_time_ms)}` : '');
    w('many.title', many ? (r.serving ? `Pure decode step at batch ${fmt.int(many.batch_size)}` : `${fmt.int(many.batch_size)} users (batch ceiling: ${fmt.limitedBy(r.batch_ceiling.limited_by)})`) : 'Large batch');
    w('many.agg', many ? fmt.tokS(many.tokens_per_s) : '–');
    w('many.range', many ? [fmt.range(r, 'decode.tokens_per_s', fmt.tokS), fmt.range(r, 'decode.step_time_ms', fmt.ms) && `TPOT ${fmt.range(r, 'decode.step_time_ms', fmt.ms)}`].filter(Boolean).join(' · ') : '');
    w('many.per', many ? fmt.tokS(many.tokens_per_s_per_sequence) : '–');
    w('many.cond', many ? `${fmt.at(many.batch_size, many.context_tokens)}; TPOT ${fmt.ms(many.step_time_ms)}` : '');
    // The steady state under the workload's concurrency or request rate (report.serving).
    const s = r.serving;
    body.querySelector('[data-w-steady]').hidden = !s;
    w('steady.title', s ? `${steadyAt(r)[0].toUpperCase()}${steadyAt(r).slice(1)}` : '');
    w('steady.agg', s ? fmt.tokS(s.output_tokens_per_s) : '');
    w('steady.range', s ? fmt.range(r, 'serving.output_tokens_per_s', fmt.tokS) : '');
    w('steady.tpot', s ? `${fmt.ms(s.tpot_ms)} ${fmt.range(r, 'serving.tpot_ms', fmt.ms)}`.trimEnd() : '');
    w('steady.ttft', s ? `${fmt.ms(s.ttft_ms)} ${fmt.range(r, 'serving.ttft_ms', fmt.ms)}`.trimEnd() : '');
    w('steady.rps', s ? fmt.reqS(s.requests_per_s) : '');
    w('steady.cond', s ? steadyConditions(r) : '');
    this.#fillSessions(body, r, w);
    const v = verdict(r);
    const ve = body.querySelector('[data-w-verdict]');
    ve.dataset.state = v.state;
    ve.querySelector('.badge').textContent = v.badge;
    ve.querySelector('.vh').textContent = v.headline;
    ve.querySelector('.vd').textContent = [...v.lines, ...(v.fixes.length ? [`Nearest fixes: ${v.fixes.join('; ')}.`] : [])].join(' ');
    body.classList.toggle('nofit', !r.decode);
    const feats = body.querySelector('[data-w=features]');
    feats.textContent = (v.features ?? []).join(' ');
    feats.hidden = !v.features?.length;
    const pre = r.preemption;
    w('kv', r.fits || r.kv_cache.capacity_tokens
      ? `KV cache: ${fmt.bytes(Math.max(r.memory.kv_cache_bytes, 0))} per GPU holds ${fmt.int(r.kv_cache.capacity_tokens)} tokens ${fmt.range(r, 'kv_cache.capacity_tokens', fmt.int)}`.trimEnd() +
        (pre ? `, so at most ${fmt.int(pre.onset_concurrency_lockstep)} sequences of ${fmt.int(pre.context_tokens)} tokens (the KV ceiling).` : '.')
      : (r.warnings?.[0]?.message ?? 'The model does not fit.'));
    // The energy at the cost section's operating point (report.energy, docs/MODEL.md section 5c).
    const en = r.energy;
    body.querySelector('[data-w=energy]').hidden = !en;
    w('energy', en ? `Energy: ${fmt.joules(en.joules_per_output_token)} ${fmt.range(r, 'energy.joules_per_output_token', fmt.joules)}`.trimEnd() +
      `, ${fmt.int(en.gpu_power_w)} W per GPU of ${fmt.int(en.rated_power_w)} W rated, ${fmt.int(en.num_gpus)} GPU${en.num_gpus === 1 ? '' : 's'}` +
      ` at ${fmt.tokS(en.tokens_per_s)} (${r.serving ? steadyLoad(r) : `batch ${fmt.int(en.batch_size)}`}).` : '');
    w('version', `v${r.version}`);
    this.#chart.update(r);
    const req = this.request();
    const q = new URLSearchParams({ model: this.model, hardware: this.hardware });
    for (const [name, [path]] of Object.entries(INT_ATTRS)) {
      const v = this.intAttr(name);
      if (v !== undefined) q.set(path.replace('workload.', ''), String(v));
    }
    if (req.workload?.concurrency) q.set('load', 'concurrency');
    if (req.workload?.request_rate) {
      q.set('load', 'rate');
      q.set('request_rate', String(req.workload.request_rate));
    }
    if (this.kvCacheDtype !== 'auto') q.set('kv_cache_dtype', this.kvCacheDtype);
    if (req.engine) q.set('engine', req.engine);
    if (req.engine_version) q.set('engine_version', req.engine_version);
    if (req.gpu_memory_utilization) q.set('gpu_memory_utilization', String(req.gpu_memory_utilization));
    if (req.p2p === false) q.set('p2p', 'off');
    if (req.flashinfer_sampler) q.set('flashinfer_sampler', 'on');
    for (const [name, v] of this.featureAttrs()) q.set(FEATURE_ATTRS[name][3], v === true ? 'on' : String(v));
    // The page's empty spec_method is "off"; the engine's method default
    // (calc.Fields SpeculativeConfig.method) is eagle without a draft model.
    if (req.speculative_config && !q.has('spec_method')) q.set('spec_method', 'eagle');
    body.querySelector('a.open').href = `${this.calculatorURL}?${q}`;
    this.#syncForm();
  }
}

export default ThroughputCalculator;
