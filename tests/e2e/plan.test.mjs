// The page's planning view in headless Chromium: enter a workload and a
// budget, read the winner, open it in the calculator and see the same
// figures there; the form's load fields and price fields; the rows with
// identical figures collapsed and the rejections grouped; Cancel; Back and
// Forward between the views and between plans. The expected plan is
// calc.Plan's for the same request, run here in node through the
// JavaScript module's planner build. The layout at desktop and phone
// widths, light and dark, is in plan-layout.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import * as H from './helpers.mjs';
import { ms, usd, int } from '../../www/ui/format.js';
import { plainMessage } from '../../www/page/plan-model.js';

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

/** Waits for the view's next answer after fn (the results' data-run counter moves). */
async function answered(page, fn) {
  const before = await page.getAttribute('#plan-results', 'data-run');
  await fn();
  await page.waitForFunction((n) => (document.getElementById('plan-results').dataset.run ?? null) !== n, before, { timeout: 90000 });
}

/** Ticks the accelerators' boxes (the picker's vendor groups). */
async function pickAccelerators(page, ids) {
  await page.waitForSelector('#plan-acc-groups input', { state: 'attached', timeout: 90000 });
  await page.click('#plan-acc > summary');
  for (const id of ids) await page.check(`#plan-acc-groups input[value="${id}"]`);
  await page.click('#plan-acc > summary');
}

test('plan a workload, open the winner in the calculator, see the same figures', async () => {
  const { page, errors } = b;
  await page.goto(new URL('?view=plan', base).href);
  await page.waitForSelector('#planner:not([hidden])');
  await page.fill('#plan-model', 'llama-3.1-8b');
  await page.check('#plan-load-rate');
  await page.fill('#plan-rate', '12');
  await page.fill('#plan-input', '1024');
  await page.fill('#plan-output', '256');
  await page.fill('#plan-ttft', '800');
  await page.fill('#plan-tpot', '40');
  await pickAccelerators(page, ['h100-sxm-80gb', 'l40s', 'a100-sxm-80gb']);
  await answered(page, () => page.click('#plan-run'));

  const want = planner.plan({
    model: 'llama-3.1-8b',
    workload: { request_rate: 12, input_tokens: 1024, output_tokens: 256 },
    slo: { ttft_ms: 800, tpot_ms: 40 },
    constraints: { accelerators: ['h100-sxm-80gb', 'l40s', 'a100-sxm-80gb'] },
  });
  assert.equal(await page.textContent('#plan-answer'), want.answer);
  const winner = want.deployments[want.cheapest];
  // The verdict line: GPUs, split, $/M output tokens, TPOT and the
  // simulator's mean TPOT of the same deployment (verify's default).
  const name = winner.accelerator_name.replace(/^NVIDIA /, '');
  const split = `TP ${winner.tensor_parallel_size} × ${winner.replicas} replica${winner.replicas === 1 ? '' : 's'}`;
  assert.equal(await page.textContent('#plan-verdict-line'),
    `${int(winner.num_gpus)}× ${name}, ${split}, ${usd(winner.usd_per_million_output_tokens)}/M output tokens, TPOT ${ms(winner.tpot_ms)} (simulated ${ms(winner.simulated.tpot_ms.mean)})`);
  const row = page.locator('#plan-table tbody tr').first();
  assert.equal(await row.locator('[data-v=tpot_ms]').textContent(), ms(winner.tpot_ms));
  assert.equal(await row.locator('[data-v=usd_per_million_output_tokens]').textContent(), usd(winner.usd_per_million_output_tokens));
  assert.equal(await page.textContent('#plan-launch'), winner.launch);
  // Copy puts the command on the clipboard.
  await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(base).origin });
  await page.click('#plan-copy');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), winner.launch);
  // Each frontier point has a tooltip: its label and figures.
  const point = want.frontier[0]; // drawn first (plan-chart.js draws the frontier in its order)
  await page.locator('#plan-frontier circle').first().hover();
  assert.equal(await page.isVisible('#plan-tip'), true);
  assert.ok((await page.textContent('#plan-tip')).startsWith(`${point.label}: `));
  // The URL holds the question.
  assert.match(page.url(), /plan\.rate=12/);
  const ids = new URL(page.url()).searchParams.get('plan.accelerators').split(',').map((s) => s.trim());
  assert.deepEqual(ids.sort(), ['a100-sxm-80gb', 'h100-sxm-80gb', 'l40s']);

  // Open the winner in the calculator: its steady state under the
  // replica's share of the load (docs/MODEL.md section 5b) has the plan's
  // TPOT and TTFT, and the decode card keeps the pure step.
  await row.locator('a.plan-open').click();
  await H.ready(page);
  await page.waitForFunction(() => !document.querySelector('main.layout').hidden);
  await page.waitForFunction((tpot) => document.querySelector('#report [data-v="serving.tpot_ms"]')?.textContent === tpot, ms(winner.tpot_ms), { timeout: 30000 });
  const rep = await H.evaluate(winner.evaluate);
  assert.ok(Math.abs(rep.serving.request_rate * winner.replicas - 12) < 1e-9, '12 req/s over the replicas');
  const shown = await H.shownFigures(page);
  assert.equal(await page.isVisible('#serving-panel'), true);
  assert.equal(shown['serving.tpot_ms'], ms(winner.tpot_ms));
  assert.equal(shown['serving.ttft_ms'], ms(winner.ttft_ms));
  assert.equal(shown['decode.step_time_ms'], ms(rep.decode.step_time_ms));
  // Back: the plan as it was, drawn again without planning.
  await answered(page, () => page.goBack());
  assert.equal(await page.isVisible('#planner'), true);
  assert.equal(await page.textContent('#plan-answer'), want.answer);
  assert.deepEqual(errors, []);
});

