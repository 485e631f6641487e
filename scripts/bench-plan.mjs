// Times the deployment planner through the JavaScript module (the planner
// build, throughput-planner.wasm) against native Go, in interleaved rounds
// so that both see the same machine load:
//   ./build.sh build && node scripts/bench-plan.mjs [rounds]
// The request is calc/planner's BenchmarkPlan one: Llama 3.1 8B at 20
// requests/s of 2048+500 tokens under TTFT <= 1 s and TPOT <= 50 ms over
// the whole catalog, the analytic search alone (verify: {top: 0}). Also
// times the scaling plans (one accelerator, 2 to 38 max_num_seqs values:
// about 400, 2,000 and 8,000 candidates) and a plan as it runs by default
// and in the page's planning view (verify absent: the simulator replays
// the top 5, 200 requests each), as the extra time over the search. Prints medians of wall and CPU
// time (process.cpuUsage: the machine is shared, wall time overstates the
// work); asserts nothing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from '../build/npm/throughput.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rounds = Number(process.argv[2] || 7);
const base = {
  model: 'meta-llama/Llama-3.1-8B-Instruct',
  workload: { request_rate: 20, input_tokens: 2048, output_tokens: 500 },
  slo: { ttft_ms: 1000, tpot_ms: 50 },
  verify: { top: 0 },
};
const scaling = [2, 10, 38].map((n) => ({
  ...base,
  constraints: { accelerators: ['h100-sxm-80gb'] },
  search: { max_num_seqs: Array.from({ length: n }, (_, i) => 64 + 16 * i) },
}));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const time = (fn) => {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  fn();
  const c = process.cpuUsage(c0);
  return { wall: performance.now() - t0, cpu: (c.user + c.system) / 1e3 };
};

const dir = mkdtempSync(join(tmpdir(), 'throughput-plan-bench-'));
const testBinary = join(dir, 'calc.test');
try {
  execFileSync('go', ['test', '-c', '-o', testBinary, './calc/planner'], { cwd: root, stdio: 'inherit' });
  const native = () => {
    const out = execFileSync(testBinary, ['-test.run', '^$', '-test.bench', '^BenchmarkPlan$', '-test.benchtime', '10x'], { cwd: join(root, 'calc', 'planner'), encoding: 'utf8' });
    const m = /^BenchmarkPlan(-\d+)?\s+\d+\s+([\d.]+) ns\/op\s+([\d.]+) candidates\/op\s+([\d.]+) cpu-ms\/op/m.exec(out);
    return { wall: Number(m[2]) / 1e6, candidates: Number(m[3]), cpu: Number(m[4]) };
  };
  const calc = await load({ planner: true });
  for (let i = 0; i < 3; i++) calc.plan(base); // warm up the JIT and the Go heap
  const candidates = calc.plan(base).candidates;
  const rows = [];
  for (let r = 0; r < rounds; r++) {
    const n = native();
    const js = time(() => calc.plan(base));
    const verified = time(() => calc.plan({ ...base, verify: undefined })); // the default: top 5, 200 requests each
    const scale = scaling.map((req) => time(() => calc.plan(req)));
    rows.push({ n, js, verified, scale });
  }
  const sizes = scaling.map((req) => calc.plan(req).candidates);
  calc.close();
  const f = (x) => x.toFixed(1);
  console.log(`whole-catalog plan, ${candidates} candidates, medians of ${rounds} rounds (ms):`);
  console.log(`  native Go   wall ${f(median(rows.map((r) => r.n.wall)))}  cpu ${f(median(rows.map((r) => r.n.cpu)))}`);
  console.log(`  JS module   wall ${f(median(rows.map((r) => r.js.wall)))}  cpu ${f(median(rows.map((r) => r.js.cpu)))}`);
  console.log(`  verify by default (top 5, 200 requests each), extra over the search: wall ${f(median(rows.map((r) => r.verified.wall - r.js.wall)))}  cpu ${f(median(rows.map((r) => r.verified.cpu - r.js.cpu)))}`);
  console.log('scaling through the JS module (one accelerator):');
  sizes.forEach((n, i) => {
    const cpu = median(rows.map((r) => r.scale[i].cpu));
    console.log(`  ${String(n).padStart(5)} candidates  wall ${f(median(rows.map((r) => r.scale[i].wall)))}  cpu ${f(cpu)}  cpu µs/candidate ${f((cpu / n) * 1e3)}`);
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
