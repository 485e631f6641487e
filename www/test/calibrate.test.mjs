// calibrate(request): the full engine fits a deployment to a benchmark
// file larger than evaluate's 64 KiB (a real GuideLLM report,
// calc/testdata/imports/sources.json) and returns the fit with its
// calibration profile, which evaluate then applies (the same answer as
// POST /v1/calibrate, api/calibrate_test.go).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load, ThroughputError } from '../../build/npm/throughput.js';

const data = readFileSync(new URL('../../calc/testdata/imports/guidellm-llmd-fixture-v2.json', import.meta.url), 'utf8');
const base = { model: 'llama-3.1-8b', hardware: 'h100-sxm', max_model_len: 8192 };

let calc;
before(async () => {
  calc = await load({ planner: true });
});
after(() => calc.close());

test('calibrate takes a file over 64 KiB and answers a profile evaluate applies', () => {
  assert.ok(data.length > 64 * 1024);
  const fit = calc.calibrate({ ...base, calibration: { imports: [{ format: 'guidellm_json', data }] } });
  assert.equal(fit.serving.length, 2);
  assert.equal(fit.serving[0].request_rate, 2);
  const profile = fit.calibration_profile;
  assert.equal(profile.version, 1);
  assert.ok(JSON.stringify(profile).length < 2048);
  const report = calc.evaluate({ ...base, calibration: { profile } });
  assert.equal(report.config.efficiencies.bandwidth_efficiency, profile.terms.bandwidth_efficiency);
  assert.equal(report.calibration.labels.step, 'calibrated');
});

test('calibrate names the field at fault inside the file', () => {
  assert.throws(() => calc.calibrate({ ...base, calibration: { imports: [{ format: 'aiperf_csv', data: 'Metric,avg\nInput Sequence Length (tokens),x\n' }] } }), (e) => {
    assert.ok(e instanceof ThroughputError);
    assert.deepEqual(e.errors[0], { field: 'calibration.imports[0].data', message: 'row 2 ("Input Sequence Length (tokens)"), column "avg": must be a number above 0 (the mean prompt tokens), got "x"' });
    return true;
  });
});
