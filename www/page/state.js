// The page's state: one flat record of form values (strings, '' meaning
// "the engine's default") per configuration, its URL encoding, and the
// engine request it stands for. No DOM here, so node can test it.
import { readProfile } from './profile.js';

/** The sweep resolution the page asks for (points on the chart). */
export const SWEEP_POINTS = 256;

/** At most this many configurations are compared side by side. */
export const MAX_CONFIGS = 4;

/**
 * The page's defaults: a working example (Llama 3.1 8B Instruct on one
 * H100 SXM under vLLM's defaults) with a latency budget and a price so
 * that every section of the report shows. '' means the engine's default.
 */
export const DEFAULTS = Object.freeze({
  model_source: 'catalog', // or 'config': a pasted config.json
  model: 'llama-3.1-8b',
  model_config: '', // config.json text
  hardware: 'h100-sxm-80gb', // catalog id, or 'custom'
  hw_name: 'Custom accelerator',
  hw_memory_gib: '', // GiB (2^30 bytes)
  hw_bandwidth_tbs: '', // TB/s (10^12 bytes/s)
  hw_bf16_tflops: '', // dense TFLOPS (10^12 FLOP/s)
  hw_fp8_tflops: '',
  hw_link_gbs: '', // GB/s (10^9 bytes/s) per GPU to its peers
  engine: 'vllm',
  engine_version: '', // '' = the engine's newest modelled release (calc/release/versions.go)
  tensor_parallel_size: '1',
  pipeline_parallel_size: '1',
  dtype: 'auto',
  quantization: '',
  kv_cache_dtype: 'auto',
  gpu_memory_utilization: '', // the engine's own (calc.engines() defaults)
  block_size: '', // '' leaves it to the engine (calc.engines() defaults)
  max_model_len: '',
  max_num_seqs: '',
  max_num_batched_tokens: '',
  input_tokens: '1024',
  output_tokens: '256',
  load: 'ceiling', // 'ceiling' | 'concurrency' | 'rate'
  concurrency: '64',
  request_rate: '10',
  ttft_ms: '1000',
  tpot_ms: '50',
  gpu_hour_usd: '', // '' = the accelerator's default price (docs/MODEL.md section 12)
  // Serving features (docs/MODEL.md section 10); '' leaves each off.
  shared_prefix_tokens: '',
  prefix_hit_rate: '', // fraction of each prompt (instead of shared_prefix_tokens)
  num_prefixes: '',
  spec_method: '', // '' = no speculative decoding
  spec_model: '', // the draft model's catalog id, for spec_method draft_model
  // No default: the engine requires both, as vLLM requires
  // num_speculative_tokens (calc.Fields; the form says "required").
  spec_tokens: '',
  spec_acceptance: '',
  max_loras: '', // '' = no LoRA
  max_lora_rank: '',
  lora_modules: '', // comma-separated target modules; '' = all seven
  offload_gib: '', // CPU tier, GiB (2^30 bytes)
  offload_gbs: '', // host link, GB/s (10^9 bytes/s); '' = the engine's default (PCIe 5.0 x16)
  offload_sync: '', // '' = loads overlap the forward (vLLM's connector), 'on' = they wait for it
  data_parallel_size: '',
  expert_parallel: '', // '' or 'on'
  p2p: '', // '' (GPUs reach each other's memory) or 'off' (request p2p: false)
  flashinfer_sampler: '', // '' (vLLM's PyTorch sampler) or 'on' (request flashinfer_sampler: true)
  // Measured decode steps "batch:tpot_ms[@context], ..." (calibration.points).
  calibration: '',
  // A calibration profile's JSON text (calibration.profile; www/page/profile.js).
  profile: '',
  num_redundant_experts: '',
});

export const KEYS = Object.keys(DEFAULTS);

/** A fresh configuration, optionally overriding some defaults. */
export const newConfig = (over = {}) => ({ ...DEFAULTS, ...over });

/** Page state: configs (1..MAX_CONFIGS) and which one the form edits. */
export const newState = () => ({ configs: [newConfig()], active: 0 });

// --- URL -----------------------------------------------------------------

const b64url = {
  encode(text) {
    const bin = Array.from(new TextEncoder().encode(text), (c) => String.fromCharCode(c)).join('');
    return btoa(bin).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
  },
  decode(s) {
    const bin = atob(s.replaceAll('-', '+').replaceAll('_', '/'));
    return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  },
};

