//! What a seat can send.

use serde::{Deserialize, Serialize};

use super::board::{Cell, Colour};

/// One action of one seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Build the next stack: two hats from the pool (bottom, middle) under a
    /// hat of the builder's own colour.
    BuildStack { under: [Colour; 2] },
    /// Put stack number `stack` (in build order, 0–4) on an empty X cell.
    Place { stack: u8, cell: Cell },
    /// Move a stack to an adjacent empty cell outside the edge zone; ends the turn.
    Move { from: Cell, to: Cell },
    /// Jump a stack over the adjacent stack to the empty cell just beyond.
    Jump { from: Cell, to: Cell },
    /// Stop a chain of jumps while another jump is still possible.
    EndTurn {},
}
