// The Hats board: the tea table line, every seat's collection and black
// hats, and the viewer's hand. A turn's move takes two clicks: pick a card
// of the hand, then a line card to exchange it with, or a button (black hat,
// discard and draw, offer to the partner). Answering a swap is one click on
// the card to give.

import { h, moveControl, selectControl } from '../dom.js';
import {
  badge, captioned, card, cardBack, cardRow, hiddenHand, moveButton, moveRow,
  pickingBoard, resultLine, seatName, waitingNote, winnerBadge, settledView, zone } from './cards.js';
import { help, term } from './glossary.js';
import { t } from '../i18n.js';

/** The ruleset's name as players know it. */
export const NAME = 'Hats';

/** The hat types by code letter: name, plural, symbol, ink. */
const TYPES = {
  T: ['star', 'stars', '#9a6200'],
  S: ['spade', 'spades', '#1d1d1d'],
  H: ['heart', 'hearts', '#c62828'],
  C: ['club', 'clubs', '#2e7d32'],
  D: ['diamond', 'diamonds', '#1565c0'],
  F: ['flower', 'flowers', '#ad1457'],
  W: ['helm', 'helms', '#5e35b1'],
};
const TYPE_ORDER = Object.keys(TYPES);

/** Main actions every player makes. */
const MAIN_ACTIONS = 8;

function typeOf(code) {
  return code[0].toUpperCase();
}

/** A card code (`H5`) in words: "5 of hearts". */
function cardName(code) {
  return t(`hats.card.${typeOf(code)}`, { rank: code.slice(1) });
}

function face(code) {
  const [symbol, , color] = TYPES[typeOf(code)];
  return { rank: code.slice(1), symbol, color, name: cardName(code) };
}

function byTypeThenNumber(a, b) {
  return TYPE_ORDER.indexOf(typeOf(a)) - TYPE_ORDER.indexOf(typeOf(b)) || a.slice(1) - b.slice(1);
}

/** A small picture of the card `code`, for the rules page's examples. */
export function picture(code) {
  return card(face(code), 'sm');
}

export function describe(command) {
  const name = command.card ? cardName(command.card) : '';
  switch (command.type) {
    case 'exchange':
      return t('hats.move.exchange', { card: name, position: command.position });
    case 'black_hat':
      return t('hats.move.black_hat', { card: name });
    case 'discard_draw':
      return t('hats.move.discard_draw', { card: name });
    case 'offer_swap':
      return t('hats.move.offer_swap', { card: name });
    case 'answer_swap':
      return t('hats.move.answer_swap', { card: name });
    default:
      return command.type.replaceAll('_', ' ');
  }
}

export function render(game, ctx) {
  const v = settledView(game);
  if (!v) return waitingNote(game);
  return pickingBoard('cb-hats', (picked, pick) => [
    h('p', { class: 'cb-status', role: 'status' }, status(game, v, ctx)),
    table(v, ctx, picked),
    ownHand(v, ctx, picked, pick),
    h('div', { class: 'cb-seats' }, v.seats.map((seat, i) => seatPanel(game, v, ctx, seat, i))),
  ]);
}

function partnerOf(v, i) {
  return v.seats.length === 4 ? (i + 2) % 4 : null;
}

function status(game, v, ctx) {
  if (v.finished || v.over) return resultLine(game, ctx);
  if (v.turn === null || v.turn === undefined) return t('board.dealing');
  const mine = v.to_act.includes(ctx.mySeat);
  if (v.step === 'answering_swap') {
    const partner = partnerOf(v, v.turn);
    if (mine) return t('hats.status.swap_offered_to_you', { name: seatName(ctx, v.turn) });
    return t('hats.status.swap_answer', { name: seatName(ctx, partner), offerer: seatName(ctx, v.turn) });
  }
  if (mine) {
    const optional = [
      ctx.legal.some((c) => c.type === 'discard_draw') && t('hats.status.opt_discard'),
      ctx.legal.some((c) => c.type === 'offer_swap') && t('hats.status.opt_swap'),
    ].filter(Boolean);
    const first = optional.length ? ` ${t('hats.status.may_first', { what: optional.join(t('board.or')) })}` : '';
    return `${t('hats.status.your_turn')}${first}`;
  }
  return t('board.someones_turn', { name: seatName(ctx, v.turn) });
}

/** The line positions whose card turns face down at scoring (a lower one has the same type). */
function turnedAtScoring(line) {
  const seen = new Set();
  return line.map((code) => {
    const turned = seen.has(typeOf(code));
    seen.add(typeOf(code));
    return turned;
  });
}

function table(v, ctx, picked) {
  const turned = v.finished ? turnedAtScoring(v.line) : [];
  const zero = captioned(card({ rank: 'Ø', symbol: null, color: '#555', name: t('hats.position_zero') }), '0', 'line-zero');
  const line = v.line.map((code, i) => {
    const position = i + 1;
    let picture = card(face(code));
    const command = picked && ctx.legal.find(
      (c) => c.type === 'exchange' && c.card === picked && c.position === position,
    );
    if (command) {
      picture.classList.add('cb-target');
      picture = moveControl(picture, command, describe(command), ctx.send);
    } else if (picked) {
      picture.classList.add('cb-dim');
    }
    if (turned[i]) picture.classList.add('cb-turned');
    return captioned(picture, turned[i] ? t('hats.face_down_at', { position }) : String(position));
  });
  const piles = [
    captioned(cardBack('md', t('hats.deck_label', { n: v.deck })), t('hats.deck_caption', { n: v.deck }), v.deck ? '' : 'empty'),
    captioned(cardBack('md', t('hats.discard_label', { n: v.discard })), t('hats.discard_caption', { n: v.discard }), v.discard ? '' : 'empty'),
  ];
  return h('section', { class: 'cb-felt', 'aria-label': t('board.the_table') },
    zone('Tea table line', h('div', { class: 'cb-cards cb-line' }, zero, line)),
    zone('Deck and discard pile', cardRow(piles),
      v.offered && h('p', {}, t('hats.offered', { card: cardName(v.offered) }))),
    v.deck_cards && zone('Deck, top first', faceUpPile(v.deck_cards)),
    v.discard_cards && zone('Discard pile, oldest first', faceUpPile(v.discard_cards)));
}

