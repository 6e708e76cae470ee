//! Cards, suits, hands and the decks of each table size.
//!
//! Suits ♥ ♦ ♣ ♠ (`H D C S`); ranks high → low A K Q J (12 11 with six
//! players) 10 … 2; the joker `JK` (`JK1` and `JK2` with five players). A card
//! is written rank then suit: `AS`, `10H`, `12C`.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A suit. ♥ and ♦ are red, ♣ and ♠ black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Suit {
    /// Hearts.
    H,
    /// Diamonds.
    D,
    /// Clubs.
    C,
    /// Spades.
    S,
}

impl Suit {
    /// The four suits in their fixed order ♥ ♦ ♣ ♠.
    pub const ALL: [Suit; 4] = [Suit::H, Suit::D, Suit::C, Suit::S];

    /// The suit's position in ♥ ♦ ♣ ♠.
    #[must_use]
    pub fn index(self) -> u8 {
        self as u8
    }

    /// The other suit of the same colour (♥ ↔ ♦, ♣ ↔ ♠).
    #[must_use]
    pub fn partner(self) -> Suit {
        Suit::ALL[usize::from(self.index() ^ 1)]
    }

    /// All cards of this suit (jokers excluded), as a set.
    #[must_use]
    pub fn mask(self) -> u64 {
        0x7FFF << (16 * u32::from(self.index()))
    }
}

const CODES: [&str; 64] = [
    "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "11H", "12H", "JH", "QH", "KH", "AH",
    "JK", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "11D", "12D", "JD", "QD", "KD",
    "AD", "JK1", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "11C", "12C", "JC", "QC",
    "KC", "AC", "JK2", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "11S", "12S", "JS",
    "QS", "KS", "AS", "??",
];

/// The rank of a Jack (ranks run 2 … 12, then J 13, Q 14, K 15, A 16).
pub const JACK: u8 = 13;
/// The rank of a Queen.
pub const QUEEN: u8 = 14;
/// The rank of a King.
pub const KING: u8 = 15;
/// The rank of an Ace.
pub const ACE: u8 = 16;

/// Every joker, as a set.
pub const JOKERS: u64 = (1 << 15) | (1 << 31) | (1 << 47);

/// One card. Internally a number 0..63: 16 × suit + (rank − 2) for suit cards,
/// and the spare slots 15, 31, 47 for `JK`, `JK1`, `JK2`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The single joker of 2, 3, 4 and 6 players.
    pub const JOKER: Card = Card(15);
    /// The first joker of 5 players.
    pub const JOKER1: Card = Card(31);
    /// The second joker of 5 players.
    pub const JOKER2: Card = Card(47);

    /// The card of `suit` and `rank` (2 … 16, see [`JACK`]).
    #[must_use]
    pub fn new(suit: Suit, rank: u8) -> Card {
        Card(suit.index() * 16 + (rank.clamp(2, 16) - 2))
    }

    /// The card in slot `index` (0..63) of a card set.
    #[must_use]
    pub fn from_index(index: u32) -> Card {
        Card(u8::try_from(index & 63).unwrap_or(63))
    }

    /// Whether this is a joker.
    #[must_use]
    pub fn is_joker(self) -> bool {
        self.0 & 15 == 15
    }

    /// The suit (none for a joker).
    #[must_use]
    pub fn suit(self) -> Option<Suit> {
        if self.is_joker() {
            None
        } else {
            Some(Suit::ALL[usize::from(self.0 >> 4)])
        }
    }

    /// The rank, 2 … 16 (0 for a joker).
    #[must_use]
    pub fn rank(self) -> u8 {
        if self.is_joker() {
            0
        } else {
            (self.0 & 15) + 2
        }
    }

    /// The card as a one-card set.
    #[must_use]
    pub fn bit(self) -> u64 {
        1 << self.0
    }

    /// The card's code (`AS`, `10H`, `JK`).
    #[must_use]
    pub fn code(self) -> &'static str {
        CODES[usize::from(self.0 & 63)]
    }

    /// The card with this code, if any.
    #[must_use]
    pub fn parse(code: &str) -> Option<Card> {
        CODES[..63]
            .iter()
            .position(|c| *c == code)
            .map(|i| Card::from_index(u32::try_from(i).unwrap_or(63)))
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

crate::codes::schema_from_codes!(
    Card,
    "HatTrickCard",
    "A Hat Trick card by its code.",
    Hand(deck(6, false).0 | deck(5, false).0)
        .cards()
        .map(|c| c.code().to_owned())
        .collect()
);

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

crate::codes::deserialize_from_code!(Card, "a card code", "unknown card code");

/// A set of cards (a hand, a deck). Serialized as a list of codes, suit
/// cards ♥ ♦ ♣ ♠ low to high, jokers last.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Hand(pub u64);

impl Hand {
    /// Whether the set holds `card`.
    #[must_use]
    pub fn contains(self, card: Card) -> bool {
        self.0 & card.bit() != 0
    }

    /// How many cards the set holds.
    #[must_use]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cards, suit cards first (♥ ♦ ♣ ♠, low to high), then the jokers.
    pub fn cards(self) -> impl Iterator<Item = Card> {
        bits(self.0 & !JOKERS).chain(bits(self.0 & JOKERS))
    }

    /// The set of the given cards.
    #[must_use]
    pub fn of(cards: &[Card]) -> Hand {
        Hand(cards.iter().fold(0, |m, c| m | c.bit()))
    }
}

/// The cards of a set, in slot order.
pub fn bits(mut mask: u64) -> impl Iterator<Item = Card> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let i = mask.trailing_zeros();
            mask &= mask - 1;
            Some(Card::from_index(i))
        }
    })
}

/// The highest card of a set of cards of one suit, as a one-card set (empty if none).
#[must_use]
pub fn highest(mask: u64) -> u64 {
    if mask == 0 {
        0
    } else {
        1 << (63 - mask.leading_zeros())
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.cards()).finish()
    }
}

crate::codes::schema_as_array_of!(Hand, "HatTrickCards", Card);

impl Serialize for Hand {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.cards())
    }
}

impl<'de> Deserialize<'de> for Hand {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let cards = Vec::<Card>::deserialize(deserializer)?;
        Ok(Hand::of(&cards))
    }
}

/// The deck for `players` seats (with or without the joker), as a set.
///
/// 2: 9–A + JK (25); 3: 7–A + JK (33); 4: 4–A + JK (45); 5: 2–A + JK1 + JK2
/// (54); 6: 2–12, J, Q, K, A + JK (61).
#[must_use]
pub fn deck(players: usize, no_joker: bool) -> Hand {
    let lowest = match players {
        2 => 9,
        3 => 7,
        4 => 4,
        _ => 2,
    };
    let mut mask = 0;
    for suit in Suit::ALL {
        for rank in lowest..=ACE {
            if players == 6 || !(11..=12).contains(&rank) {
                mask |= Card::new(suit, rank).bit();
            }
        }
    }
    if players == 5 {
        mask |= Card::JOKER1.bit() | Card::JOKER2.bit();
    } else if !no_joker {
        mask |= Card::JOKER.bit();
    }
    Hand(mask)
}

/// The trump of a deal: a suit or no-trump.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatTrickTrump))]
pub enum Trump {
    /// Hearts are trump.
    H,
    /// Diamonds are trump.
    D,
    /// Clubs are trump.
    C,
    /// Spades are trump.
    S,
    /// No-trump.
    NT,
}
