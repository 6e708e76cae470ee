// A player's profile (`#/users/<name>`): ratings per pool with their
// history drawn as an SVG line (no chart library), games by outcome, and
// member since.

import { h, s } from '../dom.js';
import { get } from '../api.js';
import { rulesetName, when } from '../format.js';
import { ratingText } from '../ratings.js';
import { t } from '../i18n.js';

/** The history (oldest first) as an SVG line chart. */
export function chart(points, method) {
  const width = 320;
  const height = 120;
  const pad = 8;
  if (points.length === 0) return null;
  const values = points.map((p) => p.rating);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || 1;
  const x = (i) => pad + (points.length === 1 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = (v) => height - pad - ((v - lo) * (height - 2 * pad)) / span;
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
  const last = points[points.length - 1];
  return s('svg', { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', class: 'rating-chart',
    'aria-label': t('profile.chart', { n: points.length, rating: ratingText(last, method) }) },
  s('polyline', { points: line, fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }),
  ...points.map((p, i) => s('circle', { cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 2.5, fill: 'currentColor' })));
}

export async function show(root, { name }) {
  const user = await get(`/v1/users/${encodeURIComponent(name)}`);
  document.title = `${user.username} · hatstand`;
  const r = user.record;
  const pools = await Promise.all(user.ratings.map(async (pool) => {
    const page = await get(`/v1/users/${encodeURIComponent(user.username)}/ratings/${pool.ruleset}?players=${pool.players}&limit=100`);
    return { pool, points: page.items.slice().reverse() };
  }));
  root.append(
    h('h1', {}, user.username, user.kind === 'bot' ? h('span', { class: 'tag bot' }, t('profile.bot')) : null),
    h('p', { class: 'muted' }, t('profile.member_since', { when: when(user.created_at) })),
    h('p', { 'data-record': '' }, t('profile.record', { n: r.played, won: r.won, drawn: r.drawn, lost: r.lost, abandoned: r.abandoned })),
    reliabilityLine(user.reliability),
    h('h2', {}, t('profile.ratings')),
    pools.length
      ? h('div', { class: 'ratings' }, pools.map(({ pool, points }) =>
        h('section', { 'data-pool': `${pool.ruleset}/${pool.players}` },
          h('h3', {}, `${t('profile.pool', { game: rulesetName(pool.ruleset), n: pool.players })} `,
            h('strong', {}, ratingText(pool, pool.method))),
          h('p', { class: 'hint' }, t('profile.deviation', { deviation: pool.deviation.toFixed(pool.method === 'glicko2' ? 0 : 2), n: pool.games }),
            pool.provisional ? ` ${t('profile.provisional')}` : '', ' · ',
            h('a', { href: `#/leaderboard/${pool.ruleset}?players=${pool.players}` }, t('profile.leaderboard'))),
          chart(points, pool.method))))
      : h('p', {}, t('profile.no_rated')),
    recentGames(user));
}

/** How surely the player sees their games to the end (docs/seats.md). */
function reliabilityLine(rel) {
  if (!rel) return null;
  return h('p', { 'data-reliability': String(rel.score) },
    t('profile.reliability', { score: rel.score }), ' ',
    h('span', { class: 'hint' }, t('profile.reliability_detail',
      { n: rel.played, left: rel.left, timeouts: rel.timeouts, days: rel.vacation_days })));
}

/** One game over in the list: its ruleset, players and outcome, linked. */
function recentItem(game, username) {
  const me = game.seats.find((seat) => seat.username === username);
  const winners = game.result?.winners ?? [];
  const outcome = game.status === 'abandoned' ? 'abandoned'
    : !winners.length ? 'drawn'
      : me && winners.includes(me.seat) ? 'won' : 'lost';
  const others = game.seats.filter((seat) => seat.username !== username).map((seat) => seat.username).join(', ');
  return h('li', { 'data-recent-game': game.id },
    h('a', { href: `#/games/${game.id}` }, t('profile.game_with', { game: rulesetName(game.ruleset), others: others || t('profile.nobody') })),
    ` · ${t(`profile.outcome.${outcome}`)}${game.rated ? ` · ${t('list.rated')}` : ''}`);
}

/** The latest games over, a page at a time (the first page comes with the profile). */
function recentGames(user) {
  const list = h('ul', { class: 'recent-games' });
  const more = h('button', { type: 'button', class: 'quiet', 'data-action': 'more-games' }, t('profile.older'));
  const add = (page) => {
    list.append(...page.games.map((game) => recentItem(game, user.username)));
    more.hidden = !page.next_cursor;
    more.onclick = async () => {
      more.disabled = true;
      try {
        add(await get(`/v1/users/${encodeURIComponent(user.username)}/games?cursor=${encodeURIComponent(page.next_cursor)}`));
      } finally {
        more.disabled = false;
      }
    };
  };
  const first = user.recent_games ?? { games: [], next_cursor: null };
  add(first);
  return h('section', { id: 'recent-games' }, h('h2', {}, t('profile.recent')),
    first.games.length ? null : h('p', {}, t('profile.no_games')), list, more);
}
