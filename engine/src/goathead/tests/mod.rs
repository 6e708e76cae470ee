//! Tests of Goathead: given an explicit deal or a hand-built state, when these
//! commands, then these events, this state, this violation or this score.

mod bidding;
mod bot;
mod kitty;
mod partners;
mod play;
mod property;
mod scoring;
mod setup;
mod views;

use super::*;
use crate::random::Randomness;
use crate::ruleset::{Ruleset, Seat, apply_all, seat};

/// The card with code `code`.
pub(super) fn c(code: &str) -> Card {
    Card::parse(code).unwrap_or_else(|| panic!("bad card {code}"))
}

/// The cards of a space-separated list of codes.
pub(super) fn cards(codes: &str) -> Vec<Card> {
    codes.split_whitespace().map(c).collect()
}

/// The set of a space-separated list of codes.
pub(super) fn set(codes: &str) -> CardSet {
    CardSet::of(cards(codes))
}

/// The test games' randomness.
pub(super) fn rng() -> Randomness {
    Randomness::from_seed("goathead tests")
}

/// An explicit deal: the given hands and kitty.
pub(super) fn deal(hands: &[&str], kitty: &str) -> Deal {
    Deal {
        hands: hands.iter().map(|h| cards(h)).collect(),
        kitty: cards(kitty),
    }
}

/// A started match of `rounds` rounds with these explicit deals.
pub(super) fn game_with(players: usize, rounds: u8, deals: Vec<Deal>) -> GoatheadState {
    let options = GoatheadOptions { rounds, deals };
    let mut state = Goathead::new_game(players, options).expect("valid options");
    let opening = Goathead::start(&state, &rng());
    apply_all::<Goathead>(&mut state, &opening);
    state
}

/// A started one-round match with this deal.
pub(super) fn game(players: usize, deal: Deal) -> GoatheadState {
    game_with(players, 1, vec![deal])
}

/// A 3-player deal: seat 0 `♣ A 10 K Q J, JS`, seat 1 the rest of ♠ and
/// `AH`, seat 2 the rest of ♥ and `AD 10D`, the kitty `KD QD`... spelled out.
pub(super) fn deal3() -> Deal {
    deal(
        &[
            "AC 10C KC QC JC JS",
            "AS 10S KS QS AH JH",
            "10H KH QH AD 10D JD",
        ],
        "KD QD",
    )
}

/// A 4-player deal: seat 0 `JC JS AC 10C`, seat 1 `AS 10S KS QS`, seat 2
/// `AH 10H KH QH`, seat 3 `AD 10D KD QD`, the kitty `KC QC JH JD`.
pub(super) fn deal4() -> Deal {
    deal(
        &[
            "JC JS AC 10C",
            "AS 10S KS QS",
            "AH 10H KH QH",
            "AD 10D KD QD",
        ],
        "KC QC JH JD",
    )
}

/// `seat` sends `command`, which must be accepted; its events are applied
/// and returned.
pub(super) fn act(
    state: &mut GoatheadState,
    s: u8,
    command: GoatheadCommand,
) -> Vec<GoatheadEvent> {
    let events = Goathead::decide(state, Seat(s), &command, &rng())
        .unwrap_or_else(|e| panic!("{command:?} from seat {s} refused: {e}"));
    apply_all::<Goathead>(state, &events);
    events
}

/// `seat` sends `command`, which must be refused; returns the reason.
pub(super) fn refused(state: &GoatheadState, s: u8, command: GoatheadCommand) -> String {
    match Goathead::decide(state, Seat(s), &command, &rng()) {
        Ok(events) => panic!("{command:?} from seat {s} accepted: {events:?}"),
        Err(e) => e.0,
    }
}

pub(super) fn bid(contract: &str) -> GoatheadCommand {
    GoatheadCommand::Bid {
        contract: Contract::parse(contract).expect("contract"),
    }
}

pub(super) fn pass() -> GoatheadCommand {
    GoatheadCommand::Pass {}
}

pub(super) fn play(code: &str) -> GoatheadCommand {
    GoatheadCommand::Play { card: c(code) }
}

/// Plays the cards given per trick in play order, each by the seat to act.
pub(super) fn play_cards(state: &mut GoatheadState, codes: &str) -> Vec<GoatheadEvent> {
    let mut events = Vec::new();
    for code in codes.split_whitespace() {
        let s = state.actor().expect("someone to act");
        events.extend(act(state, s.0, play(code)));
    }
    events
}

/// The seat of number `i`.
pub(super) fn s(i: usize) -> Seat {
    seat(i)
}
