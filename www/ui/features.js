// What each serving feature did (docs/MODEL.md section 10), as text, from
// the report's `features` section only: prefix caching's capacity and TTFT,
// speculation's speedup and where it stops paying, the LoRA slots' memory
// and GEMM cost, the CPU tier's delay of recomputation, expert and data
// parallelism's memory and traffic. No physics here: every figure is the
// engine's, set beside the plain server's figure the engine reports with
// it. Shared by the page (its features panel), the widget and the verdict.
import * as fmt from './format.js';

/** The features in the order shown; each key is a member of report.features. */
/**
 * Under a request rate the server cannot carry (the verdict's overloaded:
 * over the saturation rate, or a saturated steady state), what it
 * delivers beside what the rate asks, for a figure at the workload's
 * batch that it never reaches: "; overloaded: it delivers 5,134 tok/s of
 * the 10,240 tok/s asked"; '' otherwise.
 */
function overloaded(r) {
  const s = r.serving;
  const rate = r.config?.request_rate;
  if (!rate || !s || !(r.preemption?.utilization > 1 || s.saturated)) return '';
  return `; overloaded: it delivers ${fmt.tokS(s.output_tokens_per_s)} of the ${fmt.tokS(rate * r.config.output_tokens)} asked`;
}

export const FEATURES = ['prefix_caching', 'speculative', 'lora', 'kv_offload', 'parallel'];

/** Human names of the features. */
export const FEATURE_NAMES = {
  prefix_caching: 'Prefix caching', speculative: 'Speculative decoding', lora: 'LoRA adapters',
  kv_offload: 'CPU KV tier', parallel: 'Expert and data parallelism',
};

const SPEC = { eagle: 'EAGLE', eagle3: 'EAGLE-3', mtp: 'MTP', ngram: 'n-gram', draft_model: 'draft model' };

/** "+210 (+65.0%)" or "−13.6 ms (−47.5%)": a change and its share of the plain figure. */
function delta(now, was, f = fmt.int) {
  if (!Number.isFinite(now) || !Number.isFinite(was)) return '';
  const d = now - was;
  const sign = d > 0 ? '+' : d < 0 ? '−' : '±';
  const pct = was ? ` (${sign}${Math.abs((d / was) * 100).toFixed(1)}%)` : '';
  return `${sign}${f(Math.abs(d))}${pct}`;
}

const seqs = (n) => `${fmt.int(n)} sequence${n === 1 ? '' : 's'}`;
const flops = (x) => (x >= 1e12 ? `${fmt.num(x / 1e12)} TFLOP` : `${fmt.num(x / 1e9)} GFLOP`);

/**
 * The facts of each feature that is on: [{key, name, summary, facts:
 * [[label, text], ...]}], in FEATURES order; [] when none is on. summary is
 * one sentence (the verdict's line and the widget's); facts are the rows of
 * the page's features panel.
 */
