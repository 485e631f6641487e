// Throughput's Worker entry: one Go instance per isolate.
//
// syumai/workers' stock shim instantiates the Go WebAssembly module and
// runs its main for every request (16-40 ms each). This entry starts the
// Go program once, lazily on the first request (the Workers global scope
// forbids the timers and random numbers Go's runtime start uses), keeps
// it, and sends every request to the handler the adapter registered
// (binding.handleRequest, which returns a Promise of a Response). Calls
// may overlap: the Go side answers each in its own goroutine, and
// JavaScript's single thread interleaves them only at await points.
//
// Files beside this one at run time (./build.sh worker): wasm_exec.js from
// the Go toolchain that built app.wasm, and app.wasm (wasm/worker).
import "./wasm_exec.js";
import mod from "./app.wasm";
import { goRequest, pathOf, BASE_HEADERS, parseHeaders, applyHeaders } from "./request.mjs";

// API paths go to Go; everything else is a static asset when an ASSETS
// binding exists (Workers static assets, or a workerd disk service).
const API_PATH = /^\/(v1(\/|$)|openapi\.json$|healthz$)/;

// The recovery tests' hooks (hooks.go): /__test/ paths go to Go, and Go
// adds its handlers for them, only when the worker's THROUGHPUT_TEST_HOOKS
// binding is "1" (workerd.capnp reads it from workerd's environment;
// wrangler.toml never sets it).
const TEST_PATH = /^\/__test\//;

// BODIES holds the Go side's answers' bodies, each named by its answer's
// X-Throughput-Body header (wasm/worker/reusable.go's aside): own()
// builds each answer's Response again in its own request's context, since
// workerd refuses to send a body another request's context created.
const BODIES = new Map();
globalThis.__throughputBodies = BODIES;
const BODY_KEY = "X-Throughput-Body";

// own is res rebuilt in the calling request's context with its body from
// BODIES.
function own(res) {
  const key = res.headers.get(BODY_KEY);
  if (key === null) return res;
  const body = BODIES.get(key);
  BODIES.delete(key);
  const headers = new Headers(res.headers);
  headers.delete(BODY_KEY);
  return new Response(body ?? null, { status: res.status, statusText: res.statusText, headers });
}

// runtime is the promise of the running instance, { go, binding, dead,
// died }, or null before the first request and after the program ends.
let runtime = null;

function getRuntime(env) {
  if (runtime === null) {
    const current = start(env, () => {
      if (runtime === current) runtime = null;
    });
    runtime = current;
  }
  return runtime;
}

// liveRuntime is the running instance, a fresh one when the last has died.
// A Go program that ends (an "out of memory" crash, os.Exit) sets go.exited
// in wasm_exec.js's runtime.wasmExit, synchronously, inside the request
// that ran it; a trap sets dead (serveGo). Each request checks both before
// it is handled, since the continuation of go.run that start hands onEnd
// to never runs on workerd, which cancels it when the request that started
// the program ends: without the check every later request, /healthz
// included, got 500 "Go program has already exited" (issue 35).
async function liveRuntime(env) {
  const current = getRuntime(env);
  const rt = await current;
  if (!rt.go.exited && !rt.dead) return rt;
  if (runtime === current) runtime = null;
  BODIES.clear(); // bodies of answers the dead program never finished
  return getRuntime(env);
}

// start instantiates the Go program and resolves once the adapter has
// registered its handler. onEnd runs when the program ends (its main
// returned, or it crashed) or failed to start, where the platform runs it.
async function start(env, onEnd) {
  try {
    const go = new Go();
    // Go's GC target also paces V8's: every JavaScript object Go holds
    // (23 per POST /v1/evaluate: the request, its header entries, the
    // response and its body) stays alive until Go's collector finalizes
    // its reference, so it outlives V8's young generation and feeds the
    // major collections that set the latency tail (45-50 ms pauses).
    // Measured at 200 req/s on local workerd (scripts/load-worker.mjs):
    // GOGC=400 p99 27-31 ms; 300 26 ms; 200 20-21 ms and 150 22 ms, RSS
    // flat over 50 s; 100 p99 10 ms but RSS climbing 6 MiB/s until a
    // 355 ms collection.
    // THROUGHPUT_HUB_URL and THROUGHPUT_HUB_TOKEN (the worker's vars and
    // secrets) name the Hugging Face Hub that ids outside the catalog are
    // fetched from (api.HubFromEnv; unset: none).
    go.env = { GOGC: "200" };
    for (const k of ["THROUGHPUT_HUB_URL", "THROUGHPUT_HUB_TOKEN", "THROUGHPUT_TEST_HOOKS"]) {
      if (typeof env?.[k] === "string") go.env[k] = env[k];
    }
    // When the program exits, the requests it was answering (pending:
    // each its own promise's reject, made in its own request) get a 500
    // at once rather than never settling.
    const rt = { go, binding: {}, dead: false, pending: new Set() };
    const exit = go.importObject.gojs["runtime.wasmExit"];
    go.importObject.gojs["runtime.wasmExit"] = (sp) => {
      exit(sp);
      for (const reject of rt.pending) reject(new Error("the Go program exited"));
      rt.pending.clear();
    };
    let ready;
    const readyPromise = new Promise((resolve) => {
      ready = resolve;
    });
    const instance = new WebAssembly.Instance(mod, {
      ...go.importObject,
      workers: { ready: () => ready() },
    });
    // syumai/workers reads globalThis.context.binding while its package
    // initializes and registers handleRequest on it; cloudflare.Getenv
    // reads context.env. The Throughput handler uses neither env nor the
    // per-request ExecutionContext, which a shared instance cannot have.
    globalThis.context = { env, binding: rt.binding };
    go.run(instance).finally(onEnd);
    await untilExit(rt, readyPromise);
    return rt;
  } catch (err) {
    onEnd();
    throw err;
  }
}

