#!/usr/bin/env node
// Budgets of the calculator page, measured in headless Debian Chromium:
//
//   1. first-load transfer: bytes on the wire for a first visit, gzip
//      (tools/serve compresses when the client accepts it). Two figures:
//      what the page's own requests transferred up to its first result
//      (Chrome's encodedDataLength: headers + gzip bodies), and the gzip size
//      of every file a first visit fetches, the service worker's precache
//      included (an upper bound; the precache mostly revalidates with 304s).
//      Budget: 1.2 MB.
//   2. navigation to first result on localhost, cold (fresh profile, no HTTP
//      cache, no service worker) and warm (reload): median. Budget: 500 ms.
//      The first result is the first paint of the headline figure (Element
//      Timing), whoever wrote it: the HTML's build-time default view, or
//      app.js; with --query Q the page opens on ?Q, a link's own view,
//      which only the engine can compute.
//   3. one slider update (input- then output-tokens slider, sweep.points 256):
//      the input handler (evaluate + DOM and SVG update) plus a forced style
//      and layout, median and p95; and input to the next frame. Budget: 33 ms.
//   4. the planning view (?view=plan): once its engine has loaded (and run
//      its warm-up plan), a whole-catalog plan (Llama 3.1 8B, the view's
//      defaults, a different request rate each time so that none is
//      answered from the view's cache) from the click on Plan to the answer
//      drawn (the next frame), median of --plan-runs (5). The planner runs
//      in a Web Worker, prunes analytically and replays the top 5 in the
//      simulator (verify's default). Budget: 1 s.
//
// Usage: node scripts/bench-page.mjs [--runs N] [--updates N] [--plan-runs N] [--query Q] [--json]
// BASE_URL=http://host:port/ measures a running server; otherwise one is
// built (tools/serve) and started on a free port, serving build/site/
// (./build.sh build makes it). Needs /usr/bin/chromium. Machines here are noisy: read
// medians, and compare figures measured in one run.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import http from 'node:http';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, def) => { const i = args.indexOf(`--${name}`); return i >= 0 ? Number(args[i + 1]) : def; };
const RUNS = opt('runs', 9);
const UPDATES = opt('updates', 240);
const JSON_OUT = args.includes('--json');
const QUERY = args.includes('--query') ? args[args.indexOf('--query') + 1] : '';
const PLAN_RUNS = opt('plan-runs', 5);
const BUDGET = { transfer_bytes: 1.2e6, first_result_ms: 500, update_ms: 33, plan_ms: 1000 };
const LAUNCH = {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, viewport: { width: 1280, height: 900 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

const median = (xs) => { const s = xs.filter(Number.isFinite).sort((a, b) => a - b); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const quantile = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };
const log = (...a) => { if (!JSON_OUT) console.error(...a); };

async function startServer() {
  if (process.env.BASE_URL) return { url: process.env.BASE_URL.replace(/\/?$/, '/'), stop() {} };
  const bin = path.join(os.tmpdir(), `throughput-bench-serve-${process.pid}`);
  execFileSync('go', ['build', '-o', bin, './tools/serve'], { cwd: ROOT, stdio: 'inherit' });
  const proc = spawn(bin, ['-quiet', '-dir', path.join(ROOT, 'build', 'site'), '-addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d) => { out += d; const m = out.match(/at (http:\/\/\S+)/); if (m) resolve(m[1]); });
    proc.on('exit', (c) => reject(new Error(`serve exited with ${c}`)));
  });
  return { url, stop() { proc.kill(); fs.rmSync(bin, { force: true }); } };
}

async function withBrowser(fn) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'throughput-bench-'));
  const ctx = await chromium.launchPersistentContext(dir, LAUNCH);
  try { return await fn(ctx, ctx.pages()[0] ?? await ctx.newPage()); } finally {
    await ctx.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * When the first result was painted: the render time of the headline
 * figure (index.html marks it elementtiming="first-result"), from the
 * Element Timing API. Its first paint is the first result whether the
 * figure came with the HTML (the build-time default view) or was written
 * by app.js (a link's own view).
 */
const firstResult = (page) => page.evaluate(() => new Promise((resolve) => {
  setTimeout(() => resolve(NaN), 10000); // never painted: NaN, which the median skips
  new PerformanceObserver((list) => {
    const e = list.getEntries().find((x) => x.identifier === 'first-result');
    if (e) resolve(e.renderTime || e.loadTime);
  }).observe({ type: 'element', buffered: true });
}));
/** Where the time to first result goes: milestones in ms since navigation start. */
const milestones = (page) => page.evaluate(() => {
  const mark = (n) => performance.getEntriesByName(`throughput:${n}`)[0]?.startTime;
  const wasm = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/throughput.wasm'));
  return {
    html_ms: performance.getEntriesByType('navigation')[0].responseEnd,
    wasm_downloaded_ms: wasm?.responseEnd,
    first_contentful_paint_ms: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    modules_ms: mark('app-start'),
    engine_loaded_ms: mark('engine-loaded'),
    app_first_render_ms: mark('first-result'), // app.js's first render (the figures may have been painted before)
    first_evaluate_ms: window.__throughputTiming?.evaluate_ms, // a duration, not a milestone
  };
});
const ready = (page) => page.waitForSelector('html[data-ready=true]', { timeout: 60000 });

/** One cold visit: transfer (CDP) and time to first result; then warm reloads. */
async function visit(base, warmReloads = 0) {
  return withBrowser(async (ctx, page) => {
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Network.enable');
    const urls = new Map();
    const sizes = new Map();
    cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
    cdp.on('Network.loadingFinished', (e) => sizes.set(e.requestId, e.encodedDataLength));
    await page.goto(QUERY ? `${base}?${QUERY}` : base);
    await ready(page);
    const cold = await firstResult(page);
    const steps = await milestones(page);
    const transfers = [...sizes].map(([id, bytes]) => ({ url: urls.get(id), bytes }));
    const warm = [];
    for (let i = 0; i < warmReloads; i++) {
      await page.reload();
      await ready(page);
      warm.push(await firstResult(page));
    }
    return { cold, steps, warm, transfers };
  });
}

/** Gzip bytes of each file a first visit fetches (page requests + precache). */
async function gzipSizes(base, pageURLs) {
  const sw = fs.readFileSync(path.join(ROOT, 'build', 'site', 'sw.js'), 'utf8');
  const precache = JSON.parse(`[${sw.match(/PRECACHE = \[([^\]]*)\]/)[1].replaceAll("'", '"').replace(/,\s*$/, '')}]`);
  const all = new Set([...pageURLs.map((u) => new URL(u).pathname), ...precache.map((p) => new URL(p, base).pathname), '/sw.js']);
  const rows = [];
  for (const p of [...all].sort()) {
    const wire = await getBody(new URL(p, base), { 'accept-encoding': 'gzip' }); // bytes as sent
    const raw = await getBody(new URL(p, base), {});
    rows.push({ path: p, status: wire.status, raw_bytes: raw.body.length, gzip_bytes: wire.body.length, encoding: wire.encoding ?? 'identity' });
  }
  return rows;
}

/** GET url with node:http (no automatic decompression): {status, encoding, body}. */
function getBody(url, headers) {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** Slider updates on a loaded page. */
async function updates(base) {
  return withBrowser(async (ctx, page) => {
    await page.goto(base);
    await ready(page);
    await page.waitForTimeout(1500); // let the idle-time catalog load finish
    return page.evaluate(async (n) => {
      // Two sliders, each moved through 120 distinct positions (the slider's
      // step is 0.05 of log2 tokens), so every update is a new request.
      const ranges = [
        document.querySelector('input[type=range][data-pair=f-input_tokens]'),
        document.querySelector('input[type=range][data-pair=f-output_tokens]'),
      ];
      const chart = document.querySelector('#chart svg');
      const handler = [];
      const frame = [];
      const evaluate = [];
      const layout = [];
      const app = [];
      const points = [];
      const nextFrame = () => new Promise((r) => requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); }));
      for (let i = 0; i < n; i++) {
        const range = ranges[Math.floor(i / 120) % 2];
        range.value = (range === ranges[0] ? 6 : 4) + 0.05 * (i % 120); // input 64..4096, output 16..1024 tokens
        const t0 = performance.now();
        range.dispatchEvent(new Event('input', { bubbles: true }));
        const th = performance.now();
        chart.getBoundingClientRect(); // force style and layout
        const t1 = performance.now();
        await nextFrame();
        handler.push(t1 - t0);
        layout.push(t1 - th);
        evaluate.push(window.__throughputTiming?.evaluate_ms ?? NaN);
        app.push(window.__throughputTiming?.total_ms ?? NaN);
        points.push(document.querySelector('#chart path.agg').getAttribute('d').split('L').length);
        frame.push(performance.now() - t0);
      }
      return { handler, frame, evaluate, layout, app, points };
    }, UPDATES);
  });
}

