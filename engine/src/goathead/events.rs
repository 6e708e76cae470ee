//! The facts of a Goathead match, and what each viewer sees of them.

use serde::{Deserialize, Serialize};

use super::cards::{Card, CardSet, Contract};
use super::scoring::GoatheadRound;
use crate::ruleset::{Seat, Viewer};

/// A fact of the match.
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
pub enum GoatheadEvent {
    /// Round `round` was dealt by `dealer`: a hand per seat and the kitty.
    Dealt {
        round: u8,
        dealer: Seat,
        hands: Vec<CardSet>,
        kitty: CardSet,
    },
    /// `seat` bid `contract`.
    Bid { seat: Seat, contract: Contract },
    /// `seat` stole the lead with the same `contract`.
    Stole { seat: Seat, contract: Contract },
    /// `seat` passed for the rest of the round.
    Passed { seat: Seat },
    /// The bidding ended: `declarer` plays `contract` (Leasters: no declarer).
    ContractSet {
        declarer: Option<Seat>,
        contract: Contract,
    },
    /// 3 players: the declarer took the kitty (`cards`) into their hand.
    KittyTaken { seat: Seat, cards: CardSet },
    /// 3 players: the declarer left the kitty.
    KittyLeft { seat: Seat },
    /// 3 players: the declarer buried `card` in the kitty.
    Buried { seat: Seat, card: Card },
    /// The declarer kept the contract.
    ContractKept { seat: Seat, contract: Contract },
    /// The declarer raised the contract to `contract`.
    ContractUpgraded { seat: Seat, contract: Contract },
    /// 4 players: `seat` put `hand_card` into the kitty and took `kitty_card`.
    KittySwapped {
        seat: Seat,
        hand_card: Card,
        kitty_card: Card,
    },
    /// 4 players: `seat` passed the kitty on without swapping.
    KittySkipped { seat: Seat },
    /// 4 players: `seat` holds both black Jacks; the holder of `partner_card`
    /// (the trump Queen) is their partner.
    Announced { seat: Seat, partner_card: Card },
    /// Play begins, `leader` leading; `declaring_side` are the seats of the declarer's side.
    PlayStarted {
        leader: Seat,
        declaring_side: Vec<Seat>,
    },
    /// `seat` played `card`.
    CardPlayed { seat: Seat, card: Card },
    /// `seat` won the trick, worth `points`.
    TrickWon { seat: Seat, points: u8 },
    /// The round was scored.
    RoundScored(GoatheadRound),
    /// The match is over: the totals and the winners.
    MatchEnded {
        scores: Vec<i32>,
        winners: Vec<Seat>,
    },
}

/// Cards a viewer may see, or only how many there are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = GoatheadCardsOrCount))]
#[serde(untagged)]
pub enum Cards {
    /// The cards themselves.
    Shown(CardSet),
    /// Hidden: their number.
    Count(usize),
}

impl Cards {
    /// `cards` if `visible`, else their number.
    #[must_use]
    pub fn shown_if(visible: bool, cards: CardSet) -> Cards {
        if visible {
            Cards::Shown(cards)
        } else {
            Cards::Count(cards.len())
        }
    }
}

/// What a viewer sees of an event: the same shape, hidden cards replaced by
/// `null` (one card) or a count (several).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
pub enum GoatheadEventView {
    Dealt {
        round: u8,
        dealer: Seat,
        hands: Vec<Cards>,
        kitty: Cards,
    },
    Bid {
        seat: Seat,
        contract: Contract,
    },
    Stole {
        seat: Seat,
        contract: Contract,
    },
    Passed {
        seat: Seat,
    },
    ContractSet {
        declarer: Option<Seat>,
        contract: Contract,
    },
    KittyTaken {
        seat: Seat,
        cards: Cards,
    },
    KittyLeft {
        seat: Seat,
    },
    Buried {
        seat: Seat,
        card: Option<Card>,
    },
    ContractKept {
        seat: Seat,
        contract: Contract,
    },
    ContractUpgraded {
        seat: Seat,
        contract: Contract,
    },
    KittySwapped {
        seat: Seat,
        hand_card: Option<Card>,
        kitty_card: Option<Card>,
    },
    KittySkipped {
        seat: Seat,
    },
    Announced {
        seat: Seat,
        partner_card: Card,
    },
    PlayStarted {
        leader: Seat,
        declaring_side: Option<Vec<Seat>>,
    },
    CardPlayed {
        seat: Seat,
        card: Card,
    },
    TrickWon {
        seat: Seat,
        points: u8,
    },
    RoundScored(GoatheadRound),
    MatchEnded {
        scores: Vec<i32>,
        winners: Vec<Seat>,
    },
}

