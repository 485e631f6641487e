// How far the batch-size sweep should reach. The engine sweeps to 1.25x the
// batch ceiling by default; when max_num_seqs caps the batch, the KV ceiling
// and the preemption onset lie beyond that, off the chart. The page and the
// widget therefore ask for a sweep that reaches past all three.

/** Rounds x up to the grid 2^k, 1.5 * 2^k, so that nearby reports share one range. */
export function gridUp(x) {
  const p = 2 ** Math.floor(Math.log2(Math.max(x, 1)));
  if (x <= p) return p;
  if (x <= 1.5 * p) return Math.ceil(1.5 * p);
  return 2 * p;
}

/**
 * The largest batch the chart should show for a report (batches, an
 * integer): at least 8, 1.25x the batch ceiling, 1.1x the KV ceiling and
 * 1.1x the preemption onset, but at most 16x the larger of the batch ceiling
 * and 64, on the gridUp grid. It depends only on figures that the sweep
 * range does not change, so re-evaluating with it gives the same figures.
 */
export function sweepMax(report) {
  const ceil = report?.batch_ceiling?.batch_size ?? 0;
  const pre = report?.preemption;
  const want = Math.max(8, 1.25 * ceil, 1.1 * (pre?.onset_concurrency_lockstep ?? 0), 1.1 * (pre?.onset_concurrency ?? 0));
  return gridUp(Math.min(want, 16 * Math.max(ceil, 64)));
}

/** req with sweep.max_batch_size set (a copy; req is not changed). */
export const withSweepMax = (req, max) => (max ? { ...req, sweep: { ...req.sweep, max_batch_size: max } } : req);

/**
 * Evaluates req with a sweep reaching sweepMax(report). hint is the range
 * used last time (a guess that saves the second evaluation when it holds).
 * Returns the report; its sweep ends at or beyond sweepMax(report) unless
 * the model does not fit (no sweep). Throws what evaluate throws.
 */
export function evaluateWithRange(evaluate, req, hint) {
  if (req.sweep?.max_batch_size) return evaluate(req);
  const first = evaluate(withSweepMax(req, hint));
  if (!first.sweep?.length) return first;
  const want = sweepMax(first);
  return want === hint ? first : evaluate(withSweepMax(req, want));
}
