// The text of every figure the page shows, as a function of the report.
// Keyed like the report ("decode.tokens_per_s"); the page writes each into
// the element with the matching data-v attribute, and the end-to-end tests
// compute the same texts from an independently evaluated report.
import * as fmt from '../ui/format.js';
import { capacity, budgetText, overload } from '../ui/verdict.js';
import { steadyLoad, steadyConditions, batchText } from '../ui/steady.js';
import { labelsText } from './profile.js';

const gpus = (n) => `${n} GPU${n === 1 ? '' : 's'}`;

/** key -> (report) -> text; a missing section gives '–'. */
export const FIGURES = {
  'capacity.fit': (r) => capacity(r)?.fit,
  'capacity.of': (r) => capacity(r)?.of,
  'capacity.batch': (r) => capacity(r)?.batch,
  'capacity.cond': (r) => capacity(r)?.cond,

  // When even batch 1 misses the budget, the card says so and shows batch 1's figures as what misses.
  'best.title': (r) => (r.best && !r.best.feasible ? 'No batch meets the budget' : 'Best batch under the budget'),
  'best.tokens_per_s': (r) => r.best && (r.best.feasible ? fmt.tokS(r.best.tokens_per_s) : 'none'),
  'best.tokens_per_s_per_sequence': (r) => r.best && `${r.best.feasible ? '' : 'batch 1: '}${fmt.tokS(r.best.tokens_per_s_per_sequence)}`,
  'best.ttft_ms': (r) => r.best && fmt.ms(r.best.ttft_ms),
  'best.conditions': (r) => r.best && (r.best.feasible
    ? `${fmt.at(r.best.batch_size, r.best.context_tokens)}; a larger batch is stopped by the ${fmt.limitedBy(r.best.limited_by)}`
    : `even batch 1 misses the latency budget: TPOT ${fmt.ms(r.best.step_time_ms)}, TTFT ${fmt.ms(r.best.ttft_ms)} at context ${fmt.int(r.best.context_tokens)} tokens`) +
    (overload(r) ? `; ${overload(r).text}` : ''),

  'decode.tokens_per_s': (r) => r.decode && fmt.tokS(r.decode.tokens_per_s),
  'decode.tokens_per_s_per_sequence': (r) => r.decode && fmt.tokS(r.decode.tokens_per_s_per_sequence),
  'decode.step_time_ms': (r) => r.decode && fmt.ms(r.decode.step_time_ms),
  'decode.conditions': (r) => r.decode && `${fmt.at(r.decode.batch_size, r.decode.context_tokens)}; ${r.decode.bound}-bound, KV cache ${fmt.pct(r.decode.kv_cache_usage)} used` +
    (r.serving ? '; no prompt in the step (the steady state below has them)' : '') + (overload(r) ? `; ${overload(r).text}` : ''),

  // The steady state under the workload's concurrency or request rate (report.serving, docs/MODEL.md section 5b).
  'serving.load': (r) => r.serving && `at ${steadyLoad(r)}`,
  'serving.tpot_ms': (r) => r.serving && fmt.ms(r.serving.tpot_ms),
  'serving.ttft_ms': (r) => r.serving && fmt.ms(r.serving.ttft_ms),
  'serving.queue_ms': (r) => r.serving && (r.serving.queue_ms > 0 ? `${fmt.ms(r.serving.queue_ms)} of it waiting for a slot` : ''),
  'serving.itl_ms': (r) => r.serving && fmt.ms(r.serving.itl_ms),
  'serving.e2e_ms': (r) => r.serving && fmt.ms(r.serving.e2e_ms),
  // Overloaded: what it delivers beside what the rate asks (ui/verdict.js overload).
  'serving.output_tokens_per_s': (r) => r.serving && (overload(r) ? `${fmt.tokS(r.serving.output_tokens_per_s)} of ${fmt.tokS(overload(r).asked)} asked` : fmt.tokS(r.serving.output_tokens_per_s)),
  'serving.total_tokens_per_s': (r) => r.serving && fmt.tokS(r.serving.total_tokens_per_s),
  'serving.requests_per_s': (r) => r.serving && (overload(r) ? `${fmt.reqS(overload(r).saturation)} of ${fmt.reqS(overload(r).rate)} asked` : fmt.reqS(r.serving.requests_per_s)),
  'serving.tokens_per_s_per_user': (r) => r.serving && fmt.tokS(1000 / r.serving.tpot_ms),
  'serving.decode_batch': (r) => r.serving && batchText(r.serving.decode_batch),
  'serving.decode_step_ms': (r) => r.serving && `pure decode step ${fmt.ms(r.serving.decode_step_ms)}`,
  'serving.conditions': (r) => steadyConditions(r),

  'prefill.ttft_ms': (r) => r.prefill && fmt.ms(r.prefill.ttft_ms),
  'prefill.time_ms': (r) => r.prefill && fmt.ms(r.prefill.time_ms),
  'prefill.tokens_per_s': (r) => r.prefill && fmt.tokS(r.prefill.tokens_per_s),
  'prefill.conditions': (r) => r.prefill && `one prompt of ${fmt.int(r.prefill.input_tokens)} tokens on an idle server, ${r.prefill.chunks} chunk${r.prefill.chunks === 1 ? '' : 's'}; ${r.prefill.bound}-bound` +
    (overload(r) ? `; overloaded: at ${fmt.reqS(overload(r).rate)} the queue, and the TTFT, grow without bound` : r.serving ? `; ${fmt.ms(r.serving.ttft_ms)} in the steady state below` : ''),

  'cost.usd_per_million_output_tokens': (r) => r.cost && fmt.usd(r.cost.usd_per_million_output_tokens),
  'cost.tokens_per_s': (r) => r.cost && fmt.tokS(r.cost.tokens_per_s),
  // The energy section (docs/MODEL.md section 5c): J per output token at the cost card's operating point, the
  // power per GPU against its rating, tokens/s per kW, and the electricity's share of the price.
  'energy.summary': (r) => r.energy && `${fmt.joules(r.energy.joules_per_output_token)}, ${fmt.int(r.energy.gpu_power_w)} W per GPU of ${fmt.int(r.energy.rated_power_w)} W rated ` +
    `(${gpus(r.energy.num_gpus)}, ${+r.energy.deployment_kw.toPrecision(3)} kW), ${fmt.int(r.energy.output_tokens_per_s_per_kw)} tok/s per kW` +
    (r.cost?.power_usd_per_million_output_tokens ? `; the power is ${fmt.usd(r.cost.power_usd_per_million_output_tokens)} of each million tokens at ${fmt.usd(r.cost.usd_per_kwh)}/kWh` : ''),
  'range.energy.joules_per_output_token': (r) => fmt.range(r, 'energy.joules_per_output_token', fmt.joules),
  'cost.num_gpus': (r) => r.cost && `${gpus(r.cost.num_gpus)} at ${fmt.usd(r.cost.gpu_hour_usd)}/h`,
  'cost.conditions': (r) => r.cost && (r.serving ? `the steady state at ${steadyLoad(r)} (mean decode batch ${batchText(r.serving.decode_batch)})${overload(r) ? `; ${overload(r).text}` : ''}` : fmt.at(r.cost.batch_size, r.cost.context_tokens)),
  'cost.explain': (r) => r.cost && (r.serving
    ? `${fmt.tokS(r.cost.tokens_per_s)} is the steady state's output rate, every request's ${fmt.int(r.config.input_tokens)}-token prefill sharing the steps; ` +
      `the pure decode step at batch ${fmt.int(r.decode.batch_size)} alone would give ${fmt.tokS(r.decode.tokens_per_s)}.`
    : `${fmt.tokS(r.cost.tokens_per_s)} counts the time every request's ${fmt.int(r.config.input_tokens)}-token prefill takes from decoding; ` +
      `decode alone at this batch would be ${fmt.tokS(r.best?.feasible ? r.best.tokens_per_s : r.batch_ceiling.tokens_per_s)}.`),

  'memory.total_bytes': (r) => fmt.bytes(r.memory.total_bytes),
  'memory.requested_bytes': (r) => fmt.bytes(r.memory.requested_bytes),
  'memory.weights_bytes': (r) => fmt.bytes(r.memory.weights_bytes),
  'memory.activation_bytes': (r) => fmt.bytes(r.memory.activation_bytes),
  'memory.non_torch_bytes': (r) => fmt.bytes(r.memory.non_torch_bytes),
  'memory.kv_cache_bytes': (r) => fmt.bytes(Math.max(r.memory.kv_cache_bytes, 0)),
  'memory.free_bytes': (r) => fmt.bytes(Math.max(r.memory.total_bytes - r.memory.requested_bytes, 0)),
  'config.gpu_memory_utilization': (r) => String(r.config.gpu_memory_utilization),

  'kv_cache.bytes_per_token': (r) => fmt.bytes(r.kv_cache.bytes_per_token),
  'kv_cache.bytes_per_token_per_gpu': (r) => fmt.bytes(r.kv_cache.bytes_per_token_per_gpu),
  'kv_cache.num_blocks': (r) => fmt.int(r.kv_cache.num_blocks),
  'kv_cache.block_size': (r) => fmt.int(r.kv_cache.block_size),
  'kv_cache.capacity_tokens': (r) => `${fmt.int(r.kv_cache.capacity_tokens)} tokens`,
  'kv_cache.max_concurrency': (r) => `${r.kv_cache.max_concurrency.toFixed(2)}×`,
  'kv_cache.max_model_len': (r) => fmt.int(r.kv_cache.max_model_len),
  'kv_cache.groups': (r) => (r.kv_cache.groups ?? []).map((g) => `${g.layers} ${g.kind.replaceAll('_', ' ')}${g.window ? ` (window ${fmt.int(g.window)})` : ''}`).join(', ') || '–',

  'batch_ceiling.batch_size': (r) => (r.batch_ceiling.batch_size ? fmt.int(r.batch_ceiling.batch_size) : '0'),
  'batch_ceiling.limited_by': (r) => fmt.limitedBy(r.batch_ceiling.limited_by),
  'batch_ceiling.batch_size_without_budget': (r) => (r.batch_ceiling.batch_size ? `${fmt.int(r.batch_ceiling.batch_size_without_budget)} (${fmt.limitedBy(r.batch_ceiling.limited_by_without_budget)})` : '–'),
  'batch_ceiling.tokens_per_s': (r) => (r.batch_ceiling.batch_size ? fmt.tokS(r.batch_ceiling.tokens_per_s) : '–'),
  'batch_ceiling.tokens_per_s_per_sequence': (r) => (r.batch_ceiling.batch_size ? fmt.tokS(r.batch_ceiling.tokens_per_s_per_sequence) : '–'),
  'batch_ceiling.step_time_ms': (r) => (r.batch_ceiling.batch_size ? fmt.ms(r.batch_ceiling.step_time_ms) : '–'),
  'batch_ceiling.conditions': (r) => `every sequence at its final context of ${fmt.int(r.batch_ceiling.context_tokens)} tokens (input + output)`,

  'preemption.onset_concurrency': (r) => r.preemption && `${fmt.int(r.preemption.onset_concurrency)} sequences`,
  'preemption.onset_concurrency_lockstep': (r) => r.preemption && `${fmt.int(r.preemption.onset_concurrency_lockstep)} sequences`,
  'preemption.onset_request_rate': (r) => r.preemption && (r.preemption.reachable ? fmt.reqS(r.preemption.onset_request_rate) : 'not reached'),
  'preemption.saturation_request_rate': (r) => r.preemption && fmt.reqS(r.preemption.saturation_request_rate),
  'preemption.utilization': (r) => r.preemption?.utilization && `${Math.round(r.preemption.utilization * 100)} %${r.preemption.utilization > 1 ? ' (overloaded)' : ''}`,
  'preemption.recompute_overhead': (r) => r.preemption && `${fmt.num(r.preemption.recompute_overhead)} tokens per output token`,
  'calibration.summary': (r) => (!r.calibration ? '' : (() => {
    const e = r.config.efficiencies;
    const p = r.calibration.profile;
    // A calibration profile applied as it is has no points of its own (calc/calibrate/profile.go applyProfile).
    const applied = !r.calibration.points?.length && !r.calibration.serving?.length;
    return `${applied ? 'From the calibration profile' : 'Fitted'}: bandwidth efficiency ${e.bandwidth_efficiency.toFixed(3)} (engine's ${p.bandwidth_efficiency}), ` +
      `step overhead ${fmt.num(e.step_overhead_ms)} ms (engine's ${p.step_overhead_ms} ms), rms error ${(100 * r.calibration.rms_error).toFixed(1)} %.`;
  })()),
  // Which figures the calibration moves (report.calibration.labels); '' without one.
  'calibration.labels': (r) => labelsText(r.calibration?.labels),

  // The 80 % ranges beside the headline figures (report.bands).
  'range.decode.tokens_per_s': (r) => fmt.range(r, 'decode.tokens_per_s', fmt.tokS),
  'range.decode.step_time_ms': (r) => fmt.range(r, 'decode.step_time_ms', fmt.ms),
  'range.prefill.ttft_ms': (r) => fmt.range(r, 'prefill.ttft_ms', fmt.ms),
  'range.serving.tpot_ms': (r) => fmt.range(r, 'serving.tpot_ms', fmt.ms),
  'range.serving.ttft_ms': (r) => fmt.range(r, 'serving.ttft_ms', fmt.ms),
  'range.serving.e2e_ms': (r) => fmt.range(r, 'serving.e2e_ms', fmt.ms),
  'range.serving.output_tokens_per_s': (r) => fmt.range(r, 'serving.output_tokens_per_s', fmt.tokS),
  'range.kv_cache.capacity_tokens': (r) => fmt.range(r, 'kv_cache.capacity_tokens', (x) => `${fmt.int(x)} tokens`),
  'range.batch_ceiling.batch_size': (r) => fmt.range(r, 'batch_ceiling.batch_size', fmt.int),
  'range.preemption.onset_concurrency': (r) => fmt.range(r, 'preemption.onset_concurrency', (x) => `${fmt.int(x)} sequences`),

  'preemption.conditions': (r) => r.preemption && `at concurrency ${fmt.int(r.preemption.concurrency)}, ${fmt.int(r.preemption.context_tokens)} tokens per sequence; ` +
    (r.preemption.reachable ? 'the KV cache fills before the scheduler cap' : 'not reached: the scheduler cap binds before the KV cache fills'),
};

