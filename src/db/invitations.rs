//! Invitations to private games.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use super::schema::invitations;

/// Writes the invitations of `users` to `game`.
///
/// # Errors
/// Database errors.
pub async fn insert(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    users: &[Uuid],
    at: DateTime<Utc>,
) -> QueryResult<()> {
    if users.is_empty() {
        return Ok(());
    }
    let rows: Vec<_> = users
        .iter()
        .map(|user| {
            (
                invitations::game_id.eq(game),
                invitations::user_id.eq(*user),
                invitations::invited_at.eq(at),
            )
        })
        .collect();
    diesel::insert_into(invitations::table)
        .values(rows)
        .execute(conn)
        .await?;
    Ok(())
}

/// The invitation of `user` to `game`: `Some(declined)` when invited.
///
/// # Errors
/// Database errors.
pub async fn find(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    user: Uuid,
) -> QueryResult<Option<bool>> {
    let declined: Option<Option<DateTime<Utc>>> = invitations::table
        .find((game, user))
        .select(invitations::declined_at)
        .first(conn)
        .await
        .optional()?;
    Ok(declined.map(|d| d.is_some()))
}

/// Marks the invitation of `user` to `game` declined.
///
/// # Errors
/// Database errors.
pub async fn decline(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    user: Uuid,
    at: DateTime<Utc>,
) -> QueryResult<()> {
    diesel::update(invitations::table.find((game, user)))
        .set(invitations::declined_at.eq(at))
        .execute(conn)
        .await?;
    Ok(())
}
