// The Hat Trick board: trump and its indicator, the trick on the table, the
// scoring tricks and predictions, every seat's tricks and score, and the
// viewer's hand. Playing a card is one click on it; while a prediction may
// be made, a second row of the playable cards plays with the claim.

import { h, moveControl } from '../dom.js';
import {
  badge, captioned, card, cardBack, cardRow, hiddenHand, moveRow, resultLine,
  seatName, waitingNote, winnerBadge, settledView, zone } from './cards.js';
import { help } from './glossary.js';

/** The ruleset's name as players know it. */
export const NAME = 'Hat Trick';

/** The suits by code letter: name, plural, symbol, ink, sign. */
const SUITS = {
  H: ['heart', 'hearts', '#c62828', '♥'],
  D: ['diamond', 'diamonds', '#c62828', '♦'],
  C: ['club', 'clubs', '#1d1d1d', '♣'],
  S: ['spade', 'spades', '#1d1d1d', '♠'],
};
const RANKS = { A: 'ace', K: 'king', Q: 'queen', J: 'jack' };
const JOKER_INK = '#6a1b9a';

function isJoker(code) {
  return code.startsWith('JK');
}

/** A card code (`10H`, `QS`, `JK1`) in words: "10 of hearts", "queen of spades", "joker 1". */
function cardName(code) {
  if (isJoker(code)) return code.length > 2 ? `joker ${code.slice(2)}` : 'joker';
  const rank = code.slice(0, -1);
  return `${RANKS[rank] || rank} of ${SUITS[code.at(-1)][1]}`;
}

function face(code) {
  if (isJoker(code)) {
    return { rank: 'JK', symbol: 'star', color: JOKER_INK, name: cardName(code), note: code.slice(2) };
  }
  const [symbol, , color] = SUITS[code.at(-1)];
  return { rank: code.slice(0, -1), symbol, color, name: cardName(code) };
}

/** The last trick of a deal: the 10th with 6 players, else the 11th. */
function lastTrick(v) {
  return v.players === 6 ? 10 : 11;
}

/** The trick a prediction made now claims: the 6th (tricks 2–5) or the last. */
function claimedTrick(v) {
  return v.trick_number <= 5 ? 6 : lastTrick(v);
}

/** What a prediction made on trick `t` is worth (rules: 2 → 4 … 5 → 1, 7 → 4 … 10 → 1). */
function predictionValue(t) {
  return t <= 5 ? 6 - t : 11 - t;
}

/** A small picture of the card `code`, for the rules page's examples. */
export function picture(code) {
  return card(face(code), 'sm');
}

export function describe(command) {
  if (command.type !== 'play') return command.type.replaceAll('_', ' ');
  return command.predict ? `play ${cardName(command.card)} and predict` : `play ${cardName(command.card)}`;
}

export function render(game, ctx) {
  const v = settledView(game);
  if (!v) return waitingNote(game);
  return h('div', { class: 'cb-board cb-hat-trick' },
    h('p', { class: 'cb-status', role: 'status' }, status(game, v, ctx)),
    h('p', { class: 'cb-facts' }, facts(v, ctx)),
    table(v, ctx),
    ownHand(v, ctx),
    h('div', { class: 'cb-seats' }, v.hands.map((hand, i) => seatPanel(game, v, ctx, hand, i))),
    lastResult(v, ctx));
}

function status(game, v, ctx) {
  if (v.finished || v.over) return resultLine(game, ctx);
  const actor = v.to_act[0];
  if (actor === undefined) return 'The deal is over.';
  if (actor !== ctx.mySeat) return `${seatName(ctx, actor)} to play.`;
  return ctx.legal.some((c) => c.predict)
    ? `Your turn: play a card, or play it predicting you take trick ${claimedTrick(v)}.`
    : 'Your turn: play a card.';
}

function trumpName(v) {
  const trump = v.trump === 'NT' ? 'no trump' : `${SUITS[v.trump][3]} ${SUITS[v.trump][1]}`;
  return v.negative ? `${trump}, negative deal` : trump;
}

function facts(v, ctx) {
  return [
    `Deal ${v.round + 1} of ${v.rounds}`,
    `dealer ${seatName(ctx, v.dealer)}`,
    v.sitting_out !== null && v.sitting_out !== undefined && `${seatName(ctx, v.sitting_out)} sits this trick out`,
  ].filter(Boolean).join(' · ');
}

