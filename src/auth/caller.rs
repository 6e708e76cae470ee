//! Who is calling, and the rules that make a caller: `Caller` is a user of
//! a live session; `MaybeCaller` accepts anonymous reads (spectators) but
//! still refuses a bad token; `Claimed` (and `MaybeClaimed`) is a token
//! whose session the command path and the game read check in their own
//! load statement (to save a round trip). Every token counts against its
//! session's request rate first. The HTTP extractors that build them are at
//! the edge (`routes/caller.rs`).

use uuid::Uuid;

use super::jwt::JwtKeys;
use super::limits::TokenLimits;
use crate::db::sessions;
use crate::db::{Conn, Pool};
use crate::error::Failure;

/// An authenticated user of a live session.
#[derive(Debug, Clone)]
pub struct Caller {
    pub user_id: Uuid,
    pub username: String,
    /// The sign-in session the token belongs to.
    pub session: Uuid,
}

/// An authenticated user, or nobody (a spectator).
#[derive(Debug, Clone)]
pub struct MaybeCaller(pub Option<Caller>);

/// A valid token whose session has not been checked yet: only
/// [`Claimed::vouched`] turns it into a [`Caller`], given the answer of a
/// query that checked the session.
#[derive(Debug, Clone)]
pub struct Claimed(Caller);

impl Claimed {
    /// A token's claims, checked for signature, expiry and rate (by
    /// [`claims`]), its session not yet.
    #[must_use]
    pub fn token(claims: Caller) -> Self {
        Self(claims)
    }

    /// The user and session the token names, for the query that checks them.
    #[must_use]
    pub fn unchecked(&self) -> &Caller {
        &self.0
    }

    /// The caller, once the database said whether the session is live.
    ///
    /// # Errors
    /// `unauthenticated` when it is not.
    pub fn vouched(self, live: bool) -> Result<Caller, Failure> {
        if live { Ok(self.0) } else { Err(signed_out()) }
    }

    /// The caller, by the liveness a load statement returned, or, when that
    /// statement found no row to answer with, by asking on its own (so a
    /// signed-out session learns nothing, not even that a game is not there).
    ///
    /// # Errors
    /// `unauthenticated` when the session is not live; database errors.
    pub async fn vouched_by(
        self,
        conn: &mut Conn,
        loaded: Option<bool>,
    ) -> Result<Caller, Failure> {
        let live = match loaded {
            Some(live) => live,
            None => sessions::is_live(conn, self.0.session, self.0.user_id).await?,
        };
        self.vouched(live)
    }
}

/// A [`Claimed`] token, or none (a spectator).
#[derive(Debug, Clone)]
pub struct MaybeClaimed(pub Option<Claimed>);

fn signed_out() -> Failure {
    Failure::unauthenticated(
        "this token's session has ended (signed out, or the account is gone); sign in again",
    )
}

/// The answer when a call needs a caller and has none.
#[must_use]
pub fn needed() -> Failure {
    Failure::unauthenticated("this call needs Authorization: Bearer <token>")
}

/// The caller a bearer token claims, checked for signature, expiry and
/// its session's request rate (the session itself is not checked).
///
/// # Errors
/// `unauthenticated` (a bad token), `rate_limited`.
pub fn claims(jwt: &JwtKeys, limits: &TokenLimits, token: &str) -> Result<Caller, Failure> {
    let claims = jwt.verify(token)?;
    let session = claims.sid.ok_or_else(|| {
        Failure::unauthenticated("this token was issued before sign-in sessions; sign in again")
    })?;
    limits.check(session)?;
    Ok(Caller {
        user_id: claims.sub,
        username: claims.name,
        session,
    })
}

/// The caller, once its session is found live.
///
/// # Errors
/// `unauthenticated` when the session has ended; database errors.
pub async fn live(pool: &Pool, caller: Caller) -> Result<Caller, Failure> {
    let mut conn = pool.get().await?;
    if sessions::is_live(&mut conn, caller.session, caller.user_id).await? {
        Ok(caller)
    } else {
        Err(signed_out())
    }
}

/// Whether the session of user `user` is still live (a stream re-checks
/// it as it goes); `false` when the database cannot say.
pub async fn still_live(pool: &Pool, session: Uuid, user: Uuid) -> bool {
    let Ok(mut conn) = pool.get().await else {
        return false;
    };
    sessions::is_live(&mut conn, session, user)
        .await
        .unwrap_or(false)
}
