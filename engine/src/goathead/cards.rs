//! The 20-card deck (A, 10, K, Q, J in four suits), card sets and contracts.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The four suits, in the order of their codes' letters: ♣ ♠ ♥ ♦.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    Clubs,
    Spades,
    Hearts,
    Diamonds,
}

impl Suit {
    /// Every suit, clubs first.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds];

    /// The code letter (`C`, `S`, `H`, `D`).
    #[must_use]
    pub fn letter(self) -> char {
        ['C', 'S', 'H', 'D'][self as usize]
    }

    fn from_letter(letter: &str) -> Option<Suit> {
        Some(match letter {
            "C" => Suit::Clubs,
            "S" => Suit::Spades,
            "H" => Suit::Hearts,
            "D" => Suit::Diamonds,
            _ => return None,
        })
    }
}

/// The five ranks, high to low in Ace-Ten order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    Ace,
    Ten,
    King,
    Queen,
    Jack,
}

impl Rank {
    /// Every rank, Ace first.
    pub const ALL: [Rank; 5] = [Rank::Ace, Rank::Ten, Rank::King, Rank::Queen, Rank::Jack];

    /// The trick points of a card of this rank: A 11, 10 10, K 4, Q 3, J 2.
    #[must_use]
    pub fn points(self) -> u8 {
        [11, 10, 4, 3, 2][self as usize]
    }

    fn code(self) -> &'static str {
        ["A", "10", "K", "Q", "J"][self as usize]
    }
}

/// Number of cards in the deck.
pub const DECK_SIZE: usize = 20;

/// One card, as its index `suit * 5 + rank` (clubs Ace is 0, diamonds Jack 19).
/// Serialized as its code: rank then suit letter (`AC`, `10S`, `JD`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The card of `rank` in `suit`.
    #[must_use]
    pub const fn new(suit: Suit, rank: Rank) -> Card {
        Card(suit as u8 * 5 + rank as u8)
    }

    /// The card with index `index` (0..20).
    #[must_use]
    pub fn from_index(index: u8) -> Option<Card> {
        (usize::from(index) < DECK_SIZE).then_some(Card(index))
    }

    /// The index of the card (0..20).
    #[must_use]
    pub fn index(self) -> u8 {
        self.0
    }

    /// The printed suit.
    #[must_use]
    pub fn suit(self) -> Suit {
        Suit::ALL[usize::from(self.0 / 5)]
    }

    /// The rank.
    #[must_use]
    pub fn rank(self) -> Rank {
        Rank::ALL[usize::from(self.0 % 5)]
    }

    /// The card's trick points.
    #[must_use]
    pub fn points(self) -> u8 {
        self.rank().points()
    }

    /// Whether the card is a Jack.
    #[must_use]
    pub fn is_jack(self) -> bool {
        self.0 % 5 == 4
    }

    /// The card with code `code` (`AC`, `10S`, ...), if there is one.
    #[must_use]
    pub fn parse(code: &str) -> Option<Card> {
        let split = code.len().checked_sub(1)?;
        let (rank, suit) = (code.get(..split)?, code.get(split..)?);
        let rank = Rank::ALL.into_iter().find(|r| r.code() == rank)?;
        Some(Card::new(Suit::from_letter(suit)?, rank))
    }

    /// Every card of the deck, in index order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..20).map(Card)
    }
}

/// The club Jack, highest trump.
pub const JC: Card = Card::new(Suit::Clubs, Rank::Jack);
/// The spade Jack, second trump.
pub const JS: Card = Card::new(Suit::Spades, Rank::Jack);

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().code(), self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

crate::codes::schema_from_codes!(
    Card,
    "GoatheadCard",
    "A Goathead card by its code.",
    Card::all().map(|c| c.to_string()).collect()
);

crate::codes::schema_from_codes!(
    Contract,
    "GoatheadContract",
    "A Goathead contract by its name.",
    Contract::BIDDABLE
        .iter()
        .chain(&[Contract::Leasters])
        .map(|c| c.code().to_owned())
        .collect()
);

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

crate::codes::deserialize_from_code!(Card, "a card code", "unknown card");

/// A set of cards (a hand, the kitty), listed in index order.
/// Serialized as the list of its card codes.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardSet(u32);

impl CardSet {
    /// No cards.
    pub const EMPTY: CardSet = CardSet(0);

    /// The whole deck.
    #[must_use]
    pub fn deck() -> CardSet {
        CardSet((1 << DECK_SIZE) - 1)
    }

    /// The set of `cards`.
    pub fn of(cards: impl IntoIterator<Item = Card>) -> CardSet {
        let mut set = CardSet::EMPTY;
        for card in cards {
            set.insert(card);
        }
        set
    }

    /// The raw bits (bit `i` is the card of index `i`).
    #[must_use]
    pub fn bits(self) -> u32 {
        self.0
    }

    /// The set with these bits.
    #[must_use]
    pub fn from_bits(bits: u32) -> CardSet {
        CardSet(bits & CardSet::deck().0)
    }

