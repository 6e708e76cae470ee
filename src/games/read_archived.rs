//! Archived games: a game over for longer than `--archive-after-days` (30)
//! moves its record into one row of `archived_games`, the audit document
//! exactly as it was served, zstd-compressed; its events and snapshot leave
//! the hot tables. Everything that reads a record (`/audit`, `/events`,
//! `state?at=N`, the game read, export, and so `verify`) reads archived
//! games from there and answers as before, byte for byte.

use uuid::Uuid;

use crate::db;
use crate::db::Conn;
use crate::db::event_store;
use crate::db::games::GameRow;
use crate::db::json_text::JsonText;
use crate::error::Failure;
use crate::record::chain::LoggedEvent;
use crate::record::verify::AuditDocument;

/// The audit document of archived game `id`, as it was served before.
///
/// # Errors
/// `internal` when the archive row is missing or does not decode.
pub async fn document(conn: &mut Conn, id: Uuid) -> Result<AuditDocument, Failure> {
    let compressed = db::archive::audit(conn, id)
        .await?
        .ok_or_else(|| Failure::internal(format!("archived game {id} has no archive row")))?;
    AuditDocument::from_archive(&compressed)
}

/// The events of `game` with `after < seq <= up_to`, at most `limit`, from
/// its log or, once archived, from its archive.
///
/// # Errors
/// Database errors; `internal` for an archive that does not decode.
pub async fn events(
    conn: &mut Conn,
    game: &GameRow,
    after: i64,
    up_to: i64,
    limit: i64,
) -> Result<Vec<LoggedEvent>, Failure> {
    if game.archived_at.is_none() {
        return Ok(event_store::load(conn, game.id, after, up_to, limit).await?);
    }
    let audit = document(conn, game.id).await?;
    Ok(audit
        .events
        .iter()
        .filter(|e| e.seq > after && e.seq <= up_to)
        .take(usize::try_from(limit).unwrap_or(0))
        .map(LoggedEvent::from)
        .collect())
}

/// The snapshot of an archived game (its audit's final state), for reads.
///
/// # Errors
/// As [`document`].
pub async fn snapshot(conn: &mut Conn, id: Uuid) -> Result<Option<JsonText>, Failure> {
    let audit = document(conn, id).await?;
    if audit.final_state.is_null() {
        return Ok(None);
    }
    Ok(Some(
        JsonText::of(&audit.final_state).map_err(Failure::internal)?,
    ))
}
