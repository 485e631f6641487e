// The error bands are computed in Go by every engine (calc/bands): the
// light engine (load()) writes them into its reports like the full one.
// Here the light engine's bands and band warnings must be the golden
// reports' (native Go, calc/testdata/golden) for every golden request that
// does not simulate, and the full engine's for requests that reach the
// other regimes (a GeForce card, a custom accelerator, a TPOT budget, TP 2,
// another engine), through evaluate (the tape) and evaluateJSON both.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { load } from '../../build/npm/throughput.js';

const dir = new URL('../../calc/testdata/golden/', import.meta.url);
const read = (file) => JSON.parse(readFileSync(new URL(file, dir), 'utf8'));
const golden = readdirSync(dir).filter((f) => f.endsWith('.report.json'))
  .map((f) => ({ request: read(f.replace('.report.json', '.request.json')), report: read(f) }))
  .filter(({ request }) => !request.simulate);

let light, full;
before(async () => {
  [light, full] = await Promise.all([load(), load({ planner: true })]);
});
after(() => {
  light.close();
  full.close();
});

const h100 = read('custom-hardware-qwen3-8b.request.json').hardware;
const extra = [
  { model: 'llama-3.1-8b', hardware: 'rtx-4090', engine: 'llamacpp', quantization: 'q4_k_m', max_model_len: 4096, workload: { input_tokens: 1, output_tokens: 512, concurrency: 1 } },
  { model: 'llama-3.1-8b', hardware: 'h100-sxm', max_model_len: 8192, slo: { tpot_ms: 12 } },
  { model: 'llama-3.1-8b', hardware: 'h100-sxm', engine_version: '0.19', tensor_parallel_size: 2, workload: { concurrency: 16 } },
  { model: 'llama-3.1-8b', hardware: 'a100-sxm-80gb', engine: 'lmdeploy', workload: { input_tokens: 128, output_tokens: 128, concurrency: 32 } },
  { model: 'llama-3.1-8b', hardware: 'h100-sxm', engine: 'trtllm', workload: { concurrency: 200 } },
  { model: 'qwen3-8b', hardware: h100, max_model_len: 4096 },
];

/** Equal to the bit: both sides run the same Go code (calc/bands). */
function sameBands(got, want, what) {
  assert.equal(got?.length, want?.length, `${what}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
  want?.forEach((w, i) => assert.deepEqual(got[i], w, `${what} ${w.figure}`));
}

/** The band warnings of a report. */
const bandWarnings = (r) => r.warnings.filter((w) => w.code === 'band_outside_validation');

test('the light engine reports the golden reports\' bands and band warnings', () => {
  assert.ok(golden.length >= 8, `${golden.length} golden reports without a simulation`);
  let banded = 0;
  for (const { request, report } of golden) {
    const what = JSON.stringify(request).slice(0, 80);
    const got = light.evaluate(request);
    sameBands(got.bands, report.bands, what);
    assert.deepEqual(bandWarnings(got), bandWarnings(report), what);
    sameBands(JSON.parse(light.evaluateJSON(JSON.stringify(request))).bands, report.bands, what);
    if (report.bands) banded++;
  }
  assert.ok(banded >= 8, `${banded} golden reports with bands`);
});

test('the light engine reports the full engine\'s bands in the other regimes', () => {
  for (const req of extra) {
    const want = full.evaluate(req);
    const what = JSON.stringify(req).slice(0, 80);
    assert.ok(want.bands?.length >= 5, `${what}: ${JSON.stringify(want.bands)}`);
    const got = light.evaluate(req);
    sameBands(got.bands, want.bands, what);
    assert.deepEqual(got.warnings, want.warnings, what);
    sameBands(JSON.parse(light.evaluateJSON(JSON.stringify(req))).bands, want.bands, what);
  }
});

test('a decode step range holds its figure between its ends on a validated regime', () => {
  const r = light.evaluate(extra[0]);
  const step = r.bands.find((b) => b.figure === 'decode.step_time_ms');
  assert.ok(step.low < r.decode.step_time_ms && r.decode.step_time_ms < step.high, JSON.stringify(step));
  assert.equal(step.widened, undefined);
});
