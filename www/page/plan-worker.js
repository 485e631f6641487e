// The planning view's planner, off the main thread (plan.js): the full
// engine (throughput-planner.wasm, the light throughput.wasm has no
// planner) loads here once, then answers {id, request} with {id, report,
// ms} or {id, errors}. On load it posts {ready, hardware, prices, ms}:
// the catalog's accelerators and the default price table for the form;
// then {warmed} after its warm-up plan.
// Progress comes as {id, stage}: "engine" while the engine loads,
// "planning" while calc.Plan runs. Cancel terminates this worker (plan()
// is synchronous: there is nothing gentler to do); plan.js starts a fresh
// one, whose engine compiles from the HTTP cache.
import { load } from '../module/throughput.js';

const t0 = performance.now();
const engine = load({ planner: true });
engine.then((calc) => {
  self.postMessage({ ready: true, hardware: calc.hardware(), prices: calc.prices(), ms: performance.now() - t0 });
  // A small plan while the user reads the form: the engine's code runs
  // first in the browser's baseline compiler and its hot paths are
  // recompiled once used, and the Go heap grows to a plan's size; both
  // would otherwise fall on the first real plan (about 600 against 200 ms
  // for the whole catalog on a desktop profile: scripts/bench-page.mjs).
  // Not when a plan is already waiting (a link's): it goes first.
  if (!asked) try { calc.plan(WARM_UP); } catch { /* a warm-up only */ }
  self.postMessage({ warmed: true });
}, (e) => self.postMessage({ ready: false, errors: [{ field: '', message: `the planner engine did not load: ${e?.message ?? e}` }] }));

/** The warm-up plan: one accelerator, the default search and verification. */
const WARM_UP = {
  model: 'llama-3.1-8b', workload: { request_rate: 10, input_tokens: 1024, output_tokens: 256 },
  slo: { ttft_ms: 1000, tpot_ms: 50 }, constraints: { accelerators: ['h100-sxm-80gb', 'mi300x'] },
};

let asked = false; // whether a plan came before the engine had loaded

self.onmessage = async ({ data }) => {
  const { id, request } = data;
  asked = true;
  try {
    self.postMessage({ id, stage: 'engine' });
    const calc = await engine;
    self.postMessage({ id, stage: 'planning' });
    const t = performance.now();
    const report = calc.plan(request);
    self.postMessage({ id, report, ms: performance.now() - t });
  } catch (e) {
    const errors = Array.isArray(e?.errors) && e.errors.length ? e.errors : [{ field: '', message: String(e?.message ?? e) }];
    self.postMessage({ id, errors });
  }
};