/** The text of one figure; '–' when its section is absent. */
export function figure(key, report) {
  const f = FIGURES[key];
  if (!f || !report) return '–';
  try {
    const v = f(report);
    return v == null || v === false ? '–' : v;
  } catch {
    return '–';
  }
}

/** The headline conditions of a report: model, hardware, engine, workload. */
export function conditions(r) {
  const c = r.config;
  const load = c.concurrency ? `concurrency ${fmt.int(c.concurrency)}` : c.request_rate ? fmt.reqS(c.request_rate) : 'at the batch ceiling';
  const budget = budgetText(r);
  return `${r.model.name} on ${c.num_gpus > 1 ? `${c.num_gpus}× ` : ''}${r.hardware.name} ` +
    `(TP ${c.tensor_parallel_size}, PP ${c.pipeline_parallel_size}), ${c.engine}, weights ${r.model.weight_format}, KV ${c.kv_cache_dtype}; ` +
    `${fmt.int(c.input_tokens)} input + ${fmt.int(c.output_tokens)} output tokens, ${load}${budget ? `; budget ${budget}` : ''}.`;
}

/** The model line under the model field: name, parameters, architecture. */
export function modelSummary(r) {
  const m = r.model;
  return `${m.name}: ${fmt.params(m.params_total)} parameters` +
    (m.params_active_per_token !== m.params_total ? ` (${fmt.params(m.params_active_per_token)} active)` : '') +
    `, ${m.architecture}, ${m.num_hidden_layers} layers, context ${fmt.int(m.max_position_embeddings)}.`;
}

