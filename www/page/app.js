// The calculator page: state in the URL, the form, the engine, the results.
import * as S from './state.js';
import * as P from './profile.js';
import * as F from './form.js';
import * as fmt from '../ui/format.js';
import { reportView } from './report.js';
import { ThroughputChart, CHART_CSS } from '../ui/chart.js';
import { renderCompare } from './compare.js';
import { evaluateWithRange, sweepMax } from '../ui/sweep-range.js';
import { setText, setAttr, setHidden } from '../ui/dom.js';
import { SIM_FIGURES, simFigure, simConditions, simRequest, sweepLoadLabel, ARRIVALS } from './sim.js';
import { LineChart } from './simchart.js';
import { svgText, pngBlob } from '../ui/chart-export.js';

// index.html's head already compiles the engine and fetches the prerendered
// report while the modules load; the engine is started (instantiated, Go
// runtime started, which holds the main thread for a few hundred ms on a
// slow machine) only after the first paint, in boot().
performance.mark('throughput:app-start');
const engineModule = import('../module/throughput.js');
const startEngine = () => Promise.all([engineModule, globalThis.__throughputWasm, globalThis.__throughputCatalog])
  .then(([m, wasm, catalog]) => m.load({ ...(wasm ? { wasm } : {}), ...(catalog ? { catalog } : {}), hub: hubSettings() }));

// The Hugging Face Hub that model ids outside the catalog are fetched from
// (the footer's settings, kept in this browser: localStorage, never the URL).
const HUB_URL_KEY = 'throughput:hub-url';
const HUB_TOKEN_KEY = 'throughput:hub-token';
function stored(key) {
  try { return localStorage.getItem(key) ?? ''; } catch { return ''; }
}
function hubSettings() {
  return { url: stored(HUB_URL_KEY).trim() || 'https://huggingface.co', token: stored(HUB_TOKEN_KEY).trim() };
}
// The default view's report, computed at build time by the same engine
// (scripts/prerender.mjs): shown until the engine has started.
const prerendered = globalThis.__throughputPrerender ?? Promise.resolve(null);

const $ = (sel, root = document) => root.querySelector(sel);
document.head.append(Object.assign(document.createElement('style'), { textContent: CHART_CSS }));
const form = $('#inputs');
const statusEl = $('#status');
const errorsEl = $('#errors');
const reportEl = $('#report');
const verdictEl = $('#verdict');

let calc = null; // the engine (throughput.js calculator)
let state = S.fromQuery(location.search);
const reports = new Map(); // request JSON -> {report} | {errors}
const chart = new ThroughputChart($('#chart'), { readout: $('#chart-readout') });
const renderReport = reportView(document); // report.js: figures, cards, memory bar, warnings

/** The configuration the form edits. */
const active = () => state.configs[state.active];

// --- engine --------------------------------------------------------------

let rangeHint; // the sweep range of the last evaluation (see sweep-range.js)

/**
 * Evaluate a request, caching by its JSON: {report} or {errors}. The sweep
 * is extended so that the chart shows the KV ceiling and the preemption
 * onset; no other figure depends on it.
 */
function evaluate(request) {
  const key = JSON.stringify(request);
  let hit = reports.get(key);
  if (!hit) {
    try {
      // A calibrated request, or one with a start-up log, goes to the
      // full engine: the light one leaves the fit and the log reader out
      // (its size budget).
      const engine = needsFull(request) ? fullCalc : calc;
      const report = evaluateWithRange((r) => engine.evaluate(r), request, rangeHint);
      if (report.sweep?.length) rangeHint = sweepMax(report);
      hit = { report };
    } catch (e) {
      hit = { errors: Array.isArray(e?.errors) && e.errors.length ? e.errors : [{ field: '', message: String(e?.message ?? e) }] };
    }
    if (reports.size > 64) reports.delete(reports.keys().next().value);
    reports.set(key, hit);
  }
  return hit;
}

/**
 * Whether a request needs the full engine (see evaluate): a calibration or
 * a start-up log, or a model the light engine has refused as needing it
 * (DeepSeek-V4: its parameter model and packed KV layout are the full
 * engine's, for the light engine's size budget).
 */
function needsFull(request) {
  return Boolean(request.calibration || request.startup_log || fullOnlyModels.has(String(request.model).toLowerCase()));
}

const fullOnlyModels = new Set(); // models (lower case) the light engine refused as needing the full engine

/** Whether errors are the light engine's refusal of a model it leaves to the full engine. */
function refusedForFull(errors) {
  return (errors ?? []).some((e) => e.field?.startsWith('model') && e.message.includes('needs the full engine'));
}

/**
 * Evaluate one configuration: {request, report?, errors?}, or {request,
 * fetching} while the model's config.json is fetched from the Hub (the
 * page updates again when it is in, or refused).
 */
function run(config) {
  const { request, errors } = S.toRequest(config);
  if (errors.length) return { request, errors };
  if (needsFull(request) && !fullCalc) {
    loadFull().then(() => update(), () => {});
    return { request, loading: true };
  }
  const wait = calc?.pending(request);
  if (wait) {
    if (!waiting.has(wait)) {
      waiting.add(wait);
      wait.catch(() => {}).finally(() => {
        waiting.delete(wait);
        forgetModel(request.model);
        update();
      });
    }
    return { request, fetching: request.model };
  }
  const hit = evaluate(request);
  if (!needsFull(request) && refusedForFull(hit.errors)) {
    // The light engine leaves this model to the full engine: answer from
    // that one, loading it first.
    fullOnlyModels.add(String(request.model).toLowerCase());
    reports.delete(JSON.stringify(request));
    if (fullCalc) return { request, ...evaluate(request) };
    loadFull().then(() => { fillModels(); update(); }, () => {});
    return { request, loading: true };
  }
  return { request, ...hit };
}

const waiting = new Set(); // prepare() promises the page waits for

/** Drops the cached answers for a model (a Hub fetch settled). */
function forgetModel(model) {
  for (const k of reports.keys()) if (JSON.parse(k).model === model) reports.delete(k);
}

// --- rendering -----------------------------------------------------------

let last = null; // the last good result of the active configuration
let deferChart = true; // see render()

