//! The caller extractors: the bearer token of a request read into the
//! types of `auth::caller` (whose doc states the rules).

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, web};
use futures_util::future::LocalBoxFuture;

use super::app_state::AppState;
use super::problem::ApiError;
use crate::auth::caller::{self, Caller, Claimed, MaybeCaller, MaybeClaimed, needed};
use crate::error::Failure;

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
    bearer(req)?
        .map(|token| caller::claims(&state.jwt, &state.token_limits, token))
        .transpose()
}

impl FromRequest for MaybeCaller {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let found = state(req).and_then(|state| Ok((claimed(req, &state)?, state)));
        Box::pin(async move {
            let (claimed, state) = found?;
            Ok(MaybeCaller(match claimed {
                Some(claimed) => Some(caller::live(&state.pool, claimed).await?),
                None => None,
            }))
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
                .map(|c| MaybeClaimed(c.map(Claimed::token)))
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
