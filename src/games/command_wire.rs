//! The command path's wire types: a command as sent, the answer to it, and
//! how the client stated the version it expects.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::events::EventOut;
use super::projection::Game;
use crate::error::Failure;

/// A command to a game.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CommandRequest {
    /// The version the command was decided against (or send `If-Match`).
    #[schema(example = 17)]
    #[serde(default)]
    pub expected_version: Option<i64>,
    /// One command of the ruleset, e.g. `{"type": "exchange", "card": "H5", "position": 3}`:
    /// exactly as listed in the game's `legal_commands`.
    #[schema(value_type = super::wire_types::AnyCommand)]
    pub command: Value,
}

/// The answer to an accepted command.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CommandResponse {
    /// The game's version after the command.
    pub version: i64,
    /// The events the command caused, as the caller may see them.
    pub events: Vec<EventOut>,
    /// The game after the command, as the caller sees it.
    pub game: Game,
}

/// How the client stated the version it expects.
#[derive(Debug, Clone, Copy)]
pub struct Precondition {
    pub expected: i64,
    pub via_if_match: bool,
}

impl Precondition {
    /// The precondition from the body and the `If-Match` header.
    ///
    /// # Errors
    /// `precondition_required` when neither is given, `bad_request` when they disagree.
    pub fn from(body: Option<i64>, if_match: Option<i64>) -> Result<Self, Failure> {
        match (body, if_match) {
            (Some(b), Some(h)) if b != h => Err(Failure::bad_request(format!(
                "expected_version {b} and If-Match {h} disagree"
            ))),
            (Some(b), _) => Ok(Precondition {
                expected: b,
                via_if_match: false,
            }),
            (None, Some(h)) => Ok(Precondition {
                expected: h,
                via_if_match: true,
            }),
            (None, None) => Err(Failure::precondition_required()),
        }
    }
}
