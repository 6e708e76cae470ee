//! The server's own events, written to a game's log beside the engine's:
//! the game's creation (ruleset, players, options, seed commitment), seats
//! taken, invitations, the start, cancellation, timeouts, vacations,
//! resignations and forfeits. One enum, [`ServerEvent`], stored as a `type`
//! and a `data` document like the engines' events. Their type names are
//! reserved: engines never use the prefixes `game_`, `player_`, `seat_`,
//! `turn_` or `deadline_`.
//!
//! Every stored event carries the schema version it was written under
//! ([`SCHEMA`] for new ones). Reading goes through [`ServerEvent::read`],
//! which upcasts older shapes to today's before parsing; the stored data
//! (and so its hash) is never rewritten.
//!
//! Schema versions:
//! - 1: everything written before versions existed. `game_created` may lack
//!   `rules` (records from before rules versions): the game was played
//!   under version 1 of its ruleset.
//! - 2: `game_created` always names its `rules`. `turn_forced` and the
//!   takeback's `turn_takeback_offered`, `turn_takeback_accepted`,
//!   `turn_takeback_declined` and `turn_taken_back`, `seat_substituted`, and
//!   the table's pause (`game_pause_proposed`, `game_pause_voted`,
//!   `game_paused`, `game_resumed`) (kinds added later, under the same
//!   schema: no older event changes shape).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

/// The schema version new events are written under.
pub const SCHEMA: i16 = 2;

/// The prefixes reserved for server events.
const RESERVED: [&str; 5] = ["game_", "player_", "seat_", "turn_", "deadline_"];

/// Whether an event type is one of the server's rather than the engine's.
#[must_use]
pub fn is_server_event(kind: &str) -> bool {
    RESERVED.iter().any(|prefix| kind.starts_with(prefix))
}

/// The type names of the server's events.
pub const KINDS: [&str; 22] = [
    "game_created",
    "player_invited",
    "player_declined",
    "player_joined",
    "game_started",
    "game_cancelled",
    "turn_timed_out",
    "turn_forced",
    "turn_takeback_offered",
    "turn_takeback_accepted",
    "turn_takeback_declined",
    "turn_taken_back",
    "seat_vacation",
    "player_resigned",
    "game_forfeited",
    "game_clock_started",
    "seat_bank_changed",
    "seat_substituted",
    "game_pause_proposed",
    "game_pause_voted",
    "game_paused",
    "game_resumed",
];

/// An event of the server's, as its `{"type", "data"}` document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
pub enum ServerEvent {
    /// The first event of every game.
    GameCreated(GameCreated),
    /// A user is invited to a private game (at creation).
    PlayerInvited(Invitee),
    /// An invitee declines.
    PlayerDeclined(Invitee),
    /// A seat is taken.
    PlayerJoined(PlayerJoined),
    /// Every seat is taken; the engine's opening events follow.
    GameStarted(Started),
    /// The creator cancels a game that has not started; it is `abandoned`.
    GameCancelled(Cancelled),
    /// A seat's deadline passed (actor: the seat, no user).
    TurnTimedOut(SeatOnly),
    /// The seat had exactly one legal command and its player has the
    /// server play such moves (`auto_play_forced`): the command follows at
    /// once, by the same actor (the player and the seat).
    TurnForced(SeatOnly),
    /// The seat asks to take back its last command (docs/turn-conveniences.md);
    /// `to_version` is the version before that command. Actor: the player and the seat.
    TurnTakebackOffered(Takeback),
    /// A seat accepts the standing offer (a bot's seat accepts at once).
    TurnTakebackAccepted(SeatOnly),
    /// A seat declines the standing offer, which ends it.
    TurnTakebackDeclined(SeatOnly),
    /// Every other seat that is not out accepted: the state is again the
    /// state at `to_version` (the log goes on; nothing is removed).
    /// Actor: the system.
    TurnTakenBack(Takeback),
    /// A seat pushed its deadline back.
    SeatVacation(SeatVacation),
    /// A seat is out; the server plays it from then on, or the game ends by forfeit.
    PlayerResigned(PlayerResigned),
    /// One seat (or none) is left that is not out; the data is the game's result.
    GameForfeited(ForfeitResult),
    /// The clocks started (games with a `clock` or a weekend pause, right
    /// after the opening events): each seat's time zone, fixed for the game.
    GameClockStarted(ClockStarted),
    /// A seat's time bank after its move: charged for the time it ran,
    /// plus the increment, at most the maximum (docs/clocks.md).
    SeatBankChanged(BankChanged),
    /// A substitute takes a vacant seat (one that is out: docs/seats.md):
    /// the seat is in again, and its commands are `to`'s from here on.
    /// Actor: the substitute and the seat.
    SeatSubstituted(Substituted),
    /// A player proposes to pause the table (docs/clocks.md), until
    /// `until` or a resume; their own vote is yes. Actor: the player and seat.
    GamePauseProposed(PauseProposed),
    /// A player votes on the open proposal; a no ends it.
    GamePauseVoted(PauseVoted),
    /// Every player voted yes: no clock runs from now on. Actor: the system.
    GamePaused(Paused),
    /// The pause is over: a player resumed the table (`seat`), or its
    /// `until` came (`seat` null; actor: the system).
    GameResumed(Resumed),
}

