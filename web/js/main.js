// The app shell: the navigation bar, the message strip and the router.
// Pages live in pages/*.js; each exports `show(root, params)` and may return
// a function that stops what it started (streams, clocks) when the page is left.
// Routes are in the URL's fragment (`#/games/<id>`), so the server serves
// one page and every link can be bookmarked or shared.

import { h } from './dom.js';
import { session, signOut } from './api.js';
import { explain, flash, go } from './ui.js';
import { drawBadge, startNotifier, waitingCount } from './notifier.js';
// The service worker and what is kept for offline use (docs/phones.md).
import './offline.js';

const routes = [
  [/^#?\/?$/, () => import('./pages/inbox.js'), () => ({})],
  [/^#\/signin$/, () => import('./pages/signin.js'), () => ({ mode: 'signin' })],
  [/^#\/signup$/, () => import('./pages/signin.js'), () => ({ mode: 'signup' })],
  [/^#\/new$/, () => import('./pages/new-game.js'), () => ({})],
  [/^#\/watch$/, () => import('./pages/watch.js'), () => ({})],
  [/^#\/bots$/, () => import('./pages/bots.js'), () => ({})],
  [/^#\/settings$/, () => import('./pages/settings.js'), () => ({})],
  [/^#\/games\/([0-9a-f-]{36})$/, () => import('./pages/game.js'), (m, q) => ({ id: m[1], code: q.get('code') })],
  [/^#\/audit$/, () => import('./pages/audit.js'), () => ({})],
  [/^#\/rules\/([a-z-]+)$/, () => import('./pages/rules.js'), (m) => ({ ruleset: m[1] })],
  [/^#\/audit\/([0-9a-f-]{36})$/, () => import('./pages/audit.js'), (m) => ({ id: m[1] })],
  // Ratings (docs/ratings.md).
  [/^#\/users\/([^/?]+)$/, () => import('./pages/profile.js'), (m) => ({ name: decodeURIComponent(m[1]) })],
  [/^#\/leaderboard\/([a-z-]+)$/, () => import('./pages/leaderboard.js'),
    (m, q) => ({ ruleset: m[1], players: Number(q.get('players')) || 2, bots: q.get('bots') === '1' })],
];

let leave = null;
// Bumped by every route: a page still loading for an older one draws nothing.
let generation = 0;

function drawNav() {
  const nav = document.getElementById('nav');
  const me = session();
  const here = location.hash || '#/';
  const link = (href, ...text) => h('a', { href, 'aria-current': here === href ? 'page' : null }, ...text);
  nav.replaceChildren(
    ...(me
      ? [link('#/', 'Inbox', h('span', { id: 'turn-count', class: 'count', hidden: true })),
        link('#/new', 'New game'), link('#/watch', 'Watch'), link('#/audit', 'Audit'),
        link('#/leaderboard/hats', 'Leaderboards'), link('#/settings', 'Settings'),
        h('span', { class: 'who' }, me.username),
        h('button', { type: 'button', onClick: async () => { await signOut(); go('#/signin'); } }, 'Sign out')]
      : [link('#/watch', 'Watch'), link('#/audit', 'Audit'), link('#/leaderboard/hats', 'Leaderboards'), link('#/signin', 'Sign in'), link('#/signup', 'Sign up')]),
  );
  drawBadge(waitingCount());
}

async function route() {
  const hash = location.hash || '#/';
  const [path, query] = hash.split('?');
  const params = new URLSearchParams(query || '');
  const main = document.getElementById('main');
  const mine = ++generation;
  leave?.();
  leave = null;
  flash('');
  // Each page may name itself; the count of games waiting is added to it.
  document.title = 'hatstand';
  drawNav();
  const found = routes.find(([pattern]) => pattern.test(path));
  if (!found) {
    main.replaceChildren(h('h1', {}, 'Not found'), h('p', {}, h('a', { href: '#/' }, 'Back to the start')));
    return;
  }
  const [pattern, load, paramsOf] = found;
  try {
    const page = await load();
    if (mine !== generation) return;
    main.replaceChildren();
    const stop = await page.show(main, paramsOf(path.match(pattern), params));
    if (mine !== generation) {
      if (typeof stop === 'function') stop();
      return;
    }
    if (typeof stop === 'function') leave = stop;
  } catch (error) {
    if (mine !== generation || error.name === 'AbortError') return;
    main.replaceChildren(h('h1', {}, 'Something went wrong'), h('p', {}, explain(error)));
  }
}

window.addEventListener('hashchange', route);
window.addEventListener('hatstand:session', (event) => {
  if (event.detail?.changed) {
    // Another viewer: nothing drawn for the last one may stay on the page.
    document.getElementById('main').replaceChildren();
    route();
  } else {
    drawNav();
  }
  startNotifier();
});
route();
startNotifier();
