// An SVG chart of a report's batch-size sweep: aggregate throughput (left
// axis) and the speed one user feels (right axis) against batch size on a
// log scale, with the KV ceiling and the preemption onset marked and the
// region past the batch ceiling shaded; with speculative decoding, the
// plain server's aggregate beside it and the batch where speculation stops
// paying. No dependencies; the elements are
// built once and only their attributes change on update, so a redraw at
// 256 points costs well under a millisecond. Shared by the page and the
// widget (it works inside a shadow root).
import * as fmt from './format.js';
import { setAttr, setAttrs, setText } from './dom.js';

const NS = 'http://www.w3.org/2000/svg';

/** The chart's styles; colours come from custom properties with light defaults. */
export const CHART_CSS = `
.tc-chart { display: block; max-width: 100%; overflow: visible; font-size: 11px; }
.tc-chart .grid line { stroke: var(--line, #d9dde4); stroke-width: 1; }
.tc-chart .axis, .tc-chart .xtick { stroke: var(--muted, #5b6472); }
.tc-chart text { fill: var(--muted, #5b6472); }
.tc-chart .tick.agg, .tc-chart .label.agg { fill: var(--agg, #1d4ed8); }
.tc-chart .tick.per, .tc-chart .label.per { fill: var(--per, #c2410c); }
.tc-chart .line { fill: none; stroke-width: 2.2; stroke-linejoin: round; }
.tc-chart .line.agg { stroke: var(--agg, #1d4ed8); }
.tc-chart .line.per { stroke: var(--per, #c2410c); stroke-dasharray: 6 4; }
.tc-chart .line.other { stroke-width: 1.6; opacity: .85; stroke: var(--o1, #0f766e); }
.tc-chart .line.other.o2 { stroke: var(--o2, #a21caf); }
.tc-chart .line.other.o3 { stroke: var(--o3, #4d7c0f); }
.tc-chart .shade { fill: var(--shade, rgba(100,116,139,.14)); }
.tc-chart .shade-label { font-size: 10.5px; }
.tc-chart .marker text, .tc-chart .shade-label { paint-order: stroke; stroke: var(--panel, #fff); stroke-width: 3px; stroke-linejoin: round; }
.tc-chart .marker line { stroke-width: 1.5; stroke-dasharray: 3 3; }
.tc-chart .marker.kv line { stroke: var(--kv, #7c3aed); }
.tc-chart .marker.kv text { fill: var(--kv, #7c3aed); }
.tc-chart .marker.onset line { stroke: var(--onset, #b91c1c); }
.tc-chart .marker.onset text { fill: var(--onset, #b91c1c); }
.tc-chart .line.nospec { stroke: var(--spec, #0f766e); stroke-width: 1.6; stroke-dasharray: 2 3; }
.tc-chart .marker.spec line { stroke: var(--spec, #0f766e); }
.tc-chart .marker.spec text { fill: var(--spec, #0f766e); }
.tc-chart .best { fill: var(--panel, #fff); stroke: var(--agg, #1d4ed8); stroke-width: 2.5; }
.tc-chart .cursor line { stroke: var(--fg, #14171c); stroke-opacity: .4; }
.tc-chart .cursor .agg { fill: var(--agg, #1d4ed8); }
.tc-chart .cursor .per { fill: var(--per, #c2410c); }
.tc-chart:focus-visible { outline: 2px solid var(--accent, #1d4ed8); }
`;
let uid = 0;

function el(name, attrs = {}, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}

const r1 = (x) => Math.round(x * 10) / 10;

/**
 * A writer for the children of g: each call reuses the next child (or
 * creates it) and sets what changed; done() removes the children left over.
 */
function pool(g) {
  let i = 0;
  const take = (tag, attrs, text) => {
    let e = g.children[i++];
    if (!e || e.localName !== tag) {
      const n = el(tag, {});
      if (e) g.replaceChild(n, e); else g.append(n);
      e = n;
    }
    for (const k in attrs) setAttr(e, k, typeof attrs[k] === 'number' ? r1(attrs[k]) : attrs[k]);
    if (text !== undefined) setText(e, text);
    return e;
  };
  take.done = () => { while (g.children.length > i) g.lastChild.remove(); };
  return take;
}

