// The Goathead board: the bidding, the kitty, the trick on the table, every
// seat's game and trick points, and the viewer's hand. Playing or burying a
// card is one click on it; a 4-player kitty swap is two (a card of the hand,
// then a kitty card); bids and the declarer's choices are buttons.

import { h, moveControl, selectControl } from '../dom.js';
import {
  badge, captioned, card, cardBack, cardRow, hiddenHand, moveButton, moveRow,
  nameList, pickingBoard, resultLine, seatName, waitingNote, winnerBadge, settledView, zone } from './cards.js';
import { help } from './glossary.js';

/** The ruleset's name as players know it. */
export const NAME = 'Goathead';

/** The suits by code letter: name, plural, symbol, ink, sign. */
const SUITS = {
  C: ['club', 'clubs', '#1d1d1d', '♣'],
  S: ['spade', 'spades', '#1d1d1d', '♠'],
  H: ['heart', 'hearts', '#c62828', '♥'],
  D: ['diamond', 'diamonds', '#c62828', '♦'],
};
const RANKS = { A: 'ace', 10: '10', K: 'king', Q: 'queen', J: 'jack' };

/** A card code (`10S`) in words: "10 of spades". */
function cardName(code) {
  return `${RANKS[code.slice(0, -1)]} of ${SUITS[code.at(-1)][1]}`;
}

function face(code) {
  const [symbol, , color] = SUITS[code.at(-1)];
  return { rank: code.slice(0, -1), symbol, color, name: cardName(code) };
}

/** A contract code (`suit:H`, `nil`, `court`, `leasters`) in words. */
function contractName(contract) {
  if (contract.startsWith('suit:')) {
    const [, plural, , sign] = SUITS[contract.slice(5)];
    return `${sign} ${plural}`;
  }
  return contract;
}

/** A small picture of the card `code`, for the rules page's examples. */
export function picture(code) {
  return card(face(code), 'sm');
}

export function describe(command) {
  switch (command.type) {
    case 'bid':
      return `bid ${contractName(command.contract)}`;
    case 'steal':
      return 'steal the contract';
    case 'pass':
      return 'pass';
    case 'take_kitty':
      return 'take the kitty';
    case 'leave_kitty':
      return 'leave the kitty';
    case 'bury':
      return `bury ${cardName(command.card)}`;
    case 'keep_contract':
      return 'keep the contract';
    case 'upgrade':
      return `upgrade to ${contractName(command.contract)}`;
    case 'kitty_swap':
      return `swap ${cardName(command.hand_card)} for the kitty's ${cardName(command.kitty_card)}`;
    case 'kitty_skip':
      return 'pass the kitty on without swapping';
    case 'play':
      return `play ${cardName(command.card)}`;
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
      return mine ? bidChoices(ctx) : `${who} to bid.`;
    case 'kitty_choice':
      return mine ? 'You are the declarer: take the kitty or leave it.' : `${who} decides on the kitty.`;
    case 'bury':
      return mine ? 'Bury a card: click a card of your hand to put it into the kitty.' : `${who} buries cards in the kitty.`;
    case 'contract_choice':
      return mine ? 'Keep the contract or upgrade it.' : `${who} keeps or upgrades the contract.`;
    case 'swap':
      return mine
        ? 'You may swap with the kitty: pick a card of your hand, then a kitty card. Or pass the kitty on.'
        : `${who} may swap a card with the kitty.`;
    case 'play':
      return mine ? 'Your turn: play a card.' : `${who} to play.`;
    default:
      return 'The round is over.';
  }
}

/** What the viewer may do in the bidding, in words. */
function bidChoices(ctx) {
  const choices = [
    ctx.legal.some((c) => c.type === 'bid') && 'bid higher',
    ctx.legal.some((c) => c.type === 'steal') && 'steal the contract',
  ].filter(Boolean);
  return choices.length ? `Your bid: ${choices.join(', ')} or pass.` : 'Your bid: you can only pass.';
}

