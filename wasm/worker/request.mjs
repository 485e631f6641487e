// How worker/entry.mjs hands requests to Go: its own module so that
// node --test worker/ can run it against the Go side without workerd.

// Request bodies up to this size (the API's limit) are read here, in one
// native call, and handed to Go as bytes; Go copies them at once instead
// of reading the stream through promises (wasm/worker/body.go).
export const BUFFER_MAX_BYTES = 64 * 1024;

// goRequest is what the adapter reads (url, method, headers, body): the
// request itself, or, when it declares a small body, the same fields with
// the body already read. A body without a length or over the limit stays
// a stream, for Go to read or refuse (413).
export async function goRequest(request) {
  if (request.body === null) return request;
  const n = Number(request.headers.get("Content-Length"));
  if (!(n > 0 && n <= BUFFER_MAX_BYTES)) return request;
  const body = new Uint8Array(await request.arrayBuffer());
  return { url: request.url, method: request.method, headers: request.headers, body };
}

// pathOf is the path of an absolute URL ("https://host/v1/x?q" -> "/v1/x"),
// without parsing all of it: the Go side parses API URLs anyway.
export function pathOf(url) {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  let end = url.length;
  for (const c of "?#") {
    const i = url.indexOf(c, start);
    if (i >= 0 && i < end) end = i;
  }
  return url.slice(start, end);
}

// Static assets' headers. Cloudflare's static assets apply the site's
// _headers file (build/site/_headers: the page's Content-Security-Policy,
// nosniff, Referrer-Policy, framing) themselves; a workerd disk service
// (./build.sh worker, the end-to-end tests) does not, so entry.mjs applies
// the same file with these, and never serves it. BASE_HEADERS go on every
// asset response, whatever the file holds.
export const BASE_HEADERS = Object.freeze({
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
});

// parseHeaders reads Cloudflare's _headers format: an unindented line is a
// path pattern ("*" matches anything, ":name" one segment), the indented
// "Name: value" lines below it its headers, "! Name" removes one, "#"
// starts a comment. It returns [{pattern: RegExp, set: [[name, value]], detach: [name]}].
export function parseHeaders(text) {
  const rules = [];
  for (const line of String(text).split(/\r?\n/)) {
    const t = line.trim();
    if (t === "" || t.startsWith("#")) continue;
    if (line[0] !== " " && line[0] !== "\t") {
      const re = t.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z]\w*/g, "[^/]+")).join(".*");
      rules.push({ pattern: new RegExp(`^${re}$`), set: [], detach: [] });
      continue;
    }
    const r = rules[rules.length - 1];
    if (!r) continue;
    if (t.startsWith("!")) { r.detach.push(t.slice(1).trim()); continue; }
    const i = t.indexOf(":");
    if (i > 0) r.set.push([t.slice(0, i).trim(), t.slice(i + 1).trim()]);
  }
  return rules;
}

// applyHeaders sets on headers (a Headers) what the rules matching path set:
// a header several rules set is joined with ", ", as Cloudflare does.
export function applyHeaders(rules, path, headers) {
  const set = new Map();
  const detach = [];
  for (const r of rules) {
    if (!r.pattern.test(path)) continue;
    for (const [k, v] of r.set) set.set(k.toLowerCase(), [...(set.get(k.toLowerCase()) ?? []), v]);
    detach.push(...r.detach);
  }
  for (const [k, v] of set) headers.set(k, v.join(", "));
  for (const k of detach) headers.delete(k);
}
