// The page's planning view (?view=plan): the user's question first (a
// model, a workload and a latency budget), then calc.Plan's answer: the
// sentence, the frontier of tokens/s per GPU against tokens/s per user,
// the ranked deployments with their launch commands and a link that opens
// each in the calculator, and why each rejected accelerator was rejected.
// The planner runs in the planner build of the engine
// (throughput-planner.wasm, load({planner: true})), loaded on first use.
// Its inputs live in the URL as plan.* parameters.
import * as S from './state.js';
import * as fmt from '../ui/format.js';

const FIELDS = {
  model: 'llama-3.1-8b', load: 'rate', rate: '20', users: '64', input: '2048', output: '500',
  ttft: '1000', tpot: '50', max_gpus: '', accelerators: '', prices: '',
};

/**
 * The plan form's price overrides, "id=usd, id=usd" (USD per GPU-hour):
 * {prices} (constraints.prices), or {error} naming the bad entry. An
 * accelerator not named keeps the default table's price.
 */
export function planPrices(text) {
  const prices = {};
  for (const part of String(text).split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([^=\s]+)\s*=\s*(\S+)$/.exec(part);
    const usd = m ? Number(m[2]) : NaN;
    if (!m || !Number.isFinite(usd)) return { error: `constraints.prices: "${part}" is not id=USD per GPU-hour` };
    prices[m[1]] = usd;
  }
  return { prices };
}

const params = new URLSearchParams(location.search);
if (params.get('view') === 'plan') show();
document.getElementById('open-plan')?.addEventListener('click', (e) => {
  e.preventDefault();
  const q = new URLSearchParams(location.search);
  q.set('view', 'plan');
  history.pushState(null, '', `${location.pathname}?${q}`);
  show();
});

let engine = null;

function show() {
  const view = document.getElementById('planner');
  if (!view) return;
  view.hidden = false;
  const calc = document.querySelector('main.layout');
  if (calc) calc.hidden = true;
  const form = document.getElementById('plan-form');
  for (const [k, def] of Object.entries(FIELDS)) {
    const el = form.elements[`plan_${k}`];
    if (el) el.value = params.get(`plan.${k}`) ?? def;
  }
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    run(form);
  });
  if (params.has('plan.model')) run(form);
}

/** The plan request the form stands for, and the values that go in the URL. */
function request(form) {
  const v = (k) => String(form.elements[`plan_${k}`].value).trim();
  const num = (k) => (v(k) === '' ? undefined : Number(v(k)));
  const req = {
    model: v('model'),
    workload: { input_tokens: num('input'), output_tokens: num('output') },
    slo: { ttft_ms: num('ttft'), tpot_ms: num('tpot') },
  };
  if (v('load') === 'users') req.workload.concurrency = num('users');
  else req.workload.request_rate = num('rate');
  const c = {};
  if (v('max_gpus') !== '') c.max_gpus = num('max_gpus');
  if (v('accelerators') !== '') c.accelerators = v('accelerators').split(',').map((s) => s.trim()).filter(Boolean);
  const pr = planPrices(v('prices'));
  if (pr.error) return { error: pr.error };
  if (Object.keys(pr.prices).length) c.prices = pr.prices;
  if (Object.keys(c).length) req.constraints = c;
  const q = new URLSearchParams(location.search);
  q.set('view', 'plan');
  for (const k of Object.keys(FIELDS)) {
    if (v(k) !== FIELDS[k]) q.set(`plan.${k}`, v(k));
    else q.delete(`plan.${k}`);
  }
  q.set('plan.model', v('model'));
  return { req, query: q.toString() };
}

async function run(form) {
  const status = document.getElementById('plan-status');
  const { req, query, error } = request(form);
  if (error) {
    status.textContent = error;
    return;
  }
  history.replaceState(null, '', `${location.pathname}?${query}`);
  status.textContent = 'Planning…';
  try {
    if (!engine) {
      const { load } = await import('../module/throughput.js');
      engine = await load({ planner: true });
    }
    const t0 = performance.now();
    const report = engine.plan(req);
    render(report, performance.now() - t0);
    status.textContent = '';
  } catch (e) {
    const errors = e.errors ?? [{ field: '', message: String(e.message ?? e) }];
    status.textContent = errors.map((x) => (x.field ? `${x.field}: ${x.message}` : x.message)).join('; ');
    document.getElementById('plan-results').hidden = true;
  }
}

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

function cell(tr, text, cls) {
  const td = document.createElement('td');
  td.textContent = text;
  if (cls) td.className = cls;
  tr.append(td);
  return td;
}

