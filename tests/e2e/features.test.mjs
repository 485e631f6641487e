// The serving features on the page and in the widget, in headless Chromium:
// each test sets a feature through the form (or an attribute), reads what
// the page reports it gained, and compares it with a figure derived by
// hand here (docs/MODEL.md section 10), not with what the page printed.
//   node --test tests/e2e/features.test.mjs   (after ./build.sh build)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as H from './helpers.mjs';
import { figure } from '../../www/page/figures.js';
import * as fmt from '../../www/ui/format.js';

let b;
let base;

before(async () => {
  base = await H.baseURL();
  b = await H.launch();
});
after(async () => { await b?.close(); });

async function open(query = '') {
  const { page } = b;
  await page.goto(new URL(`?${query}`, base).href);
  await H.ready(page);
  return page;
}

/** Type a value into a form control and wait for the page's update. */
async function set(page, name, value) {
  const done = page.evaluate(() => new Promise((r) => document.addEventListener('throughput:updated', r, { once: true })));
  const el = page.locator(`#inputs [name="${name}"]`);
  if (await el.evaluate((e) => e.tagName === 'SELECT')) await el.selectOption(value);
  else await el.fill(value);
  await done;
}

/** The features panel's facts: {feature: {label: text}}. */
function facts(page) {
  return page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#features [data-feature]')].map((s) => [
    s.dataset.feature, Object.fromEntries([...s.querySelectorAll('.facts > div')].map((d) => [d.querySelector('dt').textContent, d.querySelector('dd').textContent])),
  ])));
}

const ints = (text) => [...text.matchAll(/\d[\d,]*/g)].map((m) => Number(m[0].replaceAll(',', '')));

test('prefix caching: the page shows the requests that fit with and without a 512-token shared prefix, as counted by hand', async () => {
  const page = await open();
  assert.equal(await page.isHidden('#features-panel'), true, 'no feature, no panel');
  await set(page, 'shared_prefix_tokens', '512');
  const f = (await facts(page)).prefix_caching;
  assert.ok(f, 'the prefix caching facts are shown');
  // 1,024 + 256 tokens at block size 16: 80 blocks a sequence, of which
  // the prefix's 512/16 = 32 are held once. With U usable blocks (the pool
  // less vLLM's null block): floor((U - 32) / 48) fit instead of floor(U / 80).
  const rep = await H.evaluate(H.request({ workload: { shared_prefix_tokens: 512 } }));
  const U = rep.kv_cache.num_blocks - 1;
  const [withCache, without] = ints(f['Requests that fit']);
  assert.equal(withCache, Math.floor((U - 32) / 48));
  assert.equal(without, Math.floor(U / 80));
  assert.match(f['Cached per request'], /^512 tokens, 32 blocks held once/);
  // TTFT: the prefill skips the cached half of the prompt, so it falls.
  const [ttft, ttft0] = f['TTFT (idle server)'].match(/[\d.]+(?= ms)/g).map(Number);
  assert.ok(ttft < ttft0, `TTFT ${ttft} < ${ttft0}`);
  // The verdict says it too, and the link keeps the input.
  assert.match(await page.textContent('#verdict'), new RegExp(`Prefix caching: ${fmt.int(withCache)} sequences fit instead of ${fmt.int(without)}`));
  await page.waitForFunction(() => location.search.includes('shared_prefix_tokens=512'));
  await page.reload();
  await H.ready(page);
  assert.equal(await page.inputValue('#f-shared_prefix_tokens'), '512');
  assert.ok((await facts(page)).prefix_caching, 'restored from the link');
});

