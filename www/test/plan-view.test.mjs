// The planning view's logic without the DOM (www/page/plan-model.js): the
// request a form stands for, the plan.* URL it writes, the verdict line,
// the collapse of rows with identical figures, the rejections grouped in
// words and the chart's axes. The expected values are written out by hand
// from the inputs below.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as P from '../page/plan-model.js';

const values = (changes = {}) => ({ ...P.FIELDS, ...changes });

test('the form stands for a plan request; empty numbers are left to the planner', () => {
  assert.deepEqual(P.planRequest(values({ rate: '12', input: '1024', output: '256', ttft: '800', tpot: '', accelerators: 'h100-sxm-80gb, l40s', prices: 'l40s=0.9' })), {
    request: {
      model: 'llama-3.1-8b',
      workload: { input_tokens: 1024, output_tokens: 256, request_rate: 12 },
      slo: { ttft_ms: 800, tpot_ms: undefined },
      constraints: { accelerators: ['h100-sxm-80gb', 'l40s'], prices: { l40s: 0.9 } },
    },
  });
  // Users and a batch of N are both N requests in flight (the planner's
  // closed loop); the rate field is then not read.
  assert.deepEqual(P.planRequest(values({ load: 'users', users: '64', rate: '20' })).request.workload, { input_tokens: 2048, output_tokens: 500, concurrency: 64 });
  assert.deepEqual(P.planRequest(values({ load: 'batch', batch: '300' })).request.workload, { input_tokens: 2048, output_tokens: 500, concurrency: 300 });
  assert.deepEqual(P.planRequest(values({ max_gpus: '8' })).request.constraints, { max_gpus: 8 });
});

test('a bad price names the field', () => {
  assert.deepEqual(P.planRequest(values({ prices: 'h100-sxm-80gb=cheap' })), {
    error: 'constraints.prices: "h100-sxm-80gb=cheap" is not id=USD per GPU-hour', field: 'constraints.prices',
  });
});

test('the URL holds what differs from the defaults, and plan.model always', () => {
  const q = new URLSearchParams(P.queryFor(values({ rate: '12', accelerators: 'l40s' }), '?hw=a100'));
  assert.deepEqual([...q], [['hw', 'a100'], ['view', 'plan'], ['plan.rate', '12'], ['plan.accelerators', 'l40s'], ['plan.model', 'llama-3.1-8b']]);
  assert.deepEqual(P.valuesFromQuery(`?${q}`), values({ rate: '12', accelerators: 'l40s' }));
  // An unknown load falls back to the default.
  assert.equal(P.valuesFromQuery('?plan.load=burst').load, 'rate');
});

/** A deployment with the fields the view reads. */
const dep = (over = {}) => ({
  rank: 1, accelerator: 'h100-sxm-80gb', accelerator_name: 'NVIDIA H100 SXM5 80GB', engine: 'vllm', mode: 'aggregated',
  tensor_parallel_size: 2, pipeline_parallel_size: 1, data_parallel_size: 1, expert_parallel: false,
  quantization: 'fp8', kv_cache_dtype: 'fp8', replicas: 3, num_gpus: 6, usd_per_hour: 20.94, usd_per_million_output_tokens: 0.41,
  tokens_per_s_per_gpu: 1500, tokens_per_s_per_user: 26.3, ttft_ms: 180, tpot_ms: 38, headroom: 1.2, launch: 'vllm serve x', notes: [],
  ...over,
});

test('the verdict line: GPUs, split, cost, TPOT and the simulated TPOT', () => {
  const r = { feasible: true, cheapest: 0, fewest_gpus: 0, lowest_latency: 0, deployments: [dep({ simulated: { tpot_ms: { mean: 41, p99: 55 } } })] };
  // fmt.usd(0.41): three significant digits below $1; fmt.ms: one decimal from 10 ms.
  assert.equal(P.verdictLine(r), '6× H100 SXM5 80GB, TP 2 × 3 replicas, $0.410/M output tokens, TPOT 38.0 ms (simulated 41.0 ms)');
  assert.equal(P.verdictLine(r, { tpot: 'p99' }), '6× H100 SXM5 80GB, TP 2 × 3 replicas, $0.410/M output tokens, TPOT 38.0 ms (simulated 55.0 ms)');
  const one = { ...r, deployments: [dep({ replicas: 1, num_gpus: 2 })] };
  assert.equal(P.verdictLine(one), '2× H100 SXM5 80GB, TP 2 × 1 replica, $0.410/M output tokens, TPOT 38.0 ms');
  assert.equal(P.verdictLine({ feasible: false, cheapest: -1, deployments: [] }), null);
});

