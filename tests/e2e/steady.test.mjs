// The steady state under the workload (report.serving, docs/MODEL.md
// section 5b) on the page and in the widget, in headless Chromium: shown
// when the workload gives a concurrency or a request rate, apart from the
// pure decode step, and hidden otherwise. The expected texts are computed
// from the engine's report for the same request, evaluated in node, with
// the page's own formatting; which figures are shown is decided here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as H from './helpers.mjs';
import * as fmt from '../../www/ui/format.js';
import { figure } from '../../www/page/figures.js';

// The server's base URL and one browser for every test of this file.
let base;
let b;
before(async () => { [base, b] = await Promise.all([H.baseURL(), H.launch()]); });
after(() => b?.close());

const SERVING_KEYS = ['serving.load', 'serving.tpot_ms', 'serving.ttft_ms', 'serving.itl_ms', 'serving.e2e_ms', 'serving.output_tokens_per_s',
  'serving.total_tokens_per_s', 'serving.requests_per_s', 'serving.tokens_per_s_per_user', 'serving.decode_batch', 'serving.decode_step_ms',
  'serving.conditions', 'range.serving.tpot_ms', 'range.serving.ttft_ms', 'range.serving.e2e_ms', 'range.serving.output_tokens_per_s'];

test('the page: a steady-state panel under a concurrency, apart from the pure decode step; none without a load', async () => {
  const { page } = b;
  await page.goto(new URL('?load=concurrency&concurrency=64', base).href);
  await H.ready(page);
  const want = await H.chartReport(H.request({ workload: { concurrency: 64 } }));
  const s = want.serving;
  assert.ok(s, 'the engine gives a steady state for 64 users');
  assert.equal(await page.isVisible('#serving-panel'), true);
  const shown = await H.shownFigures(page);
  for (const k of SERVING_KEYS) assert.equal(shown[k], figure(k, want), k);
  // The figures are the steady state's, and the decode card keeps the pure step at the same batch.
  assert.equal(shown['serving.tpot_ms'], fmt.ms(s.tpot_ms));
  assert.equal(shown['serving.output_tokens_per_s'], fmt.tokS(s.output_tokens_per_s));
  assert.equal(shown['decode.step_time_ms'], fmt.ms(want.decode.step_time_ms));
  assert.ok(s.tpot_ms > want.decode.step_time_ms, 'prompts sharing the steps lengthen TPOT');
  assert.match(await page.textContent('#serving-title'), /^Steady state under this workload at concurrency 64$/);
  assert.equal(await page.textContent('[data-verdict=headline]'), `Fits: 64 concurrent requests of 1,024 + 256 tokens (room for ${fmt.int(want.preemption.onset_concurrency_lockstep)}); ` +
    `steady state at concurrency 64: ${fmt.tokS(s.output_tokens_per_s)}, TPOT ${fmt.ms(s.tpot_ms)}, TTFT ${fmt.ms(s.ttft_ms)}`);
  // The cost card prices the steady state.
  assert.equal(shown['cost.tokens_per_s'], fmt.tokS(s.output_tokens_per_s));
  await H.screenshot(page.locator('#serving-panel'), 'steady-state-panel.png');

  // Back to the batch ceiling: no load, no steady state.
  await page.check('input[name=load][value=ceiling]');
  await page.waitForFunction(() => document.querySelector('#serving-panel').hidden);
  assert.equal(await page.isVisible('#serving-panel'), false);
  // A request rate: the panel again, at that rate.
  await page.check('input[name=load][value=rate]');
  await page.fill('#f-request_rate', '5');
  await page.waitForFunction(() => !document.querySelector('#serving-panel').hidden && document.querySelector('[data-v="serving.load"]').textContent === 'at 5 req/s');
  const rate = await H.chartReport(H.request({ workload: { request_rate: 5 } }));
  assert.equal(rate.serving.requests_per_s, 5);
  assert.equal(await page.textContent('[data-v="serving.requests_per_s"]'), '5 req/s');
  assert.equal(await page.textContent('[data-v="serving.output_tokens_per_s"]'), fmt.tokS(5 * 256));
  assert.equal(await page.textContent('[data-v="serving.tpot_ms"]'), fmt.ms(rate.serving.tpot_ms));
  assert.deepEqual(b.errors, []);
});

