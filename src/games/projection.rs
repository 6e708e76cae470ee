//! The `Game` resource: what one viewer sees of a game. Every read and every
//! command response is this projection of the same state.

use chrono::{DateTime, Utc};
use hatstand_engine::{Ruleset, seat};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;
use utoipa::ToSchema;
use uuid::Uuid;

use super::public::{public_options, viewer_for};
use crate::db::games::{GameRow, SeatRow};
use crate::error::Failure;
use crate::record::codec::{raw_json, to_json};

/// A taken seat.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct SeatInfo {
    /// 0..n-1, clockwise.
    pub seat: u8,
    pub user_id: Uuid,
    pub username: String,
    /// Whether the seat is out (resigned, forfeited on timeout or inactive):
    /// the server plays it when the game waits on it.
    #[serde(default)]
    pub resigned: bool,
    /// Whether a bot holds the seat (a built-in bot or a player's bot account).
    #[serde(default)]
    pub bot: bool,
    /// The seat's contribution to the shuffle, public from the moment it
    /// sits, in a game that takes salts (`salted`); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = "3b9f1e0c5d7a2f48e6c1b0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9")]
    pub salt: Option<String>,
}

/// A game as one viewer sees it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Game {
    pub id: Uuid,
    /// `hats`, `goathead`, `top-hats` or `hat-trick`.
    #[schema(example = "hats")]
    #[schema(value_type = crate::games::RulesetId)]
    pub ruleset: String,
    /// The version of the ruleset's rules the game is played under, from
    /// its first event to its last (`/v1/rulesets` says what each means).
    #[schema(example = "hats@1")]
    pub rules: String,
    /// `open` (waiting for players), `active`, `finished` or `abandoned`.
    #[schema(example = "active")]
    #[schema(value_type = crate::games::GameStatus)]
    pub status: String,
    /// The number of events in the game's log; every accepted command raises
    /// it. The concurrency token: players count `counters` instead.
    #[schema(example = 17)]
    pub version: i64,
    /// The turn, trick, round or deal now, as the rule book counts them (Top
    /// Hats' play turn is in the game's log, `GET /v1/games/{id}/log`).
    pub counters: crate::games::narration::Counters,
    /// The number of seats.
    #[schema(example = 3)]
    pub players: u8,
    /// The options in force, defaults filled in. Explicit deals are never shown
    /// (`explicit_deals` counts them); `seed` appears only when it was made public.
    #[schema(value_type = super::wire_types::AnyOptions)]
    pub options: Value,
    /// The seats taken so far.
    pub seats: Vec<SeatInfo>,
    /// The seats the game waits for.
    pub to_act: Vec<u8>,
    /// The caller's seat, when seated.
    pub my_seat: Option<u8>,
    /// What this viewer may see of the table, as the ruleset's rules file
    /// defines it; `null` until the game starts.
    #[schema(value_type = super::wire_types::AnyView)]
    pub view: Box<RawValue>,
    /// Every command this viewer may send now, each ready to post as is.
    #[schema(value_type = Vec<super::wire_types::AnyCommand>)]
    pub legal_commands: Vec<Value>,
    /// Once finished, how it ended (the ruleset's result, or a forfeit).
    #[schema(value_type = super::wire_types::AnyResult)]
    pub result: Option<Value>,
    /// SHA-256 of the game's seed, hex, published at creation.
    pub seed_commitment: String,
    /// Whether the seats contribute to the shuffle: each seat's `salt` is
    /// public, and the deals are drawn from a hash of the server's seed
    /// (revealed by the audit) and every salt in seat order (docs/audits.md).
    /// False for a public seed and for rules from before salts.
    pub salted: bool,
    /// When the seats in `to_act` time out (RFC 3339), or null: no
    /// `turn_timeout`, or the game is not active.
    pub deadline: Option<DateTime<Utc>>,
    /// Closed to the public: joined with the invite code or by invitees.
    pub private: bool,
    /// Each seat's clock, as of `updated_at`, in a game with a `clock` or a
    /// weekend pause (docs/clocks.md); absent on the fixed per-turn clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clocks: Option<Vec<SeatClockView>>,
    /// The table's pause (docs/clocks.md): paused since when and until
    /// when, and the open proposal with the seats awaited; absent when
    /// nothing is paused or proposed. While paused `deadline` is null.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pause: Option<super::pause_view::PauseView>,
    /// Rated or casual: `options.rated`, or when unset, whether the game is
    /// public with no bot seated (docs/ratings.md).
    pub rated: bool,
    /// The code that lets others join this private game; shown only to its players.
    pub invite_code: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The finished game this one is the rematch of (docs/ratings.md).
    /// `get_game` says it; a command's answer leaves it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch_of: Option<Uuid>,
    /// The rematch offered on this finished game, once offered: its state,
    /// each seat's answer and, once everyone accepted, `new_game_id`.
    /// `get_game` says it; a command's answer leaves it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<super::rematch_offer::Rematch>,
}

