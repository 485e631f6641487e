// The verdict first (issue 14): the four questions a new user asks, each
// answered by the line above everything, in headless Chromium. The expected
// texts are written here from the engine's report for the same request,
// evaluated in node, and from relations worked out by hand (what the
// weights need, what two GPUs cost an hour, the ceiling without the
// budget as the same request without one); never from what the page shows.
// Also: the phone layout (the verdict and the key figures above the form)
// and screenshots of every verdict state, desktop and phone, light and dark,
// under build/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as H from './helpers.mjs';
import * as fmt from '../../www/ui/format.js';

let b;
let base;

before(async () => {
  base = await H.baseURL();
  b = await H.launch();
});
after(async () => { await b?.close(); });

async function open(query) {
  const { page } = b;
  await page.goto(new URL(query, base).href);
  await H.ready(page);
  return page;
}

const text = (page, sel) => page.$eval(sel, (e) => e.textContent.replace(/\s+/g, ' ').trim());
/** The verdict's parts: {state, badge, headline, lines: [..], fixes: [..]}. */
const shownVerdict = (page) => page.$eval('#verdict', (v) => ({
  state: v.dataset.state,
  badge: v.querySelector('[data-verdict=badge]').textContent,
  headline: v.querySelector('[data-verdict=headline]').textContent,
  lines: [...v.querySelectorAll('[data-verdict=lines] li')].map((li) => li.textContent),
  fixes: [...v.querySelectorAll('[data-verdict=fixes] li')].map((li) => li.textContent),
}));

test('(a) Llama-3.1-70B on 2×H100, TP 2, 4k in / 1k out: won\'t start at 0.9', async () => {
  // At 0.9, set explicitly: the default release (0.33) starts at 0.92,
  // vLLM's default since 0.21 (PR #38284), where this one fits.
  const page = await open('?model=llama-3.1-70b&tensor_parallel_size=2&gpu_memory_utilization=0.9&input_tokens=4096&output_tokens=1024');
  const want = await H.evaluate(H.request({ model: 'llama-3.1-70b', tensor_parallel_size: 2, gpu_memory_utilization: 0.9, workload: { input_tokens: 4096, output_tokens: 1024 } }));
  // By hand: with vLLM's 1024 default sequences on an H100 the sampler's
  // profile tensors and the CUDA-graph estimate (102 graphs) join the
  // weights, and together they pass total × utilization: nothing is left
  // for the KV cache.
  const m = want.memory;
  const need = m.weights_bytes + m.activation_bytes + m.non_torch_bytes + (m.cuda_graph_bytes || 0);
  assert.equal(want.config.max_num_seqs, 1024);
  assert.ok(need > m.requested_bytes);
  const v = await shownVerdict(page);
  assert.equal(v.state, 'wont_start');
  assert.equal(v.badge, 'Won\'t start');
  // One figure for one quantity: the need, the memory available and the shortfall, each in fmt.bytes' one rounding.
  assert.equal(v.headline, `Won't start: weights need ${fmt.bytes(need)} of ${fmt.bytes(m.requested_bytes)} per GPU, ${fmt.bytes(need - m.requested_bytes)} short`);
  const fixes = want.fixes?.map((f) => f.summary);
  if (fixes?.length) assert.deepEqual(v.fixes, fixes);
  else assert.ok(v.fixes.length > 0, 'fixes named');
  // The figures the server would reach are shown as conditional, and the verdict is above them.
  const box = await page.$eval('#verdict', (e) => e.getBoundingClientRect().bottom);
  const cards = await page.$eval('#report .cards', (e) => e.getBoundingClientRect().top);
  assert.ok(box <= cards);

  // The fixes it names: max_model_len 8192 and, since vLLM 0.21 takes its
  // CUDA-graph estimate (1.5 GiB here) from the pool, gpu_memory_utilization
  // 0.95 start, and the answer is how many requests fit.
  await page.fill('#f-max_model_len', '8192');
  await page.fill('#f-gpu_memory_utilization', '0.95');
  await page.waitForFunction(() => document.querySelector('#verdict').dataset.state !== 'wont_start');
  const fixed = await H.evaluate(H.request({ model: 'llama-3.1-70b', tensor_parallel_size: 2, max_model_len: 8192, gpu_memory_utilization: 0.95, workload: { input_tokens: 4096, output_tokens: 1024 } }));
  const v2 = await shownVerdict(page);
  assert.match(v2.headline, new RegExp(`^Fits: ${fmt.int(fixed.preemption.onset_concurrency_lockstep)} concurrent requests of 4,096 \\+ 1,024 tokens`));
  assert.equal(await text(page, '[data-v="capacity.fit"]'), fmt.int(fixed.preemption.onset_concurrency_lockstep));
});

