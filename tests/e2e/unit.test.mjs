// The page's pure modules in node (no browser): state <-> URL <-> request,
// number formatting, the sweep range, and that the widget's class module
// loads where there is no DOM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as S from '../../www/state.js';
import * as fmt from '../../www/format.js';
import { gridUp, sweepMax } from '../../www/sweep-range.js';
import { DEFAULT_REQUEST } from './helpers.mjs';

test('the default state is the default request', () => {
  const { request, errors } = S.toRequest(S.newConfig());
  assert.deepEqual(errors, []);
  assert.deepEqual(request, DEFAULT_REQUEST);
  assert.equal(S.toQuery(S.newState()), '');
});

test('state round-trips through the query string', () => {
  const cfg = JSON.stringify({ architectures: ['LlamaForCausalLM'], hidden_size: 4096, note: 'ünïcode/+=' });
  const state = {
    configs: [
      S.newConfig({ model: 'qwen2.5-7b', tensor_parallel_size: '2', load: 'rate', request_rate: '3.5', gpu_hour_usd: '' }),
      S.newConfig({ model_source: 'config', model_config: cfg, hardware: 'custom', hw_memory_gib: '96', hw_bandwidth_tbs: '4', hw_bf16_tflops: '900' }),
      S.newConfig(),
    ],
    active: 1,
  };
  const q = S.toQuery(state);
  assert.ok(new URLSearchParams(q).has('3'), 'a configuration equal to the defaults is kept');
  const back = S.fromQuery(`?${q}`);
  assert.equal(back.active, 1);
  assert.equal(back.configs.length, 3);
  assert.deepEqual(back.configs[0], state.configs[0]);
  assert.deepEqual(JSON.parse(back.configs[1].model_config), JSON.parse(cfg));
  assert.deepEqual({ ...back.configs[1], model_config: '' }, { ...state.configs[1], model_config: '' });
  assert.deepEqual(back.configs[2], S.newConfig());
});

test('requests: numbers pass through for the engine to validate; local errors name fields', () => {
  const r = S.toRequest(S.newConfig({ tensor_parallel_size: '0', load: 'concurrency', concurrency: '12', ttft_ms: '', tpot_ms: '' }));
  assert.equal(r.request.tensor_parallel_size, 0);
  assert.deepEqual(r.request.workload, { input_tokens: 1024, output_tokens: 256, concurrency: 12 });
  assert.equal(r.request.slo, undefined);
  const bad = S.toRequest(S.newConfig({ model_source: 'config', model_config: '{nope', max_model_len: 'x' }));
  assert.deepEqual(bad.errors.map((e) => e.field), ['model_config', 'max_model_len']);
  const hw = S.toRequest(S.newConfig({ hardware: 'custom', hw_memory_gib: '80', hw_bandwidth_tbs: '3.35', hw_bf16_tflops: '989.4', hw_link_gbs: '450' })).request.hardware;
  assert.equal(hw.memory_bytes, 80 * 2 ** 30);
  assert.equal(hw.memory_bandwidth_bytes_per_s, 3.35e12);
  assert.equal(hw.peak_flops.bf16, 989.4e12);
  assert.equal(hw.interconnect.bandwidth_bytes_per_s, 450e9);
});

test('formatting', () => {
  const cases = [
    [fmt.tokS(13030.511), '13,031 tok/s'], [fmt.tokS(50.9004), '50.9 tok/s'], [fmt.ms(6.1242), '6.12 ms'],
    [fmt.ms(23455), '23.5 s'], [fmt.bytes(16060514552.24), '14.96 GiB'], [fmt.bytes(131072), '128 KiB'],
    [fmt.bytes(268435456), '256.0 MiB'], [fmt.usd(0.11475), '$0.115'], [fmt.usd(2.5), '$2.50'], [fmt.pct(0.66512), '66.5%'],
    [fmt.int(443392), '443,392'], [fmt.num(NaN), '–'], [fmt.at(256, 1152), 'batch 256, context 1,152 tokens'],
    [fmt.limitedBy('max_num_seqs'), 'max_num_seqs'], [fmt.limitedBy('kv_cache'), 'KV cache'],
  ];
  for (const [got, want] of cases) assert.equal(got, want);
});

test('sweep range', () => {
  assert.deepEqual([1, 2, 3, 5, 7, 300, 384, 385].map(gridUp), [1, 2, 3, 6, 8, 384, 384, 512]);
  const r = { batch_ceiling: { batch_size: 256 }, preemption: { onset_concurrency_lockstep: 346, onset_concurrency: 382 } };
  assert.equal(sweepMax(r), 512); // 1.1 * 382 = 420.2 -> 512
  assert.equal(sweepMax({ batch_ceiling: { batch_size: 0 } }), 8);
  assert.equal(sweepMax({ batch_ceiling: { batch_size: 4 }, preemption: { onset_concurrency_lockstep: 1e6, onset_concurrency: 1e6 } }), 1024);
});

test('the widget class module loads without a DOM and registers nothing', async () => {
  assert.equal(globalThis.HTMLElement, undefined);
  const { ThroughputCalculator } = await import('../../www/throughput-calculator.js');
  assert.equal(typeof ThroughputCalculator.define, 'function');
  const defined = [];
  ThroughputCalculator.define('x-calc', { get: () => undefined, define: (tag, cls) => defined.push([tag, cls]) });
  assert.deepEqual(defined, [['x-calc', ThroughputCalculator]]);
});

test('the build-time page: idempotent, escaped, every slot a known figure', async () => {
  const { writeStaticPage } = await import('../../scripts/static-page.mjs');
  const { escapeHTML } = await import('../../www/dom.js');
  const fs = await import('node:fs');
  const { figure } = await import('../../www/figures.js');
  const H = await import('./helpers.mjs');
  const report = await H.evaluate(H.request());
  const page = fs.readFileSync(new URL('../../www/index.html', import.meta.url), 'utf8');
  const config = S.newConfig();
  const once = writeStaticPage(page, config, report);
  assert.equal(writeStaticPage(once, config, report), once, 'rewriting a written page changes nothing');
  assert.equal(once, page, 'www/index.html is current: run node scripts/prerender.mjs (./build.sh build does)');

  // Another configuration's form: values set in place, the old ones gone.
  const other = writeStaticPage(page, S.newConfig({ tensor_parallel_size: '4', block_size: '32', load: 'concurrency', concurrency: '32' }), report);
  assert.match(other, /<input id="f-tensor_parallel_size"[^>]* value="4">/);
  assert.match(other, /<option selected>32<\/option>/);
  assert.doesNotMatch(other, /<option selected>16<\/option>/);
  assert.match(other, /<input type="radio" name="load" value="concurrency" checked>/);
  assert.match(other, /data-pair="f-concurrency" value="5">/); // log2(32)
  assert.doesNotMatch(other, /data-when="load=concurrency" hidden/);

  // Text is escaped; a slot that is not a figure is an error.
  const tricky = structuredClone(report);
  tricky.model.name = 'A <b>&"model"';
  assert.ok(writeStaticPage(page, config, tricky).includes(escapeHTML(figure('kv_cache.groups', tricky))));
  assert.ok(writeStaticPage(page, config, tricky).includes('A &lt;b&gt;&amp;&quot;model&quot;'));
  assert.throws(() => writeStaticPage(page.replace('data-v="kv_cache.groups"', 'data-v="kv_cache.nope"'), config, report), /kv_cache.nope/);
});
