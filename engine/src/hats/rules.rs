//! The rules of play: the deal, what a seat may do, and what happens.

use super::cards::Card;
use super::commands::HatsCommand;
use super::events::HatsEvent;
use super::options::Deal;
use super::state::{HatsState, Step};
use crate::random::{Randomness, shuffle};
use crate::ruleset::{RuleViolation, Seat, seat};

/// The opening event: the explicit deal of the options, or the cards in play
/// shuffled with the `deal` stream of round 0 and dealt as the line
/// (positions 1…), then nine cards per seat in seat order, the rest the deck.
pub(crate) fn start(state: &HatsState, rng: &Randomness) -> Vec<HatsEvent> {
    if let Some(deal) = &state.deal {
        return vec![HatsEvent::Dealt {
            line: deal.line.clone(),
            hands: deal.hands.clone(),
            deck: deal.deck.clone(),
        }];
    }
    let Deal { line, hands, deck } = Deal::drawn(state.player_count(), rng);
    vec![HatsEvent::Dealt { line, hands, deck }]
}

/// Whether `s` is the seat on turn at the main step.
fn on_main_step(state: &HatsState, s: Seat) -> bool {
    state.waiting_for() == Some(s) && state.step == Step::Main
}

/// Whether the discard-and-draw is possible at all now: there is a card to
/// draw (a deck, or a discard pile to reshuffle).
fn can_draw(state: &HatsState) -> bool {
    !state.deck.is_empty() || !state.discard.is_empty()
}

/// The exact list of commands `s` may send now.
pub(crate) fn legal_commands(state: &HatsState, s: Seat) -> Vec<HatsCommand> {
    let Some(waiting) = state.waiting_for() else {
        return Vec::new();
    };
    if waiting != s {
        return Vec::new();
    }
    let hand = &state.hands[s.index()];
    match state.step {
        Step::AnsweringSwap => hand
            .iter()
            .map(|&card| HatsCommand::AnswerSwap { card })
            .collect(),
        Step::Main => {
            let in_hand = Card::set_of(hand);
            let mut exchanges = [0u64; 6];
            for (set, line_card) in exchanges.iter_mut().zip(&state.line) {
                *set = in_hand & line_card.replacers();
            }
            let exchange_count: u32 = exchanges.iter().map(|s| s.count_ones()).sum();
            let optional = if state.optional_used {
                0
            } else {
                usize::from(can_draw(state)) + usize::from(state.player_count() == 4)
            };
            let mut out = Vec::with_capacity(
                hand.len() * (optional + 1) + usize::try_from(exchange_count).unwrap_or(0),
            );
            if !state.optional_used {
                if can_draw(state) {
                    out.extend(hand.iter().map(|&card| HatsCommand::DiscardDraw { card }));
                }
                if state.player_count() == 4 {
                    out.extend(hand.iter().map(|&card| HatsCommand::OfferSwap { card }));
                }
            }
            for (i, &set) in exchanges.iter().enumerate() {
                let position = position_number(i);
                let mut rest = set;
                while rest != 0 {
                    let card = Card::lowest_of(rest);
                    rest &= rest - 1;
                    out.push(HatsCommand::Exchange { card, position });
                }
            }
            out.extend(hand.iter().map(|&card| HatsCommand::BlackHat { card }));
            out
        }
    }
}

/// The 1-based line position of index `i`.
fn position_number(i: usize) -> u8 {
    u8::try_from(i + 1).unwrap_or(u8::MAX)
}

/// Validates `command` from `s` and returns the events it causes.
pub(crate) fn decide(
    state: &HatsState,
    s: Seat,
    command: &HatsCommand,
    rng: &Randomness,
) -> Result<Vec<HatsEvent>, RuleViolation> {
    if !state.started {
        return Err(RuleViolation::new("the cards have not been dealt yet"));
    }
    if state.finished() {
        return Err(RuleViolation::new("the game is over"));
    }
    let Some(hand) = state.hands.get(s.index()) else {
        return Err(RuleViolation::new(format!("there is no {s} in this game")));
    };
    let in_hand = |card: Card| {
        if hand.contains(&card) {
            Ok(())
        } else {
            Err(RuleViolation::new(format!(
                "card {card} is not in your hand"
            )))
        }
    };
    let main_step = || {
        if on_main_step(state, s) {
            Ok(())
        } else if state.step == Step::AnsweringSwap {
            Err(RuleViolation::new(format!(
                "{} must first answer the swap offer",
                state.partner(state.current_seat())
            )))
        } else {
            Err(RuleViolation::new(format!(
                "it is not your turn: {} is to play",
                state.current_seat()
            )))
        }
    };
    match *command {
        HatsCommand::DiscardDraw { card } => {
            main_step()?;
            optional_unused(state)?;
            in_hand(card)?;
            if !can_draw(state) {
                return Err(RuleViolation::new(
                    "the deck and the discard pile are both empty: there is nothing to draw",
                ));
            }
            let mut events = Vec::with_capacity(3);
            events.push(HatsEvent::Discarded { seat: s, card });
            let top = if let Some(&top) = state.deck.first() {
                top
            } else {
                let mut deck = Vec::with_capacity(state.discard.len() + 1);
                deck.extend_from_slice(&state.discard);
                deck.push(card);
                shuffle(
                    &mut deck,
                    &mut rng.stream("reshuffle", u64::from(state.reshuffles)),
                );
                let top = deck[0];
                events.push(HatsEvent::Reshuffled { deck });
                top
            };
            events.push(HatsEvent::Drew { seat: s, card: top });
            Ok(events)
        }
        HatsCommand::OfferSwap { card } => {
            main_step()?;
            if state.player_count() != 4 {
                return Err(RuleViolation::new(
                    "partner swaps are played with 4 players only",
                ));
            }
            optional_unused(state)?;
            in_hand(card)?;
            Ok(vec![HatsEvent::SwapOffered { seat: s, card }])
        }
        HatsCommand::AnswerSwap { card } => {
            let offerer = state.current_seat();
            let offered = match state.offered {
                Some(offered)
                    if state.step == Step::AnsweringSwap && state.partner(offerer) == s =>
                {
                    offered
                }
                _ => return Err(RuleViolation::new("no swap offer awaits your answer")),
            };
            in_hand(card)?;
            Ok(vec![HatsEvent::Swapped {
                seat: offerer,
                partner: s,
                offered,
                answered: card,
            }])
        }
        HatsCommand::Exchange { card, position } => {
            main_step()?;
            in_hand(card)?;
            let index = usize::from(position).wrapping_sub(1);
            let Some(&taken) = state.line.get(index) else {
                return Err(RuleViolation::new(format!(
                    "the line has positions 1 to {}, not {position}",
                    state.line.len()
                )));
            };
            if !card.may_replace(taken) {
                return Err(RuleViolation::new(format!(
                    "{card} may not replace {taken}: it needs the same type or a higher number"
                )));
            }
            let mut events = vec![HatsEvent::Exchanged {
                seat: s,
                card,
                position,
                taken,
            }];
            reveal_if_last(state, s, card, &mut events);
            Ok(events)
        }
        HatsCommand::BlackHat { card } => {
            main_step()?;
            in_hand(card)?;
            let mut events = vec![HatsEvent::BlackHatMade { seat: s, card }];
            reveal_if_last(state, s, card, &mut events);
            Ok(events)
        }
    }
}

