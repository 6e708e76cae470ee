//! `/v1/auth`: accounts and tokens.

use actix_web::{HttpResponse, post, web};

use super::client::ClientAddress;
use super::problem::{Problem, problems};
use super::{Answer, Reply, State};
use crate::accounts::sessions::{self, AccessToken, RefreshRequest};
use crate::accounts::users::{self, Credentials, PasswordChange, RegisteredUser};
use crate::auth::Caller;

/// Creates an account. Passwords are stored as argon2id hashes.
#[utoipa::path(
    operation_id = "register_account", tag = "auth", request_body = Credentials,
    responses((status = 201, description = "The new account", body = RegisteredUser), RegisterAccountProblems)
)]
#[post("/auth/register")]
pub async fn register(
    state: State,
    address: ClientAddress,
    body: super::strict_json::Json<Credentials>,
) -> Answer {
    let user = users::register(&state, body.into_inner(), address.0).await?;
    Ok(HttpResponse::Created().json(user))
}

/// Signs in: exchanges a username and password for a new session's tokens,
/// a short-lived access token (JWT, HS256) and a refresh token.
#[utoipa::path(
    operation_id = "sign_in", tag = "auth", request_body = Credentials,
    responses((status = 200, description = "The new session's access and refresh tokens", body = AccessToken), (status = 429, description = "`rate_limited`: too many failed logins for the account from this address (5 in 15 minutes), from the address (100), or for the account from addresses it has not signed in from lately (10, then rising delays); `Retry-After` says when to try again (see docs/limits.md)", body = Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "Seconds until a login may succeed"))), (status = 503, description = "`busy`: the password threads have as much queued as they may take; `Retry-After` says when to try again", body = Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "Seconds until a retry may be taken"))), SignInProblems)
)]
#[post("/auth/login")]
pub async fn login(
    state: State,
    address: ClientAddress,
    body: super::strict_json::Json<Credentials>,
) -> Reply<AccessToken> {
    Ok(web::Json(
        users::login(&state, body.into_inner(), address.0).await?,
    ))
}

/// Trades the session's refresh token for a new pair. The refresh token sent
/// stops working; sending it again later signs the session out
/// (`refresh_token_reused`), since one of its holders is not the user. A
/// client that lost the answer may retry with the same token for 30 s.
#[utoipa::path(
    operation_id = "refresh_session", tag = "auth", request_body = RefreshRequest,
    responses((status = 200, description = "A new pair; keep the new refresh token", body = AccessToken), (status = 401, description = "`unauthenticated`: unknown, expired or signed-out refresh token; `refresh_token_reused`: it was already used, and its session is now signed out", body = Problem, content_type = "application/problem+json", example = json!({"type": "about:blank", "title": "Refresh token reused", "status": 401, "code": "refresh_token_reused", "detail": "this refresh token was used before, so its session is now signed out; sign in again"})), RefreshSessionProblems)
)]
#[post("/auth/refresh")]
pub async fn refresh(
    state: State,
    body: super::strict_json::Json<RefreshRequest>,
) -> Reply<AccessToken> {
    Ok(web::Json(
        sessions::refresh(&state, body.into_inner()).await?,
    ))
}

/// Signs this device out: the session's access and refresh tokens stop
/// working at once, in every server process.
#[utoipa::path(
    operation_id = "sign_out", tag = "auth", security(("bearer" = [])),
    responses((status = 204, description = "Signed out"), SignOutProblems)
)]
#[post("/auth/logout")]
pub async fn logout(state: State, caller: Caller, _body: super::strict_json::NoBody) -> Answer {
    sessions::logout(&state, &caller).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Signs out everywhere: every session of the account ends, this one too.
#[utoipa::path(
    operation_id = "sign_out_everywhere", tag = "auth", security(("bearer" = [])),
    responses((status = 204, description = "Every session signed out"), SignOutEverywhereProblems)
)]
#[post("/auth/logout-all")]
pub async fn logout_all(state: State, caller: Caller, _body: super::strict_json::NoBody) -> Answer {
    sessions::logout_all(&state, &caller).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Changes the password. Every other session is signed out; this one stays.
#[utoipa::path(
    operation_id = "change_password", tag = "auth", request_body = PasswordChange,
    security(("bearer" = [])),
    responses((status = 204, description = "Changed; other sessions are signed out"), ChangePasswordProblems)
)]
#[post("/auth/password")]
pub async fn change_password(
    state: State,
    caller: Caller,
    body: super::strict_json::Json<PasswordChange>,
) -> Answer {
    users::change_password(&state, &caller, body.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}

problems! {
    /// What `register_account` answers besides the common problems.
    RegisterAccountProblems {
        BadRequest: "username or password out of bounds, malformed body",
        UsernameTaken,
        LimitReached: "too many accounts registered from this address in the hour",
        Busy: "the password threads are full",
    }
    /// What `sign_in` answers besides the common problems.
    SignInProblems { BadRequest: "malformed body", Unauthenticated: "wrong username or password" }
    /// What `refresh_session` answers besides the common problems.
    RefreshSessionProblems { BadRequest: "malformed body" }
    /// What `sign_out` answers besides the common problems.
    SignOutProblems { BadRequest: "a body was sent" }
    /// What `sign_out_everywhere` answers besides the common problems.
    SignOutEverywhereProblems { BadRequest: "a body was sent" }
    /// What `change_password` answers besides the common problems.
    ChangePasswordProblems {
        BadRequest: "new password out of bounds, malformed body",
        WrongPassword: "the current password is wrong",
        Busy: "the password threads are full",
    }
}
