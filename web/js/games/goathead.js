// The Goathead board: the bidding, the kitty, the trick on the table, every
// seat's game and trick points, and the viewer's hand. Playing or burying a
// card is one click on it; a 4-player kitty swap is two (a card of the hand,
// then a kitty card); bids and the declarer's choices are buttons.

import { h, moveControl, selectControl } from '../dom.js';
import {
  badge, captioned, card, cardBack, cardRow, hiddenHand, moveButton, moveRow,
  nameList, pickingBoard, resultLine, seatName, waitingNote, winnerBadge, settledView, zone } from './cards.js';
import { help, term } from './glossary.js';
import { t } from '../i18n.js';

/** The ruleset's name as players know it. */
export const NAME = 'Goathead';

/** The suits by code letter: name, plural, symbol, ink, sign. */
const SUITS = {
  C: ['club', 'clubs', '#1d1d1d', '♣'],
  S: ['spade', 'spades', '#1d1d1d', '♠'],
  H: ['heart', 'hearts', '#c62828', '♥'],
  D: ['diamond', 'diamonds', '#c62828', '♦'],
};
/** A card code (`10S`) in words: "10 of spades". */
function cardName(code) {
  return t(`cards.card.${code.at(-1)}`, { rank: t(`cards.rank.${code.slice(0, -1)}`) });
}

function face(code) {
  const [symbol, , color] = SUITS[code.at(-1)];
  return { rank: code.slice(0, -1), symbol, color, name: cardName(code) };
}

/** A contract code (`suit:H`, `nil`, `court`, `leasters`) in words. */
function contractName(contract) {
  if (contract.startsWith('suit:')) {
    const suit = contract.slice(5);
    return `${SUITS[suit][3]} ${t(`cards.suit.${suit}`)}`;
  }
  return t(`goathead.contract.${contract}`);
}

/** A small picture of the card `code`, for the rules page's examples. */
export function picture(code) {
  return card(face(code), 'sm');
}

export function describe(command) {
  switch (command.type) {
    case 'bid':
      return t('goathead.move.bid', { contract: contractName(command.contract) });
    case 'steal':
      return t('goathead.move.steal');
    case 'pass':
      return t('goathead.move.pass');
    case 'take_kitty':
      return t('goathead.move.take_kitty');
    case 'leave_kitty':
      return t('goathead.move.leave_kitty');
    case 'bury':
      return t('goathead.move.bury', { card: cardName(command.card) });
    case 'keep_contract':
      return t('goathead.move.keep_contract');
    case 'upgrade':
      return t('goathead.move.upgrade', { contract: contractName(command.contract) });
    case 'kitty_swap':
      return t('goathead.move.kitty_swap', { card: cardName(command.hand_card), kitty: cardName(command.kitty_card) });
    case 'kitty_skip':
      return t('goathead.move.kitty_skip');
    case 'play':
      return t('board.move.play', { card: cardName(command.card) });
    default:
      return command.type.replaceAll('_', ' ');
  }
}

export function render(game, ctx) {
  const v = settledView(game);
  if (!v) return waitingNote(game);
  return pickingBoard('cb-goathead', (picked, pick) => [
    h('p', { class: 'cb-status', role: 'status' }, status(game, v, ctx)),
    h('p', { class: 'cb-facts' }, facts(v, ctx)),
    table(v, ctx, picked),
    ownHand(v, ctx, picked, pick),
    h('div', { class: 'cb-seats' }, v.hand_sizes.map((_, i) => seatPanel(game, v, ctx, i))),
    lastRound(v, ctx),
  ]);
}

function status(game, v, ctx) {
  if (v.phase === 'finished' || v.over) return resultLine(game, ctx);
  const actor = v.to_act[0];
  const mine = actor !== undefined && actor === ctx.mySeat;
  const who = actor === undefined ? '' : seatName(ctx, actor);
  switch (v.phase) {
    case 'bidding':
      return mine ? bidChoices(ctx) : t('goathead.status.to_bid', { name: who });
    case 'kitty_choice':
      return mine ? t('goathead.status.kitty_choice_mine') : t('goathead.status.kitty_choice', { name: who });
    case 'bury':
      return mine ? t('goathead.status.bury_mine') : t('goathead.status.bury', { name: who });
    case 'contract_choice':
      return mine ? t('goathead.status.contract_choice_mine') : t('goathead.status.contract_choice', { name: who });
    case 'swap':
      return mine
        ? t('goathead.status.swap_mine')
        : t('goathead.status.swap', { name: who });
    case 'play':
      return mine ? t('board.status.play_mine') : t('board.status.to_play', { name: who });
    default:
      return t('goathead.status.round_over');
  }
}

