//! Hats: 2–4 players exchange hat cards with the tea table line to build the
//! best-scoring collection.
//!
//! # Rules
//! - 42 cards, numbers 1–6 in seven types (`T` star, `S` spade, `H` heart,
//!   `C` club, `D` diamond, `F` flower, `W` helm). With 2 players flower and
//!   helm are removed (30 cards) and the line has 5 positions; otherwise all
//!   42 cards and 6 positions.
//! - Deal: the line (position 1 next to the Ø card), nine cards per seat, the
//!   rest is the deck. `options.first_seat` (default 0) starts; turns go
//!   clockwise (seat + 1).
//! - A turn: optionally discard one card and draw the top of the deck (at most
//!   once, before the main action; an empty deck is first replaced by the
//!   shuffled discard pile, the card just discarded included), or with 4
//!   players instead offer a card face down to the partner (seat + 2), who must
//!   answer with any card of theirs; then exactly one main action: exchange a
//!   card with a line card of the same type or a lower number (the line card
//!   goes face up into the collection), or turn a card into a black hat.
//! - After every player made eight main actions (one card, the favourite hat,
//!   left in each hand) the game is scored: per type only the line card at the
//!   lowest position stays face up; each face-up collection card scores that
//!   card's position (0 if none), each black hat 1; the favourite hat scores the
//!   numbers of the face-up collection cards of its type minus its own number;
//!   the last cookie (5) goes to the most distinct types (black hats one type),
//!   ties broken by the ascending face-up numbers, lower first. Most points
//!   wins; tie → most black hats; tie → the cookie holder; tie → shared. With 4
//!   players seats {0,2} and {1,3} play as teams on summed scores.
//!
//! # Rulings of the rules file
//! - 2 players remove flower and helm; 5 line positions.
//! - "Most recently ate a cookie" is replaced by seat 0 or `options.first_seat`.
//! - Discard and draw with deck and discard pile both empty is illegal (so with
//!   4 players, where every card is dealt, only the partner swap is possible).
//! - The partner must answer a swap; only the two partners see the cards.
//! - The cookie holder is shown during play, computed as at the end.
//! - Cookie tie-break: black hats take no part; running out of cards loses;
//!   a remaining tie gives the cookie to nobody. Still tied winners share.
//! - The favourite of the seed's example is scored as the rule text says.
//!
//! # Rulings made here
//! - The optional action (discard-and-draw or swap offer) is one per turn: after
//!   either, only the main action remains.
//! - The offered card stays in the offerer's hand (hand size 9) until the
//!   partner answers; the partner does not see it before answering (the cards
//!   are passed face down at the same time).
//! - A partner who already made all eight main actions still must answer a
//!   swap, with their last card (their favourite then changes).
//! - A drawn card goes to the end of the hand; a swapped card takes the place of
//!   the card given. The favourite hat is the one card left.
//! - A reshuffle shuffles the discard pile oldest first, the card just discarded
//!   last, with the `reshuffle` stream of the reshuffle's 0-based number; the
//!   new deck is recorded top first.
//! - At the end every favourite hat is revealed to all (`favourites_revealed`);
//!   black hats' faces stay private to their owner (and the audit).
//! - The round breakdown's `collection` includes the black hats' points;
//!   `black_hats` is their number.
//! - With 4 players a shared win lists all four seats as winners.
//! - `first_seat` must be a seat of the game; at most one explicit deal.

mod bot;
mod cards;
mod commands;
mod events;
mod options;
mod rules;
mod scoring;
mod state;
mod view;

#[cfg(test)]
mod tests;

pub use cards::{Card, HAND_SIZE, MAIN_ACTIONS, TYPE_LETTERS, cards_in_play, line_length};
pub use commands::HatsCommand;
pub use events::{Cards, HatsEvent, HatsEventView};
pub use options::{Deal, HatsOptions};
pub use scoring::{
    HatsRound, SeatScore, collection_score, cookie_holder, face_down_positions, favourite_score,
};
pub use state::{HatsState, Step};
pub use view::{HatsView, SeatView};

