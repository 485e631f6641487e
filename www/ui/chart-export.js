// A chart as a file: a standalone SVG (its styles and the colours of the
// current theme written in, so it looks the same opened alone) and a PNG
// drawn from that SVG on a canvas. Shared by the page's download buttons.
import { CHART_CSS } from './chart.js';

/** The custom properties the chart styles read (CHART_CSS). */
const VARS = ['--line', '--muted', '--agg', '--per', '--kv', '--onset', '--shade', '--panel', '--fg', '--accent', '--o1', '--o2', '--o3'];

/**
 * The SVG element svg as a standalone document: the chart's CSS, the values
 * of its colour properties as computed at svg (the page's light or dark
 * theme), a background, no cursor.
 */
export function svgText(svg) {
  const cs = getComputedStyle(svg);
  const vars = VARS.map((v) => [v, cs.getPropertyValue(v).trim()]).filter(([, x]) => x).map(([v, x]) => `${v}: ${x};`).join(' ');
  const copy = svg.cloneNode(true);
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.removeAttribute('tabindex');
  copy.querySelector('.cursor')?.remove();
  const style = document.createElementNS('http://www.w3.org/2000/svg', 'style');
  style.textContent = `.tc-chart { ${vars} font-family: system-ui, sans-serif; }\n${CHART_CSS}`;
  const bg = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  for (const [k, v] of Object.entries({ x: 0, y: 0, width: '100%', height: '100%', fill: cs.getPropertyValue('--panel').trim() || '#fff' })) bg.setAttribute(k, v);
  copy.prepend(style, bg);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
}

/** A PNG of the SVG text at scale times its size: resolves a Blob. */
export function pngBlob(text, width, height, scale = 2) {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
    const img = new Image();
    img.onload = () => {
      const c = document.createElement('canvas');
      c.width = Math.round(width * scale);
      c.height = Math.round(height * scale);
      const g = c.getContext('2d');
      g.scale(scale, scale);
      g.drawImage(img, 0, 0, width, height);
      URL.revokeObjectURL(url);
      c.toBlob((b) => (b ? resolve(b) : reject(new Error('the canvas gave no PNG'))), 'image/png');
    };
    img.onerror = () => { URL.revokeObjectURL(url); reject(new Error('the SVG did not load as an image')); };
    img.src = url;
  });
}
