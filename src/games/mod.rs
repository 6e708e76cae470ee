//! The application layer: each public function is one use case (create,
//! join, command, read, events, audit, resign, vacation, cancel, decline,
//! export). Handlers parse and call exactly one of them. A use case takes a
//! `Context`, loads from PostgreSQL (through `db`), runs the pure engine,
//! stores events, and answers a value or a `Failure`; it knows nothing of
//! HTTP.

pub mod advance;
pub mod archive_old;
pub mod audit;
pub mod audit_talk;
pub mod blocked;
pub mod bot_seats;
pub mod cancel;
pub mod clock;
pub mod clocks;
pub mod command;
pub mod command_wire;
pub mod conditional;
pub mod conditions;
pub mod create;
pub mod events;
pub mod export;
pub mod invite;
pub mod join;
pub mod leave;
pub mod lines;
pub mod log;
pub mod narration;
pub mod open_game;
pub mod pause;
pub mod pause_view;
pub mod projection;
pub mod public;
pub mod read;
pub mod read_archived;
pub mod rematch;
pub mod rematch_offer;
pub mod rulesets;
pub mod salts;
pub mod seat_cap;
pub mod seat_offer;
pub mod seated;
pub mod snapshot;
pub mod step;
pub mod substitute;
pub mod takeback;
pub mod vacation;
pub mod watchers;
pub mod wire_examples;
pub mod wire_types;

use hatstand_engine::GameKind;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::context::Context;
use crate::db::Conn;
use crate::db::games::{self, GameRow, LoadedGame};
use crate::db::notifications::Noted;
use crate::error::Failure;

/// The ruleset of a stored game.
///
/// # Errors
/// `internal` for a ruleset this server does not know (a database from a newer server).
pub fn kind_of(game: &GameRow) -> Result<GameKind, Failure> {
    GameKind::from_id(&game.ruleset).ok_or_else(|| {
        Failure::internal(format!("stored game has unknown ruleset {}", game.ruleset))
    })
}

/// Notes on the current span the version a use case left its game at
/// (the span's `version` field).
pub fn record_version(version: i64) {
    tracing::Span::current().record("version", version);
}

/// After a commit moved game `id` (`loaded` before it) to `version` and
/// wrote `told`: records the version on the span, wakes this process's
/// waiters and tells the other processes (their bot workers only when a bot
/// sits at the game).
pub fn committed(ctx: &Context, loaded: &LoadedGame, version: i64, told: &[Noted]) {
    record_version(version);
    ctx.announcer
        .announce(loaded.game.id, version, loaded.has_bots());
    ctx.announcer.tell(told);
}

/// Game `id` as stored (its row, seats; no idempotent answer).
///
/// # Errors
/// `not_found`.
pub async fn stored(conn: &mut Conn, id: Uuid) -> Result<LoadedGame, Failure> {
    games::load(conn, id, None, None)
        .await?
        .ok_or_else(no_such_game)
}

/// Game `id`, locked for update by this transaction.
///
/// # Errors
/// `not_found`.
pub async fn locked(conn: &mut Conn, id: Uuid) -> Result<LoadedGame, Failure> {
    games::load_for_update(conn, id)
        .await?
        .ok_or_else(no_such_game)
}

/// The answer for a game id nobody knows.
#[must_use]
pub fn no_such_game() -> Failure {
    Failure::not_found("there is no such game")
}

pub use crate::record::names::{GameStatus, RulesetId};

/// The `turn` filter of a player's games: `mine`, the games waiting for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Turn {
    Mine,
}

/// Game statuses.
pub mod status {
    /// Waiting for players.
    pub const OPEN: &str = "open";
    /// Being played.
    pub const ACTIVE: &str = "active";
    /// Over, with a result.
    pub const FINISHED: &str = "finished";
    /// Ended without a result.
    pub const ABANDONED: &str = "abandoned";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_ruleset_ids_are_the_engines() {
        let documented: Vec<String> = [
            RulesetId::Hats,
            RulesetId::Goathead,
            RulesetId::TopHats,
            RulesetId::HatTrick,
        ]
        .iter()
        .map(|id| {
            serde_json::to_value(id)
                .unwrap()
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
        let engines: Vec<String> = GameKind::ALL.iter().map(|k| k.id().to_owned()).collect();
        assert_eq!(documented, engines);
    }

    #[test]
    fn the_documented_statuses_are_the_stored_ones() {
        let documented: Vec<String> = [
            GameStatus::Open,
            GameStatus::Active,
            GameStatus::Finished,
            GameStatus::Abandoned,
        ]
        .iter()
        .map(|s| {
            serde_json::to_value(s)
                .unwrap()
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
        assert_eq!(
            documented,
            [
                status::OPEN,
                status::ACTIVE,
                status::FINISHED,
                status::ABANDONED
            ]
        );
    }
}
