//! Everything the rules need to know about a game in progress.

use serde::{Deserialize, Serialize};

use super::board::{Board, Cell, Colour};
use crate::ruleset::Seat;

/// Stacks each player builds.
pub const STACKS: usize = 5;

/// The stage of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsPhase))]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Everyone builds five stacks at once.
    Building,
    /// One stack a turn, from seat 0 clockwise.
    Placing,
    /// Moves and jumps.
    Playing,
    /// Won or drawn.
    Over,
}

/// How the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsEnd))]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// Only one seat's colour is left on top: that seat won.
    LastColour,
    /// Too many played turns in a row without a removed hat: a draw.
    QuietTurns,
    /// No seat could act: a draw.
    NoAction,
}

/// The kind of the last action on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsMoveKind))]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    Place,
    Move,
    Jump,
}

/// The last action on the board, for clients to highlight.
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsLastMove))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastMove {
    pub seat: Seat,
    pub kind: MoveKind,
    pub from: Option<Cell>,
    pub to: Cell,
    /// The stack jumped over.
    pub over: Option<Cell>,
    /// The hat a jump removed.
    pub removed: Option<Colour>,
}

/// A chain of jumps under way.
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsChain))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chain {
    /// Where the jumping stack stands now.
    pub cell: Cell,
    /// The cells jumped over this turn (none may be jumped again).
    pub jumped: u64,
    /// Whether a hat was removed this turn.
    pub removed: bool,
}

/// A game of Top Hats.
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsState))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub players: u8,
    pub quiet_turn_limit: u32,
    pub phase: Phase,
    pub board: Board,
    /// Hats each seat still has to build with, per colour code.
    pub pools: [[u8; 3]; 3],
    /// Each seat's built stacks, colour codes bottom → top.
    pub built: [[[u8; 3]; STACKS]; 3],
    /// Stacks each seat has built.
    pub built_count: [u8; 3],
    /// Bit `i` set when the seat's stack `i` is on the board.
    pub placed: [u8; 3],
    /// Stacks placed so far, all seats together.
    pub placements: u8,
    /// The seat whose turn it is (placing and playing).
    pub to_move: Seat,
    /// The chain of jumps of the current turn, once it has begun.
    pub chain: Option<Chain>,
    /// Played turns in a row without a removed hat.
    pub quiet_turns: u32,
    /// Whether the 2nd row has joined the edge zone.
    pub ring1_edge: bool,
    /// Hats removed from the board, per colour code.
    pub removed: [u8; 4],
    pub last_move: Option<LastMove>,
    pub winner: Option<Seat>,
    pub end: Option<End>,
}

impl State {
    /// The number of seats.
    #[must_use]
    pub fn player_count(&self) -> usize {
        usize::from(self.players)
    }

    /// The seat after `seat`, clockwise.
    #[must_use]
    pub fn next(&self, seat: Seat) -> Seat {
        seat.left(self.player_count())
    }

    /// The cells of the edge zone now.
    #[must_use]
    pub fn edge(&self) -> u64 {
        super::board::RING0
            | if self.ring1_edge {
                super::board::RING1
            } else {
                0
            }
    }
}