test('the comparison: steady-state rows under a load', async () => {
  const { page } = b;
  await page.goto(new URL('?load=concurrency&concurrency=64&2.hardware=l40s&2.load=concurrency&2.concurrency=64', base).href);
  await H.ready(page);
  const [h100, l40s] = [await H.evaluate(H.request({ workload: { concurrency: 64 } })), await H.evaluate(H.request({ hardware: 'l40s', workload: { concurrency: 64 } }))];
  const rows = await page.$$eval('#compare-table tbody tr', (trs) => Object.fromEntries(trs.map((tr) => [tr.querySelector('th').textContent, [...tr.querySelectorAll('td')].map((td) => td.firstChild.textContent)])));
  assert.deepEqual(rows['Steady state'], [fmt.tokS(h100.serving.output_tokens_per_s), fmt.tokS(l40s.serving.output_tokens_per_s)]);
  assert.deepEqual(rows.TPOT, [fmt.ms(h100.serving.tpot_ms), fmt.ms(l40s.serving.tpot_ms)]);
  assert.deepEqual(rows.TTFT, [fmt.ms(h100.serving.ttft_ms), fmt.ms(l40s.serving.ttft_ms)]);
});

test('the widget: concurrency shows the steady state beside the pure decode step', async () => {
  const { page } = b;
  const url = new URL('/__steady.html', base).href;
  await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bare</title>
<script type="module" src="/widget.js"></script></head><body><throughput-calculator id="w" mode="compact" concurrency="64"></throughput-calculator></body></html>` }));
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector('#w')?.report);
  const want = await H.evaluate({ model: 'llama-3.1-8b', hardware: 'h100-sxm', workload: { concurrency: 64 }, sweep: { points: 96 } });
  const s = want.serving;
  const shown = await page.$eval('#w', (el) => ({
    hidden: el.shadowRoot.querySelector('[data-w-steady]').hidden,
    ...Object.fromEntries([...el.shadowRoot.querySelectorAll('[data-w]')].map((e) => [e.dataset.w, e.textContent])),
    link: el.shadowRoot.querySelector('a.open').href,
  }));
  assert.equal(shown.hidden, false);
  assert.equal(shown['steady.title'], 'Steady state at concurrency 64');
  assert.equal(shown['steady.agg'], fmt.tokS(s.output_tokens_per_s));
  assert.equal(shown['steady.tpot'], `${fmt.ms(s.tpot_ms)} ${fmt.range(want, 'serving.tpot_ms', fmt.ms)}`.trimEnd());
  assert.equal(shown['steady.ttft'], `${fmt.ms(s.ttft_ms)} ${fmt.range(want, 'serving.ttft_ms', fmt.ms)}`.trimEnd());
  assert.equal(shown['steady.rps'], fmt.reqS(s.requests_per_s));
  assert.equal(shown['many.title'], 'Pure decode step at batch 64');
  assert.equal(shown['many.agg'], fmt.tokS(want.decode.tokens_per_s));
  assert.match(shown.link, /[?&]concurrency=64(&|$)/);
  assert.match(shown.link, /[?&]load=concurrency(&|$)/);
  await H.screenshot(page.locator('#w'), 'widget-steady.png');
  // Without the attribute the steady state is hidden.
  await page.$eval('#w', (el) => el.removeAttribute('concurrency'));
  await page.waitForFunction(() => !document.querySelector('#w').report.serving);
  assert.equal(await page.$eval('#w', (el) => el.shadowRoot.querySelector('[data-w-steady]').hidden), true);
  assert.deepEqual(b.errors, []);
});
