//! Tests of Hat Trick, in given / when / then form.

mod bot;
mod deal;
mod play;
mod property;
mod redaction;
mod scoring;

use super::HatTrick;
use super::cards::{Card, Hand};
use super::commands::HatTrickCommand;
use super::events::HatTrickEvent;
use super::options::{Deal, HatTrickOptions};
use super::state::{HatTrickState, Trump};
use crate::random::Randomness;
use crate::ruleset::{RuleViolation, Ruleset, apply_all, seat};

/// The card with this code.
pub fn c(code: &str) -> Card {
    Card::parse(code).unwrap_or_else(|| panic!("bad code {code}"))
}

/// The cards of a space-separated list of codes.
pub fn cards(list: &str) -> Vec<Card> {
    list.split_whitespace().map(c).collect()
}

/// The randomness of the tests.
pub fn rng() -> Randomness {
    Randomness::from_seed("hat-trick tests")
}

/// An explicit deal from space-separated hands.
pub fn explicit(hands: &[&str], left: &str, indicator: Option<&str>) -> Deal {
    Deal {
        hands: hands.iter().map(|h| cards(h)).collect(),
        left: cards(left),
        indicator: indicator.map(c),
    }
}

/// A game with these options, its first deal made.
pub fn started(players: usize, options: HatTrickOptions) -> HatTrickState {
    let mut state = HatTrick::new_game(players, options).expect("options");
    let events = HatTrick::start(&state, &rng());
    apply_all::<HatTrick>(&mut state, &events);
    state
}

/// A game in progress at trick `trick`, `leader` to lead, with these hands and trump.
pub fn given_table(
    options: HatTrickOptions,
    hands: &[&str],
    trump: Trump,
    trick: u8,
    leader: u8,
) -> HatTrickState {
    let mut state = started(hands.len(), options);
    state.hands = hands.iter().map(|h| Hand::of(&cards(h))).collect();
    state.trump = trump;
    state.trick_number = trick;
    state.leader = seat(usize::from(leader));
    state
}

/// `seat` tries to play `card`.
pub fn try_play(
    state: &HatTrickState,
    who: u8,
    card: &str,
    predict: bool,
) -> Result<Vec<HatTrickEvent>, RuleViolation> {
    let command = HatTrickCommand::Play {
        card: c(card),
        predict,
    };
    HatTrick::decide(state, seat(usize::from(who)), &command, &rng())
}

/// `seat` plays `card` (it must be accepted); returns the events.
pub fn play(state: &mut HatTrickState, who: u8, card: &str, predict: bool) -> Vec<HatTrickEvent> {
    let events = try_play(state, who, card, predict).expect("accepted");
    apply_all::<HatTrick>(state, &events);
    events
}

/// Plays a whole trick: (seat, card) in order.
pub fn play_trick(state: &mut HatTrickState, plays: &[(u8, &str)]) -> Vec<HatTrickEvent> {
    plays
        .iter()
        .flat_map(|&(s, card)| play(state, s, card, false))
        .collect()
}

/// The codes of the cards `seat` may play now, in hand order.
pub fn legal(state: &HatTrickState, who: u8) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = HatTrick::legal_commands(state, seat(usize::from(who)))
        .into_iter()
        .map(|HatTrickCommand::Play { card, .. }| card.code())
        .collect();
    out.dedup();
    out
}

/// Whether `seat` is offered a prediction now.
pub fn may_predict(state: &HatTrickState, who: u8) -> bool {
    HatTrick::legal_commands(state, seat(usize::from(who)))
        .iter()
        .any(|HatTrickCommand::Play { predict, .. }| *predict)
}

/// Plays the first legal command until `stop` says so or the game ends.
pub fn play_first_legal(state: &mut HatTrickState, stop: impl Fn(&HatTrickState) -> bool) {
    while !stop(state) {
        let Some(&who) = HatTrick::to_act(state).first() else {
            return;
        };
        let command = HatTrick::legal_commands(state, who)[0].clone();
        let events = HatTrick::decide(state, who, &command, &rng()).expect("legal");
        apply_all::<HatTrick>(state, &events);
    }
}
