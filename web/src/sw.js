// Service worker: after one visit the page loads and grades with the network off.
// __ASSETS__ (every file of web/dist) and __VERSION__ (a hash of them) are written in by web/build.mjs,
// so each build installs a new cache and drops the old one. Cache-first: the page never waits on
// the network for a file it already has.
// The cache keeps each response's headers, so the page served from it offline is still cross-origin
// isolated (COOP/COEP, web/server.mjs) and still runs the threaded build. Its files
// (__THREADED_ASSETS__) are precached only where they can run: this worker was served with the same
// headers as the page, so it is cross-origin isolated exactly when the page is.
// The reference solutions (__ON_DEMAND__, web/build.mjs) are fetched only when the page shows one: not
// precached, but kept once fetched, so that a solution opened once opens offline too.
/* global __ASSETS__, __THREADED_ASSETS__, __ON_DEMAND__, __VERSION__ */
const CACHE = `attnlab-${__VERSION__}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const assets = [...__ASSETS__, ...(self.crossOriginIsolated ? __THREADED_ASSETS__ : [])];
      // 'no-cache': revalidate with the server (a 304 for what the page just downloaded), never stale.
      await cache.addAll(assets.map((a) => new Request(a, { cache: 'no-cache' })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key.startsWith('attnlab-') && key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin) return;
  // Embed mode's page comes from the server, whose headers say who may frame it; the cached page's
  // say nobody (frame-ancestors 'none'). So does a cmi5 launch's (its LRS in connect-src), whose
  // headers the cached page's, connect-src 'self', would block.
  if (req.mode === 'navigate' && (url.searchParams.get('embed') === '1' || url.searchParams.has('endpoint'))) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      // Navigations carry query strings (?lang=en): any of them is the one page.
      const hit =
        req.mode === 'navigate'
          ? await cache.match('./', { ignoreSearch: true })
          : await cache.match(req, { ignoreSearch: true });
      if (hit) return hit;
      const res = await fetch(req);
      if (res.ok && url.pathname.includes(__ON_DEMAND__)) await cache.put(req, res.clone());
      return res;
    })(),
  );
});
