// A dead Go instance is replaced on the next request (issue 35): the
// worker (build/worker, ./build.sh worker build) runs on a local workerd
// with its test hooks on (THROUGHPUT_TEST_HOOKS=1: wasm/worker/hooks.go),
// and its Go program is ended twice, by exiting and by exhausting its
// memory; after each, an evaluation and /healthz are answered 200. Without
// the flag the hooks are not there. Skipped when workerd (npm ci) or the
// built worker is missing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BUILD = path.join(ROOT, "build/worker");
const WORKERD = path.join(ROOT, "node_modules/.bin/workerd");
const skip = (!existsSync(WORKERD) && "workerd is not installed (npm ci)") || (!existsSync(path.join(BUILD, "app.wasm")) && "build/worker is missing (./build.sh worker build)");

// startWorkerd serves build/worker on a free loopback port (workerd's
// control fd reports it) with hooks on or off, and resolves with its URL
// and a stop function.
async function startWorkerd(hooks) {
  const site = mkdtempSync(path.join(tmpdir(), "throughput-recovery-"));
  writeFileSync(path.join(site, "index.html"), "<!doctype html><title>Throughput</title>\n");
  const env = { ...process.env, THROUGHPUT_HUB_URL: "", THROUGHPUT_HUB_TOKEN: "" };
  if (hooks) env.THROUGHPUT_TEST_HOOKS = "1";
  else delete env.THROUGHPUT_TEST_HOOKS;
  const child = spawn(WORKERD, ["serve", "workerd.capnp", "--socket-addr", "http=127.0.0.1:0", "--directory-path", "site=" + site, "--control-fd", "3"], {
    cwd: BUILD,
    env,
    stdio: ["ignore", "pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stdout.on("data", (d) => (stderr += d));
  child.stderr.on("data", (d) => (stderr += d));
  const port = await new Promise((resolve, reject) => {
    let ctl = "";
    child.stdio[3].on("data", (d) => {
      ctl += d;
      const m = /"port":(\d+)/.exec(ctl);
      if (m) resolve(Number(m[1]));
    });
    child.on("exit", (code) => reject(new Error("workerd exited " + code + ": " + stderr)));
  });
  const stop = () => {
    child.kill();
    rmSync(site, { recursive: true, force: true });
  };
  return { url: "http://127.0.0.1:" + port, stop, stderr: () => stderr };
}

const EVALUATE = "/v1/evaluate?model=llama-3.1-8b&hardware=h100-sxm";

async function status(url, init) {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
  await res.arrayBuffer();
  return res.status;
}

test("a killed Go instance is replaced on the next request", { skip }, async () => {
  const w = await startWorkerd(true);
  try {
    assert.equal(await status(w.url + "/healthz"), 200);
    assert.equal(await status(w.url + EVALUATE), 200);
    for (const how of ["exit", "oom", "exit"]) {
      // The request that kills the instance gets a 500 (or, were the
      // connection dropped, no answer); what matters is the next ones.
      const killed = await status(w.url + "/__test/" + how, { method: "POST" }).catch((e) => String(e));
      assert.notEqual(killed, 200, how);
      assert.equal(await status(w.url + EVALUATE), 200, "an evaluation after " + how);
      assert.equal(await status(w.url + "/healthz"), 200, "/healthz after " + how);
    }
    assert.match(w.stderr(), /out of memory/, "the oom hook exhausted Go's memory");
    assert.match(w.stderr(), /exit code: 2/, "and the runtime died of it");
  } finally {
    w.stop();
  }
});

test("without THROUGHPUT_TEST_HOOKS the hooks are not served", { skip }, async () => {
  const w = await startWorkerd(false);
  try {
    // The path is the site's: its disk service takes no POST (501).
    assert.equal(await status(w.url + "/__test/exit", { method: "POST" }), 501);
    assert.equal(await status(w.url + "/healthz"), 200);
    assert.equal(await status(w.url + EVALUATE), 200);
  } finally {
    w.stop();
  }
});
