//! `/v1/games/{id}/audit` and `/v1/games/{id}/state`: records and replays.

use actix_web::{get, web};
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

use super::problem::{ApiError, Problem};
use crate::auth::MaybeCaller;
use crate::games::audit::{self as audits, StateAt};
use crate::record::verify::AuditDocument;
use crate::state::AppState;

/// The complete, unredacted record of a finished game: every event with its
/// hash chain, the revealed seed and the final state. `hatstand verify`
/// checks such a document offline.
#[utoipa::path(
    operation_id = "get_audit",
    tag = "audit",
    params(("id" = Uuid, Path, description = "The game id")),
    responses(
        (status = 200, description = "The whole unredacted log, the revealed seed and the final state", body = AuditDocument),
        (status = 400, description = "`bad_request`: malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`game_not_finished`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/audit")]
pub async fn audit(
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<web::Json<AuditDocument>, ApiError> {
    Ok(web::Json(audits::audit(&state, id.into_inner()).await?))
}

/// Which version.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct StateQuery {
    /// A version between 1 and the game's current version.
    #[param(minimum = 1)]
    pub at: i64,
}

/// The table as the caller saw it after `at` events (step-through replay).
#[utoipa::path(
    operation_id = "get_game_state",
    tag = "audit",
    params(("id" = Uuid, Path, description = "The game id"), StateQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The caller's view after `at` events", body = StateAt),
        (status = 400, description = "`bad_request`: `at` out of range or missing", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "`unauthenticated`: a token was sent and is not valid", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/state")]
pub async fn state_at(
    state: web::Data<AppState>,
    caller: MaybeCaller,
    id: web::Path<Uuid>,
    query: web::Query<StateQuery>,
) -> Result<web::Json<StateAt>, ApiError> {
    let view = audits::state_at(
        &state,
        caller.0.map(|c| c.user_id),
        id.into_inner(),
        query.at,
    )
    .await?;
    Ok(web::Json(view))
}