test('speculative decoding: tokens per step by hand, and the chart marks where it stops paying', async () => {
  // 128-token prompts and outputs: at the default 1024/256 the attention
  // reads, which speculation amortises, dominate every batch the H100 holds
  // and there is no crossover to mark.
  const page = await open('input_tokens=128&output_tokens=128&spec_method=eagle&spec_tokens=3&spec_acceptance=0.7');
  const f = (await facts(page)).speculative;
  // k = 3, a = 0.7: 1 + 0.7 + 0.49 + 0.343 = 2.533 tokens per step.
  assert.equal(f['Tokens per step'], `${(1 + 0.7 + 0.49 + 0.343).toFixed(2)} per sequence (1 + a + … + a^k)`);
  // The crossover on the chart: below it every sweep point of the engine's
  // gains from speculation, from it on none does.
  const rep = await H.chartReport(H.request({ workload: { input_tokens: 128, output_tokens: 128 }, speculative_config: { method: 'eagle', num_speculative_tokens: 3, acceptance_rate: 0.7 } }));
  const x = rep.features.speculative.crossover_batch_size;
  assert.ok(x > 1, `crossover at ${x}`);
  for (const p of rep.sweep) {
    if (p.batch_size < x) assert.ok(p.tokens_per_s > p.tokens_per_s_without_speculation, `pays at batch ${p.batch_size}`);
    else assert.ok(p.tokens_per_s <= p.tokens_per_s_without_speculation, `does not pay at batch ${p.batch_size}`);
  }
  assert.equal(await page.textContent('#chart .marker.spec text'), `speculation stops paying ${fmt.int(x)}`);
  assert.equal(await page.getAttribute('#chart .marker.spec', 'visibility'), null);
  const d = await page.getAttribute('#chart path.nospec', 'd');
  assert.equal(d.split('L').length, rep.sweep.length, 'the plain server drawn at every sweep point');
  assert.equal(await page.isHidden('#chart-nospec'), false, 'the legend names it');
  assert.match(await page.textContent('#chart desc'), new RegExp(`below batch ${fmt.int(x)}`));
  // Off again: no marker, no second line.
  await set(page, 'spec_method', '');
  assert.equal(await page.getAttribute('#chart .marker.spec', 'visibility'), 'hidden');
  assert.equal(await page.isHidden('#f-spec_tokens'), true, 'k is hidden while speculation is off');
});

test('LoRA: four rank-16 slots on Llama 3.1 8B reserve 320 MiB, taken from the KV cache byte for byte', async () => {
  const page = await open('max_loras=4&max_lora_rank=16');
  const f = (await facts(page)).lora;
  // Per layer, lora_a [r, in] + lora_b [out, r] per module: q 4096+4096,
  // k and v 4096+1024 each, o 4096+4096, gate and up 4096+14336 each,
  // down 14336+4096 = 81,920 elements x r; x 32 layers x 16 x 2 bytes x 4 slots.
  const perLayer = 8192 + 2 * 5120 + 8192 + 2 * 18432 + 18432;
  assert.equal(perLayer, 81920);
  const bytes = perLayer * 32 * 16 * 2 * 4;
  assert.equal(bytes, 335544320);
  const rep = await H.evaluate(H.request({ lora: { max_loras: 4, max_lora_rank: 16 } }));
  assert.equal(f['Reserved per GPU'], `${fmt.bytes(bytes)}, out of the KV cache (${fmt.bytes(rep.memory.kv_cache_bytes + bytes)} without)`);
  // Two target modules only: q_proj and v_proj, (8192 + 5120) x 32 x 16 x 2 x 4.
  await set(page, 'lora_modules', 'q_proj, v_proj');
  assert.match((await facts(page)).lora['Reserved per GPU'], new RegExp(`^${fmt.bytes((8192 + 5120) * 32 * 16 * 2 * 4)},`));
  // The GEMMs per step: 2 x r x elements per token, at the workload's batch.
  const r2 = await H.evaluate(H.request({ lora: { max_loras: 4, max_lora_rank: 16, target_modules: ['q_proj', 'v_proj'] } }));
  const gemm = 2 * 16 * (8192 + 5120) * 32 * r2.decode.batch_size;
  assert.match((await facts(page)).lora['GEMMs per step'], new RegExp(`^${fmt.num(gemm / 1e9)} GFLOP|^${fmt.num(gemm / 1e12)} TFLOP`));
  // An unknown module is the engine's field error, beside the field.
  await set(page, 'lora_modules', 'q_proj, w_proj');
  assert.match(await page.textContent('[data-field="lora.target_modules"] .field-error'), /lora\.target_modules\[1\]: unknown module "w_proj"/);
});

test('KV offload: a 64 GiB CPU tier holds 32,768 blocks of 2 MiB and delays recomputation by that many blocks', async () => {
  const page = await open('offload_gib=64');
  const f = (await facts(page)).kv_offload;
  // A block: 16 tokens x 32 layers x 4 KiB (8 KV heads x 128 x 2 x 2 bytes) = 2 MiB; 64 GiB / 2 MiB = 32,768.
  assert.equal(f.Tier, `${fmt.int(32768)} blocks, ${fmt.int(32768 * 16)} tokens`);
  const rep = await H.evaluate(H.request({ kv_offload: { cpu_bytes: 64 * 2 ** 30 } }));
  const [later, onset] = ints(f['Recompute onset']);
  assert.equal(onset, rep.preemption.onset_concurrency);
  // Sequences staggered over their 256 output tokens hold, at the 16
  // midpoints 1,024 + (i + 0.5) x 16, ceil(ctx / 16) = 65, 66, ..., 80
  // blocks: 72.5 on average. Recomputation starts at floor((U + 32,768) / 72.5)
  // instead of floor(U / 72.5).
  const U = rep.kv_cache.num_blocks - 1;
  const mean = (65 + 80) / 2;
  assert.equal(onset, Math.floor(U / mean));
  assert.equal(later, Math.floor((U + 32768) / mean));
  // At a slower host link a reload takes proportionally longer: 63 GB/s -> 6.3 GB/s is 10x.
  const reload = Number(f['One sequence back'].match(/reloaded ([\d.]+) ms/)[1]);
  const pcie5 = (32e9 * 16 * 128) / 130 / 8; // the default link: PCIe 5.0 x16, one way
  await set(page, 'offload_gbs', String(pcie5 / 10 / 1e9));
  const slow = Number((await facts(page)).kv_offload['One sequence back'].match(/reloaded ([\d.]+) ms/)[1]);
  assert.ok(Math.abs(slow / reload - 10) < 0.2, `${slow} / ${reload}`);
});

