// Every way a call can fail throws a ThroughputError whose .errors names the
// field, and the instance keeps working afterwards.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { load, ThroughputError } from '../../build/npm/throughput.js';

const GOOD = Object.freeze({ model: 'llama-3.1-8b', hardware: 'h100-sxm', sweep: { points: 2 } });

let calc;
before(async () => {
  calc = await load({ planner: true }); // the full engine: these requests simulate
});
after(() => calc.close());

/** Asserts that fn throws a ThroughputError with exactly these errors. */
function throwsErrors(fn, errors) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof ThroughputError, `not a ThroughputError: ${e}`);
    assert.ok(e instanceof Error);
    assert.equal(e.name, 'ThroughputError');
    assert.deepEqual(e.errors, errors);
    assert.equal(e.message, errors.map((x) => (x.field ? `${x.field}: ${x.message}` : x.message)).join('; '));
    return true;
  });
}

test('a request that is not a plain object', () => {
  for (const [value, got] of [
    [undefined, 'undefined'], [null, 'null'], ['{"model":"x"}', 'a string'], [42, 'a number'],
    [[GOOD], 'an array'], [new Map(), 'a Map'], [new Date(0), 'a Date'], [() => GOOD, 'a function'],
  ]) {
    throwsErrors(() => calc.evaluate(value), [{ field: '', message: `must be an object, got ${got}` }]);
  }
  // Object.create(null) is a plain object.
  assert.equal(calc.evaluate(Object.assign(Object.create(null), GOOD)).fits, true);
});

test('unknown keys, top level and nested, each named by its path', () => {
  throwsErrors(() => calc.evaluate({ ...GOOD, tensor_parallel: 2 }), [{ field: 'tensor_parallel', message: 'unknown field' }]);
  throwsErrors(() => calc.evaluate({ ...GOOD, workload: { input_tokens: 10, prompt_tokens: 5 } }), [{ field: 'workload.prompt_tokens', message: 'unknown field' }]);
  throwsErrors(() => calc.evaluate({ ...GOOD, slo: { ttft: 1 } }), [{ field: 'slo.ttft', message: 'unknown field' }]);
  throwsErrors(() => calc.evaluate({ ...GOOD, sweep: { steps: 3 } }), [{ field: 'sweep.steps', message: 'unknown field' }]);
  throwsErrors(() => calc.evaluate({ ...GOOD, constructor: 1, toString: 'x' }), [{ field: 'constructor', message: 'unknown field' }, { field: 'toString', message: 'unknown field' }]);
  // An unknown key hides no other error: the engine checks the rest
  // (a Poisson arrival needs a rate, a normal distribution its std).
  throwsErrors(() => calc.evaluate({ ...GOOD, simulate: { arrival: 'poisson', input_tokens: { distribution: 'normal', stdev: 3 } } }), [
    { field: 'simulate.input_tokens.stdev', message: 'unknown field' },
    { field: 'simulate.request_rate', message: 'is required for poisson arrivals (or give workload.request_rate)' },
    { field: 'simulate.input_tokens.std', message: 'is required for the normal distribution' },
  ]);
  throwsErrors(
    () => calc.evaluate({ ...GOOD, hardware: { memory_bytes: 1e10, memory_bandwidth_bytes_per_s: 1e12, peak_flops: { bf16: 1e14, fp16: 1e14 }, cost: 1 } }),
    [{ field: 'hardware.peak_flops.fp16', message: 'unknown field' }, { field: 'hardware.cost', message: 'unknown field' }],
  );
  // The engine rejects unknown keys too when the module's checks are bypassed.
  throwsErrors(() => calc.evaluateJSON('{"model":"llama-3.1-8b","hardware":"h100-sxm","colour":1}'), [{ field: 'colour', message: 'unknown field' }]);
});

