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

/** How long the replay waits for the slider to settle before asking for a version. */
const SETTLE_MS = 120;

export async function show(root, params) {
  return params.id ? showGame(root, params.id) : showUpload(root);
}

/** The audit of game `id`: header, replay, events, verification. */
async function showGame(root, id) {
  const page = h('section', { class: 'audit', 'data-game': id }, h('p', { class: 'muted' }, 'Loading the audit…'));
  root.append(page);
  let doc;
  let game;
  try {
    [doc, game] = await Promise.all([get(`/v1/games/${id}/audit`), get(`/v1/games/${id}`)]);
  } catch (error) {
    page.replaceChildren(h('h1', {}, 'Audit'),
      h('p', { class: 'audit-problem', role: 'alert' }, problemWords(error)),
      h('p', {}, h('a', { href: `#/games/${id}` }, 'Back to the game')));
    return undefined;
  }
  const board = await loadBoard(game.ruleset);
  const people = peopleOf(doc);
  const last = doc.events.length;
  const verdict = h('div', { class: 'verdict', 'aria-live': 'polite' });
  const verifyButton = h('button', { type: 'button', 'data-action': 'verify' }, 'Verify');
  const list = eventList(doc.events, people, board, (seq) => goTo(seq));
  const stage = h('div', { class: 'replay-board', 'aria-live': 'polite' });
  const caption = h('p', { class: 'replay-caption' });
  const detail = h('pre', { class: 'event-json' });
  const slider = h('input', { type: 'range', min: 1, max: last, step: 1, value: last,
    'aria-label': 'Version', class: 'replay-slider' });
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
    caption.replaceChildren(h('strong', {}, `After event ${version} of ${last}`), ` · ${event.type} · `,
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
  const ratings = h('section', { id: 'audit-ratings', 'aria-label': 'Ratings' });
  if (doc.status === 'finished') {
    gameRatings(game, ratings, { order: true })
      .then(() => ratings.prepend(h('h2', {}, 'Ratings')))
      .catch(() => ratings.replaceChildren());
  }
  page.replaceChildren(
    h('div', { class: 'audit-head' },
      h('h1', {}, `Audit · ${rulesetName(doc.ruleset)}`),
      h('span', { class: 'muted' }, `rules ${doc.rules ?? `${doc.ruleset}@1`} · ${people.seats.length} players · `
        + `${doc.status} · ${last} events`)),
    facts(doc, people),
    ratings,
    h('div', { class: 'actions' }, verifyButton,
      h('a', { class: 'button quiet', href: `/v1/games/${id}/audit`, download: `hatstand-audit-${id}.json`,
        'data-action': 'download' }, 'Download audit'),
      h('a', { class: 'button quiet', href: `#/games/${id}` }, 'Back to the game')),
    verdict,
    h('p', { class: 'hint' }, 'Verify checks, here in your browser, that the server signed this record as it stands, '
      + 'that every event is linked to the one before by '
      + 'its hash and that the revealed seed is the one committed to when the game was created. '
      + 'Replaying every move through the rules is what the server\'s own "hatstand verify" adds.'),
    h('div', { class: 'audit-body' },
      h('section', { class: 'replay', 'aria-label': 'Replay' },
        h('div', { class: 'stepper' },
          stepButton('First event', 'first', '«', () => 1),
          stepButton('Previous event', 'prev', '‹', () => version - 1),
          slider,
          stepButton('Next event', 'next', '›', () => version + 1),
          stepButton('Last event', 'last', '»', () => last)),
        h('p', { class: 'hint keys-hint' }, 'Arrow keys step through the events; Home and End jump to the ends.'),
        caption,
        stage,
        h('details', { class: 'event-detail' }, h('summary', {}, 'This event in full'), detail)),
      h('section', { class: 'events', 'aria-label': 'Events' },
        h('h2', {}, `Events (${last})`),
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
    h('p', {}, 'Drop an audit file here, or choose one:'),
    input);
  const check = async (file) => {
    results.replaceChildren(h('p', { class: 'muted' }, `Checking ${file.name}…`));
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
    h('h1', {}, 'Check an audit file'),
    h('p', {}, 'An audit file is the complete record of a finished game: every event with its hash chain and the '
      + 'revealed seed (the "Download audit" link of a game, or the export of your games). The file is read and '
      + 'checked in this browser: nothing is sent anywhere.'),
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
    return [verdictOf({ ok: false, seq: null, reason: `${file.name} is not UTF-8 text, so not an audit document` })];
  }
  const texts = auditTexts(text);
  const checked = [];
  const keys = await serverKeys();
  for (const docText of texts) checked.push([docText, await verifyAudit(docText, signedText(docText) ? keys : null)]);
  const sections = await Promise.all(checked.map(([docText, outcome], k) =>
    documentSection(docText, outcome, texts.length > 1 ? k + 1 : null)));
  if (texts.length === 1) return sections;
  const good = checked.filter(([, outcome]) => outcome.ok).length;
  return [h('p', { class: 'files-summary' }, `${file.name} holds ${texts.length} audit documents: `
    + `${good} verified, ${texts.length - good} not.`), ...sections];
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
    return h('section', { class: 'audit-file' }, line ? h('h2', {}, `Line ${line}`) : null, verdict);
  }
  const people = peopleOf(doc);
  const board = await loadBoard(doc.ruleset);
  const list = eventList(doc.events, people, board, null);
  markBroken(list, outcome);
  const body = [
    facts(doc, people),
    verdict,
    h('details', { class: 'events', open: line === null },
      h('summary', {}, `Events (${doc.events.length})`), list),
  ];
  const title = `${rulesetName(doc.ruleset)} · game ${doc.game_id}`;
  return h('section', { class: 'audit-file', 'data-game': doc.game_id },
    line ? h('h2', {}, `Line ${line}: ${title}`) : h('h2', {}, title), body);
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
  if (state.view === null) return h('p', { class: 'muted' }, 'The game has not started yet: seats are being taken.');
  if (!board) return h('pre', { class: 'view-json' }, JSON.stringify(state.view, null, 1));
  const then = { ...game, version: state.version, status: state.status, to_act: state.to_act, view: state.view,
    legal_commands: [], deadline: null, result: state.status === 'finished' ? game.result : null };
  try {
    return board.render(then, { mySeat: null, names: people.seats, legal: [], send: () => {} });
  } catch (error) {
    return h('p', { class: 'audit-problem' }, `The board cannot draw this version: ${error.message}`);
  }
}

/** Display names from the log: `seats[n]` the player who took seat n, `users` by user id. */
function peopleOf(doc) {
  const created = doc.events[0]?.type === 'game_created' ? doc.events[0].data : {};
  const seats = Array.from({ length: Number(created?.players) || 0 }, (_, seat) => `seat ${seat + 1}`);
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
  if (!actor || (actor.seat == null && actor.user_id == null)) return 'server';
  if (actor.seat != null) {
    const name = people.seats[actor.seat] ?? `seat ${actor.seat + 1}`;
    return actor.user_id ? name : `server for ${name}`;
  }
  return people.users.get(actor.user_id) ?? 'a user';
}

/** A short line for an event: the server's events in words, the engine's as the move and its data. */
function summary(event, people, board) {
  const d = event.data ?? {};
  const seat = (n) => people.seats[n] ?? `seat ${n + 1}`;
  switch (event.type) {
    case 'game_created': return `${d.rules ?? `${d.ruleset}@1`}, ${d.players} players`;
    case 'player_invited': return `${d.username} is invited`;
    case 'player_declined': return `${d.username} declines`;
    case 'player_joined': return `${d.username} takes seat ${d.seat + 1}`;
    case 'game_started': return 'every seat is taken: the game starts';
    case 'game_cancelled': return 'cancelled before it started';
    case 'turn_timed_out': return `${seat(d.seat)} ran out of time`;
    case 'turn_forced': return `${seat(d.seat)} has one move only: the server plays it`;
    case 'turn_takeback_offered': return `${seat(d.seat)} asks to take back their last move`;
    case 'turn_takeback_accepted': return `${seat(d.seat)} agrees to the takeback`;
    case 'turn_takeback_declined': return `${seat(d.seat)} refuses the takeback`;
    case 'turn_taken_back': return `${seat(d.seat)}'s last move is taken back (the state of version ${d.to_version})`;
    case 'seat_vacation': return `${seat(d.seat)} takes a break until ${d.until}`;
    case 'game_pause_proposed': return `${seat(d.seat)} proposes to pause the table${d.until ? ` until ${d.until}` : ''}`;
    case 'game_pause_voted': return `${seat(d.seat)} votes ${d.yes ? 'for' : 'against'} the pause`;
    case 'game_paused': return `the table is paused${d.until ? ` until ${d.until}` : ''}: no clock runs`;
    case 'game_resumed': return d.seat === null ? 'the pause ends: the clocks run again' : `${seat(d.seat)} resumes the table`;
    case 'player_resigned': return `${seat(d.seat)} is out (${d.reason})`;
    case 'game_forfeited': return 'the game ends by forfeit';
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
    h('dt', {}, 'Players'),
    h('dd', {}, people.seats.map((name, seat) => `${seat + 1}. ${name}`).join(' · ') || 'nobody'),
    h('dt', {}, 'Result'),
    h('dd', { 'data-result': '' }, resultWords(doc, people)),
    h('dt', {}, 'Seed commitment'),
    h('dd', {}, h('code', { class: 'hash' }, String(doc.seed_commitment)),
      h('span', { class: 'hint' }, ' published when the game was created')),
    h('dt', {}, 'Seed'),
    h('dd', {}, h('code', { class: 'hash' }, String(doc.seed)),
      h('span', { class: 'hint' }, ' revealed now it is over')),
    saltFacts(doc, people));
}

/** Each seat's salt, for a game whose seats salted the shuffle (none otherwise). */
function saltFacts(doc, people) {
  const joins = (doc.events ?? []).filter((e) => e.type === 'player_joined' && typeof e.data?.salt === 'string');
  if (!joins.length) return null;
  return [
    h('dt', {}, 'Salts'),
    h('dd', { 'data-salts': '' },
      h('ul', { class: 'salts' }, joins.map((e) => h('li', {},
        `${people.seats[e.data.seat] ?? `seat ${e.data.seat + 1}`}: `, h('code', { class: 'hash' }, e.data.salt),
        h('span', { class: 'hint' }, e.data.salt_by_server ? ' made by the server' : ' sent by the player')))),
      h('span', { class: 'hint' }, 'public since each seat sat; the deals come from them and the seed together')),
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
  if (!result) return doc.status === 'abandoned' ? 'abandoned before it started' : 'none';
  const name = (seat) => people.seats[seat] ?? `seat ${seat + 1}`;
  const scores = (result.scores ?? []).map((score, seat) => `${name(seat)} ${score}`).join(' · ');
  const winners = result.winners ?? [];
  const outcome = result.outcome === 'forfeit'
    ? `won by forfeit: ${winners.map(name).join(' and ') || 'nobody'}`
    : winners.length ? `won by ${winners.map(name).join(' and ')}` : (result.outcome ?? 'a draw');
  const tieBreak = result.tie_break ? ` · tie-break: ${String(result.tie_break).replace(/_/g, ' ')}` : '';
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
      `Verified: ${outcome.events} events, hash chain intact, seed matches its commitment`
      + (outcome.dealSeed ? `, deal seed ${outcome.dealSeed.slice(0, 16)}… recomputed from the seed and ${outcome.salts.length} salts` : '')
      + (outcome.signedBy ? `, signed by this server (key ${outcome.signedBy})` : '')
      + (outcome.talk ? `, talk: ${outcome.talk.messages} public messages match their hashes${
        { committed: ', press committed to', revealed: ', press revealed and matching its commitment' }[outcome.talk.press] ?? ''}` : '')
      + (outcome.logged ? `, game ${outcome.logged.index + 1} of ${outcome.logged.size} in its signed transparency log.` : '.'));
  }
  if (outcome.seq === null) {
    return h('p', { class: 'verify broken', 'data-verify': 'broken', role: 'alert' },
      `Not verified: ${outcome.reason}.`);
  }
  return h('p', { class: 'verify broken', 'data-verify': 'broken', 'data-seq': outcome.seq, role: 'alert' },
    `Broken at event ${outcome.seq}: ${outcome.reason.replace(/^event \d+: /, '')}.`,
    goTo ? [' ', h('button', { type: 'button', class: 'quiet', onClick: () => goTo(outcome.seq) },
      `Show event ${outcome.seq}`)] : null);
}

/** Why the audit cannot be shown, in words. */
function problemWords(error) {
  if (error?.code === 'game_not_finished') {
    return 'This game is not over yet. Its audit shows every card, so it is published once the game ends.';
  }
  if (error?.code === 'not_found') return 'There is no game with this id.';
  return explain(error);
}
