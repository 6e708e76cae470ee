//! Sign-in sessions, as phones use them: a short-lived access token (a JWT
//! naming its session) and a long-lived refresh token that rotates on every
//! use.
//!
//! Rules:
//! - Signing in starts a session; every access token names it (`sid`) and
//!   is honoured only while it is live, on every endpoint.
//! - `POST /v1/auth/refresh` trades the current refresh token for a new
//!   pair; the old one stops working. Presenting a rotated refresh token
//!   again revokes the session (the whole family): one of its two holders
//!   is not the user. A client that lost the answer to a refresh may send
//!   the same token again for [`RETRY_GRACE`] and gets a new pair.
//! - The refresh token expires after the refresh lifetime without use
//!   (each refresh starts it anew).
//! - Logout ends this session; logout everywhere ends them all; a password
//!   change ends every session but the one that changed it.

use chrono::TimeDelta;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::auth::Caller;
use crate::context::Context;
use crate::db::Conn;
use crate::db::sessions::{self, Revoked, Rotation};
use crate::error::Failure;

/// How long after a rotation the refresh token it replaced still works once
/// (a client that sent a refresh and lost the answer retries it).
pub const RETRY_GRACE: TimeDelta = TimeDelta::seconds(30);

/// A pair of tokens: send the access token with every call, and the
/// refresh token to `POST /v1/auth/refresh` when the access token expires.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "access_token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI…",
    "token_type": "Bearer",
    "expires_in": 900,
    "refresh_token": "4f1c2b0e9d6a4c83a5f0e7b2c1d3e4f5.9b8e…",
    "refresh_expires_in": 2_592_000
}))]
pub struct AccessToken {
    /// A JWT (HS256) to send as `Authorization: Bearer <access_token>`.
    pub access_token: String,
    /// Always `Bearer`.
    #[schema(example = "Bearer")]
    pub token_type: String,
    /// Seconds until the access token expires.
    #[schema(example = 900)]
    pub expires_in: i64,
    /// An opaque token for `POST /v1/auth/refresh`, good for one use.
    /// Keep it secret (a phone's keychain): whoever holds it can sign in.
    pub refresh_token: String,
    /// Seconds until the refresh token expires unless used.
    #[schema(example = 2_592_000)]
    pub refresh_expires_in: i64,
}

/// A refresh token, for `POST /v1/auth/refresh`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RefreshRequest {
    /// The `refresh_token` of the latest pair.
    #[schema(example = "4f1c2b0e9d6a4c83a5f0e7b2c1d3e4f5.9b8e…")]
    pub refresh_token: String,
}

/// A refresh token as sent: `<session id, 32 hex>.<secret, 64 hex>`.
struct RefreshToken {
    session: Uuid,
    secret: [u8; 32],
}

impl RefreshToken {
    fn fresh(session: Uuid) -> Self {
        let mut secret = [0u8; 32];
        rand::fill(&mut secret);
        RefreshToken { session, secret }
    }

    fn parse(text: &str) -> Option<Self> {
        let (session, secret) = text.split_once('.')?;
        if session.len() != 32 || secret.len() != 64 {
            return None;
        }
        let session = Uuid::try_parse(session).ok()?;
        let mut bytes = [0u8; 32];
        hex::decode_to_slice(secret, &mut bytes).ok()?;
        Some(RefreshToken {
            session,
            secret: bytes,
        })
    }

    fn text(&self) -> String {
        format!("{}.{}", self.session.simple(), hex::encode(self.secret))
    }

    /// What the database keeps: the secret's SHA-256.
    fn hash(&self) -> [u8; 32] {
        Sha256::digest(self.secret).into()
    }
}

fn pair(
    state: &Context,
    user: Uuid,
    username: &str,
    refresh: &RefreshToken,
) -> Result<AccessToken, Failure> {
    Ok(AccessToken {
        access_token: state.jwt.issue(user, username, refresh.session)?,
        token_type: "Bearer".to_owned(),
        expires_in: state.jwt.ttl_seconds(),
        refresh_token: refresh.text(),
        refresh_expires_in: state.refresh_ttl.num_seconds(),
    })
}