test('NaN and Infinity are refused by name before JSON.stringify turns them into null', () => {
  throwsErrors(() => calc.evaluate({ ...GOOD, gpu_memory_utilization: NaN }), [{ field: 'gpu_memory_utilization', message: 'must be a finite number' }]);
  throwsErrors(() => calc.evaluate({ ...GOOD, workload: { request_rate: Infinity } }), [{ field: 'workload.request_rate', message: 'must be a finite number' }]);
  throwsErrors(() => calc.evaluate({ ...GOOD, slo: { tpot_ms: -Infinity } }), [{ field: 'slo.tpot_ms', message: 'must be a finite number' }]);
  throwsErrors(() => calc.evaluate({ ...GOOD, tensor_parallel_size: NaN }), [{ field: 'tensor_parallel_size', message: 'must be a finite number' }]);
  throwsErrors(
    () => calc.evaluate({ ...GOOD, hardware: { memory_bytes: NaN, memory_bandwidth_bytes_per_s: 1e12, peak_flops: { bf16: Infinity } } }),
    [{ field: 'hardware.memory_bytes', message: 'must be a finite number' }, { field: 'hardware.peak_flops.bf16', message: 'must be a finite number' }],
  );
  throwsErrors(
    () => calc.evaluate({ hardware: 'h100-sxm', model_config: { hidden_size: NaN, rope_scaling: { factor: Infinity }, layer_types: ['full_attention', -Infinity] } }),
    [
      { field: 'model_config.hidden_size', message: 'must be a finite number' },
      { field: 'model_config.rope_scaling.factor', message: 'must be a finite number' },
      { field: 'model_config.layer_types[1]', message: 'must be a finite number' },
    ],
  );
});

test('wrong types, with the engine\'s wording', () => {
  throwsErrors(() => calc.evaluate({ ...GOOD, model: 8 }), [{ field: 'model', message: 'must be a string, got a number' }]);
  throwsErrors(() => calc.evaluate({ ...GOOD, tensor_parallel_size: '2' }), [{ field: 'tensor_parallel_size', message: 'must be an integer, got a string' }]);
  throwsErrors(() => calc.evaluate({ ...GOOD, tensor_parallel_size: 1.5 }), [{ field: 'tensor_parallel_size', message: 'must be an integer, got 1.5' }]);
  throwsErrors(() => calc.evaluate({ ...GOOD, workload: { concurrency: true } }), [{ field: 'workload.concurrency', message: 'must be an integer, got a boolean' }]);
  throwsErrors(() => calc.evaluate({ ...GOOD, gpu_hour_usd: '2.5' }), [{ field: 'gpu_hour_usd', message: 'must be a number, got a string' }]);
  throwsErrors(() => calc.evaluate({ ...GOOD, simulate: { sweep: { request_rates: [1, '2', NaN] } } }), [
    { field: 'simulate.sweep.request_rates[1]', message: 'must be a number, got a string' },
    { field: 'simulate.sweep.request_rates[2]', message: 'must be a finite number' },
  ]);
  throwsErrors(() => calc.evaluate({ ...GOOD, workload: [] }), [{ field: 'workload', message: 'must be an object, got an array' }]);
  throwsErrors(() => calc.evaluate({ ...GOOD, hardware: 80 }), [{ field: 'hardware', message: 'must be a catalog id (a string) or an object of figures' }]);
  throwsErrors(() => calc.evaluate({ ...GOOD, hardware: { memory_bytes: 1, memory_bandwidth_bytes_per_s: 1, peak_flops: { bf16: 1 }, aliases: 'x' } }), [{ field: 'hardware.aliases', message: 'must be an array, got a string' }]);
  throwsErrors(() => calc.evaluate({ hardware: 'h100-sxm', model_config: 'llama' }), [{ field: 'model_config', message: 'must be an object, got a string' }]);
  throwsErrors(() => calc.evaluate({ hardware: 'h100-sxm', model_config: { hidden_size: 10n } }), [{ field: 'model_config.hidden_size', message: 'must be a JSON value, got a bigint' }]);
  // The same mistakes sent as JSON text are caught by the Go decoder, in the same words.
  throwsErrors(() => calc.evaluateJSON('{"model":"llama-3.1-8b","hardware":"h100-sxm","tensor_parallel_size":"2"}'), [{ field: 'tensor_parallel_size', message: 'must be an integer, got a string' }]);
  throwsErrors(() => calc.evaluateJSON('{"model":"llama-3.1-8b","hardware":"h100-sxm","tensor_parallel_size":1.5}'), [{ field: 'tensor_parallel_size', message: 'must be an integer, got 1.5' }]);
  throwsErrors(() => calc.evaluateJSON('{"model":8,"hardware":"h100-sxm"}'), [{ field: 'model', message: 'must be a string, got a number' }]);
  throwsErrors(() => calc.evaluateJSON('[1]'), [{ field: '', message: 'must be an object, got an array' }]);
  throwsErrors(() => calc.evaluateJSON('{"model":'), [{ field: '', message: 'invalid JSON at byte 9 (in model): unexpected end of input, expected a value' }]);
  assert.throws(() => calc.evaluateJSON({}), TypeError);
});