/// A seat's clock as the game shows it (docs/clocks.md). Every figure is
/// as of the game's `updated_at`, so that a version reads the same at any
/// time; a client counts down from `deadline`, holding still while
/// `next_change` says a weekend pause has begun.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[schema(example = json!({"seat": 0, "running": true, "remaining_ms": 259_200_000,
                          "bank_ms": 259_200_000, "deadline": "2026-12-12T10:00:00Z",
                          "zone": "Europe/Paris", "next_change": "2026-12-11T23:00:00Z"}))]
pub struct SeatClockView {
    pub seat: u8,
    /// Whether the seat is to act: its clock runs (outside weekend pauses).
    pub running: bool,
    /// The time the seat had left at `updated_at`, in milliseconds (a bank
    /// not running: the bank).
    pub remaining_ms: i64,
    /// A bank clock's bank, not counting the running turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_ms: Option<i64>,
    /// When the running turn times out.
    pub deadline: Option<DateTime<Utc>>,
    /// The seat's time zone (IANA), fixed when the game started.
    pub zone: String,
    /// With a weekend pause: when the seat's clock next stops or starts
    /// again after `updated_at` (a weekend's start or end).
    pub next_change: Option<DateTime<Utc>>,
}

/// The clocks of a game with clocks, as of its `updated_at`.
#[must_use]
pub fn clock_views(game: &GameRow, seats: &[SeatRow]) -> Option<Vec<SeatClockView>> {
    let rules = super::clock::ServerOptions::of(&game.server_options).clock_rules()?;
    if seats.iter().all(|s| s.clock.is_none()) {
        return None;
    }
    let mut clocks = super::clocks::of(&rules, seats);
    clocks.paused = crate::record::pause::TablePause::of(game.pause.as_ref()).since;
    let at = game.updated_at;
    Some(
        clocks
            .seats
            .iter()
            .enumerate()
            .filter_map(|(i, clock)| {
                let seat = u8::try_from(i).ok()?;
                let running = clock.since.is_some() && game.status == super::status::ACTIVE;
                Some(SeatClockView {
                    seat,
                    running,
                    remaining_ms: clocks
                        .remaining(&rules, seat, at)
                        .map_or(0, |r| r.num_milliseconds()),
                    bank_ms: clock.bank_ms,
                    deadline: running.then(|| clocks.deadline(&rules, seat)).flatten(),
                    zone: clock.zone.clone(),
                    next_change: running
                        .then(|| clocks.next_change(&rules, seat, at))
                        .flatten(),
                })
            })
            .collect(),
    )
}

/// A game in a list.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameSummary {
    pub id: Uuid,
    #[schema(example = "hats")]
    #[schema(value_type = crate::games::RulesetId)]
    pub ruleset: String,
    #[schema(example = "open")]
    #[schema(value_type = crate::games::GameStatus)]
    pub status: String,
    pub version: i64,
    pub players: u8,
    pub seats: Vec<SeatInfo>,
    pub to_act: Vec<u8>,
    /// When the seats in `to_act` time out, if the game has a clock.
    pub deadline: Option<DateTime<Utc>>,
    pub private: bool,
    /// Rated or casual: `options.rated`, or when unset, whether the game is
    /// public with no bot seated (docs/ratings.md).
    pub rated: bool,
    /// Seeking by strength: the lowest rating that may join (docs/ratings.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_min: Option<f64>,
    /// The highest rating that may join.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_max: Option<f64>,
    /// Once finished, how it ended (as the game's `result`), so a list can
    /// say who won; null before.
    #[schema(value_type = super::wire_types::AnyResult)]
    pub result: Option<Value>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// The options a game's resource shows: the engine's (see
/// [`public_options`]) and the server-level ones (clock and timeouts).
#[must_use]
pub fn shown_options(game: &GameRow) -> Value {
    let mut shown = public_options(
        &game.options,
        game.seed_public.then_some(game.seed.as_str()),
    );
    if let (Value::Object(map), Value::Object(server)) = (&mut shown, &game.server_options) {
        for (k, v) in server {
            map.insert(k.clone(), v.clone());
        }
    }
    shown
}

