// A Hugging Face id outside the catalog, on the page and in the widget: its
// config.json comes from a loopback stand-in of the Hub (tests/hub/server.mjs,
// serving the real configs under testdata/hub/), and after one visit the
// page answers for it again offline. Nothing reaches the internet.
//
// The stand-in is another origin than the site, which the site's
// Content-Security-Policy (connect-src 'self' https://huggingface.co) does
// not allow: these browsers bypass the CSP, and the first test checks that
// the policy does allow the real Hub.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import * as H from './helpers.mjs';
import { figure } from '../../www/page/figures.js';
import * as fmt from '../../www/ui/format.js';
import { startHub } from '../hub/server.mjs';

const QWEN_MOE = 'Qwen/Qwen1.5-MoE-A2.7B';
const GATED = 'google/gemma-2-2b';

let hub;
let expected; // the engine in node, with the same Hub
before(async () => {
  hub = await startHub({ token: 'hf_test_token' });
  const { load } = await import('../../build/npm/throughput.js');
  expected = await load({ hub: { url: hub.url, token: 'hf_test_token' } });
  await expected.prepare(QWEN_MOE);
  await expected.prepare(GATED);
});
after(async () => { expected?.close(); await hub?.close(); });

/** A browser whose pages use the stand-in Hub (the page's setting), CSP bypassed. */
async function launchWithHub(token = '') {
  const b = await H.launch({ bypassCSP: true });
  await b.context.addInitScript(([url, t]) => {
    localStorage.setItem('throughput:hub-url', url);
    localStorage.setItem('throughput:hub-token', t);
  }, [hub.url, token]);
  return b;
}

const configFetches = (id) => hub.requests.filter((r) => r.method === 'GET' && r.path === `/${id}/resolve/main/config.json`).length;

test("the site's CSP lets the page fetch from the Hugging Face Hub", async () => {
  const res = await fetch(await H.baseURL());
  assert.match(res.headers.get('content-security-policy') ?? '', /connect-src 'self' https:\/\/huggingface\.co;/);
});

test('the page answers for a Hub id outside the catalog, then again offline', async () => {
  const base = await H.baseURL();
  const b = await launchWithHub();
  try {
    const { page, context } = b;
    const before = configFetches(QWEN_MOE);
    await page.goto(new URL(`?model=${encodeURIComponent(QWEN_MOE)}`, base).href);
    await H.ready(page);
    await page.waitForFunction(() => !document.querySelector('#report').classList.contains('stale') && !document.documentElement.classList.contains('pending'));
    const want = expected.evaluate(H.request({ model: QWEN_MOE }));
    // 2 x 24 layers x 16 KV heads x 128 x 2 bytes = 196,608 (testdata/hub).
    assert.equal(want.kv_cache.bytes_per_token, 196608);
    assert.equal(await page.textContent('[data-v="kv_cache.bytes_per_token"]'), figure('kv_cache.bytes_per_token', want));
    assert.equal(await page.textContent('[data-v="decode.tokens_per_s"]'), figure('decode.tokens_per_s', want));
    assert.ok(configFetches(QWEN_MOE) > before, 'fetched from the stand-in');

    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
      }
    });
    const kept = await page.evaluate(async () => (await (await caches.open('throughput.hub')).keys()).map((r) => r.url));
    assert.ok(kept.some((u) => u.endsWith(`/${QWEN_MOE}/resolve/main/config.json`)), kept.join(' '));

    const fetched = configFetches(QWEN_MOE);
    await context.setOffline(true);
    await page.reload();
    await H.ready(page);
    await page.waitForFunction(() => !document.querySelector('#report').classList.contains('stale') && !document.documentElement.classList.contains('pending'));
    await page.fill('#f-input_tokens', '2048');
    const off = expected.evaluate(H.request({ model: QWEN_MOE, workload: { input_tokens: 2048 } }));
    await page.waitForFunction((t) => document.querySelector('[data-v="prefill.ttft_ms"]').textContent === t, figure('prefill.ttft_ms', off));
    assert.equal(await page.textContent('[data-v="kv_cache.bytes_per_token"]'), figure('kv_cache.bytes_per_token', off));
    assert.equal(configFetches(QWEN_MOE), fetched, 'offline: nothing reached the Hub');
    await context.setOffline(false);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('the page says a gated model needs a token, and answers with one', async () => {
  const base = await H.baseURL();
  const b = await launchWithHub();
  try {
    const { page } = b;
    await page.goto(new URL(`?model=${encodeURIComponent(GATED)}`, base).href);
    await H.ready(page);
    await page.waitForFunction(() => /needs a token/.test(document.querySelector('[data-field="model"]')?.textContent ?? '') || /needs a token/.test(document.querySelector('#errors')?.textContent ?? ''));
    // The footer's setting: the token, kept in this browser.
    await page.click('#hub-settings summary');
    await page.fill('#hub-token', 'hf_test_token');
    await page.dispatchEvent('#hub-token', 'change');
    const want = expected.evaluate(H.request({ model: GATED }));
    await page.waitForFunction((t) => document.querySelector('[data-v="kv_cache.bytes_per_token"]').textContent === t && !document.querySelector('#report').classList.contains('stale'), figure('kv_cache.bytes_per_token', want));
    assert.equal(hub.requests.filter((r) => r.path === `/${GATED}/resolve/main/config.json`).at(-1).authorization, 'Bearer hf_test_token');
    assert.equal(new URL(page.url()).search.includes('hf_test_token'), false, 'the token is never put in the link');
  } finally {
    await b.close();
  }
});