test('(b) Qwen3-30B-A3B on one L40S at $1.2/h: won\'t start, the memory bar shows the shortfall', async () => {
  const page = await open('?model=qwen3-30b-a3b&hardware=l40s&gpu_hour_usd=1.2');
  const want = await H.evaluate(H.request({ model: 'qwen3-30b-a3b', hardware: 'l40s', gpu_hour_usd: 1.2 }));
  const m = want.memory;
  // By hand: weights + activations + runtime against total × utilization.
  const need = m.weights_bytes + m.activation_bytes + m.non_torch_bytes + (m.cuda_graph_bytes || 0);
  // vLLM's default utilization since 0.21 (PR #38284): 0.92.
  assert.ok(Math.abs(m.requested_bytes - m.total_bytes * 0.92) < 2, 'requested = total × 0.92');
  assert.ok(need > m.requested_bytes);
  const v = await shownVerdict(page);
  assert.equal(v.state, 'wont_start');
  // One figure for one quantity: the need, the memory available and the shortfall, each in fmt.bytes' one rounding.
  assert.equal(v.headline, `Won't start: weights need ${fmt.bytes(need)} of ${fmt.bytes(m.requested_bytes)} per GPU, ${fmt.bytes(need - m.requested_bytes)} short`);
  // The figure was 59.6 GiB under vLLM 0.19; from 0.21 the
  // CUDA-graph estimate (about 1 GiB) counts too, and vLLM's L40S default
  // of 2048 batched tokens profiles a smaller activation.
  assert.equal(fmt.bytes(need).slice(0, 4), '58.7'); // 58.7x GiB
  assert.equal(fmt.bytes(m.requested_bytes).slice(0, 4), '40.8'); // 44.40 GiB reported × 0.92
  const fixes = want.fixes?.map((f) => f.summary);
  if (fixes?.length) assert.deepEqual(v.fixes, fixes);
  else assert.ok(v.fixes.some((f) => f.includes('tensor_parallel_size')), v.fixes.join('; '));
  // No empty cards, no blank chart: the shortfall in words and on the bar.
  assert.equal(await page.$$eval('#report .card', (cs) => cs.filter((c) => c.getBoundingClientRect().height > 0).length), 0);
  assert.equal(await page.isVisible('#chart'), false);
  assert.equal(await page.isVisible('#mem-short'), true);
  assert.match(await text(page, '#mem-short'), new RegExp(`^${fmt.bytes(need - m.requested_bytes).replace('.', '\\.')} short`));
  // The engine's warning states the same need and the same shortfall, in the same rounding.
  const warning = await text(page, '#warnings li[data-code=weights_do_not_fit]');
  assert.ok(warning.includes(`need ${fmt.bytes(need)} per GPU`) && warning.includes(`${fmt.bytes(need - m.requested_bytes)} short`), warning);
  const left = await page.$eval('#mem-bar .short', (e) => parseFloat(e.style.width === '' ? 'NaN' : e.style.left));
  assert.ok(Math.abs(left - (100 * m.requested_bytes) / need) < 0.01, `shortfall starts at ${left}%`);

  // Quantized to fp8 it starts, and the cost card shows the price per million output tokens at $1.2/h.
  await page.selectOption('#f-quantization', 'fp8');
  await page.waitForFunction(() => document.querySelector('#verdict').dataset.state !== 'wont_start');
  const fp8 = await H.evaluate(H.request({ model: 'qwen3-30b-a3b', hardware: 'l40s', gpu_hour_usd: 1.2, quantization: 'fp8' }));
  // $1.2 per GPU-hour over 3,600 s, over the serving rate, per million tokens.
  const usd = (1.2 / 3600 / fp8.cost.tokens_per_s) * 1e6;
  assert.ok(Math.abs(usd - fp8.cost.usd_per_million_output_tokens) < 1e-9);
  assert.equal(await text(page, '[data-v="cost.usd_per_million_output_tokens"]'), fmt.usd(usd));
  assert.match((await shownVerdict(page)).headline, new RegExp(`^Fits: ${fmt.int(fp8.preemption.onset_concurrency_lockstep)} concurrent requests of 1,024 \\+ 256 tokens`));
});