/**
 * The query string for a state: only values that differ from DEFAULTS;
 * the first configuration's keys are bare, the others are prefixed with
 * their 1-based number ("2.tensor_parallel_size=2"). A pasted config.json
 * and a calibration profile travel as base64url of their minified JSON
 * (a profile over profile.js MAX_PROFILE_BYTES is refused, and left out).
 */
export function toQuery(state) {
  const q = new URLSearchParams();
  state.configs.forEach((c, i) => {
    const prefix = i === 0 ? '' : `${i + 1}.`;
    if (i > 0) q.set(`${i + 1}`, ''); // marks the configuration even when it equals the defaults
    for (const k of KEYS) {
      let v = c[k] ?? '';
      if (v === DEFAULTS[k]) continue;
      if (k === 'model_config') {
        if (c.model_source !== 'config') continue;
        try { v = JSON.stringify(JSON.parse(v)); } catch { /* keep the text as typed */ }
        v = b64url.encode(v);
      }
      if (k === 'profile') {
        const p = readProfile(v);
        if (p.tooLarge) continue;
        v = b64url.encode(p.json ?? v);
      }
      if (k.startsWith('hw_') && c.hardware !== 'custom') continue;
      q.set(prefix + k, v);
    }
  });
  if (state.active > 0) q.set('active', String(state.active + 1));
  return q.toString();
}

/** The state a query string stands for; unknown keys are ignored. */
export function fromQuery(search) {
  const q = new URLSearchParams(search);
  const configs = [newConfig()];
  for (let i = 2; i <= MAX_CONFIGS; i++) {
    if (q.has(String(i)) || KEYS.some((k) => q.has(`${i}.${k}`))) configs[i - 1] = newConfig();
  }
  const list = configs.filter(Boolean);
  configs.forEach((c, i) => {
    if (!c) return;
    const prefix = i === 0 ? '' : `${i + 1}.`;
    for (const k of KEYS) {
      if (!q.has(prefix + k)) continue;
      let v = q.get(prefix + k);
      if (k === 'model_config') {
        try { v = b64url.decode(v); } catch { v = ''; }
        try { v = JSON.stringify(JSON.parse(v), null, 2); } catch { /* leave as is */ }
      }
      if (k === 'profile') {
        try { v = b64url.decode(v); } catch { /* kept as given: toRequest names the field */ }
      }
      c[k] = v;
    }
  });
  const active = Math.min(Math.max(parseInt(q.get('active') ?? '1', 10) || 1, 1), list.length) - 1;
  return { configs: list, active };
}

// --- request -------------------------------------------------------------

const INT_KEYS = [
  'tensor_parallel_size', 'pipeline_parallel_size', 'block_size', 'max_model_len',
  'max_num_seqs', 'max_num_batched_tokens',
];
const NUM_KEYS = ['gpu_memory_utilization'];

/** Number(text), or NaN-marked error when the text is not a number. */
function number(text) {
  const s = String(text).trim();
  return s === '' ? undefined : Number(s);
}

/**
 * The engine request for one configuration. Returns { request, errors }:
 * errors are problems the page finds before the engine can (a config.json
 * that is not JSON, a figure that is not a number), in the engine's
 * [{field, message}] shape so they are shown the same way. Numbers are
 * passed through as typed so that the engine's own validation (ranges,
 * integers) names the field.
 */
