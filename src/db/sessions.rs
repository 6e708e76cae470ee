//! Sign-in sessions in PostgreSQL: one row a device login, so that every
//! server process honours the same logouts.
//!
//! A session keeps the SHA-256 of its current refresh secret (never the
//! secret) and of the one before it. Rotating checks and replaces it under
//! the row's lock, so two processes cannot both accept one refresh token.

use chrono::{DateTime, TimeDelta, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use super::schema::{sessions, users};

/// Why a session ended (stored in `revoked_why`; `evicted` is written by
/// [`start`] for sessions beyond [`MAX_LIVE`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Revoked {
    /// `POST /v1/auth/logout` from this device.
    Logout,
    /// `POST /v1/auth/logout-all`.
    LogoutAll,
    /// The password was changed from another session.
    PasswordChanged,
    /// A refresh token was presented after it had been rotated.
    RefreshReused,
}

/// The most live sessions a user has: signing in once more signs out the
/// oldest, so a script that signs in in a loop cannot grow the table.
pub const MAX_LIVE: i64 = 100;

impl Revoked {
    fn as_str(self) -> &'static str {
        match self {
            Revoked::Logout => "logout",
            Revoked::LogoutAll => "logout_all",
            Revoked::PasswordChanged => "password_changed",
            Revoked::RefreshReused => "refresh_reused",
        }
    }
}

/// Starts a session for `user` whose refresh secret hashes to `hash`, and
/// signs out the user's oldest sessions beyond [`MAX_LIVE`].
///
/// # Errors
/// Database errors.
pub async fn start(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    user: Uuid,
    hash: &[u8],
    now: DateTime<Utc>,
    expires_at: DateTime<Utc>,
) -> QueryResult<()> {
    diesel::insert_into(sessions::table)
        .values((
            sessions::id.eq(id),
            sessions::user_id.eq(user),
            sessions::refresh_hash.eq(hash),
            sessions::rotated_at.eq(now),
            sessions::created_at.eq(now),
            sessions::expires_at.eq(expires_at),
        ))
        .execute(conn)
        .await?;
    diesel::sql_query(
        "UPDATE sessions SET revoked_at = $2, revoked_why = 'evicted'
          WHERE id IN (SELECT id FROM sessions
                        WHERE user_id = $1 AND revoked_at IS NULL
                        ORDER BY created_at DESC, id OFFSET $3)",
    )
    .bind::<diesel::sql_types::Uuid, _>(user)
    .bind::<diesel::sql_types::Timestamptz, _>(now)
    .bind::<diesel::sql_types::BigInt, _>(MAX_LIVE)
    .execute(conn)
    .await
    .map(|_| ())
}

/// Whether session `id` belongs to `user` and is not revoked (a deleted
/// user's sessions are gone with it).
///
/// # Errors
/// Database errors.
pub async fn is_live(conn: &mut AsyncPgConnection, id: Uuid, user: Uuid) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        sessions::table
            .filter(sessions::id.eq(id))
            .filter(sessions::user_id.eq(user))
            .filter(sessions::revoked_at.is_null()),
    ))
    .get_result(conn)
    .await
}

/// A live session's owner, current and previous secret hashes, and last rotation.
type Refreshable = (Uuid, Vec<u8>, Option<Vec<u8>>, DateTime<Utc>);

/// What presenting a refresh secret did.
#[derive(Debug, PartialEq, Eq)]
pub enum Rotation {
    /// The secret was current (or the one just replaced, within the grace
    /// period): it now hashes to the new one.
    Rotated { user: Uuid, username: String },
    /// The secret had been rotated away: the session is now revoked.
    Reused,
    /// No such session, or revoked, or expired: nothing changed.
    Refused,
}

/// Replaces the refresh secret of session `id` when `presented` hashes to
/// its current secret, or to the previous one rotated less than `grace` ago
/// (a client that lost the answer to its refresh and sends it again). Any
/// other secret for a live session revokes it: someone holds a token that
/// was already used.
///
/// # Errors
/// Database errors.
pub async fn rotate(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    presented: &[u8],
    next: &[u8],
    now: DateTime<Utc>,
    expires_at: DateTime<Utc>,
    grace: TimeDelta,
) -> QueryResult<Rotation> {
    let presented = presented.to_vec();
    let next = next.to_vec();
    conn.transaction::<_, diesel::result::Error, _>(async |conn| {
        let row: Option<Refreshable> = sessions::table
            .filter(sessions::id.eq(id))
            .filter(sessions::revoked_at.is_null())
            .filter(sessions::expires_at.gt(now))
            .select((
                sessions::user_id,
                sessions::refresh_hash,
                sessions::previous_hash,
                sessions::rotated_at,
            ))
            .for_update()
            .first(conn)
            .await
            .optional()?;
        let Some((user, current, previous, rotated_at)) = row else {
            return Ok(Rotation::Refused);
        };
        let fresh_retry =
            previous.as_deref() == Some(presented.as_slice()) && now - rotated_at < grace;
        if current != presented && !fresh_retry {
            revoke(conn, id, Revoked::RefreshReused, now).await?;
            return Ok(Rotation::Reused);
        }
        // A retry within the grace period rotates again: the answer it
        // lost named a secret nobody will use, which now stops working.
        // The grace still counts from the first rotation.
        diesel::update(sessions::table.find(id))
            .set((
                sessions::previous_hash.eq(if fresh_retry { previous } else { Some(current) }),
                sessions::refresh_hash.eq(next),
                sessions::rotated_at.eq(if fresh_retry { rotated_at } else { now }),
                sessions::expires_at.eq(expires_at),
            ))
            .execute(conn)
            .await?;
        let username = users::table
            .find(user)
            .select(users::username)
            .first(conn)
            .await?;
        Ok(Rotation::Rotated { user, username })
    })
    .await
}

/// Revokes session `id` (if live).
///
/// # Errors
/// Database errors.
pub async fn revoke(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    why: Revoked,
    now: DateTime<Utc>,
) -> QueryResult<()> {
    diesel::update(
        sessions::table
            .filter(sessions::id.eq(id))
            .filter(sessions::revoked_at.is_null()),
    )
    .set((
        sessions::revoked_at.eq(now),
        sessions::revoked_why.eq(why.as_str()),
    ))
    .execute(conn)
    .await
    .map(|_| ())
}

/// Revokes every live session of `user` but `keep` (if given); returns how
/// many were revoked.
///
/// # Errors
/// Database errors.
pub async fn revoke_all(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    keep: Option<Uuid>,
    why: Revoked,
    now: DateTime<Utc>,
) -> QueryResult<usize> {
    diesel::update(
        sessions::table
            .filter(sessions::user_id.eq(user))
            .filter(sessions::revoked_at.is_null())
            .filter(sessions::id.ne(keep.unwrap_or_else(Uuid::nil))),
    )
    .set((
        sessions::revoked_at.eq(now),
        sessions::revoked_why.eq(why.as_str()),
    ))
    .execute(conn)
    .await
}
