// The planning view's logic without the DOM: the plan request a set of
// form values stands for (and the plan.* URL parameters that hold them),
// the verdict line, the ranked rows with identical figures collapsed, the
// rejections grouped by reason in words, and the frontier chart's axes.
// plan.js draws them; the unit tests (www/test/plan-view.test.mjs) and the
// end-to-end tests import them to compute what the view must show.
import * as fmt from '../ui/format.js';
import { niceScale, short } from '../ui/chart.js';

/**
 * The view's inputs and their defaults, by URL parameter (plan.<name>).
 * load is "rate" (a request rate, Poisson), "users" (concurrent users,
 * closed loop) or "batch" (a batch of N requests kept in flight, sent
 * as N concurrent users: the planner's closed loop). accelerators is a
 * comma-separated list of catalog ids ('' = the whole catalog's parts
 * rented on demand); prices "id=usd, id=usd" in USD per GPU-hour (''
 * = the default table).
 */
export const FIELDS = Object.freeze({
  model: 'llama-3.1-8b', load: 'rate', rate: '20', users: '64', batch: '256', input: '2048', output: '500',
  ttft: '1000', tpot: '50', max_gpus: '', accelerators: '', prices: '',
});

/** The load kinds and the field each one reads. */
export const LOADS = Object.freeze({ rate: 'rate', users: 'users', batch: 'batch' });

/** The form values a URL's plan.* parameters stand for (defaults where absent). */
export function valuesFromQuery(search) {
  const q = new URLSearchParams(search);
  const v = {};
  for (const [k, def] of Object.entries(FIELDS)) v[k] = q.get(`plan.${k}`) ?? def;
  if (!Object.hasOwn(LOADS, v.load)) v.load = FIELDS.load;
  return v;
}

/**
 * The URL query for values: the given query's other parameters kept,
 * view=plan, and plan.<name> for each value that differs from its default
 * (plan.model always, so that a link opens a plan, not an empty form).
 */
export function queryFor(values, search = '') {
  const q = new URLSearchParams(search);
  q.set('view', 'plan');
  for (const k of Object.keys(FIELDS)) {
    const v = String(values[k] ?? '').trim();
    if (v !== FIELDS[k]) q.set(`plan.${k}`, v);
    else q.delete(`plan.${k}`);
  }
  q.set('plan.model', String(values.model ?? '').trim());
  return q.toString();
}

/**
 * The price overrides, "id=usd, id=usd" (USD per GPU-hour): {prices}
 * (constraints.prices), or {error, field} naming the bad entry. An
 * accelerator not named keeps the default table's price.
 */
export function planPrices(text) {
  const prices = {};
  for (const part of String(text).split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([^=\s]+)\s*=\s*(\S+)$/.exec(part);
    const usd = m ? Number(m[2]) : NaN;
    if (!m || !Number.isFinite(usd)) return { error: `constraints.prices: "${part}" is not id=USD per GPU-hour`, field: 'constraints.prices' };
    prices[m[1]] = usd;
  }
  return { prices };
}

