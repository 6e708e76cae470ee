//! A seat's stored conditional lines (docs/turn-conveniences.md): stored,
//! read and removed by their owner only. The step that moves the game
//! brings them along in its own append (`games::append`).

use chrono::{DateTime, Utc};
use diesel::OptionalExtension;
use diesel::sql_types::{BigInt, Int2, Jsonb, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use uuid::Uuid;

#[derive(diesel::QueryableByName)]
struct Lines {
    #[diesel(sql_type = Jsonb)]
    lines: Value,
}

/// Stores `lines` for `seat` of `game` (held by `user`), replacing any, at
/// `version`: only while the game is active at that version (one
/// statement). Returns whether it was stored.
///
/// # Errors
/// Database errors.
pub async fn put(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    seat: i16,
    user: Uuid,
    lines: &Value,
    version: i64,
    now: DateTime<Utc>,
) -> diesel::QueryResult<bool> {
    let stored = diesel::sql_query(
        "INSERT INTO conditional_lines (game_id, seat, user_id, lines, at_version, updated_at)
         SELECT g.id, $2, $3, $4, g.version, $6
           FROM games g
          WHERE g.id = $1 AND g.version = $5 AND g.status = 'active'
         ON CONFLICT (game_id, seat) DO UPDATE
            SET user_id = EXCLUDED.user_id, lines = EXCLUDED.lines,
                at_version = EXCLUDED.at_version, updated_at = EXCLUDED.updated_at",
    )
    .bind::<SqlUuid, _>(game)
    .bind::<Int2, _>(seat)
    .bind::<SqlUuid, _>(user)
    .bind::<Jsonb, _>(lines)
    .bind::<BigInt, _>(version)
    .bind::<Timestamptz, _>(now)
    .execute(conn)
    .await?;
    Ok(stored == 1)
}

/// The lines stored for `seat` of `game` that are up to the game's version
/// (a stale row reads as none).
///
/// # Errors
/// Database errors.
pub async fn get(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    seat: i16,
) -> diesel::QueryResult<Option<Value>> {
    let row: Option<Lines> = diesel::sql_query(
        "SELECT c.lines
           FROM conditional_lines c JOIN games g ON g.id = c.game_id
          WHERE c.game_id = $1 AND c.seat = $2 AND c.at_version = g.version",
    )
    .bind::<SqlUuid, _>(game)
    .bind::<Int2, _>(seat)
    .get_result(conn)
    .await
    .optional()?;
    Ok(row.map(|r| r.lines))
}

/// Removes the lines of `seat` of `game`; whether there were any.
///
/// # Errors
/// Database errors.
pub async fn delete(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    seat: i16,
) -> diesel::QueryResult<bool> {
    let removed =
        diesel::sql_query("DELETE FROM conditional_lines WHERE game_id = $1 AND seat = $2")
            .bind::<SqlUuid, _>(game)
            .bind::<Int2, _>(seat)
            .execute(conn)
            .await?;
    Ok(removed > 0)
}
