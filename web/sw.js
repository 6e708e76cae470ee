// The service worker (docs/phones.md). The server puts two lines before this
// file: SHELL_VERSION (changes with any file of the client) and SHELL_FILES
// (the client's own files: the page, its modules, styles, icons, rules).
//
// Rules it keeps:
// - It caches the app shell, and nothing else: never an answer of the API
//   (`/v1/…`), which is one viewer's (docs/caching.md). What the page shows
//   offline of a user's games it keeps itself, per account, and drops at
//   sign-out (js/offline.js).
// - The shell is fetched from the network first, so an online page is the
//   server's current one; the cached copy answers only when the network
//   does not.
// - A push shows one notification per game (its tag is the game), so a
//   newer one replaces an unread older one; clicking it opens the game.

/* global SHELL_VERSION, SHELL_FILES */
const PREFIX = 'hatstand-shell-';
const CACHE = `${PREFIX}${SHELL_VERSION}`;
const GAME_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // `no-cache`: revalidated, so an old copy in the HTTP cache is not kept.
    await cache.addAll(SHELL_FILES.map((url) => new Request(url, { cache: 'no-cache' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

/** The shell file a request is for (`/` for the page), or null. */
function shellKey(request) {
  if (request.method !== 'GET') return null;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return null;
  if (request.mode === 'navigate') {
    return url.pathname === '/' || url.pathname === '/index.html' ? '/' : null;
  }
  return SHELL_FILES.includes(url.pathname) ? url.pathname : null;
}

self.addEventListener('fetch', (event) => {
  const key = shellKey(event.request);
  if (!key) return; // the API and anything else: the network alone
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(event.request);
      if (response.ok) await cache.put(key, response.clone());
      return response;
    } catch (error) {
      const kept = await cache.match(key);
      if (kept) return kept;
      throw error;
    }
  })());
});

// A push: `{game, version, kind, text}`, the text in the user's language.
self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { text: event.data?.text() };
  }
  const game = typeof message.game === 'string' && GAME_ID.test(message.game) ? message.game : null;
  event.waitUntil(self.registration.showNotification('hatstand', {
    body: typeof message.text === 'string' ? message.text : '',
    icon: '/img/icon-192.png',
    badge: '/img/icon-192.png',
    lang: '',
    // One notification a game: the newest replaces the older, and says so.
    tag: game ? `game-${game}` : 'hatstand',
    renotify: true,
    data: { game, version: message.version ?? null, kind: message.kind ?? null },
  }));
});

// A click opens the game: in a window of the app already open (focused,
// told the route), else in a new one.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const game = event.notification.data?.game;
  const route = game && GAME_ID.test(game) ? `#/games/${game}` : '#/';
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
    if (open) {
      open.postMessage({ type: 'hatstand:open', route });
      await open.focus();
      return;
    }
    await self.clients.openWindow(`/${route}`);
  })());
});