test('a cyclic model_config is refused, not a stack overflow', () => {
  const config = { hidden_size: 64 };
  config.self = config;
  assert.throws(() => calc.evaluate({ hardware: 'h100-sxm', model_config: config }), (e) => {
    assert.ok(e instanceof ThroughputError);
    // The path, 13 + 64 x 5 characters, is cut to 200 and "…" (as Go's fielderr.MaxPath).
    assert.equal(e.errors[0].field, `${`model_config${'.self'.repeat(64)}`.slice(0, 200)}…`);
    assert.match(e.errors[0].message, /nests deeper than 64 levels/);
    return true;
  });
});

test('unknown model and unknown hardware come back from the engine with suggestions', () => {
  assert.throws(() => calc.evaluate({ ...GOOD, model: 'llama-3.1-8bb' }), (e) => e instanceof ThroughputError && e.errors.length === 1 && e.errors[0].field === 'model' && /^unknown model "llama-3.1-8bb"; did you mean "[^"]+"/.test(e.errors[0].message));
  assert.throws(() => calc.evaluate({ ...GOOD, hardware: 'h1000' }), (e) => e instanceof ThroughputError && e.errors.length === 1 && e.errors[0].field === 'hardware' && e.errors[0].message.startsWith('unknown hardware "h1000"'));
  assert.throws(() => calc.evaluate({ ...GOOD, hardware: 'A100' }), (e) => e instanceof ThroughputError && e.errors[0].field === 'hardware' && /^ambiguous hardware "A100"; candidates: /.test(e.errors[0].message));
  assert.throws(() => calc.model('no-such-model'), (e) => e instanceof ThroughputError && e.errors[0].field === 'model' && e.errors[0].message.startsWith('unknown model "no-such-model"'));
  assert.throws(() => calc.hardwareSpec('no-such-gpu'), (e) => e instanceof ThroughputError && e.errors[0].field === 'hardware');
  throwsErrors(() => calc.model(7), [{ field: 'model', message: 'must be a string, got a number' }]);
  throwsErrors(() => calc.hardwareSpec(null), [{ field: 'hardware', message: 'must be a string, got null' }]);
});

test('engine validation errors list every bad field', () => {
  throwsErrors(() => calc.evaluate({ ...GOOD, tensor_parallel_size: 0, workload: { concurrency: 4, request_rate: 1 } }), [
    { field: 'tensor_parallel_size', message: 'must be at least 1, got 0' },
    { field: 'workload.request_rate', message: 'give either concurrency or request_rate, not both' },
  ]);
  throwsErrors(() => calc.evaluate({ hardware: 'h100-sxm' }), [{ field: 'model', message: 'is required: a catalog id such as "meta-llama/Llama-3.1-8B-Instruct", or model_config' }]);
  const missing = [{ field: 'model_config.hidden_size', message: 'is missing or not a positive integer' }];
  // A value that is there but not a positive integer is named with its value (issue 16).
  throwsErrors(() => calc.importConfig({ model_type: 'llama', hidden_size: -5 }), [{ field: 'model_config.hidden_size', message: 'must be a positive integer, got -5' }]);
  throwsErrors(() => calc.importConfig({ model_type: 'llama', hidden_size: 4096, num_key_value_heads: 8.5 }),
    [{ field: 'model_config.num_key_value_heads', message: 'must be a positive integer, got 8.5' }]);
  throwsErrors(() => calc.evaluate({ hardware: 'h100-sxm', model_config: { num_hidden_layers: 2 } }), missing);
  throwsErrors(() => calc.importConfig([]), [{ field: 'model_config', message: 'must be an object, got an array' }]);
});

