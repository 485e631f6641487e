// Number formatting shared by the page, the widget and the tests, so a
// figure on screen can be compared with the engine's report. Fixed to
// en-US grouping so the text does not depend on the browser's locale.
// Binary units: 1 GiB = 2^30 bytes, 1 KiB = 2^10 bytes.

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** An integer with thousands separators: 13030.5 -> "13,031". */
export function int(n) {
  if (!Number.isFinite(n)) return '–';
  return grouped.format(Math.round(n));
}

/**
 * A positive quantity to about three significant digits, grouped above
 * 1,000: 13030.5 -> "13,031", 50.9 -> "50.9", 6.124 -> "6.12", 0.1147 -> "0.115".
 */
export function num(x) {
  if (!Number.isFinite(x)) return '–';
  const a = Math.abs(x);
  if (a >= 100) return int(x);
  if (a >= 10) return x.toFixed(1);
  if (a >= 1) return x.toFixed(2);
  if (a === 0) return '0';
  return x.toPrecision(3);
}

/** A value the user entered, as entered: 20 -> "20", 12.5 -> "12.5", 1024 -> "1,024". */
export const given = (x) => (Number.isInteger(x) ? int(x) : String(+x.toPrecision(6)));

/**
 * A request rate, for people: a whole number as it is ("40"), else to
 * three significant digits ("3.33", "13.3", "0.5"), grouped from 1,000.
 */
export const rate = (x) => (!Number.isFinite(x) ? '–' : Number.isInteger(x) || Math.abs(x) >= 1000 ? int(x) : String(+x.toPrecision(3)));

/** Requests per second: "3.33 req/s". */
export const reqS = (x) => `${rate(x)} req/s`;

/** Tokens per second: "13,031 tok/s". */
export const tokS = (x) => `${num(x)} tok/s`;

/** Milliseconds: "19.6 ms"; at or above 10 s, seconds: "12.3 s". */
export const ms = (x) => (Number.isFinite(x) && x >= 10000 ? `${num(x / 1000)} s` : `${num(x)} ms`);

/** Bytes in binary units: "14.96 GiB", "128 KiB", "512 B". */
export function bytes(b) {
  if (!Number.isFinite(b)) return '–';
  const a = Math.abs(b);
  if (a >= 2 ** 30) return `${(b / 2 ** 30).toFixed(2)} GiB`;
  if (a >= 2 ** 20) return `${(b / 2 ** 20).toFixed(1)} MiB`;
  if (a >= 2 ** 10) return `${num(b / 2 ** 10)} KiB`;
  return `${int(b)} B`;
}

/** US dollars: "$0.115", "$2.50", "$1,234". */
export function usd(x) {
  if (!Number.isFinite(x)) return '–';
  if (Math.abs(x) >= 1) return `$${Math.abs(x) >= 1000 ? int(x) : x.toFixed(2)}`;
  return `$${num(x)}`;
}

/** Joules per output token to three significant digits: 0.12360 -> "0.124 J/token". */
export const joules = (x) => (Number.isFinite(x) ? `${+x.toPrecision(3)} J/token` : '–');

/** A fraction as a percentage: 0.6651 -> "66.5%". */
export const pct = (f) => (Number.isFinite(f) ? `${(f * 100).toFixed(1)}%` : '–');

/** Parameter counts: 8030261248 -> "8.03B". */
export function params(n) {
  if (!Number.isFinite(n)) return '–';
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)}B`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  return int(n);
}

/** The conditions a figure holds for: "batch 256, context 1,152 tokens". */
export const at = (batch, context) => `batch ${int(batch)}, context ${int(context)} tokens`;

/** Human words for the engine's limited_by codes. */
export const LIMITS = {
  kv_cache: 'KV cache',
  max_num_seqs: 'max_num_seqs',
  max_num_batched_tokens: 'max_num_batched_tokens',
  latency_budget: 'latency budget',
  weights_do_not_fit: 'weights do not fit',
  tpot: 'TPOT budget',
  ttft: 'TTFT budget',
};

/** limitedBy("kv_cache") -> "KV cache"; unknown codes pass through. */
export const limitedBy = (code) => LIMITS[code] ?? String(code ?? '').replaceAll('_', ' ');

/**
 * The report's 80 % range of a figure (report.bands, docs/MODEL.md section
 * 7) in the figure's format f, its unit once: "(10.9–14.1 ms)", with
 * "widened" when the request lies outside the validated cases; '' without
 * one.
 */
export function range(r, figure, f) {
  const b = r?.bands?.find((x) => x.figure === figure);
  if (!b) return '';
  let lo = f(b.low);
  const hi = f(b.high);
  const unit = (s) => s.slice(s.lastIndexOf(' '));
  if (lo.includes(' ') && unit(lo) === unit(hi)) lo = lo.slice(0, lo.lastIndexOf(' '));
  return `(80 %: ${lo === hi ? hi : `${lo}–${hi}`}${b.widened ? ', widened' : ''})`;
}
