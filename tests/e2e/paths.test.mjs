// The paths between the calculator's states and to the planner (issue 32),
// in headless Chromium: Back and Forward step through the calculator's
// states; "Plan a deployment" carries the model, the workload and the
// budgets into the planner's plan.* parameters (the planning view's own
// rendering is tests/e2e/plan.test.mjs's); an overloaded verdict states
// the replicas the rate needs and links to the planner with that rate;
// each nearest fix is a button that applies it; when overloaded every card
// says what the server delivers beside what was asked; nothing overflows a
// 390 px phone. Expected figures come from the engine's report for the same
// request, evaluated in node, and from arithmetic written out here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as H from './helpers.mjs';
import * as fmt from '../../www/ui/format.js';

// The server and one desktop browser for every test but the phone's.
let base, b;
before(async () => { [base, b] = await Promise.all([H.baseURL(), H.launch()]); });
after(() => b?.close());

/** The calculator at query, computed. */
const open = (query, page = b.page) => page.goto(new URL(query, base).href).then(() => H.ready(page)).then(() => page);

const params = (page) => page.evaluate(() => Object.fromEntries(new URLSearchParams(location.search)));
const waitURL = (page, fn, arg) => page.waitForFunction(fn, arg, { timeout: 15000 });
const text = (page, sel) => page.$eval(sel, (e) => e.textContent.replace(/\s+/g, ' ').trim());

test('Back and Forward step through the calculator\'s states', async () => {
  const page = await open('./');
  await page.selectOption('#f-hardware', 'a100-sxm-80gb');
  await waitURL(page, () => location.search.includes('hardware=a100-sxm-80gb'));
  await page.fill('#f-input_tokens', '2048');
  await page.locator('#f-input_tokens').blur(); // the change event commits the edit
  await waitURL(page, () => location.search.includes('input_tokens=2048'));
  await page.waitForFunction(() => document.querySelector('#report-conditions').textContent.includes('2,048 input'));

  await page.goBack();
  await waitURL(page, () => !location.search.includes('input_tokens='));
  assert.equal((await params(page)).hardware, 'a100-sxm-80gb');
  assert.equal(await page.inputValue('#f-input_tokens'), '1024');
  await page.waitForFunction(() => document.querySelector('#report-conditions').textContent.includes('1,024 input'));

  await page.goBack();
  await waitURL(page, () => !location.search.includes('hardware='));
  assert.equal(await page.inputValue('#f-hardware'), 'h100-sxm-80gb');
  await page.waitForFunction(() => document.querySelector('#report-conditions').textContent.includes('H100'));

  await page.goForward();
  await waitURL(page, () => location.search.includes('hardware=a100-sxm-80gb'));
  assert.equal(await page.inputValue('#f-hardware'), 'a100-sxm-80gb');
  assert.equal(await page.inputValue('#f-input_tokens'), '1024');
});

test('"Plan a deployment" carries the model, the workload and the budgets', async () => {
  const calc = '?model=llama-3.1-70b&tensor_parallel_size=2&load=rate&request_rate=3&input_tokens=2000&output_tokens=300&ttft_ms=800&tpot_ms=40';
  const page = await open(calc);
  // What the link carries (the planner may drop a value equal to its own default once it runs: plan.js).
  await waitURL(page, () => document.querySelector('#open-plan').getAttribute('href').includes('plan.model=llama-3.1-70b'));
  const href = Object.fromEntries(new URL(await page.getAttribute('#open-plan', 'href'), base).searchParams);
  assert.deepEqual(href, { view: 'plan', 'plan.model': 'llama-3.1-70b', 'plan.load': 'rate', 'plan.rate': '3', 'plan.input': '2000', 'plan.output': '300', 'plan.ttft': '800', 'plan.tpot': '40' });
  await page.click('#open-plan');
  await waitURL(page, () => new URLSearchParams(location.search).get('view') === 'plan');
  const q = await params(page);
  assert.equal(q['plan.model'], 'llama-3.1-70b');
  assert.equal(q['plan.load'] ?? 'rate', 'rate');
  assert.equal(q['plan.rate'], '3');
  assert.equal(q['plan.input'], '2000');
  assert.equal(q['plan.output'], '300');
  assert.equal(q['plan.ttft'], '800');
  assert.equal(q['plan.tpot'], '40');
  // Back returns to the calculator's state.
  await page.goBack();
  await waitURL(page, () => new URLSearchParams(location.search).get('model') === 'llama-3.1-70b' && !location.search.includes('view=plan'));
  await H.ready(page);
  assert.equal(await page.inputValue('#f-request_rate'), '3');

  // Users instead of a rate: plan.load=users with their number.
  await open('?load=concurrency&concurrency=32');
  await page.click('#open-plan');
  await waitURL(page, () => new URLSearchParams(location.search).get('view') === 'plan');
  const u = await params(page);
  assert.deepEqual([u['plan.model'], u['plan.load'], u['plan.users'], u['plan.rate']], ['llama-3.1-8b', 'users', '32', undefined]);
});

