//! The state of a Goathead match: the match totals, and the round in play.

use serde::{Deserialize, Serialize};

use super::cards::{Card, CardSet, Contract};
use super::options::Deal;
use super::scoring::GoatheadRound;
use crate::ruleset::{Seat, seat};

/// Where a round stands.
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = GoatheadPhase))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// `turn` bids, steals or passes.
    Bidding { turn: Seat },
    /// 3 players: the declarer takes or leaves the kitty.
    KittyChoice,
    /// 3 players: the declarer, holding the kitty, buries cards until six are left.
    Bury,
    /// The declarer keeps or upgrades the contract.
    ContractChoice,
    /// 4 players: the kitty's swap round; step 0 is the declarer, 1–3 the
    /// others from the declarer's left, 4 the dealer once more.
    Swap { step: u8 },
    /// Everything before play is done; the sides are fixed next (never waited on).
    Starting,
    /// `turn` plays a card.
    Play { turn: Seat },
    /// The round is over and is scored next (never waited on).
    RoundOver,
    /// The match is over.
    Finished,
}

/// One line of the public bidding log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = GoatheadBidRecord))]
pub struct BidRecord {
    pub seat: Seat,
    /// `bid`, `steal` or `pass`.
    pub action: BidAction,
    /// The contract bid or stolen.
    pub contract: Option<Contract>,
}

/// What a seat did in the bidding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = GoatheadBidAction))]
#[serde(rename_all = "snake_case")]
pub enum BidAction {
    Bid,
    Steal,
    Pass,
}

/// A finished trick: who led, the cards in play order, who won and its points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = GoatheadTrickRecord))]
pub struct TrickRecord {
    pub leader: Seat,
    pub cards: Vec<Card>,
    pub winner: Seat,
    pub points: u8,
}

/// The state of the round being played.
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = GoatheadRoundState))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundState {
    /// Each seat's hand.
    pub hands: Vec<CardSet>,
    /// The kitty.
    pub kitty: CardSet,
    /// Per seat, the kitty cards that seat put there itself (it still knows them).
    pub kitty_known: Vec<CardSet>,
    /// The public bidding log.
    pub bids: Vec<BidRecord>,
    /// Seats that passed (bit per seat).
    pub passed: u8,
    /// The bid leader and the highest contract bid.
    pub leader: Option<Seat>,
    pub highest: Option<Contract>,
    /// The contract in force and its declarer (none in Leasters).
    pub contract: Option<Contract>,
    pub declarer: Option<Seat>,
    /// 3 players: the declarer took the kitty.
    pub kitty_taken: bool,
    /// 4 players: the declarer swapped with the kitty at least once.
    pub declarer_swapped: bool,
    /// 4 players: the seat that announced holding both black Jacks.
    pub announced: Option<Seat>,
    /// The declaring side (bit per seat), fixed when play begins.
    pub declaring_side: u8,
    /// The current trick: who led and the cards in play order.
    pub trick_leader: Option<Seat>,
    pub trick: Vec<Card>,
    /// The finished tricks of the round.
    pub tricks: Vec<TrickRecord>,
    /// Trick points and tricks taken per seat (the kitty not included).
    pub trick_points: Vec<u8>,
    pub tricks_won: Vec<u8>,
}

/// Everything the rules need to know about a Goathead match.
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoatheadState {
    /// Seats at the table (3 or 4).
    pub players: u8,
    /// Rounds in the match.
    pub rounds: u8,
    /// The explicit deals of the options (`deals[r]` for round `r`).
    pub deals: Vec<Deal>,
    /// The round being played (0-based) and its dealer.
    pub round: u8,
    pub dealer: Seat,
    /// The match score per seat (public).
    pub game_points: Vec<i32>,
    /// The scored rounds.
    pub history: Vec<GoatheadRound>,
    /// Where the round stands.
    pub phase: Phase,
    /// The round being played.
    pub current: RoundState,
}

impl GoatheadState {
    /// A match before its first deal.
    #[must_use]
    pub fn new(players: usize, rounds: u8, deals: Vec<Deal>) -> Self {
        GoatheadState {
            players: u8::try_from(players).unwrap_or(u8::MAX),
            rounds,
            deals,
            round: 0,
            dealer: seat(0),
            game_points: vec![0; players],
            history: Vec::new(),
            phase: Phase::RoundOver,
            current: RoundState::default(),
        }
    }

    /// The number of seats.
    #[must_use]
    pub fn player_count(&self) -> usize {
        usize::from(self.players)
    }

    /// The seat to the left of `s`.
    #[must_use]
    pub fn left(&self, s: Seat) -> Seat {
        s.left(self.player_count())
    }

    /// The seat `k` places to the left of `s`.
    #[must_use]
    pub fn left_by(&self, s: Seat, k: usize) -> Seat {
        seat((s.index() + k) % self.player_count())
    }

    /// The declarer (seat 0 when there is none, which never happens where it is asked).
    #[must_use]
    pub fn declarer(&self) -> Seat {
        self.current.declarer.unwrap_or(seat(0))
    }

    /// The contract in force (Leasters before one is set).
    #[must_use]
    pub fn contract(&self) -> Contract {
        self.current.contract.unwrap_or(Contract::Leasters)
    }

    /// The seat that swaps at `step` of the 4-player kitty round.
    #[must_use]
    pub fn swap_seat(&self, step: u8) -> Seat {
        if step >= 4 {
            self.dealer
        } else {
            self.left_by(self.declarer(), usize::from(step))
        }
    }

    /// The one seat the game waits for, if any.
    #[must_use]
    pub fn actor(&self) -> Option<Seat> {
        match self.phase {
            Phase::Bidding { turn } | Phase::Play { turn } => Some(turn),
            Phase::KittyChoice | Phase::Bury | Phase::ContractChoice => self.current.declarer,
            Phase::Swap { step } => Some(self.swap_seat(step)),
            Phase::Starting | Phase::RoundOver | Phase::Finished => None,
        }
    }

    /// Whether the match is over.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.phase == Phase::Finished
    }

    /// Whether `viewer_seat` may see the whole kitty now: the 4-player swapper
    /// while swapping, and the 4-player declarer while keeping or upgrading.
    #[must_use]
    pub fn sees_kitty(&self, s: Seat) -> bool {
        self.players == 4
            && match self.phase {
                Phase::Swap { step } => self.swap_seat(step) == s,
                Phase::ContractChoice => self.current.declarer == Some(s),
                _ => false,
            }
    }

    /// The seats of a side given as a bit per seat.
    #[must_use]
    pub fn seats_of(&self, mask: u8) -> Vec<Seat> {
        (0..self.player_count())
            .filter(|&i| mask & (1 << i) != 0)
            .map(seat)
            .collect()
    }
}