test('the load fields not in use are disabled; each selected accelerator has a price field from the one table', async () => {
  const { page, errors } = b;
  await page.goto(new URL('?view=plan', base).href);
  await page.waitForSelector('#planner:not([hidden])');
  const enabled = () => page.evaluate(() => ['rate', 'users', 'batch'].map((k) => !document.getElementById(`plan-${k}`).disabled));
  assert.deepEqual(await enabled(), [true, false, false]);
  await page.check('#plan-load-users');
  assert.deepEqual(await enabled(), [false, true, false]);
  await page.check('#plan-load-batch');
  assert.deepEqual(await enabled(), [false, false, true]);
  await page.check('#plan-load-rate');

  const table = planner.prices();
  await pickAccelerators(page, ['h100-sxm-80gb', 'mi300x']);
  for (const id of ['h100-sxm-80gb', 'mi300x']) {
    const input = page.locator(`#plan-price-${id}`);
    assert.equal(Number(await input.inputValue()), table[id].usd_per_gpu_hour);
    assert.ok((await input.getAttribute('title')).startsWith(`${table[id].source}, ${table[id].date}`));
  }
  // A price of one's own goes into the request (and the URL); the table's
  // does not.
  await page.fill('#plan-price-mi300x', '2.5');
  await answered(page, () => page.click('#plan-run'));
  assert.match(page.url(), /plan\.prices=mi300x%3D2\.5(&|$)/);
  const want = planner.plan({
    model: 'llama-3.1-8b', workload: { request_rate: 20, input_tokens: 2048, output_tokens: 500 }, slo: { ttft_ms: 1000, tpot_ms: 50 },
    constraints: { accelerators: ['h100-sxm-80gb', 'mi300x'], prices: { mi300x: 2.5 } },
  });
  assert.equal(await page.textContent('#plan-answer'), want.answer);
  assert.deepEqual(errors, []);
});

