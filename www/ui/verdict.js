// The verdict: one line that answers "does it run, how many requests fit,
// can it keep up, does it meet the budget", above everything on the page
// and in the widget. Built from the report's own fields only (no physics
// here: every figure is the engine's), so the page, the widget and the
// tests say the same thing.
import * as fmt from './format.js';
import { featureFacts } from './features.js';
import { steadyAt, batchText } from './steady.js';

/**
 * One term per quantity, each defined once: the page and the widget put
 * these on hover (title, abbr), docs/glossary.md says the same in full.
 */
export const TERMS = {
  TTFT: 'Time to first token: from a request\'s arrival to its first output token (the prompt\'s prefill, plus any wait).',
  TPOT: 'Time per output token: the time between two output tokens of one request, one step of the running batch (longer when prompts being admitted share the step: the steady state gives the mean a benchmark measures).',
  ITL: 'Inter-token latency: the gap between two streamed chunks of one request (the median, as vllm bench serve reports it).',
  E2E: 'End-to-end latency: from a request\'s arrival to its last output token, TTFT + (output tokens - 1) × TPOT.',
  'steady state': 'What a benchmark client (vllm bench serve) measures while the workload\'s concurrency or request rate runs on: means over requests, the prompts being admitted sharing the steps with the decodes, so TPOT is longer than the pure decode step.',
  'decode step': 'One step of the running batch with no prompt in it: the floor of TPOT at that batch. Under load, prompts share the steps (see the steady state).',
  'tok/s': 'Output tokens per second. "Aggregate" is all users together; "per user" is what one request sees (1 / TPOT).',
  batch: 'The number of requests decoding together in one step of the server.',
  'batch ceiling': 'The largest batch the server can run at the workload\'s final context: the smallest of the KV cache\'s room, max_num_seqs, max_num_batched_tokens and (when given) the TPOT budget.',
  'KV cache': 'GPU memory left after the weights, activations and runtime, holding every running request\'s keys and values (vLLM\'s paged blocks).',
  'requests that fit': 'How many requests of the workload\'s input + output tokens the KV cache holds at once, every one at its last token.',
  'max concurrency': 'vLLM\'s start-up figure: how many sequences of max_model_len tokens the KV cache holds. Not the workload\'s lengths.',
  preemption: 'When the KV cache runs out, vLLM evicts a running request and recomputes its prompt later: extra work, longer latency.',
  'saturation rate': 'The request rate at which the server completes requests as fast as it can; arrivals above it queue without bound.',
  utilization: 'The request rate over the saturation rate. Above 100 % the server is overloaded.',
  'latency budget': 'The TTFT and TPOT limits (slo) a batch must meet; "best batch" is the largest that meets both.',
  'serving tok/s': 'Output tokens per second with every request\'s prefill counted (what a price is paid for): the steady state\'s under a concurrency or a request rate, else at the best batch; below the decode-only figure.',
};

/** The verdict states, in the order they take precedence. */
export const STATES = ['wont_start', 'overloaded', 'misses', 'meets', 'fits'];

/** The badge of each state. */
export const BADGES = {
  wont_start: 'Won\'t start', overloaded: 'Overloaded', misses: 'Misses the budget', meets: 'Meets the budget', fits: 'Fits',
};

const { given } = fmt;
/** "the KV cache", "the TPOT budget", but "max_num_seqs" (an engine setting). */
const the = (code) => (String(code).startsWith('max_') ? fmt.limitedBy(code) : `the ${fmt.limitedBy(code)}`);
const times = (x) => `${x >= 10 ? x.toFixed(0) : x.toFixed(1)}×`;
const code = (r, c) => (r.warnings ?? []).some((w) => w.code === c);

/** The engine's nearest fixes (report.fixes: {field, value, summary}, ranked by calc/evaluate/fixes.go). */
const engineFixes = (r) => (Array.isArray(r.fixes) ? r.fixes.filter((f) => typeof f?.summary === 'string' && f.summary && typeof f.field === 'string') : []);

