// The installed app offline (docs/phones.md): the service worker that keeps
// the app shell, and the last inbox and games the signed-in user saw, kept
// in this browser for that account only, so the page can show them, marked
// stale, while the network is away.
//
// Rules it keeps:
// - What is kept is the current account's own answers, stored with its user
//   id and shown only to that id; a change of account or a sign-out drops
//   all of it (the service worker never caches the API: docs/caching.md).
// - Nothing sent while offline is kept to send later: a move that cannot
//   reach the server is refused on the page (pages/game.js).

import { h } from './dom.js';
import { identity } from './api.js';
import { when } from './format.js';
import { t } from './i18n.js';

const KEY = 'hatstand.offline';
// The games kept besides the inbox: the ones opened last.
const GAMES_KEPT = 20;

/** Registers the service worker once the page has loaded (so it does not
 * compete with the page's own requests); resolves to its registration, or
 * null where the browser has none (or the origin is not secure). */
export const registration = new Promise((resolve) => {
  if (!('serviceWorker' in navigator)) {
    resolve(null);
    return;
  }
  const register = () => navigator.serviceWorker.register('/sw.js').then(resolve, () => resolve(null));
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
  // A notification clicked while the app is open: the worker names the route.
  navigator.serviceWorker.addEventListener('message', (event) => {
    if (event.data?.type === 'hatstand:open' && /^#\/games\/[0-9a-f-]{36}$/.test(event.data.route)) {
      location.hash = event.data.route;
    }
  });
});

function load() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY));
    return kept && kept.user === identity() && kept.user ? kept : null;
  } catch {
    return null;
  }
}

/** Keeps `data` as the signed-in user's last known `name` (`inbox`, or
 * `game:<id>`); does nothing when signed out. */
export function keep(name, data) {
  const user = identity();
  if (!user) return;
  const kept = load() || { user, items: {} };
  kept.items[name] = { at: new Date().toISOString(), data };
  const games = Object.keys(kept.items).filter((key) => key.startsWith('game:'))
    .sort((a, b) => kept.items[b].at.localeCompare(kept.items[a].at));
  for (const old of games.slice(GAMES_KEPT)) delete kept.items[old];
  try {
    localStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // Storage full or refused: the page works online all the same.
  }
}

/** The signed-in user's last known `name`, `{at, data}`, or null. */
export function recall(name) {
  return load()?.items[name] ?? null;
}

/** Drops everything kept (any account's). */
export function forget() {
  localStorage.removeItem(KEY);
}

/** Whether `error` says the server could not be reached at all. */
export function unreachable(error) {
  return error?.code === 'network';
}

/** The line over a page drawn from what was kept: as of when, and that it
 * refreshes when the network returns. */
export function staleNote(at) {
  return h('p', { class: 'stale', role: 'status', 'data-stale': at },
    t('offline.stale', { when: when(at) }));
}

// Another account, or none: what was kept was the last one's.
window.addEventListener('hatstand:session', (event) => {
  if (event.detail?.changed) forget();
});