function table(v, ctx) {
  const indicator = v.indicator && captioned(card(face(v.indicator)),
    v.indicator_holder !== null && v.indicator_holder !== undefined
      ? `indicator, in ${seatName(ctx, v.indicator_holder)}'s hand`
      : 'indicator');
  const left = v.left
    .filter((c) => c !== v.indicator)
    .map((c) => captioned(c ? card(face(c)) : cardBack('md', 'left-over card'), 'left over'));
  const shown = [indicator, ...left].filter(Boolean);
  const trick = v.trick.length
    ? cardRow(v.trick.map((p) => captioned(card(face(p.card)), seatName(ctx, p.seat))))
    : h('p', { class: 'cb-empty' }, `${seatName(ctx, v.leader)} leads.`);
  const scoring = ['1st', '6th', 'last'].map((label, k) => {
    const taker = v.scoring_tricks[k];
    return h('li', {}, `${label}: ${taker === null || taker === undefined ? '—' : seatName(ctx, taker)}`);
  });
  const predictions = v.predictions.filter(Boolean).map((p) => h('li', {},
    `${seatName(ctx, p.seat)} claims trick ${p.claims} (made on trick ${p.made_on}, worth ${p.value})`));
  return h('section', { class: 'cb-felt', 'aria-label': 'the table' },
    zone('Trump', h('p', {}, trumpName(v)), shown.length > 0 && cardRow(shown)),
    zone(`Trick ${Math.min(v.trick_number, lastTrick(v))} of ${lastTrick(v)}`, trick),
    zone('Scoring tricks', h('ul', { class: 'cb-chips' }, scoring),
      predictions.length > 0 && h('ul', { class: 'cb-chips', 'aria-label': 'predictions' }, predictions)));
}

function ownHand(v, ctx) {
  if (ctx.mySeat === null || ctx.mySeat === undefined) return null;
  const hand = v.hands[ctx.mySeat];
  if (!Array.isArray(hand) || !hand.length) return null;
  const acting = v.to_act.includes(ctx.mySeat);
  const cards = hand.map((code) => {
    const picture = card(face(code), 'lg');
    const play = ctx.legal.find((c) => c.card === code && !c.predict);
    if (play) return moveControl(picture, play, describe(play), ctx.send);
    if (acting) picture.classList.add('cb-dim');
    return picture;
  });
  const predicting = ctx.legal.filter((c) => c.predict).map((c) =>
    moveControl(card(face(c.card)), c, `${describe(c)} trick ${claimedTrick(v)}`, ctx.send));
  const value = predictionValue(v.trick_number);
  return h('section', { class: 'cb-own-hand', 'aria-label': 'your hand' },
    h('h3', { title: help('Your hand') }, 'Your hand'),
    cardRow(cards),
    predicting.length > 0 && h('div', { class: 'cb-predict' },
      h('p', { class: 'hint' },
        `Or play and predict you take trick ${claimedTrick(v)} (+${value} if you do, −${2 * value} if not):`),
      moveRow(predicting)));
}

function seatPanel(game, v, ctx, hand, i) {
  const me = i === ctx.mySeat;
  const count = Array.isArray(hand) ? hand.length : hand;
  const badges = [
    me && badge('you'),
    v.dealer === i && badge('dealer'),
    v.to_act.includes(i) && badge('to play', 'hot'),
    v.sitting_out === i && badge('sits out'),
    winnerBadge(game, i),
  ];
  const cards = me ? null : Array.isArray(hand)
    ? cardRow(hand.map((c) => card(face(c), 'sm')))
    : count > 0 && hiddenHand(count);
  const score = game.result && game.result.scores ? game.result.scores[i] : v.scores[i];
  return h('section', { class: `cb-seat${v.to_act.includes(i) ? ' cb-to-act' : ''}`, 'aria-label': seatName(ctx, i) },
    h('h3', {}, seatName(ctx, i), ' ', badges),
    h('p', { class: 'cb-seat-facts' },
      `${score} points · ${v.tricks_won[i]} trick${v.tricks_won[i] === 1 ? '' : 's'} this deal`),
    cards);
}

function lastResult(v, ctx) {
  const r = v.last_result;
  if (!r) return null;
  const takers = ['1st', '6th', 'last'].map((label, k) => `${label} ${seatName(ctx, r.scoring_tricks[k])}`).join(', ');
  const hatTrick = r.hat_trick === null || r.hat_trick === undefined ? '' : ` Hat trick: ${seatName(ctx, r.hat_trick)}.`;
  const predictions = r.predictions.map((p) =>
    ` ${seatName(ctx, p.seat)}'s prediction of trick ${p.claims} ${p.won ? 'won' : 'lost'} (${p.points > 0 ? '+' : ''}${p.points}).`).join('');
  const points = r.points.map((p, i) => `${seatName(ctx, i)} ${p > 0 ? '+' : ''}${p}`).join(', ');
  return h('p', { class: 'cb-facts' },
    `Deal ${r.round + 1} (${r.trump === 'NT' ? 'no trump' : SUITS[r.trump][1]}${r.negative ? ', negative' : ''}): ${takers}.${hatTrick}${predictions} Points: ${points}.`);
}
