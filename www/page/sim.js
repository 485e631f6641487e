// The continuous-batching simulation on the page: the request it sends
// (the page's request plus `simulate`) and the figures it shows. No DOM,
// so the end-to-end tests import it to compute what the page must show.
import * as fmt from '../ui/format.js';

export const SIM_DEFAULTS = Object.freeze({ num_requests: '1000', arrival: 'poisson', request_rate: '', concurrency: '', seed: '0' });

export const ARRIVALS = Object.freeze({ poisson: 'Poisson arrivals', closed_loop: 'closed loop', burst: 'burst' });

/**
 * The simulation request: the page's request plus a `simulate` object with
 * the default load sweep. opts are the simulation controls' texts
 * (SIM_DEFAULTS). Where the load is not given, Poisson arrivals default to
 * the workload's request rate and else to the analytic preemption onset of
 * `report` (the page's report of the same request), and closed-loop users to
 * the workload's concurrency and else to the batch ceiling.
 */
export function simRequest(request, opts, report) {
  const s = { num_requests: intOr(opts.num_requests, 1000), arrival: opts.arrival || 'poisson', seed: intOr(opts.seed, 0), sweep: {} };
  const w = request.workload ?? {};
  if (s.arrival === 'poisson') {
    const rate = numOr(opts.request_rate, NaN);
    if (Number.isFinite(rate)) s.request_rate = rate;
    else if (!w.request_rate) s.request_rate = defaultRate(report);
  } else if (s.arrival === 'closed_loop') {
    const users = intOr(opts.concurrency, NaN);
    if (Number.isFinite(users)) s.concurrency = users;
    else if (!w.concurrency) s.concurrency = Math.max(1, report?.batch_ceiling?.batch_size ?? 1);
  }
  return { ...request, simulate: s };
}

/** A round Poisson rate near the analytic preemption onset (1 req/s without one). */
export function defaultRate(report) {
  const r = report?.preemption?.onset_request_rate;
  if (!(r > 0)) return 1;
  return +r.toPrecision(2);
}

function intOr(text, def) {
  const v = Number(String(text ?? '').trim());
  return String(text ?? '').trim() !== '' && Number.isFinite(v) ? Math.round(v) : def;
}

function numOr(text, def) {
  const v = Number(String(text ?? '').trim());
  return String(text ?? '').trim() !== '' && Number.isFinite(v) ? v : def;
}

/** The load of a simulation in words: "Poisson arrivals at 4.2 req/s". */
export function loadText(s) {
  if (s.arrival === 'poisson') return `Poisson arrivals at ${fmt.reqS(s.request_rate)}`;
  if (s.arrival === 'closed_loop') return `closed loop of ${fmt.int(s.concurrency)} users`;
  return 'every request at time 0 (burst)';
}

/** The conditions every figure of a simulation shares. */
export function simConditions(s) {
  return `${fmt.int(s.num_requests)} requests, ${loadText(s)}, seed ${s.seed}; ` +
    `mean ${fmt.int(s.mean_input_tokens)} input + ${fmt.int(s.mean_output_tokens)} output tokens; ` +
    `${fmt.num(s.duration_s)} s simulated in ${fmt.int(s.steps)} steps${s.truncated ? ' (stopped at the step limit)' : ''}.`;
}

/**
 * The figures of a simulation report section, by key: the text the page
 * shows in [data-sim=key].
 */
export const SIM_FIGURES = {
  requests: (s) => `${fmt.int(s.completed_requests)} of ${fmt.int(s.num_requests)}`,
  'requests.conditions': (s) => `completed; ${fmt.int(s.rejected_requests)} rejected (too long for the whole KV cache)`,
  ttft_p50: (s) => fmt.ms(s.ttft_ms.p50),
  ttft_p99: (s) => fmt.ms(s.ttft_ms.p99),
  'ttft.conditions': (s) => `over ${fmt.int(s.completed_requests)} completed requests; mean ${fmt.ms(s.ttft_ms.mean)}, max ${fmt.ms(s.ttft_ms.max)}`,
  tpot_p50: (s) => fmt.ms(s.tpot_ms.p50),
  tpot_p99: (s) => fmt.ms(s.tpot_ms.p99),
  'tpot.conditions': () => 'per output token after the first, over requests with at least two output tokens',
  itl_p50: (s) => fmt.ms(s.itl_ms.p50),
  itl_p99: (s) => fmt.ms(s.itl_ms.p99),
  'itl.conditions': (s) => `every gap between two consecutive tokens of a request, over all requests (vLLM's benchmark's ITL); mean ${fmt.ms(s.itl_ms.mean)}, max ${fmt.ms(s.itl_ms.max)}`,
  output_tokens_per_s: (s) => fmt.tokS(s.output_tokens_per_s),
  'output_tokens_per_s.conditions': (s) => `${fmt.reqS(s.requests_per_s)} completed; ${fmt.tokS(s.total_tokens_per_s)} with prompts; mean batch ${fmt.num(s.mean_running)}`,
  // Goodput is in the report only when the request gives an SLO.
  goodput: (s) => (s.goodput_requests_per_s == null ? '–' : fmt.reqS(s.goodput_requests_per_s)),
  'goodput.conditions': (s) => (s.slo_attainment == null
    ? 'no TTFT or TPOT budget given: nothing to measure against'
    : `${fmt.pct(s.slo_attainment)} of completed requests within the TTFT and TPOT budgets`),
  preemptions: (s) => fmt.int(s.preemptions),
  'preemptions.conditions': (s) => (s.preemptions
    ? `${fmt.int(s.preempted_requests)} requests evicted; first at ${fmt.num(s.first_preemption_s)} s with ${fmt.int(s.running_at_first_preemption)} running; peak KV cache ${fmt.pct(s.peak_kv_cache_usage)}`
    : `none; peak KV cache ${fmt.pct(s.peak_kv_cache_usage)}`),
  work_per_output_token: (s) => `${fmt.num(s.work_per_output_token)} tokens`,
  'work_per_output_token.conditions': (s) => `computed per delivered output token; recomputation ${fmt.num(s.recompute_overhead)} of it (${fmt.int(s.recomputed_tokens)} tokens)`,
};

/** The text of one simulation figure; '–' when absent. */
export function simFigure(key, sim) {
  const f = SIM_FIGURES[key];
  if (!f || !sim) return '–';
  try {
    const v = f(sim);
    return v == null || v === false ? '–' : v;
  } catch {
    return '–';
  }
}

/** The load-sweep's axis name. */
export const sweepLoadLabel = (sw) => (sw?.load === 'request_rate' ? 'load (requests/s, Poisson)' : 'load (closed-loop users)');
