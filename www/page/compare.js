// The side-by-side comparison of two to four configurations: one column
// per configuration, one row per headline figure, each with its conditions.
import { figure } from './figures.js';
import * as fmt from '../ui/format.js';
import { label } from './state.js';
import { escapeHTML as esc } from '../ui/dom.js';
import { verdict } from '../ui/verdict.js';
import { steadyAt } from '../ui/steady.js';

/** The cost section's price_kind in words (docs/MODEL.md section 12). */
const PRICE_KIND = { user: 'your price', cloud_on_demand: 'on-demand cloud list price', purchase_amortised: 'purchase amortised over 4 years + power' };

/** Rows: [heading, (report) -> text, (report) -> conditions]. */
export const ROWS = [
  ['Verdict', (r) => verdict(r).badge, (r) => verdict(r).headline],
  ['Price', (r) => (r.cost ? `${fmt.usd(r.cost.gpu_hour_usd * r.cost.num_gpus)}/h` : 'no price'), (r) => r.cost && `${r.cost.num_gpus} × ${fmt.usd(r.cost.gpu_hour_usd)} per GPU-hour, ${PRICE_KIND[r.cost.price_kind] ?? r.cost.price_kind}`],
  ['GPUs', (r) => `${r.config.num_gpus} (TP ${r.config.tensor_parallel_size}, PP ${r.config.pipeline_parallel_size})`],
  ['Weights / KV dtype', (r) => `${r.model.weight_format} / ${r.config.kv_cache_dtype}`],
  ['KV cache per GPU', (r) => figure('memory.kv_cache_bytes', r)],
  ['KV capacity', (r) => figure('kv_cache.capacity_tokens', r)],
  ['Batch ceiling', (r) => `${figure('batch_ceiling.batch_size', r)} (${figure('batch_ceiling.limited_by', r)})`,
    (r) => `context ${fmt.int(r.batch_ceiling.context_tokens)}`],
  ['Best batch under the budget', (r) => figure('best.tokens_per_s', r), (r) => r.best && `${figure('best.tokens_per_s_per_sequence', r)} per user, ${fmt.at(r.best.batch_size, r.best.context_tokens)}`],
  // Under a concurrency or a request rate, the steady state's figures (report.serving); else the pure decode step and an idle server's TTFT.
  ['Steady state', (r) => (r.serving ? figure('serving.output_tokens_per_s', r) : 'no concurrency or request rate'),
    (r) => r.serving && `${steadyAt(r)}; ${figure('serving.requests_per_s', r)}, E2E ${figure('serving.e2e_ms', r)}${r.serving.saturated ? `, saturated (${fmt.limitedBy(r.serving.limited_by)})` : ''}`],
  ['TPOT', (r) => (r.serving ? figure('serving.tpot_ms', r) : figure('decode.step_time_ms', r)),
    (r) => (r.serving ? `${steadyAt(r)}; pure decode step ${fmt.ms(r.serving.decode_step_ms)}` : r.decode && `pure decode step, ${fmt.at(r.decode.batch_size, r.decode.context_tokens)}`)],
  ['TTFT', (r) => (r.serving ? figure('serving.ttft_ms', r) : figure('prefill.ttft_ms', r)),
    (r) => (r.serving ? `${steadyAt(r)}${r.serving.queue_ms > 0 ? `, ${figure('serving.queue_ms', r)}` : ''}` : r.prefill && `${fmt.int(r.prefill.input_tokens)}-token prompt, idle server`)],
  ['Decode step at the workload\'s batch', (r) => figure('decode.tokens_per_s', r), (r) => r.decode && `${figure('decode.tokens_per_s_per_sequence', r)} per user, ${fmt.at(r.decode.batch_size, r.decode.context_tokens)}`],
  ['Cost per 1M output tokens', (r) => figure('cost.usd_per_million_output_tokens', r), (r) => figure('cost.conditions', r)],
  ['Warnings', (r) => String(r.warnings?.length ?? 0)],
];

/**
 * The winner under the budget among reports (null for an invalid one): of
 * those that start, meet their latency budget and keep up with their load,
 * the cheapest per million output tokens when every one has a price, else
 * the fastest: when every one has a steady state (a concurrency or a
 * request rate), the highest steady-state output rate, ties (the same
 * request rate, kept up with) going to the shortest E2E latency; else the
 * highest throughput under the budget (the best batch's, or the ceiling's
 * without a budget). Returns {index, why}, or null when none qualifies or
 * there is nothing to compare.
 */
export function winner(reports) {
  const ok = reports.map((r, i) => [r, i]).filter(([r]) => r && ['meets', 'fits'].includes(verdict(r).state));
  if (reports.length < 2 || !ok.length) return null;
  const priced = ok.every(([r]) => r.cost);
  const steady = ok.every(([r]) => r.serving);
  const rate = (r) => (steady ? r.serving.output_tokens_per_s : r.best?.feasible ? r.best.tokens_per_s : r.batch_ceiling.tokens_per_s);
  // Each score is compared in turn: higher wins.
  const score = ([r]) => (priced ? [-r.cost.usd_per_million_output_tokens] : steady ? [rate(r), -r.serving.e2e_ms] : [rate(r)]);
  const better = (a, b) => {
    const [x, y] = [score(a), score(b)];
    const i = x.findIndex((v, k) => v !== y[k]);
    return i >= 0 && y[i] > x[i];
  };
  const [r, index] = ok.reduce((a, b) => (better(a, b) ? b : a));
  const budget = ok.some(([x]) => x.best) ? ' under the budget' : '';
  let why = `fastest${budget}: ${fmt.tokS(rate(r))}`;
  if (priced) why = `cheapest${budget}: ${fmt.usd(r.cost.usd_per_million_output_tokens)} per million output tokens`;
  else if (steady) why = `fastest in the ${steadyAt(r)}: ${fmt.tokS(rate(r))}, E2E ${fmt.ms(r.serving.e2e_ms)}`;
  return { index, why };
}

/**
 * Render cols ([{name, config, res: {report?, errors?}, active}]) into a
 * table element.
 */
export function renderCompare(table, cols) {
  const win = winner(cols.map((c) => c.res.report ?? null));
  const head = `<thead><tr><th scope="col"><span class="visually-hidden">Figure</span></th>${cols.map((c, i) =>
    `<th scope="col"${c.active ? ' class="active" aria-current="true"' : ''}${win?.index === i ? ' data-winner="true"' : ''}>${esc(c.name)}` +
    `${win?.index === i ? ` <span class="compare-winner" title="${esc(win.why)}">★ winner</span>` : ''}<br><span class="cond">${esc(label(c.config, c.res.report))}</span>` +
    `${win?.index === i ? `<br><span class="cond">${esc(win.why)}</span>` : ''}</th>`).join('')}</tr></thead>`;
  const body = ROWS.map(([name, val, cond]) => `<tr><th scope="row">${esc(name)}</th>${cols.map((c) => {
    const r = c.res.report;
    if (!r) return '<td class="err">invalid: see the form</td>';
    let v = '–';
    let k = '';
    try { v = val(r) ?? '–'; k = cond?.(r) ?? ''; } catch { /* section absent */ }
    return `<td${c.active ? ' class="active"' : ''}>${esc(v)}${k ? `<br><span class="cond">${esc(k)}</span>` : ''}</td>`;
  }).join('')}</tr>`).join('');
  table.innerHTML = `<caption class="visually-hidden">Configurations side by side</caption>${head}<tbody>${body}</tbody>`;
}
