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

test('request rates for people, and the replicas a rate needs', async () => {
  const fmt = await import('../ui/format.js');
  const { replicas } = await import('../ui/verdict.js');
  assert.deepEqual([3.33333, 40, 13.333, 0.5, 1234.5].map(fmt.rate), ['3.33', '40', '13.3', '0.5', '1,235']);
  assert.equal(fmt.reqS(10 / 3), '3.33 req/s');
  // By hand: 40 req/s over a 19.9 req/s saturation rate is 2.01x: 3 replicas of 13.3 req/s.
  const r = replicas(40, 19.9);
  assert.deepEqual([r.n, +r.each.toFixed(3)], [3, 13.333]);
  assert.equal(r.text, 'Needs 3 replicas for 40 req/s: ⌈40 / 19.9⌉ = 3, each then taking 13.3 req/s.');
  assert.equal(replicas(10, 20), null); // carried by one
  assert.equal(replicas(40, 20).n, 2); // exactly twice: two replicas, each at its saturation rate
});
