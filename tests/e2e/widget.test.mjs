// <throughput-calculator> on a bare HTML page (no page styles, one script
// tag), in both modes, and its fallback content when scripts are off.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as H from './helpers.mjs';
import * as fmt from '../../www/ui/format.js';

let base;
let b;
before(async () => { base = await H.baseURL(); b = await H.launch(); });
after(async () => { await b?.close(); });

const FALLBACK = '<a class="fallback" href="./">Open the LLM capacity calculator</a>';
const bare = (body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bare</title>
<script type="module" src="/widget.js"></script></head><body>${body}</body></html>`;

/** Serve html at a path of the test server's origin and open it. */
async function openBare(page, html) {
  const url = new URL('/__bare.html', base).href;
  await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await page.goto(url);
}

/** The widget's verdict line: badge and headline, without its details. */
const verdictText = (page, sel) => page.$eval(sel, (el) => {
  const v = el.shadowRoot.querySelector('[data-w-verdict]');
  return v.querySelector('.badge').textContent + v.querySelector('.vh').textContent;
});

/** Wait for an element's first report and return the texts of its figures. */
async function widgetFigures(page, sel) {
  await page.waitForFunction((s) => document.querySelector(s)?.report, sel);
  return page.$eval(sel, (el) => Object.fromEntries([...el.shadowRoot.querySelectorAll('[data-w]')].map((e) => [e.dataset.w, e.textContent])));
}

test('compact mode shows batch 1 against the large batch with the KV ceiling', async () => {
  const { page } = b;
  await openBare(page, bare(`<throughput-calculator id="w" model="llama-3.1-8b" hardware="h100-sxm" mode="compact" input-tokens="2000" output-tokens="500" kv-cache-dtype="fp8">${FALLBACK}</throughput-calculator>`));
  const shown = await widgetFigures(page, '#w');
  const want = await H.evaluate({ model: 'llama-3.1-8b', hardware: 'h100-sxm', kv_cache_dtype: 'fp8', workload: { input_tokens: 2000, output_tokens: 500 }, sweep: { points: 96 } });
  const one = want.sweep[0];
  assert.equal(one.batch_size, 1);
  assert.equal(shown['one.per'], fmt.tokS(one.tokens_per_s_per_sequence));
  assert.equal(shown['many.agg'], fmt.tokS(want.decode.tokens_per_s));
  assert.equal(shown['many.per'], fmt.tokS(want.decode.tokens_per_s_per_sequence));
  assert.ok(shown.kv.includes(`${fmt.int(want.preemption.onset_concurrency_lockstep)} sequences`), shown.kv);
  // The verdict line first: no budget, no load, so "fits" at the batch ceiling.
  const bc = want.batch_ceiling;
  assert.equal(await verdictText(page, '#w'), `Fits${`Fits: ${fmt.int(want.preemption.onset_concurrency_lockstep)} concurrent requests of 2,000 + 500 tokens; ` +
    `${fmt.tokS(bc.tokens_per_s)} at batch ${fmt.int(bc.batch_size)}, TPOT ${fmt.ms(bc.step_time_ms)}`}`);
  assert.equal(await page.$eval('#w', (el) => el.shadowRoot.querySelector('form')), null, 'compact has no form');
  // Fallback content is in the light DOM but not rendered.
  assert.equal(await page.isVisible('a.fallback'), false);
  assert.deepEqual(b.errors, []);
  await H.screenshot(page.locator('#w'), 'widget-compact.png');
});

test('full mode: its controls and attributes recompute', async () => {
  const { page } = b;
  await openBare(page, bare(`<main style="max-width:760px;margin:20px auto;font-family:sans-serif"><h1>Blog post</h1>
    <throughput-calculator id="w" model="qwen2.5-7b" hardware="l40s">${FALLBACK}</throughput-calculator></main>`));
  let shown = await widgetFigures(page, '#w');
  let want = await H.evaluate({ model: 'qwen2.5-7b', hardware: 'l40s', sweep: { points: 96 } });
  assert.equal(shown['many.agg'], fmt.tokS(want.decode.tokens_per_s));
  // The shadow form: tensor parallel 2.
  await page.locator('#w').locator('input[name="tensor-parallel-size"]').fill('2');
  assert.equal(await page.getAttribute('#w', 'tensor-parallel-size'), '2');
  await page.waitForFunction(() => document.querySelector('#w').report.config.tensor_parallel_size === 2);
  shown = await widgetFigures(page, '#w');
  want = await H.evaluate({ model: 'qwen2.5-7b', hardware: 'l40s', tensor_parallel_size: 2, sweep: { points: 96 } });
  assert.equal(shown['many.agg'], fmt.tokS(want.decode.tokens_per_s));
  // An attribute set by the host page.
  await page.$eval('#w', (el) => el.setAttribute('output-tokens', '1000'));
  await page.waitForFunction(() => document.querySelector('#w').report.config.output_tokens === 1000);
  // The engine release: vLLM 0.19 takes no CUDA-graph estimate from the pool.
  await page.$eval('#w', (el) => el.setAttribute('engine-version', '0.19'));
  await page.waitForFunction(() => document.querySelector('#w').report.config.engine_version === '0.19');
  assert.equal(await page.$eval('#w', (el) => el.report.memory.cuda_graph_bytes ?? 0), 0);
  assert.match(await page.$eval('#w', (el) => el.shadowRoot.querySelector('a.open').href), /engine_version=0\.19/);
  await page.$eval('#w', (el) => el.removeAttribute('engine-version'));
  await page.waitForFunction(() => document.querySelector('#w').report.config.engine_version !== '0.19');
  // An invalid attribute falls back to the default rather than failing.
  await page.$eval('#w', (el) => el.setAttribute('mode', 'nonsense'));
  assert.equal(await page.$eval('#w', (el) => el.mode), 'full');
  // An unknown model shows the engine's message inside the widget.
  await page.$eval('#w', (el) => el.setAttribute('model', 'no-such-model'));
  await page.waitForFunction(() => !document.querySelector('#w').shadowRoot.querySelector('.error').hidden);
  assert.match(await page.$eval('#w', (el) => el.shadowRoot.querySelector('.error').textContent), /^The calculator cannot answer: model: unknown model "no-such-model"/);
  // A clean message: no skeleton of figures, chart or verdict beside it.
  const visible = await page.$eval('#w', (el) => ['.title', '.verdict', '.trade', '.kv', '.chart'].filter((s) => el.shadowRoot.querySelector(s).getBoundingClientRect().height > 0));
  assert.deepEqual(visible, []);
  assert.equal(await page.$eval('#w', (el) => el.report), null);
  await H.screenshot(page.locator('#w'), 'widget-error.png');
  await page.$eval('#w', (el) => el.setAttribute('model', 'qwen2.5-7b'));
  await page.waitForFunction(() => document.querySelector('#w').shadowRoot.querySelector('.error').hidden);
  assert.match(await page.$eval('#w', (el) => el.shadowRoot.querySelector('a.open').href), /\?model=qwen2\.5-7b&hardware=l40s&tensor_parallel_size=2/);
  await H.screenshot(page.locator('#w'), 'widget-full.png');
});

test('a model that does not fit: the verdict says why, no empty figures', async () => {
  const { page } = b;
  await openBare(page, bare(`<throughput-calculator id="w" model="qwen3-30b-a3b" hardware="l40s" mode="compact">${FALLBACK}</throughput-calculator>`));
  await widgetFigures(page, '#w');
  const want = await H.evaluate({ model: 'qwen3-30b-a3b', hardware: 'l40s', sweep: { points: 96 } });
  const m = want.memory;
  const need = m.weights_bytes + m.activation_bytes + m.non_torch_bytes + (m.cuda_graph_bytes || 0); // by hand: what must fit before any KV cache
  assert.ok(need > m.requested_bytes);
  assert.equal(await verdictText(page, '#w'), `Won't startWon't start: weights need ${fmt.bytes(need)} of ${fmt.bytes(m.requested_bytes)} per GPU, ${fmt.bytes(need - m.requested_bytes)} short`);
  const visible = await page.$eval('#w', (el) => ['.trade', '.chart'].filter((s) => el.shadowRoot.querySelector(s).getBoundingClientRect().height > 0));
  assert.deepEqual(visible, []);
  await H.screenshot(page.locator('#w'), 'widget-wont-start.png');
});

test('the energy line: J/token is the GPUs\' watts over the output rate, from the same report', async () => {
  const { page } = b;
  await openBare(page, bare(`<throughput-calculator id="w" model="llama-3.1-8b" hardware="h100-sxm" mode="compact" tensor-parallel-size="2">${FALLBACK}</throughput-calculator>`));
  const shown = await widgetFigures(page, '#w');
  const want = await H.evaluate({ model: 'llama-3.1-8b', hardware: 'h100-sxm', tensor_parallel_size: 2, sweep: { points: 96 } });
  const en = want.energy;
  // By hand (docs/MODEL.md section 5c): energy per token = power per GPU x GPUs / output tokens per second, at the
  // cost section's operating point (no load: the batch ceiling here).
  const j = en.gpu_power_w * 2 / en.tokens_per_s;
  assert.equal(en.num_gpus, 2);
  assert.equal(en.tokens_per_s, want.cost.tokens_per_s);
  assert.ok(Math.abs(en.joules_per_output_token - j) < 1e-9 * j, `${en.joules_per_output_token} against ${j}`);
  const band = want.bands.find((x) => x.figure === 'energy.joules_per_output_token');
  assert.ok(band.low < j && j < band.high);
  assert.equal(shown.energy, `Energy: ${+j.toPrecision(3)} J/token (80 %: ${+band.low.toPrecision(3)}–${+band.high.toPrecision(3)} J/token${band.widened ? ', widened' : ''}), ` +
    `${fmt.int(en.gpu_power_w)} W per GPU of 700 W rated, 2 GPUs at ${fmt.tokS(en.tokens_per_s)} (batch ${fmt.int(want.cost.batch_size)}).`);
  // Under a load the operating point is the steady state's.
  await page.$eval('#w', (el) => el.setAttribute('concurrency', '32'));
  await page.waitForFunction(() => document.querySelector('#w').report?.serving);
  const steady = await H.evaluate({ model: 'llama-3.1-8b', hardware: 'h100-sxm', tensor_parallel_size: 2, workload: { concurrency: 32 }, sweep: { points: 96 } });
  const js = steady.energy.gpu_power_w * 2 / steady.serving.output_tokens_per_s;
  assert.match(await page.$eval('#w', (el) => el.shadowRoot.querySelector('[data-w=energy]').textContent),
    new RegExp(`^Energy: ${String(+js.toPrecision(3)).replace('.', '\\.')} J/token .* at ${fmt.tokS(steady.serving.output_tokens_per_s)} \\(concurrency 32\\)\\.$`));
  // Hidden with the figures when the request fails.
  await page.$eval('#w', (el) => el.setAttribute('model', 'no-such-model'));
  await page.waitForFunction(() => !document.querySelector('#w').report);
  assert.equal(await page.$eval('#w', (el) => el.shadowRoot.querySelector('[data-w=energy]').getBoundingClientRect().height), 0);
  assert.deepEqual(b.errors, []);
});

test('session attributes: the full engine\'s report.sessions, and the engine\'s field errors', async () => {
  const own = await H.launch();
  try {
    const requests = [];
    own.page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    await openBare(own.page, bare(`<throughput-calculator id="w" mode="compact" input-tokens="2000" output-tokens="300" turns="6" new-tokens="400" think-time-s="20" users="64">${FALLBACK}</throughput-calculator>`));
    const shown = await widgetFigures(own.page, '#w');
    const want = await H.evaluate({ model: 'llama-3.1-8b', hardware: 'h100-sxm', sweep: { points: 96 },
      workload: { input_tokens: 2000, output_tokens: 300, sessions: { turns: 6, new_tokens: 400, think_time_s: 20, users: 64 } } });
    const s = want.sessions;
    assert.deepEqual(await own.page.$eval('#w', (el) => el.report.sessions), s);
    assert.equal(shown['sessions.title'], 'Agentic sessions: 6 turns, 20 s think time, 64 users');
    assert.equal(shown['sessions.hit'], `${(100 * s.prefix_hit_rate).toFixed(1)}%`);
    assert.equal(shown['sessions.turn'], fmt.ms(s.turn_latency_ms));
    // Little's law by hand: 64 users, each session 6 turns and 5 think times of 20 s.
    const d = 6 * s.turn_latency_ms / 1000 + 5 * 20;
    assert.ok(Math.abs(s.session_rate - 64 / d) < 1e-6 * s.session_rate);
    assert.equal(shown['sessions.rates'], `${fmt.rate(s.turn_rate)} turns/s, ${fmt.rate(s.session_rate)} sessions/s; the cache spares ${fmt.tokS(s.prefill_tokens_saved_per_s)} of prefill`);
    // The light engine refuses sessions, so the element loaded the full one beside it.
    assert.ok(requests.includes('/throughput-planner.wasm'), requests.join(' '));
    await H.screenshot(own.page.locator('#w'), 'widget-sessions.png');
    // An invalid value is the engine's error, naming the field, as an unknown model's is.
    await own.page.$eval('#w', (el) => el.setAttribute('turns', '0'));
    await own.page.waitForFunction(() => !document.querySelector('#w').shadowRoot.querySelector('.error').hidden);
    assert.equal(await own.page.$eval('#w', (el) => el.shadowRoot.querySelector('.error').textContent),
      'The calculator cannot answer: workload.sessions.turns: must be at least 1, got 0');
    assert.equal(await own.page.$eval('#w', (el) => el.report), null);
    await own.page.$eval('#w', (el) => el.setAttribute('session-rate', '1'));
    await own.page.waitForFunction(() => document.querySelector('#w').shadowRoot.querySelector('.error').textContent.includes('not both'));
    assert.equal(await own.page.$eval('#w', (el) => el.shadowRoot.querySelector('.error').textContent),
      'The calculator cannot answer: workload.sessions.turns: must be at least 1, got 0; workload.sessions.users: give either session_rate or users, not both');
    // Without the session attributes the element is back on the light engine: no sessions section.
    await own.page.$eval('#w', (el) => { for (const a of ['turns', 'new-tokens', 'think-time-s', 'users', 'session-rate']) el.removeAttribute(a); });
    await own.page.waitForFunction(() => document.querySelector('#w').report);
    assert.equal(await own.page.$eval('#w', (el) => el.report.sessions), undefined);
    assert.equal(await own.page.$eval('#w', (el) => el.shadowRoot.querySelector('[data-w-sessions]').hidden), true);
    assert.deepEqual(own.errors, []);
  } finally {
    await own.close();
  }
});

test('/widget.js is self-contained: one script, then the engine and its model catalog beside it', async () => {
  const own = await H.launch();
  try {
    const requests = [];
    own.page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    await openBare(own.page, bare(`<throughput-calculator id="w" mode="compact">${FALLBACK}</throughput-calculator>`));
    await widgetFigures(own.page, '#w');
    assert.deepEqual(requests.filter((p) => p !== '/__bare.html').sort(), ['/catalog.json', '/throughput.wasm', '/widget.js']);
    // "Open in the calculator" points at the site's root, where widget.js lives.
    assert.equal(await own.page.$eval('#w', (el) => new URL(el.calculatorURL).pathname), '/');
    // calculator-url takes http(s) URLs only: javascript: and data: fall back to the default.
    const open = () => own.page.$eval('#w', (el) => el.shadowRoot.querySelector('a.open').href);
    for (const bad of ['javascript:alert(document.domain)//', 'data:text/html,<script>alert(1)</script>']) {
      await own.page.$eval('#w', (el) => el.setAttribute('calculator-url', 'https://calc.example/'));
      await own.page.waitForFunction(() => document.querySelector('#w').shadowRoot.querySelector('a.open').href.startsWith('https://calc.example/?'));
      await own.page.$eval('#w', (el, v) => el.setAttribute('calculator-url', v), bad);
      await own.page.waitForFunction(() => !document.querySelector('#w').shadowRoot.querySelector('a.open').href.startsWith('https://calc.example/'));
      const u = new URL(await open());
      assert.equal(u.origin + u.pathname, new URL('/', base).href, bad);
    }
    assert.deepEqual(own.errors, []);
  } finally {
    await own.close();
  }
});

test('the class module has no side effects; define() registers a tag once', async () => {
  const { page } = b;
  await openBare(page, '<!doctype html><title>x</title><p>empty</p>');
  const r = await page.evaluate(async () => {
    const { ThroughputCalculator } = await import('/throughput-calculator.js');
    const before = customElements.get('throughput-calculator');
    ThroughputCalculator.define('my-calc');
    ThroughputCalculator.define('my-calc');
    return { before: before === undefined, mine: customElements.get('my-calc') === ThroughputCalculator };
  });
  assert.deepEqual(r, { before: true, mine: true });
});

test('with scripts off, the fallback content shows', async () => {
  const off = await H.launch({ javaScriptEnabled: false });
  try {
    await openBare(off.page, bare(`<throughput-calculator model="llama-3.1-8b">${FALLBACK}</throughput-calculator>`));
    assert.equal(await off.page.isVisible('a.fallback'), true);
  } finally {
    await off.close();
  }
});