/** The nearest fixes' sentences: the engine's when it gives them, else what the warning names. */
function fixes(r, fallback) {
  const list = engineFixes(r).map((f) => f.summary);
  return list.length ? list : fallback;
}

/**
 * The replicas a request rate above the saturation rate needs, as the
 * engine's load fix counts them (calc/evaluate/fixes.go loadFixes):
 * n = ceil(rate / saturation rate), each then taking rate / n.
 */
export function replicas(rate, saturation) {
  if (!(rate > 0) || !(saturation > 0) || rate <= saturation) return null;
  const n = Math.ceil(rate / saturation);
  return { n, rate, saturation, each: rate / n,
    text: `Needs ${fmt.int(n)} replicas for ${fmt.reqS(rate)}: ⌈${fmt.rate(rate)} / ${fmt.rate(saturation)}⌉ = ${fmt.int(n)}, each then taking ${fmt.reqS(rate / n)}.` };
}

/** The budget's text: "TPOT ≤ 50 ms, TTFT ≤ 1,000 ms" (the config echoes the request's slo). */
export function budgetText(r) {
  const c = r.config;
  return [c.tpot_budget_ms && `TPOT ≤ ${given(c.tpot_budget_ms)} ms`, c.ttft_budget_ms && `TTFT ≤ ${given(c.ttft_budget_ms)} ms`].filter(Boolean).join(', ');
}

/** The workload's lengths: "1,024 + 256 tokens". */
const lengths = (r) => `${fmt.int(r.config.input_tokens)} + ${fmt.int(r.config.output_tokens)} tokens`;

/**
 * The verdict of a report: {state, badge, headline, lines, fixes,
 * actions, replicas, features}. headline is one sentence; lines are its
 * details (the budget, the preemption); fixes the nearest changes that
 * make a failed deployment start, as sentences; actions the same as the
 * engine's fixes ({field, value, summary}: what a button applies);
 * replicas, when a request rate overloads it, what replicas() says;
 * features one sentence per serving feature that is on, what it changed
 * (ui/features.js; absent when the deployment does not run). state is one
 * of STATES.
 */
export function verdict(r) {
  let v = verdicts.get(r);
  if (!v) verdicts.set(r, (v = computeVerdict(r)));
  return v;
}

// One verdict and one capacity answer per report object: the page asks for
// them from several places on every update (the line, the cards, the
// comparison).
const verdicts = new WeakMap();
const capacities = new WeakMap();

