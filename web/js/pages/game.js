// One game: the table drawn by its ruleset's board, whose turn it is and
// the clock, the viewer's moves, and what to do before and after (join,
// invite, add a bot, resign, the result and its audit). It follows the
// game's event stream, so every move shows as it is made, for players and
// spectators alike.

import { h } from '../dom.js';
import { follow, get, post, sendCommand, session } from '../api.js';
import { alertToast, clearAlerts, explain, flash } from '../ui.js';
import { preferences } from '../device.js';
import { rulesetName, seatNames, timeLeft, when } from '../format.js';
import { gameRatings, playerLink } from '../ratings.js';
import { boardFor } from '../games/index.js';
import { requireSignIn } from './signin.js';
import { botLevels } from '../bot-levels.js';
import { talkPanel } from '../talk.js';
import { takebackPanel } from '../takeback.js';
import { conditionalPanel } from '../conditional.js';
import { keepSalt, makeSalt } from '../salts.js';
import { keep, recall, staleNote, unreachable } from '../offline.js';
import { t } from '../i18n.js';

export async function show(root, { id, code }) {
  const page = h('section', { id: 'game' });
  root.append(page);
  // The invite code lets its holder see a private table before joining it.
  const path = code ? `/v1/games/${id}?code=${encodeURIComponent(code)}` : `/v1/games/${id}`;
  // The game and its story together, so the page is drawn once, whole
  // (nothing shifts when the story arrives).
  // Offline, the game as this account last saw it, marked stale until the
  // network returns (docs/phones.md).
  let stale = null;
  const [first, told] = await Promise.all([get(path), get(`/v1/games/${id}/log`).catch((error) => {
    if (error.name === 'AbortError') throw error;
    return null;
  })]).catch((error) => {
    const kept = unreachable(error) && !code ? recall(`game:${id}`) : null;
    if (!kept) throw error;
    stale = kept.at;
    return [kept.data.game, kept.data.story];
  });
  let game = first;
  const board = boardFor(game.ruleset);
  let busy = false;
  // Vacant seats this page offered, seat → username (docs/seats.md).
  const offers = new Map();
  let stream = 'connecting…';
  // Table talk (docs/talk.md): one panel kept across redraws.
  const talk = talkPanel(id);
  // Takebacks and conditional lines (docs/turn-conveniences.md): panels
  // kept across redraws, read again as the game moves.
  const takeback = takebackPanel(id, () => reload());
  const conditional = conditionalPanel(id, board);

  const reload = async () => {
    try {
      const fresh = await get(game.my_seat === null || game.my_seat === undefined ? path : `/v1/games/${id}`);
      if (stale) {
        stale = null;
        game = fresh;
        draw();
        tell();
      } else if (fresh.version !== game.version || fresh.status !== game.status || fresh.seats.length !== game.seats.length
        || JSON.stringify(fresh.to_act) !== JSON.stringify(game.to_act)
        || JSON.stringify(fresh.rematch) !== JSON.stringify(game.rematch)) {
        game = fresh;
        draw();
        tell();
      }
    } catch (error) {
      // Signed out or in as someone else meanwhile: the page is redrawn.
      if (error.name !== 'AbortError') flash(explain(error));
    }
  };

  // Rematch (docs/ratings.md): an offer or an answer, then the game again
  // (the offer is part of the finished game as `get_game` gives it).
  const rematchAct = async (label, url) => {
    if (busy) return;
    busy = true;
    page.classList.add('sending');
    try {
      if (url) await post(url);
      game = await get(`/v1/games/${id}`);
      refusal = null;
      clearAlerts();
    } catch (error) {
      if (error.name === 'AbortError') return;
      refusal = `${label}: ${explain(error)}`;
      alertToast(refusal);
    } finally {
      busy = false;
      page.classList.remove('sending');
    }
    draw();
  };

  // The last refusal, shown beside the board until the next action.
  let refusal = null;
  const act = async (label, request, offlineLabel = label) => {
    if (busy) return;
    busy = true;
    page.classList.add('sending');
    try {
      const answer = await request();
      const joined = (game.my_seat === null || game.my_seat === undefined) && (answer.game ?? answer).my_seat != null;
      game = answer.game ?? answer;
      if (joined) window.dispatchEvent(new CustomEvent('hatstand:joined', { detail: id }));
      flash('');
      refusal = null;
      clearAlerts();
      window.dispatchEvent(new CustomEvent('hatstand:moved'));
      draw();
      tell();
    } catch (error) {
      if (error.name === 'AbortError') return;
      // Offline: said at once, and nothing is kept to be sent later.
      refusal = unreachable(error)
        ? t('offline.not_sent', { what: offlineLabel })
        : `${label}: ${explain(error)}`;
      alertToast(refusal);
      await reload();
      draw();
      page.querySelector('#move-error')?.scrollIntoView({ block: 'nearest' });
    } finally {
      busy = false;
      page.classList.remove('sending');
    }
  };

  const send = (command) => {
    // A player who chose it (#/settings) confirms each move before it goes.
    if (preferences().confirmMoves && !confirm(t('game.confirm_move', { move: board.describe(command) }))) return undefined;
    return act(t('game.move_not_accepted', { move: board.describe(command) }), () => sendCommand(id, game.version, command),
      t('game.move_not_sent', { move: board.describe(command) }));
  };

  // The game's story in words (GET /v1/games/{id}/log): the last moves
  // and the move log, told as this viewer may know them.
  let story = told;
  const tell = async () => {
    try {
      const fresh = await get(`/v1/games/${id}/log`);
      if (!story || fresh.version !== story.version) {
        story = fresh;
        drawStory();
      }
    } catch (error) {
      // A table seen with its invite code before joining has no log yet.
      if (error.name !== 'AbortError' && error.status !== 404) flash(explain(error));
    }
  };

  // The story's two places, redrawn alone when it arrives (the rest of the
  // page, its controls included, stays as it is).
  const storyNow = () => (story && story.version === game.version ? lastMoves(game, story) : null);
  const storyLog = () => (story && story.lines.length ? moveLog(story) : null);
  const drawStory = () => {
    page.dataset.myLastMove = story?.my_last_move ?? '';
    const wasOpen = page.querySelector('#move-log')?.open;
    page.querySelector('#story-now')?.replaceChildren(...[storyNow()].filter(Boolean));
    page.querySelector('#story-log')?.replaceChildren(...[storyLog()].filter(Boolean));
    if (wasOpen) page.querySelector('#move-log')?.setAttribute('open', '');
  };

  const draw = () => {
    const logOpen = page.querySelector('#move-log')?.open;
    const focused = document.activeElement;
    const refocus = focused?.dataset?.cmd ?? focused?.dataset?.select;
    const talking = talk.el.contains(focused) ? focused : null;
    const names = seatNames(game);
    const ctx = { mySeat: game.my_seat ?? null, names, legal: game.legal_commands, send };
    page.dataset.version = game.version;
    page.dataset.status = game.status;
    page.dataset.mySeat = game.my_seat ?? '';
    page.dataset.toAct = game.to_act.join(',');
    // What the move log was told at (read by the browser check).
    page.dataset.myLastMove = story?.my_last_move ?? '';
    // Kept for offline use: this account's own answers (js/offline.js).
    if (!stale && !code) keep(`game:${id}`, { game, story: story?.version === game.version ? story : null });
    page.replaceChildren(...[
      stale ? staleNote(stale) : null,
      h('div', { class: 'game-head' },
        h('h1', {}, `${rulesetName(game.ruleset)}`),
        h('span', { class: 'muted', id: 'counters' }, [t('list.players', { n: game.players }), counted(game.counters), t('game.rules', { rules: game.rules })]
          .filter(Boolean).join(' · ')),
        h('span', { class: 'tag', 'data-rated': String(game.rated) }, game.rated ? t('list.rated') : t('list.casual')),
        h('span', { class: `live${stream === 'live' ? ' on' : ''}`, id: 'live' }, stream === 'connecting…' ? t('inbox.connecting') : t(`live.${stream}`)),
        h('a', { class: 'rules-link', href: `#/rules/${game.ruleset}`, 'data-action': 'rules' },
          t('game.how_to_play', { game: rulesetName(game.ruleset) }))),
      seatList(game, names),
      game.rematch_of ? h('p', { class: 'hint', 'data-rematch-of': game.rematch_of },
        t('game.rematch_prefix'), h('a', { href: `#/games/${game.rematch_of}` }, t('game.previous_game')), '.') : null,
      statusLine(game, names),
      takeback.el,
      pausePanel(game, names, act),
      refusal ? h('p', { class: 'move-error', id: 'move-error', role: 'alert' }, refusal) : null,
      h('div', { id: 'story-now' }, storyNow()),
      game.status === 'open' ? openTable(game, code, act) : null,
      game.status === 'active' ? vacantSeats(game, code, act, names) : null,
      game.status === 'active' ? seatsToOffer(game, act, names, offers) : null,
      game.view ? h('div', { id: 'board' }, h('h2', { class: 'sr-only' }, t('game.table')), board.render(game, ctx)) : null,
      game.legal_commands.length ? movesList(game, board, send) : null,
      conditional.el,
      h('div', { id: 'story-log' }, storyLog()),
      talk.el,
      game.result || ['finished', 'abandoned'].includes(game.status) ? resultPanel(game, names) : null,
      game.status === 'finished' ? rematchPanel(game, names, rematchAct) : null,
      footer(game, act)].filter(Boolean));
    if (logOpen) page.querySelector('#move-log')?.setAttribute('open', '');
    talk.update(game, names);
    takeback.update(game, names);
    conditional.update(game, names);
    talking?.focus();
    if (refocus) {
      const again = [...page.querySelectorAll('[data-cmd],[data-select]')]
        .find((el) => (el.dataset.cmd ?? el.dataset.select) === refocus);
      (again || page.querySelector('#board [data-cmd], #board [data-select]'))?.focus();
    }
  };
  draw();
  if (!story) tell();

  let pending = null;
  const reloadSoon = () => {
    clearTimeout(pending);
    pending = setTimeout(reload, 150);
  };
  const startStream = () => follow(`/v1/games/${id}/stream?after=${game.version}`, reloadSoon, {
    onState: (state) => {
      stream = state;
      const live = page.querySelector('#live');
      if (!live) return;
      live.classList.toggle('on', state === 'live');
      live.textContent = t(`live.${state}`);
      if (state === 'live' && stale) reload();
    },
  });
  let stopStream = startStream();
  // A private table seen with its invite code is followed once joined (its
  // stream is its players' alone).
  const onJoined = (event) => {
    if (event.detail !== id) return;
    stopStream();
    stopStream = startStream();
  };
  window.addEventListener('hatstand:joined', onJoined);
  // Every countdown (the game's and each seat's) ticks here, in the
  // viewer's own clock; a paused table shows none.
  const clock = setInterval(() => {
    for (const el of page.querySelectorAll('[data-deadline]')) {
      el.textContent = timeLeft(el.dataset.deadline);
      el.classList.toggle('low', Date.parse(el.dataset.deadline) - Date.now() < 3_600_000);
    }
  }, 1000);
  return () => {
    window.removeEventListener('hatstand:joined', onJoined);
    talk.stop();
    stopStream();
    clearInterval(clock);
    clearTimeout(pending);
  };
}