/// The data of `seat_substituted`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Substituted {
    pub seat: u8,
    /// The player who held the seat and left it.
    pub from: Uuid,
    /// The substitute, who holds it from now on.
    pub to: Uuid,
    /// The substitute's username.
    #[schema(example = "cyd")]
    pub username: String,
}

/// The data of `game_pause_proposed`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PauseProposed {
    pub seat: u8,
    /// When the pause ends by itself (RFC 3339), or null: at a resume.
    #[schema(example = "2026-12-24T18:00:00.000000Z")]
    pub until: Option<String>,
}

/// The data of `game_pause_voted`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PauseVoted {
    pub seat: u8,
    /// Yes or no; a no ends the proposal.
    pub yes: bool,
}

/// The data of `game_paused`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Paused {
    /// When the pause ends by itself (RFC 3339), or null.
    pub until: Option<String>,
}

/// The data of `game_resumed`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Resumed {
    /// The seat whose player resumed the table; null when `until` came.
    pub seat: Option<u8>,
}

/// The data of `game_clock_started`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockStarted {
    /// Each seat's IANA time zone, in seat order (`UTC` for a player who
    /// set none).
    #[schema(example = json!(["Europe/Paris", "UTC"]))]
    pub zones: Vec<String>,
}

/// The data of `seat_bank_changed`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BankChanged {
    pub seat: u8,
    /// The bank now, in milliseconds.
    pub bank_ms: i64,
}

/// Why a stored server event cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// A reserved type this build does not know.
    #[error("unknown server event {0}")]
    Unknown(String),
    /// A schema version newer than this build's.
    #[error("{kind} is written in schema {schema}, newer than this build's {SCHEMA}")]
    NewerSchema { kind: String, schema: i16 },
    /// The data does not have the event's shape.
    #[error("{kind}: {why}")]
    Malformed { kind: String, why: String },
}

impl ServerEvent {
    /// The event's type and data, as stored.
    ///
    /// # Errors
    /// Only if serialization fails (our own types always serialize).
    pub fn to_parts(&self) -> Result<(String, Value), serde_json::Error> {
        let Value::Object(mut map) = serde_json::to_value(self)? else {
            return Err(serde::ser::Error::custom("a server event is an object"));
        };
        let kind = match map.remove("type") {
            Some(Value::String(kind)) => kind,
            _ => return Err(serde::ser::Error::custom("a server event has a type")),
        };
        Ok((kind, map.remove("data").unwrap_or(Value::Null)))
    }

    /// Reads a stored event written under `schema`: `None` for an engine's
    /// event, else the server event in today's shape.
    ///
    /// # Errors
    /// A reserved type this build does not know, a newer schema, or data
    /// that does not have the event's shape.
    pub fn read(kind: &str, schema: i16, data: &Value) -> Result<Option<Self>, ReadError> {
        if !is_server_event(kind) {
            return Ok(None);
        }
        if schema > SCHEMA {
            return Err(ReadError::NewerSchema {
                kind: kind.to_owned(),
                schema,
            });
        }
        if !KINDS.contains(&kind) {
            return Err(ReadError::Unknown(kind.to_owned()));
        }
        let data = upcast(kind, schema, data.clone());
        let document = serde_json::json!({"type": kind, "data": data});
        ServerEvent::deserialize(&document)
            .map(Some)
            .map_err(|e| ReadError::Malformed {
                kind: kind.to_owned(),
                why: e.to_string(),
            })
    }
}

/// Brings the data of an event written under `schema` to today's shape,
/// one version at a time.
fn upcast(kind: &str, schema: i16, mut data: Value) -> Value {
    if schema < 2 && kind == "game_created" {
        // Version 1: records from before rules versions name no rules;
        // they were played under version 1 of their ruleset.
        if let Value::Object(map) = &mut data
            && !map.contains_key("rules")
        {
            let ruleset = map.get("ruleset").and_then(Value::as_str).unwrap_or("");
            let rules = Value::String(format!("{ruleset}@1"));
            map.insert("rules".to_owned(), rules);
        }
    }
    data
}

/// The data of `game_created`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GameCreated {
    #[schema(value_type = super::names::RulesetId)]
    pub ruleset: String,
    pub players: u8,
    /// The engine options with every default filled in (explicit deals included).
    #[schema(value_type = Object)]
    pub options: Value,
    /// SHA-256 of the seed, hex.
    pub seed_commitment: String,
    /// The seed itself when the creator made it public; otherwise revealed by the audit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    pub created_by: Uuid,
    /// The server-level options (clock, timeouts), when any were given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub server_options: Option<Value>,
    /// Whether the game is closed to the public.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub private: bool,
    /// The rules the game is played under (`hats@1`).
    pub rules: String,
}

