//! What Hats gives its bots: determinization and the greedy heuristic.
//!
//! # Determinization
//!
//! Everything public is copied from the view: the line, the face-up
//! collections, how many black hats each seat made, the hand sizes (and so the
//! main actions made), the deck and discard sizes, the seat on turn, the step,
//! whether the optional action was used, and the favourites once revealed. The
//! seat's own hand and black hats are its own, and so is its swap offer while
//! the partner answers.
//!
//! The other cards in play are *unaccounted for*: they are in another seat's
//! hand, among its face-down black hats, on the discard pile or in the deck.
//! Nothing in play tells them apart (every exchange is open, every hidden move
//! is one card for one card, and any card may be discarded, offered or turned
//! into a black hat), so they are shuffled and dealt into those places by the
//! counts of the view. A swap offer that the bot's seat cannot see (it is the
//! partner who answers) is a random card of the offerer's hand.
//!
//! Explicit deals in the options are never read: the server hides them from
//! players, and [`BotRules::public_options`] removes them. The number of past reshuffles is not public either; it only names
//! the random stream of the next reshuffle, so it starts again at zero.

use super::HatsRound;
use super::cards::{Card, cards_in_play};
use super::scoring::{collection_score, cookie_holder, favourite_score};
use super::state::{HatsState, Step};
use super::{Hats, HatsCommand, HatsOptions, HatsView};
use crate::bots::{BotRng, BotRules, Seen, win_share_rewards};
use crate::random::{below, shuffle};
use crate::ruleset::seat;
use crate::ruleset::{GameResult, Seat};

/// Points of the last cookie, as the greedy player counts them.
const COOKIE: f64 = 5.0;

/// How much the greedy player values a card kept in hand, per number: a
/// higher card replaces more line cards later. Also the least gain for which
/// it discards (or offers) a card to draw a new one.
const KEEP_PER_NUMBER: f64 = 0.1;

impl BotRules for Hats {
    /// Everything but the explicit deal, which players are not shown.
    fn public_options(options: &HatsOptions) -> HatsOptions {
        HatsOptions {
            first_seat: options.first_seat,
            deals: Vec::new(),
        }
    }

    fn determinize(seen: &Seen<'_, Self>, rng: &mut BotRng) -> HatsState {
        determinize(seen, rng)
    }

    /// The greedy player scores a table as the game would end now: each seat's
    /// collection against the line (face-up cards by the position of their
    /// type's face-up line card, black hats 1), the cookie (5) to its current
    /// holder, and for its own seat the best favourite its hand still allows.
    /// Its standing is its score minus the best other seat's (with 4 players
    /// its team's sum minus the other team's).
    ///
    /// - Main action: the exchange or black hat after which its standing is
    ///   best.
    /// - Discard and draw (or, with 4 players, a swap offer): for each card it
    ///   could give, the average over the cards it cannot see of the best
    ///   standing after the draw, less a little for the number of the card
    ///   given away (high cards replace more line cards later); it gives the
    ///   best such card if that beats its best main action now by more than
    ///   0.1 point.
    /// - Answer to a swap: the card with which its partner, who plays next,
    ///   makes the best main action for the team.
    ///
    /// Equal choices are broken with `rng`.
    fn greedy(seen: &Seen<'_, Self>, rng: &mut BotRng) -> HatsCommand {
        greedy(seen, rng)
    }

    /// The share of the win (as by default) for most of the reward, and the
    /// rest by the score margin: the seat's score minus the best other
    /// seat's (with 4 players the teams' sums), squashed into `0..=1`.
    ///
    /// A game of Hats often ends a few points apart and its random playouts
    /// swing widely; the margin tells a search how far a command moved the
    /// game where win or loss alone says little. (Measured with 2 players at
    /// 2000 iterations against greedy, 300 games: the margin per game rose
    /// from +0.8 to +1.5 points; the win share, 68 % → 70 %, within noise.)
    fn rewards(result: &GameResult<HatsRound>, players: usize) -> Vec<f64> {
        let win = win_share_rewards(result, players);
        let margins = margins(&result.scores);
        win.iter()
            .zip(margins)
            .map(|(w, m)| {
                let shaped = 0.5 + 0.5 * (f64::from(m) / MARGIN_SCALE).tanh();
                WIN_WEIGHT * w + (1.0 - WIN_WEIGHT) * shaped
            })
            .collect()
    }