test('overloaded: the replicas the rate needs, the planner link with that rate, and every card says what it delivers', async () => {
  const page = await open('?load=rate&request_rate=40');
  const want = await H.chartReport(H.request({ workload: { request_rate: 40 } }));
  const sat = want.preemption.saturation_request_rate;
  const s = want.serving;
  assert.ok(sat < 40 && s.saturated);
  // By hand: the replicas are ceil(40 / the saturation rate); the rate
  // asks 40 × 256 output tokens a second.
  const n = Math.ceil(40 / sat);
  const asked = 40 * 256;
  assert.equal(await page.getAttribute('#verdict', 'data-state'), 'overloaded');
  assert.match(await text(page, '[data-verdict=headline]'), new RegExp(`; needs ${n} replicas$`));
  const lines = await page.$$eval('[data-verdict=lines] li', (l) => l.map((x) => x.textContent));
  assert.ok(lines.includes(`Needs ${n} replicas for 40 req/s: ⌈40 / ${fmt.rate(sat)}⌉ = ${n}, each then taking ${fmt.reqS(40 / n)}.`), lines.join(' | '));
  assert.ok(lines.some((l) => l.includes(`it delivers ${fmt.tokS(s.output_tokens_per_s)} of the ${fmt.tokS(asked)} asked`)), lines.join(' | '));
  // Every card: delivered beside asked, the one saturation figure.
  const shown = await H.shownFigures(page);
  assert.equal(shown['serving.output_tokens_per_s'], `${fmt.tokS(s.output_tokens_per_s)} of ${fmt.tokS(asked)} asked`);
  assert.equal(shown['serving.requests_per_s'], `${fmt.reqS(sat)} of 40 req/s asked`);
  assert.equal(shown['preemption.saturation_request_rate'], fmt.reqS(sat));
  assert.ok(shown['prefill.conditions'].endsWith('; overloaded: at 40 req/s the queue, and the TTFT, grow without bound'), shown['prefill.conditions']);
  for (const k of ['decode.conditions', 'cost.conditions', 'best.conditions']) assert.ok(shown[k].includes(`delivers ${fmt.tokS(s.output_tokens_per_s)} at its ${fmt.reqS(sat)} of the ${fmt.tokS(asked)}`), `${k}: ${shown[k]}`);
  // One saturation figure: no other req/s figure for what it completes.
  const body = await text(page, 'main');
  assert.ok(!body.includes(fmt.reqS(s.requests_per_s)) || fmt.reqS(s.requests_per_s) === fmt.reqS(sat), 'the steady state\'s own completion rate is not shown beside the saturation rate');

  // The planner link: the rate filled in.
  const link = page.locator('#verdict a.plan-link');
  assert.equal(await link.textContent(), `Plan ${n} replicas for 40 req/s in the planner`);
  await link.click();
  await waitURL(page, () => new URLSearchParams(location.search).get('view') === 'plan');
  const q = await params(page);
  assert.deepEqual([q['plan.model'], q['plan.load'] ?? 'rate', q['plan.rate'], q['plan.input'], q['plan.output']], ['llama-3.1-8b', 'rate', '40', '1024', '256']);
});