export function featureFacts(r) {
  const f = r?.features;
  if (!f) return [];
  const out = [];
  const pc = f.prefix_caching;
  if (pc) {
    out.push({
      key: 'prefix_caching', name: FEATURE_NAMES.prefix_caching,
      summary: `Prefix caching: ${seqs(pc.kv_ceiling)} fit instead of ${fmt.int(pc.kv_ceiling_without)}, TTFT ${fmt.ms(pc.ttft_ms)} instead of ${fmt.ms(pc.ttft_ms_without)}.`,
      facts: [
        ['Cached per request', `${fmt.int(pc.cached_tokens_per_request)} tokens, ${fmt.int(pc.shared_blocks)} blocks held once${pc.num_prefixes > 1 ? ` per prefix (${fmt.int(pc.num_prefixes)} prefixes)` : ''}`],
        ['Requests that fit', `${fmt.int(pc.kv_ceiling)} instead of ${fmt.int(pc.kv_ceiling_without)}: ${delta(pc.kv_ceiling, pc.kv_ceiling_without)}`],
        ['Preemption onset', `${fmt.int(pc.onset_concurrency)} instead of ${fmt.int(pc.onset_concurrency_without)}: ${delta(pc.onset_concurrency, pc.onset_concurrency_without)}`],
        ['TTFT (idle server)', `${fmt.ms(pc.ttft_ms)} instead of ${fmt.ms(pc.ttft_ms_without)}: ${delta(pc.ttft_ms, pc.ttft_ms_without, fmt.ms)}`],
      ],
    });
  }
  const sp = f.speculative;
  if (sp) {
    const stops = sp.crossover_batch_size
      ? `stops paying at batch ${fmt.int(sp.crossover_batch_size)}`
      : 'pays up to the batch ceiling';
    out.push({
      key: 'speculative', name: FEATURE_NAMES.speculative,
      summary: `Speculative decoding (${SPEC[sp.method] ?? sp.method}, k ${sp.num_speculative_tokens}): ${fmt.num(sp.batch1_speedup)}× at batch 1, ${fmt.num(sp.speedup)}× at the workload; it ${stops}.`,
      facts: [
        ['Method', `${SPEC[sp.method] ?? sp.method}, k ${fmt.int(sp.num_speculative_tokens)} drafts, acceptance ${fmt.num(sp.acceptance_rate)}`],
        ['Tokens per step', `${fmt.num(sp.tokens_per_step)} per sequence (1 + a + … + a^k)`],
        ['Speedup at batch 1', `${fmt.num(sp.batch1_speedup)}×`],
        ['At the workload', `${fmt.tokS(sp.tokens_per_s)} instead of ${fmt.tokS(sp.tokens_per_s_without)} (${fmt.num(sp.speedup)}×); TPOT ${fmt.ms(sp.tpot_ms)} instead of ${fmt.ms(sp.tpot_ms_without)}${overloaded(r)}`],
        ['Where it stops paying', sp.crossover_batch_size ? `batch ${fmt.int(sp.crossover_batch_size)} and above (marked on the chart)` : 'nowhere up to the batch ceiling'],
        ['Draft', `${fmt.bytes(sp.draft_weights_bytes)} of weights per GPU; ${fmt.ms(sp.draft_time_ms)} of draft passes per step`],
      ],
    });
  }
  const lo = f.lora;
  if (lo) {
    out.push({
      key: 'lora', name: FEATURE_NAMES.lora,
      summary: `LoRA: ${lo.max_loras} slot${lo.max_loras === 1 ? '' : 's'} at rank ${lo.max_lora_rank} take ${fmt.bytes(lo.bytes)} from the KV cache and add ${fmt.ms(lo.extra_step_time_ms)} per step.`,
      facts: [
        ['Slots', `${fmt.int(lo.max_loras)} at rank ${fmt.int(lo.max_lora_rank)}`],
        ['Reserved per GPU', `${fmt.bytes(lo.bytes)}, out of the KV cache (${fmt.bytes(lo.kv_cache_bytes_without)} without)`],
        ['GEMMs per step', `${flops(lo.flops_per_step)}, ${fmt.bytes(lo.read_bytes_per_step)} read`],
        ['Extra step time', fmt.ms(lo.extra_step_time_ms)],
      ],
    });
  }
  const ko = f.kv_offload;
  if (ko) {
    const onset = r.preemption?.onset_concurrency;
    out.push({
      key: 'kv_offload', name: FEATURE_NAMES.kv_offload,
      summary: `CPU KV tier: recomputation starts at ${seqs(ko.recompute_onset_concurrency)}${Number.isFinite(onset) ? ` instead of ${fmt.int(onset)}` : ''}; a reload takes ${fmt.ms(ko.reload_ms_per_sequence)} against ${fmt.ms(ko.recompute_ms_per_sequence)} recomputed.`,
      facts: [
        ['Tier', `${fmt.int(ko.cpu_blocks)} blocks, ${fmt.int(ko.capacity_tokens)} tokens`],
        ['Recompute onset', `${fmt.int(ko.recompute_onset_concurrency)}${Number.isFinite(onset) ? ` instead of ${fmt.int(onset)}: ${delta(ko.recompute_onset_concurrency, onset)}` : ''}`],
        ['One sequence back', `reloaded ${fmt.ms(ko.reload_ms_per_sequence)}, recomputed ${fmt.ms(ko.recompute_ms_per_sequence)}`],
      ],
    });
  }
  const pa = f.parallel;
  if (pa) {
    const facts = [['GPUs', `${fmt.int(pa.num_gpus)}: data parallel ${fmt.int(pa.data_parallel_size)}, expert parallel ${pa.expert_parallel ? 'on' : 'off'}`]];
    if (pa.expert_parallel_size) {
      facts.push(
        ['Weights per GPU', `${fmt.bytes(r.memory?.weights_bytes)}, ${fmt.num(pa.experts_per_rank)} routed experts per GPU over ${fmt.int(pa.expert_parallel_size)} ranks`],
        ['Experts touched per step', `${fmt.num(pa.experts_touched_per_rank)} per GPU; load imbalance ${fmt.num(pa.load_imbalance)}×`],
        ['All-to-all per step', fmt.ms(pa.all_to_all_ms)],
      );
    }
    facts.push(['Output, all replicas', fmt.tokS(pa.tokens_per_s_total)]);
    out.push({
      key: 'parallel', name: FEATURE_NAMES.parallel,
      summary: `Parallelism: ${fmt.int(pa.num_gpus)} GPUs, ${fmt.tokS(pa.tokens_per_s_total)} over ${pa.data_parallel_size} replica${pa.data_parallel_size === 1 ? '' : 's'}` +
        (pa.expert_parallel_size ? `; ${fmt.num(pa.experts_per_rank)} experts and ${fmt.bytes(r.memory?.weights_bytes)} of weights per GPU.` : '.'),
      facts,
    });
  }
  return out;
}
