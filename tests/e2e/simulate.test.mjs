// The page's simulation section in headless Chromium: it runs only on its
// button, shows the figures of the report the module's evaluate returns
// for the same request (evaluated in the page context), draws the timeline
// and the load sweep, and marks its results stale when the inputs change.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as H from './helpers.mjs';
import * as fmt from '../../www/ui/format.js';
import { SIM_FIGURES, simFigure, simConditions } from '../../www/page/sim.js';

let b;
let base;

before(async () => {
  base = await H.baseURL();
  b = await H.launch();
});
after(async () => { await b?.close(); });

/** The simulation figures on the page: {key: text}. */
function shownSimFigures(page) {
  return page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#simulation [data-sim]')].map((e) => [e.dataset.sim, e.textContent])));
}

/** The report the page's module answers, in the page, for req. */
function evaluateInPage(page, req) {
  return page.evaluate(async (r) => {
    const m = await import('./throughput.js');
    const calc = await m.load({ planner: true }); // the full engine simulates
    return calc.evaluate(r);
  }, req);
}

async function run(page) {
  await Promise.all([
    page.evaluate(() => new Promise((resolve) => document.addEventListener('throughput:simulated', resolve, { once: true }))),
    page.click('#sim-run'),
  ]);
  await page.waitForSelector('#simulation-body:not([hidden])');
}

test('Run simulation shows the engine simulation and draws both charts', async () => {
  const { page } = b;
  await page.goto(base);
  await H.ready(page);
  assert.equal(await page.isHidden('#simulation-body'), true, 'nothing simulated before the button');
  assert.equal(await page.getAttribute('#sim-run', 'type'), 'submit');
  assert.equal(await page.textContent('label[for=sim-num_requests]'), 'Number of requests');

  await page.fill('#sim-num_requests', '300');
  await page.fill('#sim-request_rate', '20');
  await page.fill('#sim-seed', '3');
  await run(page);
  assert.match(await page.textContent('#sim-status'), /^Simulated in /);

  // The same request through the module, in the page context.
  const req = H.request({ simulate: { num_requests: 300, arrival: 'poisson', seed: 3, sweep: {}, request_rate: 20 } });
  const want = await evaluateInPage(page, req);
  const s = want.simulation;
  assert.equal(s.num_requests, 300);
  const shown = await shownSimFigures(page);
  assert.equal(shown.preemptions, fmt.int(s.preemptions), 'preemptions');
  assert.equal(shown.requests, `${fmt.int(s.completed_requests)} of ${fmt.int(s.num_requests)}`, 'requests');
  for (const key of Object.keys(SIM_FIGURES)) assert.equal(shown[key], simFigure(key, s), `figure ${key}`);
  assert.equal(await page.textContent('#sim-conditions'), simConditions(s));

  // Both charts: one path point per timeline bucket and per sweep load.
  const tl = await page.$$eval('#sim-timeline path.line', (ps) => ps.map((p) => p.getAttribute('d')));
  assert.equal(tl.length, 3);
  for (const d of tl) assert.equal(d.split('L').length, s.timeline.length);
  const sw = await page.$$eval('#sim-sweep path.line', (ps) => ps.map((p) => p.getAttribute('d')));
  assert.equal(sw.length, 2);
  for (const d of sw) assert.equal(d.split('L').length, s.sweep.points.length);
  const markers = await page.$$eval('#sim-sweep .marker text', (ts) => ts.map((t) => t.textContent));
  if (s.sweep.preemption_onset > 0) assert.ok(markers.some((t) => t.startsWith('preemption ')), markers.join());
  if (s.sweep.analytic_onset > 0) assert.ok(markers.some((t) => t.startsWith('analytic ')), markers.join());
  assert.equal(await page.getAttribute('#sim-figures', 'aria-live'), 'polite');
  assert.deepEqual(b.errors, []);
  await H.screenshot(page.locator('#simulation'), 'simulation.png');
});

test('changing an input marks the simulation stale and does not rerun it', async () => {
  const { page } = b;
  await page.goto(base);
  await H.ready(page);
  await page.selectOption('#sim-arrival', 'closed_loop');
  assert.equal(await page.isVisible('#sim-concurrency'), true);
  assert.equal(await page.isHidden('#sim-request_rate'), true);
  await page.fill('#sim-concurrency', '64');
  await page.fill('#sim-num_requests', '200');
  await run(page);
  const want = await evaluateInPage(page, H.request({ simulate: { num_requests: 200, arrival: 'closed_loop', seed: 0, sweep: {}, concurrency: 64 } }));
  const before = await shownSimFigures(page);
  assert.equal(before.preemptions, fmt.int(want.simulation.preemptions));
  assert.equal(before.requests, `${fmt.int(want.simulation.completed_requests)} of 200`);
  assert.equal(await page.$eval('#simulation-body', (e) => e.classList.contains('stale')), false);

  await page.fill('#f-input_tokens', '4096');
  await page.waitForSelector('#simulation-body.stale');
  assert.match(await page.textContent('#sim-status'), /Run the simulation again/);
  assert.deepEqual(await shownSimFigures(page), before, 'figures unchanged until the button');

  await run(page);
  assert.equal(await page.$eval('#simulation-body', (e) => e.classList.contains('stale')), false);
  const again = await evaluateInPage(page, H.request({ workload: { input_tokens: 4096 }, simulate: { num_requests: 200, arrival: 'closed_loop', seed: 0, sweep: {}, concurrency: 64 } }));
  assert.equal((await shownSimFigures(page)).preemptions, fmt.int(again.simulation.preemptions));
  assert.deepEqual(b.errors, []);
});

test('a simulation runs in a Web Worker: the page stays responsive and Cancel stops it', async () => {
  const { page } = b;
  await page.goto(base);
  await H.ready(page);
  // About 3e7 sequence-steps: over the HTTP API's budget, within the page's,
  // and a second or more of WebAssembly.
  await page.fill('#sim-num_requests', '100000');
  await page.fill('#sim-request_rate', '20');
  assert.equal(await page.isHidden('#sim-cancel'), true);
  const simulated = page.evaluate(() => new Promise((resolve) => document.addEventListener('throughput:simulated', resolve, { once: true })));
  await page.click('#sim-run');
  await page.waitForSelector('#sim-cancel:not([hidden])');
  assert.equal(await page.isDisabled('#sim-run'), true);
  // The main thread answers while the worker simulates.
  assert.equal(await page.evaluate(() => 1 + 1), 2);
  await page.click('#sim-cancel');
  await simulated;
  assert.equal(await page.textContent('#sim-status'), 'Simulation cancelled.');
  assert.equal(await page.isDisabled('#sim-run'), false);
  assert.equal(await page.isHidden('#sim-cancel'), true);

  // The next run starts a fresh worker and finishes.
  await page.fill('#sim-num_requests', '200');
  await run(page);
  assert.match(await page.textContent('#sim-status'), /^Simulated in /);
  assert.equal(await page.isHidden('#sim-cancel'), true);
});
