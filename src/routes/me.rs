//! `/v1/me`: the caller's own games — the play-by-mail inbox — and what the
//! caller is told: notifications, their stream, and webhooks.

use actix_web::web::Query;
use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::problem::{ApiError, problems};
use super::request::{StreamQuery, event_stream, resume_after};
use super::sse as streams;
use super::tags::{self, IfNoneMatch, Privacy};
use super::{Answer, Id, Reply, State};
use crate::auth::Caller;
use crate::error::Failure;
use crate::games::export;
use crate::games::read::{self, Filter, GamePage};
use crate::games::{GameStatus, Turn};
use crate::notifications::inbox::{self, NotificationPage};
use crate::notifications::webhooks::{self, CreatedWebhook, NewWebhook, Webhook};
use crate::record::verify::AuditDocument;
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
    #[param(
        pattern = "^-?[0-9]{1,18}_[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
    )]
    pub cursor: Option<String>,
}

/// The caller's games, newest first; `turn=mine` lists only the games whose
/// `to_act` includes the caller's seat.
#[utoipa::path(
    operation_id = "list_my_games", tag = "games", params(MyGamesQuery, IfNoneMatch), security(("bearer" = [])),
    responses((status = 200, description = "A page of the caller's games", body = GamePage, headers(("ETag" = String, description = "The caller's tag of this page"), ("Cache-Control" = String, description = "`private, no-cache`"), ("Vary" = String, description = "`Authorization`"))), (status = 304, description = "Unchanged for the caller; no body"))
)]
#[get("/me/games")]
pub async fn games(
    state: State,
    caller: Caller,
    query: Query<MyGamesQuery>,
    req: HttpRequest,
) -> Answer {
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
    let viewer = Some(caller.user_id);
    tags::json(
        &req,
        &state.view_tags,
        "list_my_games",
        viewer,
        Privacy::PerViewer,
        &page,
    )
}

/// From where to export.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// Only games that ended strictly after this RFC 3339 time: the
    /// `finished_at` of the last line of the previous export.
    #[param(example = "2026-11-24T10:00:00.123456Z")]
    #[param(format = DateTime)]
    pub since: Option<String>,
}

/// Every game the caller played that is over (finished or abandoned), as
/// JSON Lines of audit documents (`application/x-ndjson`), oldest end
/// first, streamed. Each line is a complete audit that `hatstand verify`
/// checks on its own; its `finished_at` is the cursor for the next export.
#[utoipa::path(
    operation_id = "export_my_games", tag = "audit", params(ExportQuery), security(("bearer" = [])),
    responses((status = 200, description = "One audit document per line", body = AuditDocument, content_type = "application/x-ndjson"), ExportMyGamesProblems)
)]
#[get("/me/games/export")]
pub async fn export_games(state: State, caller: Caller, query: Query<ExportQuery>) -> Answer {
    let since = export::parse_since(query.since.as_deref())?;
    let lines = export::lines(
        state.pool.clone(),
        state.signer.clone(),
        Some(caller.user_id),
        since,
    )
    .map_ok(web::Bytes::from);
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
    operation_id = "list_notifications", tag = "notifications", params(NotificationsQuery, IfNoneMatch),
    security(("bearer" = [])),
    responses((status = 200, description = "A page of the caller's notifications, oldest first", body = NotificationPage, headers(("ETag" = String, description = "The caller's tag of this page"), ("Cache-Control" = String, description = "`private, no-cache`"), ("Vary" = String, description = "`Authorization`"))), (status = 304, description = "Unchanged for the caller; no body"), ListNotificationsProblems)
)]
#[get("/me/notifications")]
pub async fn notifications(
    state: State,
    caller: Caller,
    query: Query<NotificationsQuery>,
    req: HttpRequest,
) -> Answer {
    let notifications = inbox::notifications(
        &state,
        caller.user_id,
        query.after.unwrap_or(0),
        query.limit.unwrap_or(inbox::MAX_NOTIFICATIONS),
    )
    .await?;
    let page = NotificationPage { notifications };
    let viewer = Some(caller.user_id);
    tags::json(
        &req,
        &state.view_tags,
        "list_notifications",
        viewer,
        Privacy::PerViewer,
        &page,
    )
}

