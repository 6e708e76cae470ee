// The audit of a finished game, and the check of an audit file.
//
// With a game id: the game's whole record as the server publishes it once
// the game is over (who played, the result, the seed commitment and the
// revealed seed), a replay that steps through the log one event at a time
// (the table as it stood after each event, drawn by the ruleset's board),
// every event in full, and a Verify button that recomputes the hash chain
// and checks the seed in this browser. Without an id: an audit file chosen
// or dropped here is read and checked in the browser alone; nothing is sent.

import { h } from '../dom.js';
import { get } from '../api.js';
import { explain } from '../ui.js';
import { rulesetName } from '../format.js';
import { auditTexts, verifyAudit } from '../audit/verify.js';
import { gameRatings } from '../ratings.js';
import { keptSaltVerdict } from '../salts.js';
import { t } from '../i18n.js';

/** How long the replay waits for the slider to settle before asking for a version. */
const SETTLE_MS = 120;

export async function show(root, params) {
  return params.id ? showGame(root, params.id) : showUpload(root);
}

/** The audit of game `id`: header, replay, events, verification. */
async function showGame(root, id) {
  const page = h('section', { class: 'audit', 'data-game': id }, h('p', { class: 'muted' }, t('audit.loading')));
  root.append(page);
  let doc;
  let game;
  try {
    [doc, game] = await Promise.all([get(`/v1/games/${id}/audit`), get(`/v1/games/${id}`)]);
  } catch (error) {
    page.replaceChildren(h('h1', {}, t('audit.title')),
      h('p', { class: 'audit-problem', role: 'alert' }, problemWords(error)),
      h('p', {}, h('a', { href: `#/games/${id}` }, t('audit.back'))));
    return undefined;
  }
  const board = await loadBoard(game.ruleset);
  const people = peopleOf(doc);
  const last = doc.events.length;
  const verdict = h('div', { class: 'verdict', 'aria-live': 'polite' });
  const verifyButton = h('button', { type: 'button', 'data-action': 'verify' }, t('audit.verify'));
  const list = eventList(doc.events, people, board, (seq) => goTo(seq));
  const stage = h('div', { class: 'replay-board', 'aria-live': 'polite' });
  const caption = h('p', { class: 'replay-caption' });
  const detail = h('pre', { class: 'event-json' });
  const slider = h('input', { type: 'range', min: 1, max: last, step: 1, value: last,
    'aria-label': t('audit.version'), class: 'replay-slider' });
  const stepButton = (label, action, text, to) => h('button', { type: 'button', class: 'quiet', 'data-step': action,
    'aria-label': label, title: label, onClick: () => goTo(to()) }, text);

  const states = new Map();
  const controller = new AbortController();
  let version = last;
  let settle = null;

  /** Shows version `n` (clamped to the log): at once what the log says, the table once the server answers. */
  const goTo = (n) => {
    version = Math.min(last, Math.max(1, n));
    page.dataset.version = version;
    slider.value = version;
    const event = doc.events[version - 1];
    caption.replaceChildren(h('strong', {}, t('audit.after_event', { n: version, last })), ` · ${event.type} · `,
      actorLabel(event.actor, people), ` · ${summary(event, people, board)}`);
    detail.textContent = JSON.stringify({ seq: event.seq, type: event.type, actor: event.actor,
      command: event.command, data: event.data, at: event.at }, null, 1);
    markCurrent(list, version);
    clearTimeout(settle);
    if (states.has(version)) {
      drawState(version);
    } else {
      stage.setAttribute('aria-busy', 'true');
      settle = setTimeout(() => fetchState(version), SETTLE_MS);
    }
  };

  /** Asks the server for the table after `n` events; draws it if the replay still shows `n`. */
  const fetchState = async (n) => {
    try {
      states.set(n, await get(`/v1/games/${id}/state?at=${n}`, { signal: controller.signal }));
      if (version === n) drawState(n);
    } catch (error) {
      if (error.name === 'AbortError' || version !== n) return;
      stage.removeAttribute('aria-busy');
      stage.replaceChildren(h('p', { class: 'audit-problem' }, `Version ${n} cannot be shown: ${explain(error)}`));
    }
  };

  const drawState = (n) => {
    stage.removeAttribute('aria-busy');
    stage.replaceChildren(tableAt(game, states.get(n), people, board));
  };

  const verify = async () => {
    verifyButton.disabled = true;
    verdict.replaceChildren(h('p', { class: 'muted' }, 'Verifying in this browser…'));
    const outcome = await verifyAudit(doc, await serverKeys());
    verifyButton.disabled = false;
    verdict.replaceChildren(verdictOf(outcome, goTo), saltVerdictOf(keptSaltVerdict(id, outcome)));
    markBroken(list, outcome);
  };
  verifyButton.addEventListener('click', verify);

  slider.addEventListener('input', () => goTo(Number(slider.value)));
  const onKey = (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.target.closest?.('input, textarea, select, [contenteditable]')) return;
    const to = { ArrowLeft: version - 1, ArrowRight: version + 1, Home: 1, End: last }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    goTo(to);
  };
  document.addEventListener('keydown', onKey);

  // The game's rating changes and its place in the finish order (docs/ratings.md).
  const ratings = h('section', { id: 'audit-ratings', 'aria-label': t('profile.ratings') });
  if (doc.status === 'finished') {
    gameRatings(game, ratings, { order: true })
      .then(() => ratings.prepend(h('h2', {}, t('profile.ratings'))))
      .catch(() => ratings.replaceChildren());
  }
  page.replaceChildren(
    h('div', { class: 'audit-head' },
      h('h1', {}, `${t('audit.title')} · ${rulesetName(doc.ruleset)}`),
      h('span', { class: 'muted' }, t('audit.head', { rules: doc.rules ?? `${doc.ruleset}@1`, players: people.seats.length,
        status: t(`status.${doc.status}`), n: last }))),
    facts(doc, people),
    ratings,
    h('div', { class: 'actions' }, verifyButton,
      h('a', { class: 'button quiet', href: `/v1/games/${id}/audit`, download: `hatstand-audit-${id}.json`,
        'data-action': 'download' }, t('audit.download')),
      h('a', { class: 'button quiet', href: `#/games/${id}` }, t('audit.back'))),
    verdict,
    h('p', { class: 'hint' }, t('audit.verify_hint')),
    h('div', { class: 'audit-body' },
      h('section', { class: 'replay', 'aria-label': t('audit.replay') },
        h('div', { class: 'stepper' },
          stepButton(t('audit.first'), 'first', '«', () => 1),
          stepButton(t('audit.previous'), 'prev', '‹', () => version - 1),
          slider,
          stepButton(t('audit.next'), 'next', '›', () => version + 1),
          stepButton(t('audit.last'), 'last', '»', () => last)),
        h('p', { class: 'hint keys-hint' }, t('audit.keys')),
        caption,
        stage,
        h('details', { class: 'event-detail' }, h('summary', {}, t('audit.in_full')), detail)),
      h('section', { class: 'events', 'aria-label': t('audit.events') },
        h('h2', {}, t('audit.events_n', { n: last })),
        list)));
  goTo(last);
  return () => {
    document.removeEventListener('keydown', onKey);
    clearTimeout(settle);
    controller.abort();
  };
}

