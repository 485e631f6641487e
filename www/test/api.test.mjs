// The calculator's API against figures worked out by hand from the models'
// config.json files and the datasheets, and the ways load() can get the .wasm.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load, ThroughputError } from '../../build/npm/throughput.js';

const wasmURL = new URL('../../build/npm/throughput.wasm', import.meta.url);
const GiB = 2 ** 30;

let calc;
before(async () => {
  calc = await load();
});
after(() => calc.close());

test('version is the engine version and is reported with every result', () => {
  assert.match(calc.version, /^\d+\.\d+\.\d+/);
  assert.equal(calc.evaluate({ model: 'qwen3-0.6b', hardware: 'l4' }).version, calc.version);
});

test('Llama 3.1 8B on one H100: shapes, KV bytes per token and memory budget', () => {
  const r = calc.evaluate({ model: 'llama-3.1-8b', hardware: 'h100-sxm' });
  assert.equal(r.model.id, 'meta-llama/Llama-3.1-8B-Instruct');
  assert.equal(r.model.num_hidden_layers, 32);
  // Meta's model card: 8.03B parameters.
  assert.ok(Math.abs(r.model.params_total / 8.03e9 - 1) < 0.005, `params_total ${r.model.params_total}`);
  // K and V x 32 layers x 8 KV heads x 128 dims x 2 bytes (bf16).
  assert.equal(r.kv_cache.bytes_per_token, 2 * 32 * 8 * 128 * 2);
  assert.equal(r.hardware.memory_bytes, 80 * GiB);
  // vLLM's default since 0.21 (PR #38284), the default release's.
  assert.equal(r.config.gpu_memory_utilization, 0.92);
  // Byte counts are whole bytes, each rounded once: requested is within a
  // byte of total x 0.92, and the five terms sum to it within their five
  // half-byte roundings.
  assert.ok(Number.isInteger(r.memory.requested_bytes) && Number.isInteger(r.memory.total_bytes));
  assert.ok(Math.abs(r.memory.requested_bytes - r.memory.total_bytes * 0.92) <= 1);
  // requested = weights + activation + non-torch + CUDA-graph estimate + KV
  // cache (vLLM's budget since 0.21, the default release).
  const m = r.memory;
  assert.equal(r.config.engine_version, '0.33');
  assert.ok(m.cuda_graph_bytes > 0);
  assert.ok(Math.abs(m.weights_bytes + m.activation_bytes + m.non_torch_bytes + m.cuda_graph_bytes + m.kv_cache_bytes - m.requested_bytes) <= 3);
  // bf16 weights: two bytes per parameter, about 16 GB.
  assert.ok(Math.abs(m.weights_bytes / (2 * r.model.params_total) - 1) < 0.01);
  assert.equal(r.sweep.length, 64);
  assert.ok(r.fits);
});

test('fp8 KV cache halves the bytes per token; TP=2 halves them per GPU', () => {
  const base = calc.evaluate({ model: 'llama-3.1-8b', hardware: 'h100-sxm' });
  const fp8 = calc.evaluate({ model: 'llama-3.1-8b', hardware: 'h100-sxm', kv_cache_dtype: 'fp8' });
  assert.equal(fp8.kv_cache.bytes_per_token, base.kv_cache.bytes_per_token / 2);
  const tp2 = calc.evaluate({ model: 'llama-3.1-8b', hardware: 'h100-sxm', tensor_parallel_size: 2 });
  assert.equal(tp2.config.num_gpus, 2);
  assert.equal(tp2.kv_cache.bytes_per_token_per_gpu, base.kv_cache.bytes_per_token / 2);
});

test('models(): the catalog with summaries', () => {
  const list = calc.models();
  assert.ok(list.length >= 50);
  const ids = new Set(list.map((m) => m.id));
  assert.equal(ids.size, list.length);
  const llama2 = list.find((m) => m.id === 'meta-llama/Llama-2-7b-hf');
  // 32 layers x 32 KV heads (no GQA) x 128 dims x K,V x 2 bytes.
  assert.equal(llama2.kv_bytes_per_token, 32 * 32 * 128 * 2 * 2);
  assert.equal(llama2.kv_bytes_per_token_fp8, 32 * 32 * 128 * 2);
  assert.deepEqual(llama2.kv_groups, [{ kind: 'full_attention', layers: 32 }]);
  assert.ok(llama2.aliases.includes('llama-2-7b'));
  // A fresh copy each call: mutating one does not change the next.
  list[0].id = 'changed';
  assert.notEqual(calc.models()[0].id, 'changed');
});

test('model(): DeepSeek-V2-Lite caches one MLA latent per token', () => {
  const m = calc.model('deepseek-v2-lite');
  assert.equal(m.id, 'deepseek-ai/DeepSeek-V2-Lite-Chat');
  assert.equal(m.architecture, 'moe+mla');
  // (kv_lora_rank 512 + qk_rope_head_dim 64) x 27 layers x 2 bytes.
  assert.equal(m.kv_bytes_per_token, (512 + 64) * 27 * 2);
  assert.equal(m.shape.kv_lora_rank, 512);
  assert.equal(m.config.kv_lora_rank, 512);
  assert.ok(m.source.url || m.source.repo);
  assert.equal(calc.model('DeepSeek-V2-Lite-Chat').id, m.id); // without the owner, any case
});

