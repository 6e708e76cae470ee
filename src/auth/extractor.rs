//! Who is calling: `Caller` requires a valid bearer token of a live session;
//! `MaybeCaller` accepts anonymous reads (spectators) but still refuses a
//! bad token; `Claimed` (and `MaybeClaimed`) is a token whose session the
//! command path and the game read check in their own load statement (to
//! save a round trip).
//!
//! Every token counts against its session's request rate first.

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, web};
use futures_util::future::LocalBoxFuture;
use uuid::Uuid;

use crate::db::sessions;
use crate::error::Failure;
use crate::routes::app_state::AppState;
use crate::routes::problem::ApiError;

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
        conn: &mut diesel_async::AsyncPgConnection,
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

fn bearer(req: &HttpRequest) -> Result<Option<&str>, Failure> {
    let Some(value) = req.headers().get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let value = value
        .to_str()
        .map_err(|_| Failure::unauthenticated("the Authorization header is not ASCII"))?;
    let (scheme, token) = value
        .split_once(' ')
        .ok_or_else(|| Failure::unauthenticated("use Authorization: Bearer <token>"))?;
    if !scheme.eq_ignore_ascii_case("bearer") || token.trim().is_empty() {
        return Err(Failure::unauthenticated(
            "use Authorization: Bearer <token>",
        ));
    }
    Ok(Some(token.trim()))
}

fn state(req: &HttpRequest) -> Result<web::Data<AppState>, Failure> {
    req.app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| Failure::internal("application state missing"))
}

/// The token's claims, checked for signature, expiry and rate; `None`
/// without a token.
fn claimed(req: &HttpRequest, state: &AppState) -> Result<Option<Caller>, Failure> {
    let Some(token) = bearer(req)? else {
        return Ok(None);
    };
    let claims = state.jwt.verify(token)?;
    let session = claims.sid.ok_or_else(|| {
        Failure::unauthenticated("this token was issued before sign-in sessions; sign in again")
    })?;
    state.token_limits.check(session)?;
    Ok(Some(Caller {
        user_id: claims.sub,
        username: claims.name,
        session,
    }))
}

fn needed() -> Failure {
    Failure::unauthenticated("this call needs Authorization: Bearer <token>")
}

/// The caller of a valid token of a live session, `None` without a token.
async fn checked(
    state: web::Data<AppState>,
    claimed: Option<Caller>,
) -> Result<Option<Caller>, Failure> {
    let Some(caller) = claimed else {
        return Ok(None);
    };
    let mut conn = state.pool.get().await?;
    if sessions::is_live(&mut conn, caller.session, caller.user_id).await? {
        Ok(Some(caller))
    } else {
        Err(signed_out())
    }
}

impl FromRequest for MaybeCaller {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let found = state(req).and_then(|state| Ok((claimed(req, &state)?, state)));
        Box::pin(async move {
            let (claimed, state) = found?;
            Ok(MaybeCaller(checked(state, claimed).await?))
        })
    }
}

/// A [`MaybeCaller`] that must be someone.
impl FromRequest for Caller {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let maybe = MaybeCaller::from_request(req, payload);
        Box::pin(async move { Ok(maybe.await?.0.ok_or_else(needed)?) })
    }
}

impl FromRequest for MaybeClaimed {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(
            state(req)
                .and_then(|state| claimed(req, &state))
                .map(|c| MaybeClaimed(c.map(Claimed)))
                .map_err(ApiError::from),
        )
    }
}

/// A [`MaybeClaimed`] that must be someone.
impl FromRequest for Claimed {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        std::future::ready(
            MaybeClaimed::from_request(req, payload)
                .into_inner()
                .and_then(|maybe| maybe.0.ok_or_else(|| needed().into())),
        )
    }
}
