// The page's pure modules in node (no browser): state <-> URL <-> request,
// number formatting, the sweep range, and that the widget's class module
// loads where there is no DOM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as S from '../../www/page/state.js';
import * as fmt from '../../www/ui/format.js';
import { gridUp, sweepMax } from '../../www/ui/sweep-range.js';
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

test('requests: the serving features map to their engine fields, off by default', () => {
  const r = S.toRequest(S.newConfig({
    shared_prefix_tokens: '512', num_prefixes: '4', spec_method: 'eagle', spec_tokens: '3', spec_acceptance: '0.7',
    max_loras: '2', max_lora_rank: '8', offload_gib: '64', data_parallel_size: '2', expert_parallel: 'on',
  })).request;
  assert.deepEqual(r.workload, { input_tokens: 1024, output_tokens: 256, shared_prefix_tokens: 512, num_prefixes: 4 });
  assert.deepEqual(r.speculative_config, { method: 'eagle', num_speculative_tokens: 3, acceptance_rate: 0.7 });
  assert.deepEqual(r.lora, { max_loras: 2, max_lora_rank: 8 });
  assert.deepEqual(r.kv_offload, { cpu_bytes: 64 * 2 ** 30 });
  assert.equal(r.data_parallel_size, 2);
  assert.equal(r.enable_expert_parallel, true);
  const plain = S.toRequest(S.newConfig()).request;
  for (const k of ['speculative_config', 'lora', 'kv_offload', 'data_parallel_size', 'enable_expert_parallel', 'p2p']) assert.equal(plain[k], undefined, k);
  // GPUs without peer-to-peer access: the request's p2p is false.
  assert.equal(S.toRequest(S.newConfig({ p2p: 'off' })).request.p2p, false);
  // A server that samples with FlashInfer: flashinfer_sampler true.
  assert.equal(S.toRequest(S.newConfig({ flashinfer_sampler: 'on' })).request.flashinfer_sampler, true);
  assert.equal(plain.flashinfer_sampler, undefined);
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
  const { ThroughputCalculator } = await import('../../www/widget/throughput-calculator.js');
  assert.equal(typeof ThroughputCalculator.define, 'function');
  const defined = [];
  ThroughputCalculator.define('x-calc', { get: () => undefined, define: (tag, cls) => defined.push([tag, cls]) });
  assert.deepEqual(defined, [['x-calc', ThroughputCalculator]]);
});

test('the widget: p2p="false" and flashinfer-sampler reach the request', async () => {
  const { ThroughputCalculator } = await import('../../www/widget/throughput-calculator.js');
  const widget = (attrs) => Object.assign(new ThroughputCalculator(), { getAttribute: (n) => attrs[n] ?? null });
  const plain = widget({}).request();
  assert.equal(plain.p2p, undefined);
  assert.equal(plain.flashinfer_sampler, undefined);
  const set = widget({ p2p: 'false', 'flashinfer-sampler': '' }).request();
  assert.equal(set.p2p, false);
  assert.equal(set.flashinfer_sampler, true);
  const off = widget({ p2p: 'true', 'flashinfer-sampler': 'false' }).request();
  assert.equal(off.p2p, undefined);
  assert.equal(off.flashinfer_sampler, undefined);
});

// The page's template (www/page/index.html) and the page the build writes
// from it (build/site/index.html, scripts/prerender.mjs with
// scripts/static-page.mjs), read with the DOM implementation the build uses.
const TEMPLATE = new URL('../../www/page/index.html', import.meta.url);
const BUILT = new URL('../../build/site/index.html', import.meta.url);

async function parse(html) {
  const { Window } = await import('happy-dom');
  const window = new Window({ settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true } });
  const doc = new window.DOMParser().parseFromString(html, 'text/html');
  return { doc, close: () => window.happyDOM.close() };
}

/**
 * A control's value as an HTML parser reads the markup. Selects are read
 * from their selected attribute: happy-dom's parser (21.0) misplaces the
 * selectedness of options that follow a text node; browsers do not.
 */
function parsedValue(c) {
  if (c.tagName !== 'SELECT') return c.value;
  const o = c.querySelector('option[selected]') ?? c.querySelector('option');
  return o.getAttribute('value') ?? o.textContent;
}

