// The calculator page in headless Chromium: the default result, inputs,
// the URL, a pasted config.json, field errors, comparison, exports and
// screenshots. Every figure on screen is checked against the engine's
// report for the same request, evaluated here in node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import * as H from './helpers.mjs';
import { FIGURES, figure, conditions } from '../../www/page/figures.js';

let b; // browser
let base;

before(async () => {
  base = await H.baseURL();
  b = await H.launch();
});
after(async () => { await b?.close(); });

/** Assert that every figure on the page is the engine's for req. */
async function assertFigures(page, req, what) {
  const want = await H.evaluate(req);
  const shown = await H.shownFigures(page);
  for (const key of Object.keys(FIGURES)) {
    if (!(key in shown)) continue;
    assert.equal(shown[key], figure(key, want), `${what}: figure ${key}`);
  }
  assert.equal(await page.textContent('#report-conditions'), conditions(want), `${what}: conditions`);
  return want;
}

async function open(path = '') {
  const { page } = b;
  await page.goto(new URL(path, base).href);
  await H.ready(page);
  return page;
}

/** The query string the page has written into its URL (it debounces). */
async function settledURL(page, contains) {
  await page.waitForFunction((s) => location.search.includes(s), contains);
  return page.url();
}

test('the page opens on a working example and shows the engine report', async () => {
  const page = await open();
  const want = await assertFigures(page, H.request(), 'default');
  assert.equal(want.model.name, 'Llama 3.1 8B Instruct');
  // The cost card's energy line: joules per token are the GPUs' watts over the output rate they serve at
  // (docs/MODEL.md section 5c), at the cost card's own rate.
  const en = want.energy;
  assert.ok(Math.abs(en.joules_per_output_token - en.gpu_power_w * en.num_gpus / en.tokens_per_s) < 1e-9 * en.joules_per_output_token);
  assert.equal(en.tokens_per_s, want.cost.tokens_per_s);
  assert.match(await page.textContent('[data-v="energy.summary"]'), /^[\d.]+ J\/token, [\d,]+ W per GPU of 700 W rated \(1 GPU, /);
  assert.match(await page.textContent('[data-v="decode.tokens_per_s"]'), /tok\/s$/);
  // The chart has its two curves with one point per sweep entry, and the
  // sweep reaches past the KV ceiling and the preemption onset.
  const drawn = await H.chartReport(H.request());
  const d = await page.getAttribute('#chart path.agg', 'd');
  assert.equal(d.split('L').length, drawn.sweep.length);
  const last = drawn.sweep.at(-1).batch_size;
  assert.ok(last > drawn.preemption.onset_concurrency_lockstep && last > drawn.preemption.onset_concurrency, `sweep ends at ${last}`);
  assert.equal(await page.textContent('#chart .marker.kv text'), `KV ceiling ${drawn.preemption.onset_concurrency_lockstep}`);
  assert.match(await page.textContent('#chart desc'), /aggregate throughput rises/);
  // Warnings panel hidden when there are none; status cleared.
  assert.equal(await page.isHidden('#errors'), true);
  assert.deepEqual(b.errors, []);
  await H.screenshot(page, 'page-desktop-light.png', { fullPage: true });
});

test('changing inputs changes the figures to the engine report', async () => {
  const page = await open();
  const before = await page.textContent('[data-v="kv_cache.capacity_tokens"]');
  await page.selectOption('#f-kv_cache_dtype', 'fp8');
  await assertFigures(page, H.request({ kv_cache_dtype: 'fp8' }), 'kv fp8');
  assert.notEqual(await page.textContent('[data-v="kv_cache.capacity_tokens"]'), before);

  await page.fill('#f-tensor_parallel_size', '2');
  await page.fill('#f-input_tokens', '4000');
  await page.check('input[name=load][value=concurrency]');
  await page.fill('#f-concurrency', '48');
  await assertFigures(page, H.request({ kv_cache_dtype: 'fp8', tensor_parallel_size: 2, workload: { input_tokens: 4000, concurrency: 48 } }), 'tp2 + workload');

  // A slider moves its number field and the figures with it (log2 scale: 2^11 = 2048).
  await page.$eval('input[type=range][data-pair=f-output_tokens]', (r) => { r.value = '11'; r.dispatchEvent(new Event('input', { bubbles: true })); });
  assert.equal(await page.inputValue('#f-output_tokens'), '2048');
  await assertFigures(page, H.request({ kv_cache_dtype: 'fp8', tensor_parallel_size: 2, workload: { input_tokens: 4000, output_tokens: 2048, concurrency: 48 } }), 'slider');

  // Without a price of its own the page's cost is the accelerator's default
  // (hardware.DefaultPrice: RunPod's $1.59 for an A100 SXM 80GB).
  await page.selectOption('#f-hardware', 'a100-sxm-80gb');
  await page.fill('#f-gpu_hour_usd', '');
  const want = await assertFigures(page, H.request({ hardware: 'a100-sxm-80gb', kv_cache_dtype: 'fp8', tensor_parallel_size: 2, workload: { input_tokens: 4000, output_tokens: 2048, concurrency: 48 } }), 'a100, default price');
  assert.equal(want.cost.gpu_hour_usd, 1.59);
  assert.equal(want.cost.price_kind, 'cloud_on_demand');
  assert.notEqual(await page.textContent('[data-v="cost.usd_per_million_output_tokens"]'), '–');
});

test('a model the light engine leaves to the full engine (DeepSeek-V4) is answered by the full engine', async () => {
  const page = await open();
  await page.fill('#f-model', 'deepseek-ai/DeepSeek-V4-Flash');
  await page.fill('#f-tensor_parallel_size', '4');
  await page.selectOption('#f-hardware', 'h200-sxm-141gb');
  const req = H.request({ model: 'deepseek-ai/DeepSeek-V4-Flash', hardware: 'h200-sxm-141gb', tensor_parallel_size: 4 });
  const want = await H.evaluate(req); // the node engine is the full one
  await page.waitForFunction((t) => document.querySelector('[data-v="kv_cache.capacity_tokens"]').textContent === t, figure('kv_cache.capacity_tokens', want), { timeout: 30000 });
  await assertFigures(page, req, 'DeepSeek-V4-Flash');
  assert.equal(await page.isHidden('#errors'), true, 'no error shown');
  // Once loaded, the full engine's model list, with the V4 entries, fills the picker.
  assert.ok(await page.$$eval('#model-list option', (os) => os.some((o) => o.value === 'deepseek-ai/DeepSeek-V4-Flash')));
});

test('a URL reproduces the view', async () => {
  const page = await open();
  await page.fill('#f-model', 'qwen2.5-7b');
  await page.selectOption('#f-quantization', 'fp8');
  await page.fill('#f-max_num_seqs', '128');
  await page.click('#add-config');
  await page.fill('#f-tensor_parallel_size', '2');
  const url = await settledURL(page, '2.tensor_parallel_size=2');
  const shownA = await page.textContent('#compare-table');
  const figs = await H.shownFigures(page);

  const again = await b.context.newPage();
  await again.goto(url);
  await H.ready(again);
  assert.deepEqual(await H.shownFigures(again), figs, 'same figures from the link');
  assert.equal(await again.textContent('#compare-table'), shownA, 'same comparison from the link');
  assert.equal(await again.inputValue('#f-tensor_parallel_size'), '2');
  assert.equal(await again.getAttribute('#tab-1', 'aria-selected'), 'true');
  await again.click('#tab-0');
  assert.equal(await again.inputValue('#f-model'), 'qwen2.5-7b');
  assert.equal(await again.inputValue('#f-quantization'), 'fp8');
  assert.equal(await again.inputValue('#f-max_num_seqs'), '128');
  await assertFigures(again, H.request({ model: 'qwen2.5-7b', quantization: 'fp8', max_num_seqs: 128 }), 'config A from link');
  await again.close();
});

test('pasting a config.json evaluates it', async () => {
  const calc = await H.calculator();
  const config = { ...calc.model('llama-3.1-8b').config, num_hidden_layers: 16 };
  const page = await open();
  await page.check('input[name=model_source][value=config]');
  await page.fill('#f-model_config', JSON.stringify(config, null, 2));
  const want = await assertFigures(page, H.request({ model: undefined, model_config: config }), 'pasted config');
  assert.equal(want.model.num_hidden_layers, 16);
  // It survives the link.
  const url = await settledURL(page, 'model_config=');
  const again = await b.context.newPage();
  await again.goto(url);
  await H.ready(again);
  assert.equal(await again.textContent('[data-v="kv_cache.bytes_per_token"]'), figure('kv_cache.bytes_per_token', want));
  await again.close();

  // Text that is not JSON: a message at the field, the page keeps working.
  await page.fill('#f-model_config', '{"hidden_size": 4096,');
  assert.match(await page.textContent('[data-field="model_config"] .field-error'), /^model_config: is not valid JSON/);
  await page.check('input[name=model_source][value=catalog]');
  assert.equal(await page.locator('.field-error').count(), 0);
});

test('a bad input shows the engine error at its field and the page recovers', async () => {
  const page = await open();
  await page.fill('#f-tensor_parallel_size', '0');
  let err;
  try { await H.evaluate(H.request({ tensor_parallel_size: 0 })); } catch (e) { err = e; }
  assert.equal(err?.name, 'ThroughputError');
  const e = err.errors.find((x) => x.field === 'tensor_parallel_size');
  const msg = page.locator('[data-field="tensor_parallel_size"] .field-error');
  assert.equal(await msg.textContent(), `tensor_parallel_size: ${e.message}`);
  assert.equal(await page.getAttribute('#f-tensor_parallel_size', 'aria-invalid'), 'true');
  const describedBy = await page.getAttribute('#f-tensor_parallel_size', 'aria-describedby');
  assert.equal(describedBy, await msg.getAttribute('id'));
  assert.equal(await page.locator('#report.stale').count(), 1);

  // An unknown model names the field and suggests catalog ids.
  await page.fill('#f-tensor_parallel_size', '1');
  await page.fill('#f-model', 'llama-3.1-8c');
  assert.match(await page.textContent('[data-field="model"] .field-error'), /^model: unknown model "llama-3\.1-8c"/);
  await page.fill('#f-model', 'llama-3.1-8b');
  assert.equal(await page.locator('.field-error').count(), 0);
  assert.equal(await page.locator('#report.stale').count(), 0);
  await assertFigures(page, H.request(), 'recovered');

  // Custom hardware figures: the engine's hardware.* errors land on their fields.
  await page.selectOption('#f-hardware', 'custom');
  await page.fill('#f-hw_bandwidth_tbs', '-1');
  assert.match(await page.textContent('[data-field="hardware.memory_bandwidth_bytes_per_s"] .field-error'), /must not be negative/);
  await page.fill('#f-hw_bandwidth_tbs', '3.35');
  assert.equal(await page.locator('.field-error').count(), 0);
});

test('comparison, warnings and exports', async () => {
  const page = await open('?model=llama-3.1-70b');
  // 70B in bf16 on one H100 does not fit: the warning is shown.
  const wantA = await H.evaluate(H.request({ model: 'llama-3.1-70b' }));
  assert.equal(wantA.fits, false);
  assert.deepEqual(await page.$$eval('#warnings li', (l) => l.map((x) => x.dataset.code)), wantA.warnings.map((w) => w.code));
  await page.click('#add-config');
  await page.fill('#f-tensor_parallel_size', '4');
  await page.click('#add-config');
  await page.selectOption('#f-quantization', 'fp8');
  const wantC = await assertFigures(page, H.request({ model: 'llama-3.1-70b', tensor_parallel_size: 4, quantization: 'fp8' }), 'config C');
  const cols = await page.$$eval('#compare-table thead th[scope=col]', (l) => l.length);
  assert.equal(cols, 4, 'a label column and three configurations');
  const row = await page.$$eval('#compare-table tbody tr', (rows) => {
    const r = rows.find((x) => x.querySelector('th').textContent === 'KV capacity');
    return [...r.querySelectorAll('td')].map((td) => td.textContent);
  });
  assert.equal(row[2], figure('kv_cache.capacity_tokens', wantC));
  // Arrow keys move between the configuration tabs.
  await page.focus('#tab-2');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.getAttribute('#tab-1', 'aria-selected'), 'true');
  assert.equal(await page.inputValue('#f-tensor_parallel_size'), '4');
  const wantB = await H.chartReport(H.request({ model: 'llama-3.1-70b', tensor_parallel_size: 4 }));

  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  const json = JSON.parse(fs.readFileSync(await dl.path(), 'utf8'));
  assert.deepEqual(json, wantB);
  const [dl2] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  const lines = fs.readFileSync(await dl2.path(), 'utf8').trim().split('\n');
  assert.equal(lines[0], 'batch_size,context_tokens,step_time_ms,tokens_per_s,tokens_per_s_per_sequence,kv_cache_usage,bound');
  assert.equal(lines.length, wantB.sweep.length + 1);
  assert.deepEqual(lines[1].split(',').slice(0, 4).map(Number), [wantB.sweep[0].batch_size, wantB.sweep[0].context_tokens, wantB.sweep[0].step_time_ms, wantB.sweep[0].tokens_per_s]);
  await H.screenshot(page, 'page-compare.png', { fullPage: true });
});