/** The page that checks an audit file in the browser. */
function showUpload(root) {
  const input = h('input', { type: 'file', id: 'audit-file', accept: '.json,.jsonl,.ndjson,application/json' });
  const results = h('div', { class: 'audit-files', 'aria-live': 'polite' });
  const zone = h('div', { class: 'drop-zone', 'data-drop': '' },
    h('p', {}, t('audit.drop')),
    input);
  const check = async (file) => {
    results.replaceChildren(h('p', { class: 'muted' }, t('audit.checking', { file: file.name })));
    results.replaceChildren(...await checkFile(file));
  };
  input.addEventListener('change', () => {
    if (input.files[0]) check(input.files[0]);
  });
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (event) => {
    zone.classList.remove('over');
    const file = event.dataTransfer?.files?.[0];
    if (file) check(file);
  });
  // A file dropped beside the zone would otherwise replace the page.
  const keepPage = (event) => {
    if (event.dataTransfer?.types?.includes('Files')) event.preventDefault();
  };
  window.addEventListener('dragover', keepPage);
  window.addEventListener('drop', keepPage);
  root.append(h('section', { class: 'audit' },
    h('h1', {}, t('audit.check_title')),
    h('p', {}, t('audit.check_intro')),
    zone,
    results));
  return () => {
    window.removeEventListener('dragover', keepPage);
    window.removeEventListener('drop', keepPage);
  };
}

/** What a chosen file holds: each audit document in it, checked and listed. */
async function checkFile(file) {
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(await file.arrayBuffer());
  } catch {
    return [verdictOf({ ok: false, seq: null, reason: t('audit.not_utf8', { file: file.name }) })];
  }
  const texts = auditTexts(text);
  const checked = [];
  const keys = await serverKeys();
  for (const docText of texts) checked.push([docText, await verifyAudit(docText, signedText(docText) ? keys : null)]);
  const sections = await Promise.all(checked.map(([docText, outcome], k) =>
    documentSection(docText, outcome, texts.length > 1 ? k + 1 : null)));
  if (texts.length === 1) return sections;
  const good = checked.filter(([, outcome]) => outcome.ok).length;
  return [h('p', { class: 'files-summary' }, t('audit.file_summary', { file: file.name, n: texts.length, good, bad: texts.length - good })), ...sections];
}

