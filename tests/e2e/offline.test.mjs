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
