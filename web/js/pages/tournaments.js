// Tournaments (docs/tournaments.md): `#/tournaments` lists them (upcoming,
// running, finished, a page at a time), `#/tournaments/<id>` shows one (its
// settings, schedule, field, rounds with their tables, standings, seed), and
// `#/tournaments/new` creates one. The viewer's own table links to its game;
// another table's game is linked once the server shows it (its round scored).
// The page is read again when the window regains focus and every 30 s.

import { h } from '../dom.js';
import { call, get, post, session } from '../api.js';
import { rulesetName, when } from '../format.js';
import { RULESETS } from '../games/index.js';
import { explain, flash, go } from '../ui.js';
import { t } from '../i18n.js';

const EVERY_MS = 30000;

/** Reads again on focus and every 30 s; returns the stopper. */
function live(redraw) {
  const onFocus = () => redraw();
  window.addEventListener('focus', onFocus);
  const timer = setInterval(redraw, EVERY_MS);
  return () => { window.removeEventListener('focus', onFocus); clearInterval(timer); };
}

async function act(method, id, after) {
  try {
    await call(method, `/v1/tournaments/${id}/registration`);
    after();
  } catch (error) {
    flash(explain(error));
  }
}

function registerButton(tournament, registered, after) {
  if (!session() || tournament.status !== 'registering') return null;
  return registered
    ? h('button', { type: 'button', 'data-action': 'withdraw', onClick: () => act('DELETE', tournament.id, after) }, t('tournaments.withdraw'))
    : h('button', { type: 'button', 'data-action': 'register', onClick: () => act('POST', tournament.id, after) }, t('tournaments.register'));
}

async function showList(root) {
  document.title = `${t('tournaments.title')} · hatstand`;
  const sections = {};
  const draw = async (status) => {
    const box = sections[status];
    const list = h('ul', { class: 'tournaments', 'data-status': status });
    const more = h('button', { type: 'button', hidden: true }, t('common.more'));
    let after = null;
    const load = async () => {
      const page = await get(`/v1/tournaments?status=${status}${after ? `&after=${encodeURIComponent(after)}` : ''}`);
      list.append(...page.tournaments.map((x) => h('li', { 'data-tournament': x.id },
        h('a', { href: `#/tournaments/${x.id}` }, x.name), ' · ', rulesetName(x.ruleset), ' · ',
        t('tournaments.registered_count', { n: x.registered, cap: x.player_cap }), ' · ',
        t('tournaments.starts', { when: when(x.schedule[0]?.starts_at) }))));
      after = page.next;
      more.hidden = !after;
      if (!list.children.length) list.replaceWith(h('p', {}, t('tournaments.none')));
    };
    more.addEventListener('click', () => load().catch((e) => flash(explain(e))));
    box.replaceChildren(h('h2', {}, t(`tournaments.list_${status}`)), list, more);
    await load();
  };
  for (const status of ['upcoming', 'running', 'finished']) sections[status] = h('section', {});
  root.append(h('h1', {}, t('tournaments.title')),
    session() ? h('p', {}, h('a', { href: '#/tournaments/new' }, t('tournaments.create'))) : null,
    sections.upcoming, sections.running, sections.finished);
  const redraw = () => Promise.all(Object.keys(sections).map(draw)).catch((e) => flash(explain(e)));
  await redraw();
  return live(redraw);
}

function settingsInWords(x) {
  return t('tournaments.settings', {
    game: rulesetName(x.ruleset), size: x.table_size, format: t(`tournaments.format_${x.format}`),
    rounds: x.schedule.length, cap: x.player_cap,
  }) + (x.duplicate ? ` ${t('tournaments.duplicate_on')}` : '');
}

