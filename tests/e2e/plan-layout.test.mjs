// The planning view's layout in headless Chromium at a desktop width
// (1280 px) and a phone's (390 px), light and dark, checked against
// bounding-box rules rather than pixels: nothing overflows the page
// sideways; every label sits above or beside its own input (and no other
// input is nearer to it); the frontier chart has tick values on both axes,
// inside the chart, and its text contrasts with the panel in either scheme;
// on a phone the answer comes before the form and each ranked row's cells
// stay within their card. Each state is saved as a PNG under
// build/screenshots/; with DOCS_SCREENSHOTS=1 also under docs/screenshots/
// (the README shows those).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as H from './helpers.mjs';

let base;
before(async () => { base = await H.baseURL(); });
after(() => {});

// The whole catalog for Llama 3.1 8B at 20 req/s of 2048 + 500 tokens
// under TTFT 1 s and TPOT 50 ms: the view's defaults.
const URL_PATH = '?view=plan&plan.model=llama-3.1-8b';

/** WCAG relative luminance of a CSS rgb() colour. */
function luminance(css) {
  const [r, g, bl] = css.match(/[\d.]+/g).slice(0, 3).map(Number).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
}
const contrast = (a, c) => { const [x, y] = [luminance(a), luminance(c)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };

for (const [device, width, height] of [['desktop', 1280, 900], ['phone', 390, 844]]) {
  for (const scheme of ['light', 'dark']) {
    test(`the plan view at ${width} px, ${scheme}: no overflow, labels by their inputs, chart ticks`, async () => {
      const b = await H.launch({ viewport: { width, height }, colorScheme: scheme, isMobile: device === 'phone', hasTouch: device === 'phone' });
      try {
        const { page, errors } = b;
        await page.goto(new URL(URL_PATH, base).href);
        await page.waitForFunction(() => document.getElementById('plan-results').dataset.run, null, { timeout: 90000 });
        // The answer as it first shows (the screenshot); then two
        // accelerators selected, so that their price fields show too.
        const first = await page.evaluate(() => [document.scrollingElement.scrollWidth, innerWidth]);
        assert.ok(first[0] <= first[1], `page ${first[0]} px wide in a ${first[1]} px window`);
        const file = await H.screenshot(page, `plan-${device}-${scheme}.png`, { fullPage: true });
        if (process.env.DOCS_SCREENSHOTS === '1') {
          fs.mkdirSync(path.join(H.ROOT, 'docs', 'screenshots'), { recursive: true });
          fs.copyFileSync(file, path.join(H.ROOT, 'docs', 'screenshots', path.basename(file)));
        }
        await page.waitForSelector('#plan-acc-groups input', { state: 'attached' });
        await page.evaluate(() => {
          for (const id of ['h100-sxm-80gb', 'mi300x']) document.querySelector(`#plan-acc-groups input[value="${id}"]`).checked = true;
          document.querySelector('#plan-acc-groups input').dispatchEvent(new Event('change', { bubbles: true }));
        });

        const overflow = await page.evaluate(() => [document.scrollingElement.scrollWidth, innerWidth]);
        assert.ok(overflow[0] <= overflow[1], `page ${overflow[0]} px wide in a ${overflow[1]} px window`);

        // Every visible label above or beside its own input, and no other
        // input nearer to it than its own.
        const fields = await page.$$eval('#plan-form label[for]', (labels) => labels.map((l) => {
          const input = document.getElementById(l.htmlFor);
          const box = (e) => { const r = e.getBoundingClientRect(); return { l: r.left, r: r.right, t: r.top, b: r.bottom, w: r.width, h: r.height }; };
          return { id: l.htmlFor, label: box(l), input: box(input), visible: l.offsetParent !== null && input.offsetParent !== null && input.type !== 'radio' };
        }));
        const shown = fields.filter((f) => f.visible);
        assert.ok(shown.length >= 11, `${shown.length} labelled inputs`);
        const gap = (l, i) => Math.hypot(Math.max(0, i.l - l.r, l.l - i.r), Math.max(0, i.t - l.b, l.t - i.b));
        for (const f of shown) {
          const { label: l, input: i } = f;
          const above = l.b <= i.t + 1 && l.l < i.r && i.l < l.r;
          const beside = l.r <= i.l + 1 && l.t < i.b && i.t < l.b;
          assert.ok(above || beside, `${f.id}: label at ${JSON.stringify(l)}, input at ${JSON.stringify(i)}`);
          assert.ok(l.r <= width && i.r <= width, `${f.id} inside the window`);
          const own = gap(l, i);
          for (const o of shown) if (o !== f) assert.ok(gap(l, o.input) > own, `${f.id}'s label is nearer to ${o.id} than to its input`);
        }

        // The accelerator picker, open: a box and a name per line, inside
        // the picker, no wider than the window.
        await page.click('#plan-acc > summary');
        const picker = await page.evaluate(() => {
          const g = document.getElementById('plan-acc-groups').getBoundingClientRect();
          return [...document.querySelectorAll('#plan-acc-groups label')].slice(0, 12).map((l) => {
            const box = l.querySelector('input').getBoundingClientRect();
            const r = l.getBoundingClientRect();
            return { box: box.width, h: r.height, inside: r.left >= g.left - 1 && r.right <= g.right + 1 };
          });
        });
        assert.ok(picker.length > 0 && picker.every((x) => x.box < 30 && x.inside && x.h < 40), JSON.stringify(picker));
        const wide = await page.evaluate(() => [document.scrollingElement.scrollWidth, innerWidth]);
        assert.ok(wide[0] <= wide[1], `with the picker open, page ${wide[0]} px wide in a ${wide[1]} px window`);
        await page.click('#plan-acc > summary');

        // The chart: tick values on both axes, inside the chart, and text
        // that contrasts with its panel.
        const chart = await page.evaluate(() => {
          const svg = document.getElementById('plan-frontier');
          const s = svg.getBoundingClientRect();
          const ticks = (cls) => [...svg.querySelectorAll(`text.tick.${cls}`)].map((t) => { const r = t.getBoundingClientRect(); return { text: t.textContent, in: r.left >= s.left - 1 && r.right <= s.right + 1 && r.top >= s.top - 1 && r.bottom <= s.bottom + 1 }; });
          const panel = getComputedStyle(svg.closest('.panel')).backgroundColor;
          return {
            x: ticks('x'), y: ticks('y'), panel, tick: getComputedStyle(svg.querySelector('text.tick')).fill,
            label: getComputedStyle(svg.querySelector('text.axis-label')).fill, points: svg.querySelectorAll('circle').length,
            picks: svg.querySelectorAll('circle.pick').length, titles: svg.querySelectorAll('circle > title').length,
          };
        });
        assert.ok(chart.x.length >= 3 && chart.y.length >= 3, `${chart.x.length} x ticks, ${chart.y.length} y ticks`);
        assert.equal(chart.x[0].text, '0');
        assert.ok([...chart.x, ...chart.y].every((t) => t.text && t.in), JSON.stringify(chart));
        assert.ok(chart.picks >= 1 && chart.titles === chart.points, 'picks drawn, a tooltip per point');
        assert.ok(contrast(chart.tick, chart.panel) >= 4.5, `tick ${chart.tick} on ${chart.panel}`);
        assert.ok(contrast(chart.label, chart.panel) >= 4.5, `axis label ${chart.label} on ${chart.panel}`);

        // The launch command scrolls in its box, never the page.
        const launch = await page.evaluate(() => { const p = document.getElementById('plan-launch'); const r = p.getBoundingClientRect(); return { right: r.right, scroll: p.scrollWidth > p.clientWidth, overflowX: getComputedStyle(p).overflowX }; });
        assert.ok(launch.right <= width && launch.overflowX === 'auto', JSON.stringify(launch));

        if (device === 'phone') {
          const order = await page.evaluate(() => [document.getElementById('plan-verdict').getBoundingClientRect().top, document.getElementById('plan-form').getBoundingClientRect().top]);
          assert.ok(order[0] < order[1], 'the answer before the form on a phone');
          const cells = await page.$$eval('#plan-table tbody td', (tds) => tds.map((td) => { const r = td.getBoundingClientRect(); const tr = td.parentElement.getBoundingClientRect(); return { right: r.right, row: tr.right, fits: td.scrollWidth <= td.clientWidth + 1, label: getComputedStyle(td, '::before').content }; }));
          for (const c of cells) {
            assert.ok(c.right <= c.row + 1 && c.row <= width && c.fits, JSON.stringify(c));
            assert.notEqual(c.label, 'none', 'each cell names its column');
          }
        } else {
          const wrap = await page.evaluate(() => { const w = document.querySelector('#plan-table').closest('.table-wrap'); return [w.scrollWidth, w.clientWidth]; });
          assert.ok(wrap[0] <= wrap[1], `the ranked table fits a desktop window: ${wrap}`);
        }

        assert.deepEqual(errors, []);
      } finally {
        await b.close();
      }
    });
  }
}
