// The page's calibration profile (issue 34; www/page/profile.js and
// state.js): the profile travels in the link as base64url of its minified
// JSON and comes back as the same calibration.profile, the size a link
// carries is enforced, the benchmark files the page fits are told apart,
// and the engine's profile errors read in plain words. The profiles are
// the full engine's own (calibrate()), from real files and from the
// largest profile it writes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load } from '../../build/npm/throughput.js';
import * as S from '../page/state.js';
import * as P from '../page/profile.js';

const imports = new URL('../../calc/testdata/imports/', import.meta.url);
const base = { model: 'llama-3.1-8b', hardware: 'h100-sxm-80gb' };

let calc;
let profile; // the engine's profile of a real vllm bench serve file (Llama 3.1 8B on H100)
before(async () => {
  calc = await load({ planner: true });
  const data = readFileSync(new URL('vllm-llmd-exp7-h100-2replicas.json', imports), 'utf8');
  profile = calc.calibrate({ ...base, calibration: { imports: [{ format: 'vllm_bench_json', data }] } }).calibration_profile;
});
after(() => calc.close());

test('a profile travels in the link as base64url of its minified JSON and comes back as the same calibration.profile', () => {
  const pretty = JSON.stringify(profile, null, 2);
  const state = { configs: [S.newConfig({ profile: pretty }), S.newConfig({ tensor_parallel_size: '2', profile: pretty })], active: 0 };
  const q = new URLSearchParams(S.toQuery(state));
  // By hand: the parameter is the minified document, base64url without padding.
  const minified = JSON.stringify(profile);
  assert.equal(q.get('profile'), Buffer.from(minified, 'utf8').toString('base64url'));
  assert.equal(q.get('2.profile'), q.get('profile'));
  assert.doesNotMatch(q.get('profile'), /[+/=]/);
  const back = S.fromQuery(`?${q}`);
  assert.equal(back.configs[0].profile, minified);
  assert.equal(back.configs[1].profile, minified);
  const { request, errors } = S.toRequest(back.configs[0]);
  assert.deepEqual(errors, []);
  assert.deepEqual(request.calibration, { profile });
  // The same request as the configuration before the link: the same figures.
  assert.deepEqual(request, S.toRequest(state.configs[0]).request);
  const r = calc.evaluate(request);
  assert.equal(r.config.efficiencies.bandwidth_efficiency, profile.terms.bandwidth_efficiency);
  assert.equal(r.config.efficiencies.step_overhead_ms, profile.terms.step_overhead_ms);
  // No profile, no parameter.
  assert.equal(new URLSearchParams(S.toQuery(S.newState())).has('profile'), false);
});

test('the largest profile the engine writes fits in a link; a larger document is refused by name and left out of the link', () => {
  // 32 serving runs (spec.MaxProfilePoints), every figure stated, the
  // residuals too: SGLang's bench_serving JSON lines at 40 concurrencies,
  // of which the profile keeps the first 32.
  const lines = [];
  for (let i = 1; i <= 40; i++) {
    const s = calc.evaluate({ ...base, workload: { input_tokens: 1000 + i, output_tokens: 250 + i, concurrency: 7 * i } }).serving;
    lines.push(JSON.stringify({ completed: 1000, total_input_tokens: 1000 * (1000 + i), total_output_tokens: 1000 * (250 + i), request_rate: 'inf', max_concurrency: 7 * i,
      request_throughput: 1.1 * s.requests_per_s, mean_ttft_ms: 0.93 * s.ttft_ms, mean_tpot_ms: 1.07 * s.tpot_ms }));
  }
  assert.equal(P.importFormat(lines.join('\n')), 'sglang_bench_jsonl');
  const big = calc.calibrate({ ...base, calibration: { imports: [{ format: 'sglang_bench_jsonl', data: lines.join('\n') }] } }).calibration_profile;
  assert.equal(big.points.length, 32);
  const bytes = Buffer.byteLength(JSON.stringify(big));
  assert.ok(bytes <= P.MAX_PROFILE_BYTES, `${bytes} bytes`);
  assert.ok(bytes > 3500, `${bytes} bytes: the comment's "about 3.9 KB"`);
  const q = S.toQuery({ configs: [S.newConfig({ profile: JSON.stringify(big) })], active: 0 });
  // base64url: 4 characters per 3 bytes, so the parameter is at most 6,144 characters.
  assert.equal(new URLSearchParams(q).get('profile').length, Math.ceil((4 * bytes) / 3));
  assert.ok(q.length < 8192 - 1024, `${q.length} characters`);

  // The limit, byte for byte: a document of exactly MAX_PROFILE_BYTES passes, one byte more is refused.
  const pad = (n) => {
    const doc = { ...profile, model: '' };
    doc.model = 'm'.repeat(n - Buffer.byteLength(JSON.stringify(doc)));
    return JSON.stringify(doc);
  };
  assert.equal(Buffer.byteLength(pad(4608)), 4608);
  assert.deepEqual(S.toRequest(S.newConfig({ profile: pad(4608) })).errors, []);
  const over = S.toRequest(S.newConfig({ profile: pad(4609) }));
  assert.deepEqual(over.errors, [{ field: 'calibration.profile', message: "is 4,609 bytes of JSON; a profile travels in the page's link, which carries at most 4,608 (the engine writes at most 32 points: about 3,900 bytes)" }]);
  assert.equal(over.request.calibration, undefined);
  assert.equal(new URLSearchParams(S.toQuery({ configs: [S.newConfig({ profile: pad(4609) })], active: 0 })).has('profile'), false);
  // Multi-byte characters count as the bytes they encode to.
  assert.equal(P.readProfile(JSON.stringify({ ...JSON.parse(pad(4608)), model: 'é'.repeat(2300) })).tooLarge, true);
});

