// The calculator's paths (www/page/state.js): an engine fix applied to the
// form's configuration, and the planner's query a configuration carries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newConfig, applyFix, planQuery } from '../page/state.js';

test('a fix sets the form key its request field names', () => {
  const c = newConfig();
  assert.equal(applyFix(c, { field: 'tensor_parallel_size', value: '2' }).tensor_parallel_size, '2');
  assert.equal(applyFix(c, { field: 'hardware', value: 'gh200-144gb' }).hardware, 'gh200-144gb');
  const r = applyFix(c, { field: 'workload.request_rate', value: '13.333' });
  assert.deepEqual([r.request_rate, r.load], ['13.333', 'rate']);
  assert.equal(c.tensor_parallel_size, '1'); // the configuration given is left as it was
  assert.equal(applyFix(c, { field: 'speculative_config.method', value: 'x' }), null);
});

test('the planner query carries the model, the workload and the budgets', () => {
  const c = newConfig({ model: 'llama-3.1-70b', load: 'rate', request_rate: '40', input_tokens: '2000', output_tokens: '300', tpot_ms: '40', ttft_ms: '800' });
  const q = new URLSearchParams(planQuery(c));
  assert.deepEqual(Object.fromEntries(q), {
    view: 'plan', 'plan.model': 'llama-3.1-70b', 'plan.load': 'rate', 'plan.rate': '40',
    'plan.input': '2000', 'plan.output': '300', 'plan.ttft': '800', 'plan.tpot': '40',
  });
  const users = new URLSearchParams(planQuery(newConfig({ load: 'concurrency', concurrency: '32' })));
  assert.deepEqual([users.get('plan.load'), users.get('plan.users'), users.get('plan.rate')], ['users', '32', null]);
  assert.equal(new URLSearchParams(planQuery(newConfig(), { rate: '3.3' })).get('plan.rate'), '3.3');
});
