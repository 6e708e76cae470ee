//! `/v1/auth`: accounts and tokens.

use actix_web::{HttpResponse, post, web};

use crate::auth::users::{self, AccessToken, Credentials, RegisteredUser};
use crate::error::{ApiError, Problem};
use crate::state::AppState;

/// Creates an account. Passwords are stored as argon2id hashes.
#[utoipa::path(
    tag = "auth",
    request_body = Credentials,
    responses(
        (status = 201, description = "The new account", body = RegisteredUser),
        (status = 400, description = "`bad_request`: username or password out of bounds, malformed body", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`username_taken`", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "`payload_too_large`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/auth/register")]
pub async fn register(
    state: web::Data<AppState>,
    body: super::body::Json<Credentials>,
) -> Result<HttpResponse, ApiError> {
    let user = users::register(&state, body.into_inner()).await?;
    Ok(HttpResponse::Created().json(user))
}

/// Exchanges a username and password for an access token (JWT, HS256).
#[utoipa::path(
    tag = "auth",
    request_body = Credentials,
    responses(
        (status = 200, description = "A bearer token", body = AccessToken),
        (status = 400, description = "`bad_request`: malformed body", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "`unauthenticated`: wrong username or password", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "`payload_too_large`", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: too many failed logins for the account (10 in 15 minutes) or from the address (100); `Retry-After` says when to try again", body = Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u64, description = "Seconds until a login may succeed"))),
    )
)]
#[post("/auth/login")]
pub async fn login(
    state: web::Data<AppState>,
    req: actix_web::HttpRequest,
    body: super::body::Json<Credentials>,
) -> Result<web::Json<AccessToken>, ApiError> {
    // The peer's address, not a forwarded header a client could forge.
    let address = req.peer_addr().map(|a| a.ip());
    Ok(web::Json(
        users::login(&state, body.into_inner(), address).await?,
    ))
}