test('the whole catalog: identical rows collapse, rejections group by reason in words', async () => {
  const { page, errors } = b;
  await page.goto(new URL('?view=plan&plan.model=llama-3.1-8b', base).href);
  await page.waitForFunction(() => document.getElementById('plan-results').dataset.run, null, { timeout: 90000 });
  const want = planner.plan({ model: 'llama-3.1-8b', workload: { request_rate: 20, input_tokens: 2048, output_tokens: 500 }, slo: { ttft_ms: 1000, tpot_ms: 50 } });
  assert.equal(await page.textContent('#plan-answer'), want.answer);

  // Two deployments that differ only in their weight precision (and so
  // have the same speed and price) are one row naming both.
  const same = (a, c) => ['accelerator', 'engine', 'mode', 'tensor_parallel_size', 'pipeline_parallel_size', 'data_parallel_size', 'replicas', 'num_gpus', 'kv_cache_dtype',
    'usd_per_million_output_tokens', 'tokens_per_s_per_gpu', 'tokens_per_s_per_user', 'ttft_ms', 'tpot_ms', 'headroom'].every((k) => a[k] === c[k]);
  const twins = want.deployments.flatMap((a, i) => want.deployments.slice(i + 1).filter((c) => same(a, c) && a.quantization !== c.quantization).map((c) => [a, c]));
  assert.ok(twins.length > 0, 'the 8B plan has deployments that differ only in weight precision');
  const rows = await page.$$eval('#plan-table tbody tr', (trs) => trs.map((tr) => ({ rank: Number(tr.dataset.rank), weights: tr.querySelector('[data-v=weights]').textContent })));
  assert.ok(rows.length < want.deployments.length);
  for (const [a, c] of twins) {
    const row = rows.find((r) => r.rank === a.rank);
    assert.ok(row, `rank ${a.rank} has a row`);
    assert.ok(row.weights.split(' or ').includes(a.quantization) && row.weights.split(' or ').includes(c.quantization), `${row.weights} names ${a.quantization} and ${c.quantization}`);
    assert.ok(!rows.some((r) => r.rank === c.rank), `rank ${c.rank} is folded into rank ${a.rank}`);
  }

  // One collapsed line per reason, with the number of accelerators, and no
  // API field names.
  const counts = new Map();
  for (const x of want.rejections) counts.set(x.reason, (counts.get(x.reason) ?? 0) + 1);
  const groups = await page.$$eval('#plan-rejections details', (ds) => ds.map((d) => ({ reason: d.dataset.reason, open: d.open, summary: d.querySelector('summary').textContent, items: d.querySelectorAll('li').length })));
  assert.deepEqual(groups.map((g) => g.reason).sort(), [...counts.keys()].sort());
  for (const g of groups) {
    assert.equal(g.open, false);
    assert.equal(g.items, counts.get(g.reason));
    assert.ok(g.summary.startsWith(`${counts.get(g.reason)} accelerator`), g.summary);
    assert.doesNotMatch(g.summary, /constraints\.|_/);
  }
  const text = await page.textContent('#plan-rejections');
  assert.doesNotMatch(text, /constraints\.|max_gpus/);
  assert.deepEqual(errors, []);
});

test('Cancel stops a plan, and the next one runs', async () => {
  const { page, errors } = b;
  await page.goto(new URL('?view=plan', base).href);
  await page.waitForSelector('#plan-acc-groups input', { state: 'attached', timeout: 90000 });
  await page.fill('#plan-rate', '7');
  // Plan and Cancel in one task: the worker is stopped before it answers.
  await page.evaluate(() => { document.getElementById('plan-run').click(); document.getElementById('plan-cancel').click(); });
  assert.equal(await page.textContent('#plan-status'), 'Cancelled.');
  assert.equal(await page.isHidden('#plan-cancel'), true);
  assert.equal(await page.isHidden('#plan-progress'), true);
  assert.equal(await page.isEnabled('#plan-run'), true);
  await page.waitForTimeout(300);
  assert.equal(await page.isHidden('#plan-results'), true, 'no answer after Cancel');
  await answered(page, () => page.click('#plan-run'));
  assert.match(await page.textContent('#plan-verdict-line'), /output tokens, TPOT/);
  assert.deepEqual(errors, []);
});

