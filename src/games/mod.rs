//! The application layer: each public function is one use case (create,
//! join, command, read, events, audit). Handlers parse and call exactly one
//! of them; they load from PostgreSQL, run the pure engine, and store events.

pub mod archive;
pub mod audit;
pub mod cancel;
pub mod clock;
pub mod command;
pub mod create;
pub mod events;
pub mod export;
pub mod invite;
pub mod join;
pub mod leave;
pub mod projection;
pub mod read;
pub mod rulesets;
pub mod snapshot;
pub mod step;
pub mod vacation;

use hatstand_engine::GameKind;

use crate::db::games::GameRow;
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