test('a profile that is not JSON, or not an object, is refused by name before the engine', () => {
  assert.deepEqual(S.toRequest(S.newConfig({ profile: '{"version": 1,' })).errors.map((e) => e.field), ['calibration.profile']);
  assert.match(S.toRequest(S.newConfig({ profile: '{"version": 1,' })).errors[0].message, /^is not valid JSON: /);
  assert.match(S.toRequest(S.newConfig({ profile: '[1, 2]' })).errors[0].message, /^must be a JSON object/);
  // A link whose parameter is not base64url keeps the text, and the field is named.
  const c = S.fromQuery('?profile=%%%').configs[0];
  assert.equal(S.toRequest(c).errors[0].field, 'calibration.profile');
});

test('the engine\'s profile errors in plain words, and the labels of a calibrated report', () => {
  // The engine's own errors: another model and tensor-parallel size, a version it does not read.
  const errs = (req) => { try { calc.evaluate(req); } catch (e) { return e.errors; } return []; };
  const mismatch = errs({ ...base, model: 'Qwen/Qwen3-8B', tensor_parallel_size: 2, calibration: { profile } });
  assert.deepEqual(mismatch.map(P.plainError), [
    'The profile\'s model is "meta-llama/Llama-3.1-8B-Instruct" but this configuration\'s is "Qwen/Qwen3-8B": a profile calibrates the deployment it was fitted on.',
    'The profile\'s tensor-parallel size is 1 but this configuration\'s is 2: a profile calibrates the deployment it was fitted on.',
  ]);
  assert.deepEqual(errs({ ...base, calibration: { profile: { ...profile, version: 2 } } }).map(P.plainError),
    ['The profile\'s version must be 1 (the profile version this engine reads), got 2.']);
  assert.deepEqual(errs({ ...base, calibration: { profile: { ...profile, extra: 1 } } }).map(P.plainError),
    ['The profile has a field "extra" that a version-1 profile does not have: is this a calibration profile?']);
  assert.equal(P.plainError({ field: 'model', message: 'x' }), null);
  // Its deployment as the form's values ("Use its deployment").
  assert.deepEqual(P.deploymentConfig(profile, S.newConfig()), { model_source: 'catalog', model: 'meta-llama/Llama-3.1-8B-Instruct', hardware: 'h100-sxm-80gb', tensor_parallel_size: '1' });
  assert.equal(P.profileFileName(profile), 'throughput-profile-Llama-3.1-8B-Instruct-h100-sxm-80gb-tp1.json');

  const r = calc.evaluate({ ...base, calibration: { profile } });
  assert.deepEqual(r.calibration.labels, { step: 'calibrated', serving: 'calibrated', memory: 'modelled' });
  assert.equal(P.labelsText(r.calibration.labels), 'Calibrated: the decode and prefill step times, the steady state (TPOT, TTFT, rates). Modelled: the memory budget and KV capacity.');
  assert.equal(P.labelsText({ step: 'calibrated', serving: 'calibrated', memory: 'measured' }), 'Calibrated: the decode and prefill step times, the steady state (TPOT, TTFT, rates). Measured: the memory budget and KV capacity.');
  assert.equal(P.labelsText(undefined), '');
});

test('the page tells each real benchmark file from a profile by the keys its reader reads', () => {
  // calc/testdata/imports/sources.json records each file's format.
  const { files } = JSON.parse(readFileSync(new URL('sources.json', imports), 'utf8'));
  assert.ok(files.length >= 8);
  for (const f of files) assert.equal(P.importFormat(readFileSync(new URL(f.file, imports), 'utf8'), f.file), f.format, f.file);
  assert.ok(files.some((f) => f.format === 'sglang_bench_jsonl'), 'a real SGLang file among them');
  assert.equal(P.importFormat(JSON.stringify(profile)), '');
  assert.equal(P.isProfile(profile), true);
  assert.equal(P.isProfile({ version: 1 }), false);
  assert.equal(P.importFormat('not a file'), '');
});
