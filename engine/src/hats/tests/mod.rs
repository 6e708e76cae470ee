//! Tests of Hats: given a deal or a hand-built state, when a command or a
//! scoring, then these events, this state, this violation or this score.

mod bot;
mod property;
mod scoring;
mod setup;
mod turns;
mod views;

use super::{Card, Deal, Hats, HatsCommand, HatsEvent, HatsOptions, HatsState, cards_in_play};
use crate::random::Randomness;
use crate::ruleset::{Ruleset, Seat, apply_all};

/// The card with code `code`.
pub(super) fn c(code: &str) -> Card {
    Card::parse(code).unwrap_or_else(|| panic!("bad card {code}"))
}

/// The cards of a space-separated list of codes.
pub(super) fn cards(codes: &str) -> Vec<Card> {
    codes.split_whitespace().map(c).collect()
}

/// The test games' randomness.
pub(super) fn rng() -> Randomness {
    Randomness::from_seed("hats tests")
}

/// An explicit deal with the given line, the given first cards of each hand
/// and the given top of the deck; the rest of the cards in play fill the
/// hands, then the deck, in type-then-number order.
pub(super) fn deal(players: usize, line: &str, hands: &[&str], deck_top: &str) -> Deal {
    let line = cards(line);
    let mut hands: Vec<Vec<Card>> = (0..players)
        .map(|i| hands.get(i).map(|h| cards(h)).unwrap_or_default())
        .collect();
    let mut deck = cards(deck_top);
    let used: Vec<Card> = line
        .iter()
        .chain(hands.iter().flatten())
        .chain(&deck)
        .copied()
        .collect();
    let mut rest = cards_in_play(players).filter(|c| !used.contains(c));
    for hand in &mut hands {
        while hand.len() < 9 {
            hand.push(rest.next().expect("enough cards"));
        }
    }
    deck.extend(rest);
    Deal { line, hands, deck }
}

/// A started game with this deal, `first_seat` starting.
pub(super) fn game(players: usize, first_seat: u8, deal: Deal) -> HatsState {
    let options = HatsOptions {
        first_seat,
        deals: vec![deal],
    };
    let mut state = Hats::new_game(players, options).expect("valid options");
    let opening = Hats::start(&state, &rng());
    apply_all::<Hats>(&mut state, &opening);
    state
}

/// `seat` sends `command`, which must be accepted; the events are applied.
pub(super) fn play(state: &mut HatsState, seat: u8, command: HatsCommand) -> Vec<HatsEvent> {
    let events = Hats::decide(state, Seat(seat), &command, &rng())
        .unwrap_or_else(|e| panic!("{command:?} from seat {seat} refused: {e}"));
    apply_all::<Hats>(state, &events);
    events
}

/// `seat` sends `command`, which must be refused; returns the reason.
pub(super) fn refused(state: &HatsState, seat: u8, command: HatsCommand) -> String {
    match Hats::decide(state, Seat(seat), &command, &rng()) {
        Ok(events) => panic!("{command:?} from seat {seat} accepted: {events:?}"),
        Err(e) => e.0,
    }
}

pub(super) fn exchange(card: &str, position: u8) -> HatsCommand {
    HatsCommand::Exchange {
        card: c(card),
        position,
    }
}

pub(super) fn black_hat(card: &str) -> HatsCommand {
    HatsCommand::BlackHat { card: c(card) }
}

pub(super) fn discard_draw(card: &str) -> HatsCommand {
    HatsCommand::DiscardDraw { card: c(card) }
}

pub(super) fn offer_swap(card: &str) -> HatsCommand {
    HatsCommand::OfferSwap { card: c(card) }
}

pub(super) fn answer_swap(card: &str) -> HatsCommand {
    HatsCommand::AnswerSwap { card: c(card) }
}

/// The seat on turn makes a black hat of its first card.
pub(super) fn pass_with_black_hat(state: &mut HatsState) {
    let seat = state.current;
    let card = state.hands[usize::from(seat)][0];
    play(state, seat, HatsCommand::BlackHat { card });
}