function computeVerdict(r) {
  const c = r.config;
  const pre = r.preemption;
  const lines = [];
  // Won't start: the weights, one max_model_len sequence, or one request do not fit.
  if (code(r, 'weights_do_not_fit') || (!r.fits && !r.decode && r.batch_ceiling?.limited_by === 'weights_do_not_fit')) {
    const m = r.memory;
    const need = m.weights_bytes + m.activation_bytes + m.non_torch_bytes + (m.cuda_graph_bytes || 0) + (m.feature_bytes || 0);
    return {
      state: 'wont_start', badge: BADGES.wont_start,
      headline: `Won't start: weights need ${fmt.bytes(need)} of ${fmt.bytes(m.requested_bytes)} per GPU, ${fmt.bytes(need - m.requested_bytes)} short`,
      lines: [`Weights ${fmt.bytes(m.weights_bytes)}, activations ${fmt.bytes(m.activation_bytes)} and runtime ${fmt.bytes(m.non_torch_bytes + (m.cuda_graph_bytes || 0) + (m.feature_bytes || 0))} against ${fmt.bytes(m.requested_bytes)} at gpu_memory_utilization ${c.gpu_memory_utilization}.`],
      fixes: fixes(r, ['add GPUs (tensor_parallel_size)', 'quantize the weights (fp8, AWQ or GPTQ int4)', 'pick an accelerator with more memory']),
      actions: engineFixes(r),
    };
  }
  if (!r.fits) {
    return {
      state: 'wont_start', badge: BADGES.wont_start,
      headline: `Won't start: the KV cache holds ${fmt.int(r.kv_cache.capacity_tokens)} tokens, less than one max_model_len sequence of ${fmt.int(c.max_model_len)}`,
      lines: ['vLLM refuses to start when one max_model_len request cannot fit in the KV cache.'],
      fixes: fixes(r, [`lower max_model_len (the KV cache holds ${fmt.int(r.kv_cache.capacity_tokens)} tokens)`, 'add GPUs (tensor_parallel_size)', 'an fp8 KV cache (kv_cache_dtype)']),
      actions: engineFixes(r),
    };
  }
  if (!r.decode || !pre) {
    return {
      state: 'wont_start', badge: BADGES.wont_start,
      headline: `Won't run: one request of ${lengths(r)} needs more KV cache than the ${fmt.int(r.kv_cache.capacity_tokens)} tokens it holds`,
      lines: [], fixes: fixes(r, ['shorter requests', 'add GPUs (tensor_parallel_size)', 'an fp8 KV cache (kv_cache_dtype)']),
      actions: engineFixes(r),
    };
  }

  const bc = r.batch_ceiling;
  const room = pre.onset_concurrency_lockstep;
  const sched = Math.min(c.max_num_seqs, c.max_num_batched_tokens);
  const rate = c.request_rate;
  const u = pre.utilization ?? (rate && pre.saturation_request_rate ? rate / pre.saturation_request_rate : 0);
  // The steady state under the workload's load (report.serving), when it gives one.
  const s = r.serving;
  const steady = steadyAt(r);
  const steadyText = s && `${steady}: ${fmt.tokS(s.output_tokens_per_s)}, TPOT ${fmt.ms(s.tpot_ms)}, TTFT ${fmt.ms(s.ttft_ms)}`;
  const steadyLine = s && `${steadyText[0].toUpperCase()}${steadyText.slice(1)}${s.queue_ms > 0 ? ` (${fmt.ms(s.queue_ms)} of it waiting for a slot)` : ''}.`;
  const onsetLine = pre.reachable
    ? `Preemption starts above ${fmt.int(pre.onset_concurrency)} requests in flight (about ${fmt.reqS(pre.onset_request_rate)}).`
    : `It never preempts for memory: ${fmt.limitedBy(bc.limited_by_without_budget ?? bc.limited_by)} (${fmt.int(sched)}) binds before the KV cache fills.`;
  let state = 'fits';
  let headline;
  // The rates are every data-parallel rank's; the request rate is one rank's.
  const dp = r.features?.parallel?.data_parallel_size ?? 1;
  let reps = null;
  if (rate && (u > 1 || s?.saturated)) {
    state = 'overloaded';
    // One figure for what it completes: the saturation rate (above it the
    // queue grows), else the steady state's when that one saturates first.
    const sat = u > 1 ? pre.saturation_request_rate : s.requests_per_s / dp;
    reps = replicas(rate, sat);
    headline = u > 1
      ? `Overloaded ${times(u)}: saturates at ${fmt.reqS(sat)}; ${fmt.reqS(rate)} arrive`
      : `Overloaded: ${fmt.reqS(rate)} arrive, more than the ${fmt.reqS(sat)} it completes`;
    if (reps) headline += `; needs ${fmt.int(reps.n)} replicas`;
    if (reps) lines.push(reps.text);
    lines.push(`Requests queue, and their TTFT grows without bound. ${onsetLine}`);
    if (s?.saturated) lines.push(`At its capacity (${fmt.limitedBy(s.limited_by)} caps what runs at once) it delivers ${fmt.tokS(s.output_tokens_per_s)} of the ${fmt.tokS(rate * c.output_tokens)} asked (${fmt.reqS(rate)} × ${fmt.int(c.output_tokens)} output tokens), at TPOT ${fmt.ms(s.tpot_ms)}.`);
  } else if (rate) {
    headline = `Fits: ${fmt.reqS(rate)} of ${lengths(r)}, utilization ${Math.round(u * 100)} % of the ${fmt.reqS(pre.saturation_request_rate)} it saturates at; ` +
      (s ? steadyText : `${fmt.tokS(r.decode.tokens_per_s)} at TPOT ${fmt.ms(r.decode.step_time_ms)}`);
    lines.push(onsetLine);
  } else if (c.concurrency && pre.reachable && c.concurrency > pre.onset_concurrency) {
    state = 'overloaded';
    headline = `Overloaded: ${fmt.int(c.concurrency)} concurrent requests of ${lengths(r)}; the KV cache holds ${fmt.int(pre.onset_concurrency)} without preempting`;
    lines.push(`The scheduler preempts and recomputes: ${fmt.num(pre.work_per_output_token)} tokens of work per output token.`);
    if (s) lines.push(steadyLine);
  } else if (c.concurrency && c.concurrency > sched) {
    state = 'overloaded';
    headline = `Overloaded: ${fmt.int(c.concurrency)} concurrent requests; the scheduler runs ${fmt.int(sched)} at once and the rest wait`;
    if (s) lines.push(steadyLine);
  } else if (c.concurrency && s?.saturated && s.queue_ms > 0) {
    state = 'overloaded';
    headline = `Overloaded: ${fmt.int(c.concurrency)} concurrent requests of ${lengths(r)}; ${fmt.limitedBy(s.limited_by)} lets ${batchText(s.decode_batch)} run at once and the rest wait`;
    lines.push(steadyLine);
  } else if (c.concurrency) {
    headline = `Fits: ${fmt.int(c.concurrency)} concurrent requests of ${lengths(r)} (room for ${fmt.int(room)}); ` +
      (s ? steadyText : `${fmt.tokS(r.decode.tokens_per_s)} at TPOT ${fmt.ms(r.decode.step_time_ms)}`);
    // All run at once, but the prompts fill every step: more users add waiting, not throughput.
    if (s?.saturated) lines.push(`Saturated: every step is full of prompt tokens (${fmt.limitedBy(s.limited_by)}); more users would add waiting, not throughput.`);
  } else {
    // Under a budget that batch 1 misses, no throughput is the answer.
    const at = r.best ? (r.best.feasible ? r.best : null) : bc;
    headline = `Fits: ${fmt.int(room)} concurrent requests of ${lengths(r)}` +
      (at ? `; ${fmt.tokS(at.tokens_per_s)} at batch ${fmt.int(at.batch_size)}, TPOT ${fmt.ms(at.step_time_ms)}` : '');
  }
  // The budget: met in the steady state under the workload's load (report.serving),
  // else at the workload's batch (or at some batch, at the ceiling).
  const b = r.best;
  if (b) {
    const load = c.concurrency || rate ? r.decode.batch_size : 0;
    const budget = budgetText(r);
    const over = s ? [c.tpot_budget_ms && s.tpot_ms > c.tpot_budget_ms && `TPOT ${fmt.ms(s.tpot_ms)}`,
      c.ttft_budget_ms && s.ttft_ms > c.ttft_budget_ms && `TTFT ${fmt.ms(s.ttft_ms)}`].filter(Boolean) : [];
    let met = b.feasible && (s ? over.length === 0 : !load || load <= b.batch_size);
    if (state === 'overloaded') met = false;
    if (!b.feasible) {
      const miss = [c.tpot_budget_ms && b.step_time_ms > c.tpot_budget_ms && `TPOT ${fmt.ms(b.step_time_ms)}`,
        c.ttft_budget_ms && b.ttft_ms > c.ttft_budget_ms && `TTFT ${fmt.ms(b.ttft_ms)}`].filter(Boolean).join(' and ');
      lines.unshift(`Misses the budget (${budget}) even at batch 1: ${miss || 'latency over the budget'}.`);
    } else if (state === 'overloaded') {
      lines.unshift(`Misses the budget (${budget}) at this load.`);
    } else if (s && met) {
      lines.unshift(`Meets the budget (${budget}) in the ${steady}: TPOT ${fmt.ms(s.tpot_ms)}, TTFT ${fmt.ms(s.ttft_ms)}.`);
    } else if (s) {
      // The pure decode step may meet the TPOT budget where the steady state does not: the prompts make the difference.
      const prompts = c.tpot_budget_ms && s.tpot_ms > c.tpot_budget_ms && s.decode_step_ms <= c.tpot_budget_ms
        ? `; the pure decode step at this batch takes ${fmt.ms(s.decode_step_ms)}: the prompts sharing the steps make the difference` : '';
      lines.unshift(`Misses the budget (${budget}) in the ${steady}: ${over.join(' and ')}${prompts}.`);
    } else if (!met) {
      lines.unshift(`Misses the budget (${budget}) at batch ${fmt.int(load)}: it holds up to batch ${fmt.int(b.batch_size)} (${fmt.tokS(b.tokens_per_s)}).`);
    } else {
      lines.unshift(`Meets the budget (${budget}) up to batch ${fmt.int(b.batch_size)}: ${fmt.tokS(b.tokens_per_s)}, TTFT ${fmt.ms(b.ttft_ms)}; a larger batch is stopped by ${the(b.limited_by)}.`);
    }
    if (state !== 'overloaded') state = met ? 'meets' : 'misses';
  }
  // What each serving feature that is on changed (ui/features.js).
  // Overloaded: the engine's load fix (the replicas, the rate each takes).
  const actions = state === 'overloaded' ? engineFixes(r) : [];
  // (The replicas line states it: no sentence repeats it among the fixes.)
  return { state, badge: BADGES[state], headline, lines, fixes: [], actions, replicas: reps, features: featureFacts(r).map((f) => f.summary) };
}

