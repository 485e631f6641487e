// The full engine (throughput-planner.wasm, the module's load({ planner:
// true })): the planner, the simulator and the session model, which the
// light throughput.wasm leaves out for its size budget. <throughput-planner>
// always uses it; <throughput-calculator> only for a request the light
// engine refuses (workload.sessions, a model it leaves to the full engine).
// Loaded on first use, once per page for every element.
let full = null;

/** The full engine, loaded once (a promise of the module's calculator). */
export function fullEngine() {
  full ??= import('../module/throughput.js').then((m) => m.load({ planner: true }));
  return full;
}