/// Starts a session for a user who just proved who they are.
///
/// # Errors
/// Database errors.
pub async fn start(state: &Context, user: Uuid, username: &str) -> Result<AccessToken, Failure> {
    let refresh = RefreshToken::fresh(Uuid::new_v4());
    let now = crate::record::chain::now();
    let mut conn = state.pool.get().await?;
    sessions::start(
        &mut conn,
        refresh.session,
        user,
        &refresh.hash(),
        now,
        now + state.refresh_ttl,
    )
    .await?;
    pair(state, user, username, &refresh)
}

/// Trades a refresh token for a new pair.
///
/// # Errors
/// `unauthenticated` for a malformed, unknown, expired or revoked token;
/// `refresh_token_reused` when it had already been rotated (the session is
/// revoked by it).
pub async fn refresh(state: &Context, request: RefreshRequest) -> Result<AccessToken, Failure> {
    let presented = RefreshToken::parse(&request.refresh_token)
        .ok_or_else(|| Failure::unauthenticated("the refresh token is malformed"))?;
    let next = RefreshToken::fresh(presented.session);
    let now = crate::record::chain::now();
    let mut conn = state.pool.get().await?;
    let rotation = sessions::rotate(
        &mut conn,
        presented.session,
        &presented.hash(),
        &next.hash(),
        now,
        now + state.refresh_ttl,
        RETRY_GRACE,
    )
    .await?;
    match rotation {
        Rotation::Rotated { user, username } => pair(state, user, &username, &next),
        Rotation::Reused => Err(Failure::refresh_token_reused()),
        Rotation::Refused => Err(Failure::unauthenticated(
            "the refresh token is unknown, expired or signed out; sign in again",
        )),
    }
}

/// Ends the caller's session: its access and refresh tokens stop working.
///
/// # Errors
/// Database errors.
pub async fn logout(state: &Context, caller: &Caller) -> Result<(), Failure> {
    let mut conn = state.pool.get().await?;
    sessions::revoke(
        &mut conn,
        caller.session,
        Revoked::Logout,
        crate::record::chain::now(),
    )
    .await?;
    Ok(())
}

/// Ends every session of the caller, this one included; returns how many.
///
/// # Errors
/// Database errors.
pub async fn logout_all(state: &Context, caller: &Caller) -> Result<usize, Failure> {
    let mut conn = state.pool.get().await?;
    Ok(sessions::revoke_all(
        &mut conn,
        caller.user_id,
        None,
        Revoked::LogoutAll,
        crate::record::chain::now(),
    )
    .await?)
}

/// Ends every session of `caller` but the current one (after a password change).
///
/// # Errors
/// Database errors.
pub async fn end_others(conn: &mut Conn, caller: &Caller) -> Result<usize, Failure> {
    Ok(sessions::revoke_all(
        conn,
        caller.user_id,
        Some(caller.session),
        Revoked::PasswordChanged,
        crate::record::chain::now(),
    )
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refresh_token_reads_back_as_written() {
        let token = RefreshToken::fresh(Uuid::new_v4());
        let text = token.text();
        assert_eq!(text.len(), 32 + 1 + 64);
        let back = RefreshToken::parse(&text).unwrap();
        assert_eq!(back.session, token.session);
        assert_eq!(back.hash(), token.hash());
    }

    #[test]
    fn malformed_refresh_tokens_are_not_read() {
        let good = RefreshToken::fresh(Uuid::new_v4()).text();
        assert!(RefreshToken::parse("").is_none());
        assert!(RefreshToken::parse("abc.def").is_none());
        assert!(RefreshToken::parse(&good.replace('.', "-")).is_none());
        assert!(RefreshToken::parse(&format!("{good}0")).is_none());
        let (session, _) = good.split_once('.').unwrap();
        assert!(RefreshToken::parse(&format!("{session}.{}", "z".repeat(64))).is_none());
        // Multi-byte characters never reach a slice boundary panic.
        assert!(RefreshToken::parse(&format!("{session}.{}", "é".repeat(32))).is_none());
    }
}