test('(c) H100 against 2×L4 under a 50 ms TPOT budget: prices, the winner, both batch figures', async () => {
  // 2×L4 at the model's whole 131,072-token context does not start since
  // vLLM 0.21 takes its CUDA-graph estimate from the pool (124,336 tokens
  // fit): B asks for 32,768, as a user comparing them would.
  const page = await open('?ttft_ms=&2.hardware=l4&2.tensor_parallel_size=2&2.ttft_ms=&2.max_model_len=32768');
  const slo = { slo: { tpot_ms: 50 } };
  const reqA = H.request(slo);
  delete reqA.slo.ttft_ms;
  const reqB = H.request({ ...slo, hardware: 'l4', tensor_parallel_size: 2, max_model_len: 32768 });
  delete reqB.slo.ttft_ms;
  const [a, l4] = [await H.evaluate(reqA), await H.evaluate(reqB)];
  // The same L4 request without the budget: its ceiling is the "without" figure.
  const noBudget = structuredClone(reqB);
  delete noBudget.slo;
  const l4free = await H.evaluate(noBudget);
  assert.equal(l4.batch_ceiling.limited_by, 'latency_budget');
  assert.ok(l4.batch_ceiling.batch_size < l4free.batch_ceiling.batch_size);

  // The compare table: prices (GPUs × each accelerator's default price, hardware.DefaultPrice: RunPod's $3.49 an
  // hour for the H100 SXM, $0.78 for an L4) and the winner (cheaper per million output tokens).
  const rows = await page.$$eval('#compare-table tbody tr', (trs) => Object.fromEntries(trs.map((tr) => [tr.querySelector('th').textContent, [...tr.querySelectorAll('td')].map((td) => td.firstChild.textContent)])));
  assert.deepEqual(rows.Price, ['$3.49/h', '$1.56/h']);
  assert.ok(a.cost.usd_per_million_output_tokens < l4.cost.usd_per_million_output_tokens);
  const winners = await page.$$eval('#compare-table thead th[data-winner]', (ths) => ths.map((th) => th.textContent));
  assert.equal(winners.length, 1);
  assert.match(winners[0], /^A ★ winner/);
  assert.match(winners[0], new RegExp(`cheapest under the budget: \\${fmt.usd(a.cost.usd_per_million_output_tokens)} per million output tokens`));
  assert.deepEqual(rows.Verdict, ['Meets the budget', 'Meets the budget']);

  // Configuration B's own view: the verdict and both largest batches.
  await page.click('#tab-1');
  const v = await shownVerdict(page);
  assert.equal(v.state, 'meets');
  assert.equal(v.headline, `Fits: ${fmt.int(l4.preemption.onset_concurrency_lockstep)} concurrent requests of 1,024 + 256 tokens; ` +
    `${fmt.tokS(l4.best.tokens_per_s)} at batch ${fmt.int(l4.best.batch_size)}, TPOT ${fmt.ms(l4.best.step_time_ms)}`);
  assert.ok(l4.best.step_time_ms <= 50);
  assert.equal(v.lines[0], `Meets the budget (TPOT ≤ 50 ms) up to batch ${fmt.int(l4.best.batch_size)}: ${fmt.tokS(l4.best.tokens_per_s)}, ` +
    `TTFT ${fmt.ms(l4.best.ttft_ms)}; a larger batch is stopped by the TPOT budget.`);
  assert.equal(await text(page, '[data-v="capacity.batch"]'),
    `Largest batch ${fmt.int(l4free.batch_ceiling.batch_size)} without the budget (KV cache), ${fmt.int(l4.batch_ceiling.batch_size)} under TPOT ≤ 50 ms`);
});