test('importConfig(): Qwen3-0.6B counted from its config.json', () => {
  const config = JSON.parse(readFileSync(new URL('../../calc/testdata/golden/model-config-qwen3-0.6b-rtx4090.request.json', import.meta.url))).model_config;
  const m = calc.importConfig(config);
  const h = 1024, layers = 28, heads = 16, kvHeads = 8, d = 128, inter = 3072, vocab = 151936;
  const attention = h * heads * d + 2 * h * kvHeads * d + heads * d * h + 2 * d; // q, k, v, o, q/k norms
  const mlp = 3 * h * inter;
  const norms = 2 * h;
  const expected = layers * (attention + mlp + norms) + vocab * h + h; // tied head, final norm
  assert.equal(m.params_total, expected);
  assert.equal(m.shape.params.total, expected);
  assert.equal(m.kv_bytes_per_token, 2 * layers * kvHeads * d * 2);
  assert.equal(m.shape.tie_word_embeddings, true);
  assert.equal(m.id, 'custom');
  assert.equal(m.config, undefined);
});

test('hardware() and hardwareSpec(): datasheet figures', () => {
  const all = calc.hardware();
  assert.ok(all.length >= 20);
  const h100 = calc.hardwareSpec('H100');
  assert.equal(h100.id, 'h100-sxm-80gb');
  assert.deepEqual(all.find((a) => a.id === h100.id), h100);
  assert.equal(h100.memory_bytes, 80 * GiB);
  assert.equal(h100.memory_bandwidth_bytes_per_s, 3.35e12);
  assert.equal(h100.peak_flops.bf16, 989.4e12);
  // The engine is built without the citations' text; hardware-sources.js
  // puts it back, the same for every entry and for hardwareSpec.
  for (const a of all) {
    assert.ok(a.sources.length > 0 && a.sources.every((s) => s.citation.length > 0 && s.fields.length > 0), a.id);
  }
  assert.match(h100.sources[0].citation, /^NVIDIA H100 Tensor Core GPU datasheet, https:/);
  assert.deepEqual(h100.sources[0].fields, ['memory_bytes', 'memory_bandwidth_bytes_per_s', 'peak_flops', 'interconnect']);
  // A catalog entry works as a custom accelerator object too.
  const { sources, aliases, ...custom } = h100;
  const a = calc.evaluate({ model: 'qwen3-8b', hardware: 'h100-sxm', sweep: { points: 2 } });
  const b = calc.evaluate({ model: 'qwen3-8b', hardware: custom, sweep: { points: 2 } });
  assert.deepEqual(b.kv_cache, a.kv_cache);
  assert.deepEqual(b.decode, a.decode);
});

test('load() accepts bytes, a compiled Module, a Response and a file: URL', async () => {
  const bytes = readFileSync(wasmURL);
  const module = await WebAssembly.compile(bytes);
  const request = { model: 'qwen3-0.6b', hardware: 'l4', sweep: { points: 4 } };
  const want = calc.evaluate(request);
  for (const wasm of [bytes, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), module,
    new Response(bytes, { headers: { 'content-type': 'application/wasm' } }), Promise.resolve(new Response(bytes)),
    wasmURL, wasmURL.href]) {
    const c = await load({ wasm });
    try {
      assert.deepEqual(c.evaluate(request), want);
    } finally {
      c.close();
    }
  }
  await assert.rejects(load({ wasm: 42 }), TypeError);
  await assert.rejects(load({ wasm: new Response('nope', { status: 404 }) }), /HTTP 404/);
});

test('several instances in one realm are independent, and load() leaves only Go behind', async () => {
  const before = new Set(Object.getOwnPropertyNames(globalThis));
  const [a, b] = await Promise.all([load(), load()]);
  const after = Object.getOwnPropertyNames(globalThis).filter((k) => !before.has(k));
  assert.deepEqual(after, []);
  assert.ok(!Object.getOwnPropertyNames(globalThis).some((k) => k.startsWith('__throughput')));
  const r = { model: 'llama-3.1-8b', hardware: 'h100-sxm', sweep: { points: 2 } };
  a.close();
  assert.throws(() => a.evaluate(r), /closed/);
  assert.equal(b.evaluate(r).fits, true);
  assert.equal(calc.evaluate(r).fits, true);
  b.close();
  await Promise.all([a.exited, b.exited]);
});

test('ThroughputError is exported for instanceof checks', () => {
  const e = new ThroughputError([{ field: 'model', message: 'is required' }]);
  assert.equal(e.message, 'model: is required');
  assert.ok(e instanceof Error);
});

test('the light engine has no simulator and says which engine has; the full one simulates', async () => {
  const req = { model: 'llama-3.1-8b', hardware: 'h100-sxm', simulate: { num_requests: 20 } };
  assert.equal(calc.simulator, false);
  assert.throws(() => calc.evaluate(req), (e) => e.errors?.[0]?.field === 'simulate' && /load\(\{ planner: true \}\)/.test(e.errors[0].message));
  // One bad call does not poison the next.
  assert.ok(calc.evaluate({ model: 'llama-3.1-8b', hardware: 'h100-sxm' }).fits);
  const full = await load({ planner: true });
  try {
    assert.equal(full.simulator, true);
    const r = full.evaluate(req);
    assert.equal(r.simulation.completed_requests, 20);
  } finally {
    full.close();
  }
});
