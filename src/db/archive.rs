//! The archive table: one compressed audit document a game.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use super::schema::{archived_games, events, games};

/// Games over and not archived: the partial index `games_to_archive`.
pub(crate) const DUE: &str = "SELECT id FROM games
  WHERE finished_at IS NOT NULL AND archived_at IS NULL AND finished_at < $1
  ORDER BY finished_at
  LIMIT $2
    FOR UPDATE SKIP LOCKED";

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
    #[derive(QueryableByName)]
    struct Due {
        #[diesel(sql_type = diesel::sql_types::Uuid)]
        id: Uuid,
    }
    let due: Vec<Due> = diesel::sql_query(DUE)
        .bind::<diesel::sql_types::Timestamptz, _>(before)
        .bind::<diesel::sql_types::BigInt, _>(limit)
        .load(conn)
        .await?;
    Ok(due.into_iter().map(|d| d.id).collect())
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
