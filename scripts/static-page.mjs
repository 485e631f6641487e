// The calculator page's default view as HTML, written at build time
// (scripts/prerender.mjs) so that a first visit paints its figures with the
// HTML, before any script has run.
//
// There is no second copy of the page's logic here: the template
// (www/page/index.html) is parsed into a DOM (happy-dom, a dev dependency)
// and filled by the page's own run-time code, www/page/form.js writeForm
// for the form and www/page/report.js for the figures, exactly as app.js
// fills it in the browser. What remains is serialization: a DOM keeps what
// a control shows (its value, checked, selected) apart from its markup, so
// that state is written into the attributes an HTML parser reads back.
import { Window } from 'happy-dom';
import { writeForm, writeDefaults, controls } from '../www/page/form.js';
import { reportView } from '../www/page/report.js';
import { FIGURES } from '../www/page/figures.js';

/**
 * The page html (the template) with config in its form, the engine's
 * defaults (contract: calc.contract()) as its empty controls' placeholders
 * and report in its results.
 */
export async function writeStaticPage(html, config, report, contract) {
  const window = new Window({
    url: 'https://throughput.invalid/',
    settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true, disableIframePageLoading: true },
  });
  const saved = Object.getOwnPropertyDescriptor(globalThis, 'Option');
  try {
    const doc = new window.DOMParser().parseFromString(html, 'text/html');
    const form = doc.getElementById('inputs');
    if (!form) throw new Error('index.html: no <form id="inputs">');
    for (const el of doc.querySelectorAll('[data-v]')) {
      if (!(el.dataset.v in FIGURES)) throw new Error(`index.html: data-v="${el.dataset.v}" is not a figure`);
    }
    // form.js adds an <option> with the browser's Option constructor for a
    // value a select does not list.
    globalThis.Option = function Option(text = '', value) {
      const o = doc.createElement('option');
      o.textContent = text;
      if (value !== undefined) o.value = value;
      return o;
    };
    writeForm(form, config);
    writeDefaults(form, contract, config, report);
    reportView(doc)(report);
    doc.getElementById('status').hidden = true; // app.js: a result is shown, no status
    for (const c of controls(form)) serializeState(c);
    for (const r of form.querySelectorAll('input[type=range]')) serializeState(r);
    return `<!doctype html>\n${doc.documentElement.outerHTML}\n`;
  } finally {
    if (saved) Object.defineProperty(globalThis, 'Option', saved);
    else delete globalThis.Option;
    await window.happyDOM.close();
  }
}

/** Write a control's current state into its markup (value, checked, selected). */
function serializeState(c) {
  if (c.tagName === 'SELECT') {
    for (const o of c.options) o.toggleAttribute('selected', o.selected);
  } else if (c.tagName === 'TEXTAREA') {
    c.textContent = c.value;
  } else if (c.type === 'radio' || c.type === 'checkbox') {
    c.toggleAttribute('checked', c.checked);
  } else if (c.value === '') {
    c.removeAttribute('value');
  } else {
    c.setAttribute('value', c.value);
  }
}
