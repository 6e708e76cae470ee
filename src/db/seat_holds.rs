//! The seats a user holds in games open or in play, counted under a lock on
//! the user's row (the cap on games at once, docs/seats.md).

use diesel::OptionalExtension;
use diesel::sql_types::{BigInt, Bool, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

/// What [`lock_and_count`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Holds {
    /// Whether the user is a bot account (built in or a player's).
    pub bot: bool,
    /// Their seats in games open or active that they have not left.
    pub seats: i64,
}

/// Locks user `user`'s row (`FOR NO KEY UPDATE`: it does not stop the
/// foreign keys' checks of other writers, only another taker of this
/// lock) until the caller's transaction ends, then counts the seats they
/// hold in games open or active and have not left (resigned, forfeited).
/// Two transactions seating one user queue here, so the second counts the
/// first's seat: a cap checked on this count cannot be slipped under by
/// taking two seats at once. `None` for an unknown user.
///
/// # Errors
/// Database errors.
pub async fn lock_and_count(
    conn: &mut AsyncPgConnection,
    user: Uuid,
) -> diesel::QueryResult<Option<Holds>> {
    // Two statements: under READ COMMITTED each statement sees what was
    // committed when it began, so the count must begin after the lock is
    // held (a count in the locking statement would not see the seat of the
    // transaction it waited for).
    #[derive(diesel::QueryableByName)]
    struct Kind {
        #[diesel(sql_type = Bool)]
        bot: bool,
    }
    let kind: Option<Kind> = crate::db::prepared::Prepared(
        diesel::sql_query("SELECT kind = 'bot' AS bot FROM users WHERE id = $1 FOR NO KEY UPDATE")
            .bind::<SqlUuid, _>(user),
    )
    .get_result(conn)
    .await
    .optional()?;
    let Some(Kind { bot }) = kind else {
        return Ok(None);
    };
    #[derive(diesel::QueryableByName)]
    struct Count {
        #[diesel(sql_type = BigInt)]
        seats: i64,
    }
    let Count { seats } = crate::db::prepared::Prepared(
        diesel::sql_query(
            "SELECT count(*) AS seats FROM seats
          WHERE user_id = $1 AND game_status IN ('open', 'active') AND resigned_at IS NULL",
        )
        .bind::<SqlUuid, _>(user),
    )
    .get_result(conn)
    .await?;
    Ok(Some(Holds { bot, seats }))
}