/**
 * A "nice" linear axis for values in [0, x]: a step of 1, 2, 2.5 or 5 times a
 * power of ten and the smallest multiple of it at or above x, in 3 to 5 steps.
 */
export function niceScale(x) {
  if (!(x > 0)) return { top: 1, step: 0.25, ticks: 4 };
  const raw = x / 5;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * p).find((s) => s >= raw);
  const ticks = Math.max(1, Math.ceil(x / step - 1e-9));
  return { top: step * ticks, step, ticks };
}

/** Short axis numbers: 12000 -> "12k", 2500000 -> "2.5M". */
export function short(x) {
  if (x >= 1e6) return `${+(x / 1e6).toFixed(1)}M`;
  if (x >= 1e3) return `${+(x / 1e3).toFixed(1)}k`;
  return `${+x.toFixed(1)}`;
}

export class ThroughputChart {
  /**
   * @param {HTMLElement} host  element the SVG is appended to
   * @param {object} [opts]
   * @param {boolean} [opts.compact]  smaller, fewer labels (the widget)
   * @param {HTMLElement} [opts.readout]  where the cursor's values are written
   */
  constructor(host, { compact = false, readout = null } = {}) {
    this.host = host;
    this.compact = compact;
    this.readout = readout;
    this.report = null;
    this.others = [];
    this.cursor = -1;
    const id = `tc${++uid}`;
    this.width = 0;
    this.height = compact ? 170 : 300;

    const svg = (this.svg = el('svg', {
      class: 'tc-chart', role: 'img', tabindex: '0', 'aria-labelledby': `${id}-t ${id}-d`,
      'aria-roledescription': 'chart', focusable: 'true',
    }));
    el('title', { id: `${id}-t` }, svg).textContent = 'Throughput against batch size';
    this.desc = el('desc', { id: `${id}-d` }, svg);
    this.gGrid = el('g', { class: 'grid' }, svg);
    this.shade = el('rect', { class: 'shade' }, svg);
    this.shadeLabel = el('text', { class: 'shade-label' }, svg);
    this.gOthers = el('g', { class: 'others' }, svg);
    this.pathAgg = el('path', { class: 'line agg' }, svg);
    this.pathPer = el('path', { class: 'line per' }, svg);
    this.pathNoSpec = el('path', { class: 'line nospec' }, svg);
    this.markers = {};
    for (const k of ['kv', 'onset', 'spec']) {
      const g = el('g', { class: `marker ${k}` }, svg);
      this.markers[k] = { g, line: el('line', {}, g), text: el('text', {}, g) };
    }
    this.best = el('circle', { class: 'best', r: 4.5 }, svg);
    this.gAxes = el('g', { class: 'axes' }, svg);
    const cur = (this.cur = el('g', { class: 'cursor', visibility: 'hidden' }, svg));
    this.curLine = el('line', {}, cur);
    this.curAgg = el('circle', { r: 4, class: 'agg' }, cur);
    this.curPer = el('circle', { r: 4, class: 'per' }, cur);
    host.append(svg);

    svg.addEventListener('keydown', (e) => this.#key(e));
    svg.addEventListener('pointermove', (e) => this.#pointer(e));
    svg.addEventListener('pointerleave', () => { if (document.activeElement !== svg && this.#root().activeElement !== svg) this.#setCursor(-1); });
    svg.addEventListener('blur', () => this.#setCursor(-1));
    svg.addEventListener('focus', () => { if (this.cursor < 0) this.#setCursor(this.#defaultCursor()); });

    if (typeof ResizeObserver !== 'undefined') {
      this.ro = new ResizeObserver(() => this.#resize());
      this.ro.observe(host);
    }
  }

  #root() { return this.host.getRootNode?.() ?? document; }

  #resize() {
    const w = Math.round(this.host.clientWidth);
    if (w > 0 && w !== this.width) {
      this.width = w;
      if (this.report) this.draw();
    }
  }

  /**
   * Draw a report; others are extra sweeps to overlay (comparison):
   * [{label, sweep, className}]; className o1, o2 or o3 picks the colour.
   */
  update(report, others = []) {
    this.report = report;
    this.others = others;
    if (!this.width) this.width = Math.round(this.host.clientWidth) || 600;
    this.draw();
  }

  draw() {
    const r = this.report;
    const sweep = r?.sweep ?? [];
    const W = this.width;
    const narrow = W < 420;
    const H = this.compact ? this.height : narrow ? 240 : this.height;
    const m = { l: narrow ? 40 : 52, r: narrow ? 40 : 52, t: 18, b: 34 };
    setAttrs(this.svg, { viewBox: `0 0 ${W} ${H}`, width: W, height: H });
    const pw = Math.max(W - m.l - m.r, 10);
    const ph = H - m.t - m.b;

    const all = [sweep, ...this.others.map((o) => o.sweep ?? [])];
    const xMax = Math.max(2, ...all.map((s) => (s.length ? s[s.length - 1].batch_size : 2)));
    // Both axes share their tick count so the grid lines serve both.
    const aggS = niceScale(Math.max(...all.flatMap((s) => s.map((p) => Math.max(p.tokens_per_s, p.tokens_per_s_without_speculation || 0))), 1));
    const perS = niceScale(Math.max(...all.flatMap((s) => s.map((p) => p.tokens_per_s_per_sequence)), 1));
    const ticks = Math.max(aggS.ticks, perS.ticks);
    const aggMax = aggS.step * ticks;
    const perMax = perS.step * ticks;
    const lx = Math.log2(xMax);
    const X = (b) => m.l + (Math.log2(Math.max(b, 1)) / lx) * pw;
    const YA = (v) => m.t + ph - (v / aggMax) * ph;
    const YP = (v) => m.t + ph - (v / perMax) * ph;
    this.scale = { X, YA, YP, m, pw, ph, W, H };

    // Grid and axes: pooled elements, written only where they change.
    const grid = pool(this.gGrid);
    const axes = pool(this.gAxes);
    for (let i = 0; i <= ticks; i++) {
      const y = m.t + ph - (i / ticks) * ph;
      grid('line', { x1: m.l, x2: m.l + pw, y1: y, y2: y });
      axes('text', { x: m.l - 6, y: y + 4, class: 'tick agg', 'text-anchor': 'end' }, short((aggMax * i) / ticks));
      axes('text', { x: m.l + pw + 6, y: y + 4, class: 'tick per', 'text-anchor': 'start' }, short((perMax * i) / ticks));
    }
    const step = Math.max(1, Math.ceil(lx / Math.max(2, Math.floor(pw / 48))));
    for (let e = 0; e <= lx; e += step) {
      const x = X(2 ** e);
      axes('line', { x1: x, x2: x, y1: m.t + ph, y2: m.t + ph + 4, class: 'xtick' });
      axes('text', { x, y: m.t + ph + 16, class: 'tick', 'text-anchor': 'middle' }, short(2 ** e));
    }
    axes('line', { x1: m.l, x2: m.l + pw, y1: m.t + ph, y2: m.t + ph, class: 'axis' });
    axes('text', { x: m.l + pw / 2, y: H - 4, class: 'label', 'text-anchor': 'middle' }, 'batch size (concurrent sequences, log scale)');
    if (!this.compact || !narrow) {
      axes('text', { x: m.l - 6, y: m.t - 6, class: 'label agg', 'text-anchor': 'start' }, narrow ? 'total tok/s' : 'aggregate tok/s');
      axes('text', { x: m.l + pw + 6, y: m.t - 6, class: 'label per', 'text-anchor': 'end' }, narrow ? 'per user' : 'per-user tok/s');
    }
    grid.done();
    axes.done();

    // Lines.
    const path = (s, f) => s.map((p, i) => `${i ? 'L' : 'M'}${X(p.batch_size).toFixed(1)},${f(p).toFixed(1)}`).join('');
    setAttr(this.pathAgg, 'd', path(sweep, (p) => YA(p.tokens_per_s)));
    setAttr(this.pathPer, 'd', path(sweep, (p) => YP(p.tokens_per_s_per_sequence)));
    // Speculative decoding: the plain server's aggregate (every sweep point carries it).
    const spec = r?.features?.speculative;
    setAttr(this.pathNoSpec, 'd', spec ? path(sweep, (p) => YA(p.tokens_per_s_without_speculation ?? 0)) : '');
    const others = pool(this.gOthers);
    for (const o of this.others) {
      const p = others('path', { class: `line other ${o.className ?? ''}`, d: path(o.sweep ?? [], (q) => YA(q.tokens_per_s)) });
      setText(p.firstChild ?? el('title', {}, p), o.label);
    }
    others.done();

    // Past the batch ceiling: shaded.
    const ceil = r?.batch_ceiling?.batch_size;
    if (ceil && ceil < xMax && sweep.length) {
      const x0 = X(ceil);
      setAttrs(this.shade, { x: r1(x0), y: m.t, width: r1(Math.max(m.l + pw - x0, 0)), height: ph, visibility: null });
      setAttrs(this.shadeLabel, { x: m.l + pw - 4, y: m.t + ph - 6, 'text-anchor': 'end', visibility: null });
      setText(this.shadeLabel, m.l + pw - x0 > 90 ? `past ceiling: ${fmt.limitedBy(r.batch_ceiling.limited_by)}` : 'past ceiling');
    } else {
      setAttr(this.shade, 'visibility', 'hidden');
      setAttr(this.shadeLabel, 'visibility', 'hidden');
    }

    // Markers: the KV ceiling (all sequences at their final context) and
    // the steady-state preemption onset.
    const pre = r?.preemption;
    this.#marker('kv', pre?.onset_concurrency_lockstep, `KV ceiling ${fmt.int(pre?.onset_concurrency_lockstep)}`, xMax, 0);
    this.#marker('onset', pre?.onset_concurrency, `preemption ${fmt.int(pre?.onset_concurrency)}`, xMax, 14);
    this.#marker('spec', spec?.crossover_batch_size, `speculation stops paying ${fmt.int(spec?.crossover_batch_size)}`, xMax, 28);

    const best = r?.best;
    if (best?.feasible && sweep.length) {
      setAttrs(this.best, { cx: r1(X(best.batch_size)), cy: r1(YA(best.tokens_per_s)), visibility: null });
    } else setAttr(this.best, 'visibility', 'hidden');

    setText(this.desc, describe(r));
    if (this.cursor >= sweep.length) this.cursor = sweep.length - 1;
    this.#drawCursor();
  }

  #marker(k, batch, text, xMax, dy) {
    const { g, line, text: t } = this.markers[k];
    const { X, m, pw, ph } = this.scale;
    if (!(batch >= 1)) { setAttr(g, 'visibility', 'hidden'); return; }
    setAttr(g, 'visibility', null);
    const off = batch > xMax;
    const x = r1(off ? m.l + pw : X(batch));
    setAttrs(line, { x1: x, x2: x, y1: m.t, y2: m.t + ph, visibility: off ? 'hidden' : 'visible' });
    const right = x > m.l + pw * 0.6;
    setAttrs(t, { x: r1(right ? x - 4 : x + 4), y: m.t + 12 + dy, 'text-anchor': right ? 'end' : 'start' });
    setText(t, off ? `${text} →` : text);
  }

  #defaultCursor() {
    const s = this.report?.sweep ?? [];
    if (!s.length) return -1;
    const b = this.report.best?.batch_size ?? this.report.batch_ceiling?.batch_size ?? 1;
    return nearest(s, b);
  }

  #setCursor(i) {
    this.cursor = i;
    this.#drawCursor(true);
  }

  #drawCursor(announce = false) {
    const s = this.report?.sweep ?? [];
    const p = s[this.cursor];
    if (!p || !this.scale) { setAttr(this.cur, 'visibility', 'hidden'); return; }
    const { X, YA, YP, m, ph } = this.scale;
    const x = X(p.batch_size);
    this.cur.removeAttribute('visibility');
    this.curLine.setAttribute('x1', x); this.curLine.setAttribute('x2', x);
    this.curLine.setAttribute('y1', m.t); this.curLine.setAttribute('y2', m.t + ph);
    this.curAgg.setAttribute('cx', x); this.curAgg.setAttribute('cy', YA(p.tokens_per_s));
    this.curPer.setAttribute('cx', x); this.curPer.setAttribute('cy', YP(p.tokens_per_s_per_sequence));
    if (this.readout && announce) this.readout.textContent = pointText(p);
  }

  #key(e) {
    const s = this.report?.sweep ?? [];
    if (!s.length) return;
    let i = this.cursor < 0 ? this.#defaultCursor() : this.cursor;
    const big = Math.max(1, Math.round(s.length / 16));
    switch (e.key) {
      case 'ArrowRight': case 'ArrowUp': i += 1; break;
      case 'ArrowLeft': case 'ArrowDown': i -= 1; break;
      case 'PageUp': i += big; break;
      case 'PageDown': i -= big; break;
      case 'Home': i = 0; break;
      case 'End': i = s.length - 1; break;
      default: return;
    }
    e.preventDefault();
    this.#setCursor(Math.min(Math.max(i, 0), s.length - 1));
  }

  #pointer(e) {
    const s = this.report?.sweep ?? [];
    if (!s.length || !this.scale) return;
    const rect = this.svg.getBoundingClientRect();
    const x = ((e.clientX - rect.left) / rect.width) * this.scale.W;
    const { m, pw } = this.scale;
    const lx = Math.log2(s[s.length - 1].batch_size || 2);
    const b = 2 ** (((x - m.l) / pw) * lx);
    this.#setCursor(nearest(s, b));
  }

  disconnect() { this.ro?.disconnect(); }
}

/** Index of the sweep point whose batch is nearest b on a log scale. */
export function nearest(sweep, b) {
  let best = 0;
  let d = Infinity;
  const lb = Math.log2(Math.max(b, 1));
  sweep.forEach((p, i) => {
    const di = Math.abs(Math.log2(p.batch_size) - lb);
    if (di < d) { d = di; best = i; }
  });
  return best;
}

/** One sweep point as a sentence. */
export function pointText(p) {
  return `Batch ${fmt.int(p.batch_size)} at context ${fmt.int(p.context_tokens)} tokens: ` +
    `${fmt.tokS(p.tokens_per_s)} aggregate, ${fmt.tokS(p.tokens_per_s_per_sequence)} per user, ` +
    `TPOT ${fmt.ms(p.step_time_ms)}, KV cache ${fmt.pct(p.kv_cache_usage)}${p.kv_cache_usage > 1 ? ' (over capacity)' : ''}, ${p.bound}-bound` +
    (p.tokens_per_s_without_speculation ? `; ${fmt.tokS(p.tokens_per_s_without_speculation)} without speculation.` : '.');
}

/** The chart's text alternative. */
export function describe(r) {
  const s = r?.sweep ?? [];
  if (!s.length) return 'No sweep: the model does not fit.';
  const a = s[0];
  const z = s[s.length - 1];
  let t = `From batch ${fmt.int(a.batch_size)} to ${fmt.int(z.batch_size)} at context ${fmt.int(a.context_tokens)} tokens, ` +
    `aggregate throughput rises from ${fmt.tokS(a.tokens_per_s)} to ${fmt.tokS(z.tokens_per_s)} ` +
    `while per-user speed falls from ${fmt.tokS(a.tokens_per_s_per_sequence)} to ${fmt.tokS(z.tokens_per_s_per_sequence)}.`;
  if (r.batch_ceiling?.batch_size) t += ` Batch ceiling ${fmt.int(r.batch_ceiling.batch_size)} (${fmt.limitedBy(r.batch_ceiling.limited_by)}).`;
  if (r.preemption) t += ` KV ceiling ${fmt.int(r.preemption.onset_concurrency_lockstep)}, preemption onset ${fmt.int(r.preemption.onset_concurrency)} sequences.`;
  const spec = r.features?.speculative;
  if (spec) t += spec.crossover_batch_size ? ` Speculative decoding raises throughput below batch ${fmt.int(spec.crossover_batch_size)} and lowers it from there.` : ' Speculative decoding raises throughput at every batch shown.';
  return t;
}