test('the template is a source: no computed figure, no form state', async () => {
  const fs = await import('node:fs');
  const { doc, close } = await parse(fs.readFileSync(TEMPLATE, 'utf8'));
  try {
    const slots = [...doc.querySelectorAll('[data-v]')];
    assert.ok(slots.length >= 30, `${slots.length} figure slots`);
    for (const el of slots) assert.equal(el.textContent, '–', `template figure ${el.dataset.v}`);
    for (const id of ['report-conditions', 'model-summary', 'engine-version', 'mem-bar', 'warnings']) {
      assert.equal(doc.getElementById(id).innerHTML, '', `template #${id} is empty`);
    }
    assert.equal(doc.querySelector('.card.absent'), null);
    assert.equal(doc.getElementById('status').hidden, false, 'the template says the engine is loading');
    assert.equal(doc.getElementById('report').getAttribute('aria-busy'), 'true');
    // The form's values come from www/page/state.js DEFAULTS, written by form.js.
    const form = doc.getElementById('inputs');
    for (const c of form.querySelectorAll('input, select, textarea')) {
      assert.equal(c.hasAttribute('value') && c.type !== 'radio', false, `template #${c.id || c.name} has no value`);
      assert.equal(c.hasAttribute('checked'), false, `template ${c.name}=${c.value} is not checked`);
    }
    assert.equal(form.querySelector('option[selected]'), null, 'no option is selected');
    assert.equal(form.querySelector('[data-when][hidden]'), null, 'no conditional section is hidden');
  } finally {
    await close();
  }
});

test('the build-time page is filled by the page code: form.js and report.js', async () => {
  const fs = await import('node:fs');
  const { writeStaticPage } = await import('../../scripts/static-page.mjs');
  const { figure, conditions, modelSummary, memoryBar } = await import('../../www/page/figures.js');
  const H = await import('./helpers.mjs');
  const template = fs.readFileSync(TEMPLATE, 'utf8');
  const report = await H.chartReport(H.request());
  const contract = (await H.calculator()).contract();

  // The default view: what the build wrote, the figures the report's.
  const page = await writeStaticPage(template, S.newConfig(), report, contract);
  assert.equal(fs.readFileSync(BUILT, 'utf8'), page, 'build/site/index.html is the template filled for the default view (./build.sh build)');
  assert.equal(fs.readFileSync(TEMPLATE, 'utf8'), template, 'the template is not written');
  {
    const { doc, close } = await parse(page);
    try {
      for (const el of doc.querySelectorAll('[data-v]')) assert.equal(el.textContent, figure(el.dataset.v, report), `figure ${el.dataset.v}`);
      assert.equal(doc.getElementById('report-conditions').textContent, conditions(report));
      assert.equal(doc.getElementById('model-summary').textContent, modelSummary(report));
      assert.equal(doc.getElementById('engine-version').textContent, `v${report.version}`);
      // The verdict is in the HTML too, and every term on the page is defined on hover.
      assert.equal(doc.getElementById('verdict').dataset.state, 'meets');
      assert.match(doc.querySelector('[data-verdict=headline]').textContent, new RegExp(`^Fits: ${fmt.int(report.preemption.onset_concurrency_lockstep)} concurrent requests of 1,024 \\+ 256 tokens`));
      for (const t of doc.querySelectorAll('[data-term]')) assert.ok(t.getAttribute('title')?.length > 10, `term ${t.dataset.term} has a definition`);
      const segs = [...doc.querySelectorAll('#mem-bar .seg')].map((e) => [e.className.replace('seg ', ''), e.style.width]);
      assert.deepEqual(segs, memoryBar(report).segments);
      assert.equal(doc.getElementById('status').hidden, true);
      assert.equal(doc.getElementById('report').getAttribute('aria-busy'), 'false');
      for (const [name, value] of Object.entries(S.DEFAULTS)) {
        const c = doc.querySelector(`#inputs [name="${name}"]:not([type=radio]), #inputs [name="${name}"][type=radio]:checked`);
        if (c) assert.equal(parsedValue(c), value, `form field ${name}`);
      }
    } finally {
      await close();
    }
  }

  // Another configuration: every kind of control, as the HTML parser reads it back.
  const other = await writeStaticPage(template, S.newConfig({ tensor_parallel_size: '4', engine: 'sglang', load: 'concurrency', concurrency: '32', hardware: 'mi300x', model_config: 'a < b' }), report, contract);
  {
    const { doc, close } = await parse(other);
    try {
      assert.equal(doc.getElementById('f-tensor_parallel_size').getAttribute('value'), '4');
      assert.equal(parsedValue(doc.getElementById('f-engine')), 'sglang');
      assert.equal(doc.querySelectorAll('#f-engine option[selected]').length, 1);
      assert.equal(doc.querySelector('input[name=load]:checked').value, 'concurrency');
      assert.equal(doc.querySelector('input[data-pair=f-concurrency]').value, '5'); // log2(32)
      assert.equal(doc.querySelector('[data-when="load=concurrency"]').hidden, false);
      assert.equal(doc.querySelector('[data-when="load=rate"]').hidden, true);
      assert.equal(parsedValue(doc.getElementById('f-hardware')), 'mi300x', 'a value the select does not list is added (form.js selectValue)');
      assert.equal(doc.getElementById('f-model_config').value, 'a < b');
    } finally {
      await close();
    }
  }

  // Text is escaped; a slot that is not a figure is an error.
  const tricky = structuredClone(report);
  tricky.model.name = 'A <b>&"model"';
  const escaped = await writeStaticPage(template, S.newConfig(), tricky, contract);
  assert.ok(escaped.includes('A &lt;b&gt;&amp;"model"'), 'the model name is text');
  assert.equal(escaped.includes('<b>&'), false);
  await assert.rejects(writeStaticPage(template.replace('data-v="kv_cache.groups"', 'data-v="kv_cache.nope"'), S.newConfig(), report, contract), /kv_cache.nope/);
});

