// The page's planning view (?view=plan): the user's question first (a
// model, a load, a latency budget, the accelerators and their prices),
// then calc.Plan's answer: a verdict line, the ranked deployments (rows
// with identical figures collapsed) with a link that opens each in the
// calculator, the launch command, the frontier of tokens/s per GPU against
// tokens/s per user, and why the accelerators left out were left out,
// grouped by reason. The planner runs in a Web Worker (plan-worker.js)
// with the full engine (throughput-planner.wasm), started when the view
// first shows. Its inputs live in the URL as plan.* parameters
// (plan-model.js FIELDS); each plan is a history entry, and Back/Forward
// move between plans and between this view and the calculator.
import * as S from './state.js';
import * as fmt from '../ui/format.js';
import * as P from './plan-model.js';
import { fillModelList } from './form.js';
import { drawFrontier } from './plan-chart.js';

export { planPrices } from './plan-model.js';

const $ = (id) => document.getElementById(id);
const view = $('planner');
const form = $('plan-form');

/** The form's labels for the plan request's fields, so an error names what the user sees. */
const FIELD_LABELS = {
  model: ['Model', 'model'], 'workload.request_rate': ['Requests/s', 'rate'], 'workload.concurrency': ['Concurrent users', 'users'],
  'workload.input_tokens': ['Input tokens', 'input'], 'workload.output_tokens': ['Output tokens', 'output'],
  'slo.ttft_ms': ['TTFT', 'ttft'], 'slo.tpot_ms': ['TPOT', 'tpot'], 'constraints.max_gpus': ['At most GPUs', 'max_gpus'],
  'constraints.accelerators': ['Accelerators', 'accelerators'], 'constraints.prices': ['Prices', 'prices'],
};

let worker = null;
let engineInfo = null; // {hardware, prices} once the worker's engine has loaded
let job = null; // the plan the view waits for: {id, query, reveal}
let jobs = 0;
const asked = new Map(); // id -> query of every plan posted to the worker and not yet answered
const answers = new Map(); // query -> {report, ms}: Back and Forward redraw without planning again

// --- view switching --------------------------------------------------------

const isPlanURL = () => new URLSearchParams(location.search).get('view') === 'plan';

function setView(plan) {
  if (!view) return;
  view.hidden = !plan;
  const calc = document.querySelector('main.layout');
  if (calc) calc.hidden = plan;
  document.title = plan ? 'Plan a deployment · Throughput' : 'Throughput: LLM serving capacity calculator';
  // The header's calculator actions (plan its state, copy its link, export
  // its report) are hidden in this view, which has its own Copy link and
  // "Back to the calculator".
  document.documentElement.classList.toggle('plan-view', plan);
  if (plan) open();
}

// "Plan a deployment" and the verdict's planner link (app.js) ask to open
// this view at a URL holding the calculator's model, workload and budgets
// as plan.* parameters: in this page, a history entry of its own that
// remembers the calculator's URL for "Back to the calculator".
document.addEventListener('throughput:open-plan', (e) => {
  e.preventDefault();
  history.pushState({ calculator: `${location.pathname}${location.search}` }, '', e.detail.url);
  setView(true);
});

/** Shows the calculator at url (a new history entry), without reloading the page. */
function toCalculator(url) {
  history.pushState(null, '', url);
  setView(false);
  window.dispatchEvent(new PopStateEvent('popstate')); // the calculator reads its state back from the URL (app.js)
}

// "Back to the calculator": the calculator this view was opened from (its
// URL travels in each plan entry's history state), else the URL's own
// calculator parameters.
$('plan-back')?.addEventListener('click', (e) => {
  e.preventDefault();
  const q = new URLSearchParams(location.search);
  q.delete('view');
  for (const k of [...q.keys()]) if (k.startsWith('plan.')) q.delete(k);
  toCalculator(history.state?.calculator ?? `${location.pathname}${q.size ? `?${q}` : ''}`);
});

