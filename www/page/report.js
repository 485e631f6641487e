// The report on the page: every text and state that depends on the report
// alone (the headline conditions, each [data-v] figure, the cards present,
// the memory bar, the warnings, the model line, the engine version). No
// engine and no layout: app.js calls it on every update, and
// scripts/prerender.mjs calls it at build time on the page's template (in
// a DOM implementation), so the HTML's default view is written by this
// very code and shows what app.js would show.
import { FIGURES, figure, conditions, modelSummary, memoryBar } from './figures.js';
import { setText, setAttr, setHidden } from '../ui/dom.js';
import { verdict, TERMS } from '../ui/verdict.js';
import { featureFacts } from '../ui/features.js';
import * as fmt from '../ui/format.js';

/**
 * A renderer for the report parts of doc (the page's document): returns
 * render(report). It finds its elements once, and writes only what
 * changed (ui/dom.js), so an update invalidates only the figures it moves.
 */
export function reportView(doc) {
  const $ = (id) => doc.getElementById(id);
  const values = [...doc.querySelectorAll('[data-v]')];
  const cards = [...doc.querySelectorAll('.card[data-k], .needs-fit[data-k]')];
  const el = {
    conditions: $('report-conditions'), bar: $('mem-bar'), warnings: $('warnings'), warningsPanel: $('warnings-panel'),
    modelSummary: $('model-summary'), version: $('engine-version'), report: $('report'),
    verdict: $('verdict'), short: $('mem-short'),
    features: $('features'), featuresPanel: $('features-panel'), noSpec: $('chart-nospec'),
    servingPanel: $('serving-panel'),
  };
  // Every term is defined on hover, from the one glossary (ui/verdict.js TERMS; docs/glossary.md).
  for (const t of doc.querySelectorAll('[data-term]')) if (TERMS[t.dataset.term]) setAttr(t, 'title', TERMS[t.dataset.term]);
  const vParts = el.verdict ? Object.fromEntries([...el.verdict.querySelectorAll('[data-verdict]')].map((e) => [e.dataset.verdict, e])) : {};
  let shownWarnings = null;
  let shownFeatures = '';

  /**
   * The features panel (ui/features.js): one list of facts per feature
   * that is on, rebuilt only when its text changes; hidden when none is.
   */
  function renderFeatures(r) {
    const list = featureFacts(r);
    if (el.noSpec) setHidden(el.noSpec, !r.features?.speculative);
    if (!el.features) return;
    const key = JSON.stringify(list);
    if (key === shownFeatures) return;
    shownFeatures = key;
    setHidden(el.featuresPanel, list.length === 0);
    el.features.replaceChildren(...list.map((f) => {
      const sec = doc.createElement('section');
      sec.dataset.feature = f.key;
      const h = doc.createElement('h4');
      h.textContent = f.name;
      const dl = doc.createElement('dl');
      dl.className = 'facts';
      for (const [k, v] of f.facts) {
        const row = doc.createElement('div');
        const dt = doc.createElement('dt');
        const dd = doc.createElement('dd');
        dt.textContent = k;
        dd.textContent = v;
        row.append(dt, dd);
        dl.append(row);
      }
      sec.append(h, dl);
      return sec;
    }));
  }
  let shownVerdict = '';

  /** ul's items are items' texts: existing items are rewritten in place, the rest added or removed. */
  function list(ul, items) {
    while (ul.children.length > items.length) ul.lastChild.remove();
    items.forEach((t, i) => {
      const li = ul.children[i] ?? ul.appendChild(doc.createElement('li'));
      setText(li, t);
    });
  }

  /** The verdict line (www/ui/verdict.js) and the report's state for the CSS. */
  function renderVerdict(r) {
    const v = verdict(r);
    setAttr(el.report, 'data-state', v.state);
    if (!el.verdict) return;
    const key = JSON.stringify(v);
    if (key === shownVerdict) return;
    shownVerdict = key;
    setAttr(el.verdict, 'data-state', v.state);
    setText(vParts.badge, v.badge);
    setText(vParts.headline, v.headline);
    list(vParts.lines, v.features?.length ? [...v.lines, ...v.features] : v.lines);
    renderFixes(v);
  }

  /**
   * The nearest fixes as actions: one button per engine fix (app.js
   * applies data-fix-field = data-fix-value to the form), and, when a
   * request rate overloads it, a link to the planner with that rate
   * (app.js writes its href from the form's state); the fallback
   * sentences as text where the engine gave no fix.
   */
  function renderFixes(v) {
    const ul = vParts.fixes;
    if (!ul) return;
    const items = (v.actions ?? []).map((f) => {
      const b = doc.createElement('button');
      b.type = 'button';
      b.className = 'fix';
      b.dataset.fixField = f.field;
      b.dataset.fixValue = f.value;
      b.textContent = f.field === 'workload.request_rate' ? `Set the rate to one replica's share, ${fmt.reqS(Number(f.value))}` : f.summary;
      b.title = `Apply: ${f.field} = ${f.value}`;
      return b;
    });
    if (v.replicas) {
      const a = doc.createElement('a');
      a.className = 'plan-link';
      a.href = '?view=plan';
      a.dataset.planRate = String(v.replicas.rate);
      a.textContent = `Plan ${fmt.int(v.replicas.n)} replicas for ${fmt.reqS(v.replicas.rate)} in the planner`;
      items.unshift(a);
    }
    if (!items.length) return list(ul, v.fixes);
    ul.replaceChildren(...items.map((x) => {
      const li = doc.createElement('li');
      li.append(x);
      return li;
    }));
  }

  function renderMemory(r) {
    const { segments, label, over, short } = memoryBar(r);
    const bar = el.bar;
    if (!bar.children.length) {
      for (const [k] of segments) {
        const s = doc.createElement('span');
        s.className = `seg ${k}`;
        bar.append(s);
      }
    }
    segments.forEach(([, w], i) => {
      if (bar.children[i].style.width !== w) bar.children[i].style.width = w;
    });
    setAttr(bar, 'aria-label', label);
    bar.classList.toggle('over', over);
    let mark = bar.querySelector('.short');
    if (short && !mark) {
      mark = doc.createElement('span');
      mark.className = 'short';
      mark.title = 'Past the memory available';
      bar.append(mark);
    }
    if (mark) {
      setHidden(mark, !short);
      if (short) { mark.style.left = short.left; mark.style.width = short.width; }
    }
    if (el.short) {
      setText(el.short, short?.text ?? '');
      setHidden(el.short, !short);
    }
  }

  function renderWarnings(ws) {
    const key = JSON.stringify(ws);
    if (key === shownWarnings) return;
    shownWarnings = key;
    el.warnings.replaceChildren(...ws.map((w) => {
      const li = doc.createElement('li');
      li.dataset.code = w.code;
      li.textContent = w.message;
      return li;
    }));
    setHidden(el.warningsPanel, ws.length === 0);
  }

  return function render(r) {
    setText(el.conditions, conditions(r));
    for (const v of values) {
      const k = v.dataset.v;
      if (k in FIGURES) setText(v, figure(k, r));
    }
    for (const card of cards) card.classList.toggle('absent', !r[card.dataset.k] || (Array.isArray(r[card.dataset.k]) && !r[card.dataset.k].length));
    renderVerdict(r);
    renderMemory(r);
    renderWarnings(r.warnings ?? []);
    renderFeatures(r);
    // The steady state is shown when the workload gives a concurrency or a request rate.
    if (el.servingPanel) setHidden(el.servingPanel, !r.serving);
    setText(el.modelSummary, modelSummary(r));
    setText(el.version, `v${r.version}`);
    // The figure groups a calibration moves (report.calibration.labels), for the cards' "calibrated" tags.
    const labels = r.calibration?.labels ?? {};
    setAttr(el.report, 'data-calibrated', Object.keys(labels).filter((k) => labels[k] === 'calibrated').join(' ') || null);
    setAttr(el.report, 'aria-busy', 'false');
  };
}
