/* global self, caches */
// Service worker: the dashboard's shell opens without the gateway (an installable app), and alerts
// pushed by the gateway (docs/https.md, Web Push) become notifications that open the alerts screen.
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
    // Hashed names never change content: cache first, and keep what was fetched. The page gets the
    // response at once and the copy is stored beside it: a screen's code never waits on a write to the
    // browser's storage, which a busy disk (a phone's, or a shared machine's) can hold up.
    event.respondWith(
      (async () => {
        const cached = await caches.match(request);
        if (cached) return cached;
        const response = await fetch(request);
        if (response.ok) {
          const copy = response.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
        }
        return response;
      })(),
    );
  }
});

// A push from the gateway: { title, body, severity, alertId, url, tag } (server/contract/push.ts). Every
// push must show a notification (browsers revoke the subscription of a worker that stays silent). A
// CRITICAL stays on screen until the grower acts on it; one tag per alert, so a rising severity
// replaces its earlier notification instead of stacking.
self.addEventListener('push', (event) => {
  let message;
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data ? event.data.text() : '' };
  }
  const tag = message.tag || 'greenhouse';
  event.waitUntil(
    self.registration.showNotification(message.title || 'Greenhouse gateway', {
      body: message.body || '',
      tag,
      renotify: true,
      requireInteraction: message.severity === 'CRITICAL',
      icon: '/icon-192.png',
      badge: '/icon-192.png',
      data: { url: message.url || '/dashboard/alerts', alertId: message.alertId || null },
    }),
  );
});

// A tap opens the dashboard where the push points (the alerts screen), in an open window if there is one.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || '/dashboard/alerts', self.location.origin);
  if (target.origin !== self.location.origin) return;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const client of windows) {
        if (new URL(client.url).origin !== self.location.origin) continue;
        await client.focus();
        if ('navigate' in client) await client.navigate(target.href);
        return;
      }
      await self.clients.openWindow(target.href);
    })(),
  );
});
