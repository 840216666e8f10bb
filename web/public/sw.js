/* global self, caches */
// Service worker: the dashboard's shell opens without the gateway (issue 17: an installable app).
// Only the app itself is cached: index.html and the hashed /assets/ files. /api and /ws are never
// touched, so with the gateway gone the data calls fail and the dashboard says "unreachable" rather
// than showing anything old as current.
const CACHE = 'greenhouse-shell-v1';

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const response = await fetch('/index.html', { cache: 'no-cache' });
      const html = await response.clone().text();
      await cache.put('/index.html', response);
      // The entry script and styles the page names; lazily loaded screens are cached when first used.
      const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
      await cache.addAll(['/manifest.webmanifest', '/icon-192.png', ...assets]);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api') || url.pathname === '/ws') return;

  if (request.mode === 'navigate') {
    // Network first, so a new build is picked up at once; the cached shell when the gateway is away.
    event.respondWith(
      fetch(request).then(
        (response) => {
          if (response.ok) void caches.open(CACHE).then((cache) => cache.put('/index.html', response.clone()));
          return response;
        },
        async () => (await caches.match('/index.html')) ?? Response.error(),
      ),
    );
    return;
  }

  if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/icon-') || url.pathname === '/manifest.webmanifest') {
    // Hashed names never change content: cache first, and keep what was fetched.
    event.respondWith(
      (async () => {
        const cached = await caches.match(request);
        if (cached) return cached;
        const response = await fetch(request);
        if (response.ok) {
          const cache = await caches.open(CACHE);
          await cache.put(request, response.clone());
        }
        return response;
      })(),
    );
  }
});
