//! The result of a finished game.

use serde::Serialize;

use super::state::{End, Phase, State};
use crate::ruleset::GameResult;

/// The end of the game in figures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsRound))]
pub struct Round {
    /// Per seat: stacks showing the seat's colour on top at the end.
    pub stacks: Vec<u32>,
    /// Per seat colour: hats of that colour still on the board (hidden ones included).
    pub hats: Vec<u32>,
    /// Per seat colour: hats of that colour removed from the board.
    pub removed: Vec<u32>,
    /// `last_colour`, `quiet_turns` or `no_action`.
    pub end: End,
}

/// The result, once the game is over: each seat scores the stacks showing its
/// colour; the last colour standing wins; a draw has no winners.
#[must_use]
pub fn result(state: &State) -> Option<GameResult<Round>> {
    if state.phase != Phase::Over {
        return None;
    }
    let end = state.end?;
    let players = state.player_count();
    let stacks: Vec<u32> = (0..players)
        .map(|c| state.board.tops(c as u8).count_ones())
        .collect();
    let mut hats = vec![0u32; players];
    for i in 0..super::board::CELLS {
        for &h in state.board.at(i).hats() {
            if let Some(n) = hats.get_mut(usize::from(h)) {
                *n += 1;
            }
        }
    }
    let removed = (0..players).map(|c| u32::from(state.removed[c])).collect();
    Some(GameResult {
        scores: stacks
            .iter()
            .map(|&n| i32::try_from(n).unwrap_or(i32::MAX))
            .collect(),
        winners: state.winner.into_iter().collect(),
        teams: None,
        tie_break: None,
        outcome: state.winner.is_none().then(|| "draw".to_string()),
        rounds: vec![Round {
            stacks,
            hats,
            removed,
            end,
        }],
    })
}
