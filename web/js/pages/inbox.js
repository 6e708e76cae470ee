// The inbox: games waiting for you first (soonest deadline first), then
// games waiting for others, open tables and recent results. It refreshes
// itself from the notification stream (`/v1/me/stream`).

import { h } from '../dom.js';
import { follow, get, session } from '../api.js';
import { explain, flash } from '../ui.js';
import { gameList, tickDeadlines } from '../game-list.js';
import { keep, recall, staleNote, unreachable } from '../offline.js';
import { t } from '../i18n.js';

export async function show(root) {
  const me = session();
  if (!me) return welcome(root);
  const live = h('span', { class: 'live', 'data-live': 'off' }, t('inbox.connecting'));
  const body = h('div', { id: 'inbox' });
  root.append(h('div', { class: 'game-head' }, h('h1', {}, t('inbox.title')), live,
    h('a', { class: 'button', href: '#/new' }, t('nav.new'))), body);

  // Offline, the last inbox this account saw, marked stale (docs/phones.md).
  let stale = false;
  const load = async () => {
    try {
      let lists;
      try {
        lists = await Promise.all([
          get('/v1/me/games?turn=mine&status=active&limit=100'),
          get('/v1/me/games?status=active&limit=100'),
          get('/v1/me/games?status=open&limit=100'),
          get('/v1/me/games?status=finished&limit=10'),
        ]);
        keep('inbox', lists);
        stale = false;
      } catch (error) {
        const kept = unreachable(error) ? recall('inbox') : null;
        if (!kept) throw error;
        lists = kept.data;
        stale = kept.at;
      }
      const [mine, active, open, finished] = lists;
      const waiting = mine.games.map((g) => g.id);
      const yourTurn = [...mine.games].sort((a, b) =>
        (a.deadline ? Date.parse(a.deadline) : Infinity) - (b.deadline ? Date.parse(b.deadline) : Infinity));
      body.replaceChildren(
        stale ? staleNote(stale) : null,
        h('h2', {}, t('inbox.your_turn', { n: yourTurn.length })),
        gameList(yourTurn, { myId: me.userId, empty: t('inbox.nothing_waits') }),
        h('h2', {}, t('inbox.waiting_others')),
        gameList(active.games.filter((g) => !waiting.includes(g.id)), { myId: me.userId, empty: t('inbox.none') }),
        h('h2', {}, t('inbox.open_tables')),
        gameList(open.games, { myId: me.userId, empty: t('inbox.none') }),
        h('h2', {}, t('inbox.recently_finished')),
        gameList(finished.games, { myId: me.userId, empty: t('inbox.none_yet') }));
    } catch (error) {
      flash(explain(error));
    }
  };
  await load();

  let pending = null;
  const reloadSoon = () => {
    clearTimeout(pending);
    pending = setTimeout(load, 250);
  };
  const stopStream = follow('/v1/me/stream', reloadSoon, {
    onState: (state) => {
      live.dataset.live = state === 'live' ? 'on' : 'off';
      live.classList.toggle('on', state === 'live');
      live.textContent = t(`live.${state}`);
      if (state === 'live' && stale) load();
    },
  });
  const stopClock = tickDeadlines(body);
  return () => {
    stopStream();
    stopClock();
    clearTimeout(pending);
  };
}

async function welcome(root) {
  root.append(
    h('h1', {}, 'hatstand'),
    h('p', {}, t('welcome.text')),
    h('div', { class: 'actions' },
      h('a', { class: 'button', href: '#/signup' }, t('welcome.create')),
      h('a', { class: 'button quiet', href: '#/signin' }, t('nav.sign_in')),
      h('a', { class: 'button quiet', href: '#/watch' }, t('welcome.watch'))));
}