// A deployment's "Open": the calculator in this page, so that Back returns
// to this plan as it was (its answer kept, the engine warm).
$('plan-table')?.addEventListener('click', (e) => {
  const a = e.target.closest?.('a.plan-open');
  if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  toCalculator(a.getAttribute('href'));
  scrollTo(0, 0);
});

// Back and Forward: the calculator's own handler (app.js) reads its state
// from the URL; this one shows the view the URL names, and a plan URL's
// question and answer.
window.addEventListener('popstate', () => setView(isPlanURL()));

// --- the form ----------------------------------------------------------------

function open() {
  startWorker();
  fillModels();
  writeForm(P.valuesFromQuery(location.search));
  const q = new URLSearchParams(location.search);
  if (q.has('plan.model')) plan(false);
  else if (!job) $('plan-results').hidden = true;
}

let modelsFilled = false;
async function fillModels() {
  if (modelsFilled) return;
  modelsFilled = true;
  try {
    const res = await fetch('catalog.json');
    fillModelList($('plan-model-list'), await res.json());
  } catch { modelsFilled = false; }
}

function writeForm(v) {
  for (const k of ['model', 'rate', 'users', 'batch', 'input', 'output', 'ttft', 'tpot', 'max_gpus', 'accelerators', 'prices']) {
    const el = form.elements[`plan_${k}`];
    if (el) el.value = v[k];
  }
  $('plan-prices-text').value = v.prices;
  for (const r of form.querySelectorAll('input[name=plan_load]')) r.checked = r.value === v.load;
  applyLoad();
  syncAccelerators();
}

function readForm() {
  const v = {};
  for (const k of Object.keys(P.FIELDS)) v[k] = String(form.elements[`plan_${k}`]?.value ?? '');
  v.load = form.querySelector('input[name=plan_load]:checked')?.value ?? P.FIELDS.load;
  v.prices = $('plan-prices-text').value;
  return v;
}

/** The load fields not in use are disabled. */
function applyLoad() {
  const load = form.querySelector('input[name=plan_load]:checked')?.value ?? 'rate';
  for (const f of form.querySelectorAll('[data-load]')) {
    const on = f.dataset.load === load;
    f.classList.toggle('off', !on);
    for (const i of f.querySelectorAll('input')) i.disabled = !on;
  }
}

form.addEventListener('change', (e) => {
  if (e.target.name === 'plan_load') applyLoad();
  if (e.target.closest('#plan-acc-groups')) {
    $('plan-accelerators').value = [...form.querySelectorAll('#plan-acc-groups input:checked')].map((i) => i.value).join(', ');
    syncAccelerators();
  }
});
form.addEventListener('input', (e) => {
  if (e.target.closest('#plan-prices')) writePrices();
});
// A vendor's "all": selects each of its accelerators, or none when all were.
$('plan-acc-groups')?.addEventListener('click', (e) => {
  const btn = e.target.closest('button.plan-vendor');
  if (!btn) return;
  const boxes = [...btn.closest('fieldset').querySelectorAll('input[type=checkbox]')];
  const on = !boxes.every((b) => b.checked);
  for (const b of boxes) b.checked = on;
  $('plan-accelerators').value = [...form.querySelectorAll('#plan-acc-groups input:checked')].map((i) => i.value).join(', ');
  syncAccelerators();
});
$('plan-acc-clear')?.addEventListener('click', () => {
  $('plan-accelerators').value = '';
  syncAccelerators();
});

const hardwareName = (id) => engineInfo?.hardware.find((a) => a.id === id)?.name ?? id;
const PRICE_KIND = { cloud_on_demand: 'on-demand cloud list price', purchase_amortised: 'purchase amortised over 4 years plus power' };

