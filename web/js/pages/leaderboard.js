// A pool's leaderboard (`#/leaderboard/<ruleset>?players=N&bots=1`):
// established ratings only, best first, people and bots apart, a page at
// a time.

import { h } from '../dom.js';
import { get } from '../api.js';
import { rulesetName } from '../format.js';
import { RULESETS } from '../games/index.js';
import { playerLink, ratingText } from '../ratings.js';
import { t } from '../i18n.js';

export async function show(root, { ruleset, players, bots }) {
  document.title = `${t('leaderboard.doc_title', { game: rulesetName(ruleset) })} · hatstand`;
  const body = h('tbody', {});
  const more = h('button', { type: 'button', hidden: true }, t('common.more'));
  let cursor = null;
  let rank = 0;
  const load = async () => {
    const page = await get(`/v1/rulesets/${ruleset}/leaderboard?players=${players}&bots=${bots}&limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    body.append(...page.items.map((e) => h('tr', {}, h('td', {}, String(++rank)), h('td', {}, playerLink(e.username)),
      h('td', {}, ratingText(e, page.method)), h('td', {}, String(e.games)))));
    cursor = page.next_cursor;
    more.hidden = !cursor;
    return page;
  };
  more.addEventListener('click', load);
  const first = await load();
  const link = (r, p, b, text) => h('a', { href: `#/leaderboard/${r}?players=${p}${b ? '&bots=1' : ''}`,
    'aria-current': r === ruleset && p === players && b === bots ? 'page' : null }, text);
  root.append(
    h('h1', {}, t(bots ? 'leaderboard.title_bots' : 'leaderboard.title', { game: rulesetName(ruleset), n: players })),
    h('p', { class: 'hint' }, t('leaderboard.hint')),
    h('nav', { class: 'boards' }, RULESETS.map((r) => link(r, players, bots, rulesetName(r))), ' · ',
      [2, 3, 4, 5, 6].map((p) => link(ruleset, p, bots, t('leaderboard.players', { n: p }))), ' · ',
      link(ruleset, players, !bots, bots ? t('leaderboard.people') : t('leaderboard.bots'))),
    first.items.length
      ? h('table', { 'data-leaderboard': '' },
        h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, t('leaderboard.player')), h('th', {}, t('leaderboard.rating')), h('th', {}, t('leaderboard.games')))), body)
      : h('p', {}, t('leaderboard.empty')),
    more);
}