function problem(status, detail) {
  return new Response(
    JSON.stringify({
      type: "https://github.com/modelrefs/throughput/blob/main/docs/api.md#internal-error",
      title: "Internal error",
      status,
      detail,
    }),
    {
      status,
      headers: {
        "Content-Type": "application/problem+json",
        "Cache-Control": "no-store",
        "Access-Control-Allow-Origin": "*",
        // As the Go handler's answers (api.securityHeaders).
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'; sandbox",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
      },
    },
  );
}

// untilExit is p, or a rejection when rt's program exits first. While it
// waits, a timer of its own keeps the request alive: a request whose
// answer waits on I/O another request started (a Hub lookup it joined)
// has none of its own, and workerd cancelled it as hung ("would never
// generate a response", a plain 500; scripts/soak-worker.mjs, 4 in
// 120,000 requests).
async function untilExit(rt, p) {
  let reject;
  const exited = new Promise((_, r) => (reject = r));
  rt.pending.add(reject);
  const alive = setInterval(() => {}, 1000);
  try {
    return await Promise.race([p, exited]);
  } finally {
    clearInterval(alive);
    rt.pending.delete(reject);
  }
}

// serveGo answers a request with the shared Go instance.
async function serveGo(request, env) {
  let rt;
  try {
    rt = await liveRuntime(env);
    return own(await untilExit(rt, rt.binding.handleRequest(await goRequest(request))));
  } catch (err) {
    // A trap leaves the instance unusable without ending it: the next
    // request starts a fresh one (liveRuntime).
    if (err instanceof WebAssembly.RuntimeError && rt) rt.dead = true;
    return problem(500, "the worker failed: " + String(err && err.message ? err.message : err));
  }
}

// Content types for a workerd disk service, which sends every file as
// application/octet-stream. Workers static assets set their own.
const TYPES = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json",
  wasm: "application/wasm",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  txt: "text/plain; charset=utf-8",
};

// The site's _headers rules (request.mjs), read once per isolate: none
// where the assets have no such file (Cloudflare's, which apply it before
// the worker runs).
let headerRules = null;
function rulesOf(assets, url) {
  headerRules ??= assets.fetch(new Request(new URL("/_headers", url)))
    .then(async (res) => (res.ok ? parseHeaders(await res.text()) : []))
    .catch(() => []);
  return headerRules;
}

async function serveAsset(request, assets, url) {
  const path = url.pathname;
  const rules = await rulesOf(assets, url);
  let res;
  if (/^\/+_headers$/.test(path)) {
    res = new Response("Not Found", { status: 404 }); // the rules, not a file of the site
  } else {
    if (url.pathname.endsWith("/")) {
      url.pathname += "index.html";
      request = new Request(url, request);
    }
    // OPTIONS asks whether the file exists (a HEAD), then preflight answers.
    res = await assets.fetch(request.method === "OPTIONS" ? new Request(url, { method: "HEAD" }) : request);
  }
  const ext = url.pathname.slice(url.pathname.lastIndexOf(".") + 1).toLowerCase();
  const type = res.headers.get("Content-Type");
  const headers = new Headers(res.headers);
  if (res.ok && TYPES[ext] && (!type || type === "application/octet-stream")) headers.set("Content-Type", TYPES[ext]);
  for (const [k, v] of Object.entries(BASE_HEADERS)) headers.set(k, v);
  applyHeaders(rules, path, headers);
  if (request.method === "OPTIONS" && res.ok) return preflight(request, headers);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

// preflight answers OPTIONS on a file of the site, as tools/serve does: 204
// with Allow and, for a CORS preflight on a path whose _headers rules
// allow other origins, the methods and asked headers a cross-origin reader
// may use (the site takes no credentials), cached for a day.
function preflight(request, fileHeaders) {
  const allowed = "GET, HEAD, OPTIONS";
  const headers = new Headers({ Allow: allowed });
  for (const k of ["Access-Control-Allow-Origin", "Cross-Origin-Resource-Policy", "X-Content-Type-Options", "Referrer-Policy"]) {
    if (fileHeaders.has(k)) headers.set(k, fileHeaders.get(k));
  }
  if (request.headers.get("Access-Control-Request-Method") && headers.has("Access-Control-Allow-Origin")) {
    headers.set("Access-Control-Allow-Methods", allowed);
    const asked = request.headers.get("Access-Control-Request-Headers");
    if (asked) headers.set("Access-Control-Allow-Headers", asked);
    headers.set("Access-Control-Max-Age", "86400");
  }
  return new Response(null, { status: 204, headers });
}

export default {
  async fetch(request, env) {
    const path = pathOf(request.url);
    const hooks = env.THROUGHPUT_TEST_HOOKS === "1" && TEST_PATH.test(path);
    if (env.ASSETS && !API_PATH.test(path) && !hooks) return serveAsset(request, env.ASSETS, new URL(request.url));
    return serveGo(request, env);
  },
};