/** The accelerator checkboxes (vendor groups) once the engine has loaded. */
function buildAccelerators() {
  const groups = new Map();
  for (const a of engineInfo.hardware) {
    if (!groups.has(a.vendor)) groups.set(a.vendor, []);
    groups.get(a.vendor).push(a);
  }
  const frag = document.createDocumentFragment();
  for (const [vendor, list] of groups) {
    const fs = document.createElement('fieldset');
    const lg = document.createElement('legend');
    const all = Object.assign(document.createElement('button'), { type: 'button', className: 'small link plan-vendor', textContent: 'all' });
    all.setAttribute('aria-label', `Select every ${vendor || 'other'} accelerator`);
    lg.append(`${vendor || 'Other'} `, all);
    fs.append(lg);
    for (const a of list) {
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = a.id;
      const price = engineInfo.prices[a.id];
      const small = document.createElement('small');
      small.textContent = price ? `${fmt.usd(price.usd_per_gpu_hour)}/h` : 'no price';
      if (price) small.title = `${price.source}, ${price.date}; ${PRICE_KIND[price.kind] ?? price.kind}`;
      label.append(box, ` ${P.shortName(a.name)}`, small);
      fs.append(label);
    }
    frag.append(fs);
  }
  $('plan-acc-groups').replaceChildren(frag);
}

/** The checkboxes, the summary and the price fields from the hidden accelerator list. */
function syncAccelerators() {
  const ids = P.acceleratorIds($('plan-accelerators').value);
  for (const box of form.querySelectorAll('#plan-acc-groups input')) box.checked = ids.includes(box.value);
  const names = ids.map((id) => P.shortName(hardwareName(id)));
  $('plan-acc-summary').textContent = ids.length
    ? `${ids.length} selected: ${names.length > 4 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ')}`
    : 'Every accelerator rented on demand';
  // One price field per selected accelerator, the user's price or the table's.
  const given = P.planPrices($('plan-prices-text').value).prices ?? {};
  const box = $('plan-prices');
  if (!ids.length) {
    const p = document.createElement('p');
    p.className = 'hint';
    p.textContent = 'Prices: the default table (on-demand cloud list prices, USD per GPU-hour; hover an accelerator for its source). Select accelerators to set their prices.';
    box.replaceChildren(p);
    return;
  }
  box.replaceChildren(...ids.map((id) => {
    const price = engineInfo?.prices[id];
    const div = document.createElement('div');
    div.className = 'field';
    const label = document.createElement('label');
    label.htmlFor = `plan-price-${id}`;
    label.textContent = `${P.shortName(hardwareName(id))}, $/GPU-hour`;
    const input = document.createElement('input');
    Object.assign(input, { id: `plan-price-${id}`, type: 'number', step: 'any', min: '0', inputMode: 'decimal' });
    input.dataset.id = id;
    input.dataset.default = price ? String(price.usd_per_gpu_hour) : '';
    input.value = given[id] !== undefined ? String(given[id]) : input.dataset.default;
    input.placeholder = price ? '' : 'no default price';
    const src = price ? `${price.source}, ${price.date}; ${PRICE_KIND[price.kind] ?? price.kind}` : 'not in the default price table: enter one';
    input.title = label.title = src;
    div.append(label, input);
    return div;
  }));
}

/** The hidden prices text: each price field that differs from the table, and the URL's prices of parts not shown. */
function writePrices() {
  const given = P.planPrices($('plan-prices-text').value).prices ?? {};
  const shown = [...form.querySelectorAll('#plan-prices input')];
  for (const i of shown) delete given[i.dataset.id];
  for (const i of shown) {
    const v = i.value.trim();
    if (v !== '' && v !== i.dataset.default) given[i.dataset.id] = Number(v);
  }
  $('plan-prices-text').value = Object.entries(given).map(([id, usd]) => `${id}=${usd}`).join(', ');
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  plan(true);
});

// --- the worker ---------------------------------------------------------------

function startWorker() {
  if (worker) return;
  worker = new Worker(new URL('./plan-worker.js', import.meta.url), { type: 'module' });
  worker.addEventListener('message', onMessage);
  worker.addEventListener('error', (e) => finish({ errors: [{ field: '', message: `the planner failed: ${e.message ?? 'worker error'}` }] }));
}

