#!/usr/bin/env node
// Soak test of the Throughput worker on a local workerd (loopback only; not
// part of ./build.sh test).
//
//   ./build.sh worker build && node scripts/soak-worker.mjs [--duration 3600] [--rate 200] [--sample 10] [--warmup 60]
//
// It starts the loopback Hub stand-in (tests/hub/server.mjs) and workerd
// (build/worker/workerd.capnp, one Go instance per isolate, its Hub the
// stand-in), warms the worker up for --warmup s at the same rate, then sends an
// open loop of --rate requests/s for --duration s (default an hour), at
// most 64 in flight (a request that would exceed that is counted as
// dropped, not sent), each with a 10 s timeout. A cycle of 200 requests
// mixes what an exposed API sees:
//   - 2 default simulations (POST /v1/evaluate with simulate: {});
//   - 1 plan over three accelerators (POST /v1/plan, the OpenAPI example);
//   - 10 Hub ids the stand-in serves (200), 4 gated ones without a token
//     and 10 ids it does not hold, each unknown id new for 1,000 cycles
//     (4xx; the worker's negative cache and coalescing see them);
//   - 60 invalid analytic requests (400: scripts/load-worker.mjs's);
//   - the rest valid analytic requests, POST and GET, and /healthz.
// Each must get its status (200, or the 4xx it expects): a 5xx or a wrong
// status counts as an error. Every --sample s it reads workerd's resident
// memory (VmRSS in /proc), and at the end it prints the latency
// percentiles, the errors, and the RSS series with its drift: the last
// sample against the first after the warm-up, and the spread over the
// run.
import http from "node:http";
import os from "node:os";
import { ENTRIES, CHEAP, VALID, startWorkerd, rssMiB, quantile, sleep } from "./load-worker.mjs";
import { startHub, SOURCES } from "../tests/hub/server.mjs";

const MAX_IN_FLIGHT = 64;
const TIMEOUT_MS = 10000;

function parseArgs(argv) {
  const opts = { duration: 3600, rate: 200, sample: 10, warmup: 60 };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, "");
    if (!(key in opts)) throw new Error(`unknown option ${argv[i]}`);
    opts[key] = Number(argv[i + 1]);
  }
  opts.duration = Math.max(10, Math.min(opts.duration, 4 * 3600));
  opts.rate = Math.max(1, Math.min(opts.rate, 1000));
  opts.sample = Math.max(1, opts.sample);
  return opts;
}

const post = (path, body, expect) => ({ method: "POST", path, body: typeof body === "string" ? body : JSON.stringify(body), expect });
const get = (path, expect) => ({ method: "GET", path, expect });

// cycle returns the c-th cycle's 200 requests.
function cycle(c) {
  const served = Object.keys(SOURCES).filter((id) => !SOURCES[id].gated);
  const gated = Object.keys(SOURCES).filter((id) => SOURCES[id].gated);
  const invalid = CHEAP.filter((b) => b.expect === 400);
  const out = [];
  for (let i = 0; i < 2; i++) out.push(post("/v1/evaluate", { model: "llama-3.1-8b", hardware: "h100-sxm", simulate: {} }, 200));
  out.push(post("/v1/plan", {
    model: "meta-llama/Llama-3.1-8B-Instruct",
    workload: { request_rate: 20, input_tokens: 2048, output_tokens: 500 },
    slo: { ttft_ms: 1000, tpot_ms: 50 },
    constraints: { accelerators: ["h100-sxm-80gb", "l40s", "a100-sxm-80gb"] },
    limit: 3,
  }, 200));
  for (let i = 0; i < 10; i++) out.push(post("/v1/evaluate", { model: served[(c + i) % served.length], hardware: "h100-sxm" }, 200));
  for (let i = 0; i < 4; i++) out.push(post("/v1/evaluate", { model: gated[(c + i) % gated.length], hardware: "h100-sxm" }, "4xx"));
  for (let i = 0; i < 10; i++) out.push(get(`/v1/evaluate?model=soak-missing/model-${(c % 1000) * 10 + i}&hardware=h100-sxm`, "4xx"));
  for (let i = 0; i < 60; i++) out.push(post("/v1/evaluate", invalid[i % invalid.length].body, 400));
  for (let i = 0; out.length < 200; i++) {
    if (i % 10 === 0) out.push(get("/healthz", 200));
    else if (i % 3 === 0) out.push(get("/v1/evaluate?model=llama-3.1-8b&hardware=h100-sxm&input_tokens=2048", 200));
    else out.push(post("/v1/evaluate", VALID[i % VALID.length].body, 200));
  }
  return out;
}

// fiveHundreds counts the 5xx answers whose bodies were printed (the
// first three).
let fiveHundreds = 0;