    /// Whether `card` is in the set.
    #[must_use]
    pub fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.0) != 0
    }

    /// Adds `card`.
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.0;
    }

    /// Removes `card`.
    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.0);
    }

    /// The number of cards.
    #[must_use]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cards of both sets.
    #[must_use]
    pub fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// The cards in both sets.
    #[must_use]
    pub fn intersection(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// The sum of the cards' trick points.
    #[must_use]
    pub fn points(self) -> u8 {
        self.iter().map(Card::points).sum()
    }

    /// The cards, in index order.
    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let index = bits.trailing_zeros();
            bits &= bits - 1;
            u8::try_from(index).ok().map(Card)
        })
    }

    /// The cards as a list, in index order.
    #[must_use]
    pub fn to_vec(self) -> Vec<Card> {
        self.iter().collect()
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

crate::codes::schema_as_array_of!(CardSet, "GoatheadCards", Card);

impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(CardSet::of(Vec::<Card>::deserialize(deserializer)?))
    }
}

/// A contract. Biddable ones rank, low to high: `suit:D` < `suit:H` < `nil`
/// < `suit:S` < `suit:C` < `court`. Leasters is played when everyone passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Contract {
    /// Jacks and the named suit are trumps.
    Suit(Suit),
    /// No trumps; the declarer must win no trick.
    Nil,
    /// Only the four Jacks are trumps.
    Court,
    /// Everyone passed: Jacks are trumps, most points pays fewest.
    Leasters,
}

impl Contract {
    /// The biddable contracts, lowest first.
    pub const BIDDABLE: [Contract; 6] = [
        Contract::Suit(Suit::Diamonds),
        Contract::Suit(Suit::Hearts),
        Contract::Nil,
        Contract::Suit(Suit::Spades),
        Contract::Suit(Suit::Clubs),
        Contract::Court,
    ];

    /// The position in the bidding order (Leasters lowest, below every bid).
    #[must_use]
    pub fn rank(self) -> u8 {
        match self {
            Contract::Leasters => 0,
            Contract::Suit(Suit::Diamonds) => 1,
            Contract::Suit(Suit::Hearts) => 2,
            Contract::Nil => 3,
            Contract::Suit(Suit::Spades) => 4,
            Contract::Suit(Suit::Clubs) => 5,
            Contract::Court => 6,
        }
    }

    /// Whether players may bid it.
    #[must_use]
    pub fn is_biddable(self) -> bool {
        self != Contract::Leasters
    }

    /// The biddable contracts strictly higher than `self`.
    pub fn higher(self) -> impl Iterator<Item = Contract> {
        Contract::BIDDABLE
            .into_iter()
            .filter(move |c| c.rank() > self.rank())
    }

    /// Whether the Jacks are trumps.
    #[must_use]
    pub fn jacks_trump(self) -> bool {
        self != Contract::Nil
    }

    /// The base value: suit 1, nil 2, court 2 (Leasters pays 1 its own way).
    #[must_use]
    pub fn base_value(self) -> i32 {
        match self {
            Contract::Suit(_) | Contract::Leasters => 1,
            Contract::Nil | Contract::Court => 2,
        }
    }

    /// The API code (`suit:H`, `nil`, `court`, `leasters`).
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            Contract::Suit(Suit::Clubs) => "suit:C",
            Contract::Suit(Suit::Spades) => "suit:S",
            Contract::Suit(Suit::Hearts) => "suit:H",
            Contract::Suit(Suit::Diamonds) => "suit:D",
            Contract::Nil => "nil",
            Contract::Court => "court",
            Contract::Leasters => "leasters",
        }
    }

    /// The contract with code `code`.
    #[must_use]
    pub fn parse(code: &str) -> Option<Contract> {
        Contract::BIDDABLE
            .into_iter()
            .chain([Contract::Leasters])
            .find(|c| c.code() == code)
    }

    /// The effective suit of `card`: `None` for a trump, else its printed suit.
    #[must_use]
    pub fn effective_suit(self, card: Card) -> Option<Suit> {
        if self.is_trump(card) {
            None
        } else {
            Some(card.suit())
        }
    }

    /// Whether `card` is a trump under this contract.
    #[must_use]
    pub fn is_trump(self, card: Card) -> bool {
        match self {
            Contract::Nil => false,
            Contract::Court | Contract::Leasters => card.is_jack(),
            Contract::Suit(trump) => card.is_jack() || card.suit() == trump,
        }
    }

    /// How strongly `card` takes a trick led in `led` (`None`: trump led):
    /// trumps beat everything (JC JS JH JD, then A 10 K Q of the trump suit),
    /// then cards of the led suit in A 10 K Q (J) order; other cards 0.
    #[must_use]
    pub fn strength(self, card: Card, led: Option<Suit>) -> u8 {
        let rank = card.rank() as u8;
        if self.is_trump(card) {
            if card.is_jack() {
                // JC 40, JS 39, JH 38, JD 37.
                40 - card.suit() as u8
            } else {
                30 - rank
            }
        } else if Some(card.suit()) == led {
            10 - rank
        } else {
            0
        }
    }
}

impl fmt::Display for Contract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for Contract {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

crate::codes::deserialize_from_code!(Contract, "a contract", "unknown contract");
