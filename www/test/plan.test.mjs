// The JavaScript module's planner (the planner build, load({planner: true})):
// plan() answers every bad plan of calc/testdata/bad-plans.json with the
// same field errors as calc.Plan (calc/bad_plans_test.go) and POST /v1/plan
// (api/bad_requests_test.go); a good plan's winner re-evaluates through
// evaluate() to the same figures; the default engine has no planner.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load, ThroughputError } from '../../build/npm/throughput.js';

const { cases } = JSON.parse(readFileSync(new URL('../../calc/testdata/bad-plans.json', import.meta.url), 'utf8'));

let calc;
before(async () => {
  calc = await load({ planner: true });
});
after(() => calc.close());

for (const c of cases) {
  test(c.name, () => {
    assert.throws(() => calc.plan(c.request), (e) => {
      assert.ok(e instanceof ThroughputError, `not a ThroughputError: ${e}`);
      assert.deepEqual(e.errors, c.errors);
      return true;
    });
  });
}

test('a plan and its winner re-evaluated', () => {
  const r = calc.plan({
    model: 'meta-llama/Llama-3.1-8B-Instruct',
    workload: { request_rate: 20, input_tokens: 2048, output_tokens: 500 },
    slo: { ttft_ms: 1000, tpot_ms: 50 },
    constraints: { accelerators: ['h100-sxm-80gb', 'l40s'] },
  });
  assert.equal(r.feasible, true);
  const w = r.deployments[r.cheapest];
  assert.ok(w.launch.length > 0);
  const rep = calc.evaluate(w.evaluate);
  // An aggregated row's TPOT and TTFT are the re-evaluated report's steady
  // state at the row's load (its serving section: the mixed step that also
  // carries admitted prompts), never shorter than the pure decode step; a
  // disaggregated row's decode pool admits no prompts: its TPOT is the step.
  assert.equal(rep.decode.batch_size, w.batch_size);
  if (w.mode === 'aggregated') {
    // An aggregated row's TPOT and TTFT are the steady state's at its
    // replica's share of the load (docs/MODEL.md section 5b): 20 req/s
    // over its replicas.
    assert.ok(Math.abs(rep.serving.request_rate * w.replicas - 20) < 1e-9, `${rep.serving.request_rate} x ${w.replicas}`);
    assert.ok(Math.abs(rep.serving.tpot_ms - w.tpot_ms) <= 1e-9 * w.tpot_ms, `${rep.serving.tpot_ms} vs ${w.tpot_ms}`);
    assert.ok(Math.abs(rep.serving.ttft_ms - w.ttft_ms) <= 1e-9 * w.ttft_ms, `${rep.serving.ttft_ms} vs ${w.ttft_ms}`);
    assert.ok(w.tpot_ms >= rep.decode.step_time_ms);
  } else {
    assert.ok(Math.abs(1000 / rep.decode.tokens_per_s_per_sequence - w.tpot_ms) <= 1e-9 * w.tpot_ms);
  }
  // The row names the price it used: the default table's, as the
  // calculator's cost section does for the same request.
  assert.equal(w.gpu_hour_usd, rep.cost.gpu_hour_usd);
  assert.equal(w.price_kind, rep.cost.price_kind);
  assert.equal(w.price_source, rep.cost.price_source);
  assert.equal(rep.config.num_gpus * w.replicas, w.num_gpus);
});

test('an impossible budget is an answer', () => {
  const r = calc.plan({ model: 'llama-3.1-8b', workload: { request_rate: 1 }, slo: { tpot_ms: 0.5 }, constraints: { accelerators: ['h100-sxm-80gb'] } });
  assert.equal(r.feasible, false);
  assert.match(r.answer, /^no deployment meets TPOT <= 0\.5 ms; the fastest is /);
});

test('prices() is the default price table the plan reads', () => {
  const table = calc.prices();
  // docs/MODEL.md section 12's table: "RunPod Secure Cloud, runpod.io ...
  // 2026-09 ... h100-sxm-80gb 3.49".
  assert.deepEqual(table['h100-sxm-80gb'], { usd_per_gpu_hour: 3.49, kind: 'cloud_on_demand', source: 'RunPod Secure Cloud, runpod.io', date: '2026-09' });
  // A plan's row names the same price and source.
  const r = calc.plan({ model: 'llama-3.1-8b', workload: { request_rate: 5 }, slo: { tpot_ms: 50 }, constraints: { accelerators: ['h100-sxm-80gb'] }, verify: { top: 0 } });
  assert.equal(r.deployments[0].gpu_hour_usd, 3.49);
  assert.equal(r.deployments[0].price_source, table['h100-sxm-80gb'].source);
});

test('the default engine has no planner', async () => {
  const plain = await load();
  assert.equal(plain.hasPlanner, false);
  assert.throws(() => plain.plan({}), /load\(\{ planner: true \}\)/);
  assert.throws(() => plain.prices(), /load\(\{ planner: true \}\)/);
  plain.close();
});

// The xPyD splits through the JavaScript module: each split is its own row,
// its instances whole units of the split (2P1D: twice as many prefill as
// decode instances), and the planning view names the split.
test('disaggregated splits are rows of their own, named in the view', async () => {
  const P = await import('../page/plan-model.js');
  const r = calc.plan({
    model: 'meta-llama/Llama-3.1-8B-Instruct',
    workload: { request_rate: 20, input_tokens: 16, output_tokens: 4096 },
    slo: { tpot_ms: 20 },
    constraints: { accelerators: ['h100-sxm-80gb'], engines: ['vllm'] },
    search: { gpus_per_replica: [1], precisions: ['published'], kv_cache_dtypes: ['auto'], max_num_seqs: [512], disaggregated_splits: ['1P1D', '2P1D'] },
  });
  const rows = r.deployments.filter((d) => d.mode === 'disaggregated');
  assert.deepEqual(rows.map((d) => d.split).sort(), ['1P1D', '2P1D']);
  const two = rows.find((d) => d.split === '2P1D');
  assert.equal(two.prefill_replicas, 2 * two.decode_replicas);
  assert.equal(P.splitText(two), `TP 1, 2P1D: ${two.prefill_replicas} prefill + ${two.decode_replicas} decode`);
});