function onMessage({ data }) {
  if (data.ready !== undefined) {
    if (!data.ready) return finish({ errors: data.errors });
    engineInfo = { hardware: data.hardware, prices: data.prices };
    buildAccelerators();
    syncAccelerators();
    view.dataset.engine = 'loaded';
    return;
  }
  if (data.warmed) {
    view.dataset.engine = 'warm'; // its warm-up plan done (scripts/bench-page.mjs waits for it)
    return;
  }
  // Every answer is kept, also one the view no longer waits for (Back
  // moved on while it ran): Forward then shows it at once.
  if (data.report && asked.has(data.id)) answers.set(asked.get(data.id), { report: data.report, ms: data.ms });
  if (!data.stage) asked.delete(data.id);
  if (!job || data.id !== job.id) return;
  if (data.stage) {
    setStatus(data.stage === 'engine' ? 'Loading the planner engine…' : 'Searching every deployment and replaying the finalists in the simulator…');
    return;
  }
  finish(data);
}

/** Plans the form's question; push makes it a new history entry (a click), else it replaces (a link, Back). */
function plan(push) {
  const values = readForm();
  const { request, error, field } = P.planRequest(values);
  markInvalid([]);
  if (error) {
    setStatus(error.replace(field, FIELD_LABELS[field]?.[0] ?? field));
    return;
  }
  const query = P.queryFor(values, location.search);
  const url = `${location.pathname}?${query}`;
  if (`?${query}` !== location.search) {
    const st = history.state?.calculator ? { calculator: history.state.calculator } : null; // kept for "Back to the calculator"
    if (push) history.pushState(st, '', url);
    else history.replaceState(st, '', url);
  }
  performance.clearMarks('throughput:plan-click');
  performance.mark('throughput:plan-click');
  const cached = answers.get(query);
  if (cached) {
    settle();
    render(cached.report, cached.ms, push);
    return;
  }
  // A plan still running for another question (Back, Forward) finishes in
  // the worker and is kept; this one is queued behind it.
  startWorker();
  const running = [...asked].find(([, q]) => q === query)?.[0]; // asked already (Back, then Forward while it ran)
  job = { id: running ?? ++jobs, query, reveal: push };
  $('plan-results').classList.add('stale');
  $('plan-run').disabled = true;
  $('plan-cancel').hidden = false;
  $('plan-progress').hidden = false;
  setStatus(engineInfo ? 'Searching every deployment and replaying the finalists in the simulator…' : 'Loading the planner engine…');
  if (running === undefined) {
    asked.set(job.id, query);
    worker.postMessage({ id: job.id, request });
  }
}

/** The view waits for no plan: Plan enabled, Cancel and the progress bar hidden. */
function settle() {
  job = null;
  $('plan-run').disabled = false;
  $('plan-cancel').hidden = true;
  $('plan-progress').hidden = true;
}

function finish(data) {
  const j = job;
  settle();
  if (data.errors) {
    $('plan-results').classList.add('stale'); // the last answer stays, dimmed: it is not this question's
    const errs = data.errors;
    markInvalid(errs);
    setStatus(errs.map((x) => (x.field ? `${FIELD_LABELS[x.field]?.[0] ?? x.field}: ${x.message}` : x.message)).join('; '));
    return;
  }
  if (j && j.query !== P.queryFor(readForm(), location.search)) return; // the form moved on (Back) before the answer came
  render(data.report, data.ms, j?.reveal);
}

function markInvalid(errors) {
  for (const f of form.querySelectorAll('.field.invalid')) f.classList.remove('invalid');
  for (const x of errors) {
    const k = FIELD_LABELS[x.field]?.[1];
    form.elements[`plan_${k}`]?.closest('.field')?.classList.add('invalid');
  }
}

/** Cancel: the worker is stopped (plan() cannot be interrupted) and a fresh one loads. */
function cancel() {
  if (!job) return;
  settle();
  worker?.terminate();
  worker = null;
  asked.clear();
  delete view.dataset.engine;
  $('plan-results').classList.remove('stale');
  setStatus('Cancelled.');
  startWorker();
}
$('plan-cancel')?.addEventListener('click', cancel);

