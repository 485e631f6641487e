// The _headers rules entry.mjs applies to a workerd disk service's assets,
// read as Cloudflare reads build/site/_headers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parseHeaders, applyHeaders } from "./request.mjs";

const FILE = `# comment
/*
  Content-Security-Policy: default-src 'self'; frame-ancestors 'self'
  X-Frame-Options: SAMEORIGIN
/widget.js
  Access-Control-Allow-Origin: *
/sub/:name/x.txt
  X-Seg: one
/a.wasm
  ! X-Frame-Options
  X-Extra: b
/*.wasm
  X-Extra: c
`;

function headersFor(rules, path) {
  const h = new Headers();
  applyHeaders(rules, path, h);
  return Object.fromEntries(h);
}

test("_headers: patterns, merging, detaching", () => {
  const rules = parseHeaders(FILE);
  assert.equal(headersFor(rules, "/")["content-security-policy"], "default-src 'self'; frame-ancestors 'self'");
  assert.equal(headersFor(rules, "/widget.js")["access-control-allow-origin"], "*");
  assert.equal(headersFor(rules, "/index.html")["access-control-allow-origin"], undefined);
  const wasm = headersFor(rules, "/a.wasm");
  assert.equal(wasm["x-frame-options"], undefined);
  assert.equal(wasm["x-extra"], "b, c");
  assert.equal(headersFor(rules, "/sub/q/x.txt")["x-seg"], "one");
  assert.equal(headersFor(rules, "/sub/q/r/x.txt")["x-seg"], undefined);
});

test("the source _headers sets the page's security and CORS headers on every path", () => {
  const rules = parseHeaders(readFileSync(new URL("../../www/page/_headers", import.meta.url), "utf8"));
  for (const p of ["/", "/index.html", "/widget.js", "/v1/nothing"]) {
    const h = headersFor(rules, p);
    assert.match(h["content-security-policy"], /script-src 'self' 'wasm-unsafe-eval'/, p);
    assert.match(h["content-security-policy"], /frame-ancestors \*$/, p);
    assert.equal(h["x-content-type-options"], "nosniff", p);
    assert.equal(h["referrer-policy"], "strict-origin-when-cross-origin", p);
    // Embedding from any origin: one value each (no rule sets them twice).
    assert.equal(h["access-control-allow-origin"], "*", p);
    assert.equal(h["cross-origin-resource-policy"], "cross-origin", p);
    assert.equal(h["x-frame-options"], undefined, p);
  }
});