/** Recompute and redraw everything; called on every input event. */
function update() {
  if (!calc && !reports.has(JSON.stringify(S.toRequest(active()).request))) return;
  const t0 = performance.now();
  const res = run(active());
  const t1 = performance.now();
  const local = badInputs();
  const errors = [...local, ...(res.errors ?? [])];
  F.clearErrors(form);
  const unplaced = F.showErrors(form, errors);
  if (unplaced.length) {
    errorsEl.hidden = false;
    errorsEl.textContent = unplaced.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('\n');
  } else if (!errorsEl.hidden) {
    errorsEl.hidden = true;
    errorsEl.textContent = '';
  }
  // The engine settings' placeholders: the report's resolved values
  // (render), else the engine's listed defaults.
  if (!res.report || local.length) showEngineDefaults();
  if (res.report && !local.length) {
    last = res;
    render(res.report);
    reportEl.classList.remove('stale');
    verdictEl.classList.remove('stale');
    document.documentElement.classList.remove('pending'); // see index.html's head
    setStatus('');
  } else if (res.loading && !local.length) {
    reportEl.classList.add('stale');
    setStatus(res.request.calibration?.profile ? 'Loading the full engine to apply the calibration profile…'
      : res.request.calibration ? 'Loading the full engine to fit the calibration…' : 'Loading the full engine, which this request needs…');
  } else if (res.fetching && !local.length) {
    reportEl.classList.add('stale');
    setStatus(`Fetching the config.json of ${res.fetching} from the Hugging Face Hub…`);
  } else {
    reportEl.classList.add('stale');
    verdictEl.classList.add('stale');
    setStatus(last ? 'Showing the last valid result: fix the highlighted field.' : 'Fix the highlighted field to see a result.');
  }
  renderProfile(res);
  renderTabs();
  renderComparison();
  markSimulationStale();
  scheduleURL();
  // Timing of the last update, read by scripts/bench-page.mjs.
  window.__throughputTiming = { evaluate_ms: t1 - t0, total_ms: performance.now() - t0 };
  document.dispatchEvent(new CustomEvent('throughput:updated'));
}

/** Number inputs whose text the browser cannot read as a number. */
function badInputs() {
  return F.controls(form)
    .filter((c) => c.validity?.badInput && !c.closest('[hidden]'))
    .map((c) => ({ field: c.closest('[data-field]')?.dataset.field ?? c.name, message: 'is not a number' }));
}

function render(r) {
  renderReport(r);
  showEngineDefaults(r);
  const extra = others();
  if (deferChart) {
    // The first paint shows the figures at once and draws the chart after
    // it (a task after the next frame): building its 256-point SVG is the
    // slowest part of a cold render.
    deferChart = false;
    requestAnimationFrame(() => setTimeout(() => chart.update(last?.report ?? r, others()), 0));
  } else {
    chart.update(r, extra);
  }
  renderOthersLegend(extra);
  if ($('#sweep-details').open) renderSweepTable(r);
  renderAbout(r);
}

function renderSweepTable(r) {
  const rows = (r.sweep ?? []).map((p) => `<tr><td>${fmt.int(p.batch_size)}</td><td>${fmt.int(p.context_tokens)}</td><td>${fmt.ms(p.step_time_ms)}</td>` +
    `<td>${fmt.tokS(p.tokens_per_s)}</td><td>${fmt.tokS(p.tokens_per_s_per_sequence)}</td><td>${fmt.pct(p.kv_cache_usage)}</td><td>${p.bound}</td></tr>`);
  $('#sweep-table tbody').innerHTML = rows.join('');
}