test('expert parallelism: Mixtral 8x7B over two data-parallel ranks holds half its routed experts per GPU', async () => {
  const page = await open('model=mixtral-8x7b&hardware=h200-sxm-141gb&data_parallel_size=2&expert_parallel=on');
  const f = (await facts(page)).parallel;
  // 8 experts over tp 1 x dp 2 = 2 ranks: 4 per GPU. Each holds half of
  // the routed weights: 32 layers x 8 experts x 3 x 4096 x 14336 x 2 bytes / 2.
  const halfRouted = (32 * 8 * 3 * 4096 * 14336 * 2) / 2;
  const plain = await H.evaluate(H.request({ model: 'mixtral-8x7b', hardware: 'h200-sxm-141gb' }));
  assert.equal(f['Weights per GPU'], `${fmt.bytes(plain.memory.weights_bytes - halfRouted)}, 4.00 routed experts per GPU over 2 ranks`);
  assert.match(f.GPUs, /^2: data parallel 2, expert parallel on/);
});

test('GPUs without peer-to-peer: the page asks for p2p false and shows the slower step the module computes', async () => {
  const q = { model: 'Qwen/Qwen2-7B-Instruct', hardware: 'a100-pcie-80gb', tensor_parallel_size: 2 };
  const page = await open(`model=${encodeURIComponent(q.model)}&hardware=${q.hardware}&tensor_parallel_size=2&p2p=off`);
  assert.equal(await page.inputValue('#f-p2p'), 'off', 'the URL sets the field');
  const off = await H.evaluate(H.request({ ...q, p2p: false }));
  const on = await H.evaluate(H.request(q));
  assert.equal(off.config.p2p, false);
  assert.ok(off.decode.step_time_ms > on.decode.step_time_ms, 'all-reduces through host memory cost more');
  const shown = await H.shownFigures(page);
  assert.equal(shown['decode.step_time_ms'], figure('decode.step_time_ms', off));
  assert.match(await page.textContent('#about'), /no GPU peer-to-peer: all-reduces staged through host memory/);
  await set(page, 'p2p', '');
  assert.equal((await H.shownFigures(page))['decode.step_time_ms'], figure('decode.step_time_ms', on));
});

test('the widget takes the features as attributes and says what they did', async () => {
  const { page } = b;
  const url = new URL('/__features.html', base).href;
  await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>features</title>
    <script type="module" src="/widget.js"></script></head><body>
    <throughput-calculator model="llama-3.1-8b" hardware="h100-sxm" mode="compact" shared-prefix-tokens="512" max-loras="4"
      spec-method="eagle" num-speculative-tokens="3" acceptance-rate="0.7"></throughput-calculator></body></html>` }));
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector('throughput-calculator')?.report, null, { timeout: 30000 });
  const rep = await page.evaluate(() => document.querySelector('throughput-calculator').report);
  assert.equal(rep.features.speculative.tokens_per_step.toFixed(3), (1 + 0.7 + 0.49 + 0.343).toFixed(3));
  assert.equal(rep.features.prefix_caching.shared_blocks, 512 / 16);
  assert.equal(rep.features.lora.bytes, 81920 * 32 * 16 * 2 * 4);
  const text = await page.evaluate(() => document.querySelector('throughput-calculator').shadowRoot.querySelector('[data-w=features]').textContent);
  assert.match(text, /Prefix caching: /);
  assert.match(text, new RegExp(`LoRA: 4 slots at rank 16 take ${fmt.bytes(81920 * 32 * 16 * 2 * 4)} from the KV cache`));
  const href = await page.evaluate(() => document.querySelector('throughput-calculator').shadowRoot.querySelector('a.open').href);
  const q = new URL(href).searchParams;
  assert.equal(q.get('shared_prefix_tokens'), '512');
  assert.equal(q.get('spec_method'), 'eagle');
  assert.equal(q.get('max_loras'), '4');
});