/** "turn 4", "round 2 of 15 · trick 3", "deal 1 of 2 · trick 5": the counters players count. */
export function counted(counters) {
  if (!counters) return '';
  const parts = [];
  if (counters.round) parts.push(counters.rounds ? t('counters.round_of', counters) : t('counters.round', counters));
  if (counters.trick) parts.push(t('counters.trick', counters));
  if (counters.turn) parts.push(t('counters.turn', counters));
  return parts.join(' · ');
}

/** What happened since the viewer's last move (a spectator: the last few
 * things), in the words of the log. */
function lastMoves(game, story) {
  const since = story.my_last_move;
  const lines = since === null || since === undefined
    ? story.lines.slice(-3)
    : story.lines.filter((line) => line.seq > since);
  if (!lines.length) return null;
  return h('div', { class: 'last-moves', id: 'last-moves', 'aria-live': 'polite' },
    h('h2', { class: 'small' }, since === null || since === undefined ? t('game.last_moves') : t('game.since_last_move')),
    h('ul', {}, lines.map((line) => h('li', { 'data-seq': line.seq }, line.text))));
}

/** The whole game so far, in words, newest last. */
function moveLog(story) {
  return h('details', { class: 'move-log', id: 'move-log', 'data-version': story.version },
    h('summary', {}, t('game.move_log', { n: story.lines.length })),
    h('ol', {}, story.lines.map((line) => h('li', { 'data-seq': line.seq }, line.text))));
}

