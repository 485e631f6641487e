// The page's planning view in headless Chromium: enter a workload and a
// budget, read the winner, open it in the calculator and see the same
// figures there. The expected plan is calc.Plan's for the same request,
// run here in node through the JavaScript module's planner build.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import * as H from './helpers.mjs';
import { ms, usd } from '../../www/ui/format.js';

let b;
let base;
let planner;

before(async () => {
  base = await H.baseURL();
  b = await H.launch();
  const mod = await import(path.join(H.ROOT, 'build', 'npm', 'throughput.js'));
  planner = await mod.load({ planner: true });
});
after(async () => {
  planner?.close();
  await b?.close();
});

test('plan a workload, open the winner in the calculator, see the same figures', async () => {
  const { page, errors } = b;
  await page.goto(new URL('?view=plan', base).href);
  await page.waitForSelector('#planner:not([hidden])');
  await page.fill('#plan-model', 'llama-3.1-8b');
  await page.selectOption('#plan-load', 'rate');
  await page.fill('#plan-rate', '12');
  await page.fill('#plan-input', '1024');
  await page.fill('#plan-output', '256');
  await page.fill('#plan-ttft', '800');
  await page.fill('#plan-tpot', '40');
  await page.fill('#plan-accelerators', 'h100-sxm-80gb, l40s, a100-sxm-80gb');
  await page.click('#plan-run');
  await page.waitForSelector('#plan-table tbody tr', { timeout: 60000 });

  const want = planner.plan({
    model: 'llama-3.1-8b',
    workload: { request_rate: 12, input_tokens: 1024, output_tokens: 256 },
    slo: { ttft_ms: 800, tpot_ms: 40 },
    constraints: { accelerators: ['h100-sxm-80gb', 'l40s', 'a100-sxm-80gb'] },
  });
  assert.equal(await page.textContent('#plan-answer'), want.answer);
  const winner = want.deployments[want.cheapest];
  const row = page.locator('#plan-table tbody tr').first();
  assert.equal(await row.locator('[data-v=tpot_ms]').textContent(), ms(winner.tpot_ms));
  assert.equal(await row.locator('[data-v=usd_per_million_output_tokens]').textContent(), usd(winner.usd_per_million_output_tokens));
  // The URL holds the question.
  assert.match(page.url(), /plan\.rate=12/);

  // Open the winner in the calculator: its steady state under the
  // replica's share of the load (docs/MODEL.md section 5b) has the plan's
  // TPOT and TTFT, and the decode card keeps the pure step.
  await row.locator('a.plan-open').click();
  await H.ready(page);
  await page.waitForFunction(() => !document.querySelector('main.layout').hidden);
  const rep = await H.evaluate(winner.evaluate);
  assert.ok(Math.abs(rep.serving.request_rate * winner.replicas - 12) < 1e-9, '12 req/s over the replicas');
  const shown = await H.shownFigures(page);
  assert.equal(await page.isVisible('#serving-panel'), true);
  assert.equal(shown['serving.tpot_ms'], ms(winner.tpot_ms));
  assert.equal(shown['serving.ttft_ms'], ms(winner.ttft_ms));
  assert.equal(shown['decode.step_time_ms'], ms(rep.decode.step_time_ms));
  assert.deepEqual(errors, []);
});

test('the widget planning mode: <throughput-planner> answers as calc.Plan does', async () => {
  const { page, errors } = b;
  const url = new URL('/__planner.html', base).href;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>planner</title>
<script type="module" src="/widget.js"></script></head><body>
<throughput-planner model="llama-3.1-8b" request-rate="12" input-tokens="1024" output-tokens="256" ttft-ms="800" tpot-ms="40"
  accelerators="h100-sxm-80gb, l40s"></throughput-planner></body></html>`;
  await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector('throughput-planner')?.shadowRoot?.querySelector('table'), null, { timeout: 60000 });
  const answer = await page.evaluate(() => document.querySelector('throughput-planner').shadowRoot.querySelector('p').textContent);
  const want = planner.plan({
    model: 'llama-3.1-8b', workload: { request_rate: 12, input_tokens: 1024, output_tokens: 256 },
    slo: { ttft_ms: 800, tpot_ms: 40 }, constraints: { accelerators: ['h100-sxm-80gb', 'l40s'] }, limit: 3,
  });
  assert.equal(answer, want.answer);
  const code = await page.evaluate(() => document.querySelector('throughput-planner').shadowRoot.querySelector('code').textContent);
  assert.equal(code, want.deployments[want.cheapest].launch);
  assert.deepEqual(errors, []);
});