/**
 * Whole-catalog plans in the planning view, from the click on Plan to the
 * frame after the answer is drawn, once the view's engine has loaded and
 * run its warm-up plan (#planner[data-engine=warm]: plan-worker.js). Each
 * run asks another request rate, so that the view's cache of answers does
 * not answer it.
 */
async function plans(base) {
  return withBrowser(async (ctx, page) => {
    await page.goto(new URL('?view=plan', base).href);
    await page.waitForSelector('#planner[data-engine=warm]', { timeout: 120000 }); // loaded, and its warm-up plan done
    const runs = [];
    for (let i = 0; i < PLAN_RUNS; i++) {
      await page.fill('#plan-rate', String(20 + i));
      runs.push(await page.evaluate(() => new Promise((resolve) => {
        const el = document.getElementById('plan-results');
        const before = el.dataset.run;
        const t0 = performance.now();
        new MutationObserver((_, o) => {
          if (el.dataset.run === before) return;
          o.disconnect();
          requestAnimationFrame(() => resolve({ ms: performance.now() - t0, meta: document.getElementById('plan-meta').textContent }));
        }).observe(el, { attributes: true });
        document.getElementById('plan-run').click();
      })));
    }
    return runs;
  });
}

const srv = await startServer();
try {
  // Warm the server's gzip cache so that compression time is not measured.
  for (const f of ['', 'throughput.wasm', 'app.js']) await fetch(new URL(f, srv.url), { headers: { 'accept-encoding': 'gzip' } }).then((r) => r.arrayBuffer());

  log(`bench-page: ${RUNS} cold loads${QUERY ? ` of ?${QUERY}` : ''}, ${UPDATES} slider updates, server ${srv.url}, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.cpus().length} CPUs`);
  const visits = [];
  for (let i = 0; i < RUNS; i++) visits.push(await visit(srv.url, i === 0 ? 5 : 0));
  const transfer = visits[0].transfers;
  const transferBytes = transfer.reduce((s, t) => s + t.bytes, 0);
  const files = await gzipSizes(srv.url, transfer.map((t) => t.url));
  const gzipTotal = files.reduce((s, f) => s + f.gzip_bytes, 0);
  const rawTotal = files.reduce((s, f) => s + f.raw_bytes, 0);
  const u = await updates(srv.url);
  const p = PLAN_RUNS > 0 ? await plans(srv.url) : [];

  const result = {
    machine: { cpus: os.cpus().length, load_average_at_end: os.loadavg() },
    transfer: {
      page_requests_bytes: transferBytes,
      first_visit_files_gzip_bytes: gzipTotal,
      first_visit_files_raw_bytes: rawTotal,
      files,
      budget_bytes: BUDGET.transfer_bytes,
    },
    first_result_ms: {
      cold_median: median(visits.map((v) => v.cold)),
      cold_runs: visits.map((v) => Math.round(v.cold)),
      cold_milestones_median: Object.fromEntries(Object.keys(visits[0].steps).map((k) => [k, Math.round(median(visits.map((v) => v.steps[k])))])),
      warm_median: median(visits[0].warm),
      budget: BUDGET.first_result_ms,
    },
    slider_update_ms: {
      sweep_points_median: median(u.points),
      sweep_points_min: Math.min(...u.points),
      app_update_median: median(u.app),
      handler_median: median(u.handler),
      handler_p95: quantile(u.handler, 0.95),
      evaluate_median: median(u.evaluate),
      evaluate_p95: quantile(u.evaluate, 0.95),
      layout_median: median(u.layout),
      to_next_frame_median: median(u.frame),
      to_next_frame_p95: quantile(u.frame, 0.95),
      updates: u.handler.length,
      budget: BUDGET.update_ms,
    },
    plan_click_to_answer_ms: {
      median: median(p.map((x) => x.ms)),
      runs: p.map((x) => Math.round(x.ms)),
      search: p[0]?.meta,
      budget: BUDGET.plan_ms,
    },
  };
  if (JSON_OUT) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    const kb = (b) => `${(b / 1000).toFixed(1)} kB`;
    const ok = (v, b) => (v <= b ? 'ok' : 'OVER BUDGET');
    console.log('First-load transfer (gzip):');
    for (const f of files) console.log(`  ${f.path.padEnd(28)} ${kb(f.gzip_bytes).padStart(10)}  (raw ${kb(f.raw_bytes)})`);
    console.log(`  every file of a first visit: ${kb(gzipTotal)} gzip (raw ${kb(rawTotal)})  budget ${kb(BUDGET.transfer_bytes)}: ${ok(gzipTotal, BUDGET.transfer_bytes)}`);
    console.log(`  the page's requests up to the first result, as Chrome counted them: ${kb(transferBytes)}`);
    console.log(`Navigation to first result: cold median ${result.first_result_ms.cold_median.toFixed(0)} ms over ${RUNS} fresh profiles [${result.first_result_ms.cold_runs.join(', ')}], ` +
      `warm (reload) median ${result.first_result_ms.warm_median.toFixed(0)} ms; budget ${BUDGET.first_result_ms} ms: ${ok(result.first_result_ms.cold_median, BUDGET.first_result_ms)}`);
    const m = result.first_result_ms.cold_milestones_median;
    console.log(`  cold milestones (median ms since navigation): HTML ${m.html_ms}, .wasm downloaded ${m.wasm_downloaded_ms}, modules run ${m.modules_ms}, ` +
      `engine loaded (compiled + Go started) ${m.engine_loaded_ms}, ` +
      `first contentful paint ${m.first_contentful_paint_ms}, app.js's first render ${m.app_first_render_ms}, engine's first evaluate ${m.first_evaluate_ms} ms long`);
    const s = result.slider_update_ms;
    console.log(`Slider update (${s.updates} updates: input-tokens slider 64..4096 then output-tokens slider 16..1024; sweep.points = 256 requested, ` +
      `${s.sweep_points_median} drawn (median; the engine drops duplicate batch sizes), at least ${s.sweep_points_min}): handler + layout median ${s.handler_median.toFixed(1)} ms, p95 ${s.handler_p95.toFixed(1)} ms ` +
      `(app update() median ${s.app_update_median.toFixed(1)} ms, engine median ${s.evaluate_median.toFixed(1)} ms, p95 ${s.evaluate_p95.toFixed(1)} ms; style + layout median ${s.layout_median.toFixed(1)} ms); ` +
      `input to next frame median ${s.to_next_frame_median.toFixed(1)} ms, p95 ${s.to_next_frame_p95.toFixed(1)} ms; budget ${BUDGET.update_ms} ms: ${ok(s.handler_p95, BUDGET.update_ms)}`);
    const pl = result.plan_click_to_answer_ms;
    if (pl.runs.length) {
      console.log(`Plan view, whole catalog, click to answer (engine loaded): median ${pl.median.toFixed(0)} ms over ${pl.runs.length} plans [${pl.runs.join(', ')}]; ` +
        `budget ${BUDGET.plan_ms} ms: ${ok(pl.median, BUDGET.plan_ms)} (${pl.search})`);
    }
  }
} finally {
  srv.stop();
}
