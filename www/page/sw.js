// Service worker: keeps the calculator working offline after one visit.
// Strategy: network first (so a deploy is picked up at once), falling back
// to the cache when the network fails; every same-origin GET that succeeds
// refreshes the cache. The built site's page, script, engine and default
// report (build/site/, ./build.sh build) are precached at install so the
// first visit is enough. The build writes a hash of those files into
// VERSION, so a deployment that changes them installs a new worker whose
// cache replaces the old one.
const VERSION = 'dev';
const CACHE = `throughput-${VERSION}`;
const PRECACHE = [
  './', 'app.bundle.js', 'throughput.wasm', 'prerender.json', 'manifest.webmanifest', 'icon.svg',
];
// The widget's files (widget.js, throughput-calculator.js) are cached when
// first used, like any other same-origin file: the page does not need them.

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
    for (const k of await caches.keys()) if (k !== CACHE) await caches.delete(k);
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const res = await fetch(req);
      if (res.ok && res.type === 'basic' && !req.headers.has('range')) {
        // Navigations are stored under the page's own URL without the query,
        // so any link (?model=...) opens offline.
        const key = req.mode === 'navigate' ? new Request(url.pathname) : req;
        event.waitUntil(cache.put(key, res.clone()).catch(() => {}));
      }
      return res;
    } catch (err) {
      const hit = await cache.match(req, { ignoreSearch: req.mode === 'navigate' }) ??
        (req.mode === 'navigate' ? await cache.match('./') : undefined);
      if (hit) return hit;
      throw err;
    }
  })());
});
