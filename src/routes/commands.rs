//! `/v1/games/{id}/commands`: playing.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, post, web};
use uuid::Uuid;

use super::extract::{etag, header as header_value, version_tag};
use super::problem::{ApiError, Problem};
use crate::auth::Claimed;
use crate::games::command::{self, CommandRequest, CommandResponse, Precondition};
use crate::state::AppState;

/// Sends one command. The version the client expects goes in
/// `expected_version` or `If-Match`; an `Idempotency-Key` makes retries safe
/// (the same key and body answer the first response and write nothing).
#[utoipa::path(
    operation_id = "send_command",
    tag = "games",
    params(
        ("id" = Uuid, Path, description = "The game id"),
        ("If-Match" = Option<String>, Header, description = "The expected version, quoted, instead of expected_version", pattern = r#"^(W/)?"?[0-9]{1,18}"?$"#),
        ("Idempotency-Key" = Option<String>, Header, description = "1–128 visible ASCII characters, unique per user", min_length = 1, max_length = 128, pattern = "^[!-~]{1,128}$"),
    ),
    request_body = CommandRequest,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Accepted: the new version, the caller's events and the game as the caller now sees it", body = CommandResponse, headers(("ETag" = String, description = "The new version, quoted"))),
        (status = 400, description = "`bad_request`: malformed body or headers, not a command of this ruleset", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "`not_a_player`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`version_conflict` (with `current_version`), `not_your_turn`, `game_not_open`, `game_finished`", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "`version_conflict` when the version came as If-Match", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`illegal_command`, `idempotency_key_reused`", body = Problem, content_type = "application/problem+json"),
        (status = 428, description = "`precondition_required`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{id}/commands")]
pub async fn submit(
    state: web::Data<AppState>,
    caller: Claimed,
    id: web::Path<Uuid>,
    req: HttpRequest,
    body: super::body::Json<CommandRequest>,
) -> Result<HttpResponse, ApiError> {
    let request = body.into_inner();
    let key = header_value(req.headers(), "Idempotency-Key")?;
    if let Some(key) = key {
        command::check_idempotency_key(key)?;
    }
    let if_match = version_tag(&req, "If-Match")?;
    let precondition = Precondition::from(request.expected_version, if_match)?;
    let outcome =
        command::submit(&state, caller, id.into_inner(), request, precondition, key).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, etag(outcome.version)))
        .content_type("application/json")
        .body(outcome.body))
}
