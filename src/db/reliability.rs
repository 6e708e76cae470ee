//! Reliability's counters (`user_records`: `played`, `left_seats`,
//! `timeouts`, `vacation_secs`), kept by the database as games end, and
//! their recount from the seats (migration 2026-12-09-000301).

use diesel::OptionalExtension;
use diesel::sql_types::{BigInt, Nullable, Uuid as SqlUuid};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

/// A player's seats in games over, as reliability counts them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, diesel::QueryableByName)]
pub struct Counters {
    #[diesel(sql_type = BigInt)]
    pub played: i64,
    #[diesel(sql_type = BigInt)]
    pub left_seats: i64,
    #[diesel(sql_type = BigInt)]
    pub timeouts: i64,
    #[diesel(sql_type = BigInt)]
    pub vacation_secs: i64,
}

/// The counters of `user` (zero when they have no game over).
///
/// # Errors
/// Database errors.
pub async fn counters(conn: &mut AsyncPgConnection, user: Uuid) -> diesel::QueryResult<Counters> {
    let found: Option<Counters> = diesel::sql_query(
        "SELECT played, left_seats, timeouts, vacation_secs FROM user_records WHERE user_id = $1",
    )
    .bind::<SqlUuid, _>(user)
    .get_result(conn)
    .await
    .optional()?;
    Ok(found.unwrap_or_default())
}

/// Counts again, from their seats, the counters of the next `batch`
/// players after `after` (in id order), in a transaction of its own; the
/// last id counted, or `None` when there were none left.
///
/// # Errors
/// Database errors.
pub async fn recount_batch(
    conn: &mut AsyncPgConnection,
    after: Uuid,
    batch: i64,
) -> diesel::QueryResult<Option<Uuid>> {
    #[derive(diesel::QueryableByName)]
    struct Upto {
        #[diesel(sql_type = Nullable<SqlUuid>)]
        upto: Option<Uuid>,
    }
    conn.transaction::<_, diesel::result::Error, _>(async |conn| {
        let Upto { upto } = diesel::sql_query(
            "SELECT (SELECT user_id FROM (SELECT user_id FROM user_records
                                            WHERE user_id > $1
                                            ORDER BY user_id LIMIT $2) batch
                      ORDER BY user_id DESC LIMIT 1) AS upto",
        )
        .bind::<SqlUuid, _>(after)
        .bind::<BigInt, _>(batch)
        .get_result(conn)
        .await?;
        if let Some(upto) = upto {
            diesel::sql_query("SELECT user_records_recount($1, $2)")
                .bind::<SqlUuid, _>(after)
                .bind::<SqlUuid, _>(upto)
                .execute(conn)
                .await?;
        }
        Ok(upto)
    })
    .await
}

/// How many players have counters.
///
/// # Errors
/// Database errors.
pub async fn counted(conn: &mut AsyncPgConnection) -> diesel::QueryResult<u64> {
    #[derive(diesel::QueryableByName)]
    struct N {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }
    let N { n } = diesel::sql_query("SELECT count(*) AS n FROM user_records")
        .get_result(conn)
        .await?;
    Ok(u64::try_from(n).unwrap_or(0))
}
