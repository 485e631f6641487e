// Run by ./build.sh test (test_pack) inside a temporary project where the
// packed build/npm/ tarball was installed: the package imports by name, finds its
// .wasm next to itself, evaluates, reports errors as ThroughputError, and
// ships exactly its seven files.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { load, ThroughputError } from '@modelrefs/throughput';

const calc = await load();
const report = calc.evaluate({ model: 'llama-3.1-8b', hardware: 'h100-sxm' });
assert.equal(report.kv_cache.bytes_per_token, 2 * 32 * 8 * 128 * 2);
assert.equal(report.sweep.length, 64);
assert.throws(() => calc.evaluate({ model: 'llama-3.1-8b', hardware: 'h100-sxm', colour: 1 }), ThroughputError);
calc.close();
// The planner build sits next to the default engine.
const planner = await load({ planner: true });
assert.equal(planner.hasPlanner, true);
assert.equal(planner.plan({ model: 'llama-3.1-8b', workload: { request_rate: 1 }, slo: { tpot_ms: 50 }, constraints: { accelerators: ['h100-sxm'] } }).feasible, true);
planner.close();

const pkgDir = dirname(createRequire(import.meta.url).resolve('@modelrefs/throughput/package.json'));
assert.deepEqual(readdirSync(pkgDir).sort(), ['contract.d.ts', 'package.json', 'throughput-planner.wasm', 'throughput.d.ts', 'throughput.js', 'throughput.wasm', 'wasm_exec.js']);
console.log(`@modelrefs/throughput ${report.version} from the tarball: ok`);
