//! The facts of a game, and what each viewer sees of them.

use serde::{Deserialize, Serialize};

use super::cards::{Card, Hand};
use super::scoring::RoundResult;
use super::state::Trump;
use crate::ruleset::Seat;

/// A deal: every hand, the left-over cards (top first), the indicator and
/// the trump and kind of deal it gives.
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatTrickDealt))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dealt {
    /// The deal number (0-based).
    pub round: u8,
    /// The dealer.
    pub dealer: Seat,
    /// Each seat's hand, in seat order.
    pub hands: Vec<Hand>,
    /// The cards left over, top first.
    pub left: Vec<Card>,
    /// The trump indicator (none when trump goes by the cycle).
    pub indicator: Option<Card>,
    /// Whether the indicator is the cut card, dealt to the dealer.
    pub indicator_is_cut: bool,
    /// Trump of the deal.
    pub trump: Trump,
    /// Whether the deal is negative.
    pub negative: bool,
}

/// A card played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatTrickPlayed))]
pub struct Played {
    /// Who played.
    pub seat: Seat,
    /// The card.
    pub card: Card,
    /// Whether the player predicted with it.
    pub predict: bool,
}

/// A trick taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatTrickTrickWon))]
pub struct TrickWon {
    /// The trick number (1-based).
    pub trick: u8,
    /// Who took it (and leads next).
    pub winner: Seat,
}

/// The end of the match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatTrickMatchEnded))]
pub struct MatchEnded {
    /// Match totals per seat.
    pub scores: Vec<i32>,
    /// The winning seats (several when tied).
    pub winners: Vec<Seat>,
}

/// An event of Hat Trick.
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
pub enum HatTrickEvent {
    /// The cards were dealt.
    Dealt(Dealt),
    /// A card was played.
    Played(Played),
    /// A trick was taken.
    TrickWon(TrickWon),
    /// A deal was scored.
    RoundScored(RoundResult),
    /// The match is over.
    MatchEnded(MatchEnded),
}

/// A hand as a viewer sees it: its cards, or only how many.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatTrickHandView))]
#[serde(untagged)]
pub enum HandView {
    /// The cards (own hand, or the audit).
    Cards(Hand),
    /// The number of cards.
    Count(u8),
}

/// A deal as a viewer sees it: hidden cards are counts or `null`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatTrickDealtView))]
pub struct DealtView {
    /// The deal number (0-based).
    pub round: u8,
    /// The dealer.
    pub dealer: Seat,
    /// Own hand as cards, the others as counts.
    pub hands: Vec<HandView>,
    /// The left-over cards, `null` where face down.
    pub left: Vec<Option<Card>>,
    /// The trump indicator (public).
    pub indicator: Option<Card>,
    /// Whether the indicator is the cut card, dealt to the dealer.
    pub indicator_is_cut: bool,
    /// Trump of the deal.
    pub trump: Trump,
    /// Whether the deal is negative.
    pub negative: bool,
}

/// An event as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
pub enum HatTrickEventView {
    /// The cards were dealt.
    Dealt(DealtView),
    /// A card was played.
    Played(Played),
    /// A trick was taken.
    TrickWon(TrickWon),
    /// A deal was scored.
    RoundScored(RoundResult),
    /// The match is over.
    MatchEnded(MatchEnded),
}

/// Whether `event` shows a seat a card it had not seen (the takeback rule,
/// `Ruleset::reveals`): every command of Hat Trick plays a card from a
/// hand, so only a trick won (which follows from the cards played) reveals
/// nothing; a deal, a card played and the scoring do.
#[must_use]
pub fn reveals(event: &HatTrickEvent) -> bool {
    !matches!(event, HatTrickEvent::TrickWon(_))
}
