// How strong the built-in bots are: each level by its name on the pages
// (easy, medium, hard), and the arena figures behind the names, copied from
// the project's docs/bots.md (where the commands that measured them are).

import { h } from '../dom.js';
import { rulesetName } from '../format.js';
import { botLevels } from '../bot-levels.js';
import { t } from '../i18n.js';

/**
 * [ruleset, players, hard against medium, medium against easy]: the share
 * of 1,000 games the stronger level won in one seat against the weaker in
 * every other seat, with its 95 % interval; the fair share is one game in
 * `players`. Filled from docs/bots.md.
 */
export const FIGURES = [
  ['hats', 2, '83.8 % (81.5–86.0)', '98.5 % (97.7–99.3)'],
  ['hats', 3, '52.4 % (49.4–55.5)', '95.7 % (94.4–97.0)'],
  ['hats', 4, '39.1 % (37.8–40.4); a team win counts half', '44.1 % (43.1–45.1)'],
  ['top-hats', 2, '93.0 % (91.6–94.4)', '96.9 % (96.0–97.8)'],
  ['top-hats', 3, '77.9 % (76.0–79.8)', '73.0 % (70.9–75.2)'],
  ['hat-trick', 2, '85.3 % (83.1–87.5)', '82.0 % (79.6–84.3)'],
  ['hat-trick', 3, '70.5 % (67.7–73.3)', '73.7 % (71.0–76.4)'],
  ['hat-trick', 4, '54.4 % (51.4–57.5)', '71.2 % (68.5–74.0)'],
  ['hat-trick', 5, '45.6 % (42.5–48.6)', '70.5 % (67.7–73.2)'],
  ['hat-trick', 6, '36.1 % (33.2–39.1)', '64.4 % (61.5–67.3)'],
  ['goathead', 3, '82.8 % (80.6–85.0)', '89.5 % (87.7–91.4)'],
  ['goathead', 4, '60.5 % (57.5–63.5)', '80.4 % (78.1–82.7)'],
];

export function show(root) {
  const levels = h('table', {},
    h('thead', {}, h('tr', {}, h('th', {}, t('bots.level')), h('th', {}, t('bots.plays')), h('th', {}, t('bots.api_id')))),
    h('tbody', {}, botLevels().map(([id, name, how]) =>
      h('tr', {}, h('td', {}, name), h('td', {}, how), h('td', {}, h('code', {}, id))))));
  const figures = h('table', {},
    h('thead', {}, h('tr', {},
      h('th', {}, t('bots.game')), h('th', {}, t('bots.players')), h('th', {}, t('bots.fair_share')),
      h('th', {}, t('bots.hard_vs_medium')), h('th', {}, t('bots.medium_vs_easy')))),
    h('tbody', {}, FIGURES.map(([ruleset, players, hard, medium]) =>
      h('tr', {},
        h('td', {}, rulesetName(ruleset)), h('td', {}, String(players)),
        h('td', {}, `${(100 / players).toFixed(1)} %`),
        h('td', {}, hard), h('td', {}, medium)))));
  root.append(h('h1', {}, t('bots.title')),
    h('p', {}, t('bots.intro')),
    levels,
    h('h2', {}, t('bots.measured')),
    h('p', { class: 'hint' }, t('bots.method')),
    figures);
}
