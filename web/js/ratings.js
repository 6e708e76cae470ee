// Ratings as the pages show them (docs/ratings.md): a rating with `?` while
// provisional, and a game's rating changes.

import { h } from './dom.js';
import { get } from './api.js';
import { t } from './i18n.js';

/** "1662?" or "1712": Glicko-2 rounded to a point, Weng-Lin to a tenth. */
export function ratingText(r, method) {
  const value = method === 'glicko2' ? Math.round(r.rating) : r.rating.toFixed(1);
  return `${value}${r.provisional ? '?' : ''}`;
}

/** A link to a player's profile. */
export function playerLink(username) {
  return h('a', { href: `#/users/${encodeURIComponent(username)}`, 'data-player': username }, username);
}

/**
 * The rating changes of a finished game, drawn into `into` once read; with
 * `order`, also its place in the finish order the ratings follow (the audit).
 */
export async function gameRatings(game, into, { order = false } = {}) {
  const answer = await get(`/v1/games/${game.id}/ratings`);
  const place = order && answer.finish_order !== null && answer.finish_order !== undefined
    ? h('p', { 'data-finish-order': String(answer.finish_order) },
      t('ratings.finish_order', { n: answer.finish_order }))
    : null;
  if (!answer.changes.length) {
    into.replaceChildren(...[place, h('p', { class: 'hint' }, game.rated ? t('ratings.not_counted') : t('ratings.casual'))]
      .filter(Boolean));
    return;
  }
  into.replaceChildren(...[place, h('table', { 'data-ratings': '' },
    h('thead', {}, h('tr', {}, h('th', {}, t('leaderboard.player')), h('th', {}, t('ratings.place')), h('th', {}, t('leaderboard.rating')), h('th', {}, t('ratings.change')))),
    h('tbody', {}, answer.changes.map((c) => {
      const delta = c.after.rating - c.before.rating;
      const shown = answer.method === 'glicko2' ? Math.round(delta) : delta.toFixed(1);
      return h('tr', {}, h('td', {}, playerLink(c.username)), h('td', {}, String(c.place)),
        h('td', {}, `${ratingText(c.before, answer.method)} → ${ratingText(c.after, answer.method)}`),
        h('td', {}, `${delta >= 0 ? '+' : ''}${shown}`));
    })))].filter(Boolean));
}