use crate::random::Randomness;
use crate::ruleset::{GameResult, OptionsError, RuleViolation, Ruleset, Seat, Viewer};
use crate::testing::CommandSpace;

/// The Hats ruleset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hats;

impl Ruleset for Hats {
    const ID: &'static str = "hats";
    const NAME: &'static str = "Hats";
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = 4;
    const RULES_VERSIONS: &'static [crate::RulesVersion] = &[
        crate::RulesVersion {
            number: 1,
            summary: "The rules of seeds 000 and 001 with the rulings of the first release.",
            salted: false,
        },
        crate::RulesVersion {
            number: 2,
            summary: "Players contribute to the shuffle: every seat adds a salt when it sits, and the deals are drawn from a hash of the server's committed seed and every salt in seat order.",
            salted: true,
        },
    ];

    type Options = HatsOptions;
    type State = HatsState;
    type Command = HatsCommand;
    type Event = HatsEvent;
    type View = HatsView;
    type EventView = HatsEventView;
    type Round = HatsRound;

    fn options_schema() -> serde_json::Value {
        options::schema()
    }

    fn new_game(players: usize, options: HatsOptions) -> Result<HatsState, OptionsError> {
        options.validate(players)?;
        let HatsOptions { first_seat, deals } = options;
        Ok(HatsState::new(
            players,
            first_seat,
            deals.into_iter().next(),
        ))
    }

    fn start(state: &HatsState, rng: &Randomness) -> Vec<HatsEvent> {
        rules::start(state, rng)
    }

    fn evolve(state: &mut HatsState, event: &HatsEvent) {
        rules::evolve(state, event);
    }

    fn to_act(state: &HatsState) -> Vec<Seat> {
        state.waiting_for().into_iter().collect()
    }

    fn legal_commands(state: &HatsState, seat: Seat) -> Vec<HatsCommand> {
        rules::legal_commands(state, seat)
    }

    fn decide(
        state: &HatsState,
        seat: Seat,
        command: &HatsCommand,
        rng: &Randomness,
    ) -> Result<Vec<HatsEvent>, RuleViolation> {
        rules::decide(state, seat, command, rng)
    }

    fn view(state: &HatsState, viewer: Viewer) -> HatsView {
        view::view(state, viewer)
    }

    fn redact(event: &HatsEvent, viewer: Viewer) -> HatsEventView {
        events::redact(event, viewer)
    }

    fn result(state: &HatsState) -> Option<GameResult<HatsRound>> {
        state.finished().then(|| scoring::result(state))
    }

    fn reveals(event: &HatsEvent) -> bool {
        events::reveals(event)
    }
}

impl CommandSpace for Hats {
    /// Every command type with every card of the seat's hand, one line card
    /// and one card that is neither (when there is one), on positions 0 to one
    /// past the end of the line.
    fn candidate_commands(state: &HatsState, s: Seat) -> Vec<HatsCommand> {
        let mut cards: Vec<Card> = state.hands.get(s.index()).cloned().unwrap_or_default();
        cards.extend(state.line.first().copied());
        let other = state
            .hands
            .get((s.index() + 1) % state.player_count().max(1));
        cards.extend(other.and_then(|h| h.first().copied()));
        let positions = 0..=u8::try_from(state.line.len() + 1).unwrap_or(u8::MAX);
        let mut out = Vec::with_capacity(cards.len() * (4 + state.line.len() + 2));
        for &card in &cards {
            out.push(HatsCommand::DiscardDraw { card });
            out.push(HatsCommand::OfferSwap { card });
            out.push(HatsCommand::AnswerSwap { card });
            out.push(HatsCommand::BlackHat { card });
            out.extend(
                positions
                    .clone()
                    .map(|position| HatsCommand::Exchange { card, position }),
            );
        }
        out
    }
}
