// Median time of one simulation of 10,000 requests (1,024 in, 256 out,
// Poisson at 20 req/s, Llama-3.1-8B on one H100 SXM) through the
// JavaScript module (WebAssembly), and the same through native Go's
// benchmark for comparison (go test -bench 'Simulate/poisson/requests=10000').
// --features turns on prefix caching (a 512-token prefix over 8 prefixes)
// and speculative decoding (EAGLE, k = 3, a = 0.7), as
// go test -bench SimulateFeatures does natively.
//   node scripts/bench-sim-wasm.mjs [rounds] [--features]
import { load } from '../build/npm/throughput.js';

const args = process.argv.slice(2);
const features = args.includes('--features');
const rounds = Number(args.find((a) => a !== '--features') ?? 7);
const calc = await load({ planner: true }); // the full engine: the light one has no simulator
const request = {
  model: 'meta-llama/Llama-3.1-8B-Instruct', hardware: 'h100-sxm', max_model_len: 8192,
  workload: { input_tokens: 1024, output_tokens: 256 },
  simulate: { num_requests: 10000, arrival: 'poisson', request_rate: 20, seed: 1 },
};
if (features) {
  Object.assign(request.workload, { shared_prefix_tokens: 512, num_prefixes: 8 });
  request.speculative_config = { method: 'eagle', num_speculative_tokens: 3, acceptance_rate: 0.7 };
}
calc.evaluate(request); // warm-up
const times = [];
const cpus = []; // process CPU time per round, ms: what the run costs when the machine is shared
let report;
for (let i = 0; i < rounds; i++) {
  const t = performance.now();
  const c = process.cpuUsage();
  report = calc.evaluate(request);
  const d = process.cpuUsage(c);
  times.push(performance.now() - t);
  cpus.push((d.user + d.system) / 1000);
}
times.sort((a, b) => a - b);
cpus.sort((a, b) => a - b);
const s = report.simulation;
console.log(`simulate 10,000 requests${features ? ' (prefix caching + speculation)' : ''} through the module: median ${times[times.length >> 1].toFixed(1)} ms over ${rounds} rounds ` +
  `(min ${times[0].toFixed(1)}, max ${times[times.length - 1].toFixed(1)}); CPU median ${cpus[cpus.length >> 1].toFixed(1)} ms; ` +
  `${s.num_requests ?? ''} requests, ${s.preemptions} preemptions`);
calc.close?.();