test('keyboard: the chart reads out sweep points', async () => {
  const page = await open();
  await page.focus('#chart svg');
  await page.keyboard.press('Home');
  const want = await H.evaluate(H.request());
  const p = want.sweep[0];
  const text = await page.textContent('#chart-readout');
  assert.ok(text.startsWith(`Batch ${p.batch_size} at context `), text);
  await page.keyboard.press('ArrowRight');
  assert.ok((await page.textContent('#chart-readout')).startsWith(`Batch ${want.sweep[1].batch_size} `));
  // Every form control has an accessible name.
  const unlabelled = await page.$$eval('#inputs input, #inputs select, #inputs textarea', (els) => els
    .filter((e) => !(e.labels?.length || e.getAttribute('aria-label') || e.getAttribute('aria-labelledby')))
    .map((e) => e.name || e.id));
  assert.deepEqual(unlabelled, []);
});

test('phone width and dark scheme', async () => {
  const page = await open();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => document.querySelector('#chart svg').getAttribute('width') <= 390);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0, 'no horizontal scrolling at 390 px');
  await H.screenshot(page, 'page-phone-dark.png', { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
});

test('the HTML alone shows the default view, and a link waits for its own', async () => {
  // Scripts blocked: what a first visit paints before any of them runs.
  // A profile of its own, without service workers, which would fetch the
  // scripts past page.route.
  const own = await H.launch({ serviceWorkers: 'block' });
  const { page } = own;
  try {
    await page.route(/\.(js|wasm)(\?|$)/, (route) => route.abort());
    await page.goto(base);
    const want = await H.evaluate(H.request());
    const shown = await H.shownFigures(page);
    assert.ok(Object.keys(shown).length >= 30, `${Object.keys(shown).length} figures in the HTML`);
    for (const [key, text] of Object.entries(shown)) assert.equal(text, figure(key, want), `HTML figure ${key}`);
    assert.equal(await page.textContent('#report-conditions'), conditions(want));
    assert.equal(await page.isVisible('[data-v="decode.tokens_per_s"]'), true);
    assert.equal(await page.isHidden('#status'), true);
    // The form holds the same (default) configuration.
    const S = await import('../../www/page/state.js');
    for (const [name, value] of Object.entries(S.DEFAULTS)) {
      const control = await page.$(`#inputs [name="${name}"]:not([type=radio]), #inputs [name="${name}"][type=radio]:checked`);
      if (control) assert.equal(await control.inputValue(), value, `form field ${name}`);
    }
    assert.equal(await page.inputValue('input[type=range][data-pair=f-input_tokens]'), String(Math.log2(Number(S.DEFAULTS.input_tokens))));
    // The memory bar: its segments' widths are the report's shares.
    const mem = want.memory;
    const width = (cls) => page.$eval(`#mem-bar .seg.${cls}`, (e) => parseFloat(e.style.width));
    assert.ok(Math.abs((await width('weights')) - (100 * mem.weights_bytes) / mem.total_bytes) < 0.01);
    assert.ok(Math.abs((await width('kv')) - (100 * mem.kv_cache_bytes) / mem.total_bytes) < 0.01);

    // A link's view: the default figures are not shown as its own.
    await page.goto(new URL('?input_tokens=4096', base).href);
    assert.equal(await page.isVisible('[data-v="decode.tokens_per_s"]'), false);
    assert.equal(await page.isVisible('#status'), true);
  } finally {
    await own.close();
  }
  // With scripts, the link's view comes from the engine.
  const page2 = await open('?input_tokens=4096');
  await assertFigures(page2, H.request({ workload: { input_tokens: 4096 } }), 'link');
  assert.equal(await page2.isVisible('[data-v="decode.tokens_per_s"]'), true);
  assert.equal(await page2.isHidden('#status'), true);
});