/** The accelerator ids of a comma-separated list. */
export const acceleratorIds = (text) => String(text ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/**
 * The plan request for form values (valuesFromQuery's shape): {request}
 * or {error, field}. A number field left empty is left out of the
 * request (the planner's default).
 */
export function planRequest(values) {
  const v = (k) => String(values[k] ?? '').trim();
  const num = (k) => (v(k) === '' ? undefined : Number(v(k)));
  const req = {
    model: v('model'),
    workload: { input_tokens: num('input'), output_tokens: num('output') },
    slo: { ttft_ms: num('ttft'), tpot_ms: num('tpot') },
  };
  if (v('load') === 'users') req.workload.concurrency = num('users');
  else if (v('load') === 'batch') req.workload.concurrency = num('batch');
  else req.workload.request_rate = num('rate');
  const c = {};
  if (v('max_gpus') !== '') c.max_gpus = num('max_gpus');
  const ids = acceleratorIds(v('accelerators'));
  if (ids.length) c.accelerators = ids;
  const pr = planPrices(v('prices'));
  if (pr.error) return pr;
  if (Object.keys(pr.prices).length) c.prices = pr.prices;
  if (Object.keys(c).length) req.constraints = c;
  return { request: req };
}

/** An accelerator's name without its vendor: "NVIDIA H100 SXM5 80GB" -> "H100 SXM5 80GB". */
export function shortName(name) {
  return String(name ?? '').replace(/^(NVIDIA|AMD|Intel|Google|AWS|Apple)\s+/, '');
}

/** A deployment's split in words: "TP 2 × 3 replicas", "TP 1 PP 2 × 1 replica", "TP 1, 2 prefill + 4 decode", and a split held to xPyD "TP 1, 2P1D: 4 prefill + 2 decode". */
export function splitText(d) {
  let t = `TP ${d.tensor_parallel_size}`;
  if (d.pipeline_parallel_size > 1) t += ` PP ${d.pipeline_parallel_size}`;
  if (d.data_parallel_size > 1) t += ` DP ${d.data_parallel_size}`;
  if (d.expert_parallel) t += ' EP';
  if (d.mode === 'disaggregated') return `${t}, ${d.split ? `${d.split}: ` : ''}${d.prefill_replicas} prefill + ${d.decode_replicas} decode`;
  return `${t} × ${d.replicas} replica${d.replicas === 1 ? '' : 's'}`;
}

/** The simulator's figure for the statistic a budget names (mean unless ttft_stat/tpot_stat say otherwise). */
const simulated = (summary, stat) => summary?.[stat || 'mean'];

/**
 * The verdict line: "6× H100 SXM5 80GB, TP 2 × 3 replicas, $0.41/M output
 * tokens, TPOT 38.0 ms (simulated 41.0 ms)"; for an infeasible plan, null
 * (the engine's answer says why).
 */
export function verdictLine(report, stats = {}) {
  if (!report.feasible || !report.deployments.length) return null;
  const d = report.deployments[report.cheapest >= 0 ? report.cheapest : 0];
  const sim = simulated(d.simulated?.tpot_ms, stats.tpot);
  const simText = Number.isFinite(sim) ? ` (simulated ${fmt.ms(sim)})` : '';
  return `${fmt.int(d.num_gpus)}× ${shortName(d.accelerator_name)}, ${splitText(d)}, ` +
    `${fmt.usd(d.usd_per_million_output_tokens)}/M output tokens, TPOT ${fmt.ms(d.tpot_ms)}${simText}`;
}

/** The weight precision and KV-cache dtype in words: "fp8 weights, KV fp8". */
export const precisionText = (d) => `${d.quantization} weights, KV ${d.kv_cache_dtype}`;

/** The columns of the ranked table: key, heading, the cell's text, whether numeric. */
export const COLUMNS = Object.freeze([
  ['accelerator', 'Accelerator', (d) => shortName(d.accelerator_name)],
  ['num_gpus', 'GPUs', (d) => fmt.int(d.num_gpus), true],
  ['split', 'Split', splitText],
  ['weights', 'Weights', (d) => d.quantization],
  ['kv', 'KV', (d) => d.kv_cache_dtype],
  ['engine', 'Engine', (d) => (d.engine === 'sglang' ? 'SGLang' : d.engine === 'vllm' ? 'vLLM' : d.engine)],
  ['usd_per_million_output_tokens', '$/M output', (d) => fmt.usd(d.usd_per_million_output_tokens), true],
  ['usd_per_hour', '$/hour', (d) => fmt.usd(d.usd_per_hour), true],
  ['tokens_per_s_per_gpu', 'tok/s per GPU', (d) => fmt.num(d.tokens_per_s_per_gpu), true],
  ['tokens_per_s_per_user', 'tok/s per user', (d) => fmt.num(d.tokens_per_s_per_user), true],
  ['ttft_ms', 'TTFT', (d) => fmt.ms(d.ttft_ms), true],
  ['tpot_ms', 'TPOT', (d) => fmt.ms(d.tpot_ms), true],
  ['headroom', 'Head\u00adroom', (d) => `${fmt.num(d.headroom)}×`, true],
]);

/** Which deployments the report picks, by index: "cheapest", "fewest GPUs", "lowest latency". */
export function picks(report) {
  const m = new Map();
  for (const [i, name] of [[report.cheapest, 'cheapest'], [report.fewest_gpus, 'fewest GPUs'], [report.lowest_latency, 'lowest latency']]) {
    if (i >= 0) m.set(i, [...(m.get(i) ?? []), name]);
  }
  return m;
}

/**
 * The ranked rows with identical figures collapsed: deployments whose
 * every shown cell but the weight precision is the same text (fp8 and
 * int8 weights at the same speed and price) make one row that names each
 * precision ("fp8 or int8"). Each row: {cells (COLUMNS' key -> text),
 * deployments (the report's indices, best first), picks (names), rank}.
 */
export function collapsedRows(report) {
  const p = picks(report);
  const rows = [];
  const byKey = new Map();
  report.deployments.forEach((d, i) => {
    const cells = Object.fromEntries(COLUMNS.map(([k, , f]) => [k, f(d)]));
    const key = JSON.stringify(COLUMNS.filter(([k]) => k !== 'weights').map(([k]) => cells[k]).concat(d.mode));
    const row = byKey.get(key);
    if (row) {
      if (!row.precisions.includes(cells.weights)) row.precisions.push(cells.weights);
      row.deployments.push(i);
      for (const name of p.get(i) ?? []) if (!row.picks.includes(name)) row.picks.push(name);
      return;
    }
    const r = { rank: d.rank, cells, precisions: [cells.weights], deployments: [i], picks: [...(p.get(i) ?? [])] };
    byKey.set(key, r);
    rows.push(r);
  });
  for (const r of rows) r.cells.weights = r.precisions.join(' or ');
  return rows;
}

/**
 * Why accelerators were left out, in a page user's words, by the
 * planner's reason code: the group's heading (n accelerators) and whether
 * the engine's per-accelerator message adds anything.
 */
export const REJECTION_REASONS = Object.freeze({
  purchase_priced: { text: 'bought, not rented: priced only by purchase, so not ranked against hourly rentals (select them above to include them)', detail: false },
  no_price: { text: 'no price in the default table (select them above and enter a price)', detail: false },
  engine: { text: 'no engine allowed here runs on them', detail: false },
  weights_do_not_fit: { text: 'the weights do not fit in their memory', detail: true },
  max_model_len: { text: 'no room for a whole request in the KV cache', detail: true },
  max_gpus: { text: 'need more GPUs than your limit', detail: true },
  tpot: { text: 'too slow per output token for the TPOT budget', detail: true },
  ttft: { text: 'too slow to the first token for the TTFT budget', detail: true },
});

/** An engine message with the API's field names put in the form's words. */
export function plainMessage(text) {
  return String(text)
    .replace(/\bmax_gpus\b/g, 'your limit of')
    .replace(/constraints\.prices/g, 'the price fields')
    .replace(/constraints\.accelerators/g, 'the accelerator list')
    .replace(/limit of (\d+)/, 'limit of $1 GPUs');
}

/**
 * The rejections grouped by reason, most accelerators first: [{reason,
 * text, items: [{id, name, detail}]}]. names maps an id to its name.
 */
export function groupedRejections(rejections, names = new Map()) {
  const groups = new Map();
  for (const x of rejections) {
    const why = REJECTION_REASONS[x.reason] ?? { text: x.reason.replaceAll('_', ' '), detail: true };
    if (!groups.has(x.reason)) groups.set(x.reason, { reason: x.reason, text: why.text, items: [] });
    groups.get(x.reason).items.push({
      id: x.accelerator, name: shortName(names.get(x.accelerator) ?? x.accelerator), detail: why.detail ? plainMessage(x.message) : '',
    });
  }
  return [...groups.values()].sort((a, b) => b.items.length - a.items.length);
}

/** A group's summary line: "12 accelerators: no price in the default table (…)". */
export const groupSummary = (g) => `${fmt.int(g.items.length)} accelerator${g.items.length === 1 ? '' : 's'}: ${g.text}`;

/**
 * The frontier chart's axes: {x, y} each {top, step, ticks, labels}, a
 * nice linear scale from 0 over the points' tokens/s per user (x) and
 * tokens/s per GPU (y).
 */
export function frontierAxes(points) {
  // 4% over the largest value, so that no point sits on the frame's top
  // or right edge.
  const axis = (max) => {
    const s = niceScale(max * 1.04);
    return { ...s, labels: Array.from({ length: s.ticks + 1 }, (_, i) => short(s.step * i)) };
  };
  return {
    x: axis(Math.max(0, ...points.map((p) => p.tokens_per_s_per_user))),
    y: axis(Math.max(0, ...points.map((p) => p.tokens_per_s_per_gpu))),
  };
}

/**
 * The chart's points: the frontier's, then each pick that is not on it
 * (the cheapest deployment need not be on the speed frontier) as a point
 * of the same shape with extra: true.
 */
export function chartPoints(report) {
  const pts = (report.frontier ?? []).map((p) => ({ ...p }));
  const on = new Set(pts.map((p) => p.index));
  for (const i of picks(report).keys()) {
    if (on.has(i)) continue;
    const d = report.deployments[i];
    pts.push({
      index: i, accelerator: d.accelerator, num_gpus: d.num_gpus, tokens_per_s_per_gpu: d.tokens_per_s_per_gpu,
      tokens_per_s_per_user: d.tokens_per_s_per_user, usd_per_million_output_tokens: d.usd_per_million_output_tokens,
      label: `${shortName(d.accelerator_name)}, ${splitText(d)}, ${precisionText(d)}`, extra: true,
    });
  }
  return pts;
}

/** A frontier point's tooltip text. */
export function pointText(p) {
  return `${p.label}: ${fmt.int(p.num_gpus)} GPU${p.num_gpus === 1 ? '' : 's'}, ${fmt.num(p.tokens_per_s_per_gpu)} tok/s per GPU, ` +
    `${fmt.num(p.tokens_per_s_per_user)} tok/s per user, ${fmt.usd(p.usd_per_million_output_tokens)}/M output tokens`;
}