test('URL attributes: only http(s) URLs reach a link, anything else is the default', async () => {
  const { httpURL } = await import('../../www/widget/throughput-calculator.js');
  const base = 'https://host.example/docs/page.html';
  const dflt = 'https://cdn.example/throughput/';
  for (const [value, want] of [
    ['https://calc.example/x/', 'https://calc.example/x/'],
    ['http://calc.example/', 'http://calc.example/'],
    ['/calc/', 'https://host.example/calc/'],
    ['../calc', 'https://host.example/calc'],
    ['  https://calc.example/  ', 'https://calc.example/'],
    ['javascript:alert(document.domain)//', dflt],
    ['JavaScript:alert(1)', dflt],
    [' \tjavascript:alert(1)', dflt],
    ['java\nscript:alert(1)', dflt],
    ['data:text/html,<script>alert(1)</script>', dflt],
    ['vbscript:msgbox(1)', dflt],
    ['blob:https://host.example/0', dflt],
    ['file:///etc/passwd', dflt],
    ['http://[::1', dflt],
    ['', dflt], [null, dflt], [undefined, dflt],
  ]) assert.equal(httpURL(value, base, dflt), want, JSON.stringify(value));
});

test('every term of the glossary (www/ui/verdict.js TERMS) is defined in docs/glossary.md', async () => {
  const fs = await import('node:fs');
  const { TERMS, STATES, BADGES } = await import('../../www/ui/verdict.js');
  const doc = fs.readFileSync(new URL('../../docs/glossary.md', import.meta.url), 'utf8');
  for (const [term, text] of Object.entries(TERMS)) assert.ok(doc.includes(`- **${term}**: ${text}`), `docs/glossary.md defines ${term} as the page does`);
  for (const s of STATES) assert.ok(doc.toLowerCase().includes(`| ${BADGES[s].toLowerCase()} |`), `docs/glossary.md describes the state ${s}`);
});

test('the engine release: empty leaves it to the engine, a value reaches the request and the link', () => {
  assert.equal('engine_version' in S.toRequest(S.newConfig()).request, false);
  const c = S.newConfig({ engine_version: ' 0.19 ' });
  assert.equal(S.toRequest(c).request.engine_version, '0.19');
  const back = S.fromQuery(S.toQuery({ configs: [c], active: 0 }));
  assert.equal(back.configs[0].engine_version.trim(), '0.19');
});

test('a calibration travels in the link and becomes calibration.points', () => {
  const state = { configs: [S.newConfig({ calibration: '1:7.4, 32:11.8@1152' })], active: 0 };
  const back = S.fromQuery(S.toQuery(state));
  assert.equal(back.configs[0].calibration, '1:7.4, 32:11.8@1152');
  const { request, errors } = S.toRequest(back.configs[0]);
  assert.deepEqual(errors, []);
  assert.deepEqual(request.calibration, { points: [{ batch_size: 1, tpot_ms: 7.4 }, { batch_size: 32, tpot_ms: 11.8, context_tokens: 1152 }] });
  const bad = S.toRequest(S.newConfig({ calibration: '32 11.8' }));
  assert.equal(bad.errors[0].field, 'calibration');
  assert.equal(bad.request.calibration, undefined);
  // The report's fitted points written back as the field's text.
  assert.equal(S.calibrationText([{ batch_size: 8, measured_ms: 10.51, context_tokens: 371 }]), '8:10.51@371');
});

