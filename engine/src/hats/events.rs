//! The facts of a game of Hats, and what each viewer sees of them.

use serde::{Deserialize, Serialize};

use super::cards::Card;
use crate::ruleset::{Seat, Viewer};

/// A fact of the game.
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
pub enum HatsEvent {
    /// The cards were dealt: the line (position 1 first), nine cards per seat,
    /// and the rest as the deck (top first).
    Dealt {
        line: Vec<Card>,
        hands: Vec<Vec<Card>>,
        deck: Vec<Card>,
    },
    /// `seat` discarded `card` face down onto the discard pile.
    Discarded { seat: Seat, card: Card },
    /// The deck was empty: the discard pile was shuffled into this new deck
    /// (top first).
    Reshuffled { deck: Vec<Card> },
    /// `seat` drew `card`, the top of the deck.
    Drew { seat: Seat, card: Card },
    /// `seat` offered `card` face down to its partner for a swap.
    SwapOffered { seat: Seat, card: Card },
    /// The swap was made: `offered` went from `seat` to `partner`, and
    /// `answered` from `partner` to `seat`.
    Swapped {
        seat: Seat,
        partner: Seat,
        offered: Card,
        answered: Card,
    },
    /// `seat` played `card` onto line position `position` and took `taken`
    /// from there into its collection.
    Exchanged {
        seat: Seat,
        card: Card,
        position: u8,
        taken: Card,
    },
    /// `seat` put `card` face down into its collection as a black hat.
    BlackHatMade { seat: Seat, card: Card },
    /// The game is over: every seat reveals its last card, its favourite hat.
    FavouritesRevealed { favourites: Vec<Card> },
}

/// Cards a viewer may see, or only how many there are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatsCardsOrCount))]
#[serde(untagged)]
pub enum Cards {
    /// The cards themselves.
    Shown(Vec<Card>),
    /// Hidden: their number.
    Count(usize),
}

impl Cards {
    /// `cards` if `visible`, else their number.
    #[must_use]
    pub fn shown_if(visible: bool, cards: &[Card]) -> Cards {
        if visible {
            Cards::Shown(cards.to_vec())
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
pub enum HatsEventView {
    /// The deal: the line, the viewer's own hand, counts for the rest.
    Dealt {
        line: Vec<Card>,
        hands: Vec<Cards>,
        deck: Cards,
    },
    /// A discard; the card only for the discarding seat.
    Discarded { seat: Seat, card: Option<Card> },
    /// A reshuffle; the new deck's order only for the audit.
    Reshuffled { deck: Cards },
    /// A draw; the card only for the drawing seat.
    Drew { seat: Seat, card: Option<Card> },
    /// A swap offer; the card only for the offering seat.
    SwapOffered { seat: Seat, card: Option<Card> },
    /// A swap; the cards only for the two partners.
    Swapped {
        seat: Seat,
        partner: Seat,
        offered: Option<Card>,
        answered: Option<Card>,
    },
    /// An exchange with the line (public).
    Exchanged {
        seat: Seat,
        card: Card,
        position: u8,
        taken: Card,
    },
    /// A black hat; its face only for its owner.
    BlackHatMade { seat: Seat, card: Option<Card> },
    /// The favourite hats (public).
    FavouritesRevealed { favourites: Vec<Card> },
}

/// What `viewer` sees of `event`.
#[must_use]
pub fn redact(event: &HatsEvent, viewer: Viewer) -> HatsEventView {
    let own = |s: Seat, card: Card| viewer.sees_seat(s).then_some(card);
    match event {
        HatsEvent::Dealt { line, hands, deck } => HatsEventView::Dealt {
            line: line.clone(),
            hands: hands
                .iter()
                .enumerate()
                .map(|(i, h)| Cards::shown_if(viewer.sees_seat(crate::ruleset::seat(i)), h))
                .collect(),
            deck: Cards::shown_if(viewer.is_auditor(), deck),
        },
        HatsEvent::Discarded { seat, card } => HatsEventView::Discarded {
            seat: *seat,
            card: own(*seat, *card),
        },
        HatsEvent::Reshuffled { deck } => HatsEventView::Reshuffled {
            deck: Cards::shown_if(viewer.is_auditor(), deck),
        },
        HatsEvent::Drew { seat, card } => HatsEventView::Drew {
            seat: *seat,
            card: own(*seat, *card),
        },
        HatsEvent::SwapOffered { seat, card } => HatsEventView::SwapOffered {
            seat: *seat,
            card: own(*seat, *card),
        },
        HatsEvent::Swapped {
            seat,
            partner,
            offered,
            answered,
        } => {
            let partners = viewer.sees_seat(*seat) || viewer.sees_seat(*partner);
            HatsEventView::Swapped {
                seat: *seat,
                partner: *partner,
                offered: partners.then_some(*offered),
                answered: partners.then_some(*answered),
            }
        }
        HatsEvent::Exchanged {
            seat,
            card,
            position,
            taken,
        } => HatsEventView::Exchanged {
            seat: *seat,
            card: *card,
            position: *position,
            taken: *taken,
        },
        HatsEvent::BlackHatMade { seat, card } => HatsEventView::BlackHatMade {
            seat: *seat,
            card: own(*seat, *card),
        },
        HatsEvent::FavouritesRevealed { favourites } => HatsEventView::FavouritesRevealed {
            favourites: favourites.clone(),
        },
    }
}

/// Whether `event` shows a seat a card it had not seen (the takeback rule,
/// `Ruleset::reveals`): the deal, a draw, a swap (each partner sees the
/// other's card), an exchange (the played card leaves a hand face up) and
/// the favourites. A discard, a swap offer and a black hat go face down
/// (only their own seat sees the card, as it did before); a reshuffle's
/// order is seen by nobody until cards are drawn.
#[must_use]
pub fn reveals(event: &HatsEvent) -> bool {
    match event {
        HatsEvent::Dealt { .. }
        | HatsEvent::Drew { .. }
        | HatsEvent::Swapped { .. }
        | HatsEvent::Exchanged { .. }
        | HatsEvent::FavouritesRevealed { .. } => true,
        HatsEvent::Discarded { .. }
        | HatsEvent::Reshuffled { .. }
        | HatsEvent::SwapOffered { .. }
        | HatsEvent::BlackHatMade { .. } => false,
    }
}
