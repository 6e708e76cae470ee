//! `/v1/games`: creating, listing, reading and joining games.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

use super::extract::{etag, optional_json, version_tag};
use super::problem::{ApiError, Problem};
use super::sse as streams;
use crate::auth::{Caller, MaybeCaller, MaybeClaimed};
use crate::games::cancel as cancelling;
use crate::games::create::{self as creating, CreateGame};
use crate::games::invite;
use crate::games::join::{self as joining, JoinGame};
use crate::games::leave;
use crate::games::projection::Game;
use crate::games::read::{self, Filter, GamePage};
use crate::games::vacation as vacationing;
use crate::games::vacation::VacationRequest;
use crate::games::{GameStatus, RulesetId};
use crate::state::AppState;

/// Creates a game; the creator takes seat 0 unless `join` is false.
#[utoipa::path(
    operation_id = "create_game",
    tag = "games",
    request_body = CreateGame,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "The game, with the creator seated", body = Game, headers(("Location" = String, description = "/v1/games/{id}"))),
        (status = 404, description = "`not_found`: no such ruleset, or no such invitee", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid_options`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games")]
pub async fn create(
    state: web::Data<AppState>,
    caller: Caller,
    body: super::body::Json<CreateGame>,
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
    #[param(value_type = Option<GameStatus>)]
    pub status: Option<String>,
    /// A ruleset id.
    #[param(value_type = Option<RulesetId>)]
    pub ruleset: Option<String>,
    /// 1–100, default 20.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// Lists games, newest first (cursor pagination). Private games are listed
/// only to their players and invitees.
#[utoipa::path(
    operation_id = "list_games",
    tag = "games",
    params(ListQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "A page of games, newest first", body = GamePage),
        (status = 400, description = "`bad_request`: unknown status or ruleset, bad limit or cursor", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games")]
pub async fn list(
    state: web::Data<AppState>,
    caller: MaybeCaller,
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
            viewer: caller.0.map(|c| c.user_id),
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
    params(
        ("id" = Uuid, Path, description = "The game id"),
        ("If-None-Match" = Option<String>, Header, description = "A version this client holds, quoted (`\"17\"`, `W/\"17\"`): 304 while the game is still at it", pattern = r#"^(W/)?"?[0-9]{1,18}"?$"#),
    ),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The game as the caller sees it", body = Game, headers(("ETag" = String, description = "The version, quoted"))),
        (status = 304, description = "Not modified since the version in If-None-Match"),
        (status = 400, description = "`bad_request`: malformed id or header", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "`unauthenticated`: a token was sent and is not valid", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}")]