test('rows with identical figures but the weight precision collapse into one naming both', () => {
  const r = {
    cheapest: 0, fewest_gpus: 1, lowest_latency: 2,
    deployments: [
      dep({ rank: 1, quantization: 'fp8' }),
      dep({ rank: 2, quantization: 'int8' }), // the same figures: one row "fp8 or int8"
      dep({ rank: 3, quantization: 'int4', tpot_ms: 30 }), // faster: its own row
      dep({ rank: 4, quantization: 'fp8', kv_cache_dtype: 'auto' }), // another KV dtype: its own row
    ],
  };
  const rows = P.collapsedRows(r);
  assert.deepEqual(rows.map((x) => [x.rank, x.cells.weights, x.cells.kv, x.deployments, x.picks]), [
    [1, 'fp8 or int8', 'fp8', [0, 1], ['cheapest', 'fewest GPUs']],
    [3, 'int4', 'fp8', [2], ['lowest latency']],
    [4, 'fp8', 'auto', [3], []],
  ]);
  assert.equal(rows[1].cells.tpot_ms, '30.0 ms');
  assert.equal(rows[0].cells.split, 'TP 2 × 3 replicas');
});

test('rejections are grouped by reason in words, the largest group first', () => {
  const names = new Map([['a', 'NVIDIA A'], ['b', 'AMD B'], ['c', 'Intel C']]);
  const groups = P.groupedRejections([
    { accelerator: 'a', reason: 'max_gpus', message: 'a replica of 16 GPUs exceeds max_gpus 8' },
    { accelerator: 'b', reason: 'purchase_priced', message: 'priced only by purchase …; name it in constraints.accelerators or price it in constraints.prices' },
    { accelerator: 'c', reason: 'purchase_priced', message: 'priced only by purchase …' },
  ], names);
  assert.deepEqual(groups.map((g) => [g.reason, P.groupSummary(g), g.items]), [
    ['purchase_priced', '2 accelerators: bought, not rented: priced only by purchase, so not ranked against hourly rentals (select them above to include them)',
      [{ id: 'b', name: 'B', detail: '' }, { id: 'c', name: 'C', detail: '' }]],
    ['max_gpus', '1 accelerator: need more GPUs than your limit', [{ id: 'a', name: 'A', detail: 'a replica of 16 GPUs exceeds your limit of 8 GPUs' }]],
  ]);
});

test('the frontier axes start at 0 with nice ticks above the largest point', () => {
  // x: 575 tok/s per user x 1.04 = 598 -> step 200 (a fifth is 119.6),
  // 3 steps to 600; y: 10,000 x 1.04 = 10,400 -> step 2,500 (a fifth is
  // 2,080), 5 steps to 12,500.
  const a = P.frontierAxes([{ tokens_per_s_per_user: 575, tokens_per_s_per_gpu: 700 }, { tokens_per_s_per_user: 65, tokens_per_s_per_gpu: 10000 }]);
  assert.deepEqual(a.x.labels, ['0', '200', '400', '600']);
  assert.deepEqual(a.y.labels, ['0', '2.5k', '5k', '7.5k', '10k', '12.5k']);
});

test('a pick off the frontier is still drawn', () => {
  const r = {
    cheapest: 1, fewest_gpus: 0, lowest_latency: 0, deployments: [dep(), dep({ rank: 2, tokens_per_s_per_gpu: 900 })],
    frontier: [{ index: 0, num_gpus: 6, tokens_per_s_per_gpu: 1500, tokens_per_s_per_user: 26.3, usd_per_million_output_tokens: 0.41, label: 'x' }],
  };
  const pts = P.chartPoints(r);
  assert.deepEqual(pts.map((p) => [p.index, p.tokens_per_s_per_gpu, !!p.extra]), [[0, 1500, false], [1, 900, true]]);
});
