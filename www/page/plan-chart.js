// The planning view's frontier chart: tokens/s per user across, tokens/s
// per GPU up, on nice linear axes from 0 with tick values and gridlines;
// the frontier's points joined by rising tokens/s per user, the picks
// (cheapest, fewest GPUs, lowest latency) drawn larger in the second
// colour and named, and a tooltip for each point on hover or focus (and
// an SVG <title> for assistive technology). Colours come from the page's
// custom properties, so it reads in light and dark.
import { chartPoints, frontierAxes, pointText } from './plan-model.js';

const NS = 'http://www.w3.org/2000/svg';
const M = { l: 52, r: 16, t: 16, b: 44 };

/**
 * Draws report's frontier into svg; tip is the tooltip element. The
 * drawing is as wide as the chart's box (320 to 760 units), so that its
 * text keeps the page's size on a phone; plan.js redraws it when the box
 * changes width.
 */
export function drawFrontier(svg, tip, report, pickNames) {
  svg.replaceChildren();
  tip.hidden = true;
  const pts = chartPoints(report);
  if (!pts.length) return;
  const W = Math.round(Math.min(760, Math.max(320, svg.parentElement.clientWidth || 560)));
  const H = W < 480 ? 260 : 300;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  const el = (tag, attrs, parent = svg) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    parent.append(e);
    return e;
  };
  const { x, y } = frontierAxes(pts);
  const X = (v) => M.l + (v / x.top) * (W - M.l - M.r);
  const Y = (v) => H - M.b - (v / y.top) * (H - M.t - M.b);
  const grid = el('g', { class: 'grid' });
  const ticks = el('g', { class: 'ticks' });
  x.labels.forEach((label, i) => {
    const px = X(x.step * i);
    el('line', { x1: px, x2: px, y1: M.t, y2: H - M.b }, grid);
    el('text', { x: px, y: H - M.b + 15, 'text-anchor': 'middle', class: 'tick x' }, ticks).textContent = label;
  });
  y.labels.forEach((label, i) => {
    const py = Y(y.step * i);
    el('line', { x1: M.l, x2: W - M.r, y1: py, y2: py }, grid);
    el('text', { x: M.l - 6, y: py + 4, 'text-anchor': 'end', class: 'tick y' }, ticks).textContent = label;
  });
  el('line', { x1: M.l, y1: H - M.b, x2: W - M.r, y2: H - M.b, class: 'axis' });
  el('line', { x1: M.l, y1: M.t, x2: M.l, y2: H - M.b, class: 'axis' });
  el('text', { x: (M.l + W - M.r) / 2, y: H - 6, 'text-anchor': 'middle', class: 'axis-label' }).textContent = W < 480 ? 'output tokens/s per user →' : 'output tokens/s per user (faster for each user →)';
  el('text', { x: 12, y: (M.t + H - M.b) / 2, 'text-anchor': 'middle', class: 'axis-label', transform: `rotate(-90 12 ${(M.t + H - M.b) / 2})` }).textContent = 'output tokens/s per GPU';
  el('polyline', { class: 'front', points: pts.filter((p) => !p.extra).map((p) => `${X(p.tokens_per_s_per_user)},${Y(p.tokens_per_s_per_gpu)}`).join(' ') });
  const show = (p, c) => {
    tip.textContent = pointText(p) + (pickNames(p.index).length ? ` (${pickNames(p.index).join(', ')})` : '');
    tip.hidden = false;
    const box = svg.getBoundingClientRect();
    const sx = box.width / W, sy = box.height / H;
    const cx = Number(c.getAttribute('cx')) * sx, cy = Number(c.getAttribute('cy')) * sy;
    tip.style.left = `${Math.max(0, Math.min(cx + 10, box.width - tip.offsetWidth))}px`;
    tip.style.top = `${cy + 12 + tip.offsetHeight > box.height ? cy - tip.offsetHeight - 10 : cy + 12}px`;
  };
  const hide = () => { tip.hidden = true; };
  for (const p of pts) {
    const names = pickNames(p.index);
    const c = el('circle', { cx: X(p.tokens_per_s_per_user), cy: Y(p.tokens_per_s_per_gpu), r: names.length ? 6.5 : 4.5, class: names.length ? 'pt pick' : 'pt', tabindex: 0, 'data-index': p.index });
    el('title', {}, c).textContent = pointText(p);
    c.addEventListener('pointerenter', () => show(p, c));
    c.addEventListener('focus', () => show(p, c));
    c.addEventListener('pointerleave', hide);
    c.addEventListener('blur', hide);
    if (names.length) {
      const cx = X(p.tokens_per_s_per_user);
      const anchor = cx > W * 0.7 ? 'end' : 'start';
      el('text', { x: cx + (anchor === 'end' ? -9 : 9), y: Y(p.tokens_per_s_per_gpu) - 8, 'text-anchor': anchor, class: 'pick-label' }).textContent = names.join(', ');
    }
  }
}
