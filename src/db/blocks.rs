//! Blocks' rows (`user_blocks`, docs/seats.md).

use chrono::{DateTime, Utc};
use diesel::sql_types::{Array, Bool, Int8, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

/// `user` blocks `blocked` (again: nothing changes).
///
/// # Errors
/// Database errors.
pub async fn block(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    blocked: Uuid,
    at: DateTime<Utc>,
) -> diesel::QueryResult<()> {
    diesel::sql_query(
        "INSERT INTO user_blocks (user_id, blocked, created_at) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING",
    )
    .bind::<SqlUuid, _>(user)
    .bind::<SqlUuid, _>(blocked)
    .bind::<Timestamptz, _>(at)
    .execute(conn)
    .await?;
    Ok(())
}

/// `user` no longer blocks `blocked`.
///
/// # Errors
/// Database errors.
pub async fn unblock(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    blocked: Uuid,
) -> diesel::QueryResult<()> {
    diesel::sql_query("DELETE FROM user_blocks WHERE user_id = $1 AND blocked = $2")
        .bind::<SqlUuid, _>(user)
        .bind::<SqlUuid, _>(blocked)
        .execute(conn)
        .await?;
    Ok(())
}

/// How many users `user` blocks.
///
/// # Errors
/// Database errors.
pub async fn count(conn: &mut AsyncPgConnection, user: Uuid) -> diesel::QueryResult<i64> {
    #[derive(diesel::QueryableByName)]
    struct N {
        #[diesel(sql_type = Int8)]
        n: i64,
    }
    let n: N = diesel::sql_query("SELECT count(*) AS n FROM user_blocks WHERE user_id = $1")
        .bind::<SqlUuid, _>(user)
        .get_result(conn)
        .await?;
    Ok(n.n)
}

/// The usernames `user` blocks, in name order (at most `limit`).
///
/// # Errors
/// Database errors.
pub async fn blocked_names(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    limit: i64,
) -> diesel::QueryResult<Vec<String>> {
    #[derive(diesel::QueryableByName)]
    struct Name {
        #[diesel(sql_type = Text)]
        username: String,
    }
    let rows: Vec<Name> = diesel::sql_query(
        "SELECT u.username FROM user_blocks b JOIN users u ON u.id = b.blocked
          WHERE b.user_id = $1 ORDER BY u.username LIMIT $2",
    )
    .bind::<SqlUuid, _>(user)
    .bind::<Int8, _>(limit)
    .load(conn)
    .await?;
    Ok(rows.into_iter().map(|r| r.username).collect())
}

/// Between `user` and `others`: whether `user` blocks one of them, and
/// whether one of them blocks `user`.
///
/// # Errors
/// Database errors.
pub async fn between(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    others: &[Uuid],
) -> diesel::QueryResult<(bool, bool)> {
    #[derive(diesel::QueryableByName)]
    struct Both {
        #[diesel(sql_type = Bool)]
        blocks: bool,
        #[diesel(sql_type = Bool)]
        blocked: bool,
    }
    if others.is_empty() {
        return Ok((false, false));
    }
    let both: Both = crate::db::prepared::Prepared(diesel::sql_query(
        "SELECT EXISTS (SELECT 1 FROM user_blocks WHERE user_id = $1 AND blocked = ANY ($2)) AS blocks,
                EXISTS (SELECT 1 FROM user_blocks WHERE blocked = $1 AND user_id = ANY ($2)) AS blocked",
    )
    .bind::<SqlUuid, _>(user)
    .bind::<Array<SqlUuid>, _>(others))
    .get_result(conn)
    .await?;
    Ok((both.blocks, both.blocked))
}
