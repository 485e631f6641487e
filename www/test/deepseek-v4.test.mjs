// DeepSeek-V4 is modelled by the full engine only (load({ planner: true }),
// the API): the light engine refuses it with a message naming the full
// engine and leaves it out of models(), to stay within its size budget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load, ThroughputError } from '../../build/npm/throughput.js';

test('the light engine refuses DeepSeek-V4 and names the full engine', async () => {
  const calc = await load({ hub: false });
  try {
    assert.throws(() => calc.evaluate({ model: 'deepseek-v4-flash', hardware: 'b300' }),
      (e) => e instanceof ThroughputError && /deepseek_v4 needs the full engine/.test(e.errors[0].message));
    assert.equal(calc.models().some((m) => m.id.includes('DeepSeek-V4')), false);
    // One bad call does not poison the next.
    assert.equal(calc.evaluate({ model: 'deepseek-v3.2', hardware: 'b300', tensor_parallel_size: 4 }).model.id, 'deepseek-ai/DeepSeek-V3.2');
  } finally {
    calc.close();
  }
});

test('with a Hub, the light engine still knows DeepSeek-V4 is a catalog model: nothing to fetch, and the error names the full engine', async () => {
  // A Hub URL nothing listens on: a fetch would fail as "could not be reached".
  const calc = await load({ hub: { url: 'http://127.0.0.1:9' } });
  try {
    const request = { model: 'deepseek-ai/DeepSeek-V4-Flash', hardware: 'b300' };
    assert.equal(calc.pending(request), null);
    assert.throws(() => calc.evaluate(request),
      (e) => e instanceof ThroughputError && e.errors[0].field.startsWith('model') && /needs the full engine/.test(e.errors[0].message));
  } finally {
    calc.close();
  }
});

test('the full engine evaluates DeepSeek-V4-Flash with its packed cache', async () => {
  const calc = await load({ planner: true, hub: false });
  try {
    const r = calc.evaluate({ model: 'deepseek-v4-flash', hardware: 'b300', max_model_len: 65536 });
    // kvcache TestDeepSeekV4FlashLayout: 256-token blocks, 5 groups, 3,850.25 B per token.
    assert.equal(r.kv_cache.block_size, 256);
    assert.equal(r.kv_cache.groups.length, 5);
    assert.equal(r.kv_cache.bytes_per_token, 3850.25);
    assert.ok(calc.models().some((m) => m.id === 'deepseek-ai/DeepSeek-V4-Flash'));
  } finally {
    calc.close();
  }
});