export function toRequest(c, { sweepPoints = SWEEP_POINTS } = {}) {
  const errors = [];
  const req = {};
  const put = (obj, key, field, text) => {
    const v = number(text);
    if (v === undefined) return;
    if (Number.isNaN(v)) errors.push({ field, message: `must be a number, got ${JSON.stringify(String(text))}` });
    else obj[key] = v;
  };

  if (c.model_source === 'config') {
    const text = String(c.model_config ?? '').trim();
    if (!text) {
      errors.push({ field: 'model_config', message: 'paste a Hugging Face config.json' });
    } else {
      try {
        const cfg = JSON.parse(text);
        if (cfg === null || typeof cfg !== 'object' || Array.isArray(cfg)) {
          errors.push({ field: 'model_config', message: 'must be a JSON object (the contents of config.json)' });
        } else {
          req.model_config = cfg;
        }
      } catch (e) {
        errors.push({ field: 'model_config', message: `is not valid JSON: ${e.message}` });
      }
    }
  } else {
    req.model = String(c.model ?? '').trim();
  }

  if (c.hardware === 'custom') {
    const hw = { name: c.hw_name || 'Custom accelerator', peak_flops: {} };
    const scaled = (field, text, scale, set) => {
      const v = number(text);
      if (v === undefined) return set(0);
      if (Number.isNaN(v)) errors.push({ field, message: `must be a number, got ${JSON.stringify(String(text))}` });
      else set(v * scale);
    };
    scaled('hardware.memory_bytes', c.hw_memory_gib, 2 ** 30, (v) => { hw.memory_bytes = Math.round(v); });
    scaled('hardware.memory_bandwidth_bytes_per_s', c.hw_bandwidth_tbs, 1e12, (v) => { hw.memory_bandwidth_bytes_per_s = v; });
    scaled('hardware.peak_flops.bf16', c.hw_bf16_tflops, 1e12, (v) => { hw.peak_flops.bf16 = v; });
    scaled('hardware.peak_flops.fp8', c.hw_fp8_tflops, 1e12, (v) => { if (v) hw.peak_flops.fp8 = v; });
    scaled('hardware.interconnect.bandwidth_bytes_per_s', c.hw_link_gbs, 1e9, (v) => {
      if (v) hw.interconnect = { name: 'custom link', bandwidth_bytes_per_s: v, latency_s: 0 };
    });
    req.hardware = hw;
  } else {
    req.hardware = String(c.hardware ?? '');
  }

  if (c.engine) req.engine = c.engine;
  if (c.engine_version?.trim()) req.engine_version = c.engine_version.trim();
  for (const k of INT_KEYS) put(req, k, k, c[k]);
  for (const k of NUM_KEYS) put(req, k, k, c[k]);
  if (c.dtype && c.dtype !== 'auto') req.dtype = c.dtype;
  if (c.quantization) req.quantization = c.quantization;
  if (c.kv_cache_dtype) req.kv_cache_dtype = c.kv_cache_dtype;

  const w = {};
  put(w, 'input_tokens', 'workload.input_tokens', c.input_tokens);
  put(w, 'output_tokens', 'workload.output_tokens', c.output_tokens);
  if (c.load === 'concurrency') put(w, 'concurrency', 'workload.concurrency', c.concurrency);
  if (c.load === 'rate') put(w, 'request_rate', 'workload.request_rate', c.request_rate);

  put(w, 'shared_prefix_tokens', 'workload.shared_prefix_tokens', c.shared_prefix_tokens ?? '');
  put(w, 'prefix_hit_rate', 'workload.prefix_hit_rate', c.prefix_hit_rate ?? '');
  if (w.shared_prefix_tokens !== undefined || w.prefix_hit_rate !== undefined) put(w, 'num_prefixes', 'workload.num_prefixes', c.num_prefixes ?? '');
  if (Object.keys(w).length) req.workload = w;
  if (c.spec_method) {
    const s = { method: c.spec_method };
    if (c.spec_method === 'draft_model') s.model = String(c.spec_model ?? '').trim();
    put(s, 'num_speculative_tokens', 'speculative_config.num_speculative_tokens', c.spec_tokens ?? '');
    put(s, 'acceptance_rate', 'speculative_config.acceptance_rate', c.spec_acceptance ?? '');
    req.speculative_config = s;
  }
  if (String(c.max_loras ?? '').trim()) {
    const l = {};
    put(l, 'max_loras', 'lora.max_loras', c.max_loras);
    put(l, 'max_lora_rank', 'lora.max_lora_rank', c.max_lora_rank ?? '');
    const mods = String(c.lora_modules ?? '').split(/[\s,]+/).filter(Boolean);
    if (mods.length) l.target_modules = mods;
    req.lora = l;
  }
  if (String(c.offload_gib ?? '').trim()) {
    const o = {};
    put(o, 'cpu_bytes', 'kv_offload.cpu_bytes', c.offload_gib);
    if (o.cpu_bytes !== undefined) o.cpu_bytes *= 2 ** 30;
    put(o, 'bandwidth_bytes_per_s', 'kv_offload.bandwidth_bytes_per_s', c.offload_gbs ?? '');
    if (o.bandwidth_bytes_per_s !== undefined) o.bandwidth_bytes_per_s *= 1e9;
    if (c.offload_sync === 'on') o.async_load = false;
    req.kv_offload = o;
  }
  put(req, 'data_parallel_size', 'data_parallel_size', c.data_parallel_size ?? '');
  if (c.expert_parallel === 'on') req.enable_expert_parallel = true;
  if (c.p2p === 'off') req.p2p = false;
  if (c.flashinfer_sampler === 'on') req.flashinfer_sampler = true;
  put(req, 'num_redundant_experts', 'num_redundant_experts', c.num_redundant_experts ?? '');

  const slo = {};
  put(slo, 'ttft_ms', 'slo.ttft_ms', c.ttft_ms);
  put(slo, 'tpot_ms', 'slo.tpot_ms', c.tpot_ms);
  if (Object.keys(slo).length) req.slo = slo;

  put(req, 'gpu_hour_usd', 'gpu_hour_usd', c.gpu_hour_usd);
  const cal = calibrationPoints(c.calibration ?? '');
  if (cal.error) errors.push({ field: 'calibration', message: cal.error });
  else if (cal.points.length) req.calibration = { points: cal.points };
  // A profile is applied as it is (the engine refuses it beside points,
  // naming calibration.profile).
  const prof = readProfile(c.profile ?? '');
  if (prof.error) errors.push({ field: 'calibration.profile', message: prof.error });
  else if (prof.profile) req.calibration = { ...req.calibration, profile: prof.profile };
  req.sweep = { points: sweepPoints };
  return { request: req, errors };
}

