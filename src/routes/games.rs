//! `/v1/games`: creating, listing, reading and joining games.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

use super::extract::{etag, optional_json, version_tag};
use crate::auth::{Caller, MaybeCaller};
use crate::error::{ApiError, Problem};
use crate::games::create::{self as creating, CreateGame};
use crate::games::join::{self as joining, JoinGame};
use crate::games::read::{self, Filter, GamePage};
use crate::games::resource::Game;
use crate::state::AppState;

/// Creates a game; the creator takes seat 0 unless `join` is false.
#[utoipa::path(
    operation_id = "create_game",
    tag = "games",
    request_body = CreateGame,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "The game, with the creator seated", body = Game, headers(("Location" = String, description = "/v1/games/{id}"))),
        (status = 400, description = "`bad_request`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "`unauthenticated`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not_found`: no such ruleset", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "`payload_too_large`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid_options`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games")]
pub async fn create(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<CreateGame>,
) -> Result<HttpResponse, ApiError> {
    let game = creating::create(&state, &caller, body.into_inner()).await?;
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, format!("/v1/games/{}", game.id)))
        .insert_header((header::ETAG, etag(game.version)))
        .json(game))
}

/// Filters of a game list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// `open`, `active`, `finished` or `abandoned`.
    pub status: Option<String>,
    /// A ruleset id.
    pub ruleset: Option<String>,
    /// 1–100, default 20.
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// Lists games, newest first (cursor pagination).
#[utoipa::path(
    operation_id = "list_games",
    tag = "games",
    params(ListQuery),
    responses(
        (status = 200, description = "A page of games, newest first", body = GamePage),
        (status = 400, description = "`bad_request`: unknown status or ruleset, bad limit or cursor", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games")]
pub async fn list(
    state: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> Result<web::Json<GamePage>, ApiError> {
    let q = query.into_inner();
    let page = read::list(
        &state,
        Filter {
            status: q.status,
            ruleset: q.ruleset,
            limit: q.limit,
            cursor: q.cursor,
            ..Filter::default()
        },
    )
    .await?;
    Ok(web::Json(page))
}

/// A game as the caller sees it (spectators without a token see the public
/// view). `ETag` is the version; `If-None-Match` with it answers 304.
#[utoipa::path(
    operation_id = "get_game",
    tag = "games",
    params(("id" = Uuid, Path, description = "The game id")),
    responses(
        (status = 200, description = "The game as the caller sees it", body = Game, headers(("ETag" = String, description = "The version, quoted"))),
        (status = 304, description = "Not modified since the version in If-None-Match"),
        (status = 400, description = "`bad_request`: malformed id or header", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "`unauthenticated`: a token was sent and is not valid", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not_found`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}")]
pub async fn get(
    state: web::Data<AppState>,
    caller: MaybeCaller,
    id: web::Path<Uuid>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let known = version_tag(&req, "If-None-Match")?;
    let game = read::get(&state, caller.0.map(|c| c.user_id), id.into_inner()).await?;
    let mut response = if known == Some(game.version) {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((header::ETAG, etag(game.version)))
        .insert_header((header::VARY, "Authorization"))
        .insert_header((header::CACHE_CONTROL, "private, no-cache"));
    if known == Some(game.version) {
        Ok(response.finish())
    } else {
        Ok(response.json(game))
    }
}

/// Takes a seat (the lowest free one unless `seat` is given). The game starts
/// by itself when the last seat fills. The body may be empty.
#[utoipa::path(
    operation_id = "join_game",
    tag = "games",
    params(("id" = Uuid, Path, description = "The game id")),
    request_body(content = JoinGame, description = "Optional"),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game with the caller seated", body = Game),
        (status = 400, description = "`bad_request`: no such seat, malformed body", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "`unauthenticated`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not_found`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`game_full`, `seat_taken`, `already_joined`, `game_not_open`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{id}/join")]
pub async fn join(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<Uuid>,
    body: web::Bytes,
) -> Result<web::Json<Game>, ApiError> {
    let request: JoinGame = optional_json(&body)?;
    Ok(web::Json(
        joining::join(&state, &caller, id.into_inner(), request).await?,
    ))
}
