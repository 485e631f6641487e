// The security headers in Chromium: the page, served with build/site/_headers
// (tools/serve applies it as Cloudflare does), and the widget on a host page
// with the strict CSP that docs/embedding.md gives embedders, run with no
// Content-Security-Policy violation and no console error.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as H from './helpers.mjs';

let base;

before(async () => { base = await H.baseURL(); });

/** Record CSP violations and console errors of every page of the context. */
async function watch(context, page) {
  await context.addInitScript(() => {
    self.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      self.__violations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  return { consoleErrors, violations: () => page.evaluate(() => self.__violations) };
}

test('the page runs under its Content-Security-Policy with no violation', async () => {
  const own = await H.launch();
  try {
    const { page, context } = own;
    const w = await watch(context, page);
    const res = await page.goto(base);
    const h = res.headers();
    assert.match(h['content-security-policy'], /script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
    assert.match(h['content-security-policy'], /frame-ancestors \*$/);
    assert.equal(h['access-control-allow-origin'], '*');
    assert.equal(h['x-content-type-options'], 'nosniff');
    assert.equal(h['referrer-policy'], 'strict-origin-when-cross-origin');
    await H.ready(page);
    // The hashed head script ran: it started the engine's and the report's fetches.
    assert.equal(await page.evaluate(() => typeof self.__throughputPrerender?.then), 'function');
    // Compute, chart, simulate, compare, export: every part that writes styles or blobs.
    await page.fill('#f-input_tokens', '4096');
    await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
    await Promise.all([
      page.evaluate(() => new Promise((resolve) => document.addEventListener('throughput:simulated', resolve, { once: true }))),
      page.click('#sim-run'),
    ]);
    await page.click('#add-config');
    await page.waitForSelector('#compare-table');
    await page.evaluate(() => navigator.serviceWorker.ready);
    assert.deepEqual(await w.violations(), []);
    assert.deepEqual(w.consoleErrors, []);
    assert.deepEqual(own.errors, []);

    // The listener sees violations: an injected inline script is refused.
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'self.__injected = true;';
      document.body.append(s);
    });
    await page.waitForFunction(() => self.__violations.length > 0);
    assert.equal(await page.evaluate(() => self.__injected), undefined);
    assert.match((await w.violations())[0], /^script-src/);
  } finally {
    await own.close();
  }
});

// The CSP docs/embedding.md gives a host page that serves the widget from its
// own origin: nothing inline, no style-src at all (the element's styles are a
// constructed style sheet), WebAssembly compile allowed.
const EMBEDDER_CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; img-src 'self'; base-uri 'none'; object-src 'none'";

test('the widget runs on a host page with a strict CSP, with no violation', async () => {
  const own = await H.launch();
  try {
    const { page, context } = own;
    const w = await watch(context, page);
    const url = new URL('/__embed.html', base).href;
    await page.route(url, (route) => route.fulfill({
      contentType: 'text/html',
      headers: { 'Content-Security-Policy': EMBEDDER_CSP },
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>embed</title>
<script type="module" src="/widget.js"></script></head><body>
<throughput-calculator id="c" mode="compact"><a href="/">Open the calculator</a></throughput-calculator>
<throughput-calculator id="f" model="qwen2.5-7b" hardware="l40s" calculator-url="javascript:alert(document.domain)//"></throughput-calculator>
</body></html>`,
    }));
    await page.goto(url);
    for (const sel of ['#c', '#f']) await page.waitForFunction((s) => document.querySelector(s)?.report, sel);
    // Styled inside the shadow roots (the sheet applied), and the link is http(s).
    assert.equal(await page.$eval('#c', (el) => getComputedStyle(el.shadowRoot.querySelector('.fig')).fontWeight), '700');
    assert.match(await page.$eval('#f', (el) => el.shadowRoot.querySelector('a.open').href), /^http:\/\/127\.0\.0\.1:\d+\/\?/);
    assert.deepEqual(await w.violations(), []);
    assert.deepEqual(w.consoleErrors, []);
    assert.deepEqual(own.errors, []);
  } finally {
    await own.close();
  }
});

test('the API paths and unknown files are not the page on the static server', async () => {
  for (const p of ['/_headers', '/v1/models/qwen3-8b']) {
    const res = await fetch(new URL(p, base));
    assert.equal(res.status, 404, p);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', p);
  }
});