function send(agent, port, r) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const headers = r.body ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(r.body) } : {};
    const req = http.request({ host: "127.0.0.1", port, path: r.path, method: r.method, agent, timeout: TIMEOUT_MS, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => {
        if (res.statusCode >= 500 && text.length < 2000) text += c;
      });
      res.on("end", () => {
        const s = res.statusCode;
        const ok = r.expect === "4xx" ? s >= 400 && s < 500 : s === r.expect;
        if (s >= 500 && fiveHundreds++ < 3) console.error(`HTTP ${s} for ${r.method} ${r.path} ${r.body ?? ""}: ${text}`);
        resolve({ ok, ms: performance.now() - t0, status: s, why: ok ? "" : `${r.method} ${r.path.slice(0, 40)}: HTTP ${s} (want ${r.expect})` });
      });
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (err) => resolve({ ok: false, ms: performance.now() - t0, status: 0, why: err.message }));
    req.end(r.body);
  });
}

// run sends the open loop for seconds s, calling tick every opts.sample s.
async function run(agent, port, rate, seconds, tick) {
  const results = [];
  const pending = new Set();
  let inFlight = 0;
  let dropped = 0;
  const t0 = performance.now();
  const total = Math.round(rate * seconds);
  let c = 0;
  let batch = [];
  for (let i = 0; i < total; i++) {
    if (batch.length === 0) batch = cycle(c++);
    const r = batch.shift();
    const due = t0 + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    tick?.((performance.now() - t0) / 1000);
    if (inFlight >= MAX_IN_FLIGHT) {
      dropped++;
      continue;
    }
    inFlight++;
    const p = send(agent, port, r).then((res) => {
      inFlight--;
      results.push(res);
      pending.delete(p);
    });
    pending.add(p);
  }
  await Promise.all(pending);
  return { results, dropped, seconds: (performance.now() - t0) / 1000 };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const hub = await startHub();
  process.env.THROUGHPUT_HUB_URL = hub.url;
  process.env.THROUGHPUT_HUB_TOKEN = "";
  const wd = await startWorkerd(ENTRIES.shared);
  const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT });
  try {
    console.error(`workerd pid ${wd.pid} on port ${wd.port}, Hub stand-in at ${hub.url}; warm-up ${opts.warmup} s, then ${opts.duration} s at ${opts.rate} req/s`);
    await run(agent, wd.port, opts.rate, opts.warmup);
    const samples = [{ t: 0, rss: rssMiB(wd.pid) }];
    let next = opts.sample;
    const tick = (t) => {
      if (t < next) return;
      next += opts.sample;
      const rss = rssMiB(wd.pid);
      samples.push({ t: Math.round(t), rss });
      console.error(`t=${Math.round(t)} s RSS ${rss.toFixed(1)} MiB`);
    };
    const { results, dropped, seconds } = await run(agent, wd.port, opts.rate, opts.duration, tick);
    samples.push({ t: Math.round(seconds), rss: rssMiB(wd.pid) });
    const ms = results.filter((r) => r.ok).map((r) => r.ms).sort((a, b) => a - b);
    const why = {};
    for (const r of results) if (!r.ok) why[r.why] = (why[r.why] || 0) + 1;
    const rss = samples.map((s) => s.rss);
    const first = rss[0];
    const last = rss[rss.length - 1];
    const lo = Math.min(...rss);
    const hi = Math.max(...rss);
    // Least-squares slope of RSS over time, in MiB per hour.
    const n = samples.length;
    const mt = samples.reduce((a, s) => a + s.t, 0) / n;
    const mr = rss.reduce((a, x) => a + x, 0) / n;
    const slope = samples.reduce((a, s) => a + (s.t - mt) * (s.rss - mr), 0) / Math.max(samples.reduce((a, s) => a + (s.t - mt) ** 2, 0), 1e-9);
    console.log(`soak: ${seconds.toFixed(0)} s at ${opts.rate} req/s on local workerd (${os.cpus().length} CPUs shared), after a ${opts.warmup} s warm-up`);
    console.log(`requests: ${results.length} answered, ${results.filter((r) => r.status >= 500).length} 5xx, ${results.length - ms.length} wrong or failed, ${dropped} dropped at ${MAX_IN_FLIGHT} in flight; served ${(ms.length / seconds).toFixed(0)} req/s`);
    if (Object.keys(why).length) console.log("failures:", JSON.stringify(why));
    console.log(`latency of the right answers: p50 ${quantile(ms, 0.5).toFixed(1)} ms, p99 ${quantile(ms, 0.99).toFixed(1)} ms, max ${ms[ms.length - 1]?.toFixed(1)} ms`);
    console.log(`workerd RSS: ${first.toFixed(1)} MiB after the warm-up, ${last.toFixed(1)} MiB at the end (${(((last - first) / first) * 100).toFixed(1)} %), ${lo.toFixed(1)}-${hi.toFixed(1)} MiB over the run (spread ${(((hi - lo) / first) * 100).toFixed(1)} %), trend ${slope >= 0 ? "+" : ""}${(slope * 3600).toFixed(1)} MiB/hour`);
    const late = rss.slice(Math.floor(rss.length / 2));
    console.log(`workerd RSS over the run's second half: ${Math.min(...late).toFixed(1)}-${Math.max(...late).toFixed(1)} MiB`);
    console.log(`RSS samples (s: MiB): ${samples.map((s) => `${s.t}: ${s.rss.toFixed(0)}`).join(", ")}`);
    process.exitCode = results.some((r) => r.status >= 500) ? 1 : 0;
  } finally {
    agent.destroy();
    wd.stop();
    await hub.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