    /// The main action the greedy player would make from the actor's hand
    /// in `state` (or, answering a swap, the card with which the partner
    /// makes its best main action), without the discard it would weigh (too
    /// slow for a playout); a uniformly random command one time in
    /// [`RANDOM_ONE_IN`], which is how a playout discards.
    fn playout_command(
        state: &HatsState,
        actor: Seat,
        legal: &[HatsCommand],
        rng: &mut BotRng,
    ) -> HatsCommand {
        if below(rng, RANDOM_ONE_IN) == 0 {
            return legal[below(rng, legal.len())];
        }
        let me = actor.index();
        let table = Table::of_state(state);
        if state.step == Step::AnsweringSwap {
            let offerer = usize::from(state.current);
            return pick(legal, rng, |command| match command {
                HatsCommand::AnswerSwap { card } => best_main(&table, offerer, &[card]),
                _ => f64::NEG_INFINITY,
            });
        }
        let hand = &state.hands[me];
        pick(legal, rng, |command| match command {
            HatsCommand::Exchange { .. } | HatsCommand::BlackHat { .. } => {
                value_of(&table, me, hand, command)
            }
            _ => f64::NEG_INFINITY,
        })
    }

    /// The other seats play as the playouts do in the tree too, each from
    /// its own hand.
    const OTHERS_BY_POLICY: bool = true;

    /// The [`ROOT_MAIN`] main actions the greedy player rates best, the
    /// [`ROOT_OPTIONAL`] best cards to give away (discard or offer), and
    /// every answer to a swap: the greedy command is always among them.
    fn root_candidates(seen: &Seen<'_, Self>) -> Vec<HatsCommand> {
        let me = seen.seat.index();
        let table = Table::of(seen.view);
        let hand = seen.view.hand.clone().unwrap_or_default();
        let unseen = unaccounted(seen);
        let mut main = Vec::new();
        let mut optional = Vec::new();
        let mut out = Vec::new();
        for &command in seen.legal {
            match command {
                HatsCommand::Exchange { .. } | HatsCommand::BlackHat { .. } => {
                    main.push((value_of(&table, me, &hand, command), command));
                }
                HatsCommand::DiscardDraw { card } | HatsCommand::OfferSwap { card } => {
                    optional.push((value_of_giving(&table, me, &hand, card, &unseen), command));
                }
                _ => out.push(command),
            }
        }
        for (mut list, keep) in [(main, ROOT_MAIN), (optional, ROOT_OPTIONAL)] {
            list.sort_by(|a, b| b.0.total_cmp(&a.0));
            // Ties with the last kept are kept too: greedy breaks them at random.
            let floor = list.get(keep.saturating_sub(1)).map(|(v, _)| *v - 1e-9);
            out.extend(
                list.into_iter()
                    .filter(|(v, _)| floor.is_none_or(|f| *v >= f))
                    .map(|(_, c)| c),
            );
        }
        if out.is_empty() {
            seen.legal.to_vec()
        } else {
            out
        }
    }
}

/// The main actions a search weighs at its root.
const ROOT_MAIN: usize = 6;

/// The cards to give away a search weighs at its root.
const ROOT_OPTIONAL: usize = 3;

/// One playout command in this many is drawn at random.
const RANDOM_ONE_IN: usize = 10;

/// The part of a search's reward given by the win (the rest by the margin).
const WIN_WEIGHT: f64 = 0.7;

/// The score margin (in points) that earns about three quarters of the
/// margin's part of the reward.
const MARGIN_SCALE: f64 = 8.0;

/// Each seat's margin: its score minus the best other seat's, or with 4
/// players its team's sum minus the other team's.
fn margins(scores: &[i32]) -> Vec<i32> {
    let n = scores.len();
    (0..n)
        .map(|i| {
            if n == 4 {
                scores[i] + scores[(i + 2) % 4] - scores[(i + 1) % 4] - scores[(i + 3) % 4]
            } else {
                let best = (0..n).filter(|&j| j != i).map(|j| scores[j]).max();
                scores[i] - best.unwrap_or(scores[i])
            }
        })
        .collect()
}