function seatList(game, names) {
  return h('ul', { class: 'seats', 'aria-label': t('game.players') },
    names.map((name, seat) => {
      const taken = game.seats.find((s) => s.seat === seat);
      const waiting = game.status === 'active' && game.to_act.includes(seat);
      return h('li', { class: [waiting ? 'to-act' : '', seat === game.my_seat ? 'me' : ''].join(' ').trim() || null,
        'data-seat': seat },
      `${seat + 1}. `, taken ? playerLink(name) : h('em', {}, t('game.free')),
      taken?.bot ? h('span', { class: 'tag bot' }, t('game.bot')) : null,
      seat === game.my_seat ? t('game.you') : null,
      waiting ? h('span', { class: 'tag turn' }, t('game.to_play')) : null,
      seatClock(game, seat));
    }));
}

/** A seat's own clock (games with `clocks`, docs/clocks.md): a countdown
 * to its deadline while it runs, else the time it has (a bank, or frozen
 * while the table is paused). */
function seatClock(game, seat) {
  const clock = (game.clocks || []).find((c) => c.seat === seat);
  if (!clock || game.status !== 'active') return null;
  if (clock.running && clock.deadline && !game.pause?.paused_since) {
    return h('span', { class: 'clock seat-clock', 'data-deadline': clock.deadline, title: when(clock.deadline) },
      timeLeft(clock.deadline));
  }
  const ms = clock.running ? clock.remaining_ms : clock.bank_ms;
  if (ms === null || ms === undefined) return null;
  const frozen = new Date(Date.now() + ms).toISOString();
  return h('span', { class: 'clock seat-clock still', 'data-still': '' }, timeLeft(frozen));
}

