// The WebAssembly engine answers the golden requests exactly as native Go
// does: calc/golden_test.go writes calc/testdata/golden/*.{report,errors}.json
// from the native engine; here the same requests go through the built package (build/npm/throughput.js).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { load, ThroughputError } from '../../build/npm/throughput.js';

const dir = new URL('../../calc/testdata/golden/', import.meta.url);
const names = readdirSync(dir).filter((f) => f.endsWith('.request.json')).map((f) => f.slice(0, -'.request.json'.length));
const read = (file) => JSON.parse(readFileSync(new URL(file, dir), 'utf8'));

/** Relative tolerance for floats: 0, since both sides run the same Go code. */
const FLOAT_TOLERANCE = 0;

/** Compares two JSON values field by field; the message names the path. */
function assertSameJSON(got, want, path = '') {
  if (typeof want === 'number' && typeof got === 'number') {
    const scale = Math.max(Math.abs(want), Number.MIN_VALUE);
    assert.ok(got === want || Math.abs(got - want) / scale <= FLOAT_TOLERANCE, `${path}: got ${got}, want ${want}`);
  } else if (Array.isArray(want)) {
    assert.ok(Array.isArray(got), `${path}: got ${JSON.stringify(got)}, want an array`);
    assert.equal(got.length, want.length, `${path}: length`);
    want.forEach((w, i) => assertSameJSON(got[i], w, `${path}[${i}]`));
  } else if (want !== null && typeof want === 'object') {
    assert.ok(got !== null && typeof got === 'object' && !Array.isArray(got), `${path}: want an object`);
    assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort(), `${path}: keys`);
    for (const k of Object.keys(want)) assertSameJSON(got[k], want[k], path ? `${path}.${k}` : k);
  } else {
    assert.equal(got, want, path);
  }
}

let calc;
before(async () => {
  calc = await load({ planner: true }); // the full engine: these requests simulate
});
after(() => calc.close());

test('there are at least 10 golden requests, reports and errors both', () => {
  assert.ok(names.filter((n) => !n.startsWith('error-')).length >= 10);
  assert.ok(names.some((n) => n.startsWith('error-')));
});

for (const name of names) {
  const request = read(`${name}.request.json`);
  if (name.startsWith('error-')) {
    test(`${name}: same errors as native Go`, () => {
      const want = read(`${name}.errors.json`);
      assert.throws(() => calc.evaluateJSON(JSON.stringify(request)), (e) => {
        assert.ok(e instanceof ThroughputError);
        assert.deepEqual(e.errors, want);
        return true;
      });
      // The object path: the module's own checks or the engine's, same list.
      assert.throws(() => calc.evaluate(request), (e) => e instanceof ThroughputError && assert.deepEqual(e.errors, want) === undefined);
    });
  } else {
    test(`${name}: same report as native Go`, () => {
      const want = read(`${name}.report.json`);
      assertSameJSON(calc.evaluate(request), want);
      assertSameJSON(JSON.parse(calc.evaluateJSON(JSON.stringify(request))), want);
    });
  }
}
