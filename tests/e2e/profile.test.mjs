// The calibration profile on the page (issue 34), in headless Chromium: a
// benchmark's results file fitted into a profile, a profile file loaded,
// the link that carries it, a reload, "Download profile", and a profile of
// another deployment. The expected figures are the engine's for the same
// profile, computed here in node through the JS module (H.evaluate), and
// the texts are written out by hand.
//   node --test tests/e2e/profile.test.mjs   (after ./build.sh build)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as H from './helpers.mjs';
import { figure } from '../../www/page/figures.js';

// A real `vllm bench serve --save-result` file of Llama 3.1 8B on H100s
// (llm-d-benchmark, calc/testdata/imports/sources.json): the page's default
// deployment.
const BENCH = path.join(H.ROOT, 'calc', 'testdata', 'imports', 'vllm-llmd-exp7-h100-2replicas.json');

let b;
let base;
let tmp;
let profile; // the engine's profile of BENCH for the page's default request
let uncalibrated; // the default request's report without calibration

before(async () => {
  base = await H.baseURL();
  b = await H.launch();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'throughput-profile-'));
  const calc = await H.calculator();
  const req = H.request({ sweep: undefined, calibration: { imports: [{ format: 'vllm_bench_json', data: fs.readFileSync(BENCH, 'utf8') }] } });
  profile = calc.calibrate(req).calibration_profile;
  uncalibrated = await H.evaluate(H.request());
});
after(async () => {
  await b?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

async function open(query = '') {
  const { page } = b;
  await page.goto(new URL(`?${query}`, base).href);
  await H.ready(page);
  return page;
}

/** Wait until the page shows a calibrated, current report. */
function calibrated(page) {
  return page.waitForFunction(() => document.getElementById('report-calibration').textContent !== '' &&
    !document.getElementById('report').classList.contains('stale'), null, { timeout: 30000 });
}

/** Writes a file under tmp; returns its path. */
function file(name, text) {
  const f = path.join(tmp, name);
  fs.writeFileSync(f, text);
  return f;
}

// The labels a profile gives (docs/MODEL.md section 7: the step and serving
// figures calibrated, memory modelled without a start-up log), in the page's words.
const LABELS = 'Calibrated: the decode and prefill step times, the steady state (TPOT, TTFT, rates). Modelled: the memory budget and KV capacity.';

test('a benchmark results file is fitted into a profile, and the page shows the engine\'s figures for it', async () => {
  const page = await open();
  await page.setInputFiles('#profile-file', BENCH);
  await calibrated(page);
  // The field holds the profile the engine fits from the same file.
  assert.deepEqual(JSON.parse(await page.inputValue('#f-profile')), profile);
  assert.equal(profile.model, 'meta-llama/Llama-3.1-8B-Instruct');
  assert.equal(profile.points.length, 1, 'the file holds one run');
  const want = await H.evaluate(H.request({ calibration: { profile } }));
  assert.deepEqual(want.calibration.labels, { step: 'calibrated', serving: 'calibrated', memory: 'modelled' });
  assert.equal(await page.textContent('#report-calibration'), LABELS);
  // The step cards carry the tag: the groups the labels call calibrated.
  assert.equal(await page.getAttribute('#report', 'data-calibrated'), 'step serving');
  assert.equal(await page.$eval('.card[data-k=decode] h3', (h) => getComputedStyle(h, '::after').content), '" · calibrated"');
  assert.equal(await page.$eval('.card[data-k=cost] h3', (h) => getComputedStyle(h, '::after').content), 'none');
  const shown = await H.shownFigures(page);
  assert.equal(shown['decode.tokens_per_s'], figure('decode.tokens_per_s', want));
  assert.notEqual(figure('decode.tokens_per_s', want), figure('decode.tokens_per_s', uncalibrated), 'the profile moves the figure');
  assert.match(await page.textContent('#profile-status'), /^Fitted 1 run of vllm-llmd-exp7-h100-2replicas\.json \(vllm bench serve --save-result\): /);
  assert.deepEqual(b.errors, []);
});

test('a profile file travels in the link; a reload shows the same figures; Download profile saves it', async () => {
  const page = await open();
  await page.setInputFiles('#profile-file', file('profile.json', `${JSON.stringify(profile, null, 2)}\n`));
  await calibrated(page);
  const want = await H.evaluate(H.request({ calibration: { profile } }));
  const decode = figure('decode.tokens_per_s', want);
  assert.equal((await H.shownFigures(page))['decode.tokens_per_s'], decode);
  assert.equal(await page.textContent('#profile-info'), `Fitted on vLLM ${profile.engine_version} · meta-llama/Llama-3.1-8B-Instruct · h100-sxm-80gb · TP 1 (1 point, RMS error ${(100 * profile.rms_error).toFixed(1)} %).`);

  // The link: profile= is base64url of the minified JSON.
  await page.waitForFunction(() => new URLSearchParams(location.search).has('profile'));
  const param = new URL(page.url()).searchParams.get('profile');
  assert.equal(Buffer.from(param, 'base64url').toString('utf8'), JSON.stringify(profile));
  await page.reload();
  await H.ready(page);
  await calibrated(page);
  assert.equal((await H.shownFigures(page))['decode.tokens_per_s'], decode);
  assert.deepEqual(JSON.parse(await page.inputValue('#f-profile')), profile);

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#profile-download')]);
  assert.equal(download.suggestedFilename(), 'throughput-profile-Llama-3.1-8B-Instruct-h100-sxm-80gb-tp1.json');
  assert.deepEqual(JSON.parse(fs.readFileSync(await download.path(), 'utf8')), profile);

  // Removing it brings back the engine's own figures, and the link drops it.
  await page.click('#profile-clear');
  await page.waitForFunction(() => !new URLSearchParams(location.search).has('profile'));
  assert.equal(await page.textContent('#report-calibration'), '');
  assert.equal(await page.getAttribute('#report', 'data-calibrated'), null);
  assert.equal((await H.shownFigures(page))['decode.tokens_per_s'], figure('decode.tokens_per_s', uncalibrated));
  assert.deepEqual(b.errors, []);
});

test('a profile file dropped on the control is applied as a chosen one', async () => {
  const page = await open();
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'dropped.json', { type: 'application/json' }));
    document.getElementById('profile-drop').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, JSON.stringify(profile));
  await calibrated(page);
  assert.deepEqual(JSON.parse(await page.inputValue('#f-profile')), profile);
  const want = await H.evaluate(H.request({ calibration: { profile } }));
  assert.equal((await H.shownFigures(page))['decode.tokens_per_s'], figure('decode.tokens_per_s', want));
  assert.equal(await page.textContent('#profile-status'), 'Read dropped.json.');
});