/// A complete state consistent with what `seen.seat` sees (see the module
/// documentation).
fn determinize(seen: &Seen<'_, Hats>, rng: &mut BotRng) -> HatsState {
    let view = seen.view;
    let players = seen.players;
    let mut state = HatsState::new(players, seen.options().first_seat, None);
    state.started = !view.line.is_empty();
    state.line.clone_from(&view.line);
    state.collections = view.seats.iter().map(|s| s.collection.clone()).collect();
    let mut hidden = unaccounted(seen);
    shuffle(&mut hidden, rng);
    let mut hidden = hidden.into_iter();
    for (i, seat_view) in view.seats.iter().enumerate() {
        let (hand, black) = match (&seat_view.hand, &seat_view.black_hat_cards) {
            (Some(hand), Some(black)) => (hand.clone(), black.clone()),
            _ if i == seen.seat.index() => (
                view.hand.clone().unwrap_or_default(),
                view.black_hat_cards.clone().unwrap_or_default(),
            ),
            _ => {
                let unseen = seat_view.hand_size - usize::from(seat_view.favourite.is_some());
                let mut hand: Vec<Card> = hidden.by_ref().take(unseen).collect();
                hand.extend(seat_view.favourite);
                let black = hidden.by_ref().take(seat_view.black_hats).collect();
                (hand, black)
            }
        };
        state.hands[i] = hand;
        state.black_hats[i] = black;
    }
    state.discard = hidden.by_ref().take(view.discard).collect();
    state.deck = hidden.by_ref().take(view.deck).collect();
    restore_turn(&mut state, view, rng);
    state
}

/// The cards in play that `seen.seat` cannot place: not on the line, in a
/// face-up collection, in its own hand or black hats, or a revealed favourite.
fn unaccounted(seen: &Seen<'_, Hats>) -> Vec<Card> {
    let view = seen.view;
    let mut known = Card::set_of(&view.line);
    for s in &view.seats {
        known |= Card::set_of(&s.collection);
        known |= Card::set_of(s.hand.as_deref().unwrap_or_default());
        known |= Card::set_of(s.black_hat_cards.as_deref().unwrap_or_default());
        known |= Card::set_of(s.favourite.as_slice());
    }
    known |= Card::set_of(view.hand.as_deref().unwrap_or_default());
    known |= Card::set_of(view.black_hat_cards.as_deref().unwrap_or_default());
    cards_in_play(seen.players)
        .filter(|c| known & (1 << c.index()) == 0)
        .collect()
}

/// Copies the turn from the view: who is on turn, the step, the optional
/// action, the main actions made, and the swap offer (a random card of the
/// offerer's hand when the view does not show it).
fn restore_turn(state: &mut HatsState, view: &HatsView, rng: &mut BotRng) {
    if let Some(turn) = view.turn {
        state.current = turn.0;
    }
    state.step = view.step.unwrap_or(Step::Main);
    state.optional_used = view.optional_used;
    let made: usize = view.seats.iter().map(|s| s.main_actions).sum();
    state.main_actions = u8::try_from(made).unwrap_or(u8::MAX);
    if state.step == Step::AnsweringSwap {
        let hand = &state.hands[usize::from(state.current)];
        state.offered = view
            .offered
            .or_else(|| (!hand.is_empty()).then(|| hand[below(rng, hand.len())]));
    }
}

/// The public table as the greedy player weighs it.
#[derive(Clone)]
struct Table {
    line: Vec<Card>,
    collections: Vec<Vec<Card>>,
    black_hats: Vec<usize>,
}

impl Table {
    fn of(view: &HatsView) -> Table {
        Table {
            line: view.line.clone(),
            collections: view.seats.iter().map(|s| s.collection.clone()).collect(),
            black_hats: view.seats.iter().map(|s| s.black_hats).collect(),
        }
    }

    fn of_state(state: &HatsState) -> Table {
        Table {
            line: state.line.clone(),
            collections: state.collections.clone(),
            black_hats: state.black_hats.iter().map(Vec::len).collect(),
        }
    }

    /// The table after `who` makes the main action `command` (an exchange or
    /// a black hat; anything else changes nothing).
    fn after(&self, who: usize, command: HatsCommand) -> Table {
        let mut next = self.clone();
        match command {
            HatsCommand::Exchange { card, position } => {
                if let Some(slot) = next.line.get_mut(usize::from(position).wrapping_sub(1)) {
                    next.collections[who].push(*slot);
                    *slot = card;
                }
            }
            HatsCommand::BlackHat { .. } => next.black_hats[who] += 1,
            _ => {}
        }
        next
    }

    /// `me`'s standing if the game ended now with `hand` left: its score
    /// (with the best favourite of `hand`) minus the best other seat's, or
    /// with 4 players its team's minus the other team's.
    fn standing(&self, me: usize, hand: &[Card]) -> f64 {
        let cookie = cookie_holder(&self.collections, &self.black_hats);
        let scores: Vec<f64> = (0..self.collections.len())
            .map(|i| {
                let points = collection_score(&self.line, &self.collections[i], self.black_hats[i]);
                let cookie = if cookie == Some(seat(i)) { COOKIE } else { 0.0 };
                f64::from(points) + cookie
            })
            .collect();
        let favourite = hand
            .iter()
            .map(|&f| favourite_score(&self.collections[me], f))
            .max()
            .map_or(0.0, f64::from);
        let players = scores.len();
        if players == 4 {
            let team = |s: usize| scores[s] + scores[(s + 2) % 4];
            team(me) + favourite - team((me + 1) % 4)
        } else {
            let best_other = (0..players)
                .filter(|&i| i != me)
                .map(|i| scores[i])
                .fold(f64::NEG_INFINITY, f64::max);
            scores[me] + favourite - best_other
        }
    }
}

