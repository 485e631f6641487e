// The page, the widget and the module give the same figures for the same
// inputs under every engine the engine lists (calc.engines()): each leaves
// gpu_memory_utilization to the engine's own default, so LMDeploy's KV
// pool is LMDeploy's on all three.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as H from './helpers.mjs';
import * as fmt from '../../www/ui/format.js';
import { FIGURES, figure } from '../../www/page/figures.js';

let base;
let b;
let engines;
before(async () => {
  base = await H.baseURL();
  b = await H.launch();
  engines = (await H.calculator()).engines();
});
after(async () => { await b?.close(); });

const MODEL = 'llama-3.1-8b';
const HARDWARE = 'h100-sxm-80gb';

/** The module's own answer to the bare question: this model on this GPU under engine. */
const independent = (engine) => H.evaluate({ model: MODEL, hardware: HARDWARE, engine });

/**
 * The utilization each engine resolves on this H100 when the request
 * leaves it out: its listed default, but SGLang's follows the GPU (0.5:
 * (81,090 - 13,440 MiB reserved) / 81,090 = 0.834, calc/release/sglang.go).
 */
const utilizationHere = (e) => (e.name === 'sglang' ? 0.834 : e.defaults.gpu_memory_utilization);

test('the engines are listed with their defaults', async () => {
  assert.deepEqual(engines.map((e) => e.name), ['vllm', 'sglang', 'lmdeploy', 'trtllm', 'llamacpp']);
  assert.equal(engines.find((e) => e.name === 'lmdeploy').defaults.gpu_memory_utilization, 0.8);
});

test('page, widget and module agree for every engine', async () => {
  const { page } = b;
  const pageShown = {};
  const widgetShown = {};

  // The page: choose each engine in the form.
  await page.goto(new URL('./', base).href);
  await H.ready(page);
  const options = await page.$$eval('#f-engine option', (os) => os.map((o) => [o.value, o.textContent]));
  assert.deepEqual(options, engines.map((e) => [e.name, e.label]), 'the engine select lists calc.engines()');
  assert.deepEqual(await page.$$eval('#f-kv_cache_dtype option', (os) => os.map((o) => o.value)), [...(await H.calculator()).kvCacheDtypes()]);
  assert.equal(await page.getAttribute('#f-gpu_memory_utilization', 'max'), '1', 'the range comes from calc.fieldBounds()');
  for (const e of engines) {
    await page.selectOption('#f-engine', e.name);
    const want = await H.evaluate(H.request({ engine: e.name }));
    assert.equal(want.config.gpu_memory_utilization, utilizationHere(e), e.name);
    await page.waitForFunction((t) => document.querySelector('[data-v="kv_cache.capacity_tokens"]').textContent === t, figure('kv_cache.capacity_tokens', want));
    const shown = await H.shownFigures(page);
    for (const key of Object.keys(FIGURES)) {
      if (key in shown) assert.equal(shown[key], figure(key, want), `page, ${e.name}: figure ${key}`);
    }
    assert.equal(await page.inputValue('#f-gpu_memory_utilization'), '', 'the field is left to the engine');
    // The placeholder and the help give the value resolved for this GPU.
    await page.waitForFunction((u) => document.querySelector('#f-gpu_memory_utilization').placeholder === u, String(utilizationHere(e)));
    assert.match(await page.textContent('#h-gpu_memory_utilization'), new RegExp(`default, ${utilizationHere(e)}\\. Valid: greater than 0, at most 1\\.`));
    // The about panel names the engine's terms, the weight-streaming cap
    // where the engine has one (llama.cpp on an H100's SMs).
    const sm = want.config.efficiencies.sm_bytes_per_cycle;
    await page.waitForFunction((name) => document.querySelector('#about').textContent.includes(`${name}: bandwidth`), e.name);
    const about = await page.textContent('#about');
    if (sm) assert.ok(about.includes(`weights streamed at most ${sm} bytes per SM (AMD: compute unit) per cycle`), about);
    else assert.ok(!about.includes('compute unit) per cycle'), about);
    pageShown[e.name] = want;
  }
  assert.ok(pageShown.llamacpp.config.efficiencies.sm_bytes_per_cycle > 0, 'llama.cpp caps its weight streaming on an H100');

  // The widget: the engine attribute, then its own engine select, in a
  // fresh profile (the page's service worker would answer the bare page).
  const w = await H.launch();
  after(() => w.close());
  const wpage = w.page;
  const url = new URL('/__engines.html', base).href;
  await wpage.route(url, (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>engines</title><script type="module" src="/widget.js"></script></head>
<body><throughput-calculator id="w" model="${MODEL}" hardware="${HARDWARE}"></throughput-calculator></body></html>`,
  }));
  await wpage.goto(url);
  await wpage.waitForFunction(() => document.querySelector('#w')?.report);
  assert.deepEqual(await wpage.$eval('#w', (el) => [...el.shadowRoot.querySelectorAll('select[name=engine] option')].map((o) => o.value)), engines.map((e) => e.name));
  for (const [i, e] of engines.entries()) {
    if (i % 2) await wpage.$eval('#w', (el, name) => el.setAttribute('engine', name), e.name);
    else await wpage.locator('#w').locator('select[name=engine]').selectOption(e.name);
    await wpage.waitForFunction((name) => document.querySelector('#w').report.config.engine === name, e.name);
    const report = await wpage.$eval('#w', (el) => el.report);
    const want = await H.evaluate({ model: MODEL, hardware: HARDWARE, ...(i ? { engine: e.name } : {}), sweep: { points: 96 } });
    assert.equal(report.kv_cache.capacity_tokens, want.kv_cache.capacity_tokens, `widget, ${e.name}`);
    assert.equal(report.decode.tokens_per_s, want.decode.tokens_per_s, `widget, ${e.name}`);
    const kv = await wpage.$eval('#w', (el) => el.shadowRoot.querySelector('[data-w="kv"]').textContent);
    assert.ok(kv.includes(`holds ${fmt.int(want.kv_cache.capacity_tokens)} tokens`), kv);
    const link = new URL(await wpage.$eval('#w', (el) => el.shadowRoot.querySelector('a.open').href));
    assert.equal(link.searchParams.get('engine'), i ? e.name : null, 'the link opens the page on the same engine');
    widgetShown[e.name] = report;
  }

  // All three agree on the KV pool and on the utilization it comes from.
  for (const e of engines) {
    const alone = await independent(e.name);
    for (const [who, r] of [['page', pageShown[e.name]], ['widget', widgetShown[e.name]]]) {
      assert.equal(r.config.gpu_memory_utilization, utilizationHere(e), `${who}, ${e.name}`);
      assert.equal(r.memory.kv_cache_bytes, alone.memory.kv_cache_bytes, `${who}, ${e.name}`);
      assert.equal(r.kv_cache.capacity_tokens, alone.kv_cache.capacity_tokens, `${who}, ${e.name}`);
    }
  }
  assert.notEqual(pageShown.lmdeploy.kv_cache.capacity_tokens, pageShown.vllm.kv_cache.capacity_tokens);
  assert.deepEqual(b.errors, []);
  assert.deepEqual(w.errors, []);
});
