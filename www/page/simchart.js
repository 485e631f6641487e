// A small linear-axis line chart for the simulation (timeline, load
// sweep). It draws with chart.js's styles (CHART_CSS: .tc-chart, .line.agg
// and .per, .marker.kv and .onset, .shade) and its axis helpers, so it
// looks like the throughput chart: series on a left and a right axis,
// vertical markers and one shaded region.
import { niceScale, short } from '../ui/chart.js';
import { setAttr, setAttrs, setText } from '../ui/dom.js';

const NS = 'http://www.w3.org/2000/svg';
let uid = 0;

function el(name, attrs = {}, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}

const r1 = (x) => Math.round(x * 10) / 10;

export class LineChart {
  /**
   * @param {HTMLElement} host  element the SVG is appended to
   * @param {object} opts
   * @param {string} opts.title  the chart's accessible name
   * @param {number} [opts.height]
   */
  constructor(host, { title, height = 240 } = {}) {
    this.host = host;
    this.height = height;
    this.data = null;
    this.width = 0;
    const id = `sc${++uid}`;
    const svg = (this.svg = el('svg', { class: 'tc-chart', role: 'img', 'aria-labelledby': `${id}-t ${id}-d`, 'aria-roledescription': 'chart' }));
    el('title', { id: `${id}-t` }, svg).textContent = title;
    this.desc = el('desc', { id: `${id}-d` }, svg);
    this.g = el('g', {}, svg);
    host.append(svg);
    if (typeof ResizeObserver !== 'undefined') {
      this.ro = new ResizeObserver(() => {
        const w = Math.round(this.host.clientWidth);
        if (w > 0 && w !== this.width) { this.width = w; if (this.data) this.draw(); }
      });
      this.ro.observe(host);
    }
  }

  /**
   * Draw data: {xLabel, left: {label, className, max?}, right?: {label,
   * className, max?, format?}, series: [{points: [[x, y]], axis: 'left' |
   * 'right', className, title}], markers: [{x, label, className}], shade:
   * {x0, x1, label}?, desc}.
   */
  update(data) {
    this.data = data;
    if (!this.width) this.width = Math.round(this.host.clientWidth) || 600;
    this.draw();
  }

  draw() {
    const d = this.data;
    const W = this.width;
    const H = this.height;
    const narrow = W < 420;
    const m = { l: narrow ? 40 : 52, r: d.right ? (narrow ? 40 : 52) : 16, t: 18, b: 34 };
    setAttrs(this.svg, { viewBox: `0 0 ${W} ${H}`, width: W, height: H });
    const pw = Math.max(W - m.l - m.r, 10);
    const ph = H - m.t - m.b;
    const pts = d.series.flatMap((s) => s.points);
    const xs = pts.map((p) => p[0]);
    const xMin = Math.min(0, ...xs);
    const xS = niceScale(Math.max(...xs, ...(d.markers ?? []).map((k) => k.x).filter((x) => x > 0 && x < Math.max(...xs) * 1.5), 1e-9) - xMin);
    const side = (axis) => {
      const ys = d.series.filter((s) => (s.axis ?? 'left') === axis).flatMap((s) => s.points.map((p) => p[1]));
      return niceScale(d[axis]?.max ?? Math.max(...ys, 0));
    };
    const L = side('left');
    const R = d.right ? side('right') : null;
    const ticks = Math.max(L.ticks, R?.ticks ?? 0);
    const lMax = L.step * ticks;
    const rMax = R ? R.step * ticks : 1;
    const X = (x) => m.l + ((x - xMin) / (xS.top || 1)) * pw;
    const Y = (axis, v) => m.t + ph - (v / (axis === 'right' ? rMax : lMax)) * ph;

    const g = this.g;
    g.replaceChildren();
    const grid = el('g', { class: 'grid' }, g);
    const axes = el('g', { class: 'axes' }, g);
    const text = (attrs, t) => { el('text', attrs, axes).textContent = t; };
    for (let i = 0; i <= ticks; i++) {
      const y = r1(m.t + ph - (i / ticks) * ph);
      el('line', { x1: m.l, x2: m.l + pw, y1: y, y2: y }, grid);
      text({ x: m.l - 6, y: y + 4, class: `tick ${d.left.className ?? ''}`, 'text-anchor': 'end' }, short((lMax * i) / ticks));
      if (R) text({ x: m.l + pw + 6, y: y + 4, class: `tick ${d.right.className ?? ''}`, 'text-anchor': 'start' }, (d.right.format ?? short)((rMax * i) / ticks));
    }
    for (let i = 0; i <= xS.ticks; i++) {
      const v = xMin + xS.step * i;
      const x = r1(X(v));
      el('line', { x1: x, x2: x, y1: m.t + ph, y2: m.t + ph + 4, class: 'xtick' }, axes);
      text({ x, y: m.t + ph + 16, class: 'tick', 'text-anchor': 'middle' }, short(v));
    }
    el('line', { x1: m.l, x2: m.l + pw, y1: m.t + ph, y2: m.t + ph, class: 'axis' }, axes);
    text({ x: m.l + pw / 2, y: H - 4, class: 'label', 'text-anchor': 'middle' }, d.xLabel);
    text({ x: m.l - 6, y: m.t - 6, class: `label ${d.left.className ?? ''}`, 'text-anchor': 'start' }, d.left.label);
    if (R) text({ x: m.l + pw + 6, y: m.t - 6, class: `label ${d.right.className ?? ''}`, 'text-anchor': 'end' }, d.right.label);

    if (d.shade && d.shade.x1 > d.shade.x0) {
      const x0 = Math.max(X(d.shade.x0), m.l);
      const x1 = Math.min(X(d.shade.x1), m.l + pw);
      if (x1 > x0) {
        el('rect', { class: 'shade', x: r1(x0), y: m.t, width: r1(x1 - x0), height: ph }, g);
        if (d.shade.label && x1 - x0 > 60) el('text', { class: 'shade-label', x: r1(x1 - 4), y: m.t + ph - 6, 'text-anchor': 'end' }, g).textContent = d.shade.label;
      }
    }
    for (const s of d.series) {
      const axis = s.axis ?? 'left';
      const p = el('path', {
        class: `line ${s.className ?? ''}`,
        d: s.points.map(([x, y], i) => `${i ? 'L' : 'M'}${X(x).toFixed(1)},${Y(axis, y).toFixed(1)}`).join(''),
      }, g);
      if (s.title) el('title', {}, p).textContent = s.title;
    }
    (d.markers ?? []).forEach((k, i) => {
      if (!(k.x > 0)) return;
      const mg = el('g', { class: `marker ${k.className ?? ''}` }, g);
      const off = X(k.x) > m.l + pw;
      const x = r1(Math.min(X(k.x), m.l + pw));
      if (!off) el('line', { x1: x, x2: x, y1: m.t, y2: m.t + ph }, mg);
      const right = x > m.l + pw * 0.6;
      el('text', { x: r1(right ? x - 4 : x + 4), y: m.t + 12 + 14 * i, 'text-anchor': right ? 'end' : 'start' }, mg).textContent = off ? `${k.label} →` : k.label;
    });
    setText(this.desc, d.desc ?? '');
    setAttr(this.svg, 'data-points', String(pts.length));
  }

  disconnect() { this.ro?.disconnect(); }
}