async function showOne(root, id) {
  const me = session()?.username;
  const draw = async () => {
    const [one, rounds, standings] = await Promise.all([
      get(`/v1/tournaments/${id}`), get(`/v1/tournaments/${id}/rounds`), get(`/v1/tournaments/${id}/standings`)]);
    document.title = `${one.name} · hatstand`;
    const mine = one.entries.some((e) => e.username === me);
    const round = (r) => h('section', { 'data-round': r.round },
      h('h3', {}, t('tournaments.round', { n: r.round + 1 }), ' · ', t(`tournaments.round_${r.status}`)),
      h('p', {}, t('tournaments.round_times', { start: when(r.starts_at), deadline: when(r.deadline) })),
      h('ul', { class: 'tournament-tables' }, r.tables.map((table) => {
        const own = table.players.some((p) => p.username === me);
        const names = table.players.map((p) => p.username).join(', ');
        return h('li', { 'data-table': table.table, class: own ? 'own' : null, 'data-own': own ? '' : null },
          t('tournaments.table', { n: table.table + 1 }), ': ',
          table.game_id ? h('a', { href: `#/games/${table.game_id}` }, names) : names,
          table.points ? ` (${table.points.join(' · ')})` : '');
      }), r.byes.length ? h('li', {}, t('tournaments.byes', { names: r.byes.map((b) => b.username).join(', ') })) : null));
    root.replaceChildren(
      h('h1', {}, one.name),
      h('p', {}, settingsInWords(one)),
      h('p', {}, t(`tournaments.status_${one.status}`)),
      h('p', {}, t('tournaments.window', { opens: when(one.registration_opens), closes: when(one.registration_closes) })),
      h('h2', {}, t('tournaments.field'), ` (${one.entries.length}/${one.player_cap})`),
      h('p', { 'data-field': '' }, one.entries.map((e) => e.username).join(', ') || t('tournaments.none')),
      registerButton(one, mine, draw),
      h('h2', {}, t('tournaments.rounds')),
      ...rounds.rounds.map(round),
      h('h2', {}, t('tournaments.standings')),
      standings.standings.length
        ? h('table', { 'data-standings': '' },
          h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, t('leaderboard.player')),
            h('th', {}, t('tournaments.points')), h('th', {}, t('tournaments.buchholz')))),
          h('tbody', {}, standings.standings.map((s) => h('tr', {}, h('td', {}, String(s.rank)),
            h('td', {}, s.username), h('td', {}, String(s.points)), h('td', {}, String(s.buchholz))))))
        : h('p', { 'data-standings': '' }, t('tournaments.no_standings')),
      h('p', { class: 'hint' }, t('tournaments.commitment'), ' ', h('code', { class: 'tournament-seed' }, one.seed_commitment)),
      one.seed ? h('p', { class: 'hint' }, t('tournaments.seed'), ' ', h('code', { class: 'tournament-seed' }, one.seed)) : null,
      one.seed ? h('p', { class: 'hint' }, h('a', { href: `/v1/tournaments/${one.id}/audit`, download: `tournament-${one.id}.json`,
        'data-tournament-audit': '' }, t('tournaments.audit')), ' ', t('tournaments.audit_hint')) : null);
  };
  await draw();
  return live(() => draw().catch((e) => flash(explain(e))));
}

function field(label, input) {
  return h('label', {}, label, ' ', input);
}

function showNew(root) {
  document.title = `${t('tournaments.create')} · hatstand`;
  const local = (d) => new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
  const hour = 3600000;
  const name = h('input', { name: 'name', required: true, maxlength: 100 });
  const ruleset = h('select', { name: 'ruleset' }, RULESETS.map((r) => h('option', { value: r }, rulesetName(r))));
  const size = h('input', { name: 'table_size', type: 'number', min: 2, max: 6, value: 2 });
  const format = h('select', { name: 'format' }, ['swiss', 'round_robin', 'elimination'].map((f) =>
    h('option', { value: f }, t(`tournaments.format_${f}`))));
  const cap = h('input', { name: 'player_cap', type: 'number', min: 2, max: 1024, value: 8 });
  const opens = h('input', { name: 'registration_opens', type: 'datetime-local', value: local(new Date(Date.now() + 60000)) });
  const closes = h('input', { name: 'registration_closes', type: 'datetime-local', value: local(new Date(Date.now() + 24 * hour)) });
  const duplicate = h('input', { name: 'duplicate', type: 'checkbox' });
  const roundsBox = h('div', {});
  const addRound = () => {
    const n = roundsBox.children.length;
    const start = new Date(Date.now() + (25 + n * 24 * 7) * hour);
    roundsBox.append(h('fieldset', { 'data-round': n }, h('legend', {}, t('tournaments.round', { n: n + 1 })),
      field(t('tournaments.starts_at'), h('input', { type: 'datetime-local', name: `start${n}`, value: local(start) })),
      field(t('tournaments.deadline'), h('input', { type: 'datetime-local', name: `deadline${n}`, value: local(new Date(start.getTime() + 24 * 7 * hour)) }))));
  };
  addRound();
  const iso = (v) => new Date(v).toISOString();
  const form = h('form', {},
    field(t('tournaments.name'), name), field(t('tournaments.ruleset'), ruleset), field(t('tournaments.table_size'), size),
    field(t('tournaments.format'), format), field(t('tournaments.cap'), cap),
    field(t('tournaments.opens'), opens), field(t('tournaments.closes'), closes),
    h('label', { class: 'check' }, duplicate, ' ', t('tournaments.duplicate')),
    roundsBox,
    h('button', { type: 'button', onClick: addRound }, t('tournaments.add_round')),
    h('button', { type: 'submit' }, t('tournaments.create')));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const made = await post('/v1/tournaments', {
        name: name.value, ruleset: ruleset.value, options: {}, table_size: Number(size.value), format: format.value,
        schedule: [...roundsBox.children].map((f) => {
          const [s, d] = f.querySelectorAll('input');
          return { starts_at: iso(s.value), deadline: iso(d.value) };
        }),
        registration_opens: iso(opens.value), registration_closes: iso(closes.value),
        player_cap: Number(cap.value), duplicate: duplicate.checked,
      });
      go(`#/tournaments/${made.id}`);
    } catch (error) {
      flash(explain(error));
    }
  });
  root.append(h('h1', {}, t('tournaments.create')), form);
}

export async function show(root, { id, create }) {
  if (create) return showNew(root);
  if (id) return showOne(root, id);
  return showList(root);
}
