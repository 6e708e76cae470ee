//! The one error type of the HTTP layer, rendered as RFC 9457 problem+json.
//!
//! Every error a client can see has a stable snake_case `code` to branch on.
//! Domain errors (rule violations, options errors, database failures) are
//! mapped here, once.
//!
//! The codes: `bad_request`, `unauthenticated`, `refresh_token_reused` (401:
//! a rotated refresh token sent again; its session is now revoked),
//! `not_a_player`, `forbidden`, `wrong_password` (403: a password change
//! with the wrong current password),
//! `not_invited` (403: a private game without its code or an invitation),
//! `not_found`, `method_not_allowed`, `version_conflict`, `game_full`,
//! `seat_taken`, `already_joined`, `game_not_open`, `game_finished`,
//! `game_not_finished`, `username_taken`, `not_your_turn`,
//! `already_resigned` (409: the seat is already out), `no_deadline` (409: a
//! vacation in a game without `turn_timeout`), `too_many_webhooks` (409),
//! `illegal_command`, `invalid_options`, `idempotency_key_reused`,
//! `vacation_exceeded` (422: more than `max_vacation`),
//! `unknown_rules_version` (422: a rules version this build does not know),
//! `request_timeout` (408: the body did not arrive in time),
//! `cursor_expired` (410: a notification cursor into what was pruned),
//! `payload_too_large`,
//! `precondition_required`, `rate_limited` (429, with `Retry-After`),
//! `unavailable`, `internal`.

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

/// An RFC 9457 problem document.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Problem {
    /// Always `about:blank`: `code` identifies the problem.
    #[serde(rename = "type")]
    #[schema(example = "about:blank")]
    pub type_: &'static str,
    /// A short, human-readable summary of the problem kind.
    #[schema(example = "Illegal command")]
    pub title: &'static str,
    /// The HTTP status code.
    #[schema(example = 422)]
    pub status: u16,
    /// The stable, machine-readable problem code clients branch on.
    #[schema(example = "illegal_command")]
    pub code: &'static str,
    /// What exactly went wrong, for people.
    #[schema(example = "card H5 is not in your hand")]
    pub detail: String,
    /// With `version_conflict`: the game's current version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_version: Option<i64>,
}

/// An error answered to a client.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{code}: {detail}")]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    title: &'static str,
    detail: String,
    current_version: Option<i64>,
    /// With `rate_limited`: seconds until a retry may succeed (`Retry-After`).
    retry_after: Option<u64>,
}

impl ApiError {
    fn new(
        status: StatusCode,
        code: &'static str,
        title: &'static str,
        detail: impl Into<String>,
    ) -> Self {
        ApiError {
            status,
            code,
            title,
            detail: detail.into(),
            current_version: None,
            retry_after: None,
        }
    }

