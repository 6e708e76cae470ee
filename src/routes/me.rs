//! `/v1/me`: the caller's own games — the play-by-mail inbox.

use actix_web::{get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::auth::Caller;
use crate::error::{ApiError, Problem};
use crate::games::read::{self, Filter, GamePage};
use crate::state::AppState;

/// Which of the caller's games.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MyGamesQuery {
    /// `mine`: only the games waiting for the caller (the inbox).
    pub turn: Option<String>,
    /// `open`, `active`, `finished` or `abandoned`.
    pub status: Option<String>,
    /// 1–100, default 20.
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// The caller's games, newest first; `turn=mine` lists only the games whose
/// `to_act` includes the caller's seat.
#[utoipa::path(
    operation_id = "my_games",
    tag = "games",
    params(MyGamesQuery),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "A page of the caller's games", body = GamePage),
        (status = 400, description = "`bad_request`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "`unauthenticated`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/me/games")]
pub async fn games(
    state: web::Data<AppState>,
    caller: Caller,
    query: web::Query<MyGamesQuery>,
) -> Result<web::Json<GamePage>, ApiError> {
    let q = query.into_inner();
    let my_turn = match q.turn.as_deref() {
        None => false,
        Some("mine") => true,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "turn must be \"mine\", not {other:?}"
            )));
        }
    };
    let page = read::list(
        &state,
        Filter {
            status: q.status,
            ruleset: None,
            member: Some(caller.user_id),
            my_turn,
            limit: q.limit,
            cursor: q.cursor,
        },
    )
    .await?;
    Ok(web::Json(page))
}
