// A checkpoint id the catalog does not hold resolves to its catalog
// architecture and the quantization its suffix names (models/checkpoint.go,
// docs/model-catalog.md "Checkpoint ids"): the JavaScript module answers it
// as Go and the HTTP API do, with the same checkpoint_resolved warning, and
// does not fetch it from the Hub.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load, ThroughputError } from '../../build/npm/throughput.js';

test('a checkpoint id resolves, says so, and is not fetched', async () => {
  // A Hub URL nothing listens on: a fetch would fail as "could not be reached".
  const calc = await load({ hub: { url: 'http://127.0.0.1:9' } });
  try {
    const request = { model: 'Qwen/Qwen3-8B-FP8', hardware: 'h100-sxm' };
    assert.equal(calc.pending(request), null, 'nothing to fetch');
    const r = calc.evaluate(request);
    assert.equal(r.model.id, 'Qwen/Qwen3-8B-FP8');
    assert.equal(r.model.quantization, 'fp8');
    const base = calc.evaluate({ model: 'Qwen/Qwen3-8B', hardware: 'h100-sxm', quantization: 'fp8' });
    assert.equal(r.memory.weights_bytes, base.memory.weights_bytes);
    assert.deepEqual(r.warnings.filter((w) => w.code === 'checkpoint_resolved').map((w) => w.message),
      ['Qwen/Qwen3-8B-FP8 is not in the catalog: modelled as Qwen/Qwen3-8B (its architecture and config.json facts, context length included) with quantization fp8 (read from the suffix -FP8)']);
    // The request's quantization wins over the suffix.
    const awq = calc.evaluate({ ...request, quantization: 'awq' });
    assert.equal(awq.model.quantization, 'awq');
    assert.match(awq.warnings.find((w) => w.code === 'checkpoint_resolved').message, /the request's quantization awq applies instead$/);
  } finally {
    calc.close();
  }
});

test('an id the rule refuses is the model field error, with its reason and suggestion', async () => {
  const calc = await load({ hub: false });
  try {
    assert.throws(() => calc.evaluate({ model: 'unsloth/Qwen3-8B-GGUF', hardware: 'h100-sxm' }),
      (e) => e instanceof ThroughputError && e.errors[0].field === 'model' && /GGUF/.test(e.errors[0].message) && /did you mean "Qwen\/Qwen3-8B"\?/.test(e.errors[0].message));
  } finally {
    calc.close();
  }
});
