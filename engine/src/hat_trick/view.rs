//! What each viewer sees: the public table and their own hand.
//!
//! Public: trump and whether the deal is negative, the indicator (face up, or
//! the cut card with its holder), the current trick and the cards played to
//! the earlier tricks of the deal (each in a `played` event too), tricks taken,
//! predictions, scores. Private: each seat's own hand. Left-over cards other
//! than the indicator stay hidden until the audit.

use serde::Serialize;

use super::cards::Card;
use super::events::{DealtView, HandView, HatTrickEvent, HatTrickEventView};
use super::scoring::RoundResult;
use super::state::{HatTrickState, Play, Prediction, Trump};
use crate::ruleset::{Seat, Viewer, seat};

/// The table as one viewer sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct HatTrickView {
    /// Seats.
    pub players: u8,
    /// Deals in the match.
    pub rounds: u8,
    /// The deal in progress (0-based).
    pub round: u8,
    /// The dealer.
    pub dealer: Seat,
    /// Trump of the deal.
    pub trump: Trump,
    /// Whether the deal is negative.
    pub negative: bool,
    /// The trump indicator (public for the whole deal).
    pub indicator: Option<Card>,
    /// Who holds the indicator while it is a cut card still in a hand.
    pub indicator_holder: Option<Seat>,
    /// The left-over cards, `null` where face down.
    pub left: Vec<Option<Card>>,
    /// Own hand as cards (every hand for the audit), others as counts.
    pub hands: Vec<HandView>,
    /// The trick being played (1-based).
    pub trick_number: u8,
    /// Who leads it.
    pub leader: Seat,
    /// Who sits it out (the 5-player dealer on trick 1).
    pub sitting_out: Option<Seat>,
    /// The cards played to it so far.
    pub trick: Vec<Play>,
    /// The cards played to the earlier tricks of this deal, in order (each
    /// trick as many cards as seats play to it); empty between deals.
    pub played: Vec<Play>,
    /// Tricks taken this deal, per seat.
    pub tricks_won: Vec<u8>,
    /// Who took the 1st, 6th and last trick so far.
    pub scoring_tricks: [Option<Seat>; 3],
    /// The predictions of this deal (claiming the 6th, claiming the last).
    pub predictions: [Option<Prediction>; 2],
    /// Match totals.
    pub scores: Vec<i32>,
    /// The last scored deal, if any. The view stays the same size however
    /// long the match: the whole score sheet is in the events (one
    /// `round_scored` per deal) and, once the match is over, in the result's
    /// `rounds`.
    pub last_result: Option<RoundResult>,
    /// Who is to play.
    pub to_act: Vec<Seat>,
    /// Whether the match is over.
    pub finished: bool,
}

fn left_view(left: &[Card], indicator: Option<Card>, viewer: Viewer) -> Vec<Option<Card>> {
    left.iter()
        .map(|&c| (viewer.is_auditor() || Some(c) == indicator).then_some(c))
        .collect()
}

fn hands_view(hands: &[super::cards::Hand], viewer: Viewer) -> Vec<HandView> {
    hands
        .iter()
        .enumerate()
        .map(|(s, &h)| {
            if viewer.sees_seat(seat(s)) {
                HandView::Cards(h)
            } else {
                HandView::Count(u8::try_from(h.len()).unwrap_or(u8::MAX))
            }
        })
        .collect()
}

/// What `viewer` sees of the state.
#[must_use]
pub fn view(state: &HatTrickState, viewer: Viewer) -> HatTrickView {
    let indicator_holder = state.indicator.and_then(|c| {
        (state.indicator_is_cut && state.hands[state.dealer.index()].contains(c))
            .then_some(state.dealer)
    });
    HatTrickView {
        players: state.players,
        rounds: state.rounds,
        round: state.round,
        dealer: state.dealer,
        trump: state.trump,
        negative: state.negative,
        indicator: state.indicator,
        indicator_holder,
        left: left_view(&state.left, state.indicator, viewer),
        hands: hands_view(&state.hands, viewer),
        trick_number: state.trick_number,
        leader: state.leader,
        sitting_out: state.sitting_out(),
        trick: state.trick.clone(),
        played: state.played.clone(),
        tricks_won: state.tricks_won.clone(),
        scoring_tricks: state.scoring,
        predictions: state.predictions,
        scores: state.scores.clone(),
        last_result: state.results.last().cloned(),
        to_act: state.next_to_play().into_iter().collect(),
        finished: state.finished,
    }
}

/// What `viewer` sees of an event: of a deal, their own hand and the counts
/// of the others, the indicator, and no face-down left-over card.
#[must_use]
pub fn redact(event: &HatTrickEvent, viewer: Viewer) -> HatTrickEventView {
    match event {
        HatTrickEvent::Dealt(d) => HatTrickEventView::Dealt(DealtView {
            round: d.round,
            dealer: d.dealer,
            hands: hands_view(&d.hands, viewer),
            left: left_view(&d.left, d.indicator, viewer),
            indicator: d.indicator,
            indicator_is_cut: d.indicator_is_cut,
            trump: d.trump,
            negative: d.negative,
        }),
        HatTrickEvent::Played(p) => HatTrickEventView::Played(*p),
        HatTrickEvent::TrickWon(t) => HatTrickEventView::TrickWon(*t),
        HatTrickEvent::RoundScored(r) => HatTrickEventView::RoundScored(r.clone()),
        HatTrickEvent::MatchEnded(m) => HatTrickEventView::MatchEnded(m.clone()),
    }
}
