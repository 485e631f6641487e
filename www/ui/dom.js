// DOM writes that skip unchanged values, so an update that changes a few
// figures invalidates only those (style and layout are most of a redraw).

/** Set el's text when it differs. */
export function setText(el, text) {
  if (el && el.textContent !== text) el.textContent = text;
}

/** Set an attribute when it differs (null removes it). */
export function setAttr(el, name, value) {
  if (value == null) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
    return;
  }
  const v = String(value);
  if (el.getAttribute(name) !== v) el.setAttribute(name, v);
}

/** Set several attributes at once ({name: value}). */
export function setAttrs(el, attrs) {
  for (const k in attrs) setAttr(el, k, attrs[k]);
}

/** Show or hide el when that changes. */
export function setHidden(el, hidden) {
  if (el.hidden !== hidden) el.hidden = hidden;
}

/** Text escaped for HTML: element content or a double-quoted attribute. */
export function escapeHTML(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}
