//! What a viewer sees of a game of Hats.

use serde::Serialize;

use super::cards::{Card, HAND_SIZE};
use super::scoring::current_cookie;
use super::state::{HatsState, Step};
use crate::ruleset::{Seat, Viewer, seat};

/// The table as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct HatsView {
    /// The tea table line, face up, position 1 first.
    pub line: Vec<Card>,
    /// Every seat's public table (and, for the viewer's own seat or the audit,
    /// its hand and black hats' faces).
    pub seats: Vec<SeatView>,
    /// Cards left in the draw deck.
    pub deck: usize,
    /// Cards on the discard pile (faces never shown, except to the audit).
    pub discard: usize,
    /// The seat on turn (none before the deal or after the end).
    pub turn: Option<Seat>,
    /// Where the turn stands: `main` or `answering_swap` (none when not playing).
    pub step: Option<Step>,
    /// The seats the game waits for.
    pub to_act: Vec<Seat>,
    /// Whether the player on turn already discarded or swapped this turn.
    pub optional_used: bool,
    /// Who would hold the last cookie if the game ended now.
    pub cookie: Option<Seat>,
    /// Whether the game is over.
    pub finished: bool,
    /// The viewer's own hand (seated viewers only).
    pub hand: Option<Vec<Card>>,
    /// The faces of the viewer's own black hats (seated viewers only).
    pub black_hat_cards: Option<Vec<Card>>,
    /// The card the viewer offered for a swap that awaits the partner's answer
    /// (the offering seat and the audit only).
    pub offered: Option<Card>,
    /// The draw deck, top first (the audit only).
    pub deck_cards: Option<Vec<Card>>,
    /// The discard pile, oldest first (the audit only).
    pub discard_cards: Option<Vec<Card>>,
}

/// One seat's part of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatsSeatView))]
pub struct SeatView {
    /// The face-up collection, in the order taken.
    pub collection: Vec<Card>,
    /// How many black hats the seat made.
    pub black_hats: usize,
    /// Cards in hand.
    pub hand_size: usize,
    /// Main actions made so far (of eight).
    pub main_actions: usize,
    /// The hand (the seat itself and the audit only).
    pub hand: Option<Vec<Card>>,
    /// The black hats' faces (the seat itself and the audit only).
    pub black_hat_cards: Option<Vec<Card>>,
    /// The favourite hat, revealed at the end.
    pub favourite: Option<Card>,
}

/// What `viewer` sees of `state`.
#[must_use]
pub fn view(state: &HatsState, viewer: Viewer) -> HatsView {
    let finished = state.finished();
    let seats = (0..state.player_count())
        .map(|i| {
            let sees = viewer.sees_seat(seat(i));
            let hand = &state.hands[i];
            SeatView {
                collection: state.collections[i].clone(),
                black_hats: state.black_hats[i].len(),
                hand_size: hand.len(),
                main_actions: (HAND_SIZE.saturating_sub(hand.len())) * usize::from(state.started),
                hand: sees.then(|| hand.clone()),
                black_hat_cards: sees.then(|| state.black_hats[i].clone()),
                favourite: if finished { hand.last().copied() } else { None },
            }
        })
        .collect();
    let own = match viewer {
        Viewer::Seat(s) if s.index() < state.player_count() => Some(s),
        _ => None,
    };
    let playing = state.started && !finished;
    let offerer = state.current_seat();
    HatsView {
        line: state.line.clone(),
        seats,
        deck: state.deck.len(),
        discard: state.discard.len(),
        turn: playing.then_some(offerer),
        step: playing.then_some(state.step),
        to_act: state.waiting_for().into_iter().collect(),
        optional_used: playing && state.optional_used,
        cookie: current_cookie(state),
        finished,
        hand: own.map(|s| state.hands[s.index()].clone()),
        black_hat_cards: own.map(|s| state.black_hats[s.index()].clone()),
        offered: state.offered.filter(|_| viewer.sees_seat(offerer)),
        deck_cards: viewer.is_auditor().then(|| state.deck.clone()),
        discard_cards: viewer.is_auditor().then(|| state.discard.clone()),
    }
}
