// The app shell: the navigation bar, the message strip and the router.
// Pages live in pages/*.js; each exports `show(root, params)` and may return
// a function that stops what it started (streams, clocks) when the page is left.
// Routes are in the URL's fragment (`#/games/<id>`), so the server serves
// one page and every link can be bookmarked or shared.

import { h } from './dom.js';
import { get, session, signOut } from './api.js';
import { explain, flash, go } from './ui.js';
import { drawBadge, startNotifier, waitingCount } from './notifier.js';
// The service worker and what is kept for offline use (docs/phones.md).
import './offline.js';
import { chosenLanguage, t, useLanguage } from './i18n.js';

const routes = [
  [/^#?\/?$/, () => import('./pages/inbox.js'), () => ({})],
  [/^#\/signin$/, () => import('./pages/signin.js'), () => ({ mode: 'signin' })],
  [/^#\/signup$/, () => import('./pages/signin.js'), () => ({ mode: 'signup' })],
  [/^#\/new$/, () => import('./pages/new-game.js'), () => ({})],
  [/^#\/watch$/, () => import('./pages/watch.js'), () => ({})],
  [/^#\/bots$/, () => import('./pages/bots.js'), () => ({})],
  [/^#\/settings$/, () => import('./pages/settings.js'), () => ({})],
  [/^#\/games\/([0-9a-f-]{36})$/, () => import('./pages/game.js'), (m, q) => ({ id: m[1], code: q.get('code') })],
  // Tournaments (docs/tournaments.md).
  [/^#\/tournaments$/, () => import('./pages/tournaments.js'), () => ({})],
  [/^#\/tournaments\/new$/, () => import('./pages/tournaments.js'), () => ({ create: true })],
  [/^#\/tournaments\/([0-9a-f-]{36})$/, () => import('./pages/tournaments.js'), (m) => ({ id: m[1] })],
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
      ? [link('#/', t('nav.inbox'), h('span', { id: 'turn-count', class: 'count', hidden: true })),
        link('#/new', t('nav.new')), link('#/watch', t('nav.watch')), link('#/tournaments', t('nav.tournaments')), link('#/audit', t('nav.audit')),
        link('#/leaderboard/hats', t('nav.leaderboards')), link('#/settings', t('nav.settings')),
        h('span', { class: 'who' }, me.username),
        h('button', { type: 'button', onClick: async () => { await signOut(); go('#/signin'); } }, t('nav.sign_out'))]
      : [link('#/watch', t('nav.watch')), link('#/tournaments', t('nav.tournaments')), link('#/audit', t('nav.audit')), link('#/leaderboard/hats', t('nav.leaderboards')), link('#/signin', t('nav.sign_in')), link('#/signup', t('nav.sign_up'))]),
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
    main.replaceChildren(h('h1', {}, t('page.not_found')), h('p', {}, h('a', { href: '#/' }, t('page.back_to_start'))));
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
    main.replaceChildren(h('h1', {}, t('page.went_wrong')), h('p', {}, explain(error)));
  }
}

/**
 * The signed-in account's language (`/v1/me/settings`, docs/i18n.md): the
 * page is redrawn in it when it is not the one in use. Signed out, the
 * browser's languages decide.
 */
async function followAccountLanguage(changed) {
  let wanted = null;
  if (session()) {
    try {
      wanted = (await get('/v1/me/settings')).language ?? null;
    } catch {
      return; // offline or refused: the language stays as it is
    }
  } else if (!changed) {
    return;
  }
  if (wanted === chosenLanguage()) return;
  await useLanguage(wanted);
  route();
}

window.addEventListener('hashchange', route);
window.addEventListener('hatstand:language', () => route());
window.addEventListener('hatstand:session', (event) => {
  if (event.detail?.changed) followAccountLanguage(true);
  if (event.detail?.changed) {
    // Another viewer: nothing drawn for the last one may stay on the page.
    document.getElementById('main').replaceChildren();
    route();
  } else {
    drawNav();
  }
  startNotifier();
});
await useLanguage();
route();
startNotifier();
followAccountLanguage(false);
