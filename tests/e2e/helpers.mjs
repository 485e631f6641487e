// Shared setup for the browser end-to-end tests: the server, headless
// Debian Chromium through playwright-core, and the engine in node for the
// expected reports.
//
// BASE_URL names a running server (./build.sh test starts tools/serve on a
// free port and sets it); without it the helper builds tools/serve and
// serves build/site/ (./build.sh build assembles it). The expected reports
// come from the built package, build/npm/.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SCREENSHOTS = path.join(ROOT, 'build', 'screenshots');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The request the page sends for its default state (www/page/state.js DEFAULTS). */
export const DEFAULT_REQUEST = Object.freeze({
  model: 'llama-3.1-8b',
  hardware: 'h100-sxm-80gb',
  engine: 'vllm',
  tensor_parallel_size: 1,
  pipeline_parallel_size: 1,
  kv_cache_dtype: 'auto',
  workload: { input_tokens: 1024, output_tokens: 256 },
  slo: { ttft_ms: 1000, tpot_ms: 50 },
  sweep: { points: 256 },
});

/** A deep copy of DEFAULT_REQUEST with changes merged in (objects merged one level deep). */
export function request(changes = {}) {
  const r = structuredClone(DEFAULT_REQUEST);
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete r[k];
    else if (v && typeof v === 'object' && !Array.isArray(v) && r[k] && typeof r[k] === 'object') Object.assign(r[k], v);
    else r[k] = v;
  }
  return r;
}

let server = null;

/** The server's base URL ("http://127.0.0.1:PORT/"). */
export async function baseURL() {
  if (process.env.BASE_URL) return process.env.BASE_URL.replace(/\/?$/, '/');
  if (server) return server.url;
  const bin = path.join(os.tmpdir(), `throughput-serve-${process.pid}`);
  execFileSync('go', ['build', '-o', bin, './tools/serve'], { cwd: ROOT, stdio: 'inherit' });
  const proc = spawn(bin, ['-quiet', '-dir', path.join(ROOT, 'build', 'site'), '-addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/at (http:\/\/\S+)/);
      if (m) resolve(m[1]);
    });
    proc.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  server = { proc, url, bin };
  process.on('exit', () => { proc.kill(); fs.rmSync(bin, { force: true }); });
  return url;
}

/** A fresh headless Chromium profile; close() also deletes it. */
export async function launch(options = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'throughput-e2e-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1280, height: 900 }, acceptDownloads: true, ...options,
  });
  const errors = [];
  context.on('weberror', (e) => errors.push(e.error().message));
  const close = async () => {
    try { await context.close(); } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  };
  return { context, page: context.pages()[0] ?? await context.newPage(), errors, close };
}

let engine = null;
/** The engine loaded in node, for expected reports. */
export async function calculator() {
  if (!engine) {
    const mod = await import(path.join(ROOT, 'build', 'npm', 'throughput.js'));
    engine = { mod, calc: await mod.load({ planner: true }) }; // the full engine: expected simulations too
  }
  return engine.calc;
}

/** The engine's report for a request, or its ThroughputError. */
export async function evaluate(req) {
  const calc = await calculator();
  return calc.evaluate(req);
}

/**
 * The report the page draws for req: the same figures, with the sweep
 * extended past the KV ceiling (www/ui/sweep-range.js).
 */
export async function chartReport(req) {
  const calc = await calculator();
  const { evaluateWithRange } = await import(path.join(ROOT, 'www', 'ui', 'sweep-range.js'));
  return evaluateWithRange((r) => calc.evaluate(r), req);
}

/** Wait until the page has computed its first result. */
export async function ready(page) {
  await page.waitForSelector('html[data-ready=true]', { timeout: 30000 });
}

/** Every [data-v] figure on the page: {key: text}. */
export function shownFigures(page) {
  return page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#report [data-v]')].map((e) => [e.dataset.v, e.textContent])));
}

/** Save a screenshot under build/screenshots/. */
export async function screenshot(target, name, options = {}) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, name);
  await target.screenshot({ path: file, ...options });
  return file;
}
