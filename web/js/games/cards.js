// Card pictures and the small pieces the card-game boards (Hats, Goathead,
// Hat Trick) share: every card is its own small SVG, so a hand wraps into
// rows on a narrow screen and stays legible.

import { h, s, moveControl } from '../dom.js';
import { help, term } from './glossary.js';
import { t } from '../i18n.js';

const STAR = Array.from({ length: 10 }, (_, i) => {
  const r = i % 2 ? 4.2 : 10;
  const a = (Math.PI / 5) * i - Math.PI / 2;
  return `${(10 + r * Math.cos(a)).toFixed(2)},${(10.6 + r * Math.sin(a)).toFixed(2)}`;
}).join(' ');

/** The suit and hat-type symbols, each drawn in a 20×20 box in `color`. */
const SYMBOLS = {
  heart: (color) =>
    s('path', {
      fill: color,
      d: 'M10 19C4 14 0 10 0 5.6 0 2.5 2.4.5 5.2.5 7.4.5 9 1.8 10 3.8 11 1.8 12.6.5 14.8.5 17.6.5 20 2.5 20 5.6 20 10 16 14 10 19Z',
    }),
  diamond: (color) => s('path', { fill: color, d: 'M10 0L18 10 10 20 2 10Z' }),
  spade: (color) =>
    s('path', {
      fill: color,
      d: 'M10 0C13 4 20 8 20 12.5 20 15.5 17.8 17.2 15.3 17.2 13.6 17.2 12.2 16.4 11.2 15L13 20H7L8.8 15C7.8 16.4 6.4 17.2 4.7 17.2 2.2 17.2 0 15.5 0 12.5 0 8 7 4 10 0Z',
    }),
  club: (color) =>
    s('g', { fill: color },
      s('circle', { cx: 10, cy: 5.3, r: 4.6 }),
      s('circle', { cx: 4.8, cy: 11.6, r: 4.6 }),
      s('circle', { cx: 15.2, cy: 11.6, r: 4.6 }),
      s('circle', { cx: 10, cy: 10, r: 3 }),
      s('path', { d: 'M10 10L6.5 20H13.5Z' })),
  star: (color) => s('polygon', { fill: color, points: STAR }),
  flower: (color) =>
    s('g', { fill: color },
      [0, 1, 2, 3, 4].map((k) => {
        const a = (2 * Math.PI * k) / 5 - Math.PI / 2;
        return s('circle', { cx: 10 + 5.3 * Math.cos(a), cy: 10.4 + 5.3 * Math.sin(a), r: 4.3 });
      }),
      s('circle', { cx: 10, cy: 10.4, r: 2.6, fill: '#fff' })),
  helm: (color) =>
    s('g', { stroke: color, fill: 'none', 'stroke-linecap': 'round' },
      s('circle', { cx: 10, cy: 10, r: 5.6, 'stroke-width': 2.2 }),
      [0, 1, 2, 3, 4, 5, 6, 7].map((k) => {
        const a = (Math.PI / 4) * k;
        return s('line', {
          x1: 10, y1: 10, x2: 10 + 9.2 * Math.cos(a), y2: 10 + 9.2 * Math.sin(a), 'stroke-width': 1.9,
        });
      }),
      s('circle', { cx: 10, cy: 10, r: 1.8, fill: color, stroke: 'none' })),
};

/** `symbol` (a key of SYMBOLS) drawn `size` units wide with its top left at (x, y). */
function symbolAt(symbol, color, x, y, size) {
  return s('g', { transform: `translate(${x} ${y}) scale(${size / 20})` }, SYMBOLS[symbol](color));
}

/**
 * One face-up card as an SVG picture, 5:7, sized by its class.
 * face: { rank: the corner text ('A', '10', '5', 'JK'),
 *         symbol: a suit or hat type ('heart', 'flower', …) or null,
 *         color: the ink of rank and symbol,
 *         name: the card in words, e.g. "ace of spades",
 *         note: optional small text in the lower corner (the joker's number) }
 * size: 'lg' (the viewer's hand), 'md' (the table), 'sm' (collections, other seats).
 */
export function card(face, size = 'md') {
  const long = face.rank.length > 1;
  return s('svg', { class: `cb-card cb-card-${size}`, viewBox: '0 0 60 84', role: 'img', 'aria-label': face.name },
    s('title', {}, face.name),
    s('rect', { class: 'cb-paper', x: 1, y: 1, width: 58, height: 82, rx: 6 }),
    face.symbol
      ? [
          s('text', {
            x: 5, y: 24, fill: face.color, 'font-size': long ? 19 : 23, 'font-weight': 700,
            'letter-spacing': long ? -1.5 : 0,
          }, face.rank),
          symbolAt(face.symbol, face.color, 6, 29, 13),
          symbolAt(face.symbol, face.color, 22, 42, 32),
        ]
      : s('text', {
          x: 30, y: 52, fill: face.color, 'font-size': long ? 24 : 34, 'font-weight': 700,
          'text-anchor': 'middle',
        }, face.rank),
    face.note && s('text', { x: 6, y: 78, fill: face.color, 'font-size': 13, 'font-weight': 700 }, face.note));
}

/**
 * A face-down card. `label` says what it stands for; `hat` draws a top hat
 * on it (a Hats black hat).
 */
