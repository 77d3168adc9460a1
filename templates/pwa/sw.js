// DiceHall's service worker, served by play/pwa.py at the site's root. Pages always come from the
// server (a game's page is live, never stale): when the server cannot be reached, the offline page.
// Static files come from the cache when their name is hashed (they never change), otherwise from the
// server first. Push messages are shown as notifications; a click opens their page.
const VERSION = {{ version|safe }};
const CACHE = `dicehall-${VERSION}`;
const OFFLINE = {{ offline|safe }};
const PRECACHE = {{ precache|safe }};
const STATIC = {{ static_prefix|safe }};
const ICON = {{ icon|safe }};
const HASHED = /\.[0-9a-f]{12}\.[A-Za-z0-9]+$/;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll([OFFLINE, ...PRECACHE])).then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('dicehall-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

async function page(request) {
  try {
    const response = await fetch(request);
    // A proxy in front of a stopped server answers 502-504: the site is down all the same.
    if (response.status >= 502 && response.status <= 504) return (await caches.match(OFFLINE)) || response;
    return response;
  } catch (error) {
    const shown = await caches.match(OFFLINE);
    if (shown) return shown;
    throw error;
  }
}

async function kept(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) (await caches.open(CACHE)).put(request, response.clone());
  return response;
}

async function fresh(request) {
  try {
    const response = await fetch(request);
    if (response.ok) (await caches.open(CACHE)).put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await caches.match(request);
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(page(request));
  } else if (url.pathname.startsWith(STATIC)) {
    event.respondWith(HASHED.test(url.pathname) ? kept(request) : fresh(request));
  }
  // Everything else (the catalogue, the JSON of the pages, the websockets) goes to the server as it is.
});

self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data.text() };
  }
  event.waitUntil(
    self.registration.showNotification(message.title || 'DiceHall', {
      body: message.body || '',
      tag: message.tag || undefined,
      icon: ICON,
      badge: ICON,
      data: { url: message.url || '/' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || '/', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => w.url === target);
      return open ? open.focus() : self.clients.openWindow(target);
    }),
  );
});
