#!/usr/bin/env node
// Load test of the Throughput worker on a local workerd (loopback only).
//
//   ./build.sh worker build && node scripts/load-worker.mjs [--rate 200] [--duration 20] [--runs 1] [--only shared|stock] [--mix valid|hostile] [--loops 1]
//
// For each entry it starts workerd (build/worker/workerd.capnp: one Go
// instance per isolate; build/worker/stock/workerd-stock.capnp: syumai/
// workers' stock shim, one Go instance per request), then
//   1. warm-up: 3000 requests, 4 at a time (100 for the stock shim, which
//      is too slow for more), since workerd's resident memory grows with the
//      first few thousand requests of any worker (a plain JavaScript worker
//      answering 15 KB bodies too) before it levels off;
//   2. sequential: 200 requests one after another (latency without queueing);
//   3. open loop: POST /v1/evaluate at --rate requests/s for --duration s,
//      at most 64 in flight (a request that would exceed that counts as an
//      error), each with a 10 s timeout;
// and reads workerd's resident memory (VmRSS in /proc) after the first
// request, after the warm-up and after the open loop. Everything is bounded: at most 60 s and 20 000 requests
// per open loop. Timings are wall-clock on a shared machine: compare
// medians of several --runs, measured in one invocation.
import { spawn } from "node:child_process";
import { readFileSync, openSync, closeSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const WORKERD = path.join(ROOT, "node_modules/.bin/workerd");
export const ENTRIES = {
  shared: { dir: "build/worker", config: "workerd.capnp", label: "entry.mjs (one Go instance per isolate)", site: true, warmup: 3000 },
  stock: { dir: "build/worker/stock", config: "workerd-stock.capnp", label: "stock shim (one Go instance per request)", site: false, warmup: 100 },
};
const MAX_DURATION_S = 60;
const MAX_REQUESTS = 20000;
const MAX_IN_FLIGHT = 64;
const TIMEOUT_MS = 10000;

// Requests rotate through a few realistic questions (--mix valid), or
// through those, bad requests and simulations up to the work budget (--mix
// hostile: what an exposed API sees). Each carries the status it must get.
export const VALID = [
  { model: "meta-llama/Llama-3.1-8B-Instruct", hardware: "h100-sxm", workload: { input_tokens: 2048, output_tokens: 512 }, slo: { tpot_ms: 40 }, gpu_hour_usd: 2.5 },
  { model: "llama-3.1-70b-instruct", hardware: "h100-sxm", tensor_parallel_size: 4, workload: { input_tokens: 1024, output_tokens: 256 } },
  { model: "mistral-7b", hardware: "a100-sxm-80gb", kv_cache_dtype: "fp8", workload: { concurrency: 64 } },
  { model: "meta-llama/Llama-3.1-8B-Instruct", hardware: "rtx-4090", engine: "sglang", slo: { ttft_ms: 500 } },
].map((b) => ({ body: JSON.stringify(b), expect: 200 }));

// The hostile mix, 300 requests in a cycle (one second at 300 req/s): 296
// valid or invalid analytic requests (six of every ten invalid), the
// issue's refused 31-second request, 2 default simulations and 1
// simulation just under the work budget (the request cut to 230
// requests: 3.9e6 of the 4e6 sequence-steps, about 0.2 s of one core on
// workerd), whose CPU dominates the cycle. One workerd isolate on two
// shared cores cannot serve many more budget-sized simulations per second
// at this rate; Cloudflare spreads requests over isolates.
export const CHEAP = [
  ...VALID,
  // Invalid: each must be a 4xx naming the field, never a 5xx.
  { body: '{"model":"llama-3.1-8b","hardware":"h100-sxm","tensor_parallel_size":3}', expect: 400 },
  { body: '{"model":"llama-3.1-8b","hardware":{"memory_bytes":1e-300,"memory_bandwidth_bytes_per_s":1e-300,"peak_flops":{"bf16":1e-300}}}', expect: 400 },
  { body: '{"model_config":{"model_type":"qwen2","hidden_size":4096,"num_attention_heads":32,"num_key_value_heads":8.5,"num_hidden_layers":32,"intermediate_size":11008,"vocab_size":32000,"max_position_embeddings":4096},"hardware":"h100-sxm"}', expect: 400 },
  { body: '{"model":"llama-3.1-8b","hardware":"h100-sxm","workload":{"input_tokens":-1,"prompt_tokens":3}}', expect: 400 },
  { body: `{"model":"${"x".repeat(20000)}","hardware":"h100-sxm"}`, expect: 400 },
  { body: '{"model":"llama-3.1-8b","hardware":"h100-sxm"', expect: 400 },
];
const EXPENSIVE = '{"model":"llama-3.1-8b","hardware":"h200","kv_cache_dtype":"fp8","max_num_seqs":1024,"workload":{"input_tokens":1,"output_tokens":16000},"simulate":{"num_requests":NUM,"arrival":"burst","timeline_points":2000}}';
const HOSTILE = Array.from({ length: 300 }, (_, i) => {
  if (i === 150) return { body: EXPENSIVE.replace("NUM", "100000"), expect: 400 };
  if (i === 299) return { body: EXPENSIVE.replace("NUM", "230"), expect: 200 };
  if (i % 150 === 75) return { body: '{"model":"llama-3.1-8b","hardware":"h100-sxm","simulate":{}}', expect: 200 };
  return CHEAP[i % CHEAP.length];
});
let BODIES = VALID;

function parseArgs(argv) {
  const opts = { rate: 200, duration: 20, runs: 1, only: "", mix: "valid", loops: 1 };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, "");
    if (!(key in opts)) throw new Error(`unknown option ${argv[i]}`);
    opts[key] = key === "only" || key === "mix" ? argv[i + 1] : Number(argv[i + 1]);
  }
  opts.duration = Math.min(opts.duration, MAX_DURATION_S);
  opts.runs = Math.max(1, Math.min(opts.runs, 5));
  opts.loops = Math.max(1, Math.min(opts.loops, 3));
  return opts;
}

