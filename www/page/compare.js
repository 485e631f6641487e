// The side-by-side comparison of two to four configurations: one column
// per configuration, one row per headline figure, each with its conditions.
import { figure } from './figures.js';
import * as fmt from '../ui/format.js';
import { label } from './state.js';
import { escapeHTML as esc } from '../ui/dom.js';

/** Rows: [heading, (report) -> text, (report) -> conditions]. */
export const ROWS = [
  ['GPUs', (r) => `${r.config.num_gpus} (TP ${r.config.tensor_parallel_size}, PP ${r.config.pipeline_parallel_size})`],
  ['Weights / KV dtype', (r) => `${r.model.weight_format} / ${r.config.kv_cache_dtype}`],
  ['KV cache per GPU', (r) => figure('memory.kv_cache_bytes', r)],
  ['KV capacity', (r) => figure('kv_cache.capacity_tokens', r)],
  ['Batch ceiling', (r) => `${figure('batch_ceiling.batch_size', r)} (${figure('batch_ceiling.limited_by', r)})`,
    (r) => `context ${fmt.int(r.batch_ceiling.context_tokens)}`],
  ['Best under budget', (r) => figure('best.tokens_per_s', r), (r) => r.best && `${figure('best.tokens_per_s_per_sequence', r)} per user, ${fmt.at(r.best.batch_size, r.best.context_tokens)}`],
  ['At the workload', (r) => figure('decode.tokens_per_s', r), (r) => r.decode && `${figure('decode.tokens_per_s_per_sequence', r)} per user, ${fmt.at(r.decode.batch_size, r.decode.context_tokens)}`],
  ['TTFT', (r) => figure('prefill.ttft_ms', r), (r) => r.prefill && `${fmt.int(r.prefill.input_tokens)}-token prompt, idle server`],
  ['Cost per 1M output tokens', (r) => figure('cost.usd_per_million_output_tokens', r), (r) => r.cost && fmt.at(r.cost.batch_size, r.cost.context_tokens)],
  ['Warnings', (r) => String(r.warnings?.length ?? 0)],
];

/**
 * Render cols ([{name, config, res: {report?, errors?}, active}]) into a
 * table element.
 */
export function renderCompare(table, cols) {
  const head = `<thead><tr><th scope="col"><span class="visually-hidden">Figure</span></th>${cols.map((c) =>
    `<th scope="col"${c.active ? ' class="active" aria-current="true"' : ''}>${esc(c.name)}<br><span class="cond">${esc(label(c.config, c.res.report))}</span></th>`).join('')}</tr></thead>`;
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
