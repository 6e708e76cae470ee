//! The archive table: one compressed audit document a game.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use super::schema::{archived_games, events, games};

/// Up to `limit` games over (finished or abandoned) since before `before`
/// and not archived yet, locked (skipping games another process holds).
///
/// # Errors
/// Database errors.
pub async fn due(
    conn: &mut AsyncPgConnection,
    before: DateTime<Utc>,
    limit: i64,
) -> QueryResult<Vec<Uuid>> {
    games::table
        .filter(games::finished_at.is_not_null())
        .filter(games::archived_at.is_null())
        .filter(games::finished_at.lt(before))
        .order(games::finished_at)
        .limit(limit)
        .select(games::id)
        .for_update()
        .skip_locked()
        .load(conn)
        .await
}

/// Stores game `id`'s compressed audit and drops its events and snapshot
/// (inside the caller's transaction).
///
/// # Errors
/// Database errors.
pub async fn store(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    compressed: &[u8],
    json_bytes: usize,
    now: DateTime<Utc>,
) -> QueryResult<()> {
    diesel::insert_into(archived_games::table)
        .values((
            archived_games::game_id.eq(id),
            archived_games::audit.eq(compressed),
            archived_games::json_bytes.eq(i32::try_from(json_bytes).unwrap_or(i32::MAX)),
            archived_games::archived_at.eq(now),
        ))
        .execute(conn)
        .await?;
    diesel::delete(events::table.filter(events::game_id.eq(id)))
        .execute(conn)
        .await?;
    diesel::update(games::table.find(id))
        .set((
            games::archived_at.eq(Some(now)),
            games::state.eq(None::<String>),
        ))
        .execute(conn)
        .await?;
    Ok(())
}

/// The compressed audit of archived game `id`.
///
/// # Errors
/// Database errors.
pub async fn audit(conn: &mut AsyncPgConnection, id: Uuid) -> QueryResult<Option<Vec<u8>>> {
    archived_games::table
        .find(id)
        .select(archived_games::audit)
        .first(conn)
        .await
        .optional()
}