// startWorkerd starts workerd on a free loopback port, in its own process
// group, and resolves with { port, pid, stop } once it listens.
export async function startWorkerd(entry) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "throughput-load-"));
  const ctlPath = path.join(tmp, "control");
  const ctl = openSync(ctlPath, "w");
  // The API paths never reach the static files: an empty site will do.
  const site = mkdtempSync(path.join(os.tmpdir(), "throughput-site-"));
  const args = ["serve", entry.config, "--socket-addr", "http=127.0.0.1:0", "--control-fd", "3"];
  if (entry.site) args.push("--directory-path", `site=${site}`);
  const child = spawn(WORKERD, args, {
    cwd: path.join(ROOT, entry.dir),
    detached: true,
    stdio: ["ignore", "ignore", "inherit", ctl],
  });
  closeSync(ctl);
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
    rmSync(tmp, { recursive: true, force: true });
    rmSync(site, { recursive: true, force: true });
  };
  for (let i = 0; i < 100; i++) {
    const m = readFileSync(ctlPath, "utf8").match(/"port":(\d+)/);
    if (m) return { port: Number(m[1]), pid: workerdPid(child.pid), stop };
    await sleep(100);
  }
  stop();
  throw new Error("workerd did not start within 10 s");
}

// workerdPid finds the workerd process: node_modules/.bin/workerd may be a
// node wrapper that spawns the binary.
export function workerdPid(pid) {
  try {
    const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    for (const k of kids) {
      const found = workerdPid(Number(k));
      if (found) return found;
    }
  } catch {}
  return pid;
}

export function rssMiB(pid) {
  const m = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
  return m ? Number(m[1]) / 1024 : NaN;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function post(agent, port, { body, expect }) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const req = http.request(
      { host: "127.0.0.1", port, path: "/v1/evaluate", method: "POST", agent, timeout: TIMEOUT_MS, headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } },
      (res) => {
        let n = 0;
        res.on("data", (c) => (n += c.length));
        res.on("end", () => {
          const ok = res.statusCode === expect && (expect !== 200 || n > 1000);
          resolve({ ok, ms: performance.now() - t0, status: res.statusCode, why: ok ? "" : res.statusCode === 200 ? "short body" : `HTTP ${res.statusCode} (want ${expect})` });
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (err) => resolve({ ok: false, ms: performance.now() - t0, why: err.message }));
    req.end(body);
  });
}

export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function summarize(results, seconds) {
  const ms = results.filter((r) => r.ok).map((r) => r.ms).sort((a, b) => a - b);
  const why = {};
  for (const r of results) if (!r.ok) why[r.why] = (why[r.why] || 0) + 1;
  const fivexx = results.filter((r) => r.status >= 500).length;
  return { n: results.length, errors: results.length - ms.length, fivexx, why, p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), rps: ms.length / seconds };
}

async function sequential(agent, port, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await post(agent, port, BODIES[i % BODIES.length]));
  return out;
}