test('a Go panic is recovered as an internal error and the next call works', () => {
  const before = calc.evaluate(GOOD);
  for (let i = 0; i < 3; i++) {
    throwsErrors(() => calc.__panic(), [{ field: '', message: 'internal error: runtime error: index out of range [1] with length 0' }]);
  }
  assert.deepEqual(calc.evaluate(GOOD), before);
  assert.equal(calc.models().length > 0, true);
});

test('a closed calculator refuses calls with a plain Error', async () => {
  const c = await load({ planner: true });
  c.close();
  c.close(); // idempotent
  assert.equal(c.closed, true);
  assert.throws(() => c.evaluate(GOOD), { name: 'Error', message: 'throughput: the calculator is closed' });
  await c.exited; // the Go program ended
});

// Issue 16, point 7: size caps on every entry point, checked in JavaScript
// before a byte is copied into wasm memory, in calc.ParseRequest's words.
test('a 10 MB text is refused before it reaches wasm memory', () => {
  const before = calc.stats().wasm_memory_bytes;
  const big = 'x'.repeat(10 * 1024 * 1024);
  const n = big.length + 12; // {"model":"…"}
  throwsErrors(() => calc.evaluateJSON(`{"model":"${big}"}`), [{ field: '', message: `request is ${n} bytes, above the limit of 65536` }]);
  throwsErrors(() => calc.evaluate({ model: big, hardware: 'h100-sxm' }), [{ field: '', message: `request is ${big.length + 34} bytes, above the limit of 65536` }]);
  throwsErrors(() => calc.importConfig({ model_type: big }), [{ field: '', message: `request is ${big.length + 17} bytes, above the limit of 65536` }]);
  throwsErrors(() => calc.model(big), [{ field: 'model', message: `is ${big.length} bytes, above the limit of 65536` }]);
  throwsErrors(() => calc.hardwareSpec(big), [{ field: 'hardware', message: `is ${big.length} bytes, above the limit of 65536` }]);
  // Multi-byte characters count as UTF-8 bytes, as Go counts them.
  const euros = '€'.repeat(30000); // 90,000 bytes in 30,000 UTF-16 units
  throwsErrors(() => calc.model(euros), [{ field: 'model', message: 'is 90000 bytes, above the limit of 65536' }]);
  assert.equal(calc.stats().wasm_memory_bytes, before, 'wasm memory grew');
  assert.equal(calc.evaluate(GOOD).fits, true);
});

test('-Infinity and 2^53+1, as values and as JSON text', () => {
  throwsErrors(() => calc.evaluate({ ...GOOD, gpu_hour_usd: -Infinity }), [{ field: 'gpu_hour_usd', message: 'must be a finite number' }]);
  throwsErrors(() => calc.evaluateJSON('{"model":"llama-3.1-8b","hardware":"h100-sxm","gpu_hour_usd":-Infinity}'), [{ field: 'gpu_hour_usd', message: 'must be a finite number' }]);
  throwsErrors(() => calc.evaluateJSON('{"model":"llama-3.1-8b","hardware":"h100-sxm","max_num_seqs":9007199254740993}'),
    [{ field: 'max_num_seqs', message: 'must be an integer of at most 2^53 in magnitude, got 9007199254740993' }]);
  // 2.0 for an integer is 2, as over HTTP.
  assert.equal(calc.evaluateJSON('{"model":"llama-3.1-8b","hardware":"h100-sxm","tensor_parallel_size":2.0}').includes('"tensor_parallel_size":2'), true);
});

test('a long unknown name is quoted to 200 characters', () => {
  const long = 'y'.repeat(5000);
  throwsErrors(() => calc.model(long), [{ field: 'model', message: `unknown model "${'y'.repeat(200)}…"` }]);
});

test('a long unknown key is named by its first 200 characters, as in Go', () => {
  const key = 'k'.repeat(60000);
  const want = [{ field: `${'k'.repeat(200)}…`, message: 'unknown field' }];
  throwsErrors(() => calc.evaluate({ ...GOOD, [key]: 1 }), want);
  throwsErrors(() => calc.evaluateJSON(JSON.stringify({ ...GOOD, [key]: 1 })), want);
});