function setStatus(text) {
  $('plan-status').textContent = text;
}

// --- the answer ---------------------------------------------------------------

/** The calculator's URL for one deployment's evaluate request. */
export function calculatorLink(d) {
  const r = d.evaluate;
  const c = S.newConfig({
    model: r.model ?? S.DEFAULTS.model, hardware: r.hardware, engine: r.engine ?? 'vllm',
    tensor_parallel_size: String(r.tensor_parallel_size ?? 1), pipeline_parallel_size: String(r.pipeline_parallel_size ?? 1),
    quantization: r.quantization ?? '', kv_cache_dtype: r.kv_cache_dtype ?? 'auto',
    max_model_len: String(r.max_model_len ?? ''), max_num_seqs: String(r.max_num_seqs ?? ''),
    max_num_batched_tokens: String(r.max_num_batched_tokens ?? ''),
    input_tokens: String(r.workload.input_tokens), output_tokens: String(r.workload.output_tokens),
    ttft_ms: r.slo?.ttft_ms === undefined ? '' : String(r.slo.ttft_ms), tpot_ms: r.slo?.tpot_ms === undefined ? '' : String(r.slo.tpot_ms),
    // Set only where the user overrode the price (the planner's evaluate
    // request); else the calculator reads the same default table.
    gpu_hour_usd: String(r.gpu_hour_usd ?? ''),
  });
  if (r.workload.request_rate !== undefined) Object.assign(c, { load: 'rate', request_rate: String(r.workload.request_rate) });
  else Object.assign(c, { load: 'concurrency', concurrency: String(r.workload.concurrency) });
  return `${location.pathname}?${S.toQuery({ configs: [c], active: 0 })}`;
}

/** Shows a plan report; reveal scrolls the verdict into view when it is off screen (a click on a phone). */
function render(r, ms, reveal = false) {
  const results = $('plan-results');
  results.hidden = false;
  results.classList.remove('stale');
  const line = P.verdictLine(r);
  $('plan-verdict').dataset.state = line ? 'feasible' : 'infeasible';
  $('plan-badge').textContent = line ? 'Deploy' : 'No fit';
  $('plan-verdict-line').textContent = line ?? 'No deployment meets the budget.';
  $('plan-answer').textContent = r.answer;
  $('plan-warnings').replaceChildren(...(r.warnings ?? []).map((w) => Object.assign(document.createElement('li'), { textContent: P.plainMessage(w.message) })));
  const verified = r.deployments.filter((d) => d.simulated).length;
  $('plan-meta').textContent = `${fmt.int(r.candidates)} candidate deployments searched${verified ? `, the top ${verified} replayed in the simulator` : ''}, in ${fmt.int(ms)} ms.`;
  renderTable(r);
  const best = r.deployments[r.cheapest];
  $('plan-launch').textContent = best?.launch ?? '';
  $('plan-launch').closest('section').hidden = !best;
  $('plan-notes').replaceChildren(...(best?.notes ?? []).map((n) => Object.assign(document.createElement('li'), { textContent: n })));
  $('plan-frontier').closest('section').hidden = !(r.frontier?.length);
  shown = r;
  chartWidth = 0;
  redrawChart();
  renderRejections(r);
  setStatus('');
  results.dataset.run = String(Number(results.dataset.run ?? 0) + 1);
  const top = $('plan-verdict').getBoundingClientRect().top;
  if (reveal && (top < 0 || top > innerHeight - 80)) $('plan-verdict').scrollIntoView({ block: 'start' });
  performance.mark('throughput:plan-answer');
}

let shown = null; // the report on screen
let chartWidth = 0; // the chart box's width it was drawn for

/** Draws the frontier of the report on screen when its box has a new width. */
function redrawChart() {
  const w = $('plan-frontier').parentElement.clientWidth;
  if (!shown || !w || w === chartWidth) return;
  chartWidth = w;
  const pk = P.picks(shown);
  drawFrontier($('plan-frontier'), $('plan-tip'), shown, (i) => pk.get(i) ?? []);
}
new ResizeObserver(redrawChart).observe($('plan-frontier').parentElement);

