// Run by ./build.sh test (test_pack) inside a temporary project where the
// packed build/npm/ tarball was installed: the package imports by name, finds its
// .wasm next to itself, evaluates, reports errors as ThroughputError, exports
// the element (./widget, ./throughput-calculator), and ships exactly the files
// FILES lists, which are also what `npm publish --dry-run` would upload
// (PUBLISH_JSON: its --json answer).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { load, ThroughputError } from '@modelrefs/throughput';

const FILES = [
  'LICENSE', 'README.md', 'catalog.json', 'contract.d.ts', 'hardware-sources.js', 'package.json',
  'throughput-calculator.d.ts', 'throughput-calculator.js', 'throughput-planner.wasm', 'throughput.d.ts', 'throughput.js',
  'throughput.wasm',
  'wasm_exec.js', 'widget.d.ts', 'widget.js',
];

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

// The element's modules load without a DOM (they register nothing there).
const widget = await import('@modelrefs/throughput/widget');
const cls = await import('@modelrefs/throughput/throughput-calculator');
assert.equal(widget.ThroughputCalculator.name, 'ThroughputCalculator');
assert.equal(typeof cls.default.define, 'function');
assert.equal(cls.WIDGET_DEFAULTS.model, 'llama-3.1-8b');

const pkgDir = dirname(createRequire(import.meta.url).resolve('@modelrefs/throughput/package.json'));
assert.deepEqual(readdirSync(pkgDir).sort(), FILES);
const pkg = JSON.parse(readFileSync(`${pkgDir}/package.json`, 'utf8'));
assert.equal(pkg.license, 'Apache-2.0');
assert.match(readFileSync(`${pkgDir}/LICENSE`, 'utf8'), /Apache License\s+Version 2\.0/);

const dry = JSON.parse(readFileSync(process.env.PUBLISH_JSON, 'utf8'))['@modelrefs/throughput'];
assert.deepEqual(dry.files.map((f) => f.path).sort(), FILES);
assert.equal(dry.id, `@modelrefs/throughput@${report.version}`);
console.log(`@modelrefs/throughput ${report.version} from the tarball: ok; npm publish --dry-run: ${dry.entryCount} files, ` +
  `${dry.size} bytes packed, ${dry.unpackedSize} unpacked`);
