// Median time of one simulation of 10,000 requests (1,024 in, 256 out,
// Poisson at 20 req/s, Llama-3.1-8B on one H100 SXM) through the
// JavaScript module (WebAssembly), and the same through native Go's
// benchmark for comparison (go test -bench 'Simulate/poisson/requests=10000').
// --features turns on prefix caching (a 512-token prefix over 8 prefixes)
// and speculative decoding (EAGLE, k = 3, a = 0.7), as
// go test -bench SimulateFeatures does natively.
// --traffic replays one hour of 100,000 requests instead (issue 33: at
// most 2 s in the browser engine): a rate curve of 100,000 / 3,600 req/s
// for 3,600 s, whose drawn arrivals run as a replayed trace (sched.Replay)
// on one instance, without a work budget. A trace of that size does not
// fit a JSON request (64 KiB); go test ./calc -bench TraceHour parses one
// natively.
//   node scripts/bench-sim-wasm.mjs [rounds] [--features | --traffic]
import { load } from '../build/npm/throughput.js';

const args = process.argv.slice(2);
const features = args.includes('--features');
const traffic = args.includes('--traffic');
const rounds = Number(args.find((a) => !a.startsWith('--')) ?? 7);
// The full engine: the light one has no simulator.
const calc = await load(traffic ? { planner: true, workBudget: Infinity } : { planner: true });
const request = {
  model: 'meta-llama/Llama-3.1-8B-Instruct', hardware: 'h100-sxm', max_model_len: 8192,
  workload: { input_tokens: 1024, output_tokens: 256 },
  simulate: { num_requests: 10000, arrival: 'poisson', request_rate: 20, seed: 1 },
};
if (traffic) {
  request.simulate = { seed: 1, rate_curve: { times_s: [0, 3600], rates: [100000 / 3600, 100000 / 3600] }, timeline_points: 60 };
}
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
console.log(`simulate ${traffic ? 'one hour of ' + s.num_requests.toLocaleString('en') + ' requests (a rate curve, replayed)' : '10,000 requests'}${features ? ' (prefix caching + speculation)' : ''} through the module: median ${times[times.length >> 1].toFixed(1)} ms over ${rounds} rounds ` +
  `(min ${times[0].toFixed(1)}, max ${times[times.length - 1].toFixed(1)}); CPU median ${cpus[cpus.length >> 1].toFixed(1)} ms; ` +
  `${s.num_requests ?? ''} requests, ${s.preemptions} preemptions`);
calc.close?.();
