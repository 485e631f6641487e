// Times the JavaScript bridge against native Go on the same request, in
// interleaved rounds so that both see the same machine load:
//   ./build.sh build && node scripts/bench-wasm.mjs [rounds]
// (WASM_FILE=path times another build of the same module.)
// Native: the Go benchmarks of wasm/js/bridge/bench_test.go (ParseRequest +
// Evaluate + json.Marshal, and Evaluate alone). Bridge: calc.evaluate(object)
// (boundary checks, JSON.stringify, the Go call, the report read off the
// tape) and calc.evaluateJSON(text) (JSON text both ways). Also times
// load() in fresh processes (import + read + compile + instantiate + the
// model catalog, then the first evaluate) and in this process. Prints
// medians; asserts nothing.
import { execFileSync } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from '../build/npm/throughput.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rounds = Number(process.argv[2] || 15);
const requestFile = join(root, 'calc/testdata/golden/dense-llama-3.1-8b-h100.request.json');
const requestText = readFileSync(requestFile, 'utf8');
const request = JSON.parse(requestText);
const wasmFile = process.env.WASM_FILE || join(root, 'build/npm/throughput.wasm');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const dir = mkdtempSync(join(tmpdir(), 'throughput-bench-'));
const testBinary = join(dir, 'js.test');
try {
  execFileSync('go', ['test', '-c', '-o', testBinary, './wasm/js/bridge'], { cwd: root, stdio: 'inherit' });
  const native = () => {
    const out = execFileSync(testBinary, ['-test.run', '^$', '-test.bench', '^Benchmark(EvaluateJSON|Evaluate)$', '-test.benchtime', '300x'], { cwd: join(root, 'wasm/js/bridge'), encoding: 'utf8' });
    const ns = (name) => Number(new RegExp(`^Benchmark${name}(-\\d+)?\\s+\\d+\\s+([\\d.]+) ns/op`, 'm').exec(out)[2]);
    return { evaluateJSON: ns('EvaluateJSON') / 1e3, evaluate: ns('Evaluate') / 1e3 };
  };

  const calc = await load({ wasm: readFileSync(wasmFile) });
  const points = calc.evaluate(request).sweep.length;
  const perCall = (fn, n) => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    return ((performance.now() - t0) / n) * 1e3; // µs
  };
  for (let i = 0; i < 200; i++) calc.evaluate(request); // warm up the JIT and the Go heap

  const rows = [];
  for (let r = 0; r < rounds; r++) {
    const n = native();
    const bridge = perCall(() => calc.evaluate(request), 300);
    const bridgeJSON = perCall(() => calc.evaluateJSON(requestText), 300);
    rows.push({ ...n, bridge, bridgeJSON, ratio: bridge / n.evaluateJSON });
  }
  calc.close();

  // load() in this process reuses V8's compiled code for the same bytes;
  // a fresh process per run measures a cold start, as a page or a node
  // script sees it.
  const warmLoads = [];
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now();
    const c = await load({ wasm: readFileSync(wasmFile) });
    c.evaluate(request);
    warmLoads.push(performance.now() - t0);
    c.close();
  }
  const coldScript = `
    const t0 = performance.now();
    const { load } = await import(${JSON.stringify(new URL('../build/npm/throughput.js', import.meta.url).href)});
    const { readFile } = await import('node:fs/promises');
    const c = await load({ wasm: await readFile(${JSON.stringify(wasmFile)}) });
    const t1 = performance.now();
    c.evaluate(${requestText.trim()});
    const t2 = performance.now();
    console.log(JSON.stringify([t1 - t0, t2 - t1]));
    c.close();`;
  const cold = [];
  for (let i = 0; i < 9; i++) {
    cold.push(JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', coldScript], { encoding: 'utf8' })));
  }

  const m = (k) => median(rows.map((row) => row[k]));
  const f = (x) => x.toFixed(1).padStart(8);
  console.log(`request: ${requestFile.slice(root.length + 1)} (${points}-point sweep), ${rounds} interleaved rounds, medians`);
  console.log(`native  ParseRequest+Evaluate+json.Marshal ${f(m('evaluateJSON'))} µs`);
  console.log(`native  Evaluate alone                     ${f(m('evaluate'))} µs`);
  console.log(`bridge  calc.evaluate(object)              ${f(m('bridge'))} µs`);
  console.log(`bridge  calc.evaluateJSON(text)            ${f(m('bridgeJSON'))} µs`);
  console.log(`ratio   bridge / native (median of rounds) ${f(m('ratio'))} x   (budget 4x)`);
  console.log(`load    cold process: import + read + compile + instantiate + catalog ${f(median(cold.map((x) => x[0])))} ms`);
  console.log(`        cold process: first evaluate ${f(median(cold.map((x) => x[1])))} ms`);
  console.log(`        warm (same bytes compiled before in this process): load + first result ${f(median(warmLoads))} ms`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
