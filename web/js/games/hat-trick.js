// The Hat Trick board: trump and its indicator, the trick on the table, the
// scoring tricks and predictions, every seat's tricks and score, and the
// viewer's hand. Playing a card is one click on it; while a prediction may
// be made, a second row of the playable cards plays with the claim.

import { h, moveControl } from '../dom.js';
import {
  badge, captioned, card, cardBack, cardRow, hiddenHand, moveRow, resultLine,
  seatName, waitingNote, winnerBadge, settledView, zone } from './cards.js';
import { help, term } from './glossary.js';
import { known, t } from '../i18n.js';

/** The ruleset's name as players know it. */
export const NAME = 'Hat Trick';

/** The suits by code letter: name, plural, symbol, ink, sign. */
const SUITS = {
  H: ['heart', 'hearts', '#c62828', '♥'],
  D: ['diamond', 'diamonds', '#c62828', '♦'],
  C: ['club', 'clubs', '#1d1d1d', '♣'],
  S: ['spade', 'spades', '#1d1d1d', '♠'],
};
const JOKER_INK = '#6a1b9a';
/** The three scoring tricks' names (messages), in order: the 1st, the 6th, the last. */
const SCORING = ['hat_trick.first', 'hat_trick.sixth', 'hat_trick.last'];

function isJoker(code) {
  return code.startsWith('JK');
}

/** A card code (`10H`, `QS`, `JK1`) in words: "10 of hearts", "queen of spades", "joker 1". */
function cardName(code) {
  if (isJoker(code)) return code.length > 2 ? t('hat_trick.joker_n', { n: code.slice(2) }) : t('hat_trick.joker');
  const rank = code.slice(0, -1);
  return t(`cards.card.${code.at(-1)}`, { rank: known(`cards.rank.${rank}`) ? t(`cards.rank.${rank}`) : rank });
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
  return t(command.predict ? 'hat_trick.move.play_predict' : 'board.move.play', { card: cardName(command.card) });
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
  if (actor === undefined) return t('hat_trick.deal_over');
  if (actor !== ctx.mySeat) return t('board.status.to_play', { name: seatName(ctx, actor) });
  return ctx.legal.some((c) => c.predict)
    ? t('hat_trick.status.play_or_predict', { trick: claimedTrick(v) })
    : t('board.status.play_mine');
}

function trumpName(v) {
  const trump = v.trump === 'NT' ? t('hat_trick.no_trump') : `${SUITS[v.trump][3]} ${t(`cards.suit.${v.trump}`)}`;
  return v.negative ? t('hat_trick.negative_deal', { trump }) : trump;
}

function facts(v, ctx) {
  return [
    t('hat_trick.deal_of', { deal: v.round + 1, n: v.rounds }),
    t('board.dealer', { name: seatName(ctx, v.dealer) }),
    v.sitting_out !== null && v.sitting_out !== undefined && t('hat_trick.sits_out', { name: seatName(ctx, v.sitting_out) }),
  ].filter(Boolean).join(' · ');
}

function table(v, ctx) {
  const indicator = v.indicator && captioned(card(face(v.indicator)),
    v.indicator_holder !== null && v.indicator_holder !== undefined
      ? t('hat_trick.indicator_in_hand', { name: seatName(ctx, v.indicator_holder) })
      : t('hat_trick.indicator'));
  const left = v.left
    .filter((c) => c !== v.indicator)
    .map((c) => captioned(c ? card(face(c)) : cardBack('md', t('hat_trick.left_over_card')), t('hat_trick.left_over')));
  const shown = [indicator, ...left].filter(Boolean);
  const trick = v.trick.length
    ? cardRow(v.trick.map((p) => captioned(card(face(p.card)), seatName(ctx, p.seat))))
    : h('p', { class: 'cb-empty' }, t('board.leads', { name: seatName(ctx, v.leader) }));
  const scoring = SCORING.map((key, k) => {
    const taker = v.scoring_tricks[k];
    return h('li', {}, `${t(key)}${t('common.colon')}${taker === null || taker === undefined ? '—' : seatName(ctx, taker)}`);
  });
  const predictions = v.predictions.filter(Boolean).map((p) => h('li', {},
    t('hat_trick.claims', { name: seatName(ctx, p.seat), trick: p.claims, on: p.made_on, value: p.value })));
  return h('section', { class: 'cb-felt', 'aria-label': t('board.the_table') },
    zone('Trump', h('p', {}, trumpName(v)), shown.length > 0 && cardRow(shown)),
    zone(t('hat_trick.trick_of', { trick: Math.min(v.trick_number, lastTrick(v)), n: lastTrick(v) }), trick),
    zone('Scoring tricks', h('ul', { class: 'cb-chips' }, scoring),
      predictions.length > 0 && h('ul', { class: 'cb-chips', 'aria-label': t('hat_trick.predictions') }, predictions)));
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
    moveControl(card(face(c.card)), c, t('hat_trick.predict_label', { move: describe(c), trick: claimedTrick(v) }), ctx.send));
  const value = predictionValue(v.trick_number);
  return h('section', { class: 'cb-own-hand', 'aria-label': t('board.your_hand') },
    h('h3', { title: help('Your hand') }, term('Your hand')),
    cardRow(cards),
    predicting.length > 0 && h('div', { class: 'cb-predict' },
      h('p', { class: 'hint' },
        t('hat_trick.predict_hint', { trick: claimedTrick(v), value, loss: 2 * value })),
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
      `${t('board.points', { n: score })} · ${t('hat_trick.tricks_this_deal', { n: v.tricks_won[i] })}`),
    cards);
}

function lastResult(v, ctx) {
  const r = v.last_result;
  if (!r) return null;
  const takers = SCORING.map((key, k) => `${t(key)} ${seatName(ctx, r.scoring_tricks[k])}`).join(', ');
  const hatTrick = r.hat_trick === null || r.hat_trick === undefined ? '' : ` ${t('hat_trick.hat_trick_by', { name: seatName(ctx, r.hat_trick) })}`;
  const predictions = r.predictions.map((p) =>
    ` ${t(p.won ? 'hat_trick.prediction_won' : 'hat_trick.prediction_lost', { name: seatName(ctx, p.seat), trick: p.claims, points: `${p.points > 0 ? '+' : ''}${p.points}` })}`).join('');
  const points = r.points.map((p, i) => `${seatName(ctx, i)} ${p > 0 ? '+' : ''}${p}`).join(', ');
  return h('p', { class: 'cb-facts' },
    t('hat_trick.last_result', { deal: r.round + 1, trump: `${r.trump === 'NT' ? t('hat_trick.no_trump') : t(`cards.suit.${r.trump}`)}${r.negative ? t('hat_trick.negative_suffix') : ''}`,
      takers, hat_trick: hatTrick, predictions, points }));
}