/** The table's pause (docs/clocks.md): who proposed it and whose vote is
 * awaited, the vote buttons, and the resume button while paused. */
function pausePanel(game, names, act) {
  const seated = game.my_seat !== null && game.my_seat !== undefined;
  const out = game.seats.find((s) => s.seat === game.my_seat)?.resigned;
  if (game.status !== 'active' || game.options?.pauses === false) return null;
  const pause = game.pause;
  const path = `/v1/games/${game.id}`;
  const parts = [];
  if (pause?.proposal) {
    const p = pause.proposal;
    parts.push(h('p', {}, p.until
      ? t('game.pause_proposed_until', { name: names[p.by], when: when(p.until) })
      : t('game.pause_proposed', { name: names[p.by] }),
    p.waiting.length ? ` · ${t('game.pause_waiting', { names: p.waiting.map((s) => names[s]).join(', ') })}` : ''));
    if (seated && !out && p.waiting.includes(game.my_seat)) {
      parts.push(h('div', { class: 'actions' },
        h('button', { type: 'button', 'data-action': 'pause-yes',
          onClick: () => act(t('game.cannot_pause'), () => post(`${path}/pause/vote`, { yes: true })) }, t('game.pause_yes')),
        h('button', { type: 'button', class: 'quiet', 'data-action': 'pause-no',
          onClick: () => act(t('game.cannot_pause'), () => post(`${path}/pause/vote`, { yes: false })) }, t('game.pause_no'))));
    }
  } else if (pause?.paused_since) {
    if (seated && !out) {
      parts.push(h('div', { class: 'actions' },
        h('button', { type: 'button', 'data-action': 'resume',
          onClick: () => act(t('game.cannot_pause'), () => post(`${path}/resume`)) }, t('game.pause_resume'))));
    }
  } else if (seated && !out) {
    parts.push(h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'quiet', 'data-action': 'pause-propose',
        onClick: () => act(t('game.cannot_pause'), () => post(`${path}/pause`, {})) }, t('game.pause_propose'))));
  }
  return parts.length ? h('div', { class: 'pause', id: 'pause' }, parts) : null;
}