/// The main actions `hand` allows on `line`: every legal exchange and every
/// black hat.
fn main_actions(line: &[Card], hand: &[Card]) -> Vec<HatsCommand> {
    let mut out = Vec::with_capacity(hand.len() * (line.len() + 1));
    for &card in hand {
        for (i, &line_card) in line.iter().enumerate() {
            if card.may_replace(line_card) {
                let position = u8::try_from(i + 1).unwrap_or(u8::MAX);
                out.push(HatsCommand::Exchange { card, position });
            }
        }
        out.push(HatsCommand::BlackHat { card });
    }
    out
}

/// The card a main action plays from the hand.
fn played(command: HatsCommand) -> Option<Card> {
    match command {
        HatsCommand::Exchange { card, .. } | HatsCommand::BlackHat { card } => Some(card),
        _ => None,
    }
}

/// `me`'s standing after the main action `command` from `hand`.
fn value_of(table: &Table, me: usize, hand: &[Card], command: HatsCommand) -> f64 {
    let left: Vec<Card> = hand
        .iter()
        .copied()
        .filter(|&c| Some(c) != played(command))
        .collect();
    table.after(me, command).standing(me, &left)
}

/// `me`'s best standing after one main action from `hand`.
fn best_main(table: &Table, me: usize, hand: &[Card]) -> f64 {
    main_actions(&table.line, hand)
        .into_iter()
        .map(|c| value_of(table, me, hand, c))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// The expected best standing after giving `card` away and getting one of
/// `unseen` (each equally likely), less the worth of keeping `card`.
fn value_of_giving(table: &Table, me: usize, hand: &[Card], card: Card, unseen: &[Card]) -> f64 {
    if unseen.is_empty() {
        return f64::NEG_INFINITY;
    }
    let mut next: Vec<Card> = hand.iter().copied().filter(|&c| c != card).collect();
    let mut total = 0.0;
    for &drawn in unseen {
        next.push(drawn);
        total += best_main(table, me, &next);
        next.pop();
    }
    total / unseen.len() as f64 - KEEP_PER_NUMBER * f64::from(card.number())
}

/// The greedy command (see [`BotRules::greedy`] for [`Hats`]).
fn greedy(seen: &Seen<'_, Hats>, rng: &mut BotRng) -> HatsCommand {
    let me = seen.seat.index();
    let table = Table::of(seen.view);
    let hand = seen.view.hand.clone().unwrap_or_default();
    if seen.view.step == Some(Step::AnsweringSwap) {
        let offerer = (me + 2) % seen.players.max(1);
        return pick(seen.legal, rng, |command| match command {
            HatsCommand::AnswerSwap { card } => best_main(&table, offerer, &[card]),
            _ => f64::NEG_INFINITY,
        });
    }
    let main = pick(seen.legal, rng, |command| match command {
        HatsCommand::Exchange { .. } | HatsCommand::BlackHat { .. } => {
            value_of(&table, me, &hand, command)
        }
        _ => f64::NEG_INFINITY,
    });
    let now = value_of(&table, me, &hand, main);
    let unseen = unaccounted(seen);
    let giving = |command: HatsCommand| match command {
        HatsCommand::DiscardDraw { card } | HatsCommand::OfferSwap { card } => {
            value_of_giving(&table, me, &hand, card, &unseen)
        }
        _ => f64::NEG_INFINITY,
    };
    let optional = pick(seen.legal, rng, giving);
    if giving(optional) > now + KEEP_PER_NUMBER {
        optional
    } else {
        main
    }
}

/// The legal command of highest `value`; equal values are broken with `rng`.
fn pick(
    legal: &[HatsCommand],
    rng: &mut BotRng,
    value: impl Fn(HatsCommand) -> f64,
) -> HatsCommand {
    let values: Vec<f64> = legal.iter().map(|&c| value(c)).collect();
    let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let ties: Vec<usize> = (0..legal.len())
        .filter(|&i| values[i] >= best - 1e-9)
        .collect();
    let i = ties
        .get(below(rng, ties.len().max(1)))
        .copied()
        .unwrap_or(0);
    legal[i]
}