function renderTable(r) {
  const head = $('plan-table').querySelector('thead tr');
  const th = (text, cls) => Object.assign(document.createElement('th'), { textContent: text, scope: 'col', className: cls ?? '' });
  head.replaceChildren(th('#', 'txt'), ...P.COLUMNS.map(([, h, , numeric]) => th(h, numeric ? '' : 'txt')), th('Pick', 'txt'), th('', 'txt'));
  const rows = P.collapsedRows(r);
  $('plan-table').querySelector('tbody').replaceChildren(...rows.map((row) => {
    const tr = document.createElement('tr');
    tr.dataset.rank = String(row.rank);
    if (row.deployments.length > 1) tr.classList.add('merged');
    const cell = (text, label, cls, key) => {
      const td = document.createElement('td');
      td.textContent = text;
      td.dataset.label = label;
      if (cls) td.className = cls;
      if (key) td.dataset.v = key;
      tr.append(td);
      return td;
    };
    cell(String(row.rank), 'Rank', 'txt');
    for (const [k, h, , numeric] of P.COLUMNS) cell(row.cells[k], h, numeric ? 'num' : 'txt', k);
    const pickCell = cell('', 'Pick', 'txt picks');
    for (const name of row.picks) pickCell.append(Object.assign(document.createElement('span'), { className: 'pick', textContent: name }));
    const d = r.deployments[row.deployments[0]];
    const a = Object.assign(document.createElement('a'), { href: calculatorLink(d), textContent: 'Open', className: 'plan-open' });
    a.title = `Open in the calculator: ${d.launch}`;
    cell('', 'Calculator', 'txt calc').append(a);
    return tr;
  }));
  const merged = rows.filter((x) => x.deployments.length > 1).length;
  $('plan-table-note').textContent = r.deployments.length
    ? `${fmt.int(r.deployments.length)} deployments${merged ? `; ${merged} row${merged === 1 ? '' : 's'} name${merged === 1 ? 's' : ''} several precisions with the same figures` : ''}. TTFT and TPOT are the steady state at each replica's share of the load.`
    : '';
}

function renderRejections(r) {
  const names = new Map((engineInfo?.hardware ?? []).map((a) => [a.id, a.name]));
  const groups = P.groupedRejections(r.rejections, names);
  $('plan-rej-panel').hidden = !groups.length;
  $('plan-rejections').replaceChildren(...groups.map((g) => {
    const det = document.createElement('details');
    det.dataset.reason = g.reason;
    const sum = document.createElement('summary');
    sum.textContent = P.groupSummary(g);
    const ul = document.createElement('ul');
    ul.append(...g.items.map((x) => {
      const li = document.createElement('li');
      li.textContent = x.name;
      if (x.detail) li.append(Object.assign(document.createElement('span'), { className: 'why', textContent: `: ${x.detail}` }));
      return li;
    }));
    det.append(sum, ul);
    return det;
  }));
}

$('plan-copy-link')?.addEventListener('click', async () => {
  const btn = $('plan-copy-link');
  try {
    await navigator.clipboard.writeText(location.href);
    btn.textContent = 'Link copied';
  } catch {
    window.prompt('Copy this link:', location.href);
  }
  setTimeout(() => { btn.textContent = 'Copy link'; }, 2000);
});

$('plan-copy')?.addEventListener('click', async () => {
  const text = $('plan-launch').textContent;
  try {
    await navigator.clipboard.writeText(text);
    $('plan-copy').textContent = 'Copied';
  } catch {
    const range = document.createRange();
    range.selectNodeContents($('plan-launch'));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    $('plan-copy').textContent = 'Selected: press Ctrl+C';
  }
  setTimeout(() => { $('plan-copy').textContent = 'Copy'; }, 2000);
});

if (isPlanURL()) setView(true);