function statusLine(game, names) {
  if (game.status === 'open') {
    const free = game.players - game.seats.length;
    return h('p', { class: 'status-line' }, t('game.waiting_more', { n: free }));
  }
  if (game.status !== 'active') {
    return h('p', { class: 'status-line', 'data-over': game.status }, overLine(game, names));
  }
  const me = game.seats.find((s) => s.seat === game.my_seat);
  if (me?.resigned) {
    // The server plays a seat that is out, so the game goes on for the others.
    return h('p', { class: 'status-line', 'data-resigned': '' },
      t('game.resigned'));
  }
  if (game.pause?.paused_since) {
    // No clock runs: the banner says until when, in the viewer's zone.
    return h('p', { class: 'status-line paused', role: 'status', 'data-paused': '' },
      game.pause.until ? t('game.paused_until', { when: when(game.pause.until) }) : t('game.paused'));
  }
  const mine = game.my_seat !== null && game.my_seat !== undefined && game.to_act.includes(game.my_seat);
  const who = mine ? t('game.your_turn') : t('game.waiting_for', { names: game.to_act.map((s) => names[s]).join(', ') });
  return h('p', { class: `status-line${mine ? ' yours' : ''}`, role: 'status' }, who,
    game.deadline ? [' · ', h('span', { class: 'clock', 'data-deadline': game.deadline, title: when(game.deadline) },
      timeLeft(game.deadline)), t('game.left')] : null);
}

/** The one line that says the game is over: for a player, won, lost or
 * drawn, with the score; for anyone else, who won. */
export function overLine(game, names) {
  if (game.status === 'abandoned') return t('over.abandoned');
  const result = game.result || {};
  const winners = result.winners || [];
  const seated = game.my_seat !== null && game.my_seat !== undefined;
  const scores = result.scores || [];
  const score = seated && scores.length === game.players && game.players > 1 ? t('over.score', { mine: scores[game.my_seat], best: Math.max(...scores.filter((_, i) => i !== game.my_seat)) }) : '';
  const winnerNames = winners.map((s) => names[s]).join(t('common.and'));
  if (!winners.length) return t('over.nobody');
  if (seated && winners.includes(game.my_seat)) {
    return winners.length > 1 ? t('over.you_share', { score }) : t('over.you_won', { score });
  }
  if (seated) return t('over.you_lost', { score, names: winnerNames });
  return winners.length > 1 ? t('over.they_share', { names: winnerNames }) : t('over.they_won', { names: winnerNames });
}

/**
 * Joins `game`: in a game whose seats salt the shuffle, with a salt made
 * here (kept in this browser with the commitment shown before it was sent).
 */
async function join(game, code) {
  const body = code ? { code } : {};
  if (game.salted) body.salt = makeSalt();
  const joined = await post(`/v1/games/${game.id}/join`, body);
  if (body.salt) keepSalt(game.id, body.salt, game.seed_commitment);
  return joined;
}

function openTable(game, code, act) {
  const me = session();
  const seated = game.my_seat !== null && game.my_seat !== undefined;
  const parts = [];
  if (!seated) {
    parts.push(me
      ? h('div', { class: 'actions' },
        h('button', { type: 'button', 'data-action': 'join',
          onClick: () => act(t('game.cannot_join'), () => join(game, code)) },
        t('game.join')),
        // A private game seen without its code is seen by an invitee.
        game.private && !code ? h('button', { type: 'button', class: 'quiet', 'data-action': 'decline',
          onClick: () => act(t('game.cannot_decline'), () => post(`/v1/games/${game.id}/decline`)) }, t('game.decline')) : null)
      : h('button', { type: 'button', onClick: () => requireSignIn(location.hash) }, t('game.sign_in_to_join')));
  } else {
    if (game.invite_code) {
      const link = `${location.origin}/#/games/${game.id}?code=${game.invite_code}`;
      parts.push(h('p', {}, t('game.private_invite')), shareLink(link));
    } else {
      parts.push(h('p', {}, t('game.public_invite')),
        shareLink(`${location.origin}/#/games/${game.id}`));
    }
    const level = h('select', { 'aria-label': t('game.bot_level'), id: 'bot-level' },
      botLevels().map(([v, name]) => h('option', { value: v }, name)));
    parts.push(h('div', { class: 'actions' }, level,
      h('button', { type: 'button', class: 'quiet', 'data-action': 'add-bot',
        onClick: () => act(t('game.cannot_add_bot'), () => post(`/v1/games/${game.id}/bots`, { level: level.value })) },
      t('game.add_bot'))));
  }
  return h('div', { class: 'panel' }, parts);
}

/** A link to copy (with a Copy button where the browser allows it). */
function shareLink(link) {
  const copy = h('button', { type: 'button', class: 'quiet', onClick: async () => {
    try {
      await navigator.clipboard.writeText(link);
      copy.textContent = t('game.copied');
    } catch {
      copy.textContent = t('game.select_to_copy');
    }
  } }, t('game.copy_link'));
  return h('p', {}, h('span', { class: 'invite', 'data-invite': link }, link), ' ', copy);
}