test('(d) Mistral-7B on an A100 at 20 req/s: overloaded, and it never reaches preemption', async () => {
  const page = await open('?model=mistral-7b&hardware=a100-sxm-80gb&load=rate&request_rate=20');
  const want = await H.evaluate(H.request({ model: 'mistral-7b', hardware: 'a100-sxm-80gb', workload: { request_rate: 20 } }));
  const pre = want.preemption;
  // max_num_seqs (256, vLLM's default on an A100) binds before the KV
  // cache fills, so the server saturates with 256 running: the steady
  // state (serving) is saturated by max_num_seqs and completes its
  // capacity, 256-token outputs each, which the cost card prices; the
  // preemption section's saturation rate, the same batch's closed-loop
  // rate by its own formula, agrees with it within a few per cent.
  assert.equal(pre.reachable, false);
  assert.equal(want.config.max_num_seqs, 256);
  const s = want.serving;
  assert.equal(s.saturated, true);
  assert.equal(s.limited_by, 'max_num_seqs');
  assert.ok(Math.abs(s.output_tokens_per_s - s.requests_per_s * 256) < 1e-9);
  assert.ok(Math.abs(want.cost.tokens_per_s - s.output_tokens_per_s) < 1e-9, 'the cost card prices the steady state');
  const sat = pre.saturation_request_rate;
  assert.ok(Math.abs(s.requests_per_s / sat - 1) < 0.05, `${s.requests_per_s} against ${sat}`);
  const u = 20 / sat;
  assert.ok(u > 1);
  const v = await shownVerdict(page);
  assert.equal(v.state, 'overloaded');
  // The replicas by hand: ceil(20 / the saturation rate).
  const n = Math.ceil(20 / sat);
  assert.equal(v.headline, `Overloaded ${u.toFixed(1)}×: saturates at ${fmt.reqS(sat)}; 20 req/s arrive; needs ${n} replicas`);
  assert.ok(v.lines.some((l) => l.includes('It never preempts for memory: max_num_seqs (256) binds before the KV cache fills.')), v.lines.join(' | '));
  assert.ok(v.lines.includes(`At its capacity (max_num_seqs caps what runs at once) it delivers ${fmt.tokS(s.output_tokens_per_s)} of the ${fmt.tokS(20 * 256)} asked (20 req/s × 256 output tokens), at TPOT ${fmt.ms(s.tpot_ms)}.`), v.lines.join(' | '));
  assert.equal(await text(page, '[data-v="preemption.onset_request_rate"]'), 'not reached');
  assert.equal(await text(page, '[data-v="preemption.utilization"]'), `${Math.round(u * 100)} % (overloaded)`);
  // The warning speaks in the user's terms: the rate, not a concurrency never entered.
  const warnings = await page.$$eval('#warnings li', (lis) => lis.map((li) => li.textContent));
  assert.ok(warnings.some((w) => w.startsWith('20 req/s is ')), warnings.join(' | '));
  assert.ok(warnings.every((w) => !/concurrency \d/.test(w)), warnings.join(' | '));

  // At half the saturation rate it keeps up: utilization 50 %.
  const half = +(sat / 2).toFixed(3);
  await page.fill('#f-request_rate', String(half));
  await page.waitForFunction(() => document.querySelector('#verdict').dataset.state !== 'overloaded');
  assert.match((await shownVerdict(page)).headline, new RegExp(`^Fits: ${fmt.reqS(half).replace('.', '\\.')} of 1,024 \\+ 256 tokens, utilization 50 % of the`));
});

test('the budget missed even at batch 1 is not shown as met', async () => {
  const page = await open('?tpot_ms=5');
  const want = await H.evaluate(H.request({ slo: { tpot_ms: 5 } }));
  assert.equal(want.best.feasible, false);
  const v = await shownVerdict(page);
  assert.equal(v.state, 'misses');
  assert.equal(v.lines[0], `Misses the budget (TPOT ≤ 5 ms, TTFT ≤ 1,000 ms) even at batch 1: TPOT ${fmt.ms(want.sweep[0].step_time_ms)}.`);
  assert.equal(await text(page, '[data-v="best.title"]'), 'No batch meets the budget');
  assert.equal(await text(page, '[data-v="best.tokens_per_s"]'), 'none');
});