let shownAbout = '';
function renderAbout(r) {
  const key = JSON.stringify([r.model, r.hardware, r.config.engine, r.config.efficiencies, r.config.max_num_seqs, r.config.max_num_batched_tokens, r.config.max_model_len]);
  if (key === shownAbout) return;
  shownAbout = key;
  const e = r.config.efficiencies ?? {};
  const rows = [
    ['Model', `${r.model.name} (${r.model.id})`],
    ['Weights', `${r.model.weight_format}, quantization ${r.model.quantization}`],
    ['Accelerator', `${r.hardware.name}: ${fmt.bytes(r.hardware.memory_bytes)}, ${fmt.num(r.hardware.memory_bandwidth_bytes_per_s / 1e12)} TB/s, ${fmt.num(r.hardware.peak_flops_per_s / 1e12)} TFLOPS ${r.hardware.compute_precision}${r.config.p2p === false ? '; no GPU peer-to-peer: all-reduces staged through host memory' : ''}`],
    ['Engine', `${r.config.engine}: bandwidth efficiency ${e.bandwidth_efficiency} (attention ${e.attention_bandwidth_efficiency}), compute efficiency ${e.compute_efficiency} (half at ${e.gemm_half_tokens} tokens; attention ${e.attention_efficiency}), overhead ${e.step_overhead_ms} ms per step + ${e.layer_overhead_us} µs per layer + ${e.sequence_overhead_us} µs per sequence${e.moe_layer_overhead_us && r.model.architecture.includes('moe') ? ` + ${e.moe_layer_overhead_us} µs per MoE layer` : ''} + ${e.prefill_layer_overhead_us} µs per layer in a prefill step${e.all_reduce_latency_us ? ` + ${e.all_reduce_latency_us} µs per all-reduce` : ''}${e.tp_step_overhead_ms ? ` + ${e.tp_step_overhead_ms} ms per step under tensor parallelism` : ''}, context phase ${e.context_overhead_ms} ms${e.request_overhead_ms ? ` + API server ${e.request_overhead_ms} ms per request` : ''}${e.tokenize_us_per_token ? ` + tokenizer ${e.tokenize_us_per_token} µs per prompt token` : ''}${e.sm_bytes_per_cycle ? `; weights streamed at most ${e.sm_bytes_per_cycle} bytes per SM (AMD: compute unit) per cycle` : ''}${e.paged_attention_v1_bandwidth_efficiency ? `; KV cache read once per query head (vLLM's own paged attention), at ${e.paged_attention_v1_bandwidth_efficiency} of the bandwidth in its unpartitioned kernel` : ''}`],
    ['Scheduler', `max_num_seqs ${r.config.max_num_seqs}, max_num_batched_tokens ${fmt.int(r.config.max_num_batched_tokens)}, max_model_len ${fmt.int(r.config.max_model_len)}`],
  ];
  $('#about').replaceChildren(...rows.map(([k, v]) => {
    const d = document.createElement('div');
    d.append(Object.assign(document.createElement('dt'), { textContent: k }), Object.assign(document.createElement('dd'), { textContent: v }));
    return d;
  }));
}

/** The other configurations' sweeps, overlaid on the chart. */
function others() {
  const out = [];
  state.configs.forEach((c, i) => {
    if (i === state.active) return;
    const r = run(c).report;
    if (r?.sweep) out.push({ label: `${tabName(i)}: ${S.label(c, r)}`, sweep: r.sweep, className: `o${out.length + 1}` });
  });
  return out;
}

let shownOthers = '';
/** Legend entries for the other configurations' curves. */
function renderOthersLegend(list) {
  const key = list.map((o) => o.label + o.className).join('|');
  if (key === shownOthers) return;
  shownOthers = key;
  $('#chart-others').replaceChildren(...list.map((o) => {
    const s = document.createElement('span');
    s.className = `other ${o.className}`;
    s.style.color = `var(--${o.className})`;
    s.textContent = `━ ${o.label} (aggregate)`;
    return s;
  }));
  $('#chart-others').style.display = list.length ? 'contents' : 'none';
}

function renderComparison() {
  const panel = $('#compare-panel');
  setHidden(panel, state.configs.length < 2);
  if (panel.hidden) return;
  const cols = state.configs.map((c, i) => ({ name: tabName(i), config: c, res: run(c), active: i === state.active }));
  renderCompare($('#compare-table'), cols);
}

// --- simulation ----------------------------------------------------------

// The simulation runs only on the button (it costs tens of milliseconds or
// more); when the inputs change afterwards its results are marked stale.
const simForm = $('#sim-form');
const simBody = $('#simulation-body');
const simStatus = $('#sim-status');
const simFigureEls = [...document.querySelectorAll('[data-sim]')];
let simCharts = null;
let simKey = ''; // the simulation request the shown results answer

/** The simulation request for the active configuration, or null. */
function currentSimRequest() {
  if (!last) return null;
  const opts = Object.fromEntries(new FormData(simForm));
  return simRequest(last.request, opts, last.report);
}

function markSimulationStale() {
  if (!simKey) return;
  const req = currentSimRequest();
  const stale = !req || JSON.stringify(req) !== simKey;
  if (simBody.classList.contains('stale') !== stale) {
    simBody.classList.toggle('stale', stale);
    setText(simStatus, stale ? 'The inputs changed: these results are for the previous inputs. Run the simulation again to update them.' : '');
  }
}

function syncSimForm() {
  const arrival = $('#sim-arrival').value;
  for (const f of simForm.querySelectorAll('[data-sim-when]')) setHidden(f, f.dataset.simWhen !== arrival);
}

simForm.addEventListener('input', () => { syncSimForm(); markSimulationStale(); });
simForm.addEventListener('change', () => { syncSimForm(); markSimulationStale(); });
simForm.addEventListener('submit', (e) => {
  e.preventDefault();
  runSimulation();
});

// The simulate button's work budget, in sequence-steps: 25x the engine's
// default (the HTTP API's, about 40 ms natively), about 1 s of native CPU
// and a few seconds in a browser. The simulation runs in a Web Worker
// (sim-worker.js), so the page stays responsive and Cancel stops it; where
// no worker can start it runs here, on the main thread, under the smaller
// MAIN_THREAD_WORK_BUDGET (about 0.2 s natively). A larger simulation is
// refused with the field to lower (docs/api.md "Work budget").
const SIM_WORK_BUDGET = 1e8;
const MAIN_THREAD_WORK_BUDGET = 2e7;

let simWorker = null; // the Web Worker, started on the first simulation
let simJob = null; // {id, cancel} of the simulation in flight
let simJobs = 0;

function startSimWorker() {
  if (simWorker !== null || typeof Worker === 'undefined') return simWorker;
  try {
    simWorker = new Worker(new URL('./sim-worker.js', import.meta.url), { type: 'module' });
  } catch {
    simWorker = false; // no module workers here: the main thread it is
  }
  return simWorker;
}

/** Evaluates req in the worker; resolves {report} or {errors}. */
function simulateInWorker(worker, req) {
  const id = ++simJobs;
  return new Promise((resolve) => {
    const done = (answer) => {
      worker.removeEventListener('message', onMessage);
      worker.removeEventListener('error', onError);
      simJob = null;
      resolve(answer);
    };
    const onMessage = ({ data }) => { if (data?.id === id) done(data); };
    const onError = (e) => {
      e.preventDefault?.();
      simWorker = false; // the worker failed to start: use the main thread from now on
      done({ retry: true });
    };
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', onError);
    simJob = {
      id,
      cancel() {
        worker.terminate();
        simWorker = null; // a fresh one next time
        done({ cancelled: true });
      },
    };
    worker.postMessage({ id, request: req, workBudget: SIM_WORK_BUDGET, hub: hubSettings() });
  });
}

// The full engine (throughput-planner.wasm), for a simulation without a
// worker: the page's own engine is the light build, without the simulator.
let fullEngine = null;
let fullCalc = null; // the full engine once loaded: it evaluates calibrated requests

/** Loads the full engine (once); resolves it. */
function loadFull() {
  fullEngine ??= engineModule.then((m) => m.load({ planner: true, hub: hubSettings() }));
  return fullEngine.then((f) => { fullCalc = f; return f; });
}

// "Read the results": the full engine reads the pasted vllm bench serve
// summaries (calc.ParseBenchServe) and the fit's measured steps become the
// configuration's calibration, which travels in the link.
$('#bench-fit')?.addEventListener('click', async () => {
  const status = $('#bench-status');
  const text = $('#f-bench').value;
  const { request } = S.toRequest({ ...active(), calibration: '' });
  request.calibration = { bench_serve: text };
  status.textContent = 'Reading…';
  try {
    const full = await loadFull();
    const r = full.evaluate(request);
    active().calibration = S.calibrationText(r.calibration.points);
    active().profile = ''; // the measured steps replace a profile (the engine takes one or the other)
    F.writeForm(form, active());
    status.textContent = `Read ${r.calibration.points.length} result${r.calibration.points.length === 1 ? '' : 's'}.`;
    update();
  } catch (e) {
    status.textContent = Array.isArray(e?.errors) ? e.errors.map((x) => x.message).join('; ') : String(e?.message ?? e);
  }
});

// --- the calibration profile (www/page/profile.js) ----------------------

// A profile (calibration.profile) is loaded from a file (the file input or
// a drop), pasted into its field, or read from the link; a benchmark's
// results file is fitted into one by the full engine (calibrate(), the
// same fit as POST /v1/calibrate). The profile is the configuration's
// "profile" value, so it travels in the link (state.js) and in history.
const profileEls = {
  info: $('#profile-info'), error: $('#profile-error'), status: $('#profile-status'),
  download: $('#profile-download'), use: $('#profile-use'), clear: $('#profile-clear'), drop: $('#profile-drop'),
};
let shownProfile = null; // the profile "Download profile" saves: the report's, else the field's

/** The profile's line, its errors in plain words and its buttons, for the result res of the active configuration. */
function renderProfile(res) {
  const c = active();
  const read = P.readProfile(c.profile);
  shownProfile = res.report?.calibration?.calibration_profile ?? read.profile ?? null;
  setText(profileEls.info, read.profile ? P.profileText(read.profile) : '');
  const plain = (res.errors ?? []).map(P.plainError).filter(Boolean); // read.error is among them (state.js toRequest)
  setText(profileEls.error, plain.join(' '));
  setHidden(profileEls.error, !plain.length);
  const mismatch = (res.errors ?? []).some((e) => /^calibration\.profile\.(engine|model|hardware|tensor_parallel_size)$/.test(e.field ?? ''));
  setHidden(profileEls.use, !(mismatch && read.profile));
  setHidden(profileEls.clear, !String(c.profile ?? '').trim());
  if (profileEls.download.disabled !== !shownProfile) profileEls.download.disabled = !shownProfile;
}

/** Sets the active configuration's profile (one history entry); a profile replaces the measured steps. */
function setProfile(text) {
  commitEntry();
  userChange();
  const c = active();
  c.profile = text;
  if (text) c.calibration = '';
  F.writeForm(form, c);
  update();
  commitEntry();
}

/**
 * Applies a file's text: a profile as it is; a benchmark's results (a
 * format profile.js importFormat recognizes) fitted by the full engine
 * into a profile; anything else small enough is put in the field, where
 * the engine names what is wrong with it.
 */
async function loadProfileText(text, name) {
  const status = profileEls.status;
  let parsed = null;
  try { parsed = JSON.parse(text); } catch { /* a CSV, JSON lines or not JSON */ }
  const format = P.isProfile(parsed) ? '' : P.importFormat(text, name);
  if (!format) {
    if (text.length > 64 * 1024) {
      setText(status, `${name} is neither a calibration profile nor a benchmark result the engine reads (${Object.values(P.IMPORT_TOOLS).join(', ')}).`);
      return;
    }
    setText(status, `Read ${name}.`);
    setProfile(parsed ? JSON.stringify(parsed) : text);
    return;
  }
  setText(status, `Fitting ${name} (${P.IMPORT_TOOLS[format]}) with the full engine…`);
  try {
    const full = await loadFull();
    const { request } = S.toRequest({ ...active(), calibration: '', profile: '' });
    request.calibration = { imports: [{ format, data: text }] };
    delete request.sweep;
    const fit = full.calibrate(request);
    const runs = fit.serving?.length ?? 0;
    setText(status, `Fitted ${runs} run${runs === 1 ? '' : 's'} of ${name} (${P.IMPORT_TOOLS[format]}): ${fit.fitted.join(', ')}; RMS error ${(100 * fit.rms_error).toFixed(1)} %.`);
    setProfile(JSON.stringify(fit.calibration_profile));
  } catch (e) {
    const errs = Array.isArray(e?.errors) && e.errors.length ? e.errors : [{ field: '', message: String(e?.message ?? e) }];
    setText(status, `${name} could not be fitted: ${errs.map((x) => (x.field ? `${x.field}: ${x.message}` : x.message)).join('; ')}`);
  }
}

async function loadProfileFile(file) {
  if (!file) return;
  if (file.size > 16 * 2 ** 20) {
    setText(profileEls.status, `${file.name} is over 16 MiB, the largest benchmark file the engine reads.`);
    return;
  }
  await loadProfileText(await file.text(), file.name);
}

$('#profile-file')?.addEventListener('change', (e) => {
  loadProfileFile(e.target.files?.[0]);
  e.target.value = ''; // the same file again is a change too
});
profileEls.drop?.addEventListener('dragover', (e) => {
  e.preventDefault();
  profileEls.drop.classList.add('over');
});
profileEls.drop?.addEventListener('dragleave', () => profileEls.drop.classList.remove('over'));
profileEls.drop?.addEventListener('drop', (e) => {
  e.preventDefault();
  profileEls.drop.classList.remove('over');
  loadProfileFile(e.dataTransfer?.files?.[0]);
});
profileEls.download?.addEventListener('click', () => {
  if (shownProfile) download(P.profileFileName(shownProfile), 'application/json', `${JSON.stringify(shownProfile, null, 2)}\n`);
});
profileEls.clear?.addEventListener('click', () => {
  setText(profileEls.status, '');
  setProfile('');
});
profileEls.use?.addEventListener('click', () => {
  const p = P.readProfile(active().profile).profile;
  if (!p) return;
  commitEntry();
  userChange();
  const c = Object.assign(active(), P.deploymentConfig(p, active()));
  c.hardware = canonicalHardware(c.hardware);
  F.writeForm(form, c);
  F.applyConditions(form, c);
  update();
  commitEntry();
});

async function simulateHere(req) {
  try {
    const full = await loadFull();
    await full.prepare(req);
    return { report: full.evaluate(req, { workBudget: MAIN_THREAD_WORK_BUDGET }) };
  } catch (e) {
    return { errors: Array.isArray(e?.errors) && e.errors.length ? e.errors : [{ field: '', message: String(e?.message ?? e) }] };
  }
}

function runSimulation() {
  if (!calc || simJob) return;
  update(); // the page's result for the inputs as they are now
  if (!last || reportEl.classList.contains('stale')) {
    setText(simStatus, 'Fix the highlighted field before simulating.');
    return;
  }
  const req = currentSimRequest();
  const btn = $('#sim-run');
  const cancel = $('#sim-cancel');
  btn.disabled = true;
  setAttr(simBody, 'aria-busy', 'true');
  setText(simStatus, 'Simulating…');
  const t0 = performance.now();
  // The elapsed time is the progress the engine can give (one synchronous call).
  const ticker = setInterval(() => setText(simStatus, `Simulating… ${fmt.num((performance.now() - t0) / 1000)} s`), 500);
  const finish = (answer) => {
    clearInterval(ticker);
    if (cancel) cancel.hidden = true;
    if (answer.cancelled) {
      setText(simStatus, 'Simulation cancelled.');
    } else if (answer.errors) {
      const errs = answer.errors;
      setText(simStatus, `The simulation failed: ${errs.map((x) => (x.field ? `${x.field}: ${x.message}` : x.message)).join('; ')}`);
    } else {
      simKey = JSON.stringify(req);
      renderSimulation(answer.report);
      simBody.classList.remove('stale');
      setText(simStatus, `Simulated in ${fmt.num(performance.now() - t0)} ms.`);
    }
    btn.disabled = false;
    setAttr(simBody, 'aria-busy', 'false');
    document.dispatchEvent(new CustomEvent('throughput:simulated'));
  };
  const worker = startSimWorker();
  if (worker) {
    if (cancel) cancel.hidden = false;
    simulateInWorker(worker, req).then((answer) => {
      if (!answer.retry) return finish(answer);
      if (cancel) cancel.hidden = true;
      setTimeout(() => simulateHere(req).then(finish), 0);
    });
    return;
  }
  // Let the status paint before the engine blocks the main thread.
  setTimeout(() => simulateHere(req).then(finish), 0);
}

$('#sim-cancel')?.addEventListener('click', () => simJob?.cancel());

function renderSimulation(r) {
  const s = r.simulation;
  setHidden(simBody, false);
  setText($('#sim-conditions'), simConditions(s));
  for (const el of simFigureEls) if (el.dataset.sim in SIM_FIGURES) setText(el, simFigure(el.dataset.sim, s));
  simCharts ??= {
    timeline: new LineChart($('#sim-timeline'), { title: 'Simulated running batch, waiting queue and KV cache use against time' }),
    sweep: new LineChart($('#sim-sweep'), { title: 'Simulated output throughput and p99 TTFT against load' }),
  };
  const tl = s.timeline ?? [];
  const kvPct = (v) => `${Math.round(v * 100)}%`;
  simCharts.timeline.update({
    xLabel: 'time (s)',
    left: { label: 'sequences', className: 'agg' },
    right: { label: 'KV cache', className: 'per', max: 1, format: kvPct },
    series: [
      { points: tl.map((p) => [p.time_s, p.running]), className: 'agg', title: 'running batch' },
      { points: tl.map((p) => [p.time_s, p.waiting]), className: 'other', title: 'waiting queue' },
      { points: tl.map((p) => [p.time_s, p.kv_cache_usage]), axis: 'right', className: 'per', title: 'KV cache in use' },
    ],
    markers: s.preemptions ? [{ x: s.first_preemption_s, label: `first preemption ${fmt.num(s.first_preemption_s)} s`, className: 'onset' }] : [],
    desc: `Over ${fmt.num(s.duration_s)} s: mean batch ${fmt.num(s.mean_running)}, mean queue ${fmt.num(s.mean_waiting)}, ` +
      `KV cache ${fmt.pct(s.mean_kv_cache_usage)} on average and ${fmt.pct(s.peak_kv_cache_usage)} at peak; ${fmt.int(s.preemptions)} preemptions.`,
  });
  const sw = s.sweep;
  setHidden($('#sim-sweep'), !sw);
  if (!sw) { setText($('#sim-sweep-conditions'), 'No load sweep.'); return; }
  const pts = sw.points ?? [];
  const unit = sw.load === 'request_rate' ? 'req/s' : 'users';
  const lastLoad = pts.at(-1)?.load ?? 0;
  simCharts.sweep.update({
    xLabel: sweepLoadLabel(sw),
    left: { label: 'output tok/s', className: 'agg' },
    right: { label: 'p99 TTFT ms', className: 'per' },
    series: [
      { points: pts.map((p) => [p.load, p.output_tokens_per_s]), className: 'agg', title: 'output tokens per second' },
      { points: pts.map((p) => [p.load, p.ttft_p99_ms]), axis: 'right', className: 'per', title: 'p99 time to first token' },
    ],
    markers: [
      { x: sw.preemption_onset, label: `preemption ${fmt.num(sw.preemption_onset)} ${unit}`, className: 'onset' },
      { x: sw.analytic_onset, label: `analytic ${fmt.num(sw.analytic_onset)} ${unit}`, className: 'kv' },
    ],
    shade: sw.preemption_onset > 0 ? { x0: sw.preemption_onset, x1: lastLoad, label: 'preempting' } : null,
    desc: `${pts.length} loads from ${fmt.num(pts[0]?.load)} to ${fmt.num(lastLoad)} ${unit}: output throughput up to ${fmt.tokS(sw.max_output_tokens_per_s)}, ` +
      `knee at ${fmt.num(sw.knee_load)} ${unit}; preemption measured from ${sw.preemption_onset ? `${fmt.num(sw.preemption_onset)} ${unit}` : 'no load of the sweep'}, ` +
      `analytic estimate ${sw.analytic_onset ? `${fmt.num(sw.analytic_onset)} ${unit}` : 'not reached'}.`,
  });
  setText($('#sim-sweep-conditions'), `${fmt.int(sw.num_requests_per_point)} requests per load, ${ARRIVALS[s.arrival] ?? s.arrival}; ` +
    `knee ${fmt.num(sw.knee_load)} ${unit} (${fmt.tokS(sw.knee_output_tokens_per_s)}, 95% of the best); ` +
    `preemption onset measured ${sw.preemption_onset ? `${fmt.num(sw.preemption_onset)} ${unit}` : 'not reached'}, analytic ${sw.analytic_onset ? `${fmt.num(sw.analytic_onset)} ${unit}` : 'not reachable'}.`);
}

// --- tabs (configurations) ----------------------------------------------

const tabName = (i) => 'ABCD'[i];

function renderTabs() {
  const list = $('#config-tabs');
  const n = state.configs.length;
  setHidden(list, n < 2);
  while (list.children.length > n) list.lastChild.remove();
  state.configs.forEach((c, i) => {
    let b = list.children[i];
    if (!b) {
      b = document.createElement('button');
      b.type = 'button';
      b.setAttribute('role', 'tab');
      b.id = `tab-${i}`;
      b.setAttribute('aria-controls', 'config-panel');
      b.addEventListener('click', () => selectConfig(i));
      list.append(b);
    }
    const sel = i === state.active;
    setAttr(b, 'aria-selected', String(sel));
    setAttr(b, 'tabindex', sel ? '0' : '-1');
    setText(b, `${tabName(i)} · ${S.label(c, run(c).report)}`);
  });
  setAttr($('#config-panel'), 'aria-labelledby', n > 1 ? `tab-${state.active}` : null);
  const add = $('#add-config');
  if (add.disabled !== n >= S.MAX_CONFIGS) add.disabled = n >= S.MAX_CONFIGS;
  setHidden($('#remove-config'), n < 2);
}

function selectConfig(i, focus = false) {
  commitEntry();
  userChange();
  state.active = i;
  last = null; // "the last valid result" is per configuration
  F.writeForm(form, active());
  update();
  commitEntry();
  if (focus) $(`#tab-${i}`)?.focus();
}

$('#config-tabs').addEventListener('keydown', (e) => {
  const n = state.configs.length;
  const moves = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1, Home: -state.active, End: n - 1 - state.active };
  if (!(e.key in moves)) return;
  e.preventDefault();
  selectConfig((state.active + moves[e.key] + n) % n, true);
});

$('#add-config').addEventListener('click', () => {
  if (state.configs.length >= S.MAX_CONFIGS) return;
  state.configs.push({ ...active() });
  selectConfig(state.configs.length - 1, true);
});

// A remove button lives in the panel (a tab holds no nested control).
const removeBtn = Object.assign(document.createElement('button'), { type: 'button', id: 'remove-config', className: 'link', textContent: 'Remove this configuration' });
$('#reset-config').after(removeBtn);
removeBtn.addEventListener('click', () => {
  if (state.configs.length < 2) return;
  state.configs.splice(state.active, 1);
  selectConfig(Math.min(state.active, state.configs.length - 1), true);
});

$('#reset-config').addEventListener('click', () => {
  commitEntry();
  userChange();
  state.configs[state.active] = S.newConfig();
  F.writeForm(form, active());
  update();
  commitEntry();
});

// --- form events ---------------------------------------------------------

form.addEventListener('input', (e) => { userChange(); onControl(e.target); });
form.addEventListener('change', (e) => {
  if (e.target.type === 'radio' || e.target.tagName === 'SELECT') {
    userChange();
    onControl(e.target);
  }
  commitEntry();
});
form.addEventListener('submit', (e) => e.preventDefault());

function onControl(t) {
  const c = active();
  if (t.type === 'range' && t.dataset.pair) {
    const input = $(`#${t.dataset.pair}`);
    input.value = F.rangeValue(t);
    c[input.name] = input.value;
  } else if (t.name) {
    if (t.type === 'radio' && !t.checked) return;
    c[t.name] = t.value;
    const range = form.querySelector(`input[type=range][data-pair="${t.id}"]`);
    if (range) F.syncRange(range, form);
    if (t.name === 'hardware' && t.value === 'custom') prefillCustomHardware(c);
  } else return;
  F.applyConditions(form, c);
  update();
}

/** Switching to custom figures starts from the last accelerator's. */
function prefillCustomHardware(c) {
  const h = last?.report?.hardware;
  if (!h || c.hw_memory_gib) return;
  c.hw_name = `Custom (from ${h.name})`;
  c.hw_memory_gib = String(+(h.memory_bytes / 2 ** 30).toFixed(2));
  c.hw_bandwidth_tbs = String(+(h.memory_bandwidth_bytes_per_s / 1e12).toFixed(3));
  const spec = hardwareList?.find((a) => a.id === h.id);
  c.hw_bf16_tflops = String(+((spec?.peak_flops?.bf16 ?? h.peak_flops_per_s) / 1e12).toFixed(1));
  if (spec?.peak_flops?.fp8) c.hw_fp8_tflops = String(+(spec.peak_flops.fp8 / 1e12).toFixed(1));
  if (spec?.interconnect?.bandwidth_bytes_per_s) c.hw_link_gbs = String(+(spec.interconnect.bandwidth_bytes_per_s / 1e9).toFixed(1));
  F.writeForm(form, c);
}

$('#sweep-details').addEventListener('toggle', () => { if ($('#sweep-details').open && last) renderSweepTable(last.report); });

// --- URL -----------------------------------------------------------------

// History: each change the user makes is one entry, so Back and Forward
// step through the calculator's states. The first edit after a committed
// change opens a new entry (pushState); further edits of the same change
// (keys typed, a slider dragged) rewrite it (replaceState) until a change
// event, a fix, a tab or Back commits it. Updates the user did not make
// (the engine starting, a Hub fetch) only rewrite the entry.
let urlTimer = 0;
let userEdit = false; // the pending URL write comes from the user's edit
let entryOpen = false; // the current entry takes the user's edits in progress
let closeAfter = false; // a change event came while a write was pending

/** Write the state into the URL, at most every 150 ms (browsers throttle replaceState). */
function scheduleURL() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(() => {
    urlTimer = 0;
    const edit = userEdit;
    userEdit = false;
    if (new URLSearchParams(location.search).get('view') === 'plan') return; // the planning view's URL (plan.js)
    const q = S.toQuery(state);
    const url = `${location.pathname}${q ? `?${q}` : ''}${location.hash}`;
    if (url !== `${location.pathname}${location.search}${location.hash}`) {
      if (edit && !entryOpen) history.pushState(null, '', url);
      else history.replaceState(null, '', url);
      if (edit) entryOpen = true;
    }
    if (closeAfter) entryOpen = closeAfter = false;
    updatePlanLinks();
    document.dispatchEvent(new CustomEvent('throughput:url'));
  }, 150);
}