/// What `viewer` sees of `event`: a seat sees its own cards only; the sides
/// are hidden until the round is scored; the audit sees everything.
#[must_use]
pub fn redact(event: &GoatheadEvent, viewer: Viewer) -> GoatheadEventView {
    use GoatheadEvent as E;
    use GoatheadEventView as V;
    let hidden = |s: Seat, card: Card| viewer.sees_seat(s).then_some(card);
    match event {
        E::Dealt {
            round,
            dealer,
            hands,
            kitty,
        } => V::Dealt {
            round: *round,
            dealer: *dealer,
            hands: hands
                .iter()
                .enumerate()
                .map(|(i, h)| Cards::shown_if(viewer.sees_seat(crate::ruleset::seat(i)), *h))
                .collect(),
            kitty: Cards::shown_if(viewer.is_auditor(), *kitty),
        },
        E::Bid { seat, contract } => V::Bid {
            seat: *seat,
            contract: *contract,
        },
        E::Stole { seat, contract } => V::Stole {
            seat: *seat,
            contract: *contract,
        },
        E::Passed { seat } => V::Passed { seat: *seat },
        E::ContractSet { declarer, contract } => V::ContractSet {
            declarer: *declarer,
            contract: *contract,
        },
        E::KittyTaken { seat, cards } => V::KittyTaken {
            seat: *seat,
            cards: Cards::shown_if(viewer.sees_seat(*seat), *cards),
        },
        E::KittyLeft { seat } => V::KittyLeft { seat: *seat },
        E::Buried { seat, card } => V::Buried {
            seat: *seat,
            card: hidden(*seat, *card),
        },
        E::ContractKept { seat, contract } => V::ContractKept {
            seat: *seat,
            contract: *contract,
        },
        E::ContractUpgraded { seat, contract } => V::ContractUpgraded {
            seat: *seat,
            contract: *contract,
        },
        E::KittySwapped {
            seat,
            hand_card,
            kitty_card,
        } => V::KittySwapped {
            seat: *seat,
            hand_card: hidden(*seat, *hand_card),
            kitty_card: hidden(*seat, *kitty_card),
        },
        E::KittySkipped { seat } => V::KittySkipped { seat: *seat },
        E::Announced { seat, partner_card } => V::Announced {
            seat: *seat,
            partner_card: *partner_card,
        },
        E::PlayStarted {
            leader,
            declaring_side,
        } => V::PlayStarted {
            leader: *leader,
            declaring_side: viewer.is_auditor().then(|| declaring_side.clone()),
        },
        E::CardPlayed { seat, card } => V::CardPlayed {
            seat: *seat,
            card: *card,
        },
        E::TrickWon { seat, points } => V::TrickWon {
            seat: *seat,
            points: *points,
        },
        E::RoundScored(round) => V::RoundScored(round.clone()),
        E::MatchEnded { scores, winners } => V::MatchEnded {
            scores: scores.clone(),
            winners: winners.clone(),
        },
    }
}

/// Whether `event` shows a seat a card it had not seen (the takeback rule,
/// `Ruleset::reveals`): the deal, the kitty taken or swapped with, an
/// announcement (it tells who holds both black Jacks), the start of play
/// (it names the declaring side), a card played, and the scoring of a
/// round and of the match (which may show the kitty). Bids, steals,
/// passes, the contract, leaving or burying the kitty, keeping or raising
/// the contract, skipping the kitty and a trick won show nothing hidden.
#[must_use]
pub fn reveals(event: &GoatheadEvent) -> bool {
    match event {
        GoatheadEvent::Dealt { .. }
        | GoatheadEvent::KittyTaken { .. }
        | GoatheadEvent::KittySwapped { .. }
        | GoatheadEvent::Announced { .. }
        | GoatheadEvent::PlayStarted { .. }
        | GoatheadEvent::CardPlayed { .. }
        | GoatheadEvent::RoundScored(_)
        | GoatheadEvent::MatchEnded { .. } => true,
        GoatheadEvent::Bid { .. }
        | GoatheadEvent::Stole { .. }
        | GoatheadEvent::Passed { .. }
        | GoatheadEvent::ContractSet { .. }
        | GoatheadEvent::KittyLeft { .. }
        | GoatheadEvent::Buried { .. }
        | GoatheadEvent::ContractKept { .. }
        | GoatheadEvent::ContractUpgraded { .. }
        | GoatheadEvent::KittySkipped { .. }
        | GoatheadEvent::TrickWon { .. } => false,
    }
}
