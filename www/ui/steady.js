// The steady state under the workload (report.serving, docs/MODEL.md
// section 5b) in words: the load it holds at and the conditions of its
// figures. No physics here: every figure is the engine's. Shared by the
// page's steady-state panel, the verdict, the comparison and the widget.
import * as fmt from './format.js';

/** The load of the steady state: "concurrency 64" or "5 req/s"; null without a serving section. */
export function steadyLoad(r) {
  const s = r?.serving;
  if (!s) return null;
  return s.request_rate ? fmt.reqS(s.request_rate) : `concurrency ${fmt.int(s.concurrency)}`;
}

/** "steady state at concurrency 64"; null without a serving section. */
export const steadyAt = (r) => (r?.serving ? `steady state at ${steadyLoad(r)}` : null);

/** A mean batch: whole as a whole number ("64"), else to three digits ("26.9"). */
export const batchText = (b) => (Number.isInteger(b) ? fmt.int(b) : fmt.num(b));

/** The data-parallel ranks the rates add up over (1 without data parallelism). */
const ranks = (r) => r.features?.parallel?.data_parallel_size ?? 1;

/**
 * What the steady state's figures hold for: the load (a closed loop of
 * users or Poisson arrivals), the lengths, the mean decode batch and how
 * the prompts share the steps, and, when saturated, what caps it and
 * where the wait goes.
 */
export function steadyConditions(r) {
  const s = r?.serving;
  if (!s) return null;
  const dp = ranks(r);
  const rank = dp > 1 ? ' per data-parallel rank' : '';
  const inFlight = s.request_rate && s.saturated ? 'running at its capacity' : 'in flight on average';
  const load = s.request_rate
    ? `Poisson arrivals at ${fmt.reqS(s.request_rate)}${rank}, ${fmt.num(s.concurrency)} requests ${inFlight}`
    : `${fmt.int(s.concurrency)} users${rank}, each sending its next request when its last one ends`;
  const order = s.order === 'prefill_first'
    ? `each prompt's prefill step runs alone while the decodes wait (${r.config.engine})`
    : `${fmt.int(s.prefill_tokens_per_step)} prompt tokens a step computed beside the decodes`;
  let text = `${load}; ${fmt.int(s.input_tokens)} + ${fmt.int(s.output_tokens)} tokens each; mean decode batch ${batchText(s.decode_batch)}, ${order}.`;
  if (s.saturated && s.queue_ms > 0) text += ` Saturated: ${fmt.limitedBy(s.limited_by)} caps what runs at once; ${fmt.ms(s.queue_ms)} of the TTFT is the wait for a slot.`;
  else if (s.saturated && s.request_rate) text += ` Saturated: ${fmt.limitedBy(s.limited_by)} caps what runs at once; requests arrive faster than it completes them, so the queue grows without bound (left out of the TTFT).`;
  else if (s.saturated) text += ` Saturated: every step is full of prompt tokens (${fmt.limitedBy(s.limited_by)}).`;
  if (dp > 1) text += ` The rates are all ${fmt.int(dp)} ranks'.`;
  return text;
}
