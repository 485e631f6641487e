// Embedding from another origin (docs/embedding.md): host pages served by a
// second server on another port (so another origin) load the element from
// the site's server, import the module, fetch the engine and the JSON with a
// CORS preflight, and frame the page. Everything the embed needs must pass
// CORS: the element's figures appear, and no request is blocked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import * as H from './helpers.mjs';
import * as fmt from '../../www/ui/format.js';

let base; // the site: tools/serve
let host; // the embedding pages: another port, another origin
let hostServer;
let b;
const pages = new Map();

before(async () => {
  base = await H.baseURL();
  hostServer = http.createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const html = pages.get(path);
    res.writeHead(html ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html ?? 'not found');
  });
  await new Promise((resolve) => hostServer.listen(0, '127.0.0.1', resolve));
  host = `http://127.0.0.1:${hostServer.address().port}/`;
  assert.notEqual(new URL(host).origin, new URL(base).origin);
  b = await H.launch();
});
after(async () => {
  await b?.close();
  await new Promise((resolve) => hostServer?.close(resolve));
});

/** Open a host page, recording the console errors (CORS failures among them). */
async function openHost(page, path, html) {
  pages.set(path, html);
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  const failed = [];
  page.on('requestfailed', (r) => failed.push(`${r.url()}: ${r.failure()?.errorText}`));
  await page.goto(new URL(path, host).href);
  return { consoleErrors, failed };
}

test('the element from another origin computes and shows its figures', async () => {
  const { page } = b;
  const seen = await openHost(page, '/docs.html', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>docs</title>
<script type="module" src="${base}widget.js"></script></head><body><h1>A docs page</h1>
<throughput-calculator id="w" model="llama-3.1-8b" hardware="h100-sxm" mode="compact" input-tokens="2000" output-tokens="500" kv-cache-dtype="fp8">
<a class="fallback" href="${base}">Open the LLM capacity calculator</a></throughput-calculator></body></html>`);
  await page.waitForFunction(() => document.querySelector('#w')?.report, null, { timeout: 30000 });
  const want = await H.evaluate({ model: 'llama-3.1-8b', hardware: 'h100-sxm', kv_cache_dtype: 'fp8', workload: { input_tokens: 2000, output_tokens: 500 }, sweep: { points: 96 } });
  const got = await page.$eval('#w', (el) => ({
    report: el.report,
    text: el.shadowRoot.textContent,
    open: el.calculatorURL,
  }));
  assert.equal(got.report.decode.tokens_per_s, want.decode.tokens_per_s);
  assert.equal(got.report.kv_cache.capacity_tokens, want.kv_cache.capacity_tokens);
  assert.ok(got.text.includes(fmt.tokS(want.decode.tokens_per_s)), 'the aggregate rate is shown');
  assert.ok(got.text.includes(fmt.tokS(want.sweep[0].tokens_per_s_per_sequence)), 'batch 1 is shown');
  // "Open in the calculator" points back at the site, not at the host.
  assert.equal(got.open, base);
  assert.equal(await page.isVisible('a.fallback'), false);
  assert.deepEqual(seen.failed, []);
  assert.deepEqual(seen.consoleErrors, []);
  assert.deepEqual(b.errors, []);
  await H.screenshot(page, 'cross-origin-widget.png');
});

test('the module, the engine and JSON across origins, preflighted requests included', async () => {
  const { page } = b;
  const seen = await openHost(page, '/module.html', '<!doctype html><title>module</title><p>module</p>');
  const r = await page.evaluate(async (site) => {
    const { load } = await import(`${site}throughput.js`);
    const calc = await load(); // fetches throughput.wasm from beside throughput.js: another origin
    const rep = calc.evaluate({ model: 'qwen2.5-7b', hardware: 'l40s' });
    calc.close();
    // A custom header makes these CORS requests preflighted (OPTIONS first).
    const wasm = await fetch(`${site}throughput.wasm`, { headers: { 'X-Embed-Test': '1' } });
    const json = await fetch(`${site}prerender.json`, { headers: { 'X-Embed-Test': '1' } });
    return {
      kv: rep.kv_cache.capacity_tokens,
      wasmType: wasm.headers.get('content-type'),
      wasmBytes: (await wasm.arrayBuffer()).byteLength,
      json: Object.keys(await json.json()).length > 0,
    };
  }, base);
  const want = await H.evaluate({ model: 'qwen2.5-7b', hardware: 'l40s' });
  assert.equal(r.kv, want.kv_cache.capacity_tokens);
  assert.equal(r.wasmType, 'application/wasm');
  assert.ok(r.wasmBytes > 1e6, String(r.wasmBytes));
  assert.equal(r.json, true);
  assert.deepEqual(seen.failed, []);
  assert.deepEqual(seen.consoleErrors, []);
});

test('the page in an iframe of another origin', async () => {
  const { page } = b;
  const src = `${base}?model=qwen2.5-7b&hardware=l40s`;
  const seen = await openHost(page, '/frame.html', `<!doctype html><title>frame</title>
<iframe id="calc" src="${src}" width="1000" height="800" style="border:0" title="LLM capacity calculator"></iframe>`);
  const frame = await (await page.waitForSelector('#calc')).contentFrame();
  await frame.waitForSelector('html[data-ready=true]', { timeout: 30000 });
  assert.equal(new URL(frame.url()).origin, new URL(base).origin);
  const figures = await frame.evaluate(() => [...document.querySelectorAll('#report [data-v]')].length);
  assert.ok(figures > 0, 'the framed page shows its figures');
  assert.deepEqual(seen.failed.filter((f) => !/sw\.js|net::ERR_ABORTED/.test(f)), []);
  assert.deepEqual(seen.consoleErrors, []);
});