pub async fn get(
    state: web::Data<AppState>,
    caller: MaybeClaimed,
    id: web::Path<Uuid>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let known = version_tag(&req, "If-None-Match")?;
    let game = read::get(&state, caller.0, id.into_inner()).await?;
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
/// by itself when the last seat fills. The body may be empty. A private game
/// needs its `code`, unless the caller is invited.
#[utoipa::path(
    operation_id = "join_game",
    tag = "games",
    params(("id" = Uuid, Path, description = "The game id")),
    request_body(content = JoinGame, description = "Optional"),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game with the caller seated", body = Game),
        (status = 400, description = "`bad_request`: no such seat, malformed body", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "`not_invited`: a private game, without its code or an invitation", body = Problem, content_type = "application/problem+json"),
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

/// An invitee declines the invitation to a game that has not started
/// (event `player_declined`); without the code they can no longer join.
#[utoipa::path(
    operation_id = "decline_invitation",
    tag = "games",
    params(("id" = Uuid, Path, description = "The game id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game, the invitation declined", body = Game),
        (status = 403, description = "`not_invited`: the caller has no pending invitation", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`game_not_open`, `already_joined`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{id}/decline")]
pub async fn decline(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<Uuid>,
    _body: super::body::NoBody,
) -> Result<web::Json<Game>, ApiError> {
    Ok(web::Json(
        invite::decline(&state, &caller, id.into_inner()).await?,
    ))
}

/// The creator cancels a game that has not started: event `game_cancelled`,
/// status `abandoned`; its players are told (`game_finished`).
#[utoipa::path(
    operation_id = "cancel_game",
    tag = "games",
    params(("id" = Uuid, Path, description = "The game id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game, cancelled", body = Game),
        (status = 403, description = "`forbidden`: only the creator may cancel", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`game_not_open`: the game has started or is over", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{id}/cancel")]
pub async fn cancel(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<Uuid>,
    _body: super::body::NoBody,
) -> Result<web::Json<Game>, ApiError> {
    Ok(web::Json(
        cancelling::cancel(&state, &caller, id.into_inner()).await?,
    ))
}

/// The caller resigns (event `player_resigned`, reason `resigned`). The
/// seat is out: the server plays it whenever the game waits on it, and when
/// one seat is left that is not out the game ends by forfeit
/// (`result.outcome` = `forfeit`).
#[utoipa::path(
    operation_id = "resign_game",
    tag = "games",
    params(("id" = Uuid, Path, description = "The game id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game after the resignation", body = Game),
        (status = 403, description = "`not_a_player`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`game_not_open`, `game_finished`, `already_resigned`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{id}/resign")]
pub async fn resign(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<Uuid>,
    _body: super::body::NoBody,
) -> Result<web::Json<Game>, ApiError> {
    Ok(web::Json(
        leave::resign(&state, &caller, id.into_inner()).await?,
    ))
}

/// The caller's seat, which the game waits on, pauses its clock: the
/// deadline moves back by `duration` (event `seat_vacation`). Each seat may
/// take at most `options.max_vacation` over the game.
#[utoipa::path(
    operation_id = "take_vacation",
    tag = "games",
    params(("id" = Uuid, Path, description = "The game id")),
    request_body = VacationRequest,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game with the deadline pushed back", body = Game),
        (status = 400, description = "`bad_request`: not an ISO 8601 duration", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "`not_a_player`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`no_deadline`, `not_your_turn`, `already_resigned`, `game_not_open`, `game_finished`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`vacation_exceeded`: more than `max_vacation` in all", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{id}/vacation")]
pub async fn vacation(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<Uuid>,
    body: super::body::Json<VacationRequest>,
) -> Result<web::Json<Game>, ApiError> {
    Ok(web::Json(
        vacationing::vacation(&state, &caller, id.into_inner(), &body).await?,
    ))
}

/// The game's events as Server-Sent Events, redacted for the caller (a
/// seated player sees their seat's view, anyone else the public one): every
/// event after `Last-Event-ID` (or `after`), then each new one as it is
/// written. Each message is `id: <seq>`, `event: <type>`, `data: <event JSON>`;
/// `: keep-alive` every 15 s of silence.
#[utoipa::path(
    operation_id = "stream_game_events",
    tag = "games",
    params(
        ("id" = Uuid, Path, description = "The game id"),
        ("Last-Event-ID" = Option<i64>, Header, description = "The seq of the last event received"),
        super::extract::StreamQuery,
    ),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "A stream of Server-Sent Events that does not end. Each message is `id: <seq>\nevent: <type>\ndata: <an EventOut, as JSON>\n\n`; a `: keep-alive` comment comes after 15 s without events. Resume with `Last-Event-ID` or `after`.", content_type = "text/event-stream", body = String),
        (status = 401, description = "`unauthenticated`: a token was sent and is not valid", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/stream")]
pub async fn stream(
    state: web::Data<AppState>,
    caller: MaybeCaller,
    id: web::Path<Uuid>,
    req: HttpRequest,
    query: web::Query<super::extract::StreamQuery>,
) -> Result<HttpResponse, ApiError> {
    let after = super::extract::resume_after(&req, query.after)?;
    let events = streams::game(&state, caller.0.as_ref(), id.into_inner(), after).await?;
    Ok(super::extract::event_stream(events))
}
