// The shared Go instance must not grow per request: node --test worker/
// (./build.sh test runs it after building build/worker/app.wasm).
//
// It drives the worker's Go side the way worker/entry.mjs does (one
// instance, binding.handleRequest, requests through request.mjs's
// goRequest: small bodies read beforehand, others as streams), with
// node's Request and Response, and
// counts the JavaScript values Go holds (go._values, less the free slots)
// and the WebAssembly memory. syumai/workers' own body reader leaked two
// js.Func per POST; wasm/worker/body.go replaces it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { goRequest, pathOf, BUFFER_MAX_BYTES } from "./request.mjs";

const BUILD = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../build/worker");

async function startGo() {
  await import(path.join(BUILD, "wasm_exec.js"));
  const mod = new WebAssembly.Module(readFileSync(path.join(BUILD, "app.wasm")));
  const go = new Go();
  let ready;
  const readyPromise = new Promise((resolve) => (ready = resolve));
  const instance = new WebAssembly.Instance(mod, { ...go.importObject, workers: { ready: () => ready() } });
  const binding = {};
  globalThis.context = { binding };
  go.run(instance);
  await readyPromise;
  return { go, instance, binding };
}

// Full-size reports, so that Go's garbage collector runs (and finalizes
// the JavaScript values it no longer uses) every hundred requests or so.
const body = JSON.stringify({ model: "llama-3.1-8b", hardware: "h100-sxm", workload: { input_tokens: 2048 }, gpu_hour_usd: 2 });

// A POST as a client sends it (with its length: goRequest reads the body
// beforehand) or as a stream without a length (Go reads the stream).
function post(json, { withLength = true } = {}) {
  const bytes = new TextEncoder().encode(json);
  if (withLength) {
    return new Request("http://worker/v1/evaluate", {
      method: "POST",
      body: bytes,
      headers: { "Content-Type": "application/json", "Content-Length": String(bytes.length) },
    });
  }
  const stream = new ReadableStream({
    start(c) {
      c.enqueue(bytes.subarray(0, 10)); // two chunks
      c.enqueue(bytes.subarray(10));
      c.close();
    },
  });
  return new Request("http://worker/v1/evaluate", { method: "POST", body: stream, duplex: "half", headers: { "Content-Type": "application/json" } });
}

async function serve(binding, i) {
  const req =
    i % 4 === 3
      ? new Request("http://worker/v1/evaluate?model=llama-3.1-8b&hardware=h100-sxm&input_tokens=2048&gpu_hour_usd=2")
      : post(body, { withLength: i % 4 !== 2 });
  const res = await binding.handleRequest(await goRequest(req));
  assert.equal(res.status, 200);
  const report = await res.json();
  assert.equal(report.fits, true);
}

test("one Go instance answers many requests without growing", async () => {
  const { go, instance, binding } = await startGo();
  // Values Go holds: released only when its collector finalizes them, so
  // the count saws up and down; its floor over a window is what a leak
  // raises.
  const held = () => go._values.length - go._idPool.length;
  for (let i = 0; i < 200; i++) await serve(binding, i);
  const memBefore = instance.exports.mem.buffer.byteLength;
  const floors = [Infinity, Infinity, Infinity];
  // Some requests at once, as workerd interleaves them.
  for (let i = 0; i < 1500; i += 4) {
    await Promise.all([0, 1, 2, 3].map((k) => serve(binding, i + k)));
    const w = Math.floor(i / 500);
    floors[w] = Math.min(floors[w], held());
  }
  // The leak was 4 values per POST: 1500 between the first and last window.
  assert.ok(floors[2] - floors[0] < 500, `the floor of values Go holds rose from ${floors[0]} to ${floors[2]} over 1000 requests`);
  // Go's heap may settle higher under concurrency; a leak keeps growing.
  const grew = instance.exports.mem.buffer.byteLength - memBefore;
  assert.ok(grew <= 8 << 20, `WebAssembly memory grew by ${grew} bytes over 1500 requests`);
  assert.equal(go.exited, false);
});

test("bodies read beforehand and streamed bodies get the same answers", async () => {
  const { binding } = await startGo();
  const small = await goRequest(post(body));
  assert.ok(small.body instanceof Uint8Array, "a small body with a length is read beforehand");
  const streamed = post(body, { withLength: false });
  assert.equal(await goRequest(streamed), streamed, "a body without a length stays a stream");
  const a = await (await binding.handleRequest(small)).text();
  const b = await (await binding.handleRequest(await goRequest(post(body, { withLength: false })))).text();
  assert.equal(a, b);
  assert.equal(JSON.parse(a).fits, true);

  // Field errors come back the same way.
  const bad = await binding.handleRequest(await goRequest(post('{"model":"llama-3.1-8b","hardware":"h100-sxm","block_size":7}')));
  assert.equal(bad.status, 400);
  assert.equal((await bad.json()).errors[0].field, "block_size");

  // Over the limit: not read beforehand, and Go refuses it by its length.
  const big = post(JSON.stringify({ model: "llama-3.1-8b", hardware: "h100-sxm", pad: "x".repeat(BUFFER_MAX_BYTES) }));
  assert.equal(await goRequest(big), big);
  assert.equal((await binding.handleRequest(big)).status, 413);
});

test("pathOf is the URL's path", () => {
  for (const url of ["https://a.example/v1/models?x=1#f", "http://127.0.0.1:8787/v1/models", "https://a.example/v1/models#x?y", "https://a.example/healthz", "https://a.example", "https://a.example/?q=/v1/"]) {
    assert.equal(pathOf(url), new URL(url).pathname, url);
  }
});
