// The page's simulations run here, off the main thread, so a large one
// never freezes the page: app.js posts {id, request, workBudget, hub} and gets
// {id, report} or {id, errors} back; Cancel terminates this worker (the
// engine's evaluate is synchronous, so there is nothing gentler to do).
// The bundle (build/site/sim-worker.js) carries the module; the full engine,
// throughput-planner.wasm (the light throughput.wasm has no simulator),
// is fetched next to it, from the HTTP cache the page's own fetch filled. A
// model outside the catalog is fetched from the page's Hub (hub: its
// settings) or read from the copy the page's fetch kept.
import { load } from '../module/throughput.js';

let engine = null;

self.onmessage = async ({ data }) => {
  const { id, request, workBudget, hub } = data;
  try {
    engine ??= load({ planner: true }); // the full engine: the light one has no simulator
    const calc = await engine;
    if (hub) calc.setHub(hub);
    await calc.prepare(request);
    self.postMessage({ id, report: calc.evaluate(request, { workBudget }) });
  } catch (e) {
    const errors = Array.isArray(e?.errors) && e.errors.length ? e.errors : [{ field: '', message: String(e?.message ?? e) }];
    self.postMessage({ id, errors });
  }
};
