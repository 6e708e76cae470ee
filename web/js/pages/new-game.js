// A new game: the ruleset, the number of seats, who fills them (you, people
// you invite, anyone, or built-in bots), the turn clock and the ruleset's
// own options, drawn from the option schema `/v1/rulesets` publishes.

import { h } from '../dom.js';
import { keepSalt, makeSalt } from '../salts.js';
import { get, post, session } from '../api.js';
import { explain, flash, go } from '../ui.js';
import { requireSignIn } from './signin.js';
import { botLevels } from '../bot-levels.js';
import { known, t } from '../i18n.js';

const CLOCKS = () => [['', t('new.clock.none')], ['PT1H', t('new.clock.hour')], ['PT24H', t('new.clock.day')], ['P3D', t('new.clock.three_days')]];
const SEAT_KINDS = () => [['human', t('new.seat.person')], ...botLevels().map(([id, name]) => [id, t('new.seat.bot', { name })])];
/** Who may watch a game (its `spectators` option). */
const WATCHERS = () => [
  ['public', t('new.watch.public')],
  ['link', t('new.watch.link')],
  ['players', t('new.watch.players')],
];
/** Options that name a seat (counted from 0 by the API). */
const SEAT_NUMBERS = new Set(['first_seat']);
/** Options the form asks for elsewhere, or that take more than a field. */
const NOT_FIELDS = new Set(['seed', 'deals', 'spectators', 'turn_timeout', 'on_timeout', 'autoplay_level', 'max_vacation', 'abandon_after']);

export async function show(root) {
  if (!session()) return requireSignIn('#/new');
  const rulesets = await get('/v1/rulesets');
  const ruleset = h('select', { id: 'ruleset', name: 'ruleset' },
    rulesets.map((r) => h('option', { value: r.id }, r.name)));
  const players = h('input', { type: 'number', id: 'players', name: 'players', required: true });
  const seatsBox = h('div', { id: 'seat-kinds' });
  const optionsBox = h('div', { id: 'ruleset-options' });
  const clock = h('select', { id: 'turn-timeout', name: 'turn_timeout' }, CLOCKS().map(([v, text]) => h('option', { value: v }, text)));
  const priv = h('input', { type: 'checkbox', id: 'private', name: 'private' });
  const watchers = h('select', { id: 'spectators', name: 'spectators' },
    WATCHERS().map(([v, text]) => h('option', { value: v }, text)));
  // A private table is watched by its players unless the creator says otherwise.
  priv.addEventListener('change', () => {
    watchers.value = priv.checked ? 'players' : 'public';
  });
  const invitees = h('input', { type: 'text', id: 'invitees', name: 'invitees', autocapitalize: 'off', placeholder: t('new.invitees_placeholder') });
  const advanced = h('textarea', { id: 'options-json', name: 'options', spellcheck: 'false', placeholder: '{"rounds": 1}' });
  const submit = h('button', { type: 'submit' }, t('new.create'));
  const rulesLink = h('a', { id: 'rules-link', 'data-action': 'rules' });

  const chosen = () => rulesets.find((r) => r.id === ruleset.value);
  const drawSeats = () => {
    const count = Number(players.value) || 0;
    seatsBox.replaceChildren(...Array.from({ length: Math.max(0, count - 1) }, (_, i) =>
      h('div', {},
        h('label', { for: `seat-${i + 1}` }, t('new.seat', { n: i + 2 })),
        h('select', { id: `seat-${i + 1}`, name: 'seat-kind' }, SEAT_KINDS().map(([v, text]) => h('option', { value: v }, text))))));
  };
  const drawRuleset = () => {
    const r = chosen();
    players.min = r.min_players;
    players.max = r.max_players;
    players.value = r.min_players;
    drawSeats();
    optionsBox.replaceChildren(...optionFields(r));
    rulesLink.href = `#/rules/${r.id}`;
    rulesLink.textContent = t('new.how_to_play', { game: r.name });
  };
  ruleset.addEventListener('change', drawRuleset);
  players.addEventListener('input', drawSeats);

  const form = h('form', { class: 'panel', id: 'new-game' },
    h('label', { for: 'ruleset' }, t('new.game')), ruleset,
    h('p', { class: 'hint' }, rulesLink),
    h('label', { for: 'players' }, t('new.players')), players,
    h('p', { class: 'hint' }, t('new.seats_hint')),
    seatsBox,
    h('p', { class: 'hint' }, t('new.bots_hint'), ' ', h('a', { href: '#/bots' }, t('new.bots_link'))),
    optionsBox,
    h('label', { for: 'turn-timeout' }, t('new.turn_clock')), clock,
    h('label', { class: 'check' }, priv, t('new.private')),
    h('label', { for: 'spectators' }, t('new.who_watches')), watchers,
    h('label', { for: 'invitees' }, t('new.invite')), invitees,
    h('details', {}, h('summary', {}, t('new.more_options')),
      h('p', { class: 'hint' }, t('new.more_options_hint')), advanced),
    h('div', { class: 'actions' }, submit));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    let options;
    try {
      options = { ...fieldValues(optionsBox), ...(advanced.value.trim() ? JSON.parse(advanced.value) : {}) };
    } catch {
      flash(t('new.bad_json'));
      return;
    }
    if (clock.value) options.turn_timeout = clock.value;
    options.spectators = watchers.value;
    const bots = [...seatsBox.querySelectorAll('select')].map((s) => s.value).filter((v) => v !== 'human');
    const people = invitees.value.split(/[\s,]+/).filter(Boolean);
    // The creator's part of the shuffle, in rules that take one (a public
    // seed takes none): made here, and kept with the commitment the game
    // shows (the server had drawn its seed before it saw the salt).
    const salted = chosen().rules_versions?.[0]?.salted === true && options.seed === undefined;
    const salt = salted ? makeSalt() : undefined;
    submit.disabled = true;
    try {
      const game = await post('/v1/games', {
        ruleset: ruleset.value, players: Number(players.value), options, private: priv.checked, invitees: people, bots,
        salt,
      });
      if (salt) keepSalt(game.id, salt, game.seed_commitment);
      go(`#/games/${game.id}`);
    } catch (error) {
      flash(explain(error));
      submit.disabled = false;
    }
  });
  root.append(h('h1', {}, t('new.title')), form);
  drawRuleset();
}