/// The caller's notifications as Server-Sent Events: those after
/// `Last-Event-ID` (or `after`), then each new one as it happens, in any
/// server process. Each message is `id: <notification id>`, `event: <type>`
/// (`your_turn`, `game_finished`, `invited`), `data: <the webhook payload>`;
/// `: keep-alive` every 15 s of silence.
#[utoipa::path(
    operation_id = "stream_notifications", tag = "notifications",
    params(("Last-Event-ID" = Option<i64>, Header, nullable = false, description = "The id of the last notification received"), StreamQuery),
    security(("bearer" = [])),
    responses((status = 200, description = "A stream of Server-Sent Events that does not end. Each message is `id: <notification id>\nevent: <type>\ndata: <a WebhookPayload, as JSON>\n\n`; a `: keep-alive` comment comes after 15 s without notifications. Resume with `Last-Event-ID` or `after`.", content_type = "text/event-stream", body = String), StreamNotificationsProblems)
)]
#[get("/me/stream")]
pub async fn stream(
    state: State,
    caller: Caller,
    req: HttpRequest,
    query: Query<StreamQuery>,
) -> Answer {
    let after = resume_after(&req, query.after)?;
    let held = super::client::hold_stream(&state, Some(&caller), None)?;
    let notes = streams::user(&state, &caller, after).await?;
    Ok(event_stream(super::client::holding(notes, held)))
}

/// Registers a webhook: each of the caller's notifications is POSTed to
/// `url` as a `WebhookPayload`, signed with the returned `secret` (shown
/// only now) in `Hatstand-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret,
/// "<t>.<body>")>`, with `Hatstand-Delivery: <delivery id>`. Delivered at
/// least once: retried with exponential backoff until a 2xx answer.
#[utoipa::path(
    tag = "notifications", request_body = NewWebhook, security(("bearer" = [])),
    responses((status = 201, description = "The webhook, with its secret (shown only now)", body = CreatedWebhook), CreateWebhookProblems)
)]
#[post("/me/webhooks")]
pub async fn create_webhook(
    state: State,
    caller: Caller,
    body: super::strict_json::Json<NewWebhook>,
) -> Answer {
    let created = webhooks::create(&state, &caller, body.into_inner()).await?;
    Ok(HttpResponse::Created().json(created))
}

/// The caller's webhooks with their delivery state: attempts, delivered,
/// failing (to be retried), failed (given up), pending, and the latest
/// attempt's status and error.
#[utoipa::path(
    tag = "notifications", security(("bearer" = [])),
    responses((status = 200, description = "The caller's webhooks with their delivery state", body = Vec<Webhook>))
)]
#[get("/me/webhooks")]
pub async fn list_webhooks(state: State, caller: Caller) -> Reply<Vec<Webhook>> {
    Ok(web::Json(webhooks::list(&state, &caller).await?))
}

/// Deletes one of the caller's webhooks; its undelivered notifications are dropped.
#[utoipa::path(
    tag = "notifications", params(("id" = Uuid, Path, description = "The webhook id")),
    security(("bearer" = [])),
    responses((status = 204, description = "Deleted"), DeleteWebhookProblems)
)]
#[delete("/me/webhooks/{id}")]
pub async fn delete_webhook(state: State, caller: Caller, id: Id) -> Answer {
    webhooks::delete(&state, &caller, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}

problems! {
    /// What `export_my_games` answers besides the common problems.
    ExportMyGamesProblems { BadRequest: "`since` is not an RFC 3339 time" }
    /// What `list_notifications` answers besides the common problems.
    ListNotificationsProblems {
        CursorExpired: "notifications after `after` may have been pruned (kept 30 days); fetch again from `after=0`",
    }
    /// What `stream_notifications` answers besides the common problems.
    StreamNotificationsProblems {
        CursorExpired: "notifications after `Last-Event-ID` may have been pruned; reconnect without it and refetch",
        LimitReached: "as many streams and long polls open as a user may have",
    }
    /// What `create_webhook` answers besides the common problems.
    CreateWebhookProblems { BadRequest: "not an absolute http(s) URL", TooManyWebhooks }
    /// What `delete_webhook` answers besides the common problems.
    DeleteWebhookProblems { BadRequest: "malformed id" }
}