/** One document of a file: what it says, its verdict, its events (line `line` of JSON Lines, else null). */
async function documentSection(text, outcome, line) {
  const verdict = verdictOf(outcome, null);
  let doc = null;
  try {
    doc = JSON.parse(text);
  } catch {
    // The verdict says why it is not JSON.
  }
  const readable = doc && typeof doc === 'object' && Array.isArray(doc.events)
    && doc.events.every((event) => event && typeof event === 'object');
  if (!readable) {
    return h('section', { class: 'audit-file' }, line ? h('h2', {}, t('audit.line', { line })) : null, verdict);
  }
  const people = peopleOf(doc);
  const board = await loadBoard(doc.ruleset);
  const list = eventList(doc.events, people, board, null);
  markBroken(list, outcome);
  const body = [
    facts(doc, people),
    verdict,
    h('details', { class: 'events', open: line === null },
      h('summary', {}, t('audit.events_n', { n: doc.events.length })), list),
  ];
  const title = t('audit.doc_title', { game: rulesetName(doc.ruleset), id: doc.game_id });
  return h('section', { class: 'audit-file', 'data-game': doc.game_id },
    line ? h('h2', {}, t('audit.line_title', { line, title })) : h('h2', {}, title), body);
}

/** The board module of `ruleset`, or null when it cannot be loaded (the replay then shows the view as JSON). */
async function loadBoard(ruleset) {
  try {
    const { boardFor } = await import('../games/index.js');
    return boardFor(ruleset);
  } catch {
    return null;
  }
}

/** The table after a version: the board's drawing of the view then, or words before the game started. */
function tableAt(game, state, people, board) {
  if (state.view === null) return h('p', { class: 'muted' }, t('audit.not_started'));
  if (!board) return h('pre', { class: 'view-json' }, JSON.stringify(state.view, null, 1));
  const then = { ...game, version: state.version, status: state.status, to_act: state.to_act, view: state.view,
    legal_commands: [], deadline: null, result: state.status === 'finished' ? game.result : null };
  try {
    return board.render(then, { mySeat: null, names: people.seats, legal: [], send: () => {} });
  } catch (error) {
    return h('p', { class: 'audit-problem' }, t('audit.cannot_draw', { error: error.message }));
  }
}

/** Display names from the log: `seats[n]` the player who took seat n, `users` by user id. */
function peopleOf(doc) {
  const created = doc.events[0]?.type === 'game_created' ? doc.events[0].data : {};
  const seats = Array.from({ length: Number(created?.players) || 0 }, (_, seat) => t('seat.n', { n: seat + 1 }));
  const users = new Map();
  for (const event of doc.events) {
    const d = event.data;
    if ((event.type === 'player_joined' || event.type === 'player_invited') && d?.user_id) {
      users.set(d.user_id, d.username);
      const seated = event.type === 'player_joined' && Number.isInteger(d.seat) && d.seat < seats.length;
      if (seated) seats[d.seat] = d.username;
    }
  }
  return { seats, users };
}

/** Who caused an event, in words. */
function actorLabel(actor, people) {
  if (!actor || (actor.seat == null && actor.user_id == null)) return t('audit.server');
  if (actor.seat != null) {
    const name = people.seats[actor.seat] ?? t('seat.n', { n: actor.seat + 1 });
    return actor.user_id ? name : t('audit.server_for', { name });
  }
  return people.users.get(actor.user_id) ?? t('audit.a_user');
}