/** A field per simple option of the ruleset's schema (number, yes/no, choice). */
function optionFields(ruleset) {
  const props = ruleset.options?.properties || {};
  const fields = [];
  for (const [name, schema] of Object.entries(props)) {
    if (NOT_FIELDS.has(name)) continue;
    const id = `opt-${name}`;
    const value = ruleset.defaults?.[name] ?? schema.default ?? null;
    const types = [].concat(schema.type || []);
    // The option's name and the first line of its schema's description,
    // unless the page has words of its own for it in its language.
    const words = name.replace(/_/g, ' ');
    const label = h('label', { for: id }, known(`option.${name}`) ? t(`option.${name}`) : words[0].toUpperCase() + words.slice(1));
    const described = known(`option.${name}.hint`) ? t(`option.${name}.hint`) : schema.description?.split('\n')[0];
    const hint = described ? h('p', { class: 'hint' }, described) : null;
    const common = { id, 'data-option': name, 'data-default': JSON.stringify(value) };
    let input;
    if (schema.enum) {
      input = h('select', { ...common, 'data-kind': 'enum' }, schema.enum.map((v) =>
        h('option', { value: JSON.stringify(v), selected: v === value }, v === null ? t('new.none') : known(`option_value.${v}`) ? t(`option_value.${v}`) : String(v).replace(/_/g, ' '))));
    } else if (types.includes('boolean')) {
      input = h('input', { ...common, type: 'checkbox', 'data-kind': 'boolean', checked: value === true });
    } else if (types.includes('integer') && SEAT_NUMBERS.has(name)) {
      // A seat: shown from 1 as the page numbers seats, sent from 0 as the API does.
      const shown = (n) => (n === null || n === undefined ? n : n + 1);
      input = h('input', { ...common, type: 'number', 'data-kind': 'seat', value: shown(value) ?? '',
        min: shown(schema.minimum ?? 0), max: shown(schema.maximum), placeholder: value === null ? t('new.default') : null });
    } else if (types.includes('integer')) {
      input = h('input', { ...common, type: 'number', 'data-kind': 'integer', value: value ?? '',
        min: schema.minimum, max: schema.maximum, placeholder: value === null ? t('new.default') : null });
    } else {
      continue;
    }
    fields.push(label, input, hint);
  }
  return fields;
}

/** The options the fields hold that differ from the defaults (the server fills those in). */
function fieldValues(box) {
  const options = {};
  for (const input of box.querySelectorAll('[data-option]')) {
    let value;
    if (input.dataset.kind === 'boolean') value = input.checked;
    else if (input.dataset.kind === 'integer') value = input.value === '' ? null : Number(input.value);
    else if (input.dataset.kind === 'seat') value = input.value === '' ? null : Number(input.value) - 1;
    else value = JSON.parse(input.value);
    if (JSON.stringify(value) !== input.dataset.default) options[input.dataset.option] = value;
  }
  return options;
}
