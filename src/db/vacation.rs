//! A player's vacation over a rolling year (docs/clocks.md): the sum of
//! the `seat_vacation` events they wrote since a given instant, read only
//! in the games where one of their seats took vacation (each a primary-key
//! range of `events`).

use chrono::{DateTime, Utc};
use diesel::sql_types::{BigInt, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

#[derive(diesel::QueryableByName)]
struct Used {
    #[diesel(sql_type = BigInt)]
    secs: i64,
}

/// The seconds of vacation `user` took since `since`, all games together.
///
/// # Errors
/// Database errors.
pub async fn taken_since(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    since: DateTime<Utc>,
) -> diesel::QueryResult<i64> {
    let used: Used = diesel::sql_query(
        "SELECT COALESCE(sum((e.data->>'duration_secs')::bigint), 0)::bigint AS secs
           FROM seats s
           JOIN events e ON e.game_id = s.game_id
          WHERE s.user_id = $1 AND s.vacation_used_secs > 0
            AND e.type = 'seat_vacation' AND e.actor_user = $1 AND e.created_at > $2",
    )
    .bind::<SqlUuid, _>(user)
    .bind::<Timestamptz, _>(since)
    .get_result(conn)
    .await?;
    Ok(used.secs)
}
