// After one visit the service worker serves the page, its modules and the
// engine, so a reload with the browser offline still computes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as H from './helpers.mjs';
import { figure } from '../../www/page/figures.js';

test('after one load, the page works offline', async () => {
  const base = await H.baseURL();
  const b = await H.launch();
  try {
    const { page, context } = b;
    await page.goto(base);
    await H.ready(page);
    // Wait until the service worker controls the page and has precached.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
      }
    });
    const cached = await page.evaluate(async () => {
      const name = (await caches.keys()).find((k) => k.startsWith('throughput-'));
      return (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname);
    });
    for (const f of ['/', '/app.bundle.js', '/throughput.wasm', '/prerender.json']) assert.ok(cached.includes(f), `${f} cached`);

    await context.setOffline(true);
    await page.reload();
    await H.ready(page);
    await page.fill('#f-input_tokens', '2048');
    const want = await H.evaluate(H.request({ workload: { input_tokens: 2048 } }));
    assert.equal(await page.textContent('[data-v="prefill.ttft_ms"]'), figure('prefill.ttft_ms', want));
    assert.equal(await page.textContent('[data-v="decode.tokens_per_s"]'), figure('decode.tokens_per_s', want));

    // A link with a query opens offline too.
    await page.goto(new URL('?model=qwen2.5-7b', base).href);
    await H.ready(page);
    const q = await H.evaluate(H.request({ model: 'qwen2.5-7b' }));
    assert.equal(await page.textContent('[data-v="kv_cache.bytes_per_token"]'), figure('kv_cache.bytes_per_token', q));
    await context.setOffline(false);
  } finally {
    await b.close();
  }
});

// The worker serves the site's files and the page's shell, nothing else: with
// the network gone, the API's paths fail as they would without it (no cached
// answer, not the page's HTML), while the page still works.
test('offline, /v1/, /openapi.json and /healthz fail: the service worker never answers for the API', async () => {
  const base = await H.baseURL();
  const b = await H.launch();
  try {
    const { page, context } = b;
    // The API, as the worker would answer it on this origin (tools/serve has none).
    const api = /\/(v1(\/|\?|$)|openapi\.json|healthz)/;
    await context.route((u) => api.test(new URL(u).pathname + new URL(u).search), (route) => {
      const p = new URL(route.request().url()).pathname;
      if (p === '/healthz') return route.fulfill({ status: 200, contentType: 'text/plain', headers: { 'Cache-Control': 'no-store' }, body: 'ok' });
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ path: p }) });
    });
    await page.goto(base);
    await H.ready(page);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
      }
    });
    // Online, the API answers; each is asked once so an old worker would store it.
    const targets = ['/healthz', '/openapi.json', '/v1/evaluate?model=qwen3-8b&hardware=l4', '/v1/models/qwen3-8b'];
    for (const t of targets) {
      assert.equal(await page.evaluate(async (u) => (await fetch(u, { cache: 'no-store' })).status, t), 200, t);
    }
    await page.goto(new URL('/v1/evaluate?model=llama-3.1-8b&hardware=h100-sxm', base).href);
    assert.match(await page.textContent('body'), /"path":"\/v1\/evaluate"/);
    await page.goto(base);
    await H.ready(page);
    const cached = await page.evaluate(async () => {
      const out = [];
      for (const k of await caches.keys()) for (const r of await (await caches.open(k)).keys()) out.push(new URL(r.url).pathname + new URL(r.url).search);
      return out;
    });
    assert.deepEqual(cached.filter((p) => api.test(p)), [], 'nothing of the API is cached');
    assert.ok(cached.includes('/'), 'the shell is cached');

    await context.unrouteAll();
    await context.setOffline(true);
    for (const t of targets) {
      const r = await page.evaluate(async (u) => {
        try { const res = await fetch(u); return `status ${res.status}: ${(await res.text()).slice(0, 40)}`; } catch (e) { return e.name; }
      }, t);
      assert.equal(r, 'TypeError', `${t} fails offline (a network error), got ${r}`);
    }
    // Navigations to the API, or to any path that is not the page, are not the page's HTML.
    for (const t of ['/v1/evaluate?model=qwen3-8b&hardware=l4', '/v1/models/qwen3-8b', '/healthz', '/no-such-page']) {
      await assert.rejects(page.goto(new URL(t, base).href), /net::ERR_INTERNET_DISCONNECTED/, t);
    }
    // The page itself, with or without a query, still opens and computes
    // (in a new tab: the last one is on Chromium's error page).
    const tab = await context.newPage();
    await tab.goto(new URL('?model=qwen2.5-7b', base).href);
    await H.ready(tab);
    const q = await H.evaluate(H.request({ model: 'qwen2.5-7b' }));
    assert.equal(await tab.textContent('[data-v="kv_cache.bytes_per_token"]'), figure('kv_cache.bytes_per_token', q));
    await context.setOffline(false);
  } finally {
    await b.close();
  }
});
