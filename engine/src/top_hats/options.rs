//! The options of a Top Hats game.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::board::{Board, Cell, Colour, MAX_HEIGHT, NEUTRAL, NO_BUILDER, Stack};
use crate::ruleset::{OptionsError, Seat};

/// The default number of played turns in a row without a removed hat after
/// which the game is drawn, under `top-hats@1`.
pub const DEFAULT_QUIET_TURN_LIMIT: u32 = 60;

/// Under `top-hats@2` the default limit is this many played turns per player
/// (chess's fifty-move rule: 100 at two players, 150 at three).
pub const QUIET_TURNS_PER_PLAYER: u32 = 50;

/// What a table may choose.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsOptions))]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Played turns in a row without a removed hat that draw the game
    /// (skipped turns do not count). At least 1.
    #[cfg_attr(
        feature = "schema",
        schema(format = Int64, minimum = 1, maximum = 4_294_967_295_u64)
    )]
    pub quiet_turn_limit: u32,
    /// A hand-built position: building and placing are skipped and play
    /// starts from it (puzzles and tests).
    pub position: Option<Position>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            quiet_turn_limit: DEFAULT_QUIET_TURN_LIMIT,
            position: None,
        }
    }
}

/// A hand-built position: the whole board and the seat to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsPosition))]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// Every stack on the board (list the neutral hat as a one-hat `neutral`
    /// stack if wanted).
    pub stacks: Vec<PresetStack>,
    /// The seat whose turn it is (default seat 0).
    #[serde(default = "first_seat")]
    pub to_move: Seat,
}

fn first_seat() -> Seat {
    Seat(0)
}

/// One stack of a hand-built position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsPresetStack))]
#[serde(deny_unknown_fields)]
pub struct PresetStack {
    /// Where it stands.
    pub cell: Cell,
    /// Its hats, bottom → top (one to three).
    pub hats: Vec<Colour>,
    /// The seat that built it and so sees under its top; when left out, the
    /// seat of the top colour (nobody for the neutral hat).
    #[serde(default)]
    pub builder: Option<Seat>,
}

/// The JSON schema of [`Options`].
pub fn schema() -> serde_json::Value {
    let colour = json!({"type": "string", "enum": ["red", "blue", "yellow", "neutral"]});
    json!({
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "quiet_turn_limit": {
                "type": "integer", "minimum": 1, "default": DEFAULT_QUIET_TURN_LIMIT,
                "description": "Played turns in a row without a removed hat after which the game is a draw (skips do not count). Default: 60 under top-hats@1, 50 per player under top-hats@2."
            },
            "position": {
                "type": ["object", "null"],
                "description": "A hand-built position (puzzles, tests): skips building and placing.",
                "additionalProperties": false,
                "required": ["stacks"],
                "properties": {
                    "stacks": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "additionalProperties": false,
                            "required": ["cell", "hats"],
                            "properties": {
                                "cell": {"type": "string", "pattern": "^[a-g][1-7]$"},
                                "hats": {"type": "array", "items": colour, "minItems": 1, "maxItems": 3,
                                         "description": "bottom → top"},
                                "builder": {"type": ["integer", "null"], "minimum": 0, "maximum": 2,
                                            "description": "the seat that sees under the top; default: the top colour's seat"}
                            }
                        }
                    },
                    "to_move": {"type": "integer", "minimum": 0, "maximum": 2, "default": 0}
                }
            }
        }
    })
}

/// Checks a hand-built position for `players` and lays it out as a board.
pub fn preset_board(players: usize, position: &Position) -> Result<Board, OptionsError> {
    if position.to_move.index() >= players {
        return Err(OptionsError::new(format!(
            "to_move {} is not a seat of a {players}-player game",
            position.to_move.0
        )));
    }
    let mut board = Board::default();
    let mut neutral = false;
    for p in &position.stacks {
        if board.get(p.cell).is_some() {
            return Err(OptionsError::new(format!("two stacks on {}", p.cell)));
        }
        if p.hats.is_empty() || p.hats.len() > MAX_HEIGHT {
            return Err(OptionsError::new(format!(
                "the stack on {} must have 1 to 3 hats",
                p.cell
            )));
        }
        let mut stack = Stack::default();
        for (i, &h) in p.hats.iter().enumerate() {
            if h == Colour::Neutral {
                if p.hats.len() != 1 || neutral {
                    return Err(OptionsError::new(
                        "there is one neutral hat, and it stands alone".to_string(),
                    ));
                }
                neutral = true;
            } else if usize::from(h.code()) >= players {
                return Err(OptionsError::new(format!(
                    "no {h:?} hats in a {players}-player game"
                )));
            }
            stack.hats[i] = h.code();
        }
        stack.len = u8::try_from(p.hats.len()).unwrap_or(1);
        let top = stack.top();
        stack.builder = match p.builder {
            Some(_) if top == NEUTRAL => {
                return Err(OptionsError::new(
                    "the neutral hat has no builder".to_string(),
                ));
            }
            Some(s) if s.index() >= players => {
                return Err(OptionsError::new(format!("builder {} is not a seat", s.0)));
            }
            Some(s) => s.0,
            None if top == NEUTRAL => NO_BUILDER,
            None => top,
        };
        board.put(p.cell, stack);
    }
    let colours = (0..3u8).filter(|&c| board.tops(c) != 0).count();
    if colours < 2 {
        return Err(OptionsError::new(
            "a position needs the colours of at least two seats on top".to_string(),
        ));
    }
    Ok(board)
}
