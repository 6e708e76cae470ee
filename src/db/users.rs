//! Accounts: usernames are unique without regard to case.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use super::errors::is_unique_violation;
use super::schema::users;

/// A user found by name: id, username as registered, password hash.
pub type Found = (Uuid, String, String);

/// Inserts an account; `false` when the username is taken.
///
/// # Errors
/// Database errors.
pub async fn insert(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    username: &str,
    password_hash: &str,
) -> QueryResult<bool> {
    let inserted = diesel::insert_into(users::table)
        .values((
            users::id.eq(id),
            users::username.eq(username),
            users::password_hash.eq(password_hash),
        ))
        .execute(conn)
        .await;
    match inserted {
        Ok(_) => Ok(true),
        Err(e) if is_unique_violation(&e) => Ok(false),
        Err(e) => Err(e),
    }
}

/// The user named `name`, compared case-insensitively.
///
/// # Errors
/// Database errors.
pub async fn find_by_name(conn: &mut AsyncPgConnection, name: &str) -> QueryResult<Option<Found>> {
    users::table
        .filter(
            diesel::dsl::sql::<diesel::sql_types::Bool>("lower(username) = lower(")
                .bind::<diesel::sql_types::Text, _>(name)
                .sql(")"),
        )
        .select((users::id, users::username, users::password_hash))
        .first(conn)
        .await
        .optional()
}

/// The password hash of user `id`.
///
/// # Errors
/// Database errors (`NotFound` for an unknown user).
pub async fn password_hash(conn: &mut AsyncPgConnection, id: Uuid) -> QueryResult<String> {
    users::table
        .find(id)
        .select(users::password_hash)
        .first(conn)
        .await
}

/// Stores a new password hash for user `id`.
///
/// # Errors
/// Database errors.
pub async fn set_password_hash(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    hash: &str,
) -> QueryResult<()> {
    diesel::update(users::table.find(id))
        .set(users::password_hash.eq(hash))
        .execute(conn)
        .await?;
    Ok(())
}

/// An account as everyone may see it.
#[derive(Debug, Clone, Queryable)]
pub struct Profile {
    pub id: Uuid,
    pub username: String,
    /// `human` or `bot`.
    pub kind: String,
    /// The level of a built-in bot.
    pub bot_level: Option<String>,
    pub created_at: chrono::DateTime<chrono::Utc>,
}

/// The profile of the user named `name` (case-insensitively).
///
/// # Errors
/// Database errors.
pub async fn profile(conn: &mut AsyncPgConnection, name: &str) -> QueryResult<Option<Profile>> {
    users::table
        .filter(
            diesel::dsl::sql::<diesel::sql_types::Bool>("lower(username) = lower(")
                .bind::<diesel::sql_types::Text, _>(name)
                .sql(")"),
        )
        .select((
            users::id,
            users::username,
            users::kind,
            users::bot_level,
            users::created_at,
        ))
        .first(conn)
        .await
        .optional()
}

/// Whether user `id` is a bot (built in, or an account turned into one);
/// `false` for an unknown user.
///
/// # Errors
/// Database errors.
pub async fn is_bot(conn: &mut AsyncPgConnection, id: Uuid) -> QueryResult<bool> {
    let kind: Option<String> = users::table
        .find(id)
        .select(users::kind)
        .first(conn)
        .await
        .optional()?;
    Ok(kind.as_deref() == Some("bot"))
}

/// Turns account `id` into a bot account, for good, unless it has ever
/// taken a seat or is a bot already: `false` then (and nothing changes).
///
/// # Errors
/// Database errors.
pub async fn become_bot(conn: &mut AsyncPgConnection, id: Uuid) -> QueryResult<bool> {
    let changed = diesel::update(users::table.find(id))
        .filter(users::kind.eq("human"))
        .filter(diesel::dsl::not(diesel::dsl::exists(
            super::schema::seats::table.filter(super::schema::seats::user_id.eq(id)),
        )))
        .set(users::kind.eq("bot"))
        .execute(conn)
        .await?;
    Ok(changed == 1)
}