test('a profile of another deployment shows the engine\'s error in plain words; nothing else breaks', async () => {
  const page = await open();
  const other = { ...profile, model: 'Qwen/Qwen3-8B' };
  await page.setInputFiles('#profile-file', file('other.json', JSON.stringify(other)));
  await page.waitForSelector('#profile-error:not([hidden])', { timeout: 30000 });
  // The engine's field error (calc/calibrate/profile.go applyProfile) beside the field, and in plain words.
  assert.equal(await page.textContent('[data-field="calibration.profile"] .field-error'),
    'calibration.profile.model: is "Qwen/Qwen3-8B" but the request\'s is "meta-llama/Llama-3.1-8B-Instruct": a profile calibrates the deployment it was fitted on');
  assert.equal(await page.textContent('#profile-error'),
    'The profile\'s model is "Qwen/Qwen3-8B" but this configuration\'s is "meta-llama/Llama-3.1-8B-Instruct": a profile calibrates the deployment it was fitted on.');
  // The last valid result stays, marked stale, and the rest of the form still works.
  assert.equal(await page.getAttribute('#report', 'class'), 'report stale');
  assert.equal(await page.isVisible('#profile-use'), true);
  // "Use its deployment" moves the form to the profile's model; the engine applies it.
  await page.click('#profile-use');
  await calibrated(page);
  assert.equal(await page.inputValue('#f-model'), 'Qwen/Qwen3-8B');
  const want = await H.evaluate(H.request({ model: 'Qwen/Qwen3-8B', calibration: { profile: other } }));
  assert.equal((await H.shownFigures(page))['decode.tokens_per_s'], figure('decode.tokens_per_s', want));
  assert.equal(await page.isHidden('#profile-error'), true);

  // A paste that is not JSON, and one over the size a link carries.
  await page.fill('#f-profile', '{"version": 1,');
  await page.waitForSelector('#profile-error:not([hidden])');
  assert.match(await page.textContent('#profile-error'), /^The profile is not valid JSON: /);
  const big = JSON.stringify({ ...profile, model: 'x'.repeat(5000) });
  await page.fill('#f-profile', big);
  await page.waitForFunction(() => document.getElementById('profile-error').textContent.includes('4,608'));
  assert.equal(await page.textContent('#profile-error'),
    `The profile is ${Buffer.byteLength(big).toLocaleString('en-US')} bytes of JSON; a profile travels in the page's link, which carries at most 4,608 (the engine writes at most 32 points: about 3,900 bytes).`);
  await page.waitForFunction(() => !new URLSearchParams(location.search).has('profile'));
  assert.deepEqual(b.errors, []);
});
