//! A game's clocks in play (docs/clocks.md): started with the game, then
//! moved by every step (`games::step`) through the pure rules of
//! `record::clock`, which `verify` replays from the record.
//!
//! - The clocks start in the change that starts the game, right after the
//!   opening events: `game_clock_started` records each seat's time zone,
//!   read from its player's settings then (UTC when none is set, and for
//!   bots); a later change of the setting does not touch a running game.
//! - Only games with a `clock` option or a weekend pause have them; a game
//!   on the fixed per-turn clock (`turn_timeout` alone, and every game
//!   created before clocks) keeps its deadline of the last step's time plus
//!   `turn_timeout`.

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use super::clock::ServerOptions;
use super::status;
use crate::db::Conn;
use crate::db::games::{LoadedGame, SeatRow};
use crate::db::user_settings;
use crate::error::Failure;
use crate::record::chain::{Actor, Chain};
use crate::record::clock::{Clocks, Kind, Rules, SeatClock};
use crate::record::server_event::{ClockStarted, ServerEvent};

/// Starts the clocks of a game that has just started (in `loaded`, its
/// events going onto `chain` at `now`): `game_clock_started`, each seat's
/// clock and the game's first deadline. Returns the seats' clocks to
/// store once the seats are written (`[{seat, clock}]`), or `None` for a
/// game without clocks (or not started).
///
/// # Errors
/// Database errors; `internal`.
pub async fn start(
    conn: &mut Conn,
    loaded: &mut LoadedGame,
    chain: &mut Chain,
    now: DateTime<Utc>,
) -> Result<Option<Value>, Failure> {
    let game = &loaded.game;
    if game.status != status::ACTIVE {
        return Ok(None);
    }
    let Some(rules) = ServerOptions::of(&game.server_options).clock_rules() else {
        return Ok(None);
    };
    let users: Vec<_> = loaded.seats.iter().map(|s| s.user_id).collect();
    let set = user_settings::time_zones(conn, &users).await?;
    let zones: Vec<String> = loaded
        .seats
        .iter()
        .map(|s| {
            set.iter()
                .find(|(user, zone)| {
                    *user == s.user_id && !s.bot && crate::record::clock::zone(zone).is_ok()
                })
                .map_or_else(|| "UTC".to_owned(), |(_, zone)| zone.clone())
        })
        .collect();
    chain
        .push_server(
            &ServerEvent::GameClockStarted(ClockStarted {
                zones: zones.clone(),
            }),
            Actor::SYSTEM,
        )
        .map_err(Failure::internal)?;
    let to_act: Vec<u8> = game
        .to_act
        .iter()
        .filter_map(|&s| u8::try_from(s).ok())
        .collect();
    let clocks = Clocks::start(&rules, &zones, &to_act, now);
    let deadline = clocks.next_deadline(&rules);
    let mut stored = Vec::new();
    for (row, clock) in loaded.seats.iter_mut().zip(clocks.seats) {
        stored.push(json!({"seat": row.seat, "clock": clock}));
        row.clock = Some(clock);
    }
    loaded.game.deadline = deadline;
    Ok(Some(Value::Array(stored)))
}

/// The clocks of a game's seats as stored, under `rules` (a seat without a
/// stored clock has a fresh one, not running, in UTC).
#[must_use]
pub fn of(rules: &Rules, seats: &[SeatRow]) -> Clocks {
    let bank_ms = match rules.kind {
        Kind::Bank { initial, .. } => Some(initial.num_milliseconds()),
        _ => None,
    };
    Clocks {
        seats: seats
            .iter()
            .map(|s| {
                s.clock.clone().unwrap_or_else(|| SeatClock {
                    zone: "UTC".to_owned(),
                    bank_ms,
                    since: None,
                    extra_ms: 0,
                })
            })
            .collect(),
        paused: None,
    }
}
