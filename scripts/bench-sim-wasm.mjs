// Median time of one simulation of 10,000 requests (1,024 in, 256 out,
// Poisson at 20 req/s, Llama-3.1-8B on one H100 SXM) through the
// JavaScript module (WebAssembly), and the same through native Go's
// benchmark for comparison (go test -bench 'Simulate/poisson/requests=10000').
//   node scripts/bench-sim-wasm.mjs [rounds]
import { load } from '../build/npm/throughput.js';

const rounds = Number(process.argv[2] ?? 7);
const calc = await load();
const request = {
  model: 'meta-llama/Llama-3.1-8B-Instruct', hardware: 'h100-sxm', max_model_len: 8192,
  workload: { input_tokens: 1024, output_tokens: 256 },
  simulate: { num_requests: 10000, arrival: 'poisson', request_rate: 20, seed: 1 },
};
calc.evaluate(request); // warm-up
const times = [];
let report;
for (let i = 0; i < rounds; i++) {
  const t = performance.now();
  report = calc.evaluate(request);
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
const s = report.simulation;
console.log(`simulate 10,000 requests through the module: median ${times[times.length >> 1].toFixed(1)} ms over ${rounds} rounds ` +
  `(min ${times[0].toFixed(1)}, max ${times[times.length - 1].toFixed(1)}); ${s.num_requests ?? ''} requests, ${s.preemptions} preemptions`);
calc.close?.();