function render(r, elapsed) {
  document.getElementById('plan-results').hidden = false;
  document.getElementById('plan-answer').textContent = r.answer;
  document.getElementById('plan-meta').textContent =
    `${fmt.int(r.candidates)} candidate deployments searched in ${fmt.num(elapsed)} ms`;
  const body = document.querySelector('#plan-table tbody');
  body.replaceChildren();
  const picks = new Map([[r.cheapest, 'cheapest'], [r.fewest_gpus, 'fewest GPUs'], [r.lowest_latency, 'lowest latency']]);
  r.deployments.forEach((d, i) => {
    const tr = document.createElement('tr');
    tr.dataset.rank = String(d.rank);
    cell(tr, String(d.rank));
    cell(tr, d.accelerator_name);
    cell(tr, fmt.int(d.num_gpus), 'num');
    cell(tr, `TP ${d.tensor_parallel_size}${d.pipeline_parallel_size > 1 ? ` PP ${d.pipeline_parallel_size}` : ''} × ${d.replicas}`);
    cell(tr, `${d.quantization}, KV ${d.kv_cache_dtype}`);
    cell(tr, `${d.engine}${d.mode === 'disaggregated' ? ` (${d.prefill_replicas}P${d.decode_replicas}D)` : ''}`);
    cell(tr, fmt.usd(d.usd_per_million_output_tokens), 'num').dataset.v = 'usd_per_million_output_tokens';
    cell(tr, fmt.usd(d.usd_per_hour), 'num');
    cell(tr, fmt.num(d.tokens_per_s_per_gpu), 'num');
    cell(tr, fmt.num(d.tokens_per_s_per_user), 'num');
    cell(tr, fmt.ms(d.ttft_ms), 'num').dataset.v = 'ttft_ms';
    cell(tr, fmt.ms(d.tpot_ms), 'num').dataset.v = 'tpot_ms';
    cell(tr, `${fmt.num(d.headroom)}×, ${d.limiter}`);
    cell(tr, picks.get(i) ?? '');
    const open = document.createElement('a');
    open.href = calculatorLink(d);
    open.textContent = 'Open';
    open.className = 'plan-open';
    open.title = d.launch;
    cell(tr, '').append(open);
    body.append(tr);
  });
  const rej = document.getElementById('plan-rejections');
  rej.replaceChildren(...r.rejections.map((x) => {
    const li = document.createElement('li');
    li.textContent = `${x.accelerator}: ${x.message}`;
    return li;
  }));
  const launch = document.getElementById('plan-launch');
  launch.textContent = r.deployments.length ? r.deployments[r.cheapest].launch : '';
  frontier(r);
}

/** The frontier as an SVG scatter: tokens/s per user across, tokens/s per GPU up. */
function frontier(r) {
  const svg = document.getElementById('plan-frontier');
  const W = 520, H = 220, P = 36;
  const pts = r.frontier;
  svg.replaceChildren();
  if (!pts.length) return;
  const xs = pts.map((p) => p.tokens_per_s_per_user), ys = pts.map((p) => p.tokens_per_s_per_gpu);
  const x0 = 0, x1 = Math.max(...xs) * 1.05, y0 = 0, y1 = Math.max(...ys) * 1.05;
  const X = (x) => P + ((x - x0) / (x1 - x0)) * (W - 2 * P), Y = (y) => H - P - ((y - y0) / (y1 - y0)) * (H - 2 * P);
  const ns = 'http://www.w3.org/2000/svg';
  const el = (tag, attrs) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    svg.append(e);
    return e;
  };
  el('line', { x1: P, y1: H - P, x2: W - P, y2: H - P, stroke: 'currentColor' });
  el('line', { x1: P, y1: P, x2: P, y2: H - P, stroke: 'currentColor' });
  el('text', { x: W / 2, y: H - 6, 'text-anchor': 'middle', 'font-size': 11 }).textContent = 'tokens/s per user';
  el('text', { x: 10, y: P - 10, 'font-size': 11 }).textContent = 'tokens/s per GPU';
  el('polyline', { points: pts.map((p) => `${X(p.tokens_per_s_per_user)},${Y(p.tokens_per_s_per_gpu)}`).join(' '), fill: 'none', stroke: 'currentColor', 'stroke-opacity': 0.5 });
  for (const p of pts) {
    const c = el('circle', { cx: X(p.tokens_per_s_per_user), cy: Y(p.tokens_per_s_per_gpu), r: 4 });
    const t = document.createElementNS(ns, 'title');
    t.textContent = `${p.label}: ${fmt.num(p.tokens_per_s_per_gpu)} tok/s per GPU, ${fmt.num(p.tokens_per_s_per_user)} tok/s per user, ${fmt.usd(p.usd_per_million_output_tokens)}/M`;
    c.append(t);
  }
}