/** What the viewer may do in the bidding, in words. */
function bidChoices(ctx) {
  const choices = [
    ctx.legal.some((c) => c.type === 'bid') && t('goathead.bid_higher'),
    ctx.legal.some((c) => c.type === 'steal') && t('goathead.move.steal'),
  ].filter(Boolean);
  return choices.length ? t('goathead.your_bid', { choices: choices.join(', ') }) : t('goathead.your_bid_pass');
}

function facts(v, ctx) {
  const parts = [t('goathead.round_of', { round: v.round + 1, n: v.rounds }), t('board.dealer', { name: seatName(ctx, v.dealer) })];
  if (v.contract) {
    parts.push(v.declarer === null || v.declarer === undefined
      ? t('goathead.contract', { contract: contractName(v.contract) })
      : t('goathead.contract_by', { contract: contractName(v.contract), name: seatName(ctx, v.declarer) }));
  } else if (v.highest_bid) {
    parts.push(t('goathead.highest_bid', { contract: contractName(v.highest_bid), name: seatName(ctx, v.bid_leader) }));
  }
  if (v.players === 3 && v.declarer !== null && v.declarer !== undefined && v.phase !== 'bidding') {
    parts.push(v.kitty_taken ? t('goathead.kitty_taken') : t('goathead.kitty_not_taken'));
  }
  if (v.announced !== null && v.announced !== undefined) {
    parts.push(t('goathead.both_black_jacks', { name: seatName(ctx, v.announced) }));
  }
  return parts.join(' · ');
}

function bidLog(v, ctx) {
  return h('ol', { class: 'cb-chips', 'aria-label': term('Bids') }, v.bids.map((b) => h('li', {},
    t('goathead.bid_line', { name: seatName(ctx, b.seat), bid: b.action === 'pass' ? t('goathead.move.pass')
      : b.action === 'steal' ? t('goathead.steals', { contract: contractName(b.contract) }) : contractName(b.contract) }))));
}

function table(v, ctx, picked) {
  const n = v.players;
  let trick = null;
  if (v.trick.length) {
    trick = zone('Trick', cardRow(v.trick.map((p) => captioned(card(face(p.card)), seatName(ctx, p.seat)))));
  } else if (v.tricks.length) {
    const last = v.tricks.at(-1);
    trick = zone('Last trick',
      cardRow(last.cards.map((c, k) => captioned(card(face(c)), seatName(ctx, (last.leader + k) % n)))),
      h('p', {}, t('goathead.took_it', { name: seatName(ctx, last.winner), n: last.points })));
  } else if (v.phase === 'play') {
    trick = zone('Trick', h('p', { class: 'cb-empty' }, t('board.leads', { name: seatName(ctx, v.to_act[0]) })));
  }
  return h('section', { class: 'cb-felt', 'aria-label': t('board.the_table') },
    v.bids.length > 0 && zone('Bids', bidLog(v, ctx)),
    trick,
    v.kitty_size > 0 && zone(t('goathead.kitty_n', { n: v.kitty_size }), kitty(v, ctx, picked)));
}

/** The kitty: its faces when the viewer may see them (swap targets once a hand card is picked), else backs and the cards the viewer put there. */
function kitty(v, ctx, picked) {
  if (v.kitty) {
    return cardRow(v.kitty.map((code) => {
      const picture = card(face(code));
      const command = picked && ctx.legal.find(
        (c) => c.type === 'kitty_swap' && c.hand_card === picked && c.kitty_card === code,
      );
      if (!command) return picture;
      picture.classList.add('cb-target');
      return moveControl(picture, command, describe(command), ctx.send);
    }));
  }
  const known = v.kitty_known.map((code) => card(face(code)));
  const hidden = Array.from({ length: v.kitty_size - known.length }, () => cardBack('md', t('goathead.kitty_card')));
  return cardRow([...known, ...hidden]);
}