/// The data of `player_joined`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerJoined {
    pub seat: u8,
    pub user_id: Uuid,
    pub username: String,
    /// The seat's salt, in a game whose seats salt the shuffle
    /// (`record::salts`): 64 lowercase hex digits. Absent otherwise, and
    /// from every game created before salts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")]
    pub salt: Option<String>,
    /// Whether the server made the salt (the client sent none, or the seat
    /// is a built-in bot's) rather than the player's client.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub salt_by_server: bool,
}

/// The data of `player_invited` and `player_declined`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Invitee {
    pub user_id: Uuid,
    pub username: String,
}

/// The data of `game_started`: nothing (`{}`).
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Started {}

/// The data of `game_cancelled`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Cancelled {
    /// The creator who cancelled it.
    pub by: Uuid,
}

/// The data of `turn_timed_out` and `turn_forced`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatOnly {
    pub seat: u8,
}

/// The data of `turn_takeback_offered` and `turn_taken_back`: the seat whose
/// last command is taken back, and the version before that command.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Takeback {
    pub seat: u8,
    pub to_version: i64,
}

/// The data of `seat_vacation`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatVacation {
    pub seat: u8,
    pub duration_secs: u64,
    /// The new deadline (RFC 3339).
    pub until: String,
}

/// Why a seat is out.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OutReason {
    /// Its player resigned.
    Resigned,
    /// Its turn timed out in a game that forfeits on timeout.
    Timeout,
    /// `abandon_after` timeouts in a row.
    Inactive,
}

/// The data of `player_resigned`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerResigned {
    pub seat: u8,
    pub reason: OutReason,
}

/// The result of a game ended by forfeit (the data of `game_forfeited`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ToSchema)]
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// `game_created` exactly as the release before this one wrote it
    /// (schema 1, rules named), and as releases before rules versions wrote
    /// it (schema 1, no rules).
    fn created_v1(rules: Option<&str>) -> Value {
        let mut data = json!({
            "ruleset": "hats",
            "players": 2,
            "options": {"deals": 2},
            "seed_commitment": "ab",
            "created_by": "00000000-0000-0000-0000-000000000001",
        });
        if let Some(rules) = rules {
            data["rules"] = json!(rules);
        }
        data
    }

    #[test]
    fn given_a_record_written_before_schemas_when_read_then_it_is_upcast() {
        let Some(ServerEvent::GameCreated(created)) =
            ServerEvent::read("game_created", 1, &created_v1(None)).unwrap()
        else {
            panic!("not game_created");
        };
        assert_eq!(created.rules, "hats@1");
        let Some(ServerEvent::GameCreated(created)) =
            ServerEvent::read("game_created", 1, &created_v1(Some("hats@2"))).unwrap()
        else {
            panic!("not game_created");
        };
        assert_eq!(created.rules, "hats@2");
    }

    #[test]
    fn given_todays_schema_when_written_and_read_then_the_same_event_comes_back() {
        let events = [
            ServerEvent::GameStarted(Started {}),
            ServerEvent::GameCancelled(Cancelled { by: Uuid::nil() }),
            ServerEvent::PlayerResigned(PlayerResigned {
                seat: 1,
                reason: OutReason::Inactive,
            }),
            ServerEvent::TurnTimedOut(SeatOnly { seat: 0 }),
            ServerEvent::TurnForced(SeatOnly { seat: 1 }),
            ServerEvent::TurnTakebackOffered(Takeback {
                seat: 0,
                to_version: 7,
            }),
            ServerEvent::TurnTakebackAccepted(SeatOnly { seat: 1 }),
            ServerEvent::TurnTakebackDeclined(SeatOnly { seat: 1 }),
            ServerEvent::TurnTakenBack(Takeback {
                seat: 0,
                to_version: 7,
            }),
            ServerEvent::SeatSubstituted(Substituted {
                seat: 2,
                from: Uuid::nil(),
                to: Uuid::max(),
                username: "cyd".into(),
            }),
        ];
        for event in events {
            let (kind, data) = event.to_parts().unwrap();
            assert!(KINDS.contains(&kind.as_str()));
            assert_eq!(
                ServerEvent::read(&kind, SCHEMA, &data).unwrap(),
                Some(event)
            );
        }
        let (_, started) = ServerEvent::GameStarted(Started {}).to_parts().unwrap();
        assert_eq!(started, json!({}), "game_started keeps its stored shape");
    }

    #[test]
    fn engine_events_unknown_types_newer_schemas_and_bad_data_are_told_apart() {
        assert_eq!(ServerEvent::read("card_played", 1, &json!({})), Ok(None));
        assert_eq!(
            ServerEvent::read("game_frozen", 1, &json!({})),
            Err(ReadError::Unknown("game_frozen".into()))
        );
        assert!(matches!(
            ServerEvent::read("game_started", SCHEMA + 1, &json!({})),
            Err(ReadError::NewerSchema { .. })
        ));
        assert!(matches!(
            ServerEvent::read("player_resigned", 1, &json!({"seat": 0, "reason": "bored"})),
            Err(ReadError::Malformed { .. })
        ));
    }
}