/**
 * The memory bar of one GPU: its segments ([class, width] in the order
 * drawn; widths are CSS percentages of the bar), its text alternative,
 * whether the request overflows the memory, and the shortfall: when the
 * weights and runtime need more than gpu_memory_utilization leaves, the bar
 * spans what they need and short ({left, width, text}) marks the part past
 * what is available; else null.
 */
export function memoryBar(r) {
  const m = r.memory;
  const need = m.weights_bytes + m.activation_bytes + m.non_torch_bytes + (m.cuda_graph_bytes || 0) + (m.feature_bytes || 0);
  const lacking = need > m.requested_bytes;
  const total = Math.max(m.total_bytes, lacking ? need : 0) || 1;
  const kv = Math.max(m.kv_cache_bytes, 0);
  const free = lacking ? 0 : Math.max(m.total_bytes - m.requested_bytes, 0);
  const graphs = m.cuda_graph_bytes || 0;
  const feat = m.feature_bytes || 0; // the draft's weights and the LoRA slots, drawn with the runtime
  const parts = [['weights', m.weights_bytes], ['activation', m.activation_bytes], ['nontorch', m.non_torch_bytes + graphs + feat], ['kv', kv], ['free', free]];
  const pct = (v) => `${Math.min((v / total) * 100, 100).toFixed(2)}%`;
  const short = lacking ? {
    left: pct(m.requested_bytes), width: pct(need - m.requested_bytes),
    text: `${fmt.bytes(need - m.requested_bytes)} short: the weights, activations and runtime need ${fmt.bytes(need)}, ` +
      `${fmt.bytes(m.requested_bytes)} is available (${fmt.bytes(m.total_bytes)} at gpu_memory_utilization ${r.config.gpu_memory_utilization}).`,
  } : null;
  return {
    segments: parts.map(([k, v]) => [k, pct(v)]),
    label: `Memory per GPU of ${fmt.bytes(m.total_bytes)}: weights ${fmt.bytes(m.weights_bytes)}, activations ${fmt.bytes(m.activation_bytes)}, ` +
      `non-torch ${fmt.bytes(m.non_torch_bytes)}${graphs ? `, CUDA graphs ${fmt.bytes(graphs)}` : ''}${feat ? `, draft and LoRA ${fmt.bytes(feat)}` : ''}, KV cache ${fmt.bytes(kv)}, left free ${fmt.bytes(free)}.${short ? ` ${short.text}` : ''}`,
    over: m.kv_cache_bytes < 0 || lacking,
    short,
  };
}