test('a band is written after its figure in the figure\'s unit, once', () => {
  const r = { bands: [{ figure: 'decode.step_time_ms', low: 10.94, high: 14.07, basis: 'x' }, { figure: 'prefill.ttft_ms', low: 20, high: 40, basis: 'y', widened: true }] };
  assert.equal(fmt.range(r, 'decode.step_time_ms', fmt.ms), `(80 %: ${fmt.num(10.94)}–${fmt.ms(14.07)})`);
  assert.equal(fmt.range(r, 'prefill.ttft_ms', fmt.ms), `(80 %: ${fmt.num(20)}–${fmt.ms(40)}, widened)`);
  assert.equal(fmt.range(r, 'kv_cache.capacity_tokens', fmt.int), '');
});

// The steady state (report.serving, docs/MODEL.md section 5b) in the verdict,
// the page's figures, the comparison and the widget's request: the texts are
// the report's own figures; which figures are used (the steady state's, not
// the pure decode step's) and whether a budget is met are decided here by
// hand from the report's numbers.
test('the steady state: the verdict, the figures and the comparison use report.serving', async () => {
  const H = await import('./helpers.mjs');
  const { verdict } = await import('../../www/ui/verdict.js');
  const { figure } = await import('../../www/page/figures.js');
  const { ROWS, winner } = await import('../../www/page/compare.js');
  const r = await H.evaluate(H.request({ workload: { concurrency: 64 } }));
  const s = r.serving;
  const pre = r.preemption;
  // By hand: 64 users are under the KV cache's room and max_num_seqs; TPOT and TTFT under 50 and 1,000 ms.
  assert.ok(64 < pre.onset_concurrency && 64 < r.config.max_num_seqs);
  assert.ok(s.tpot_ms <= 50 && s.ttft_ms <= 1000, `${s.tpot_ms} ${s.ttft_ms}`);
  const v = verdict(r);
  assert.equal(v.state, 'meets');
  assert.equal(v.headline, `Fits: 64 concurrent requests of 1,024 + 256 tokens (room for ${fmt.int(pre.onset_concurrency_lockstep)}); ` +
    `steady state at concurrency 64: ${fmt.tokS(s.output_tokens_per_s)}, TPOT ${fmt.ms(s.tpot_ms)}, TTFT ${fmt.ms(s.ttft_ms)}`);
  assert.equal(v.lines[0], `Meets the budget (TPOT ≤ 50 ms, TTFT ≤ 1,000 ms) in the steady state at concurrency 64: TPOT ${fmt.ms(s.tpot_ms)}, TTFT ${fmt.ms(s.ttft_ms)}.`);

  // The panel's figures, each in its unit, with its band.
  assert.equal(figure('serving.load', r), 'at concurrency 64');
  assert.equal(figure('serving.tpot_ms', r), fmt.ms(s.tpot_ms));
  assert.equal(figure('serving.requests_per_s', r), fmt.reqS(s.requests_per_s));
  assert.equal(figure('serving.tokens_per_s_per_user', r), fmt.tokS(1000 / s.tpot_ms));
  assert.equal(figure('serving.queue_ms', r), '', 'no queue below the running cap');
  const band = r.bands.find((b) => b.figure === 'serving.tpot_ms');
  assert.equal(figure('range.serving.tpot_ms', r), `(80 %: ${fmt.num(band.low)}–${fmt.ms(band.high)}${band.widened ? ', widened' : ''})`);
  assert.match(figure('serving.conditions', r), new RegExp(`^64 users, each sending its next request when its last one ends; 1,024 \\+ 256 tokens each; mean decode batch 64, ${fmt.int(s.prefill_tokens_per_step)} prompt tokens a step computed beside the decodes\\.$`));
  assert.equal(figure('decode.conditions', r), `${fmt.at(64, r.decode.context_tokens)}; ${r.decode.bound}-bound, KV cache ${fmt.pct(r.decode.kv_cache_usage)} used; no prompt in the step (the steady state below has them)`);
  assert.equal(figure('cost.conditions', r), 'the steady state at concurrency 64 (mean decode batch 64)');
  assert.match(figure('prefill.conditions', r), new RegExp(`on an idle server, .*; ${fmt.ms(s.ttft_ms)} in the steady state below$`));

  // The comparison's rows: the steady state's throughput, TPOT and TTFT, then the pure decode step.
  const row = (name) => ROWS.find(([n]) => n === name);
  assert.equal(row('Steady state')[1](r), fmt.tokS(s.output_tokens_per_s));
  assert.equal(row('TPOT')[1](r), fmt.ms(s.tpot_ms));
  assert.equal(row('TTFT')[1](r), fmt.ms(s.ttft_ms));
  assert.equal(row('Decode step at the workload\'s batch')[1](r), fmt.tokS(r.decode.tokens_per_s));
  // Without a load, the TPOT and TTFT rows fall back to the pure decode step and an idle server's prefill.
  const idle = await H.evaluate(H.request());
  assert.equal(idle.serving, undefined);
  assert.equal(row('TPOT')[1](idle), fmt.ms(idle.decode.step_time_ms));
  assert.equal(row('TTFT')[1](idle), fmt.ms(idle.prefill.ttft_ms));
  assert.equal(row('Steady state')[1](idle), 'no concurrency or request rate');

  // Unpriced, at the same concurrency: the winner has the higher steady-state output rate.
  const noPrice = { gpu_hour_usd: undefined, workload: { concurrency: 64 } };
  const [h100, l40s] = [await H.evaluate(H.request(noPrice)), await H.evaluate(H.request({ ...noPrice, hardware: 'l40s' }))];
  assert.ok(h100.serving.output_tokens_per_s > l40s.serving.output_tokens_per_s);
  const states = [verdict(h100).state, verdict(l40s).state];
  if (states.every((st) => ['meets', 'fits'].includes(st))) {
    const w = winner([l40s, h100]);
    assert.equal(w.index, 1);
    assert.equal(w.why, `fastest in the steady state at concurrency 64: ${fmt.tokS(h100.serving.output_tokens_per_s)}, E2E ${fmt.ms(h100.serving.e2e_ms)}`);
  } else {
    assert.equal(winner([l40s, h100])?.index ?? 1, 1, states.join(' '));
  }
});