function movesList(game, board, send) {
  return h('details', { class: 'moves-list' },
    h('summary', {}, t('game.moves_list', { n: game.legal_commands.length })),
    h('ul', {}, game.legal_commands.map((command) =>
      h('li', {}, h('button', { type: 'button', class: 'quiet', onClick: () => send(command) }, board.describe(command))))));
}

function resultPanel(game, names) {
  const result = game.result || {};
  const winners = new Set(result.winners || []);
  const rows = (result.scores || []).map((score, seat) =>
    h('tr', { class: winners.has(seat) ? 'winner' : null },
      h('td', {}, names[seat]), h('td', {}, String(score)), h('td', {}, winners.has(seat) ? t('game.winner') : '')));
  return h('div', { class: 'result', 'data-result': '' },
    h('h2', {}, t('game.result')),
    rows.length ? h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, t('game.player')), h('th', {}, t('game.score')), h('th', {}, t('game.outcome')))),
      h('tbody', {}, rows)) : null,
    result.winners?.length ? h('p', {}, t('game.won_by', { names: result.winners.map((s) => names[s]).join(t('common.and')) })) : null,
    result.tie_break ? h('p', { class: 'hint' }, t('game.tie_break', { rule: result.tie_break })) : null,
    result.reason ? h('p', { class: 'hint' }, t('game.ended_by', { reason: String(result.reason).replace(/_/g, ' ') })) : null,
    ratingsPanel(game),
    h('p', {}, h('a', { href: `#/audit/${game.id}`, 'data-action': 'audit' }, t('game.audit_link'))));
}

/**
 * Rematch (docs/ratings.md): offer one on a finished game, or see the
 * offer, each seat's answer, and answer it; once everyone accepted, the link
 * to the new game.
 */
function rematchPanel(game, names, rematchAct) {
  const seated = game.my_seat !== null && game.my_seat !== undefined;
  const offer = game.rematch;
  const base = `/v1/games/${game.id}/rematch`;
  if (!offer) {
    return seated ? h('div', { class: 'actions', id: 'rematch' },
      h('button', { type: 'button', 'data-action': 'rematch',
        onClick: () => rematchAct(t('rematch.cannot_offer'), base) }, t('rematch.offer'))) : null;
  }
  const parts = [];
  if (offer.state === 'accepted') {
    parts.push(h('p', {}, t('rematch.everyone_accepted'), ' ',
      h('a', { href: `#/games/${offer.new_game_id}`, 'data-action': 'rematch-game' }, t('rematch.play')), '.'));
  } else if (offer.state === 'declined') {
    const who = offer.seats.find((s) => s.answer === 'declined');
    parts.push(h('p', {}, who ? t('rematch.declined_by', { name: who.username }) : t('rematch.declined')));
  } else {
    const answers = offer.seats.map((s) => t(`rematch.answer.${s.answer}`, { name: names[s.seat] ?? s.username }));
    parts.push(h('p', {}, t('rematch.offered', { name: offer.offered_by, answers: answers.join(', ') })));
    const mine = seated ? offer.seats.find((s) => s.seat === game.my_seat) : null;
    if (mine?.answer === 'waiting') {
      parts.push(h('div', { class: 'actions' },
        h('button', { type: 'button', 'data-action': 'rematch-accept',
          onClick: () => rematchAct(t('rematch.cannot_accept'), `${base}/accept`) }, t('rematch.accept')),
        h('button', { type: 'button', class: 'quiet', 'data-action': 'rematch-decline',
          onClick: () => rematchAct(t('rematch.cannot_decline'), `${base}/decline`) }, t('rematch.decline'))));
    } else if (mine) {
      parts.push(h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'quiet', 'data-action': 'rematch-decline',
          onClick: () => rematchAct(t('rematch.cannot_withdraw'), `${base}/decline`) }, t('rematch.withdraw')),
        h('button', { type: 'button', class: 'quiet', 'data-action': 'rematch-refresh',
          onClick: () => rematchAct(t('rematch.cannot_refresh'), null) }, t('rematch.refresh'))));
    }
  }
  return h('div', { class: 'panel', id: 'rematch', 'data-rematch': offer.state }, h('h2', {}, 'Rematch'), parts);
}

