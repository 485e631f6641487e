// The engine's tables as the module exports them: engines with their
// defaults, enumerated values and field bounds, and that every engine's
// defaults are what a request that leaves them out resolves to.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../build/npm/throughput.js';

let calc;
before(async () => {
  calc = await load({ planner: true }); // the full engine: these requests simulate
});
after(() => calc.close());

test('contract(): computed once, frozen, with the engine version', () => {
  const c = calc.contract();
  assert.equal(c, calc.contract());
  assert.equal(c.version, calc.version);
  assert.ok(Object.isFrozen(c) && Object.isFrozen(c.engines[0].defaults) && Object.isFrozen(c.fields.block_size));
  assert.throws(() => { c.engines.push({}); }, TypeError);
});

test('engines(): the default first, each with the defaults the engine resolves', () => {
  const engines = calc.engines();
  assert.deepEqual(engines.map((e) => e.name), ['vllm', 'sglang', 'lmdeploy', 'trtllm', 'llamacpp']);
  assert.equal(calc.contract().default_engine, 'vllm');
  assert.deepEqual(engines[2], {
    name: 'lmdeploy', label: 'LMDeploy TurboMind',
    defaults: { gpu_memory_utilization: 0.8, block_size: 16, max_num_seqs: 256, max_num_batched_tokens: 8192 },
  });
  for (const e of engines) {
    const r = calc.evaluate({ model: 'llama-3.1-8b', hardware: 'h100-sxm', engine: e.name });
    // vLLM's batch defaults follow the GPU: 1024 sequences and 8192 tokens
    // on an H100 (get_batch_defaults, PR #17885). SGLang's follow the GPU
    // and its KV pool: 0.834 of the H100's memory ((81,090 - 13,440 MiB
    // reserved) / 81,090) and 2048 running requests, its request pool's
    // floor (calc/release/sglang.go).
    const batch = e.name === 'vllm' ? { max_num_seqs: 1024, max_num_batched_tokens: 8192 }
      : e.name === 'sglang' ? { gpu_memory_utilization: 0.834, max_num_seqs: 2048, max_num_batched_tokens: 8192 }
        : { max_num_seqs: e.defaults.max_num_seqs, max_num_batched_tokens: e.defaults.max_num_batched_tokens };
    assert.deepEqual({ ...e.defaults, ...batch }, {
      gpu_memory_utilization: r.config.gpu_memory_utilization, block_size: r.config.block_size,
      max_num_seqs: r.config.max_num_seqs, max_num_batched_tokens: r.config.max_num_batched_tokens,
    }, e.name);
  }
});

test('value lists: each value is accepted by the engine, and a value outside them is not', () => {
  const base = { model: 'llama-3.1-8b', hardware: 'h100-sxm' };
  assert.deepEqual(calc.dtypes(), ['auto', 'bfloat16', 'float16', 'float32']);
  assert.ok(calc.kvCacheDtypes().includes('fp8_e5m2'));
  assert.ok(calc.quantizations().includes('q4_k_m'));
  assert.deepEqual(calc.blockSizes(), [1, 2, 4, 8, 16, 32, 64, 128, 256]);
  for (const kv_cache_dtype of calc.kvCacheDtypes()) calc.evaluate({ ...base, kv_cache_dtype });
  for (const block_size of calc.blockSizes()) calc.evaluate({ ...base, block_size });
  assert.throws(() => calc.evaluate({ ...base, kv_cache_dtype: 'int3' }), /kv_cache_dtype/);
});

test('fieldBounds(): every bounded request field by JSON path, and the engine enforces them', () => {
  const all = calc.fieldBounds();
  assert.deepEqual(calc.fieldBounds('gpu_memory_utilization'), {
    kind: 'number', min: 0, max: 1, exclusive_min: true, default_text: "the engine's own (see engines); vLLM: its release's, 0.92 from 0.21, 0.9 before; SGLang: by release, GPU memory and TP", unit: 'fraction of GPU memory',
  });
  assert.equal(all['workload.input_tokens'].default, 1024);
  assert.deepEqual(all.engine.enum, [...calc.engines().map((e) => e.name)].sort());
  assert.equal(all['simulate.output_tokens.distribution'].enum.length, calc.contract().distributions.length);
  assert.equal(calc.fieldBounds('no.such.field'), undefined);
  const base = { model: 'llama-3.1-8b', hardware: 'h100-sxm' };
  const u = all.gpu_memory_utilization;
  calc.evaluate({ ...base, gpu_memory_utilization: u.max });
  assert.throws(() => calc.evaluate({ ...base, gpu_memory_utilization: u.min }), /gpu_memory_utilization: must be greater than 0/);
  assert.throws(() => calc.evaluate({ ...base, gpu_memory_utilization: u.max + 0.01 }), /must be at most 1/);
});

// Goodput is measured against an SLO: without one the simulation (and
// its sweep) carry neither goodput nor attainment; with one they do, as
// figures between 0 and the completed rate (calc/simulate_test.go works
// one request's by hand).
test('simulation: goodput and slo_attainment only with an slo', () => {
  const base = { model: 'llama-3.1-8b', hardware: 'h100-sxm', simulate: { num_requests: 50, arrival: 'poisson', request_rate: 4, sweep: { points: 2 } } };
  const none = calc.evaluate(base).simulation;
  assert.equal('goodput_requests_per_s' in none, false);
  assert.equal('slo_attainment' in none, false);
  for (const p of none.sweep.points) assert.equal('goodput_requests_per_s' in p, false);
  const sim = calc.evaluate({ ...base, slo: { ttft_ms: 60000 } }).simulation;
  assert.ok(sim.slo_attainment >= 0 && sim.slo_attainment <= 1, String(sim.slo_attainment));
  assert.ok(sim.goodput_requests_per_s <= sim.requests_per_s + 1e-12);
  assert.equal(sim.sweep.points.every((p) => typeof p.goodput_requests_per_s === 'number'), true);
});