function facts(v, ctx) {
  const parts = [`Round ${v.round + 1} of ${v.rounds}`, `dealer ${seatName(ctx, v.dealer)}`];
  if (v.contract) {
    parts.push(v.declarer === null || v.declarer === undefined
      ? `contract ${contractName(v.contract)}`
      : `contract ${contractName(v.contract)} by ${seatName(ctx, v.declarer)}`);
  } else if (v.highest_bid) {
    parts.push(`highest bid ${contractName(v.highest_bid)} by ${seatName(ctx, v.bid_leader)}`);
  }
  if (v.players === 3 && v.declarer !== null && v.declarer !== undefined && v.phase !== 'bidding') {
    parts.push(v.kitty_taken ? 'kitty taken' : 'kitty not taken');
  }
  if (v.announced !== null && v.announced !== undefined) {
    parts.push(`${seatName(ctx, v.announced)} holds both black jacks`);
  }
  return parts.join(' · ');
}

function bidLog(v, ctx) {
  return h('ol', { class: 'cb-chips', 'aria-label': 'bids' }, v.bids.map((b) => h('li', {},
    `${seatName(ctx, b.seat)}: ${b.action === 'pass' ? 'pass' : `${b.action === 'steal' ? 'steals ' : ''}${contractName(b.contract)}`}`)));
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
      h('p', {}, `${seatName(ctx, last.winner)} took it: ${last.points} points.`));
  } else if (v.phase === 'play') {
    trick = zone('Trick', h('p', { class: 'cb-empty' }, `${seatName(ctx, v.to_act[0])} leads.`));
  }
  return h('section', { class: 'cb-felt', 'aria-label': 'the table' },
    v.bids.length > 0 && zone('Bids', bidLog(v, ctx)),
    trick,
    v.kitty_size > 0 && zone(`Kitty (${v.kitty_size})`, kitty(v, ctx, picked)));
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
  const hidden = Array.from({ length: v.kitty_size - known.length }, () => cardBack('md', 'kitty card'));
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
      return selectControl(picture, code, `pick ${cardName(code)} to swap with the kitty`, picked === code, pick);
    }
    if (choosingCard) picture.classList.add('cb-dim');
    return picture;
  });
  const buttons = ctx.legal
    .filter((c) => !['play', 'bury', 'kitty_swap'].includes(c.type))
    .map((c) => moveButton(c, buttonLabel(c, v), ctx));
  return h('section', { class: 'cb-own-hand', 'aria-label': 'your hand' },
    h('h3', { title: help('Your hand') }, 'Your hand'),
    cardRow(cards),
    picked && h('p', { class: 'hint' }, `${cardName(picked)}: pick a highlighted kitty card to swap it for.`),
    moveRow(buttons));
}

function buttonLabel(command, v) {
  switch (command.type) {
    case 'bid':
      return `Bid ${contractName(command.contract)}`;
    case 'steal':
      return `Steal ${contractName(v.highest_bid)}`;
    case 'pass':
      return 'Pass';
    case 'upgrade':
      return `Upgrade to ${contractName(command.contract)}`;
    case 'kitty_skip':
      return 'No swap';
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
      `${v.game_points[i]} game points · this round ${v.trick_points[i]} in ${v.tricks_won[i]} trick${v.tricks_won[i] === 1 ? '' : 's'}`),
    hand);
}

function lastRound(v, ctx) {
  const r = v.last_round;
  if (!r) return null;
  let outcome;
  if (r.contract === 'leasters') {
    outcome = 'leasters';
  } else {
    const side = nameList(ctx, r.declaring_side);
    outcome = `${contractName(r.contract)} by ${seatName(ctx, r.declarer)} (side: ${side}), ${r.side_points} points: ${r.made ? 'made' : 'failed'}`;
  }
  const payments = r.payments.map((p, i) => `${seatName(ctx, i)} ${p > 0 ? '+' : ''}${p}`).join(', ');
  return h('p', { class: 'cb-facts' }, `Round ${r.round + 1}: ${outcome}. Game points: ${payments}.`);
}
