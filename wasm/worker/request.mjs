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
