// The calculator page's default view, written into www/index.html at build
// time (scripts/prerender.mjs), so that a first visit paints its figures
// with the HTML, before any script has run: the form shows the default
// configuration (www/state.js DEFAULTS) and the results show the report
// the engine computed for it. app.js recomputes the same report once the
// engine has started, so nothing changes on screen then.
//
// The edits are idempotent (rewriting a page already written gives the
// same page) and use the texts the page itself shows (www/figures.js), so
// a figure in the HTML is the one app.js would write.
import { FIGURES, figure, conditions, modelSummary, memoryBar } from '../www/figures.js';
import { escapeHTML } from '../www/dom.js';

/** The page with config in its form and report in its results. */
export function writeStaticPage(html, config, report) {
  const start = html.indexOf('<form id="inputs"');
  const end = html.indexOf('</form>', start);
  if (start < 0 || end < 0) throw new Error('index.html: no <form id="inputs">');
  html = html.slice(0, start) + writeForm(html.slice(start, end), config) + html.slice(end);
  return writeResults(html, report);
}

/** Set tag's attribute in place (value true: bare; null: removed); tag is one start tag. */
function setAttr(tag, name, value) {
  const re = new RegExp(`\\s${name}(="[^"]*")?(?=[\\s>/])`);
  const attr = value == null ? '' : value === true ? ` ${name}` : ` ${name}="${escapeHTML(value)}"`;
  if (re.test(tag)) return tag.replace(re, attr);
  return tag.replace(/\s*\/?>$/, (m) => `${attr}${m}`);
}

const attrOf = (tag, name) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];

/** The form's controls set to config, as www/form.js writeForm does. */
function writeForm(form, config) {
  const has = (name) => name != null && Object.hasOwn(config, name);
  form = form.replace(/<select\b[^>]*>[\s\S]*?<\/select>/g, (select) => {
    const name = attrOf(select, 'name');
    if (!has(name)) return select;
    return select.replace(/<option\b[^>]*>([^<]*)/g, (option, text) => {
      const tag = option.slice(0, option.indexOf('>') + 1);
      const value = attrOf(tag, 'value') ?? text;
      return setAttr(tag, 'selected', value === config[name] ? true : null) + text;
    });
  });
  const values = {};
  form = form.replace(/<input\b[^>]*>/g, (tag) => {
    const name = attrOf(tag, 'name');
    if (!has(name)) return tag;
    if (attrOf(tag, 'type') === 'radio') return setAttr(tag, 'checked', attrOf(tag, 'value') === config[name] ? true : null);
    values[attrOf(tag, 'id')] = { value: config[name], placeholder: attrOf(tag, 'placeholder') };
    return setAttr(tag, 'value', config[name] === '' ? null : config[name]);
  });
  // Paired sliders stand at their number input's value (form.js syncRange).
  form = form.replace(/<input\b[^>]*\bdata-pair="([^"]+)"[^>]*>/g, (tag, pair) => {
    const n = Number(values[pair]?.value || values[pair]?.placeholder);
    if (!Number.isFinite(n) || n <= 0) return setAttr(tag, 'value', null);
    return setAttr(tag, 'value', attrOf(tag, 'data-scale') === 'log2' ? String(Math.log2(n)) : String(n));
  });
  // Sections shown for some values only (form.js applyConditions).
  return form.replace(/<[a-z]+\b[^>]*\bdata-when="([^"=]+)=([^"]*)"[^>]*>/g, (tag, k, v) => setAttr(tag, 'hidden', config[k] !== v ? true : null));
}

/** Replace the text of the element whose start tag matches startRe (a text-only element). */
function setTextWhere(html, startRe, text) {
  const re = new RegExp(`(<([a-z0-9]+)\\b[^>]*${startRe}[^>]*>)[^<]*(</\\2>)`, 'g');
  let found = false;
  const out = html.replace(re, (m, start, tag, close) => {
    found = true;
    return start + escapeHTML(text(start)) + close;
  });
  if (!found) throw new Error(`index.html: no element matching ${startRe}`);
  return out;
}

/** The results: figures, cards, conditions, memory bar, warnings, status. */
function writeResults(html, r) {
  html = setTextWhere(html, '\\bdata-v="[^"]+"', (start) => {
    const key = attrOf(start, 'data-v');
    if (!(key in FIGURES)) throw new Error(`index.html: data-v="${key}" is not a figure`);
    return figure(key, r);
  });
  html = html.replace(/<article\b[^>]*\bdata-k="([^"]+)"[^>]*>/g, (tag, k) => {
    const cls = attrOf(tag, 'class').split(/\s+/).filter((c) => c !== 'absent');
    if (!r[k]) cls.push('absent');
    return setAttr(tag, 'class', cls.join(' '));
  });
  html = setTextWhere(html, '\\bid="report-conditions"', () => conditions(r));
  html = setTextWhere(html, '\\bid="model-summary"', () => modelSummary(r));
  html = setTextWhere(html, '\\bid="engine-version"', () => `v${r.version}`);
  const bar = memoryBar(r);
  html = html.replace(/(<div\b[^>]*\bid="mem-bar"[^>]*>)[\s\S]*?(<\/div>)/, (m, start, close) => {
    let tag = setAttr(start, 'aria-label', bar.label);
    tag = setAttr(tag, 'class', bar.over ? 'mem-bar over' : 'mem-bar');
    return tag + bar.segments.map(([k, w]) => `<span class="seg ${k}" style="width: ${w};"></span>`).join('') + close;
  });
  const warnings = r.warnings ?? [];
  html = html.replace(/<section\b[^>]*\bid="warnings-panel"[^>]*>/, (tag) => setAttr(tag, 'hidden', warnings.length ? null : true));
  html = html.replace(/(<ul\b[^>]*\bid="warnings"[^>]*>)[\s\S]*?(<\/ul>)/, (m, start, close) =>
    start + warnings.map((w) => `<li data-code="${escapeHTML(w.code)}">${escapeHTML(w.message)}</li>`).join('') + close);
  html = html.replace(/<div\b[^>]*\bid="report"[^>]*>/, (tag) => setAttr(tag, 'aria-busy', 'false'));
  return html.replace(/<div\b[^>]*\bid="status"[^>]*>/, (tag) => setAttr(tag, 'hidden', true));
}
