//! Who is calling: `Caller` requires a valid bearer token; `MaybeCaller`
//! accepts anonymous reads (spectators) but still refuses a bad token.

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, web};
use uuid::Uuid;

use crate::error::ApiError;
use crate::state::AppState;

/// An authenticated user.
#[derive(Debug, Clone)]
pub struct Caller {
    pub user_id: Uuid,
    pub username: String,
}

/// An authenticated user, or nobody (a spectator).
#[derive(Debug, Clone)]
pub struct MaybeCaller(pub Option<Caller>);

fn bearer(req: &HttpRequest) -> Result<Option<&str>, ApiError> {
    let Some(value) = req.headers().get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let value = value
        .to_str()
        .map_err(|_| ApiError::unauthenticated("the Authorization header is not ASCII"))?;
    let (scheme, token) = value
        .split_once(' ')
        .ok_or_else(|| ApiError::unauthenticated("use Authorization: Bearer <token>"))?;
    if !scheme.eq_ignore_ascii_case("bearer") || token.trim().is_empty() {
        return Err(ApiError::unauthenticated(
            "use Authorization: Bearer <token>",
        ));
    }
    Ok(Some(token.trim()))
}

fn caller(req: &HttpRequest) -> Result<Option<Caller>, ApiError> {
    let Some(token) = bearer(req)? else {
        return Ok(None);
    };
    let state = req
        .app_data::<web::Data<AppState>>()
        .ok_or_else(|| ApiError::internal("application state missing"))?;
    let claims = state.jwt.verify(token)?;
    Ok(Some(Caller {
        user_id: claims.sub,
        username: claims.name,
    }))
}

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(caller(req).and_then(|c| {
            c.ok_or_else(|| {
                ApiError::unauthenticated("this call needs Authorization: Bearer <token>")
            })
        }))
    }
}

impl FromRequest for MaybeCaller {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(caller(req).map(MaybeCaller))
    }
}
