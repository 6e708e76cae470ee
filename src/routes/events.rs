//! `/v1/games/{id}/events`: the log as the caller may see it, with long polling.

use actix_web::web::Query;
use actix_web::{HttpRequest, get};
use serde::Deserialize;
use utoipa::IntoParams;

use super::problem::problems;
use super::tags::{self, IfNoneMatch, Privacy};
use super::{Answer, GamePath, Id, State};
use crate::auth::MaybeCaller;
use crate::games::events::{self, Window};
use crate::talk::feed::{self, FeedPage};

/// Which events.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Only events with `seq` greater than this (default 0: from the start).
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// At most this many (1–1000, default 100).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<i64>,
    /// When nothing is newer than `after`, wait up to this many seconds (0–60)
    /// for the next event before answering (long poll).
    #[param(maximum = 60)]
    pub wait: Option<u64>,
    /// Also the game's talk the caller reads (docs/talk.md), after this
    /// position: `0` (from the first message) or a message's `cursor` (a
    /// page's `talk.next`). A long poll then answers at the first event or
    /// message for the caller.
    #[param(
        pattern = "^(0|[0-9]{1,18}_[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$",
        example = "0"
    )]
    pub talk_after: Option<String>,
}

/// The game's events after `after`, redacted for the caller (a draw shows its
/// card only to the drawer); with `wait`, a long poll; with `talk_after`,
/// also the messages the caller reads said since.
#[utoipa::path(
    operation_id = "list_events", tag = "games", params(GamePath, EventsQuery, IfNoneMatch),
    security((), ("bearer" = [])),
    responses((status = 200, description = "The events after `after`, as the caller may see them", body = FeedPage, headers(("ETag" = String, description = "This viewer's tag of this page"), ("Cache-Control" = String, description = "`private, no-store` (a seat's events show its cards)"), ("Vary" = String, description = "`Authorization`"))), (status = 304, description = "Unchanged for this viewer; no body"), ListEventsProblems)
)]
#[get("/games/{id}/events")]
pub async fn list(
    state: State,
    caller: MaybeCaller,
    address: super::client::ClientAddress,
    id: Id,
    query: Query<EventsQuery>,
    req: HttpRequest,
) -> Answer {
    let q = query.into_inner();
    let viewer = caller.0.as_ref().map(|c| c.user_id);
    // A long poll holds its place among the streams until it answers.
    let _held = if q.wait.unwrap_or(0) > 0 {
        super::client::hold_stream(&state, caller.0.as_ref(), address.0)?
    } else {
        None
    };
    let window = Window {
        after: q.after.unwrap_or(0),
        limit: q.limit.unwrap_or(100),
        wait: q.wait.unwrap_or(0),
    };
    let page = match q.talk_after.as_deref() {
        Some(talk_after) => {
            feed::events(&state, viewer, id.into_inner(), window, talk_after).await?
        }
        None => FeedPage::without_talk(
            events::list(
                &state,
                viewer,
                id.into_inner(),
                window.after,
                window.limit,
                window.wait,
            )
            .await?,
        ),
    };
    tags::json(
        &req,
        &state.view_tags,
        "list_events",
        viewer,
        Privacy::Hidden,
        &page,
    )
}

problems! {
    /// What `list_events` answers besides the common problems.
    ListEventsProblems {
        BadRequest: "bad parameters (a `talk_after` that is not `0` nor a cursor)",
        LimitReached: "a long poll beyond the streams and long polls open at once",
    }
}