/// The optional action is used at most once per turn.
fn optional_unused(state: &HatsState) -> Result<(), RuleViolation> {
    if state.optional_used {
        Err(RuleViolation::new(
            "you already discarded or swapped this turn",
        ))
    } else {
        Ok(())
    }
}

/// After the last main action of the game, every seat reveals its last card.
fn reveal_if_last(state: &HatsState, s: Seat, played: Card, events: &mut Vec<HatsEvent>) {
    let total = super::cards::MAIN_ACTIONS * state.player_count();
    if usize::from(state.main_actions) + 1 < total {
        return;
    }
    let favourites = state
        .hands
        .iter()
        .enumerate()
        .filter_map(|(i, hand)| {
            if i == s.index() {
                hand.iter().copied().find(|&c| c != played)
            } else {
                hand.last().copied()
            }
        })
        .collect();
    events.push(HatsEvent::FavouritesRevealed { favourites });
}

/// Removes `card` from `hand`, keeping the order of the others.
fn take_from(hand: &mut Vec<Card>, card: Card) {
    if let Some(i) = hand.iter().position(|&c| c == card) {
        hand.remove(i);
    }
}

/// Ends the turn of the current seat: the next seat clockwise is on turn.
fn end_turn(state: &mut HatsState) {
    state.main_actions = state.main_actions.saturating_add(1);
    state.optional_used = false;
    state.step = Step::Main;
    state.current = seat(state.current_seat().left(state.player_count()).index()).0;
}

/// Applies one event.
pub(crate) fn evolve(state: &mut HatsState, event: &HatsEvent) {
    match event {
        HatsEvent::Dealt { line, hands, deck } => {
            state.line.clone_from(line);
            state.hands.clone_from(hands);
            state.deck.clone_from(deck);
            state.discard.clear();
            state.current = state.first_seat;
            state.step = Step::Main;
            state.started = true;
        }
        HatsEvent::Discarded { seat, card } => {
            take_from(&mut state.hands[seat.index()], *card);
            state.discard.push(*card);
            state.optional_used = true;
        }
        HatsEvent::Reshuffled { deck } => {
            state.deck.clone_from(deck);
            state.discard.clear();
            state.reshuffles = state.reshuffles.saturating_add(1);
        }
        HatsEvent::Drew { seat, card } => {
            if !state.deck.is_empty() {
                state.deck.remove(0);
            }
            state.hands[seat.index()].push(*card);
            state.optional_used = true;
        }
        HatsEvent::SwapOffered { card, .. } => {
            state.offered = Some(*card);
            state.step = Step::AnsweringSwap;
            state.optional_used = true;
        }
        HatsEvent::Swapped {
            seat,
            partner,
            offered,
            answered,
        } => {
            replace_in(&mut state.hands[seat.index()], *offered, *answered);
            replace_in(&mut state.hands[partner.index()], *answered, *offered);
            state.offered = None;
            state.step = Step::Main;
            state.optional_used = true;
        }
        HatsEvent::Exchanged {
            seat,
            card,
            position,
            taken,
        } => {
            take_from(&mut state.hands[seat.index()], *card);
            if let Some(slot) = state.line.get_mut(usize::from(*position).wrapping_sub(1)) {
                *slot = *card;
            }
            state.collections[seat.index()].push(*taken);
            end_turn(state);
        }
        HatsEvent::BlackHatMade { seat, card } => {
            take_from(&mut state.hands[seat.index()], *card);
            state.black_hats[seat.index()].push(*card);
            end_turn(state);
        }
        HatsEvent::FavouritesRevealed { .. } => {}
    }
}

/// Puts `new` in the place of `old` in `hand`.
fn replace_in(hand: &mut [Card], old: Card, new: Card) {
    if let Some(slot) = hand.iter_mut().find(|c| **c == old) {
        *slot = new;
    }
}
