// Service worker: keeps the calculator page working offline after one visit,
// and touches nothing else on the origin.
//
// What it serves (everything else goes to the network untouched: the worker
// does not call respondWith, so a failure is the browser's own):
//   - the site's static files, the ones the build put in build/site/
//     (./build.sh build writes their names into FILES below): network first,
//     so a deploy is picked up at once, falling back to the cache;
//   - navigations to the page itself (the scope's root, "./" or
//     "./index.html", with any query): the page computes its view from the
//     query in the browser, so one cached app shell answers them all.
// Nor the Hugging Face Hub's config.json files (another origin: the
// engine's module keeps them in its own cache, "throughput.hub").
// Never the API: /v1/..., /openapi.json and /healthz are neither answered
// from the cache nor stored, whatever the network does (API below), and a
// navigation to any other path (a /v1/ URL opened in a tab, a typo) is not
// given the page's HTML.
//
// The build writes a hash of the site's files into VERSION, so a deployment
// that changes them installs a new worker whose cache replaces the old one.
const VERSION = 'dev';
const CACHE = `throughput-${VERSION}`;
// Fetched at install, so that the first visit is enough to work offline.
const PRECACHE = [
  './', 'app.bundle.js', 'sim-worker.js', 'throughput.wasm', 'catalog.json', 'prerender.json', 'manifest.webmanifest', 'icon.svg',
];
// Every file of the built site, relative to the scope (the build replaces
// this list; the source's is the bundled site's). The widget's files are
// cached when first used: the page does not need them.
const FILES = [
  'index.html', 'app.bundle.js', 'throughput.wasm', 'catalog.json', 'prerender.json', 'manifest.webmanifest', 'icon.svg',
  'widget.js', 'throughput-calculator.js', 'throughput.js', 'hardware-sources.js', 'wasm_exec.js',
];
// The API's paths, from the origin's root as the API serves them.
const API = /^\/(?:v1(?:\/|$)|openapi\.json$|healthz$)/;

const scope = () => new URL(self.registration.scope);
const SHELL = () => [new URL('./', scope()).pathname, new URL('./index.html', scope()).pathname];
const STATIC = () => new Set(FILES.map((f) => new URL(f, scope()).pathname));

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // One by one, so a file missing from a deployment does not void the rest.
    await Promise.all(PRECACHE.map((u) => cache.add(new Request(u, { cache: 'no-cache' })).catch(() => {})));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const k of await caches.keys()) if (k.startsWith('throughput-') && k !== CACHE) await caches.delete(k);
    await self.clients.claim();
  })());
});

/**
 * The cache key for a request the worker serves, or null for one it leaves
 * to the network: the shell ("./") for navigations to the page, the file's
 * own URL without its query for the site's files.
 */
function keyOf(req) {
  if (req.method !== 'GET' || req.headers.has('range')) return null;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || API.test(url.pathname)) return null;
  if (req.mode === 'navigate') return SHELL().includes(url.pathname) ? new URL('./', scope()).href : null;
  if (!STATIC().has(url.pathname) || SHELL().includes(url.pathname)) return null;
  return url.origin + url.pathname;
}

self.addEventListener('fetch', (event) => {
  const key = keyOf(event.request);
  if (key === null) return; // the network's, untouched
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const res = await fetch(event.request);
      if (res.ok && res.type === 'basic') event.waitUntil(cache.put(key, res.clone()).catch(() => {}));
      return res;
    } catch (err) {
      const hit = await cache.match(key);
      if (hit) return hit;
      throw err;
    }
  })());
});
