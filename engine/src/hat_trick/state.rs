//! The state of a game: the match so far and the deal in progress.

use serde::{Deserialize, Serialize};

pub use super::cards::Trump;
use super::cards::{Card, Hand, Suit};
use super::options::{HatTrickOptions, Table};
use super::scoring::RoundResult;
use crate::ruleset::{Seat, seat};

impl Trump {
    /// The trump suit, none at no-trump.
    #[must_use]
    pub fn suit(self) -> Option<Suit> {
        match self {
            Trump::H => Some(Suit::H),
            Trump::D => Some(Suit::D),
            Trump::C => Some(Suit::C),
            Trump::S => Some(Suit::S),
            Trump::NT => None,
        }
    }

    /// Trump in `suit`.
    #[must_use]
    pub fn of(suit: Suit) -> Trump {
        [Trump::H, Trump::D, Trump::C, Trump::S][usize::from(suit.index())]
    }
}

/// One card played to the current trick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatTrickPlay))]
pub struct Play {
    /// Who played it.
    pub seat: Seat,
    /// The card.
    pub card: Card,
}

/// A prediction: `seat` claimed trick `claims` while playing to trick `made_on`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HatTrickPrediction))]
pub struct Prediction {
    /// Who predicted.
    pub seat: Seat,
    /// The trick they were playing to.
    pub made_on: u8,
    /// The trick they claimed (6th, or the last).
    pub claims: u8,
    /// What it is worth: + value if won, − 2 × value if lost.
    pub value: i32,
}

/// Everything the rules need about a game in progress.
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HatTrickState {
    /// Seats at the table.
    pub players: u8,
    /// The options the game was created with.
    pub options: HatTrickOptions,
    /// Deals in the match.
    pub rounds: u8,
    /// The deal in progress (0-based).
    pub round: u8,
    /// The dealer of this deal.
    pub dealer: Seat,
    /// Each seat's hand.
    pub hands: Vec<Hand>,
    /// The cards left over, top first.
    pub left: Vec<Card>,
    /// The trump indicator, public for the whole deal (none when trump goes by the cycle).
    pub indicator: Option<Card>,
    /// Whether the indicator is a cut card in the dealer's hand (else the top left-over card).
    pub indicator_is_cut: bool,
    /// Trump of this deal.
    pub trump: Trump,
    /// Whether this deal is negative.
    pub negative: bool,
    /// The trick being played (1-based; 0 before the first deal).
    pub trick_number: u8,
    /// Who leads (or led) the current trick.
    pub leader: Seat,
    /// The cards played to the current trick, in order.
    pub trick: Vec<Play>,
    /// The cards played to the earlier tricks of this deal, in order (public:
    /// every `played` event shows them). Emptied when the deal is scored, so
    /// a finished match has none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub played: Vec<Play>,
    /// Tricks taken this deal, per seat.
    pub tricks_won: Vec<u8>,
    /// Winners of the scoring tricks so far: 1st, 6th, last.
    pub scoring: [Option<Seat>; 3],
    /// The prediction of each window (claiming the 6th, claiming the last).
    pub predictions: [Option<Prediction>; 2],
    /// Match totals per seat.
    pub scores: Vec<i32>,
    /// The scored deals.
    pub results: Vec<RoundResult>,
    /// Whether the match is over.
    pub finished: bool,
}

impl HatTrickState {
    /// A game before its first deal.
    #[must_use]
    pub fn new(players: usize, options: HatTrickOptions) -> Self {
        let rounds = options.round_count(players);
        HatTrickState {
            players: u8::try_from(players).unwrap_or(0),
            options,
            rounds,
            round: 0,
            dealer: seat(0),
            hands: vec![Hand::default(); players],
            left: Vec::new(),
            indicator: None,
            indicator_is_cut: false,
            trump: Trump::NT,
            negative: false,
            trick_number: 0,
            leader: seat(0),
            trick: Vec::with_capacity(6),
            played: Vec::new(),
            tricks_won: vec![0; players],
            scoring: [None; 3],
            predictions: [None; 2],
            scores: vec![0; players],
            results: Vec::new(),
            finished: false,
        }
    }

    /// The number of seats.
    #[must_use]
    pub fn n(&self) -> usize {
        usize::from(self.players)
    }

    /// The table shape.
    #[must_use]
    pub fn table(&self) -> Table {
        self.options.table(self.n())
    }

    /// Tricks per deal.
    #[must_use]
    pub fn tricks(&self) -> u8 {
        if self.players == 6 { 10 } else { 11 }
    }

    /// The seat that sits out the current trick (the 5-player dealer, trick 1).
    #[must_use]
    pub fn sitting_out(&self) -> Option<Seat> {
        (self.players == 5 && self.trick_number == 1).then_some(self.dealer)
    }

    /// How many cards make the current trick.
    #[must_use]
    pub fn trick_size(&self) -> usize {
        self.n() - usize::from(self.sitting_out().is_some())
    }

    /// The seat to play now, if a deal is in progress.
    #[must_use]
    pub fn next_to_play(&self) -> Option<Seat> {
        if self.finished || self.trick_number == 0 || self.trick_number > self.tricks() {
            return None;
        }
        let Some(last) = self.trick.last() else {
            return Some(self.leader);
        };
        let next = last.seat.left(self.n());
        if Some(next) == self.sitting_out() {
            Some(next.left(self.n()))
        } else {
            Some(next)
        }
    }
}
