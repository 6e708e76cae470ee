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

/// Invites `user` to `game` (a vacant seat offered, docs/seats.md): a new
/// invitation, or one declined made pending again.
///
/// # Errors
/// Database errors.
pub async fn offer(
    conn: &mut AsyncPgConnection,
    game: Uuid,
    user: Uuid,
    at: DateTime<Utc>,
) -> QueryResult<()> {
    diesel::insert_into(invitations::table)
        .values((
            invitations::game_id.eq(game),
            invitations::user_id.eq(user),
            invitations::invited_at.eq(at),
        ))
        .on_conflict((invitations::game_id, invitations::user_id))
        .do_update()
        .set((
            invitations::invited_at.eq(at),
            invitations::declined_at.eq(None::<DateTime<Utc>>),
        ))
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