test('overloaded with speculative decoding: the feature\'s figure at the workload says what the server delivers', async () => {
  const page = await open('?load=rate&request_rate=40&spec_method=ngram&spec_tokens=3&spec_acceptance=0.7');
  const want = await H.chartReport(H.request({ workload: { request_rate: 40 }, speculative_config: { method: 'ngram', num_speculative_tokens: 3, acceptance_rate: 0.7 } }));
  assert.ok(want.serving.saturated && want.preemption.utilization > 1);
  await page.waitForSelector('#features [data-feature=speculative]');
  const at = await page.$$eval('#features [data-feature=speculative] dl > div', (rows) => rows.map((r) => [r.querySelector('dt').textContent, r.querySelector('dd').textContent]).find(([k]) => k === 'At the workload')?.[1]);
  // By hand: 40 req/s ask 40 × 256 output tokens a second.
  assert.ok(at.endsWith(`; overloaded: it delivers ${fmt.tokS(want.serving.output_tokens_per_s)} of the ${fmt.tokS(40 * 256)} asked`), at);
});

test('request rates are written for people: three significant digits', async () => {
  const page = await open('?load=rate&request_rate=33.33333');
  await page.waitForFunction(() => document.querySelector('#verdict').dataset.state === 'overloaded');
  const body = await text(page, 'body');
  assert.ok(body.includes('33.3 req/s arrive'), body.slice(0, 400));
  assert.ok(!/\d\.\d{4,} req\/s/.test(body), body.match(/\S+ req\/s/g)?.join(' '));
});

test('the nearest fixes are buttons, ranked by the budget and the price, and apply', async () => {
  // Llama 3.1 70B in fp8 on one H100 at the page's budgets (TPOT ≤ 50 ms):
  // calc/evaluate/fixes_test.go derives the ranking by hand (a GH200 144GB
  // first; a GB10 holds it but its 273 GB/s miss the budget).
  const page = await open('?model=llama-3.1-70b&quantization=fp8');
  const want = await H.evaluate(H.request({ model: 'llama-3.1-70b', quantization: 'fp8' }));
  assert.equal(want.fits, false);
  const buttons = await page.$$eval('#verdict button.fix', (bs) => bs.map((x) => ({ text: x.textContent, field: x.dataset.fixField, value: x.dataset.fixValue })));
  assert.deepEqual(buttons.map((x) => x.text), want.fixes.map((f) => f.summary));
  assert.ok(buttons.every((x) => x.value !== 'gb10'), JSON.stringify(buttons));
  assert.equal(buttons[0].value, 'gh200-144gb');
  await page.click('#verdict button.fix >> nth=0');
  await waitURL(page, () => location.search.includes('hardware=gh200-144gb'));
  await page.waitForFunction(() => document.querySelector('#verdict').dataset.state !== 'wont_start');
  assert.equal(await page.inputValue('#f-hardware'), 'gh200-144gb');
  // The fix is a history entry of its own.
  await page.goBack();
  await waitURL(page, () => !location.search.includes('hardware='));
  await page.waitForFunction(() => document.querySelector('#verdict').dataset.state === 'wont_start');

  // A TP fix applies the same way.
  const tp = await page.$$eval('#verdict button.fix', (bs) => bs.findIndex((x) => x.dataset.fixField === 'tensor_parallel_size'));
  assert.ok(tp >= 0);
  await page.click(`#verdict button.fix >> nth=${tp}`);
  await waitURL(page, () => location.search.includes('tensor_parallel_size=2'));
  assert.equal(await page.inputValue('#f-tensor_parallel_size'), '2');
});

test('no horizontal overflow at 390 px on the calculator page', async () => {
  const phone = await H.launch({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    for (const q of ['./', '?load=rate&request_rate=40', '?model=llama-3.1-70b&quantization=fp8', '?model=llama-3.1-70b']) {
      const page = await open(q, phone.page);
      const { sw, w } = await page.evaluate(() => ({ sw: document.scrollingElement.scrollWidth, w: innerWidth }));
      assert.ok(sw <= w, `${q}: ${sw} px wide at ${w}`);
    }
  } finally {
    await phone.close();
  }
});
