// The module in Cloudflare's runtime: a worker that imports throughput.js
// and the .wasm as a WebAssembly.Module (as wrangler does) runs under a
// local workerd (npm "workerd", from the root lockfile). Skipped when
// workerd is not installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const npm = fileURLToPath(new URL('../../build/npm/', import.meta.url));
const workerd = fileURLToPath(new URL('../../node_modules/.bin/workerd', import.meta.url));

const WORKER = `
import { load, ThroughputError } from './throughput.js';
import wasm from './throughput.wasm';
import catalog from './catalog.json'; // a text module: the catalog's JSON text
let calc;
export default {
  async fetch(request) {
    calc ??= await load({ wasm, catalog });
    const model = new URL(request.url).searchParams.get('model');
    try {
      const r = calc.evaluate({ model, hardware: 'h100-sxm' });
      return Response.json({ version: calc.version, bytes_per_token: r.kv_cache.bytes_per_token, points: r.sweep.length });
    } catch (e) {
      return Response.json({ throughput_error: e instanceof ThroughputError, errors: e.errors }, { status: 400 });
    }
  },
};
`;

const config = (port) => `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .w) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const w :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "throughput.js", esModule = embed "throughput.js"),
    (name = "wasm_exec.js", esModule = embed "wasm_exec.js"),
    (name = "hardware-sources.js", esModule = embed "hardware-sources.js"),
    (name = "throughput.wasm", wasm = embed "throughput.wasm"),
    (name = "catalog.json", text = embed "catalog.json"),
  ],
  compatibilityDate = "2024-09-23",
);
`;

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    }).on('error', reject);
  });
}

async function fetchRetry(url, deadline) {
  for (;;) {
    try {
      return await fetch(url);
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

test('a Cloudflare worker loads the module from a WebAssembly.Module import', { skip: !existsSync(workerd) && 'workerd is not installed (npm ci at the repository root)' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'throughput-workerd-'));
  let child;
  try {
    for (const f of ['throughput.js', 'hardware-sources.js', 'wasm_exec.js', 'throughput.wasm', 'catalog.json']) copyFileSync(join(npm, f), join(dir, f));
    writeFileSync(join(dir, 'worker.mjs'), WORKER);
    const port = await freePort();
    writeFileSync(join(dir, 'config.capnp'), config(port));
    child = spawn(workerd, ['serve', 'config.capnp'], { cwd: dir, detached: true, stdio: 'ignore' });
    const base = `http://127.0.0.1:${port}/`;
    const ok = await fetchRetry(`${base}?model=llama-3.1-8b`, Date.now() + 15_000);
    assert.equal(ok.status, 200);
    const body = await ok.json();
    assert.match(body.version, /^\d+\.\d+\.\d+/);
    assert.equal(body.bytes_per_token, 2 * 32 * 8 * 128 * 2); // K,V x 32 layers x 8 KV heads x 128 x bf16
    assert.equal(body.points, 64);
    const bad = await fetch(`${base}?model=no-such-model`);
    assert.equal(bad.status, 400);
    const err = await bad.json();
    assert.equal(err.throughput_error, true);
    assert.equal(err.errors[0].field, 'model');
  } finally {
    if (child) process.kill(-child.pid);
    rmSync(dir, { recursive: true, force: true });
  }
});