/** A short line for an event: the server's events in words, the engine's as the move and its data. */
function summary(event, people, board) {
  const d = event.data ?? {};
  const seat = (n) => people.seats[n] ?? t('seat.n', { n: n + 1 });
  switch (event.type) {
    case 'game_created': return t('audit.ev.game_created', { rules: d.rules ?? `${d.ruleset}@1`, n: d.players });
    case 'player_invited': return t('audit.ev.player_invited', { name: d.username });
    case 'player_declined': return t('audit.ev.player_declined', { name: d.username });
    case 'player_joined': return t('audit.ev.player_joined', { name: d.username, seat: d.seat + 1 });
    case 'game_started': return t('audit.ev.game_started');
    case 'game_cancelled': return t('audit.ev.game_cancelled');
    case 'turn_timed_out': return t('audit.ev.turn_timed_out', { name: seat(d.seat) });
    case 'turn_forced': return t('audit.ev.turn_forced', { name: seat(d.seat) });
    case 'turn_takeback_offered': return t('audit.ev.turn_takeback_offered', { name: seat(d.seat) });
    case 'turn_takeback_accepted': return t('audit.ev.turn_takeback_accepted', { name: seat(d.seat) });
    case 'turn_takeback_declined': return t('audit.ev.turn_takeback_declined', { name: seat(d.seat) });
    case 'turn_taken_back': return t('audit.ev.turn_taken_back', { name: seat(d.seat), version: d.to_version });
    case 'seat_vacation': return t('audit.ev.seat_vacation', { name: seat(d.seat), until: d.until });
    case 'game_pause_proposed': return t(d.until ? 'audit.ev.pause_proposed_until' : 'audit.ev.pause_proposed', { name: seat(d.seat), until: d.until });
    case 'game_pause_voted': return t(d.yes ? 'audit.ev.pause_voted_yes' : 'audit.ev.pause_voted_no', { name: seat(d.seat) });
    case 'game_paused': return t(d.until ? 'audit.ev.paused_until' : 'audit.ev.paused', { until: d.until });
    case 'game_resumed': return d.seat === null ? t('audit.ev.pause_ended') : t('audit.ev.resumed', { name: seat(d.seat) });
    case 'player_resigned': return t('audit.ev.player_resigned', { name: seat(d.seat), reason: d.reason });
    case 'seat_substituted': return t('audit.ev.seat_substituted', { name: d.username, seat: d.seat + 1 });
    case 'game_forfeited': return t('audit.ev.game_forfeited');
    default: break;
  }
  const data = compact(d);
  if (!event.command) return data;
  return `${board ? board.describe(event.command) : compact(event.command)} → ${data}`;
}