test('the steady state misses a budget the pure decode step meets: the verdict says so', async () => {
  const H = await import('./helpers.mjs');
  const { verdict } = await import('../../www/ui/verdict.js');
  const r = await H.evaluate(H.request({ workload: { concurrency: 300 } }));
  const s = r.serving;
  // By hand: 300 users still run at once, the pure decode step is within 50 ms and the mean TPOT is not.
  assert.ok(300 < r.preemption.onset_concurrency && !s.saturated);
  assert.ok(s.decode_step_ms <= 50 && s.tpot_ms > 50, `${s.decode_step_ms} ${s.tpot_ms}`);
  assert.ok(r.best.feasible && r.best.batch_size >= 300, 'the pure decode step meets the budget at this batch');
  const v = verdict(r);
  assert.equal(v.state, 'misses');
  assert.equal(v.lines[0], `Misses the budget (TPOT ≤ 50 ms, TTFT ≤ 1,000 ms) in the steady state at concurrency 300: TPOT ${fmt.ms(s.tpot_ms)}; ` +
    `the pure decode step at this batch takes ${fmt.ms(s.decode_step_ms)}: the prompts sharing the steps make the difference.`);
});

test('the steady state of a request rate and of a saturated closed loop', async () => {
  const H = await import('./helpers.mjs');
  const { verdict } = await import('../../www/ui/verdict.js');
  const { figure } = await import('../../www/page/figures.js');
  const r = await H.evaluate(H.request({ workload: { request_rate: 5 } }));
  const s = r.serving;
  assert.equal(s.requests_per_s, 5);
  const u = 5 / r.preemption.saturation_request_rate;
  assert.ok(u < 1);
  assert.equal(verdict(r).headline, `Fits: 5 req/s of 1,024 + 256 tokens, utilization ${Math.round(u * 100)} % of the ${fmt.reqS(r.preemption.saturation_request_rate)} it saturates at; ` +
    `steady state at 5 req/s: ${fmt.tokS(5 * 256)}, TPOT ${fmt.ms(s.tpot_ms)}, TTFT ${fmt.ms(s.ttft_ms)}`);
  assert.match(figure('serving.conditions', r), new RegExp(`^Poisson arrivals at 5 req/s, ${fmt.num(5 * s.e2e_ms / 1000).replace('.', '\\.')} requests in flight on average;`));

  // 2,000 users: the KV cache runs out first; the rest wait, and the panel says how long.
  const sat = await H.evaluate(H.request({ workload: { concurrency: 2000 } }));
  const t = sat.serving;
  assert.equal(t.saturated, true);
  assert.equal(t.limited_by, 'kv_cache');
  const v = verdict(sat);
  assert.equal(v.state, 'overloaded');
  assert.ok(v.lines.includes(`Steady state at concurrency 2,000: ${fmt.tokS(t.output_tokens_per_s)}, TPOT ${fmt.ms(t.tpot_ms)}, TTFT ${fmt.ms(t.ttft_ms)} (${fmt.ms(t.queue_ms)} of it waiting for a slot).`), v.lines.join(' | '));
  assert.equal(figure('serving.queue_ms', sat), `${fmt.ms(t.queue_ms)} of it waiting for a slot`);
  assert.match(figure('serving.conditions', sat), new RegExp(`Saturated: KV cache caps what runs at once; ${fmt.ms(t.queue_ms).replace('.', '\\.')} of the TTFT is the wait for a slot\\.$`));
});

