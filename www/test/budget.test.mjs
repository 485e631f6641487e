// The work budget through the JavaScript module: issue 16's request is
// refused (the HTTP API's budget by default), load({workBudget}) and
// evaluate(request, {workBudget}) choose another.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { load, ThroughputError } from '../../build/npm/throughput.js';

const expensive = {
  model: 'llama-3.1-8b', hardware: 'h200', kv_cache_dtype: 'fp8', max_num_seqs: 1024,
  workload: { input_tokens: 1, output_tokens: 16000 },
  simulate: { num_requests: 100000, arrival: 'burst', timeline_points: 2000 },
};
// 2,048 output tokens: the default simulation (about 2.1e6 sequence-steps)
// fits the default budget, with a 2-point sweep (about 6e6 in all) it does not.
const sweep = {
  model: 'llama-3.1-8b', hardware: 'h100-sxm', workload: { input_tokens: 128, output_tokens: 2048 },
  simulate: { sweep: { points: 2 } },
};

let calc;
before(async () => {
  calc = await load({ planner: true }); // the full engine: these requests simulate
});
after(() => calc.close());

function refused(fn) {
  let err;
  assert.throws(fn, (e) => { err = e; return e instanceof ThroughputError; });
  assert.equal(err.errors.length, 1);
  return err.errors[0];
}

test('the default budget is the engine\'s (the HTTP API\'s)', () => {
  assert.equal(calc.defaultWorkBudget, 4e6);
  assert.equal(calc.workBudget, calc.defaultWorkBudget);
});

test('issue 16\'s request is refused at once, naming the field and the limit', () => {
  const e = refused(() => calc.evaluate(expensive));
  assert.equal(e.field, 'simulate.num_requests');
  assert.equal(e.message, 'the simulation (100,000 requests of about 16,000 output tokens) needs about 1.7e9 sequence-steps, ' +
    'above the work budget of 4e6; lower simulate.num_requests to about 230, or workload.output_tokens');
  // How fast the refusal is lives in the benchmarks (scripts/load-worker.mjs),
  // not here: tests make no timing assertions.
  const j = refused(() => calc.evaluateJSON(JSON.stringify(expensive)));
  assert.deepEqual(j, e);
});

test('the suggested size runs', () => {
  const r = calc.evaluate({ ...expensive, simulate: { ...expensive.simulate, num_requests: 230 } });
  assert.equal(r.simulation.completed_requests, 230);
});

test('a larger budget, per call or per instance, runs what the default refuses', async () => {
  const e = refused(() => calc.evaluate(sweep));
  assert.equal(e.field, 'simulate.sweep.num_requests');
  assert.match(e.message, /above the work budget of 4e6/);
  const r = calc.evaluate(sweep, { workBudget: 1e8 });
  assert.ok(r.simulation.sweep.points.length > 0);
  assert.ok(JSON.parse(calc.evaluateJSON(JSON.stringify(sweep), { workBudget: Infinity })).simulation.sweep);
  // A smaller one refuses even the default simulation.
  const small = refused(() => calc.evaluate({ model: 'llama-3.1-8b', hardware: 'h100-sxm', simulate: {} }, { workBudget: 1000 }));
  assert.match(small.message, /above the work budget of 1000;/);

  const big = await load({ planner: true, workBudget: 1e8 });
  try {
    assert.equal(big.workBudget, 1e8);
    assert.ok(big.evaluate(sweep).simulation.sweep);
    assert.equal(refused(() => big.evaluate(sweep, { workBudget: 4e6 })).field, 'simulate.sweep.num_requests');
  } finally {
    big.close();
  }
});

test('a work budget must be a positive number', async () => {
  for (const bad of [0, -1, NaN, '1e9', null, {}]) {
    assert.throws(() => calc.evaluate(sweep, { workBudget: bad }), TypeError, String(bad));
    await assert.rejects(load({ workBudget: bad }), TypeError, String(bad));
  }
  assert.throws(() => calc.evaluate(sweep, 5), TypeError);
});