function handOf(v, ctx) {
  if (ctx.mySeat === null || ctx.mySeat === undefined) return null;
  return v.hand || (v.hands && v.hands[ctx.mySeat]) || null;
}

function ownHand(v, ctx, picked, pick) {
  const hand = handOf(v, ctx);
  if (!hand || !hand.length) return null;
  const choosingCard = hand.some((code) => ctx.legal.some((c) => c.card === code || c.hand_card === code));
  const cards = hand.map((code) => {
    const picture = card(face(code), 'lg');
    const direct = ctx.legal.find((c) => c.card === code);
    if (direct) return moveControl(picture, direct, describe(direct), ctx.send);
    if (ctx.legal.some((c) => c.type === 'kitty_swap' && c.hand_card === code)) {
      return selectControl(picture, code, t('goathead.pick_swap', { card: cardName(code) }), picked === code, pick);
    }
    if (choosingCard) picture.classList.add('cb-dim');
    return picture;
  });
  const buttons = ctx.legal
    .filter((c) => !['play', 'bury', 'kitty_swap'].includes(c.type))
    .map((c) => moveButton(c, buttonLabel(c, v), ctx));
  return h('section', { class: 'cb-own-hand', 'aria-label': t('board.your_hand') },
    h('h3', { title: help('Your hand') }, term('Your hand')),
    cardRow(cards),
    picked && h('p', { class: 'hint' }, t('goathead.picked_swap', { card: cardName(picked) })),
    moveRow(buttons));
}

function buttonLabel(command, v) {
  switch (command.type) {
    case 'bid':
      return t('goathead.button.bid', { contract: contractName(command.contract) });
    case 'steal':
      return t('goathead.button.steal', { contract: contractName(v.highest_bid) });
    case 'pass':
      return t('goathead.button.pass');
    case 'upgrade':
      return t('goathead.button.upgrade', { contract: contractName(command.contract) });
    case 'kitty_skip':
      return t('goathead.button.no_swap');
    default: {
      const words = describe(command);
      return words[0].toUpperCase() + words.slice(1);
    }
  }
}

function seatPanel(game, v, ctx, i) {
  const me = i === ctx.mySeat;
  const declaring = v.declaring_side && v.declaring_side.includes(i);
  const badges = [
    me && badge('you'),
    v.dealer === i && badge('dealer'),
    v.declarer === i && badge('declarer'),
    declaring && v.declarer !== i && badge('declaring side'),
    v.to_act.includes(i) && badge('to act', 'hot'),
    winnerBadge(game, i),
  ];
  const hand = me ? null : v.hands && v.hands[i]
    ? cardRow(v.hands[i].map((c) => card(face(c), 'sm')))
    : v.hand_sizes[i] > 0 && hiddenHand(v.hand_sizes[i]);
  return h('section', { class: `cb-seat${v.to_act.includes(i) ? ' cb-to-act' : ''}`, 'aria-label': seatName(ctx, i) },
    h('h3', {}, seatName(ctx, i), ' ', badges),
    h('p', { class: 'cb-seat-facts' },
      `${t('goathead.game_points', { n: v.game_points[i] })} · ${t('goathead.this_round', { points: v.trick_points[i], n: v.tricks_won[i] })}`),
    hand);
}

function lastRound(v, ctx) {
  const r = v.last_round;
  if (!r) return null;
  let outcome;
  if (r.contract === 'leasters') {
    outcome = t('goathead.contract.leasters');
  } else {
    const side = nameList(ctx, r.declaring_side);
    outcome = t(r.made ? 'goathead.outcome_made' : 'goathead.outcome_failed', { contract: contractName(r.contract), name: seatName(ctx, r.declarer), side, n: r.side_points });
  }
  const payments = r.payments.map((p, i) => `${seatName(ctx, i)} ${p > 0 ? '+' : ''}${p}`).join(', ');
  return h('p', { class: 'cb-facts' }, t('goathead.last_round', { round: r.round + 1, outcome, payments }));
}