// openLoop sends at a fixed rate regardless of answers.
async function openLoop(agent, port, rate, seconds) {
  const total = Math.min(MAX_REQUESTS, Math.round(rate * seconds));
  const results = [];
  const pending = [];
  let inFlight = 0;
  const t0 = performance.now();
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    if (inFlight >= MAX_IN_FLIGHT) {
      results.push({ ok: false, ms: NaN, why: `over ${MAX_IN_FLIGHT} in flight` });
      continue;
    }
    inFlight++;
    pending.push(
      post(agent, port, BODIES[i % BODIES.length]).then((r) => {
        inFlight--;
        results.push(r);
      }),
    );
  }
  await Promise.all(pending);
  return summarize(results, (performance.now() - t0) / 1000);
}

async function measure(name, opts) {
  const entry = ENTRIES[name];
  const wd = await startWorkerd(entry);
  const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT });
  try {
    await sequential(agent, wd.port, 1);
    const rssCold = rssMiB(wd.pid);
    await Promise.all([0, 1, 2, 3].map(() => sequential(agent, wd.port, entry.warmup / 4)));
    const seq = summarize(await sequential(agent, wd.port, 200), 1);
    const rssBefore = rssMiB(wd.pid);
    // With --loops N the open loop runs N times on the same instance and
    // the figures are the last loop's: memory that is flat stays put from
    // one loop to the next.
    let open;
    const rssLoops = [];
    for (let l = 0; l < opts.loops; l++) {
      open = await openLoop(agent, wd.port, opts.rate, opts.duration);
      rssLoops.push(rssMiB(wd.pid).toFixed(1));
    }
    if (opts.loops > 1) console.error(`${name}: RSS after each open loop ${rssLoops.join(", ")} MiB`);
    const rssAfter = rssMiB(wd.pid);
    return { seq, open, rssCold, rssBefore, rssAfter };
  } finally {
    agent.destroy();
    wd.stop();
  }
}

const median = (xs) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.mix === "hostile") BODIES = HOSTILE;
  else if (opts.mix !== "valid") throw new Error(`--mix is valid or hostile, got ${opts.mix}`);
  const names = opts.only ? [opts.only] : ["shared", "stock"];
  const rows = [];
  for (const name of names) {
    const runs = [];
    for (let i = 0; i < opts.runs; i++) {
      const r = await measure(name, opts);
      runs.push(r);
      console.error(`${name} run ${i + 1}: seq p50 ${r.seq.p50.toFixed(2)} ms p99 ${r.seq.p99.toFixed(2)} ms; open ${r.open.rps.toFixed(0)} req/s p50 ${r.open.p50.toFixed(2)} ms p99 ${r.open.p99.toFixed(2)} ms errors ${r.open.errors}/${r.open.n} ${JSON.stringify(r.open.why)}; RSS first request ${r.rssCold.toFixed(1)}, after warm-up ${r.rssBefore.toFixed(1)}, after open loop ${r.rssAfter.toFixed(1)} MiB`);
    }
    rows.push({
      entry: ENTRIES[name].label,
      "seq p50 ms": median(runs.map((r) => r.seq.p50)).toFixed(2),
      "seq p99 ms": median(runs.map((r) => r.seq.p99)).toFixed(2),
      [`${opts.rate}/s p50 ms`]: median(runs.map((r) => r.open.p50)).toFixed(2),
      [`${opts.rate}/s p99 ms`]: median(runs.map((r) => r.open.p99)).toFixed(2),
      "served req/s": median(runs.map((r) => r.open.rps)).toFixed(0),
      errors: runs.map((r) => r.open.errors).join("+"),
      "5xx": runs.map((r) => r.open.fivexx).join("+"),
      "RSS cold MiB": median(runs.map((r) => r.rssCold)).toFixed(1),
      "RSS before MiB": median(runs.map((r) => r.rssBefore)).toFixed(1),
      "RSS after MiB": median(runs.map((r) => r.rssAfter)).toFixed(1),
    });
  }
  console.log(`POST /v1/evaluate on local workerd (${opts.mix} mix: ${BODIES.length} bodies); ${opts.duration} s open loop at ${opts.rate} req/s; medians of ${opts.runs} run(s); ${os.cpus().length} CPUs shared, so timings are noisy`);
  console.table(rows);
  const bad = rows.some((r) => r.errors.split("+").some((e) => e !== "0"));
  process.exitCode = names.includes("shared") && rows[0].errors.split("+").some((e) => e !== "0") ? 1 : 0;
  if (bad) console.log("some requests failed (see errors)");
}

// Run as a command; scripts/soak-worker.mjs imports the helpers above.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
