// The JavaScript module answers every bad request of
// calc/testdata/bad-requests.json with the same field errors as the Go API
// (calc/bad_requests_test.go) and POST /v1/evaluate (api/bad_requests_test.go):
// its own boundary checks (checkRequest) and the Go engine behind them speak
// in the same words. A case's errors_js, where present, is a known difference
// its note explains.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load, ThroughputError } from '../../build/npm/throughput.js';

const { cases } = JSON.parse(readFileSync(new URL('../../calc/testdata/bad-requests.json', import.meta.url), 'utf8'));

let calc;
before(async () => {
  calc = await load({ planner: true }); // the full engine: these requests simulate
});
after(() => calc.close());

test('the table has at least 45 cases', () => {
  assert.ok(cases.length >= 45, `${cases.length} cases`);
});

for (const c of cases) {
  test(c.name, () => {
    const want = c.errors_js ?? c.errors;
    // A case that is not a JSON value (bad JSON, trailing data) goes in as text.
    const call = c.request_text !== undefined ? () => calc.evaluateJSON(c.request_text) : () => calc.evaluate(c.request);
    assert.throws(call, (e) => {
      assert.ok(e instanceof ThroughputError, `not a ThroughputError: ${e}`);
      assert.deepEqual(e.errors, want);
      return true;
    });
  });
}
