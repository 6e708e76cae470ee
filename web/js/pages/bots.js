// How strong the built-in bots are: each level by its name on the pages
// (easy, medium, hard), and the arena figures behind the names, copied from
// the project's docs/bots.md (where the commands that measured them are).

import { h } from '../dom.js';
import { rulesetName } from '../format.js';
import { BOT_LEVELS } from '../bot-levels.js';

/**
 * [ruleset, players, hard against medium, medium against easy, games]: the
 * share of games the stronger level won in one seat against the weaker in
 * every other seat, with its 95 % interval; the fair share is one game in
 * `players`. Filled from docs/bots.md.
 */
export const FIGURES = [
  ['hats', 2, '83.8 % (81.5–86.0)', '98.5 %', 1000],
  ['hats', 3, '52.4 % (49.4–55.5)', 'not measured', 1000],
  ['hats', 4, '41.0 % (37.2–44.8); a team win counts half', 'not measured', 100],
  ['top-hats', 2, '97.4 % (96.5–98.3), 500 iterations', '93.0 %', 1000],
  ['top-hats', 3, '77.0 % (70.4–83.6)', 'not measured', 100],
  ['hat-trick', 2, '85.3 % (83.1–87.5)', '82.0 %', 1000],
  ['hat-trick', 3, '70.5 % (67.7–73.3)', 'not measured', 1000],
  ['hat-trick', 4, '54.4 % (51.4–57.5)', 'not measured', 1000],
  ['hat-trick', 5, '44.2 % (31.6–56.7)', '68.5 % (62.1–74.9)', 60],
  ['hat-trick', 6, '41.2 % (26.0–56.5)', 'not measured', 40],
  ['goathead', 3, '82.8 % (80.6–85.0)', '88.5 %', 1000],
  ['goathead', 4, '69.5 % (60.8–78.2)', 'not measured', 100],
];

export function show(root) {
  const levels = h('table', {},
    h('thead', {}, h('tr', {}, h('th', {}, 'Level'), h('th', {}, 'Plays'), h('th', {}, 'API id'))),
    h('tbody', {}, BOT_LEVELS.map(([id, name, how]) =>
      h('tr', {}, h('td', {}, name), h('td', {}, how), h('td', {}, h('code', {}, id))))));
  const figures = h('table', {},
    h('thead', {}, h('tr', {},
      h('th', {}, 'Game'), h('th', {}, 'Players'), h('th', {}, 'Fair share'),
      h('th', {}, 'Hard wins against medium'), h('th', {}, 'Medium wins against easy'))),
    h('tbody', {}, FIGURES.map(([ruleset, players, hard, medium, games]) =>
      h('tr', {},
        h('td', {}, rulesetName(ruleset)), h('td', {}, String(players)),
        h('td', {}, `${(100 / players).toFixed(1)} %`),
        h('td', {}, `${hard} (${games} games)`), h('td', {}, medium)))));
  root.append(h('h1', {}, 'How strong the bots are'),
    h('p', {}, 'Three built-in bots play every game at every table size. ',
      'Each decides from what its own seat sees and nothing more.'),
    levels,
    h('h2', {}, 'Measured'),
    h('p', { class: 'hint' }, 'Bots against bots: the stronger level in one seat (a different seat each game) ',
      'against the weaker level in every other seat, at the budget the server plays with. ',
      'A shared win counts half. In brackets: the 95 % interval.'),
    figures);
}