test('Back and Forward move between the calculator and the plan view, and between plans', async () => {
  const { page, errors } = b;
  await page.goto(new URL('?load=rate&request_rate=6', base).href);
  await H.ready(page);
  // "Plan a deployment" (app.js fills its plan.* parameters): the
  // calculator's question, planned at once.
  await answered(page, () => page.click('#open-plan'));
  assert.equal(await page.isHidden('main.layout'), true);
  assert.equal(await page.inputValue('#plan-rate'), '6');
  const fromCalculator = await page.textContent('#plan-answer');
  // The calculator's header actions would plan, copy or export the
  // calculator, not this plan: hidden here.
  for (const id of ['#open-plan', '#copy-link', '#export-json']) assert.equal(await page.isHidden(id), true, id);
  await page.fill('#plan-rate', '12');
  await answered(page, () => page.click('#plan-run'));
  const first = await page.textContent('#plan-answer');
  await page.fill('#plan-rate', '40');
  await answered(page, () => page.click('#plan-run'));
  const second = await page.textContent('#plan-answer');
  assert.notEqual(first, second);

  // Back: the first plan, its question and its answer.
  await answered(page, () => page.goBack());
  assert.equal(await page.inputValue('#plan-rate'), '12');
  assert.equal(await page.textContent('#plan-answer'), first);
  // Back again: the calculator's question; once more: the calculator.
  await answered(page, () => page.goBack());
  assert.equal(await page.inputValue('#plan-rate'), '6');
  assert.equal(await page.textContent('#plan-answer'), fromCalculator);
  await page.goBack();
  await page.waitForSelector('main.layout:not([hidden])');
  assert.equal(await page.isHidden('#planner'), true);
  assert.equal(await page.isVisible('#copy-link'), true);
  assert.equal(await page.inputValue('#f-request_rate'), '6');
  // Forward twice: the first plan again.
  await answered(page, () => page.goForward());
  await answered(page, () => page.goForward());
  assert.equal(await page.inputValue('#plan-rate'), '12');
  assert.equal(await page.textContent('#plan-answer'), first);
  // "Back to the calculator": the calculator the view was opened from.
  await page.click('#plan-back');
  await page.waitForSelector('main.layout:not([hidden])');
  assert.doesNotMatch(page.url(), /view=plan/);
  assert.equal(new URL(page.url()).searchParams.get('request_rate'), '6');
  assert.equal(await page.inputValue('#f-request_rate'), '6');
  assert.deepEqual(errors, []);
});

test("the plan's warnings are under its verdict", async () => {
  const { page, errors } = b;
  // The planner's own reranking case (calc/planner TestPlanRerankedByTheSimulator):
  // the simulator refutes the cheapest MI325X shapes.
  await page.goto(new URL('?view=plan&plan.model=llama-3.1-70b&plan.rate=5&plan.input=4096&plan.output=256&plan.ttft=500&plan.tpot=30&plan.accelerators=mi325x,mi300x', base).href);
  await page.waitForFunction(() => document.getElementById('plan-results').dataset.run, null, { timeout: 90000 });
  const want = planner.plan({
    model: 'llama-3.1-70b', workload: { request_rate: 5, input_tokens: 4096, output_tokens: 256 }, slo: { ttft_ms: 500, tpot_ms: 30 },
    constraints: { accelerators: ['mi325x', 'mi300x'] },
  });
  assert.ok(want.warnings.some((w) => w.code === 'verify_reranked'));
  assert.deepEqual(await page.$$eval('#plan-warnings li', (li) => li.map((x) => x.textContent)), want.warnings.map((w) => plainMessage(w.message)));
  assert.deepEqual(errors, []);
});

test('Back while a plan runs shows the last answer; Forward shows the new one once it is done', async () => {
  const { page, errors } = b;
  await page.goto(new URL('?view=plan&plan.rate=9&plan.model=llama-3.1-8b', base).href);
  await page.waitForFunction(() => document.getElementById('plan-results').dataset.run, null, { timeout: 90000 });
  const nine = await page.textContent('#plan-answer');
  await page.fill('#plan-rate', '31');
  await page.click('#plan-run');
  await answered(page, () => page.goBack()); // drawn from the view's answers, not planned again
  assert.equal(await page.inputValue('#plan-rate'), '9');
  assert.equal(await page.textContent('#plan-answer'), nine);
  assert.equal(await page.isEnabled('#plan-run'), true);
  await answered(page, () => page.goForward());
  assert.equal(await page.inputValue('#plan-rate'), '31');
  const want = planner.plan({ model: 'llama-3.1-8b', workload: { request_rate: 31, input_tokens: 2048, output_tokens: 500 }, slo: { ttft_ms: 1000, tpot_ms: 50 } });
  assert.equal(await page.textContent('#plan-answer'), want.answer);
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