/**
 * The calibration.points of the text "batch:tpot_ms[@context], ...":
 * {points} or {error}.
 */
export function calibrationPoints(text) {
  const points = [];
  for (const part of String(text).split(/[,;\s]+/).filter(Boolean)) {
    const m = /^(\d+):([0-9.]+(?:e-?\d+)?)(?:@(\d+))?$/i.exec(part);
    if (!m) return { points, error: `write batch:TPOT ms pairs, optionally @context, e.g. 1:7.4, 32:11.8@1152; got ${JSON.stringify(part)}` };
    const p = { batch_size: Number(m[1]), tpot_ms: Number(m[2]) };
    if (m[3]) p.context_tokens = Number(m[3]);
    points.push(p);
  }
  return { points };
}

/** The text of calibration.points (the report's fitted points). */
export function calibrationText(points) {
  return points.map((p) => `${p.batch_size}:${+p.measured_ms.toFixed(3)}@${p.context_tokens}`).join(', ');
}

/** A short name for a configuration, for tabs and comparison columns. */
export function label(c, report) {
  const model = report?.model?.name ?? (c.model_source === 'config' ? 'pasted config' : c.model);
  const hw = report?.hardware?.name ?? (c.hardware === 'custom' ? c.hw_name : c.hardware);
  const tp = Number(c.tensor_parallel_size) * Number(c.pipeline_parallel_size || 1);
  return `${model} · ${tp > 1 ? `${tp}× ` : ''}${hw}`;
}

// --- paths to the other view and the engine's fixes ---------------------

/**
 * The form key each fix field of the engine (report.fixes[].field, request
 * JSON paths; calc/evaluate/fixes.go) sets, and the load it implies.
 */
const FIX_KEYS = {
  quantization: ['quantization'], tensor_parallel_size: ['tensor_parallel_size'], hardware: ['hardware'],
  max_model_len: ['max_model_len'], kv_cache_dtype: ['kv_cache_dtype'], gpu_memory_utilization: ['gpu_memory_utilization'],
  'workload.request_rate': ['request_rate', 'rate'], 'workload.concurrency': ['concurrency', 'concurrency'],
};

/**
 * The configuration c with the engine's fix applied ({field, value}), or
 * null for a field the form does not hold.
 */
export function applyFix(c, fix) {
  const k = FIX_KEYS[fix?.field];
  if (!k || typeof fix.value !== 'string') return null;
  const out = { ...c, [k[0]]: fix.value };
  if (k[1]) out.load = k[1];
  return out;
}

/**
 * The planning view's query for a configuration (www/page/plan.js reads
 * these plan.* parameters): its model, its workload (the request rate or
 * the users, the lengths) and its latency budgets; over = {rate} replaces
 * the request rate (the overloaded verdict's link). A load at the batch
 * ceiling has no rate or users: the planner keeps its own default.
 */
export function planQuery(c, over = {}) {
  const q = new URLSearchParams();
  q.set('view', 'plan');
  q.set('plan.model', c.model_source === 'config' ? DEFAULTS.model : c.model);
  const rate = over.rate ?? (c.load === 'rate' ? c.request_rate : '');
  if (rate !== '' && rate != null) {
    q.set('plan.load', 'rate');
    q.set('plan.rate', String(rate));
  } else if (c.load === 'concurrency') {
    q.set('plan.load', 'users');
    q.set('plan.users', c.concurrency);
  }
  q.set('plan.input', c.input_tokens);
  q.set('plan.output', c.output_tokens);
  q.set('plan.ttft', c.ttft_ms);
  q.set('plan.tpot', c.tpot_ms);
  return q.toString();
}