test('the widget answers for a Hub id outside the catalog, again with the Hub unreachable, and says when the Hub has no such model', async () => {
  const base = await H.baseURL();
  const b = await launchWithHub();
  let host;
  try {
    const { page } = b;
    // The host page is a blog on another loopback origin, as an embed is
    // (a page fulfilled by the browser itself counts as public, and
    // Chromium keeps public pages from fetching loopback addresses).
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>widget</title>
<script type="module" src="${new URL('/widget.js', base).href}"></script></head><body>
<throughput-calculator id="w" model="${QWEN_MOE}" hardware="h100-sxm" hub-url="${hub.url}"></throughput-calculator>
<throughput-calculator id="none" model="acme/nothing-7b" hardware="h100-sxm" mode="compact" hub-url="${hub.url}"></throughput-calculator>
</body></html>`;
    host = http.createServer((req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html));
    await new Promise((resolve) => host.listen(0, '127.0.0.1', resolve));
    await page.goto(`http://127.0.0.1:${host.address().port}/blog.html`);
    await page.waitForFunction(() => document.querySelector('#w')?.report);
    const want = expected.evaluate({ model: QWEN_MOE, hardware: 'h100-sxm', sweep: { points: 96 } });
    const shown = await page.$eval('#w', (el) => ({ id: el.report.model.id, agg: el.shadowRoot.querySelector('[data-w="many.agg"]').textContent }));
    assert.equal(shown.id, QWEN_MOE);
    assert.equal(shown.agg, fmt.tokS(want.decode.tokens_per_s));
    await page.waitForFunction(() => /no such model on the Hugging Face Hub/.test(document.querySelector('#none').shadowRoot.querySelector('.error')?.textContent ?? ''));
    assert.equal(await page.$eval('#none', (el) => el.shadowRoot.querySelector('.error').textContent),
      'The calculator cannot answer: model: unknown model "acme/nothing-7b": no such model on the Hugging Face Hub (HTTP 404)');

    // The Hub unreachable (every request to it fails as offline): a reload
    // answers from the config the module kept (Cache API), without the Hub.
    const fetched = configFetches(QWEN_MOE);
    await b.context.route(`${hub.url}/**`, (route) => route.abort('internetdisconnected'));
    await page.reload();
    await page.waitForFunction(() => document.querySelector('#w')?.report);
    assert.equal(await page.$eval('#w', (el) => el.shadowRoot.querySelector('[data-w="many.agg"]').textContent), fmt.tokS(want.decode.tokens_per_s));
    assert.equal(configFetches(QWEN_MOE), fetched);
    assert.equal(await page.$eval('#none', (el) => el.report), null);
  } finally {
    host?.close();
    await b.close();
  }
});
