// The calibration profile on the page (issue 34; docs/MODEL.md section 7,
// "The calibration profile"): what a loaded or pasted file is, the profile
// as the request's calibration.profile, the size a link carries, and the
// profile's texts (its deployment, the engine's errors in plain words, the
// labels of a calibrated report). No DOM here, so node can test it.

/**
 * The most bytes of minified JSON a profile may have: it travels in the
 * page's link (state.js toQuery, base64url: 4/3 as many characters, 6,144),
 * which stays under 8 KB, the request line that common servers and proxies
 * accept (nginx's large_client_header_buffers, 8 KB). The engine writes at
 * most 32 points (spec.MaxProfilePoints): 32 serving runs with their three
 * figures and residuals make about 3.9 KB (www/test/profile.test.mjs); a
 * larger document is refused, naming calibration.profile.
 */
export const MAX_PROFILE_BYTES = 4608;

const utf8Length = (s) => new TextEncoder().encode(s).length;
const thousands = (n) => n.toLocaleString('en-US');

/**
 * Reads a profile's text (a file's, a paste's or the link's):
 * {} when empty; {profile, json} (json: the minified document) when it is
 * a JSON object within MAX_PROFILE_BYTES; else {error} (tooLarge: over the
 * size). The engine checks the document's fields (calc/calibrate/profile.go).
 */
export function readProfile(text) {
  const s = String(text ?? '').trim();
  if (!s) return {};
  let profile;
  try {
    profile = JSON.parse(s);
  } catch (e) {
    return { error: `is not valid JSON: ${e.message}` };
  }
  if (profile === null || typeof profile !== 'object' || Array.isArray(profile)) {
    return { error: 'must be a JSON object: a calibration profile (version 1), as the engine writes it in calibration.calibration_profile' };
  }
  const json = JSON.stringify(profile);
  const bytes = utf8Length(json);
  if (bytes > MAX_PROFILE_BYTES) {
    return {
      tooLarge: true,
      error: `is ${thousands(bytes)} bytes of JSON; a profile travels in the page's link, which carries at most ${thousands(MAX_PROFILE_BYTES)} (the engine writes at most 32 points: about 3,900 bytes)`,
    };
  }
  return { profile, json };
}

/** Whether a parsed JSON value is a calibration profile (its version and terms). */
export function isProfile(v) {
  return v !== null && typeof v === 'object' && typeof v.version === 'number' && v.terms !== null && typeof v.terms === 'object';
}

/**
 * The calibration.imports format of a benchmark file's text (and its
 * name), from the keys each reader reads (calc/calibrate: benchjson.go,
 * guidellm.go, aiperf.go, llmd.go), or '' when none fits. A calibration
 * profile is '' too (isProfile tells it apart). vLLM's and SGLang's runs
 * share their keys and their reader: SGLang's file is JSON lines (.jsonl,
 * or several lines), and its runs carry the server's server_info.
 */
export function importFormat(text, name = '') {
  // Python's json writes float('inf') and NaN as bare words, which the
  // readers take (calc/calibrate/imports.go pythonJSON) and JSON.parse
  // does not: they are nulls here, where only the keys matter.
  const s = String(text ?? '').trim().replace(/([:,[]\s*)(?:-?Infinity|NaN)(?=\s*[,\]}])/g, '$1null');
  if (/^Metric,/.test(s)) return 'aiperf_csv'; // profile_export_aiperf.csv's header row
  let v;
  try {
    v = JSON.parse(s);
  } catch {
    // sglang.bench_serving --output-file: one JSON object a line
    const lines = s.split('\n').filter((l) => l.trim());
    try {
      if (lines.length > 1 && lines.every((l) => 'mean_tpot_ms' in JSON.parse(l))) return 'sglang_bench_jsonl';
    } catch { /* not JSON lines */ }
    return '';
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v) || isProfile(v)) return '';
  if (Array.isArray(v.benchmarks)) return 'guidellm_json';
  if ('aiperf_version' in v || ('records' in v && 'input_config' in v)) return 'aiperf_json';
  if (typeof v.version === 'string' && ('metrics' in v || 'results' in v)) return 'llmd_report';
  if ('mean_tpot_ms' in v) return /\.jsonl$/i.test(name) || 'server_info' in v ? 'sglang_bench_jsonl' : 'vllm_bench_json';
  return '';
}

