// 100,000 evaluations in one instance do not grow its memory: the Go heap
// (runtime.ReadMemStats after a GC), the WebAssembly memory and the table
// of JavaScript values Go holds. A small request keeps this to tens of
// seconds on a 2-core machine; timing is not asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../build/npm/throughput.js';

const EVALUATIONS = 100_000;
const WARM_UP = 2_000;
/** Allowed growth of the Go heap and of the wasm memory, in bytes. */
const MAX_GROWTH_BYTES = 16 * 2 ** 20;
/** Allowed growth of the JavaScript values Go references. */
const MAX_REF_GROWTH = 64;

test(`${EVALUATIONS} evaluations in one instance: no memory growth beyond ${MAX_GROWTH_BYTES / 2 ** 20} MiB`, async () => {
  const calc = await load();
  try {
    const request = { model: 'qwen3-0.6b', hardware: 'l4', max_model_len: 64, workload: { input_tokens: 16, output_tokens: 16 }, sweep: { points: 2 } };
    const want = calc.evaluate(request);
    assert.equal(want.fits, true);
    for (let i = 0; i < WARM_UP; i++) calc.evaluate(request);
    const start = calc.stats({ gc: true });

    let different = 0;
    for (let i = 0; i < EVALUATIONS; i++) {
      if (calc.evaluate(request).decode.tokens_per_s !== want.decode.tokens_per_s) different++;
      if (i % 10_007 === 0) {
        assert.throws(() => calc.evaluate({ ...request, workload: { input_tokens: NaN } })); // error paths too
        assert.throws(() => calc.__panic());
      }
    }
    assert.equal(different, 0, 'the same answer every time');

    const end = calc.stats({ gc: true });
    const report = `heap ${start.heap_alloc_bytes} -> ${end.heap_alloc_bytes} B, wasm memory ${start.wasm_memory_bytes} -> ${end.wasm_memory_bytes} B, js refs ${start.js_refs} -> ${end.js_refs}, ${end.num_gc - start.num_gc} GCs`;
    console.log(report);
    assert.ok(end.heap_alloc_bytes - start.heap_alloc_bytes < MAX_GROWTH_BYTES, report);
    assert.ok(end.wasm_memory_bytes - start.wasm_memory_bytes < MAX_GROWTH_BYTES, report);
    assert.ok(end.js_refs - start.js_refs < MAX_REF_GROWTH, report);
    assert.ok(end.total_alloc_bytes - start.total_alloc_bytes > EVALUATIONS * 1000, 'the evaluations allocated, so the GC had work to do');
  } finally {
    calc.close();
  }
});