export function cardBack(size = 'md', label = t('board.face_down'), hat = false) {
  return s('svg', { class: `cb-card cb-card-${size} cb-back${hat ? ' cb-hat' : ''}`, viewBox: '0 0 60 84', role: 'img', 'aria-label': label },
    s('title', {}, label),
    s('rect', { class: 'cb-paper', x: 1, y: 1, width: 58, height: 82, rx: 6 }),
    s('rect', { class: 'cb-inlay', x: 6, y: 6, width: 48, height: 72, rx: 3 }),
    hat
      ? s('g', { class: 'cb-hat-shape' },
          s('rect', { x: 19, y: 24, width: 22, height: 28, rx: 2 }),
          s('rect', { x: 10, y: 50, width: 40, height: 6, rx: 3 }))
      : s('circle', { class: 'cb-inlay', cx: 30, cy: 42, r: 11 }));
}

/** A row of card pictures that wraps. */
export function cardRow(cards) {
  return h('div', { class: 'cb-cards' }, cards);
}

/** A hand of `count` face-down cards, overlapping, with the count in words for screen readers. */
export function hiddenHand(count) {
  const backs = Array.from({ length: count }, () => cardBack('sm'));
  backs.forEach((b) => b.setAttribute('aria-hidden', 'true'));
  return h('div', { class: 'cb-cards cb-fan', role: 'img', 'aria-label': t('board.cards_in_hand', { n: count }) }, backs);
}

/** A card with a caption under it (who played it, a line position); `extra` names a variant (`empty`, `line-zero`). */
export function captioned(picture, caption, extra = '') {
  return h('figure', { class: extra ? `cb-captioned cb-${extra}` : 'cb-captioned' }, picture, h('figcaption', {}, caption));
}

/**
 * One titled part of the table (the trick, the kitty, the line); the table
 * lays them out side by side when there is room. `title` is a glossary term
 * (its English words), shown in the page's language.
 */
export function zone(title, ...content) {
  return h('div', { class: 'cb-zone' }, h('h3', { title: help(title) }, term(title)), content);
}

/** The display name of seat `i`. */
export function seatName(ctx, i) {
  return (ctx.names && ctx.names[i]) || t('seat.n', { n: i + 1 });
}

/**
 * A labelled little fact about a seat or the table ("dealer", "12 points"):
 * `name` is a glossary term (its English words), shown in the page's
 * language; `explained` names the term whose help it takes when `name` is
 * already words of the page (a count).
 */
export function badge(name, extra = '', explained = name) {
  return h('span', { class: extra ? `cb-badge cb-${extra}` : 'cb-badge', title: help(explained) }, term(name));
}

/** The "winner" badge when seat `i` won (or shares the win of) the finished game. */
export function winnerBadge(game, i) {
  return Boolean(game.result && (game.result.winners || []).includes(i)) && badge('winner', 'score');
}

/** A <button> that sends `command`: for bids, choices and the other non-card moves. */
export function moveButton(command, label, ctx) {
  return moveControl(h('button', { type: 'button', class: 'cb-move' }, label), command, label, ctx.send);
}

/** A row of move buttons, or nothing when there are none. */
export function moveRow(buttons) {
  return buttons.length ? h('div', { class: 'cb-moves' }, buttons) : null;
}

/**
 * A board's root element that keeps the picked first part of a two-part
 * move (a card's key) and redraws itself when the pick changes.
 * `draw(picked, pick)` returns the children; `pick(key)` picks `key`, or
 * cancels when it is already picked. The picking control keeps the focus.
 */
export function pickingBoard(className, draw) {
  const root = h('div', { class: `cb-board ${className}` });
  let picked = null;
  const pick = (key) => {
    picked = picked === key ? null : key;
    redraw();
    root.querySelector(`[data-select="${CSS.escape(key)}"]`)?.focus();
    // On a phone the moves a pick brings may sit below the fold: bring them
    // into view, the picked card staying in view where both fit.
    if (picked !== null) {
      root.querySelector('.cb-moves')?.scrollIntoView({ block: 'nearest', behavior: 'instant' });
    }
  };
  const redraw = () => root.replaceChildren(...draw(picked, pick).filter(Boolean));
  redraw();
  return root;
}

/** The note a board shows before the game has started. */
export function waitingNote(game) {
  const joined = (game.seats || []).length;
  return h('div', { class: 'cb-board' },
    h('p', { class: 'cb-note' }, t('board.waiting_players', { joined, n: game.players })));
}

/**
 * The view as a board reads it: once the game is over (also by a forfeit,
 * which the rules themselves do not know of), nobody is waited for and
 * `over` is set.
 */
export function settledView(game) {
  const over = game.status === 'finished' || game.status === 'abandoned';
  return over && game.view ? { ...game.view, to_act: [], over: true } : game.view;
}

/** The board's line once the game is finished: who won, or who shares the
 * win (the page's status line says once that the game is over). */
export function resultLine(game, ctx) {
  const winners = (game.result && game.result.winners) || [];
  if (!winners.length) return t('board.nobody_wins');
  const names = nameList(ctx, winners);
  return winners.length === 1 ? t('board.wins', { names }) : t('board.share_win', { names });
}

/** "ann", "ann and bob", "ann, bob and cy": the names of `seats`. */
export function nameList(ctx, seats) {
  const names = seats.map((i) => seatName(ctx, i));
  return names.length < 2 ? names.join('') : t('board.and_list', { first: names.slice(0, -1).join(', '), last: names.at(-1) });
}
