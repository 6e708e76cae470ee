//! `/v1/games/{id}/commands`: playing.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, post};

use super::problem::{Problem, problems};
use super::request::{header as header_value, version_tag};
use super::tags::{self, Privacy};
use super::{Answer, GamePath, Id, State};
use crate::auth::Claimed;
use crate::games::command::{self, CommandRequest, CommandResponse, Precondition};

/// Sends one command. The version the client expects goes in
/// `expected_version` or `If-Match`; an `Idempotency-Key` makes retries safe
/// (the same key and body answer the first response and write nothing).
///
/// Two rules relate the header to the body, which the schemas cannot say:
/// at least one of `expected_version` and `If-Match` is sent (else 428
/// `precondition_required`), and when both are, they name the same version
/// (else 400 `bad_request`).
#[utoipa::path(
    operation_id = "send_command", tag = "games",
    params(GamePath, ("If-Match" = Option<String>, Header, nullable = false, description = "The expected version instead of expected_version: quoted (`\"17\"`), or the game's ETag as `get_game` gave it", pattern = r#"^(W/)?"?[0-9]{1,18}(\.[0-9a-f]{16})?"?$"#), ("Idempotency-Key" = Option<String>, Header, nullable = false, description = "1–128 visible ASCII characters, unique per user and game", min_length = 1, max_length = 128, pattern = "^[!-~]{1,128}$")),
    request_body = CommandRequest, security(("bearer" = [])),
    responses((status = 200, description = "Accepted: the new version, the caller's events and the game as the caller now sees it", body = CommandResponse, headers(("ETag" = String, description = "The caller's tag of the game at the new version (as `get_game` gives it)"), ("Cache-Control" = String, description = "`private, no-store`"))), (status = 412, description = "`version_conflict` when the version came as If-Match", body = Problem, content_type = "application/problem+json"), SendCommandProblems)
)]
#[post("/games/{id}/commands")]
pub async fn submit(
    state: State,
    caller: Claimed,
    id: Id,
    req: HttpRequest,
    body: super::strict_json::Json<CommandRequest>,
) -> Answer {
    let request = body.into_inner();
    let key = header_value(req.headers(), "Idempotency-Key")?;
    if let Some(key) = key {
        command::check_idempotency_key(key)?;
    }
    let if_match = version_tag(&req, "If-Match")?;
    let precondition = Precondition::from(request.expected_version, if_match)?;
    let outcome =
        command::submit(&state, caller, id.into_inner(), request, precondition, key).await?;
    let mut response = HttpResponse::Ok();
    tags::per_viewer(&mut response, Privacy::Hidden);
    Ok(response
        .insert_header((
            header::ETAG,
            state.view_tags.game(outcome.version, outcome.seat),
        ))
        .content_type("application/json")
        .body(outcome.body))
}

problems! {
    /// What `send_command` answers besides the common problems.
    SendCommandProblems {
        BadRequest: "malformed body or headers, not a command of this ruleset",
        VersionConflict: "the problem carries `current_version`",
        NotAPlayer, NotYourTurn, GameNotOpen, GameFinished, IllegalCommand, IdempotencyKeyReused, PreconditionRequired,
    }
}