test('the widget: concurrency or request-rate becomes the workload\'s load, and its link the page\'s', async () => {
  const { ThroughputCalculator } = await import('../../www/widget/throughput-calculator.js');
  const widget = (attrs) => Object.assign(new ThroughputCalculator(), { getAttribute: (n) => attrs[n] ?? null });
  assert.equal(widget({}).request().workload, undefined);
  assert.deepEqual(widget({ concurrency: '64' }).request().workload, { concurrency: 64 });
  assert.deepEqual(widget({ 'request-rate': '2.5', 'input-tokens': '512' }).request().workload, { input_tokens: 512, request_rate: 2.5 });
  assert.deepEqual(widget({ concurrency: '8', 'request-rate': '2.5' }).request().workload, { concurrency: 8 }, 'one load: the concurrency wins');
  for (const bad of ['0', '-1', 'x', '']) assert.equal(widget({ 'request-rate': bad }).request().workload, undefined, bad);
  assert.equal(widget({ concurrency: '0' }).request().workload, undefined);
  // The page reads the load back from the link the widget writes.
  const q = new URLSearchParams({ load: 'rate', request_rate: '2.5' });
  const cfg = S.fromQuery(`?${q}`).configs[0];
  assert.deepEqual(S.toRequest(cfg).request.workload, { input_tokens: 1024, output_tokens: 256, request_rate: 2.5 });
});

test('a closed loop whose steps are full of prompt tokens is saturated, not overloaded: no one waits for a slot', async () => {
  const H = await import('./helpers.mjs');
  const { verdict } = await import('../../www/ui/verdict.js');
  const { figure } = await import('../../www/page/figures.js');
  const r = await H.evaluate(H.request({ max_num_batched_tokens: 2048, max_model_len: 16384, workload: { input_tokens: 8192, output_tokens: 8, concurrency: 32 } }));
  const s = r.serving;
  // By hand (docs/MODEL.md section 5b): a wave of 32 prompts of 8,192 tokens takes at least 32 · 8,192 / 2,048 = 128
  // steps of the token budget, more than a request's own prompt (8,192 / 2,048 = 4 steps, one more straddling) and
  // its 7 decode steps: prompt tokens fill every step. All 32 run at once (under max_num_seqs and the KV cache's room).
  assert.ok((32 * 8192) / 2048 > 8192 / 2048 + 1 + 7);
  assert.ok(32 < r.config.max_num_seqs && 32 < r.preemption.onset_concurrency);
  assert.equal(s.saturated, true);
  assert.equal(s.limited_by, 'max_num_batched_tokens');
  assert.equal(s.queue_ms, 0);
  const v = verdict(r);
  assert.notEqual(v.state, 'overloaded');
  assert.ok(v.lines.includes('Saturated: every step is full of prompt tokens (max_num_batched_tokens); more users would add waiting, not throughput.'), v.lines.join(' | '));
  assert.match(figure('serving.conditions', r), / Saturated: every step is full of prompt tokens \(max_num_batched_tokens\)\.$/);
});
