//! A game's events as one viewer may see them, with long polling: a client
//! asks for the events after the last one it has and may wait (up to 60 s)
//! for the next one instead of polling.

use std::time::Duration;

use hatstand_engine::{Ruleset, Viewer, with_ruleset};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::time::Instant;
use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;
use uuid::Uuid;

use super::kind_of;
use super::public::{public_options, viewer_for};
use super::wire_types::AnyEvent;
use crate::context::Context;
use crate::error::Failure;
use crate::record::chain::LoggedEvent;
use crate::record::codec::{event_from_parts, split_tagged, to_json};
use crate::record::server_event::ServerEvent;

/// The longest a request may wait for a new event.
pub const MAX_WAIT_SECONDS: u64 = 60;
/// The most events one page holds.
pub const MAX_PAGE: i64 = 1000;

/// An event as a viewer sees it. Its schema is the union of every event's
/// (`type`, `kind` and `data`, with `seq` and `at`), discriminated by
/// `kind`; see `wire_types` and `openapi::wire`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct EventOut {
    /// Its position in the log (1-based); the game's version after it.
    pub seq: i64,
    /// The event type (`game_created`, `player_joined`, `game_started`, or the ruleset's).
    #[serde(rename = "type")]
    pub kind: String,
    /// The type qualified by its ruleset (`hats.dealt`: see [`qualified`]),
    /// one value per shape of `data` in the whole API, so that a client
    /// narrows an event by this field alone. Added beside `type`, which
    /// stays for older clients.
    #[serde(rename = "kind")]
    pub qualified: String,
    /// What this viewer may see of it.
    pub data: Value,
    /// When it was recorded (RFC 3339 UTC, microseconds).
    pub at: String,
}

impl utoipa::PartialSchema for EventOut {
    /// `anyOf` the server's and the rulesets' events; `openapi::EventFields`
    /// adds `seq` and `at` to each of them.
    fn schema() -> RefOr<Schema> {
        AnyEvent::schema()
    }
}

impl ToSchema for EventOut {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        AnyEvent::schemas(schemas);
    }
}

/// A page of events.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EventsPage {
    pub events: Vec<EventOut>,
    /// The game's version when the page was read.
    pub version: i64,
}

/// An event's `kind`: a server event's type as it is (the server's events
/// are the same in every ruleset: `game_created`), an engine's qualified by
/// its ruleset (`hats.dealt`, `top-hats.stack_built`), since two rulesets
/// may name different events alike.
#[must_use]
pub fn qualified(ruleset: &str, kind: &str) -> String {
    if crate::record::server_event::is_server_event(kind) {
        kind.to_owned()
    } else {
        format!("{ruleset}.{kind}")
    }
}

/// What `viewer` may see of one logged event.
///
/// # Errors
/// `internal` for an event that does not parse.
pub fn redact_one<R: Ruleset>(event: &LoggedEvent, viewer: Viewer) -> Result<EventOut, Failure> {
    let server = ServerEvent::read(&event.kind, event.schema_version, &event.data)
        .map_err(|e| Failure::internal(format!("event {}: {e}", event.seq)))?;
    let (kind, data) = match server {
        Some(ServerEvent::GameCreated(mut created)) if !viewer.is_auditor() => {
            created.options = public_options(&created.options, None);
            ServerEvent::GameCreated(created)
                .to_parts()
                .map_err(Failure::internal)?
        }
        Some(server) => server.to_parts().map_err(Failure::internal)?,
        None => {
            let engine_event = event_from_parts::<R>(&event.kind, &event.data)?;
            split_tagged(to_json(&R::redact(&engine_event, viewer))?)?
        }
    };
    Ok(EventOut {
        seq: event.seq,
        qualified: qualified(R::ID, &kind),
        kind,
        data,
        at: event.created_at.clone(),
    })
}

/// Events of `game` as `viewer` may see them (each one [`redact_one`]).
///
/// # Errors
/// `internal`: the game's ruleset is unknown or an event does not decode.
pub fn redact_all(
    game: &crate::db::games::GameRow,
    logged: &[LoggedEvent],
    viewer: Viewer,
) -> Result<Vec<EventOut>, Failure> {
    let kind = kind_of(game)?;
    with_ruleset!(kind, |R| {
        logged.iter().map(|e| redact_one::<R>(e, viewer)).collect()
    })
}

/// The events of game `id` after `after` that `user` may see, at most
/// `limit`; when there are none yet and `wait` > 0, waits up to `wait`
/// seconds for one.
///
/// # Errors
/// `not_found`, `bad_request` for out-of-range parameters.
#[tracing::instrument(skip_all, fields(game = %id, after))]
pub async fn list(
    state: &Context,
    user: Option<Uuid>,
    id: Uuid,
    after: i64,
    limit: i64,
    wait: u64,
) -> Result<EventsPage, Failure> {
    let (page, ()) = list_with(
        state,
        user,
        id,
        Window { after, limit, wait },
        async |_, _| Ok(()),
        |()| false,
    )
    .await?;
    Ok(page)
}

/// Which events a reader asks for: after `after`, at most `limit`, waiting
/// up to `wait` seconds when there are none yet.
#[derive(Debug, Clone, Copy)]
pub struct Window {
    pub after: i64,
    pub limit: i64,
    pub wait: u64,
}

/// [`list`], reading beside the events what `also` reads of the game (its
/// talk, in `talk::feed`) each time the events are read — after the
/// reader's right to watch the game was checked, on the same connection.
/// A long poll answers once there are events after `after` or `ready`
/// holds of what `also` read, or when the wait is over: a wake-up that
/// brings this reader nothing (a message others read) keeps it waiting.
///
/// # Errors
/// `not_found`, `bad_request` for out-of-range parameters; what `also`
/// fails with.
pub async fn list_with<T>(
    state: &Context,
    user: Option<Uuid>,
    id: Uuid,
    window: Window,
    mut also: impl AsyncFnMut(&mut crate::db::Conn, &crate::db::games::LoadedGame) -> Result<T, Failure>,
    ready: impl Fn(&T) -> bool,
) -> Result<(EventsPage, T), Failure> {
    let Window { after, limit, wait } = window;
    if after < 0 {
        return Err(Failure::bad_request("after must be 0 or more"));
    }
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(Failure::bad_request(format!("limit must be 1–{MAX_PAGE}")));
    }
    if wait > MAX_WAIT_SECONDS {
        return Err(Failure::bad_request(format!(
            "wait must be 0–{MAX_WAIT_SECONDS} seconds"
        )));
    }
    let deadline = Instant::now() + Duration::from_secs(wait);
    loop {
        let mut changed = (wait > 0).then(|| state.watch.subscribe(id));
        let mut conn = state.pool.get().await?;
        let loaded = super::stored(&mut conn, id).await?;
        super::watchers::check(&mut conn, &loaded, user).await?;
        let version = loaded.game.version;
        let beside = also(&mut conn, &loaded).await?;
        if version > after || ready(&beside) || changed.is_none() || Instant::now() >= deadline {
            let logged =
                super::read_archived::events(&mut conn, &loaded.game, after, version, limit)
                    .await?;
            drop(conn);
            let viewer = viewer_for(user.and_then(|u| loaded.seat_of(u)));
            let events = redact_all(&loaded.game, &logged, viewer)?;
            return Ok((EventsPage { events, version }, beside));
        }
        drop(conn);
        if let Some(rx) = changed.as_mut() {
            // Woken by a notification, or at the deadline; either way, read again.
            let _held = state.metrics.long_poll();
            let _ = tokio::time::timeout_at(deadline, rx.changed()).await;
        }
    }
}
