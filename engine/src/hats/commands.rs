//! What a player can send.

use serde::{Deserialize, Serialize};

use super::cards::Card;

/// One action of one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum HatsCommand {
    /// Optional, once per turn before the main action: discard `card` face
    /// down and draw the top of the deck (reshuffling the discard pile into a
    /// new deck when the deck is empty).
    DiscardDraw {
        /// The card discarded from the hand.
        card: Card,
    },
    /// Optional with 4 players, instead of discarding: offer `card` face down
    /// to the partner, who must answer with a card of their own.
    OfferSwap {
        /// The card offered.
        card: Card,
    },
    /// The partner's answer to a swap offer: `card` goes to the offering player.
    AnswerSwap {
        /// The card given back.
        card: Card,
    },
    /// Main action: play `card` face up onto line position `position` (1-based)
    /// and take the line card there into the collection. Legal when both have
    /// the same type or `card`'s number is higher.
    Exchange {
        /// The card played from the hand.
        card: Card,
        /// The line position, 1 being next to the Ø card.
        position: u8,
    },
    /// Main action: put `card` face down into the collection as a black hat.
    BlackHat {
        /// The card turned into a black hat.
        card: Card,
    },
}
