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

/// `player_invited`: a user is invited to a private game (at creation).
pub const PLAYER_INVITED: &str = "player_invited";
/// `player_declined`: an invitee declines.
pub const PLAYER_DECLINED: &str = "player_declined";
/// `game_cancelled`: the creator cancels a game that has not started; it is `abandoned`.
pub const GAME_CANCELLED: &str = "game_cancelled";
/// `turn_timed_out`: a seat's deadline passed (actor: the seat, no user).
pub const TURN_TIMED_OUT: &str = "turn_timed_out";
/// `seat_vacation`: a seat pushed its deadline back.
pub const SEAT_VACATION: &str = "seat_vacation";
/// `player_resigned`: a seat is out (`resigned`, `timeout` or `inactive`);
/// the server plays it from then on, or the game ends by forfeit.
pub const PLAYER_RESIGNED: &str = "player_resigned";
/// `game_forfeited`: one seat (or none) is left that is not out; the data is
/// the game's result.
pub const GAME_FORFEITED: &str = "game_forfeited";

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
    /// The server-level options (clock, timeouts), when any were given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_options: Option<Value>,
    /// Whether the game is closed to the public.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub private: bool,
    /// The rules the game is played under (`hats@1`). Records written before
    /// rules versions existed have none: they were played under version 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
}

impl GameCreated {
    /// The recorded rules, or version 1 of the ruleset for a record written
    /// before versions existed (the upcast of such a record).
    #[must_use]
    pub fn rules_name(&self) -> String {
        self.rules
            .clone()
            .unwrap_or_else(|| format!("{}@1", self.ruleset))
    }
}

/// The data of `player_joined`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PlayerJoined {
    pub seat: u8,
    pub user_id: Uuid,
    pub username: String,
}

/// The data of `player_invited` and `player_declined`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Invitee {
    pub user_id: Uuid,
    pub username: String,
}

/// The data of `turn_timed_out`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TurnTimedOut {
    pub seat: u8,
}

/// The data of `seat_vacation`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SeatVacation {
    pub seat: u8,
    pub duration_secs: u64,
    /// The new deadline (RFC 3339).
    pub until: String,
}

/// The data of `player_resigned`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PlayerResigned {
    pub seat: u8,
    /// `resigned`, `timeout` (forfeit on timeout) or `inactive` (`abandon_after` timeouts in a row).
    pub reason: String,
}

/// The result of a game ended by forfeit (the data of `game_forfeited`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ForfeitResult {
    /// Always `forfeit`.
    pub outcome: String,
    /// The seats not out (one, or none when every seat is out).
    pub winners: Vec<u8>,
    /// 0 for every seat: a forfeit scores nothing.
    pub scores: Vec<i32>,
    /// The seats that are out.
    pub forfeited: Vec<u8>,
}

impl ForfeitResult {
    /// The result when the seats marked `out` are out.
    #[must_use]
    pub fn of(out: &[bool]) -> Self {
        let seats = (0..out.len()).filter_map(|s| u8::try_from(s).ok());
        ForfeitResult {
            outcome: "forfeit".to_owned(),
            winners: seats.clone().filter(|&s| !out[usize::from(s)]).collect(),
            scores: vec![0; out.len()],
            forfeited: seats.filter(|&s| out[usize::from(s)]).collect(),
        }
    }
}
