// Every default has one home, the engine's field table (calc.Fields, which
// the JavaScript module hands out as calc.contract()); the page and the
// widget state it from there. In node, no browser: the module's contract
// table against the page's form values (www/page/state.js), the built
// page's placeholders (build/site/index.html), the widget's request and a
// planned deployment's launch command. calc/planner/defaults_doors_test.go compares
// the Go doors and the docs with the same table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as S from '../../www/page/state.js';
import * as F from '../../www/page/form.js';
import * as H from './helpers.mjs';

const BUILT = new URL('../../build/site/index.html', import.meta.url);

// The page's form fields that carry a request field with a constant
// default, as the page's working example sends them.
const PAGE_FIELDS = {
  engine: 'engine', tensor_parallel_size: 'tensor_parallel_size', pipeline_parallel_size: 'pipeline_parallel_size',
  dtype: 'dtype', kv_cache_dtype: 'kv_cache_dtype', input_tokens: 'workload.input_tokens', output_tokens: 'workload.output_tokens',
};

test("the page's form values are the field table's defaults", async () => {
  const contract = (await H.calculator()).contract();
  for (const [name, path] of Object.entries(PAGE_FIELDS)) {
    assert.equal(S.DEFAULTS[name], String(contract.fields[path].default), `${name} (${path})`);
  }
  assert.equal(S.DEFAULTS.engine, contract.default_engine);
  // No default: the form starts empty and says "required".
  for (const name of ['spec_tokens', 'spec_acceptance']) {
    const [path] = F.FIELD_DEFAULTS[name];
    assert.equal(contract.fields[path].default, undefined, path);
    assert.match(contract.fields[path].default_text, /^none: required/, path);
    assert.equal(S.DEFAULTS[name], '', name);
    assert.equal(F.defaultText(contract.fields[path]), 'required');
  }
  // With a method and no k, the request leaves k out and the engine names it.
  const { request } = S.toRequest(S.newConfig({ spec_method: 'eagle', spec_acceptance: '0.7' }));
  assert.equal(request.speculative_config.num_speculative_tokens, undefined);
  await assert.rejects(H.evaluate(request).then((r) => { if (r instanceof Error) throw r; }),
    (e) => e.errors?.some((x) => x.field === 'speculative_config.num_speculative_tokens'));
});

test("the built page's placeholders are the field table's defaults and the report's resolved settings", async () => {
  const fs = await import('node:fs');
  const { Window } = await import('happy-dom');
  const calc = await H.calculator();
  const contract = calc.contract();
  const window = new Window({ settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true } });
  try {
    const doc = new window.DOMParser().parseFromString(fs.readFileSync(BUILT, 'utf8'), 'text/html');
    const ph = (name) => doc.querySelector(`#inputs [name="${name}"]`).getAttribute('placeholder');
    // By hand from the table: 1 prefix, rank 16, 63.0e9 B/s = 63 GB/s
    // (PCIe 5.0 x16: 32 GT/s x 16 x 128/130 / 8), 1 DP rank, 0 redundant
    // experts; k and the acceptance rate required.
    assert.deepEqual(Object.fromEntries(Object.keys(F.FIELD_DEFAULTS).map((n) => [n, ph(n)])), {
      num_prefixes: '1', spec_tokens: 'required', spec_acceptance: 'required', max_lora_rank: '16', offload_gbs: '63',
      data_parallel_size: '1', num_redundant_experts: '0',
    });
    for (const [name, [path, scale]] of Object.entries(F.FIELD_DEFAULTS)) {
      assert.equal(ph(name), F.defaultText(contract.fields[path], scale), name);
    }
    // The engine settings of the default view (vLLM 0.33 on an H100 SXM,
    // which reports more than 70 GiB and is no A100): 0.92 (from 0.21 on),
    // 1024 sequences and 8192 tokens (vLLM's get_batch_defaults), as the
    // default request resolves them.
    const { request } = S.toRequest(S.newConfig());
    const r = calc.evaluate(request);
    assert.deepEqual(F.ENGINE_SETTINGS.map(ph), ['0.92', '1024', '8192']);
    assert.deepEqual(F.ENGINE_SETTINGS.map(ph), F.ENGINE_SETTINGS.map((k) => String(r.config[k])));
  } finally {
    await window.happyDOM.close();
  }
});

test("the widget sends no default of its own: k and the acceptance rate are required", async () => {
  const { ThroughputCalculator } = await import('../../www/widget/throughput-calculator.js');
  const widget = (attrs) => Object.assign(new ThroughputCalculator(), { getAttribute: (n) => attrs[n] ?? null });
  const req = widget({ 'spec-method': 'eagle' }).request();
  assert.deepEqual(req.speculative_config, { method: 'eagle' });
  const given = widget({ 'spec-method': 'mtp', 'num-speculative-tokens': '2', 'acceptance-rate': '0.8' }).request();
  assert.deepEqual(given.speculative_config, { method: 'mtp', num_speculative_tokens: 2, acceptance_rate: 0.8 });
});

test("a planned deployment's launch command writes the memory fraction it was costed with", async () => {
  const calc = await H.calculator();
  const plan = calc.plan({
    model: 'llama-3.1-8b', workload: { concurrency: 16 }, slo: { tpot_ms: 100 },
    constraints: { accelerators: ['h100-sxm-80gb', 'l40s'], engines: ['vllm', 'sglang'] },
    search: { gpus_per_replica: [1], precisions: ['published'], kv_cache_dtypes: ['auto'], max_num_seqs: [256], disaggregated: false },
    limit: 20,
  });
  // By hand (calc/planner/defaults_doors_test.go): vLLM 0.33 0.92 everywhere;
  // SGLang 0.5 at TP 1 0.834 on the H100 (81,090 MiB), 0.849 on the L40S
  // (45,465 MiB).
  const want = { vllm: { 'h100-sxm-80gb': '0.92', l40s: '0.92' }, sglang: { 'h100-sxm-80gb': '0.834', l40s: '0.849' } };
  const flag = { vllm: '--gpu-memory-utilization', sglang: '--mem-fraction-static' };
  const seen = new Set();
  for (const d of plan.deployments) {
    const words = d.launch.split(' ');
    const got = words[words.indexOf(flag[d.engine]) + 1];
    assert.equal(got, want[d.engine][d.accelerator], `${d.engine} on ${d.accelerator}: ${d.launch}`);
    assert.equal(got, String(calc.evaluate(d.evaluate).config.gpu_memory_utilization), 'the evaluate config');
    seen.add(`${d.engine} ${d.accelerator}`);
  }
  assert.equal(seen.size, 4, [...seen].join(', '));
});
