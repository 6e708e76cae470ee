// The conditional-move editor of Top Hats (docs/turn-conveniences.md): a
// player whose turn it is not plays the moves they expect and their
// replies on a copy of the board (js/games/top-hats-copy.js), and stores
// the line; the server plays the replies when the moves come.
//
// Rules it keeps:
// - Only for a player of an active Top Hats game in the play phase, whose
//   seat is not out; lines are written only while the game waits for
//   another seat (the server refuses them on the player's own turn).
// - The copy starts from the player's own view and moves in this page
//   alone: the real board and the game are untouched until a line is
//   stored (PUT /v1/games/{id}/conditional, against the version shown).
// - A line may be stored once it ends with a reply of the player's own.
// - The stored lines are read again whenever the game moves (a step
//   advances or drops them); a line being edited when the game moves is
//   dropped, as its copy no longer starts from the board.
// - Lines are the player's alone: nothing here is shown to anyone else.

import { h } from './dom.js';
import { call, get } from './api.js';
import { alertToast, explain } from './ui.js';
import { t } from './i18n.js';
import { canCopy, copyOf, legal, play } from './games/top-hats-copy.js';

/** Whether the viewer of `game` may keep conditional lines in it. */
export function conditionalOn(game) {
  const seated = game.my_seat !== null && game.my_seat !== undefined;
  const out = game.seats.find((s) => s.seat === game.my_seat)?.resigned;
  return seated && !out && game.status === 'active' && game.ruleset === 'top-hats' && canCopy(game.view);
}

/**
 * The panel for game `id` drawn with `board` (the ruleset's board module):
 * `el` (kept across the page's redraws) and `update(game, names)`.
 */
export function conditionalPanel(id, board) {
  let game = null;
  let names = [];
  let stored = [];
  let readAt = null;
  // The line being written: its steps and the copy after them.
  let editing = null;
  let busy = false;
  const el = h('section', { id: 'conditional', class: 'panel conditional', hidden: true });

  const nameOf = (seat) => (seat === game.my_seat ? t('conditional.you') : names[seat] ?? t('seat.n', { n: seat + 1 }));
  const stepText = (step) => t('conditional.step', { who: nameOf(step.seat), move: board.describe(step.command) });
  const path = `/v1/games/${id}/conditional`;

  const write = async (lines) => {
    if (busy) return;
    busy = true;
    el.classList.add('sending');
    try {
      if (lines.length) {
        const answer = await call('PUT', path, { body: { expected_version: game.version, lines } });
        stored = answer.lines;
        readAt = answer.version;
      } else {
        await call('DELETE', path);
        stored = [];
      }
      editing = null;
    } catch (error) {
      if (error.name === 'AbortError') return;
      alertToast(`${t('conditional.not_stored')}: ${explain(error)}`);
    } finally {
      busy = false;
      el.classList.remove('sending');
    }
    draw();
  };

  const start = () => {
    const copy = copyOf(game.view);
    editing = { steps: [], copy, version: game.version };
    draw();
  };

  const step = (command) => {
    const seat = editing.copy.to_act[0];
    editing.steps.push({ seat, command });
    editing.copy = play(editing.copy, seat, command);
    draw();
    el.querySelector('#conditional-steps')?.scrollIntoView({ block: 'nearest' });
  };

  const undo = () => {
    const steps = editing.steps.slice(0, -1);
    let copy = copyOf(game.view);
    for (const s of steps) copy = play(copy, s.seat, s.command);
    editing = { ...editing, steps, copy };
    draw();
  };

  const linesList = () => {
    if (!stored.length) return h('p', { class: 'hint', id: 'conditional-none' }, t('conditional.none'));
    return h('ol', { id: 'conditional-lines' }, stored.map((line, i) =>
      h('li', { 'data-line': i },
        line.map(stepText).join(' → '), ' ',
        h('button', { type: 'button', class: 'quiet', 'data-action': 'conditional-delete',
          onClick: () => write(stored.filter((_, j) => j !== i)) }, t('conditional.delete')))));
  };

  const editor = () => {
    const mine = game.to_act.includes(game.my_seat);
    if (!editing) {
      return mine ? h('p', { class: 'hint' }, t('conditional.your_turn'))
        : h('div', { class: 'actions' },
          h('button', { type: 'button', 'data-action': 'conditional-new', onClick: start }, t('conditional.new')));
    }
    const { copy, steps } = editing;
    const seat = copy.to_act[0];
    const moves = legal(copy, seat);
    const ends = steps.length > 0 && steps[steps.length - 1].seat === game.my_seat;
    const prompt = copy.unknown ? t('conditional.unknown')
      : !moves.length ? t('conditional.over')
        : seat === game.my_seat ? t('conditional.play_reply') : t('conditional.play_expected', { name: nameOf(seat) });
    const ctx = { mySeat: moves.length ? seat : game.my_seat, names, legal: moves, send: step };
    return h('div', { class: 'conditional-editor', 'data-steps': steps.length },
      h('p', { id: 'conditional-prompt' }, prompt),
      steps.length ? h('ol', { id: 'conditional-steps' }, steps.map((s) => h('li', {}, stepText(s)))) : null,
      h('div', { id: 'conditional-board' },
        board.render({ ...game, view: copy, legal_commands: moves }, ctx)),
      h('div', { class: 'actions' },
        h('button', { type: 'button', 'data-action': 'conditional-store', disabled: !ends,
          onClick: () => write([...stored, steps]) }, t('conditional.store')),
        h('button', { type: 'button', class: 'quiet', 'data-action': 'conditional-undo', disabled: !steps.length,
          onClick: undo }, t('conditional.undo')),
        h('button', { type: 'button', class: 'quiet', 'data-action': 'conditional-cancel',
          onClick: () => { editing = null; draw(); } }, t('conditional.cancel'))),
      ends ? null : h('p', { class: 'hint' }, t('conditional.must_end')));
  };

  const draw = () => {
    if (!game || !conditionalOn(game)) {
      el.hidden = true;
      el.replaceChildren();
      return;
    }
    el.hidden = false;
    const wasOpen = el.querySelector('details')?.open ?? Boolean(editing);
    el.replaceChildren(h('details', { open: wasOpen || Boolean(editing) },
      h('summary', {}, t('conditional.title', { n: stored.length })),
      h('p', { class: 'hint' }, t('conditional.explain')),
      linesList(),
      stored.length > 1 ? h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'quiet', 'data-action': 'conditional-clear',
          onClick: () => write([]) }, t('conditional.clear'))) : null,
      editor()));
  };

  const read = async () => {
    try {
      const fresh = await get(path);
      stored = fresh.lines;
      readAt = fresh.version;
    } catch (error) {
      if (error.name === 'AbortError') return;
      stored = [];
      readAt = game.version;
    }
    draw();
  };

  const update = (fresh, freshNames) => {
    game = fresh;
    names = freshNames;
    if (editing && editing.version !== game.version) editing = null;
    if (!conditionalOn(game)) {
      draw();
      return;
    }
    if (readAt !== game.version) read();
    else draw();
  };

  return { el, update };
}
