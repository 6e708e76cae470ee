// The takeback panel (docs/turn-conveniences.md): a player asks to take
// back their last move, and the others accept or decline.
//
// Rules it keeps:
// - Shown only to a player of an active game whose options allow
//   takebacks and that is not rated (the server refuses them otherwise).
// - The button is offered only when the server says the viewer may offer
//   now (`can_offer`: their own last command, nothing revealed since).
// - A standing offer is shown to every player: to the seats whose answer
//   is awaited with Accept and Decline, to the offerer and to the seats
//   that accepted as pending (an offer cannot be withdrawn: the next move
//   ends it).
// - Read again whenever the game's version moves (every offer, answer and
//   takeback is an event, so the game's stream redraws the page).

import { h } from './dom.js';
import { get, post } from './api.js';
import { alertToast, explain } from './ui.js';
import { t } from './i18n.js';

/** Whether `game` may take takebacks at all, for its viewer. */
export function takebacksOn(game) {
  const seated = game.my_seat !== null && game.my_seat !== undefined;
  const out = game.seats.find((s) => s.seat === game.my_seat)?.resigned;
  return seated && !out && game.status === 'active' && game.options?.takebacks === true && !game.rated;
}

/**
 * The panel for game `id`: `el` (kept across the page's redraws) and
 * `update(game, names)` when the game changes; `changed()` is called after
 * the viewer's own offer or answer was written.
 */
export function takebackPanel(id, changed) {
  let game = null;
  let names = [];
  let status = null;
  let readAt = null;
  let busy = false;
  const el = h('section', { id: 'takeback', class: 'panel', hidden: true });

  const act = async (label, body, path) => {
    if (busy) return;
    busy = true;
    el.classList.add('sending');
    try {
      // Against the version the panel was read at: what the viewer saw.
      status = await post(path, { expected_version: status?.version ?? game.version, ...body });
      readAt = status.version;
      draw();
      await changed();
    } catch (error) {
      if (error.name === 'AbortError') return;
      alertToast(`${label}: ${explain(error)}`);
      readAt = null;
      await read();
    } finally {
      busy = false;
      el.classList.remove('sending');
    }
  };

  const who = (seats) => seats.map((s) => names[s] ?? t('seat.n', { n: s + 1 })).join(t('common.and'));

  const draw = () => {
    if (!game || !status || !takebacksOn(game)) {
      el.hidden = true;
      el.replaceChildren();
      return;
    }
    const me = game.my_seat;
    const offer = status.offer;
    const parts = [];
    if (offer) {
      el.dataset.takeback = offer.seat === me ? 'pending' : offer.waiting.includes(me) ? 'asked' : 'accepted';
      if (offer.seat === me) {
        parts.push(h('p', {}, t('takeback.pending', { names: who(offer.waiting) })));
      } else {
        parts.push(h('p', {}, t('takeback.asks', { name: names[offer.seat] ?? t('seat.n', { n: offer.seat + 1 }) })));
        if (offer.waiting.includes(me)) {
          parts.push(h('div', { class: 'actions' },
            h('button', { type: 'button', 'data-action': 'takeback-accept',
              onClick: () => act(t('takeback.cannot_answer'), { accept: true }, `/v1/games/${id}/takeback/answer`) },
            t('takeback.accept')),
            h('button', { type: 'button', class: 'quiet', 'data-action': 'takeback-decline',
              onClick: () => act(t('takeback.cannot_answer'), { accept: false }, `/v1/games/${id}/takeback/answer`) },
            t('takeback.decline'))));
        } else {
          parts.push(h('p', { class: 'hint' }, t('takeback.you_accepted', { names: who(offer.waiting) })));
        }
      }
    } else if (status.can_offer) {
      el.dataset.takeback = 'can-offer';
      parts.push(h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'quiet', 'data-action': 'takeback-offer',
          onClick: () => act(t('takeback.cannot_offer'), {}, `/v1/games/${id}/takeback`) },
        t('takeback.offer'))));
    } else {
      el.dataset.takeback = 'none';
    }
    el.hidden = parts.length === 0;
    el.replaceChildren(...(parts.length ? [h('h2', { class: 'small' }, t('takeback.title')), ...parts] : []));
  };

  const read = async () => {
    if (!game || !takebacksOn(game)) return;
    const version = game.version;
    try {
      const fresh = await get(`/v1/games/${id}/takeback`);
      // A newer answer may have come meanwhile: the latest version wins.
      if (readAt !== null && fresh.version < readAt) return;
      status = fresh;
      readAt = fresh.version;
    } catch (error) {
      if (error.name === 'AbortError') return;
      status = null;
      readAt = version;
    }
    draw();
  };

  const update = (fresh, freshNames) => {
    game = fresh;
    names = freshNames;
    if (!takebacksOn(game)) {
      status = null;
      draw();
      return;
    }
    if (readAt !== game.version) read();
    else draw();
  };

  return { el, update };
}