/**
 * What an overloaded request rate gets, for every card to say the same:
 * {rate, saturation, delivered, asked, text} (the saturation rate the
 * verdict states, the steady state's output tokens/s at it, and what the
 * rate asks: rate x output tokens), or null when the rate is carried.
 */
export function overload(r) {
  const v = verdict(r);
  const s = r.serving;
  if (v.state !== 'overloaded' || !v.replicas || !s) return null;
  const asked = v.replicas.rate * r.config.output_tokens;
  return { rate: v.replicas.rate, saturation: v.replicas.saturation, delivered: s.output_tokens_per_s, asked,
    text: `overloaded: it delivers ${fmt.tokS(s.output_tokens_per_s)} at its ${fmt.reqS(v.replicas.saturation)} of the ${fmt.tokS(asked)} that ${fmt.reqS(v.replicas.rate)} ask` };
}

/**
 * The capacity answer: how many requests of the workload fit, apart from
 * vLLM's max concurrency at max_model_len, and the largest batch with and
 * without the TPOT budget. null when nothing runs.
 */
export function capacity(r) {
  if (!capacities.has(r)) capacities.set(r, computeCapacity(r));
  return capacities.get(r);
}

function computeCapacity(r) {
  const pre = r.preemption;
  if (!pre || !r.decode) return null;
  const bc = r.batch_ceiling;
  const without = bc.batch_size_without_budget ?? bc.batch_size;
  return {
    fit: fmt.int(pre.onset_concurrency_lockstep),
    of: `requests of ${lengths(r)} in the KV cache at once`,
    batch: bc.limited_by === 'latency_budget'
      ? `Largest batch ${fmt.int(without)} without the budget (${fmt.limitedBy(bc.limited_by_without_budget)}), ${fmt.int(bc.batch_size)} under TPOT ≤ ${given(r.config.tpot_budget_ms)} ms`
      : `Largest batch ${fmt.int(without)} (${fmt.limitedBy(bc.limited_by)})${r.config.tpot_budget_ms ? `, the same under TPOT ≤ ${given(r.config.tpot_budget_ms)} ms` : ''}`,
    cond: `Max concurrency ${r.kv_cache.max_concurrency.toFixed(2)}× is vLLM's figure at max_model_len ${fmt.int(r.kv_cache.max_model_len)}, not the workload's lengths.`,
  };
}
