//! `/v1/me`: the caller's own games — the play-by-mail inbox — and what the
//! caller is told: notifications, their stream, and webhooks.

use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

use super::extract::{StreamQuery, event_stream, resume_after};
use super::problem::{ApiError, Problem};
use super::sse as streams;
use crate::auth::Caller;
use crate::error::Failure;
use crate::games::export;
use crate::games::read::{self, Filter, GamePage};
use crate::games::{GameStatus, Turn};
use crate::notifications::inbox::{self, NotificationPage};
use crate::notifications::webhooks::{self, CreatedWebhook, NewWebhook, Webhook};
use crate::record::verify::AuditDocument;
use crate::state::AppState;
use futures_util::TryStreamExt;

/// Which of the caller's games.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MyGamesQuery {
    /// `mine`: only the games waiting for the caller (the inbox).
    #[param(value_type = Option<Turn>, inline)]
    pub turn: Option<String>,
    /// `open`, `active`, `finished` or `abandoned`.
    #[param(value_type = Option<GameStatus>)]
    pub status: Option<String>,
    /// 1–100, default 20.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// The caller's games, newest first; `turn=mine` lists only the games whose
/// `to_act` includes the caller's seat.
#[utoipa::path(
    operation_id = "list_my_games",
    tag = "games",
    params(MyGamesQuery),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "A page of the caller's games", body = GamePage),
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
            return Err(ApiError(Failure::bad_request(format!(
                "turn must be \"mine\", not {other:?}"
            ))));
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
            viewer: Some(caller.user_id),
        },
    )
    .await?;
    Ok(web::Json(page))
}

/// From where to export.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// Only games that ended strictly after this RFC 3339 time: the
    /// `finished_at` of the last line of the previous export.
    #[param(example = "2026-11-24T10:00:00.123456Z")]
    pub since: Option<String>,
}

/// Every game the caller played that is over (finished or abandoned), as
/// JSON Lines of audit documents (`application/x-ndjson`), oldest end
/// first, streamed. Each line is a complete audit that `hatstand verify`
/// checks on its own; its `finished_at` is the cursor for the next export.
#[utoipa::path(
    operation_id = "export_my_games",
    tag = "audit",
    params(ExportQuery),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "One audit document per line", body = AuditDocument, content_type = "application/x-ndjson"),
        (status = 400, description = "`bad_request`: `since` is not an RFC 3339 time", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/me/games/export")]
pub async fn export_games(
    state: web::Data<AppState>,
    caller: Caller,
    query: web::Query<ExportQuery>,
) -> Result<HttpResponse, ApiError> {
    let since = export::parse_since(query.since.as_deref())?;
    let lines =
        export::lines(state.pool.clone(), Some(caller.user_id), since).map_ok(web::Bytes::from);
    Ok(HttpResponse::Ok()
        .content_type("application/x-ndjson")
        .streaming(lines))
}

/// Which notifications.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct NotificationsQuery {
    /// Only notifications with a greater id (default 0).
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// 1–100, default 100.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

/// The caller's notifications (`your_turn`, `game_finished`, `invited`),
/// oldest first, each as webhooks receive it. Notifications are kept 30
/// days; a cursor into what was pruned answers `410 cursor_expired`.
#[utoipa::path(
    operation_id = "list_notifications",
    tag = "notifications",
    params(NotificationsQuery),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "A page of the caller's notifications, oldest first", body = NotificationPage),
        (status = 410, description = "`cursor_expired`: notifications after `after` may have been pruned (kept 30 days); fetch again from `after=0`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/me/notifications")]
pub async fn notifications(
    state: web::Data<AppState>,
    caller: Caller,
    query: web::Query<NotificationsQuery>,
) -> Result<web::Json<NotificationPage>, ApiError> {
    let notifications = inbox::notifications(
        &state,
        caller.user_id,
        query.after.unwrap_or(0),
        query.limit.unwrap_or(inbox::MAX_NOTIFICATIONS),
    )
    .await?;
    Ok(web::Json(NotificationPage { notifications }))
}

/// The caller's notifications as Server-Sent Events: those after
/// `Last-Event-ID` (or `after`), then each new one as it happens, in any
/// server process. Each message is `id: <notification id>`, `event: <type>`
/// (`your_turn`, `game_finished`, `invited`), `data: <the webhook payload>`;
/// `: keep-alive` every 15 s of silence.
#[utoipa::path(
    operation_id = "stream_notifications",
    tag = "notifications",
    params(
        ("Last-Event-ID" = Option<i64>, Header, description = "The id of the last notification received"),
        StreamQuery,
    ),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "A stream of Server-Sent Events that does not end. Each message is `id: <notification id>\nevent: <type>\ndata: <a WebhookPayload, as JSON>\n\n`; a `: keep-alive` comment comes after 15 s without notifications. Resume with `Last-Event-ID` or `after`.", content_type = "text/event-stream", body = String),
        (status = 410, description = "`cursor_expired`: notifications after `Last-Event-ID` may have been pruned; reconnect without it and refetch", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/me/stream")]
pub async fn stream(
    state: web::Data<AppState>,
    caller: Caller,
    req: HttpRequest,
    query: web::Query<StreamQuery>,
) -> Result<HttpResponse, ApiError> {
    let after = resume_after(&req, query.after)?;
    Ok(event_stream(streams::user(&state, &caller, after).await?))
}

/// Registers a webhook: each of the caller's notifications is POSTed to
/// `url` as a `WebhookPayload`, signed with the returned `secret` (shown
/// only now) in `Hatstand-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret,
/// "<t>.<body>")>`, with `Hatstand-Delivery: <delivery id>`. Delivered at
/// least once: retried with exponential backoff until a 2xx answer.
#[utoipa::path(
    tag = "notifications",
    request_body = NewWebhook,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "The webhook, with its secret (shown only now)", body = CreatedWebhook),
        (status = 400, description = "`bad_request`: not an absolute http(s) URL", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`too_many_webhooks`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/me/webhooks")]
pub async fn create_webhook(
    state: web::Data<AppState>,
    caller: Caller,
    body: super::body::Json<NewWebhook>,
) -> Result<HttpResponse, ApiError> {
    let created = webhooks::create(&state, &caller, body.into_inner()).await?;
    Ok(HttpResponse::Created().json(created))
}

/// The caller's webhooks with their delivery state: attempts, delivered,
/// failing (to be retried), failed (given up), pending, and the latest
/// attempt's status and error.
#[utoipa::path(
    tag = "notifications",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller's webhooks with their delivery state", body = Vec<Webhook>),
    )
)]
#[get("/me/webhooks")]
pub async fn list_webhooks(
    state: web::Data<AppState>,
    caller: Caller,
) -> Result<web::Json<Vec<Webhook>>, ApiError> {
    Ok(web::Json(webhooks::list(&state, &caller).await?))
}

/// Deletes one of the caller's webhooks; its undelivered notifications are dropped.
#[utoipa::path(
    tag = "notifications",
    params(("id" = Uuid, Path, description = "The webhook id")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Deleted"),
        (status = 400, description = "`bad_request`: malformed id", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/me/webhooks/{id}")]
pub async fn delete_webhook(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    webhooks::delete(&state, &caller, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}