/** The benchmark tool that writes each import format, for the page's messages. */
export const IMPORT_TOOLS = Object.freeze({
  vllm_bench_json: 'vllm bench serve --save-result',
  sglang_bench_jsonl: 'SGLang bench_serving',
  guidellm_json: 'GuideLLM',
  aiperf_json: 'AIPerf (JSON)',
  aiperf_csv: 'AIPerf (CSV)',
  llmd_report: "llm-d-benchmark's report",
});

const ENGINE_NAMES = { vllm: 'vLLM', sglang: 'SGLang', lmdeploy: 'LMDeploy', trtllm: 'TensorRT-LLM', llamacpp: 'llama.cpp' };

/** The deployment a profile was fitted on: "vLLM 0.31 · meta-llama/Llama-3.1-8B-Instruct · h100-sxm-80gb · TP 1". */
export function deploymentText(p) {
  const engine = `${ENGINE_NAMES[p.engine] ?? p.engine ?? '?'}${p.engine_version ? ` ${p.engine_version}` : ''}`;
  return `${engine} · ${p.model ?? '?'} · ${p.hardware ?? '?'} · TP ${p.tensor_parallel_size ?? '?'}`;
}

/** A profile in one line: its deployment, its points and its fit's error. */
export function profileText(p) {
  const n = Array.isArray(p.points) ? p.points.length : 0;
  const rms = Number.isFinite(p.rms_error) ? `, RMS error ${(100 * p.rms_error).toFixed(1)} %` : '';
  return `Fitted on ${deploymentText(p)} (${n} point${n === 1 ? '' : 's'}${rms}).`;
}

/** The configuration's form values that name the profile's deployment (for "Use its deployment"). */
export function deploymentConfig(p, c) {
  const out = { model_source: 'catalog', model: String(p.model ?? ''), hardware: String(p.hardware ?? ''), tensor_parallel_size: String(p.tensor_parallel_size ?? '1') };
  if (p.engine && p.engine !== c.engine) Object.assign(out, { engine: p.engine, engine_version: String(p.engine_version ?? '') });
  return out;
}

const PLAIN_NAMES = {
  engine: 'engine', model: 'model', hardware: 'accelerator', tensor_parallel_size: 'tensor-parallel size',
  version: 'version', points: 'list of points', engine_version: 'engine release', fitted: 'list of fitted terms', rms_error: 'RMS error',
};

/**
 * An engine error about calibration.profile ({field, message}; the same
 * in Go, the JS module and HTTP) in plain words: "The profile's model is
 * "A" but this configuration's is "B": ...". Other errors: null.
 */
export function plainError(e) {
  const f = String(e?.field ?? '');
  if (f !== 'calibration.profile' && !f.startsWith('calibration.profile.')) return null;
  const msg = String(e.message ?? '').replace("the request's", "this configuration's");
  const key = f.slice('calibration.profile.'.length);
  if (!key) return `The profile ${msg}.`;
  if (msg === 'unknown field') return `The profile has a field "${key}" that a version-1 profile does not have: is this a calibration profile?`;
  const name = PLAIN_NAMES[key] ?? (key.startsWith('terms.') ? `fitted ${key.slice(6).replaceAll('_', ' ')}` : key.replaceAll('_', ' '));
  return `The profile's ${name} ${msg}.`;
}

const GROUPS = { step: 'the decode and prefill step times', serving: 'the steady state (TPOT, TTFT, rates)', memory: 'the memory budget and KV capacity' };

/**
 * Which figures of a report are calibrated (report.calibration.labels:
 * calibrated, measured or modelled per group); '' without calibration.
 */
export function labelsText(labels) {
  if (!labels) return '';
  const by = {};
  for (const [k, v] of Object.entries(labels)) if (GROUPS[k]) (by[v] ??= []).push(GROUPS[k]);
  const part = (v, word) => (by[v] ? `${word}: ${by[v].join(', ')}` : '');
  return `${[part('calibrated', 'Calibrated'), part('measured', 'Measured'), part('modelled', 'Modelled')].filter(Boolean).join('. ')}.`;
}

/** The file name a profile is downloaded as: "throughput-profile-Llama-3.1-8B-Instruct-h100-sxm-80gb-tp1.json". */
export function profileFileName(p) {
  const model = String(p.model ?? 'model').split('/').pop();
  const name = `throughput-profile-${model}-${p.hardware ?? 'gpu'}-tp${p.tensor_parallel_size ?? 1}`;
  return `${name.replace(/[^A-Za-z0-9._-]+/g, '-')}.json`;
}
