//! `/v1/games/{id}/talk` and `/v1/me/mutes`: table talk (docs/talk.md).

use actix_web::web::Query;
use actix_web::{HttpResponse, delete, get, post, put, web};
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

use super::problem::problems;
use super::strict_json::NoBody;
use super::{Answer, GamePath, Id, Reply, State};
use crate::auth::{Caller, MaybeCaller};
use crate::talk::messages::{self, SayRequest, TalkMessage, TalkPage};
use crate::talk::moderation::{self, Mutes, ReportRequest};

/// Says something in a game: to the whole table (a seated player), to
/// chosen seats (`press`, when the game was created with `talk: press`), or
/// in the spectators' room (a watcher without a seat; players read it once
/// the game is over). Plain text, 1–1,000 characters, at most
/// `--talk-per-minute` messages a minute in one game. A refusal writes
/// nothing. The message never changes the game (its version, events and
/// tags stay as they were).
///
/// A rule across two fields, which JSON Schema cannot state: `to` names
/// seats only in the `press` room (else 400 `bad_request`).
#[utoipa::path(
    operation_id = "say", tag = "talk", params(GamePath),
    request_body = SayRequest, security(("bearer" = [])),
    responses((status = 201, description = "The message, as its author reads it", body = TalkMessage), SayProblems)
)]
#[post("/games/{id}/talk")]
pub async fn say(
    state: State,
    caller: Caller,
    id: Id,
    body: super::strict_json::Json<SayRequest>,
) -> Answer {
    let message = messages::say(&state, &caller, id.into_inner(), body.into_inner()).await?;
    Ok(HttpResponse::Created().json(message))
}

/// Which part of a game's talk.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct TalkQuery {
    /// A message's `cursor` (or a page's `next`): what was said after it.
    /// Without it, the newest messages.
    #[param(
        pattern = "^[0-9]{1,18}_[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
    )]
    pub after: Option<String>,
    /// 1–100, default 50.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

/// A game's talk as the caller may read it, oldest first: the table; the
/// press of the caller's seat; the spectators' room to a watcher without a
/// seat (to everyone once the game is over); nothing from users the caller
/// muted. Hidden messages keep their place without their text.
#[utoipa::path(
    operation_id = "list_talk", tag = "talk", params(GamePath, TalkQuery),
    security((), ("bearer" = [])),
    responses((status = 200, description = "The messages the caller reads", body = TalkPage), ListTalkProblems)
)]
#[get("/games/{id}/talk")]
pub async fn list(
    state: State,
    caller: MaybeCaller,
    id: Id,
    query: Query<TalkQuery>,
) -> Reply<TalkPage> {
    let q = query.into_inner();
    let viewer = caller.0.map(|c| c.user_id);
    Ok(web::Json(
        messages::list(&state, viewer, id.into_inner(), q.after.as_deref(), q.limit).await?,
    ))
}

/// Reports a message the caller reads, for an operator to judge.
#[utoipa::path(
    operation_id = "report_message", tag = "talk", params(("id" = Uuid, Path, description = "The game id"), ("message" = Uuid, Path, description = "The message id")),
    request_body = ReportRequest, security(("bearer" = [])),
    responses((status = 204, description = "Reported (a second report by the same user keeps the first)"), ReportMessageProblems)
)]
#[post("/games/{id}/talk/{message}/report")]
pub async fn report(
    state: State,
    caller: Caller,
    path: web::Path<(Uuid, Uuid)>,
    body: super::strict_json::Json<ReportRequest>,
) -> Answer {
    let (game, message) = path.into_inner();
    moderation::report(&state, &caller, game, message, &body).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// An operator hides a reported message from everyone; the record keeps
/// that it was hidden, when and by whom.
#[utoipa::path(
    operation_id = "hide_message", tag = "talk", params(("id" = Uuid, Path, description = "The game id"), ("message" = Uuid, Path, description = "The message id")),
    security(("bearer" = [])),
    responses((status = 200, description = "The message, hidden", body = TalkMessage), HideMessageProblems)
)]
#[post("/games/{id}/talk/{message}/hide")]
pub async fn hide(
    state: State,
    caller: Caller,
    path: web::Path<(Uuid, Uuid)>,
    _body: NoBody,
) -> Reply<TalkMessage> {
    let (game, message) = path.into_inner();
    Ok(web::Json(
        moderation::hide(&state, &caller, game, message).await?,
    ))
}

/// The users the caller muted.
#[utoipa::path(
    operation_id = "list_mutes", tag = "talk", security(("bearer" = [])),
    responses((status = 200, description = "The usernames muted", body = Mutes))
)]
#[get("/me/mutes")]
pub async fn mutes(state: State, caller: Caller) -> Reply<Mutes> {
    Ok(web::Json(moderation::mutes(&state, &caller).await?))
}

/// Mutes a user: their messages no longer reach the caller anywhere (a
/// game's talk, streams, notifications, webhooks, mail).
#[utoipa::path(
    operation_id = "mute_user", tag = "talk",
    params(("username" = String, Path, description = "The username (any case)")),
    security(("bearer" = [])),
    responses((status = 200, description = "The usernames muted now", body = Mutes), MuteUserProblems)
)]
#[put("/me/mutes/{username}")]
pub async fn mute(
    state: State,
    caller: Caller,
    username: web::Path<String>,
    _body: NoBody,
) -> Reply<Mutes> {
    Ok(web::Json(
        moderation::mute(&state, &caller, &username, true).await?,
    ))
}

/// Unmutes a user.
#[utoipa::path(
    operation_id = "unmute_user", tag = "talk",
    params(("username" = String, Path, description = "The username (any case)")),
    security(("bearer" = [])),
    responses((status = 200, description = "The usernames muted now", body = Mutes), UnmuteUserProblems)
)]
#[delete("/me/mutes/{username}")]
pub async fn unmute(state: State, caller: Caller, username: web::Path<String>) -> Reply<Mutes> {
    Ok(web::Json(
        moderation::mute(&state, &caller, &username, false).await?,
    ))
}

problems! {
    /// What `say` answers besides the common problems.
    SayProblems {
        BadRequest: "malformed body, empty text, control characters, `to` outside press",
        NotFound: "no game the caller may watch",
        NotAPlayer: "table or press talk without a seat",
        TalkNotAllowed, AudienceNotASeat, MessageTooLong, Muted,
        LimitReached: "more messages in this game in a minute than `--talk-per-minute`",
    }
    /// What `list_talk` answers besides the common problems.
    ListTalkProblems {
        BadRequest: "malformed id, cursor or limit",
        NotFound: "no game the caller may watch",
    }
    /// What `report_message` answers besides the common problems.
    ReportMessageProblems {
        BadRequest: "malformed ids or body, a reason over 500 characters",
        NotFound: "no such message the caller reads",
    }
    /// What `hide_message` answers besides the common problems.
    HideMessageProblems {
        BadRequest: "malformed ids",
        Forbidden: "the caller is not an operator",
        NotFound: "no such message",
        NotReported,
    }
    /// What `mute_user` answers besides the common problems.
    MuteUserProblems { Forbidden: "muting oneself", NotFound: "no user of that name" }
    /// What `unmute_user` answers besides the common problems.
    UnmuteUserProblems {
        BadRequest: "a malformed name",
        Forbidden: "unmuting oneself",
        NotFound: "no user of that name",
    }
}