/** The user changed the state: the next URL write is theirs. */
function userChange() { userEdit = true; }

/** A change is complete: the next edit opens a new history entry. */
function commitEntry() {
  if (urlTimer) closeAfter = true;
  else entryOpen = false;
}

window.addEventListener('popstate', () => {
  if (new URLSearchParams(location.search).get('view') === 'plan') return; // the planning view's (plan.js)
  clearTimeout(urlTimer);
  urlTimer = 0;
  userEdit = entryOpen = closeAfter = false;
  state = S.fromQuery(location.search);
  F.writeForm(form, active());
  update();
});

// --- paths to the planner and the fixes ---------------------------------

/**
 * The planner's URL for the configuration being edited (state.js
 * planQuery: model, workload, budgets), with over = {rate} for the
 * overloaded verdict's link.
 */
const planURL = (over) => `${location.pathname}?${S.planQuery(active(), over)}`;

/** Point "Plan a deployment" and the verdict's planner link at the planner with this state. */
function updatePlanLinks() {
  const open = $('#open-plan');
  if (open) setAttr(open, 'href', planURL());
  for (const a of verdictEl.querySelectorAll('a.plan-link')) setAttr(a, 'href', planURL({ rate: a.dataset.planRate }));
}

// The planner links open the planning view with its plan.* parameters
// filled from the calculator's state (captured before plan.js's own
// handler, which keeps the calculator's parameters). The planning view
// may open itself in this page: it cancels the cancelable
// "throughput:open-plan" event ({detail: {url}}) and pushes url itself;
// else the planner opens as a page of its own. Either way Back returns to
// this state's URL.
document.addEventListener('click', (e) => {
  const a = e.target.closest?.('#open-plan, a.plan-link');
  if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  e.stopImmediatePropagation();
  clearTimeout(urlTimer);
  urlTimer = 0;
  // The calculator's state first (the entry Back returns to), then the planner.
  const q = S.toQuery(state);
  history.replaceState(null, '', `${location.pathname}${q ? `?${q}` : ''}`);
  const url = a.id === 'open-plan' ? planURL() : planURL({ rate: a.dataset.planRate });
  if (document.dispatchEvent(new CustomEvent('throughput:open-plan', { detail: { url }, cancelable: true }))) location.assign(url);
}, true);