/** JSON on one line, cut at `max` characters. */
function compact(value, max = 90) {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The header's facts: players, result, seed commitment and revealed seed. */
function facts(doc, people) {
  return h('dl', { class: 'audit-facts' },
    h('dt', {}, t('audit.players')),
    h('dd', {}, people.seats.map((name, seat) => `${seat + 1}. ${name}`).join(' · ') || t('profile.nobody')),
    h('dt', {}, t('audit.result')),
    h('dd', { 'data-result': '' }, resultWords(doc, people)),
    h('dt', {}, t('audit.seed_commitment')),
    h('dd', {}, h('code', { class: 'hash' }, String(doc.seed_commitment)),
      h('span', { class: 'hint' }, ` ${t('audit.published')}`)),
    h('dt', {}, t('audit.seed')),
    h('dd', {}, h('code', { class: 'hash' }, String(doc.seed)),
      h('span', { class: 'hint' }, ` ${t('audit.revealed')}`)),
    saltFacts(doc, people));
}

/** Each seat's salt, for a game whose seats salted the shuffle (none otherwise). */
function saltFacts(doc, people) {
  const joins = (doc.events ?? []).filter((e) => e.type === 'player_joined' && typeof e.data?.salt === 'string');
  if (!joins.length) return null;
  return [
    h('dt', {}, t('audit.salts')),
    h('dd', { 'data-salts': '' },
      h('ul', { class: 'salts' }, joins.map((e) => h('li', {},
        `${people.seats[e.data.seat] ?? t('seat.n', { n: e.data.seat + 1 })}${t('common.colon')}`, h('code', { class: 'hash' }, e.data.salt),
        h('span', { class: 'hint' }, ` ${e.data.salt_by_server ? t('audit.salt_server') : t('audit.salt_player')}`)))),
      h('span', { class: 'hint' }, t('audit.salts_hint'))),
  ];
}

/** What the check says of the salt this browser kept for the game, if it kept one. */
function saltVerdictOf(verdict) {
  if (!verdict) return null;
  return h('p', { class: `verify ${verdict.ok ? 'ok' : 'broken'}`, 'data-kept-salt': verdict.ok ? 'in' : 'missing',
    role: verdict.ok ? 'status' : 'alert' }, verdict.words);
}

function resultWords(doc, people) {
  const result = doc.result;
  if (!result) return doc.status === 'abandoned' ? t('audit.abandoned_before') : t('new.none');
  const name = (seat) => people.seats[seat] ?? t('seat.n', { n: seat + 1 });
  const and = (seats) => seats.map(name).reduce((list, next, k, all) =>
    (k === 0 ? next : k === all.length - 1 ? t('board.and_list', { first: list, last: next }) : `${list}, ${next}`), '');
  const scores = (result.scores ?? []).map((score, seat) => `${name(seat)} ${score}`).join(' · ');
  const winners = result.winners ?? [];
  const outcome = result.outcome === 'forfeit'
    ? t('audit.won_forfeit', { names: and(winners) || t('profile.nobody') })
    : winners.length ? t('audit.won_by', { names: and(winners) }) : (result.outcome ?? t('audit.draw'));
  const tieBreak = result.tie_break ? ` · ${t('audit.tie_break', { how: String(result.tie_break).replace(/_/g, ' ') })}` : '';
  return `${outcome}${scores ? ` (${scores})` : ''}${tieBreak}`;
}

/**
 * The log as a list: seq, type, actor and a short line per event. With
 * `onPick`, each row is a button that steps the replay to that event.
 */
function eventList(events, people, board, onPick) {
  return h('ol', { class: 'event-list' }, events.map((event, k) => {
    const seq = k + 1;
    const parts = [
      h('span', { class: 'seq' }, String(event.seq)),
      h('span', { class: 'type' }, String(event.type)),
      h('span', { class: 'actor' }, actorLabel(event.actor, people)),
      h('span', { class: 'short' }, summary(event, people, board)),
    ];
    return h('li', { 'data-seq': seq },
      onPick
        ? h('button', { type: 'button', class: 'event-row', 'aria-label': `Show the table after event ${seq}`,
          onClick: () => onPick(seq) }, parts)
        : h('div', { class: 'event-row' }, parts));
  }));
}

/** Marks the row of version `seq` as the current one and scrolls the list (not the page) to it. */
function markCurrent(list, seq) {
  for (const row of list.querySelectorAll('[aria-current]')) row.removeAttribute('aria-current');
  const row = list.querySelector(`li[data-seq="${seq}"]`);
  if (!row) return;
  row.setAttribute('aria-current', 'step');
  if (row.offsetTop < list.scrollTop) list.scrollTop = row.offsetTop;
  else if (row.offsetTop + row.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = row.offsetTop + row.offsetHeight - list.clientHeight;
  }
}

/**
 * This server's public keys (`/.well-known/hatstand-keys.json`), or null
 * when they cannot be read (the signature is then not checked).
 */
async function serverKeys() {
  try {
    return await get('/.well-known/hatstand-keys.json');
  } catch {
    return null;
  }
}

/** Whether a document's text carries a signature (older documents do not). */
function signedText(text) {
  return /"signature"\s*:/.test(text);
}

/** Marks the row where the chain breaks, if the verdict names one. */
function markBroken(list, outcome) {
  for (const row of list.querySelectorAll('.broken')) row.classList.remove('broken');
  if (!outcome.ok && outcome.seq !== null) list.querySelector(`li[data-seq="${outcome.seq}"]`)?.classList.add('broken');
}

/** The verdict in words: green when verified, red with the first broken event (a link to it when `goTo` is given). */
function verdictOf(outcome, goTo) {
  if (outcome.ok) {
    return h('p', { class: 'verify ok', 'data-verify': 'ok', role: 'status' },
      t('audit.verified', { n: outcome.events })
      + (outcome.dealSeed ? t('audit.verified_deal_seed', { seed: outcome.dealSeed.slice(0, 16), salts: outcome.salts.length }) : '')
      + (outcome.signedBy ? t('audit.verified_signed', { key: outcome.signedBy }) : '')
      + (outcome.talk ? `${t('audit.verified_talk', { n: outcome.talk.messages })}${
        { committed: t('audit.press_committed'), revealed: t('audit.press_revealed') }[outcome.talk.press] ?? ''}` : '')
      + (outcome.logged ? t('audit.verified_logged', { index: outcome.logged.index + 1, size: outcome.logged.size }) : '.'));
  }
  if (outcome.seq === null) {
    return h('p', { class: 'verify broken', 'data-verify': 'broken', role: 'alert' },
      t('audit.not_verified', { reason: outcome.reason }));
  }
  return h('p', { class: 'verify broken', 'data-verify': 'broken', 'data-seq': outcome.seq, role: 'alert' },
    t('audit.broken_at', { seq: outcome.seq, reason: outcome.reason.replace(/^event \d+: /, '') }),
    goTo ? [' ', h('button', { type: 'button', class: 'quiet', onClick: () => goTo(outcome.seq) },
      t('audit.show_event', { seq: outcome.seq }))] : null);
}

/** Why the audit cannot be shown, in words. */
function problemWords(error) {
  if (error?.code === 'game_not_finished') {
    return t('audit.not_over');
  }
  if (error?.code === 'not_found') return t('audit.no_game');
  return explain(error);
}