/// Seats as the API shows them.
#[must_use]
pub fn seat_infos(seats: &[SeatRow]) -> Vec<SeatInfo> {
    seats
        .iter()
        .filter_map(|s| {
            Some(SeatInfo {
                seat: u8::try_from(s.seat).ok()?,
                user_id: s.user_id,
                username: s.username.clone(),
                resigned: s.resigned,
                bot: s.bot,
                salt: s.salt.clone(),
            })
        })
        .collect()
}

/// Seat numbers as stored (`smallint[]`) to the API's.
#[must_use]
pub fn seats_u8(seats: &[i16]) -> Vec<u8> {
    seats.iter().filter_map(|&s| u8::try_from(s).ok()).collect()
}

/// Whether `game` is rated, as it stands with `seats` (ratings' hook).
fn rated(game: &GameRow, seats: &[SeatRow]) -> bool {
    rated_by_options(
        &game.server_options,
        game.private,
        seats.iter().any(|s| s.bot),
    )
}

/// Whether a game of these stored options is rated (the ratings' rule,
/// `rated_option`): for the rules of games/ that depend on it (takebacks
/// are for casual games only).
#[must_use]
pub fn rated_by_options(server_options: &serde_json::Value, private: bool, has_bot: bool) -> bool {
    crate::ratings::eligibility::rated_option(server_options, private, has_bot)
}

/// The summary of a game row.
#[must_use]
pub fn summary(game: &GameRow, seats: &[SeatRow]) -> GameSummary {
    GameSummary {
        id: game.id,
        ruleset: game.ruleset.clone(),
        status: game.status.clone(),
        version: game.version,
        players: u8::try_from(game.players).unwrap_or(0),
        seats: seat_infos(seats),
        to_act: seats_u8(&game.to_act),
        deadline: game.deadline,
        private: game.private,
        rated: rated(game, seats),
        rating_min: super::clock::ServerOptions::of(&game.server_options).rating_min,
        rating_max: super::clock::ServerOptions::of(&game.server_options).rating_max,
        result: game.result.clone(),
        created_at: game.created_at,
        updated_at: game.updated_at,
    }
}

/// What `my_seat` (or a spectator) sees of a game whose row is `game` and
/// whose engine state (once started) is `state`.
///
/// # Errors
/// `internal` if the ruleset's own values fail to serialize.
pub fn project<R: Ruleset>(
    game: &GameRow,
    seats: &[SeatRow],
    state: Option<&R::State>,
    my_seat: Option<u8>,
) -> Result<Game, Failure> {
    let viewer = viewer_for(my_seat);
    let (view, to_act, legal_commands, result) = match state {
        None => (raw_json(&Value::Null)?, Vec::new(), Vec::new(), None),
        Some(state) => {
            let to_act: Vec<u8> = if game.status == "active" {
                R::to_act(state).into_iter().map(|s| s.0).collect()
            } else {
                Vec::new()
            };
            let legal = match my_seat {
                Some(mine) if game.status == "active" && to_act.contains(&mine) => {
                    R::legal_commands(state, seat(usize::from(mine)))
                        .iter()
                        .map(to_json)
                        .collect::<Result<Vec<_>, _>>()?
                }
                _ => Vec::new(),
            };
            let result = match &game.result {
                Some(stored) => Some(stored.clone()),
                None => R::result(state).map(|r| to_json(&r)).transpose()?,
            };
            (raw_json(&R::view(state, viewer))?, to_act, legal, result)
        }
    };
    let counters = crate::games::narration::counters(&game.ruleset, view.get(), None);
    Ok(Game {
        id: game.id,
        ruleset: game.ruleset.clone(),
        rules: game.rules(),
        status: game.status.clone(),
        version: game.version,
        counters,
        players: u8::try_from(game.players).unwrap_or(0),
        options: shown_options(game),
        seats: seat_infos(seats),
        to_act,
        my_seat,
        view,
        legal_commands,
        result,
        seed_commitment: game.seed_commitment.clone(),
        salted: super::salts::takes_salts(game)?,
        deadline: game
            .deadline
            .filter(|_| !crate::record::pause::TablePause::of(game.pause.as_ref()).is_paused()),
        private: game.private,
        clocks: clock_views(game, seats),
        pause: super::pause_view::view(game, seats),
        rated: rated(game, seats),
        invite_code: my_seat.and(game.invite_code.clone()),
        created_at: game.created_at,
        updated_at: game.updated_at,
        rematch_of: None,
        rematch: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn explicit_deals_are_hidden_and_only_public_seeds_shown() {
        let options = json!({"deals": [{"hands": [["H5"]]}], "first_seat": 1});
        assert_eq!(
            public_options(&options, None),
            json!({"explicit_deals": 1, "first_seat": 1})
        );
        assert_eq!(
            public_options(&json!({"deals": null}), Some("s")),
            json!({"seed": "s"})
        );
    }
}