    /// Too many attempts: `429 rate_limited`, with `Retry-After` in seconds.
    pub fn rate_limited(detail: impl Into<String>, retry_after_secs: u64) -> Self {
        let mut error = Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "Too many requests",
            detail,
        );
        error.retry_after = Some(retry_after_secs.max(1));
        error
    }

    /// Malformed JSON, wrong types, unknown fields, bad query or path values.
    pub fn bad_request(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "bad_request",
            "Bad request",
            detail,
        )
    }

    /// Missing, expired, malformed or forged credentials.
    pub fn unauthenticated(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "unauthenticated",
            "Unauthenticated",
            detail,
        )
    }

    /// A refresh token presented after it was rotated: the session it
    /// belonged to has just been revoked.
    pub fn refresh_token_reused() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "refresh_token_reused",
            "Refresh token reused",
            "this refresh token was used before, so its session is now signed out; sign in again",
        )
    }

    /// A password change whose current password is wrong.
    pub fn wrong_password() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "wrong_password",
            "Wrong password",
            "the current password is wrong",
        )
    }

    /// A cursor (`after`, `Last-Event-ID`) into notifications that may have
    /// been pruned: the client refetches from the start.
    pub fn cursor_expired(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::GONE, "cursor_expired", "Cursor expired", detail)
    }

    /// A request body that did not arrive within the body timeout.
    pub fn request_timeout(limit: std::time::Duration) -> Self {
        Self::new(
            StatusCode::REQUEST_TIMEOUT,
            "request_timeout",
            "Request timeout",
            format!(
                "the request body must arrive within {} ms",
                limit.as_millis()
            ),
        )
    }

    /// Acting in a game the caller has no seat in.
    pub fn not_a_player() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "not_a_player",
            "Not a player",
            "you have no seat in this game",
        )
    }

    /// Anything else the caller may not do.
    pub fn forbidden(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden", "Forbidden", detail)
    }

    /// A private game joined (or an invitation declined) by someone not
    /// invited and without the right invite code.
    pub fn not_invited() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "not_invited",
            "Not invited",
            "this game is private: join with its invite code, or be invited",
        )
    }

    /// A request the caller may make but not now or not like this, with a
    /// stable code (`vacation_exceeded`, ...).
    pub fn unprocessable(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            code,
            "Unprocessable request",
            detail,
        )
    }

    /// An unknown game, user, ruleset or route.
    pub fn not_found(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", "Not found", detail)
    }

    /// A method the route does not serve.
    pub fn method_not_allowed() -> Self {
        Self::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            "Method not allowed",
            "this route does not serve that method",
        )
    }

    /// The version the client sent is not the game's current version. Sent in
    /// the body it is a 409; sent as `If-Match` it is a 412.
    pub fn version_conflict(current: i64, sent: i64, via_if_match: bool) -> Self {
        let status = if via_if_match {
            StatusCode::PRECONDITION_FAILED
        } else {
            StatusCode::CONFLICT
        };
        let mut e = Self::new(
            status,
            "version_conflict",
            "Version conflict",
            format!("the game is at version {current}, not {sent}"),
        );
        e.current_version = Some(current);
        e
    }

    /// A state conflict with a stable code (`game_full`, `already_joined`, ...).
    pub fn conflict(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, "Conflict", detail)
    }

    /// The caller is seated but the game does not wait for them now.
    pub fn not_your_turn(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::CONFLICT,
            "not_your_turn",
            "Not your turn",
            detail,
        )
    }

    /// A well-formed command the rules forbid now.
    pub fn illegal_command(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_command",
            "Illegal command",
            detail,
        )
    }

    /// Game options the ruleset cannot play.
    pub fn invalid_options(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_options",
            "Invalid options",
            detail,
        )
    }

    /// An `Idempotency-Key` reused with a different request.
    pub fn idempotency_key_reused() -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "idempotency_key_reused",
            "Idempotency key reused",
            "this Idempotency-Key was already used for a different request",
        )
    }

    /// A body over the size limit.
    pub fn payload_too_large(limit: usize) -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            "Payload too large",
            format!("request bodies are limited to {limit} bytes"),
        )
    }

    /// A command sent with neither `expected_version` nor `If-Match`.
    pub fn precondition_required() -> Self {
        Self::new(
            StatusCode::PRECONDITION_REQUIRED,
            "precondition_required",
            "Precondition required",
            "send the version you expect, as expected_version or If-Match",
        )
    }

    /// The database cannot be reached now; the request changed nothing.
    pub fn unavailable(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            "Service unavailable",
            detail,
        )
    }

    /// A fault of the server. The detail is logged, not shown.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        tracing::error!(error = %detail, "internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "Internal server error",
            "the server failed; nothing was changed",
        )
    }

    /// The stable code.
    #[must_use]
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The problem document.
    #[must_use]
    pub fn problem(&self) -> Problem {
        Problem {
            type_: "about:blank",
            title: self.title,
            status: self.status.as_u16(),
            code: self.code,
            detail: self.detail.clone(),
            current_version: self.current_version,
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status);
        response.insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json"),
        ));
        if self.status == StatusCode::UNAUTHORIZED {
            response.insert_header((header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer")));
        }
        if let Some(secs) = self.retry_after {
            response.insert_header((header::RETRY_AFTER, secs.to_string()));
        }
        if self.status == StatusCode::REQUEST_TIMEOUT {
            // The rest of the body may still be on its way: the connection
            // cannot carry another request.
            response.force_close();
        }
        response.json(self.problem())
    }
}