// A nearest fix's button (report.js renderFixes) applies the fix to the
// configuration being edited: one history entry of its own.
verdictEl.addEventListener('click', (e) => {
  const b = e.target.closest?.('button.fix');
  if (!b) return;
  const c = S.applyFix(active(), { field: b.dataset.fixField, value: b.dataset.fixValue });
  if (!c) return;
  state.configs[state.active] = c;
  F.writeForm(form, c);
  F.applyConditions(form, c);
  commitEntry();
  userChange();
  update();
  commitEntry();
});

// --- share and export ----------------------------------------------------

function setStatus(text) {
  setText(statusEl, text);
  if (statusEl.hidden !== !text) statusEl.hidden = !text;
}

function download(name, type, data) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(data instanceof Blob ? data : new Blob([data], { type }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

$('#copy-link').addEventListener('click', async () => {
  clearTimeout(urlTimer);
  const q = S.toQuery(state);
  const url = `${location.origin}${location.pathname}${q ? `?${q}` : ''}`;
  history.replaceState(null, '', url);
  try {
    await navigator.clipboard.writeText(url);
    setStatus('Link copied.');
  } catch {
    window.prompt('Copy this link:', url);
  }
});

$('#export-json').addEventListener('click', () => {
  if (last) download('throughput-report.json', 'application/json', `${JSON.stringify(last.report, null, 2)}\n`);
});

/** The sweep as CSV, one row per batch size, columns named with units. */
export function sweepCSV(report) {
  const cols = ['batch_size', 'context_tokens', 'step_time_ms', 'tokens_per_s', 'tokens_per_s_per_sequence', 'kv_cache_usage', 'bound'];
  return `${[cols.join(','), ...(report.sweep ?? []).map((p) => cols.map((k) => p[k]).join(','))].join('\n')}\n`;
}

$('#export-csv').addEventListener('click', () => {
  if (last) download('throughput-sweep.csv', 'text/csv', sweepCSV(last.report));
});

// A chart as SVG or PNG (ui/chart-export.js): the buttons name the chart's
// container (data-download) and the format.
document.addEventListener('click', async (e) => {
  const btn = e.target.closest?.('button[data-download]');
  if (!btn) return;
  const svg = document.getElementById(btn.dataset.download)?.querySelector('svg');
  if (!svg) return;
  const text = svgText(svg);
  const name = `throughput-${btn.dataset.download}`;
  if (btn.dataset.format === 'svg') return download(`${name}.svg`, 'image/svg+xml', text);
  try {
    download(`${name}.png`, 'image/png', await pngBlob(text, svg.width.baseVal.value, svg.height.baseVal.value));
  } catch (err) {
    setStatus(`The PNG could not be made: ${err.message}`);
  }
});

// The printable summary: the print stylesheet (index.html) keeps the
// verdict, the conditions and the figures and leaves the form out.
$('#print-summary').addEventListener('click', () => window.print());
window.addEventListener('beforeprint', () => {
  const q = S.toQuery(state);
  setText($('#print-link'), `This configuration: ${location.origin}${location.pathname}${q ? `?${q}` : ''}`);
});

// --- the engine's tables ------------------------------------------------

/**
 * Display names of the engine's quantization values (calc.quantizations());
 * a value missing here is shown as the engine names it.
 */
const QUANT_LABELS = {
  fp8: 'fp8', int8: 'int8 (W8A8)', awq: 'AWQ int4', gptq: 'GPTQ int4', bitsandbytes: 'bitsandbytes nf4',
  mxfp4: 'MXFP4', nvfp4: 'NVFP4', f16: 'GGUF f16',
};

/**
 * Fill the engine, dtype and KV cache selects from the engine's tables
 * and set the utilization field's limits from its bounds.
 */
function fillTables() {
  try {
    F.fillOptions($('#f-engine'), calc.engines().map((e) => [e.name, e.label]), active().engine);
    F.fillOptions($('#f-dtype'), calc.dtypes().map((d) => [d, d]), active().dtype);
    F.fillOptions($('#f-kv_cache_dtype'), calc.kvCacheDtypes().map((d) => [d, d === 'auto' ? 'auto (model)' : d]), active().kv_cache_dtype);
    // 'none' is the unquantized checkpoint, which "as published" already is.
    const quants = calc.quantizations().filter((q) => q !== 'none');
    F.fillOptions($('#f-quantization'), [['', 'as published'], ...quants.map((q) => [q, QUANT_LABELS[q] ?? (q.startsWith('q') ? `GGUF ${q}` : q)])], active().quantization);
    F.fillOptions($('#f-block_size'), [['', 'default'], ...calc.blockSizes().map((b) => [String(b), String(b)])], active().block_size);
    F.applyBounds($('#f-gpu_memory_utilization'), calc.fieldBounds('gpu_memory_utilization'), form);
  } catch { /* keep the page's own options */ }
  showEngineDefaults();
}

/**
 * Show the selected engine's defaults as the placeholders of the empty
 * engine settings and serving-feature fields (an empty control leaves the
 * field to the engine; form.js writeDefaults reads the field table), and
 * the valid utilization range beside them. Given the report r of the
 * same engine, an empty setting shows the value the engine resolved for
 * this deployment (vLLM's batch defaults and SGLang's memory fraction
 * follow the GPU); otherwise the engine's listed default.
 */
let shownDefaults = ''; // what showEngineDefaults last wrote for: the same again writes nothing
function showEngineDefaults(r) {
  if (!calc) return;
  const c = active();
  const key = JSON.stringify([c.engine, c.gpu_memory_utilization, c.max_num_seqs, c.max_num_batched_tokens, c.block_size,
    r?.config?.engine, r?.config?.gpu_memory_utilization, r?.config?.max_num_seqs, r?.config?.max_num_batched_tokens]);
  if (key === shownDefaults) return;
  shownDefaults = key;
  let contract;
  try { contract = calc.contract(); } catch { return; }
  const e = contract.engines.find((x) => x.name === active().engine);
  if (!e) return;
  F.writeDefaults(form, contract, active(), r);
  const blockDefault = $('#f-block_size')?.querySelector('option[value=""]');
  if (blockDefault) setText(blockDefault, `default (${e.defaults.block_size})`);
  const range = form.querySelector('input[type=range][data-pair="f-gpu_memory_utilization"]');
  if (range) F.syncRange(range, form);
  const u = F.engineDefault('gpu_memory_utilization', e, active(), r);
  setText($('#h-gpu_memory_utilization'), `Empty: ${e.label}'s default, ${u}. Valid: ${F.rangeText(calc.fieldBounds('gpu_memory_utilization'))}.`);
}

// --- catalogs ------------------------------------------------------------

let hardwareList = null;

function fillHardware() {
  try { hardwareList = calc.hardware(); } catch { return; }
  const sel = $('#f-hardware');
  const current = active().hardware;
  const groups = new Map();
  for (const a of hardwareList) {
    if (!groups.has(a.vendor)) groups.set(a.vendor, []);
    groups.get(a.vendor).push(a);
  }
  const frag = document.createDocumentFragment();
  for (const [vendor, list] of groups) {
    const og = document.createElement('optgroup');
    og.label = vendor || 'Other';
    for (const a of list) og.append(new Option(`${a.name} (${fmt.bytes(a.memory_bytes).replace('.00', '')})`, a.id));
    frag.append(og);
  }
  frag.append(new Option('Custom figures…', 'custom'));
  sel.replaceChildren(frag);
  F.selectValue(sel, canonicalHardware(current));
}

/** The catalog id for an id, alias or name the URL gave, else the value itself. */
function canonicalHardware(v) {
  return F.canonicalHardware(hardwareList, v, (x) => calc.hardwareSpec(x));
}

async function fillModels() {
  // Every catalog entry, from the catalog the engine loaded (the light
  // engine's models() leaves out the full engine's DeepSeek-V4); the
  // engine's list when the catalog cannot be read.
  let list;
  try {
    const res = await fetch('catalog.json');
    if (res.ok) list = await res.json();
  } catch { /* below */ }
  try { list ??= (fullCalc ?? calc).models(); } catch { return; }
  F.fillModelList($('#model-list'), list);
}

// --- boot ----------------------------------------------------------------

async function boot() {
  F.writeForm(form, active());
  const pre = await prerendered;
  if (pre && state.configs.length === 1 && JSON.stringify(S.toRequest(active()).request) === pre.key) {
    reports.set(pre.key, { report: pre.report });
    rangeHint = sweepMax(pre.report);
    update();
    if (!performance.getEntriesByName('throughput:first-result').length) performance.mark('throughput:first-result');
    // Let the browser paint the result before Go's start-up takes the
    // main thread.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  }
  try {
    calc = await startEngine();
    performance.mark('throughput:engine-loaded');
  } catch (e) {
    setStatus('');
    errorsEl.hidden = false;
    errorsEl.textContent = `The engine failed to load: ${e?.message ?? e}`;
    return;
  }
  // The engine recomputes what a prerendered report showed: the two are
  // the same engine's answer to the same request, so nothing changes.
  reports.clear();
  update();
  if (!performance.getEntriesByName('throughput:first-result').length) performance.mark('throughput:first-result');
  fillTables();
  document.documentElement.dataset.ready = 'true';
  fillHardware();
  for (const c of state.configs) c.hardware = canonicalHardware(c.hardware);
  bindHubSettings();
  const idle = window.requestIdleCallback ?? ((f) => setTimeout(f, 50));
  idle(() => fillModels());
  registerServiceWorker();
}

/** The footer's Hub settings: kept in localStorage, handed to the engine. */
function bindHubSettings() {
  const url = $('#hub-url');
  const token = $('#hub-token');
  if (!url || !token) return;
  url.value = stored(HUB_URL_KEY);
  token.value = stored(HUB_TOKEN_KEY);
  const apply = () => {
    try {
      localStorage.setItem(HUB_URL_KEY, url.value.trim());
      localStorage.setItem(HUB_TOKEN_KEY, token.value.trim());
    } catch { /* settings last for this visit only */ }
    try { calc?.setHub(hubSettings()); } catch (e) { setStatus(String(e?.message ?? e)); return; }
    reports.clear();
    update();
  };
  url.addEventListener('change', apply);
  token.addEventListener('change', apply);
}

function registerServiceWorker() {
  if (!('serviceWorker' in navigator) || location.protocol === 'file:') return;
  navigator.serviceWorker.register('sw.js').catch(() => { /* offline support is optional */ });
}

boot();
