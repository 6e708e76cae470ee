//! The server's own events, written to a game's log beside the engine's: the
//! game's creation (ruleset, players, options, seed commitment), each seat
//! taken, and the start. Their type names are reserved: engines never use
//! the prefixes `game_`, `player_`, `seat_`, `turn_` or `deadline_`.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

/// `game_created`: the first event of every game.
pub const GAME_CREATED: &str = "game_created";
/// `player_joined`: a seat is taken.
pub const PLAYER_JOINED: &str = "player_joined";
/// `game_started`: every seat is taken; the engine's opening events follow.
pub const GAME_STARTED: &str = "game_started";

/// Whether an event type is one of the server's rather than the engine's.
#[must_use]
pub fn is_lifecycle(kind: &str) -> bool {
    ["game_", "player_", "seat_", "turn_", "deadline_"]
        .iter()
        .any(|prefix| kind.starts_with(prefix))
}

/// The data of `game_created`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GameCreated {
    pub ruleset: String,
    pub players: u8,
    /// The engine options with every default filled in (explicit deals included).
    pub options: Value,
    /// SHA-256 of the seed, hex.
    pub seed_commitment: String,
    /// The seed itself when the creator made it public; otherwise revealed by the audit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    pub created_by: Uuid,
}

/// The data of `player_joined`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PlayerJoined {
    pub seat: u8,
    pub user_id: Uuid,
    pub username: String,
}