/** Ratings' hook: the game's rating changes, read once it is over. */
function ratingsPanel(game) {
  const into = h('div', { id: 'game-ratings' });
  if (game.status === 'finished') gameRatings(game, into).catch(() => into.replaceChildren());
  return into;
}

/** Whether `game` takes substitutes (docs/seats.md): its `substitutes`
 * option, else all but a rated game of two. */
export function takesSubstitutes(game) {
  return game.options?.substitutes ?? !(game.rated && game.players === 2);
}

/**
 * The seats whose player left a game that goes on, each with a Take button
 * for a signed-in viewer without a seat (`POST …/seats/{seat}/take`).
 */
function vacantSeats(game, code, act, names) {
  const seated = game.my_seat !== null && game.my_seat !== undefined;
  const vacant = game.seats.filter((s) => s.resigned);
  if (seated || !vacant.length || !takesSubstitutes(game)) return null;
  const me = session();
  return h('section', { id: 'vacant-seats', class: 'panel' },
    h('h2', {}, t('seats.vacant_here')),
    h('p', { class: 'hint' }, t('seats.take_hint')),
    h('ul', {}, vacant.map((s) => h('li', { 'data-seat': s.seat },
      t('seats.left_by', { seat: s.seat + 1, name: names[s.seat] }), ' ',
      me
        ? h('button', { type: 'button', 'data-action': 'take', onClick: () => act(t('seats.cannot_take'),
          () => post(`/v1/games/${game.id}/seats/${s.seat}/take`, code ? { code } : {})) }, t('seats.take'))
        : h('button', { type: 'button', onClick: () => requireSignIn(location.hash) }, t('game.sign_in_to_join'))))));
}

/**
 * For a player still in a game that takes substitutes, each vacant seat
 * with a form offering it to a named player
 * (`POST …/seats/{seat}/offer`), who is invited and told.
 */
function seatsToOffer(game, act, names, offers) {
  const mine = game.seats.find((s) => s.seat === game.my_seat);
  const vacant = game.seats.filter((s) => s.resigned);
  if (!mine || mine.resigned || !vacant.length || !takesSubstitutes(game)) return null;
  return h('section', { id: 'seats-to-offer', class: 'panel' },
    h('h2', {}, t('seats.offer_title')),
    h('p', { class: 'hint' }, t('seats.offer_hint')),
    h('ul', {}, vacant.map((s) => {
      const input = h('input', { type: 'text', id: `offer-${s.seat}`, autocomplete: 'off', required: true,
        maxlength: 32, 'data-offer-name': s.seat });
      const offered = offers.get(s.seat);
      return h('li', { 'data-seat': s.seat },
        h('form', { class: 'inline', onSubmit: (e) => {
          e.preventDefault();
          const username = input.value.trim();
          if (!username) return;
          act(t('seats.cannot_offer'), () => post(`/v1/games/${game.id}/seats/${s.seat}/offer`, { username })
            .then((answer) => { offers.set(s.seat, username); return answer; }));
        } },
        h('label', { for: `offer-${s.seat}` }, t('seats.offer_label', { seat: s.seat + 1, name: names[s.seat] })), ' ',
        input, ' ',
        h('button', { type: 'submit', 'data-action': 'offer' }, t('seats.offer'))),
        offered ? h('p', { class: 'hint', 'data-offered': offered }, t('seats.offered', { name: offered })) : null);
    })));
}

function footer(game, act) {
  const seated = game.my_seat !== null && game.my_seat !== undefined;
  const buttons = [];
  const out = game.seats.find((s) => s.seat === game.my_seat)?.resigned;
  if (seated && game.status === 'active' && !out) {
    buttons.push(h('button', { type: 'button', class: 'danger', 'data-action': 'resign', onClick: () => {
      if (confirm(t('game.confirm_resign'))) {
        act(t('game.cannot_resign'), () => post(`/v1/games/${game.id}/resign`));
      }
    } }, t('game.resign')));
  }
  if (seated && game.status === 'open') {
    buttons.push(h('button', { type: 'button', class: 'danger', 'data-action': 'cancel',
      onClick: () => act(t('game.cannot_cancel'), () => post(`/v1/games/${game.id}/cancel`)) }, t('game.cancel')));
  }
  return buttons.length ? h('div', { class: 'actions' }, buttons) : null;
}