test('phone: the verdict and the key figures come before the form', async () => {
  const own = await H.launch({ viewport: { width: 390, height: 844 } });
  try {
    await own.page.goto(base);
    await H.ready(own.page);
    const box = (sel) => own.page.$eval(sel, (e) => { const r = e.getBoundingClientRect(); return { top: r.top + scrollY, bottom: r.bottom + scrollY }; });
    const [v, cards, form] = [await box('#verdict'), await box('#report .cards'), await box('#inputs')];
    assert.ok(v.bottom <= cards.top, `verdict ${v.bottom} above the cards ${cards.top}`);
    assert.ok(cards.bottom <= form.top, `cards ${cards.bottom} above the form ${form.top}`);
    assert.ok(v.top < 844, 'the verdict is on the first screen');
    const overflow = await own.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, 'no horizontal scrolling at 390 px');
    // A deployment that does not start: the memory bar, which says why, comes before the form too.
    await own.page.goto(new URL('?model=qwen3-30b-a3b&hardware=l40s', base).href);
    await H.ready(own.page);
    const [bar, form2] = [await box('#mem-bar'), await box('#inputs')];
    assert.ok(bar.bottom <= form2.top, `memory bar ${bar.bottom} above the form ${form2.top}`);
  } finally {
    await own.close();
  }
});

test('screenshots of every verdict state, desktop and phone, light and dark', async () => {
  const states = {
    fits: '?ttft_ms=&tpot_ms=',
    wont_start: '?model=qwen3-30b-a3b&hardware=l40s&gpu_hour_usd=1.2',
    overloaded: '?model=mistral-7b&hardware=a100-sxm-80gb&load=rate&request_rate=20',
    meets: '',
    misses: '?tpot_ms=5',
  };
  const { page } = b;
  for (const [device, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
    await page.setViewportSize(viewport);
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [state, query] of Object.entries(states)) {
        await open(query || '?');
        assert.equal(await page.getAttribute('#verdict', 'data-state'), state, `${state} ${device} ${scheme}`);
        await H.screenshot(page, `verdict-${state}-${device}-${scheme}.png`);
      }
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(b.errors, []);
});

test('a chart downloads as SVG and PNG', async () => {
  const page = await open('?');
  const fs = await import('node:fs');
  const [svg] = await Promise.all([page.waitForEvent('download'), page.click('button[data-download=chart][data-format=svg]')]);
  const doc = fs.readFileSync(await svg.path(), 'utf8');
  assert.match(doc, /^<\?xml[^>]*>\n<svg[^>]* xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  const want = await H.chartReport(H.request());
  // One path vertex per sweep point, as on the page.
  assert.equal(doc.match(/<path class="line agg" d="([^"]*)"/)[1].split('L').length, want.sweep.length);
  assert.match(doc, /<style>\.tc-chart \{ --line: /);
  const [png] = await Promise.all([page.waitForEvent('download'), page.click('button[data-download=chart][data-format=png]')]);
  const bytes = fs.readFileSync(await png.path());
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG signature');
  // Its width is twice the chart's (IHDR, big-endian at byte 16).
  const w = await page.$eval('#chart svg', (s) => s.width.baseVal.value);
  assert.equal(bytes.readUInt32BE(16), 2 * w);
});

test('a printable summary and a link preview', async () => {
  const page = await open('?');
  await page.emulateMedia({ media: 'print' });
  assert.equal(await page.isVisible('#verdict'), true);
  assert.equal(await page.isVisible('#report .cards'), true);
  assert.equal(await page.isVisible('#inputs'), false);
  // The summary names the configuration: its link (beforeprint writes it).
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
  assert.equal(await text(page, '#print-link'), `This configuration: ${new URL(base).origin}/`);
  assert.equal(await page.isVisible('#print-link'), true);
  await page.emulateMedia({ media: 'screen' });
  const meta = await page.$$eval('meta[property^="og:"], meta[name^="twitter:"]', (ms) => Object.fromEntries(ms.map((m) => [m.getAttribute('property') ?? m.name, m.content])));
  assert.equal(meta['og:title'], await page.title());
  assert.ok(meta['og:description'].length > 40);
  assert.equal(meta['twitter:card'], 'summary');
});
