//! `/v1/games/{id}/audit` and `/v1/games/{id}/state`: records and replays.

use actix_web::web::Query;
use actix_web::{HttpRequest, get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::problem::problems;
use super::tags::{self, IfNoneMatch, Privacy};
use super::{Answer, GamePath, Id, Reply, State};
use crate::auth::MaybeCaller;
use crate::games::audit::{self as audits, StateAt};
use crate::record::verify::AuditDocument;

/// The complete, unredacted record of a finished game: every event with its
/// hash chain, the revealed seed and the final state. `hatstand verify`
/// checks such a document offline. A game whose `spectators` is `players`
/// shows it only to its players, creator and invitees.
#[utoipa::path(
    operation_id = "get_audit", tag = "audit", params(GamePath), security((), ("bearer" = [])),
    responses((status = 200, description = "The whole unredacted log, the revealed seed and the final state", body = AuditDocument), GetAuditProblems)
)]
#[get("/games/{id}/audit")]
pub async fn audit(state: State, caller: MaybeCaller, id: Id) -> Reply<AuditDocument> {
    let user = caller.0.map(|c| c.user_id);
    Ok(web::Json(
        audits::audit(&state, user, id.into_inner()).await?,
    ))
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

/// The table after `at` events (step-through replay): as the caller saw it
/// while the game is played; every hand shown once it is over, as its audit
/// shows them.
#[utoipa::path(
    operation_id = "get_game_state", tag = "audit", params(GamePath, StateQuery, IfNoneMatch),
    security((), ("bearer" = [])),
    responses((status = 200, description = "The caller's view after `at` events; once the game is over, the whole table", body = StateAt, headers(("ETag" = String, description = "This viewer's tag of this answer"), ("Cache-Control" = String, description = "`private, no-store` (a seat's view holds its hand)"), ("Vary" = String, description = "`Authorization`"))), (status = 304, description = "Unchanged for this viewer; no body"), GetGameStateProblems)
)]
#[get("/games/{id}/state")]
pub async fn state_at(
    state: State,
    caller: MaybeCaller,
    id: Id,
    query: Query<StateQuery>,
    req: HttpRequest,
) -> Answer {
    let viewer = caller.0.map(|c| c.user_id);
    let view = audits::state_at(&state, viewer, id.into_inner(), query.at).await?;
    tags::json(
        &req,
        &state.view_tags,
        "get_game_state",
        viewer,
        Privacy::Hidden,
        &view,
    )
}

problems! {
    /// What `get_audit` answers besides the common problems.
    GetAuditProblems { BadRequest: "malformed id", GameNotFinished }
    /// What `get_game_state` answers besides the common problems.
    GetGameStateProblems { BadRequest: "`at` missing or below 1", NoSuchVersion }
}