impl From<diesel::result::Error> for ApiError {
    fn from(e: diesel::result::Error) -> Self {
        // The connection died under the request (the pool drops it). The
        // client retries; a command sent with an Idempotency-Key that did
        // commit answers its stored response, otherwise `version_conflict`.
        if connection_lost(&e) {
            tracing::warn!(error = %e, "database connection lost");
            return ApiError::unavailable("the database connection was lost; try again");
        }
        if timed_out(&e) {
            tracing::warn!(error = %e, "database statement timed out");
            return ApiError::unavailable("the database did not answer in time; try again");
        }
        ApiError::internal(format!("database: {e}"))
    }
}

/// Whether a database error means the session is gone rather than that the
/// statement failed: the socket closed, or PostgreSQL ended the session —
/// an administrator's `pg_terminate_backend`, a shutdown, a crash of another
/// backend, an idle timeout (SQLSTATE class 57P). The driver hands the
/// latter on with the kind `Unknown` and without its SQLSTATE, so it is
/// known by PostgreSQL's wording for all of them, "terminating connection".
fn connection_lost(e: &diesel::result::Error) -> bool {
    use diesel::result::{DatabaseErrorKind, Error};
    match e {
        Error::DatabaseError(
            DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand,
            _,
        ) => true,
        Error::DatabaseError(DatabaseErrorKind::Unknown, info) => {
            info.message().starts_with("terminating connection")
        }
        _ => false,
    }
}

/// Whether PostgreSQL cancelled the statement because it ran longer than
/// `statement_timeout` (a hung or overloaded database; SQLSTATE 57014,
/// handed on with the kind `Unknown` and known by its wording).
fn timed_out(e: &diesel::result::Error) -> bool {
    use diesel::result::{DatabaseErrorKind, Error};
    matches!(e, Error::DatabaseError(DatabaseErrorKind::Unknown, info)
        if info.message().starts_with("canceling statement due to statement timeout"))
}

impl From<diesel_async::pooled_connection::deadpool::PoolError> for ApiError {
    fn from(e: diesel_async::pooled_connection::deadpool::PoolError) -> Self {
        tracing::warn!(error = %e, "no database connection");
        ApiError::unavailable("the database is not reachable; try again")
    }
}

#[cfg(test)]
mod tests {
    use diesel::result::{DatabaseErrorKind, Error};

    use super::*;

    fn database_error(kind: DatabaseErrorKind, message: &str) -> ApiError {
        ApiError::from(Error::DatabaseError(kind, Box::new(message.to_string())))
    }

    #[test]
    fn a_lost_connection_is_unavailable_not_a_failure() {
        for (kind, message) in [
            (DatabaseErrorKind::ClosedConnection, "connection closed"),
            (
                DatabaseErrorKind::UnableToSendCommand,
                "error communicating with the server",
            ),
            (
                DatabaseErrorKind::Unknown,
                "terminating connection due to administrator command",
            ),
            (
                DatabaseErrorKind::Unknown,
                "terminating connection because of crash of another server process",
            ),
            (
                DatabaseErrorKind::Unknown,
                "canceling statement due to statement timeout",
            ),
        ] {
            let error = database_error(kind, message);
            assert_eq!(error.status, StatusCode::SERVICE_UNAVAILABLE, "{message}");
            assert_eq!(error.code, "unavailable", "{message}");
        }
    }

    #[test]
    fn any_other_database_error_is_internal() {
        for (kind, message) in [
            (DatabaseErrorKind::Unknown, "division by zero"),
            (DatabaseErrorKind::UniqueViolation, "duplicate key value"),
        ] {
            let error = database_error(kind, message);
            assert_eq!(error.status, StatusCode::INTERNAL_SERVER_ERROR, "{message}");
            assert_eq!(error.code, "internal", "{message}");
        }
        assert_eq!(ApiError::from(Error::NotFound).code, "internal");
    }
}
