// The light engine (load()) leaves the error bands out of its reports to
// keep its size budget; the module adds them (throughput.js addBands) from
// the generated table with the rule of calc/bands_apply.go. Here the light
// engine's bands and band warnings must be the full engine's, which Go
// computes, for every golden request that does not simulate and for
// requests that reach the other regimes (a GeForce card, a custom
// accelerator, a TPOT budget, TP 2, another engine).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { load } from '../../build/npm/throughput.js';

const dir = new URL('../../calc/testdata/golden/', import.meta.url);
const golden = readdirSync(dir).filter((f) => f.endsWith('.request.json')).map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')));

let light, full;
before(async () => {
  [light, full] = await Promise.all([load(), load({ planner: true })]);
});
after(() => {
  light.close();
  full.close();
});

const h100 = JSON.parse(readFileSync(new URL('../../calc/testdata/golden/custom-hardware-qwen3-8b.request.json', import.meta.url), 'utf8')).hardware;
const extra = [
  { model: 'llama-3.1-8b', hardware: 'rtx-4090', engine: 'llamacpp', quantization: 'q4_k_m', max_model_len: 4096, workload: { input_tokens: 1, output_tokens: 512, concurrency: 1 } },
  { model: 'llama-3.1-8b', hardware: 'h100-sxm', max_model_len: 8192, slo: { tpot_ms: 12 } },
  { model: 'llama-3.1-8b', hardware: 'h100-sxm', engine_version: '0.19', tensor_parallel_size: 2, workload: { concurrency: 16 } },
  { model: 'llama-3.1-8b', hardware: 'a100-sxm-80gb', engine: 'lmdeploy', workload: { input_tokens: 128, output_tokens: 128, concurrency: 32 } },
  { model: 'llama-3.1-8b', hardware: 'h100-sxm', engine: 'trtllm', workload: { concurrency: 200 } },
  { model: 'qwen3-8b', hardware: h100, max_model_len: 4096 },
];

/** Equal: the module computes exp() with Go's operations (bandExp). */
function sameBands(got, want, what) {
  assert.equal(got?.length, want?.length, `${what}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
  want?.forEach((w, i) => {
    const g = got[i];
    assert.deepEqual(Object.keys(g), Object.keys(w), `${what} ${w.figure}: keys`);
    assert.equal(g.figure, w.figure);
    assert.equal(g.basis, w.basis, `${what} ${w.figure}`);
    assert.equal(g.widened, w.widened, `${what} ${w.figure}`);
    for (const k of ['low', 'high']) {
      assert.equal(g[k], w[k], `${what} ${w.figure}.${k}`);
    }
  });
}

test('the light engine with the module adds the bands the full engine computes', () => {
  const requests = [...golden.filter((r) => !r.simulate), ...extra];
  assert.ok(requests.length >= 12);
  let banded = 0;
  for (const req of requests) {
    let want;
    try {
      want = full.evaluate(req);
    } catch {
      continue; // an error golden: no report
    }
    const got = light.evaluate(req);
    const what = JSON.stringify(req).slice(0, 80);
    sameBands(got.bands, want.bands, what);
    assert.deepEqual(got.warnings, want.warnings, what);
    if (want.bands) banded++;
    // evaluateJSON answers the same.
    sameBands(JSON.parse(light.evaluateJSON(JSON.stringify(req))).bands, want.bands, what);
  }
  assert.ok(banded >= 10, `${banded} reports with bands`);
});

test('a decode step range holds its figure between its ends on a validated regime', () => {
  const r = light.evaluate(extra[0]);
  const step = r.bands.find((b) => b.figure === 'decode.step_time_ms');
  assert.ok(step.low < r.decode.step_time_ms && r.decode.step_time_ms < step.high, JSON.stringify(step));
  assert.equal(step.widened, undefined);
});
