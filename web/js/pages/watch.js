// Public games: tables waiting for players (join one), games in play (watch
// one live) and finished games (replay and audit them). Filter by ruleset.

import { h } from '../dom.js';
import { get, session } from '../api.js';
import { explain, flash } from '../ui.js';
import { gameList } from '../game-list.js';
import { rulesetName } from '../format.js';
import { RULESETS } from '../games/index.js';
import { t } from '../i18n.js';

/** The seats to take (docs/seats.md): each links to its game, whose page
 * has the Take button. */
function vacantList(seats) {
  if (!seats.length) return h('p', { class: 'muted', id: 'vacant-seats' }, t('seats.none'));
  return h('ul', { class: 'games', id: 'vacant-seats' }, seats.map((s) =>
    h('li', { 'data-game': s.game_id, 'data-seat': s.seat },
      h('a', { href: `#/games/${s.game_id}` },
        h('span', { class: 'title' }, rulesetName(s.ruleset), ` · ${t('list.players', { n: s.players })}`),
        h('span', { class: 'who' }, t('seats.seat_n', { n: s.seat + 1 }))))));
}

export async function show(root) {
  const me = session();
  const filter = h('select', { id: 'ruleset-filter', name: 'ruleset' },
    h('option', { value: '' }, t('watch.all_games')),
    RULESETS.map((id) => h('option', { value: id }, rulesetName(id))));
  const body = h('div');
  root.append(h('h1', {}, t('watch.title')),
    h('label', { for: 'ruleset-filter' }, t('watch.game')), filter, body);

  // Seeking by strength: the viewer's ratings say which open tables fit.
  const ratings = me ? await get(`/v1/users/${encodeURIComponent(me.username)}`).then((u) => u.ratings).catch(() => null) : null;
  const load = async () => {
    const only = filter.value ? `&ruleset=${filter.value}` : '';
    try {
      const [open, active, finished] = await Promise.all(['open', 'active', 'finished'].map((status) =>
        get(`/v1/games?status=${status}&limit=30${only}`)));
      const vacant = await get('/v1/seats/vacant?limit=30');
      const seats = vacant.seats.filter((s) => !filter.value || s.ruleset === filter.value);
      body.replaceChildren(
        h('h2', {}, t('seats.to_take')), vacantList(seats),
        h('h2', {}, t('watch.open')), gameList(open.games, { myId: me?.userId, empty: t('watch.no_open'), ratings }),
        h('h2', {}, t('watch.active')), gameList(active.games, { myId: me?.userId, empty: t('watch.no_active') }),
        h('h2', {}, t('watch.finished')), gameList(finished.games, { myId: me?.userId, empty: t('watch.no_finished') }));
    } catch (error) {
      flash(explain(error));
    }
  };
  filter.addEventListener('change', load);
  await load();
  const timer = setInterval(load, 15_000);
  return () => clearInterval(timer);
}
