//! The hat cards: numbers 1–6 in seven types, written as a type letter and a
//! number (`H5`, `F2`).

use std::fmt;

use serde::{Serialize, Serializer};

/// How many hat types there are (star, spade, heart, club, diamond, flower, helm).
pub const TYPES: usize = 7;

/// The type letters, in type order: star `T`, spade `S`, heart `H`, club `C`,
/// diamond `D`, flower `F`, helm `W`.
pub const TYPE_LETTERS: [char; TYPES] = ['T', 'S', 'H', 'C', 'D', 'F', 'W'];

/// How many cards a hand holds: nine, for the whole game.
pub const HAND_SIZE: usize = 9;

/// How many main actions every player makes: eight.
pub const MAIN_ACTIONS: usize = 8;

const CODES: [&str; 42] = [
    "T1", "T2", "T3", "T4", "T5", "T6", "S1", "S2", "S3", "S4", "S5", "S6", "H1", "H2", "H3", "H4",
    "H5", "H6", "C1", "C2", "C3", "C4", "C5", "C6", "D1", "D2", "D3", "D4", "D5", "D6", "F1", "F2",
    "F3", "F4", "F5", "F6", "W1", "W2", "W3", "W4", "W5", "W6",
];

/// One hat card. Serialized as its code (`"H5"`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// Every card of the game, in type order then number order.
    pub const ALL_COUNT: usize = 42;

    /// The card of type index `kind` (0 = star … 6 = helm) and `number` 1–6.
    #[must_use]
    pub fn new(kind: usize, number: u8) -> Option<Card> {
        if kind < TYPES && (1..=6).contains(&number) {
            u8::try_from(kind * 6).ok().map(|k| Card(k + number - 1))
        } else {
            None
        }
    }

    /// The card with the given index in type-then-number order (`0..42`).
    #[must_use]
    pub(crate) fn from_index(index: usize) -> Card {
        Card(u8::try_from(index.min(Self::ALL_COUNT - 1)).unwrap_or(0))
    }

    /// The card's index in type-then-number order (`0..42`).
    #[must_use]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The card's type index: 0 star, 1 spade, 2 heart, 3 club, 4 diamond,
    /// 5 flower, 6 helm.
    #[must_use]
    pub fn kind(self) -> usize {
        usize::from(self.0 / 6)
    }

    /// The card's number, 1–6.
    #[must_use]
    pub fn number(self) -> u8 {
        self.0 % 6 + 1
    }

    /// The card's code, e.g. `H5`.
    #[must_use]
    pub fn code(self) -> &'static str {
        CODES[self.index()]
    }

    /// The card with code `code`, e.g. `H5` (the type letter may be lower case).
    #[must_use]
    pub fn parse(code: &str) -> Option<Card> {
        let mut chars = code.chars();
        let letter = chars.next()?.to_ascii_uppercase();
        let digit = chars.next()?;
        if chars.next().is_some() {
            return None;
        }
        let kind = TYPE_LETTERS.iter().position(|&l| l == letter)?;
        let number = u8::try_from(digit.to_digit(10)?).ok()?;
        Card::new(kind, number)
    }

    /// Whether this card may replace `line_card` on the tea table line: the
    /// same type, or a higher number.
    #[must_use]
    pub fn may_replace(self, line_card: Card) -> bool {
        self.kind() == line_card.kind() || self.number() > line_card.number()
    }

    /// The cards that may replace this one on the line, as a set of card
    /// indices (bit `i` for the card of index `i`).
    #[must_use]
    pub(crate) fn replacers(self) -> u64 {
        REPLACERS[self.index()]
    }

    /// The set of card indices of `cards` (bit `i` for the card of index `i`).
    #[must_use]
    pub(crate) fn set_of(cards: &[Card]) -> u64 {
        cards.iter().fold(0, |set, c| set | 1 << c.0)
    }

    /// The lowest card of a non-empty set of card indices.
    #[must_use]
    pub(crate) fn lowest_of(set: u64) -> Card {
        Card(u8::try_from(set.trailing_zeros()).unwrap_or(0))
    }
}

/// For each card, the set of cards that may replace it (see [`Card::may_replace`]).
const REPLACERS: [u64; 42] = {
    let mut table = [0u64; 42];
    let mut line = 0;
    while line < 42 {
        let mut card = 0;
        while card < 42 {
            if card / 6 == line / 6 || card % 6 > line % 6 {
                table[line] |= 1 << card;
            }
            card += 1;
        }
        line += 1;
    }
    table
};

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
    "HatsCard",
    "A Hats card by its code.",
    (0..Card::ALL_COUNT)
        .map(|i| Card::from_index(i).code().to_owned())
        .collect()
);

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

crate::codes::deserialize_from_code!(
    Card,
    "a hat card code: a type letter (T S H C D F W) and a number 1-6",
    "unknown hat card"
);

/// The number of types in play: five with 2 players (flower and helm are
/// removed), all seven otherwise.
#[must_use]
pub fn types_in_play(players: usize) -> usize {
    if players == 2 { 5 } else { TYPES }
}

/// The cards in play at a table of `players`, in type-then-number order
/// (30 with 2 players, 42 otherwise).
pub fn cards_in_play(players: usize) -> impl Iterator<Item = Card> {
    (0..types_in_play(players) * 6).map(Card::from_index)
}

/// The length of the tea table line: 5 positions with 2 players, 6 otherwise.
#[must_use]
pub fn line_length(players: usize) -> usize {
    if players == 2 { 5 } else { 6 }
}
