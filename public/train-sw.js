/*
 * The /train/<game> page's service worker: once the page has loaded, training goes on offline.
 * Each reset loads a fresh game document in a frame (with its runtime and verifier), so those
 * files are kept here as they are fetched: network first (a rebuilt game is always the one
 * served while online), the cached copy when the network is gone. Nothing else is touched.
 */
const CACHE = 'arcade-train-v1';
const KEPT = ['/games/', '/runtime/', '/verifiers/', '/trainer/', '/_next/static/', '/train/'];

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !KEPT.some((p) => url.pathname.startsWith(p))) return;
  // A game page's query (seed, size) changes nothing about its file.
  const key = url.pathname.startsWith('/games/') ? url.origin + url.pathname : request.url;
  event.respondWith(
    fetch(request).then(
      (response) => {
        if (response.ok) {
          const copy = response.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(key, copy)));
        }
        return response;
      },
      async (error) => {
        const cached = await caches.match(key);
        if (cached) return cached;
        throw error;
      },
    ),
  );
});
