// The talk panel beside the board (docs/talk.md): the messages this viewer
// reads, and a form to say something where they may. Every text goes into
// the page as text (a text node), never as markup.

import { h } from './dom.js';
import { get, identity, post } from './api.js';
import { explain } from './ui.js';
import { t } from './i18n.js';

const POLL_MS = 5000;

/** Where this viewer may speak in `game`: [value, label] pairs. */
function rooms(game, names) {
  const mode = game.options?.talk ?? 'table';
  if (mode === 'none' || !identity()) return [];
  const seat = game.my_seat;
  if (seat === null || seat === undefined) return [['spectators', t('talk.spectators')]];
  const out = [['table', t('talk.table')]];
  if (mode === 'press') {
    for (let s = 0; s < game.players; s += 1) {
      if (s !== seat && names[s]) out.push([`press:${s}`, t('talk.only', { name: names[s] })]);
    }
  }
  return out;
}

/** One message as a list item. */
function line(message, names) {
  const who = message.from.seat === null ? t('talk.watching', { name: message.from.username }) : names[message.from.seat] ?? message.from.username;
  const where = message.room === 'press'
    ? ` → ${message.to.map((s) => names[s] ?? t('seat.n', { n: s + 1 })).join(', ')}`
    : message.room === 'spectators' ? ` ${t('talk.to_spectators')}` : '';
  return h('li', { 'data-room': message.room, 'data-id': message.id },
    h('span', { class: 'talk-who' }, `${who}${where}: `),
    message.hidden
      ? h('em', { class: 'muted' }, 'hidden by an operator')
      : h('span', { class: 'talk-text', text: message.text }));
}

/**
 * The panel for game `id`: `el` (kept across the page's redraws),
 * `update(game, names)` when the game changes, `stop()` when leaving.
 */
export function talkPanel(id) {
  let game = null;
  let names = [];
  let next = null;
  const messages = [];
  const list = h('ol', { class: 'talk-list', 'aria-live': 'polite', 'aria-label': t('talk.messages') });
  const error = h('p', { class: 'move-error', role: 'alert', hidden: true });
  const text = h('textarea', { id: 'talk-text', maxlength: 1000, rows: 2, 'aria-label': t('talk.message') });
  const room = h('select', { id: 'talk-room', 'aria-label': t('talk.to') });
  const button = h('button', { type: 'submit' }, t('talk.send'));
  const form = h('form', { class: 'talk-form' }, room, text, button);
  const el = h('section', { id: 'talk', class: 'talk' }, h('h2', {}, t('talk.title')), list, error, form);

  const drawList = () => {
    list.replaceChildren(...messages.map((m) => line(m, names)));
    if (!messages.length) list.append(h('li', { class: 'muted' }, 'Nothing said yet.'));
    list.scrollTop = list.scrollHeight;
  };
  const drawForm = () => {
    const open = game ? rooms(game, names) : [];
    form.hidden = open.length === 0;
    // The options are redrawn only when the rooms change: a list redrawn
    // under the reader's finger would close or lose its choice.
    const drawn = [...room.options].map((o) => [o.value, o.textContent]);
    if (JSON.stringify(drawn) === JSON.stringify(open)) return;
    const chosen = room.value;
    room.replaceChildren(...open.map(([value, label]) => h('option', { value }, label)));
    if (open.some(([value]) => value === chosen)) room.value = chosen;
  };
  const fetchMore = async () => {
    try {
      const page = await get(`/v1/games/${id}/talk${next ? `?after=${encodeURIComponent(next)}` : ''}`);
      for (const m of page.messages) {
        if (!messages.some((known) => known.id === m.id)) messages.push(m);
      }
      next = page.next ?? next;
      drawList();
    } catch (e) {
      if (e.name !== 'AbortError' && e.status !== 404) {
        error.hidden = false;
        error.textContent = explain(e);
      }
    }
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const said = text.value;
    if (!said.trim()) return;
    const [where, seat] = room.value.split(':');
    const body = where === 'press' ? { room: 'press', to: [Number(seat)], text: said } : { room: where, text: said };
    button.disabled = true;
    try {
      const message = await post(`/v1/games/${id}/talk`, body);
      text.value = '';
      error.hidden = true;
      if (!messages.some((known) => known.id === message.id)) messages.push(message);
      drawList();
    } catch (e) {
      error.hidden = false;
      error.textContent = t('talk.not_sent', { why: explain(e) });
    } finally {
      button.disabled = false;
    }
  });
  const timer = setInterval(fetchMore, POLL_MS);
  fetchMore();
  return {
    el,
    update(fresh, seatNames) {
      const ended = game && game.status !== fresh.status;
      game = fresh;
      names = seatNames;
      drawForm();
      drawList();
      // A game over opens rooms to more readers: read them all again.
      if (ended) {
        messages.length = 0;
        next = null;
        fetchMore();
      }
    },
    stop() {
      clearInterval(timer);
    },
  };
}