/** A pile the audit sees face up. */
function faceUpPile(cards) {
  return cards.length ? cardRow(cards.map((c) => card(face(c), 'sm'))) : h('p', { class: 'cb-empty' }, t('board.empty'));
}

/** The viewer's own hand: the audit's seat hand when the view has no `hand`. */
function handOf(v, ctx) {
  if (ctx.mySeat === null || ctx.mySeat === undefined) return null;
  return v.hand || (v.seats[ctx.mySeat] && v.seats[ctx.mySeat].hand) || null;
}

function ownHand(v, ctx, picked, pick) {
  const hand = handOf(v, ctx);
  if (!hand) return null;
  const acting = v.to_act.includes(ctx.mySeat);
  const cards = [...hand].sort(byTypeThenNumber).map((code) => {
    const picture = card(face(code), 'lg');
    const commands = ctx.legal.filter((c) => c.card === code);
    if (commands.length === 1 && commands[0].type === 'answer_swap') {
      return moveControl(picture, commands[0], describe(commands[0]), ctx.send);
    }
    if (commands.length) {
      return selectControl(picture, code, t('board.pick', { card: cardName(code) }), picked === code, pick);
    }
    if (acting) picture.classList.add('cb-dim');
    return picture;
  });
  const choices = picked
    ? ctx.legal
        .filter((c) => c.card === picked && c.type !== 'exchange')
        .map((c) => moveButton(c, buttonLabel(c), ctx))
    : [];
  const exchanges = picked && ctx.legal.some((c) => c.card === picked && c.type === 'exchange');
  const heading = v.finished ? 'Your favourite hat' : 'Your hand';
  return h('section', { class: 'cb-own-hand', 'aria-label': t('board.your_hand') },
    h('h3', { title: help(heading) }, term(heading)),
    cardRow(cards),
    picked && h('p', { class: 'hint' }, exchanges
      ? t('hats.picked_exchange', { card: cardName(picked) })
      : t('board.picked', { card: cardName(picked) })),
    moveRow(choices));
}

function buttonLabel(command) {
  switch (command.type) {
    case 'black_hat':
      return t('hats.button.black_hat');
    case 'discard_draw':
      return t('hats.button.discard_draw');
    case 'offer_swap':
      return t('hats.button.offer_swap');
    default:
      return describe(command);
  }
}

function seatPanel(game, v, ctx, seat, i) {
  const me = i === ctx.mySeat;
  const badges = [
    me && badge('you'),
    v.turn === i && !v.over && badge(v.step === 'answering_swap' ? 'offering a swap' : 'on turn', 'hot'),
    v.to_act.includes(i) && v.turn !== i && badge('to answer', 'hot'),
    v.cookie === i && badge(v.finished ? 'cookie' : 'cookie now'),
    partnerOf(v, i) !== null && badge(i % 2 === 0 ? 'team 1' : 'team 2'),
    ctx.mySeat !== null && ctx.mySeat !== undefined && partnerOf(v, ctx.mySeat) === i && badge('partner'),
    game.result && game.result.scores && badge(t('board.points', { n: game.result.scores[i] }), '', 'points'),
    winnerBadge(game, i),
  ];
  let hand = null;
  if (seat.hand && !me) hand = cardRow([...seat.hand].sort(byTypeThenNumber).map((c) => card(face(c), 'sm')));
  else if (!seat.hand && !seat.favourite) hand = hiddenHand(seat.hand_size);
  const blackHats = seat.black_hat_cards
    ? seat.black_hat_cards.map((c) => {
        const picture = card(face(c), 'sm');
        picture.classList.add('cb-black-hat');
        picture.setAttribute('aria-label', t('hats.black_hat_card', { card: cardName(c) }));
        return picture;
      })
    : Array.from({ length: seat.black_hats }, () => cardBack('sm', t('hats.black_hat'), true));
  return h('section', { class: `cb-seat${v.to_act.includes(i) ? ' cb-to-act' : ''}`, 'aria-label': seatName(ctx, i) },
    h('h3', {}, seatName(ctx, i), ' ', badges),
    h('p', { class: 'cb-seat-facts' },
      `${t('hats.actions', { done: seat.main_actions, n: MAIN_ACTIONS })} · ${t('hats.black_hats', { n: seat.black_hats })}`),
    hand,
    h('h4', { title: help('Collection') }, term('Collection')),
    seat.collection.length || blackHats.length
      ? cardRow([...seat.collection.map((c) => card(face(c), 'sm')), ...blackHats])
      : h('p', { class: 'cb-empty' }, t('board.nothing_yet')),
    seat.favourite && h('div', {}, h('h4', { title: help('Favourite hat') }, term('Favourite hat')), card(face(seat.favourite), 'sm')));
}
