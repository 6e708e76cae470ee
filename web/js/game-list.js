// A list of games as the inbox and the watch page show them.

import { h } from './dom.js';
import { ago, rulesetName, timeLeft } from './format.js';
import { t } from './i18n.js';

/**
 * One list item per game summary. `myId` marks the caller's seats; games
 * waiting for the caller get the "your turn" tag and a countdown to their
 * deadline (`[data-deadline]`, kept fresh by `tickDeadlines`).
 */
export function gameList(games, { myId = null, empty = t('list.no_games'), ratings = null } = {}) {
  if (!games.length) return h('p', { class: 'muted' }, empty);
  return h('ul', { class: 'games' }, games.map((game) => item(game, myId, ratings)));
}

function item(game, myId, ratings) {
  const mySeat = game.seats.find((s) => s.user_id === myId)?.seat;
  const myTurn = mySeat !== undefined && game.status === 'active' && game.to_act.includes(mySeat);
  const names = game.seats.map((s) => (s.bot ? t('list.bot', { name: s.username }) : s.username)).join(', ')
    || t('list.no_one');
  const free = game.players - game.seats.length;
  const state = game.status === 'open'
    ? t('list.waiting_more', { n: free })
    : game.status === 'finished' ? outcome(game, mySeat) : t(`status.${game.status}`);
  return h('li', { class: myTurn ? 'mine' : null, 'data-game': game.id },
    h('a', { href: `#/games/${game.id}` },
      h('span', { class: 'title' }, rulesetName(game.ruleset), ` · ${t('list.players', { n: game.players })}`,
        myTurn ? h('span', { class: 'tag turn' }, t('list.your_turn')) : null,
        game.private ? h('span', { class: 'tag' }, t('list.private')) : null,
        h('span', { class: 'tag', 'data-rated': String(game.rated) }, game.rated ? t('list.rated') : t('list.casual')),
        seeking(game, ratings)),
      h('span', { class: 'when' },
        myTurn && game.deadline
          ? h('span', { class: 'clock', 'data-deadline': game.deadline }, timeLeft(game.deadline))
          : ago(game.updated_at)),
      h('span', { class: 'who' }, names),
      h('span', { class: 'when' }, state)));
}

/** Refreshes every countdown under `root`; returns a function that stops it. */
export function tickDeadlines(root) {
  const timer = setInterval(() => {
    for (const clock of root.querySelectorAll('[data-deadline]')) {
      const left = timeLeft(clock.dataset.deadline);
      clock.textContent = left;
      clock.classList.toggle('low', Date.parse(clock.dataset.deadline) - Date.now() < 3_600_000);
    }
  }, 1000);
  return () => clearInterval(timer);
}

/** A finished game in a list: won, lost or drawn (with the score) for a
 * player, who won for anyone else. */
export function outcome(game, mySeat) {
  const result = game.result || {};
  const winners = result.winners || [];
  const scores = result.scores || [];
  const score = mySeat !== undefined && scores.length === game.players && game.players > 1
    ? ` ${scores[mySeat]}–${Math.max(...scores.filter((_, i) => i !== mySeat))}` : '';
  if (!winners.length) return t('outcome.drawn', { score });
  if (mySeat === undefined) {
    const names = winners.map((s) => game.seats.find((x) => x.seat === s)?.username ?? t('seat.n', { n: s + 1 }));
    return t('outcome.won_by', { names: names.join(t('common.and')) });
  }
  if (!winners.includes(mySeat)) return t('outcome.lost', { score });
  return winners.length > 1 ? t('outcome.shared', { score }) : t('outcome.won', { score });
}

/** Seeking by strength: the table's rating range and, when the viewer's
 * ratings are known, whether they fit (a newcomer counts at the start). */
function seeking(game, ratings) {
  if (game.rating_min == null && game.rating_max == null) return null;
  const range = t('list.rating_range', { min: game.rating_min ?? t('list.any'), max: game.rating_max ?? t('list.any') });
  if (!ratings || game.status !== 'open') return h('span', { class: 'tag', 'data-range': range }, range);
  const pool = ratings.find((r) => r.ruleset === game.ruleset && r.players === game.players);
  const mine = pool ? pool.rating : (game.players === 2 ? 1500 : 25);
  const fits = (game.rating_min == null || mine >= game.rating_min) && (game.rating_max == null || mine <= game.rating_max);
  return h('span', { class: 'tag', 'data-range': range, 'data-fits': String(fits) },
    `${range}${t('common.colon')}${fits ? t('list.you_fit') : t('list.outside')}`);
}
