//! Server-Sent Events: a game's events as one viewer may see them, and a
//! user's notifications, pushed as they happen (woken by PostgreSQL
//! LISTEN/NOTIFY in every process), resumable with `Last-Event-ID`.
//!
//! Each message is `id: <seq or notification id>\nevent: <type>\ndata: <JSON>\n\n`;
//! a `: keep-alive` comment is sent when nothing was sent for 15 seconds. A
//! game's stream asked for its talk (docs/talk.md) also sends the messages
//! its viewer reads (`event: talk`), and every id is then
//! `<seq>/<talk position>`, so that `Last-Event-ID` resumes both.
//!
//! A wake-up that brings a viewer nothing (a message others read) leaves
//! its stream as it was: nothing is sent, and the keep-alive comes when it
//! would have come anyway. A stream reads once per wake-up (and again only
//! when a page came back full): what it sent, it does not look for again.
//!
//! A stream opened with a token ends once the token's session has ended
//! (logout, password change, deleted user): its session is checked again at
//! every keep-alive and at least every [`SESSION_RECHECK`] while events flow.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::time::{Duration, Instant};

use actix_web::web::Bytes;
use futures_util::Stream;
use serde::Serialize;
use tokio::sync::watch;
use uuid::Uuid;

use crate::auth::Caller;
use crate::context::Context;
use crate::error::Failure;
use crate::games::events::{self, EventOut, Window};
use crate::metrics::Held;
use crate::notifications::inbox::{self, MAX_NOTIFICATIONS};
use crate::talk::feed::{self, FeedPage};

/// How long a stream stays silent before a keep-alive comment.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// How often a stream's session is checked again while events flow.
pub const SESSION_RECHECK: Duration = Duration::from_secs(15);

/// One SSE message.
#[must_use]
pub fn message(id: impl std::fmt::Display, kind: &str, data: &impl Serialize) -> Bytes {
    let json = serde_json::to_string(data).unwrap_or_else(|_| "null".to_owned());
    Bytes::from(format!("id: {id}\nevent: {kind}\ndata: {json}\n\n"))
}

const KEEP_ALIVE_COMMENT: &[u8] = b": keep-alive\n\n";

/// Where a feed reads from.
enum Source {
    Game { id: Uuid, user: Option<Uuid> },
    User { id: Uuid },
}

struct Feed {
    state: Context,
    source: Source,
    after: i64,
    /// A game's stream with its talk: the talk position reached.
    talk: Option<String>,
    changed: watch::Receiver<i64>,
    /// Whether something may be waiting that was not read: a wake-up came,
    /// or the last read's page was full.
    stale: bool,
    pending: VecDeque<Bytes>,
    /// When a keep-alive is due if nothing is sent before.
    quiet_until: tokio::time::Instant,
    /// The token's (session, user), checked again now and then.
    session: Option<(Uuid, Uuid)>,
    checked_at: Instant,
    /// Counts the stream as open (`hatstand_event_streams_open`) while it lives.
    _open: Held,
}

impl Feed {
    /// Whether the stream may go on: no session, or a live one (checked
    /// when `force`d or when the last check is [`SESSION_RECHECK`] old).
    async fn session_holds(&mut self, force: bool) -> bool {
        let Some((session, user)) = self.session else {
            return true;
        };
        if !force && self.checked_at.elapsed() < SESSION_RECHECK {
            return true;
        }
        self.checked_at = Instant::now();
        crate::auth::caller::still_live(&self.state.pool, session, user).await
    }

    /// Reads what is new after `self.after` into `pending`; whether the
    /// page came back full (so that more may be waiting).
    async fn read(&mut self) -> Result<bool, Failure> {
        let full = |n: usize, limit: i64| i64::try_from(n).unwrap_or(i64::MAX) >= limit;
        Ok(match self.source {
            Source::Game { id, user } => match self.talk.clone() {
                None => {
                    let page = events::list(&self.state, user, id, self.after, events::MAX_PAGE, 0)
                        .await?;
                    let more = full(page.events.len(), events::MAX_PAGE);
                    self.push_events(page.events);
                    more
                }
                Some(talk) => {
                    let window = Window {
                        after: self.after,
                        limit: events::MAX_PAGE,
                        wait: 0,
                    };
                    let page = feed::events(&self.state, user, id, window, &talk).await?;
                    // Talk comes a page at a time too: read again after any.
                    let more = full(page.events.len(), events::MAX_PAGE)
                        || page.talk.as_ref().is_some_and(|t| !t.messages.is_empty());
                    self.push_feed(page);
                    more
                }
            },
            Source::User { id } => {
                let notes =
                    inbox::notifications(&self.state, id, self.after, MAX_NOTIFICATIONS).await?;
                let more = full(notes.len(), MAX_NOTIFICATIONS);
                for note in notes {
                    self.after = note.id;
                    self.pending.push_back(message(note.id, &note.kind, &note));
                }
                more
            }
        })
    }

    fn push_events(&mut self, page: Vec<EventOut>) {
        for event in page {
            self.after = event.seq;
            self.pending
                .push_back(message(event.seq, &event.kind, &event));
        }
    }

    /// Events, then messages, each with the positions reached by it.
    fn push_feed(&mut self, page: FeedPage) {
        let mut talk = self.talk.clone().unwrap_or_else(|| feed::START.to_owned());
        for event in page.events {
            self.after = event.seq;
            let id = format!("{}/{talk}", event.seq);
            self.pending.push_back(message(id, &event.kind, &event));
        }
        for said in page.talk.map(|t| t.messages).unwrap_or_default() {
            talk.clone_from(&said.cursor);
            let id = format!("{}/{talk}", self.after);
            self.pending.push_back(message(id, "talk", &said));
        }
        self.talk = Some(talk);
    }
}

async fn next(mut feed: Feed) -> Option<(Result<Bytes, Infallible>, Feed)> {
    loop {
        if !feed.session_holds(false).await {
            return None;
        }
        if let Some(bytes) = feed.pending.pop_front() {
            feed.quiet_until = tokio::time::Instant::now() + KEEP_ALIVE;
            return Some((Ok(bytes), feed));
        }
        if feed.stale {
            match feed.read().await {
                Ok(more) => feed.stale = more,
                Err(e) => {
                    tracing::warn!(error = %e, "a stream ends");
                    return None;
                }
            }
            if !feed.pending.is_empty() {
                continue;
            }
        }
        // Woken for nothing new to this viewer, it waits on for the same
        // keep-alive. A change after the last read is not missed: the
        // receiver has not seen it, so `changed` returns at once.
        match tokio::time::timeout_at(feed.quiet_until, feed.changed.changed()).await {
            Ok(Ok(())) => feed.stale = true,
            Ok(Err(_)) => return None,
            Err(_) if !feed.session_holds(true).await => return None,
            Err(_) => {
                feed.quiet_until = tokio::time::Instant::now() + KEEP_ALIVE;
                return Some((Ok(Bytes::from_static(KEEP_ALIVE_COMMENT)), feed));
            }
        }
    }
}

/// The events of game `id` after `after`, as `viewer` (or a spectator) may
/// see them, then each new one as it is written; with `talk` (a position),
/// also the messages after it that `viewer` reads.
///
/// # Errors
/// `not_found`, `bad_request` (negative `after`, a position not given).
pub async fn game(
    state: &Context,
    viewer: Option<&Caller>,
    id: Uuid,
    after: i64,
    talk: Option<String>,
) -> Result<impl Stream<Item = Result<Bytes, Infallible>> + use<>, Failure> {
    let user = viewer.map(|c| c.user_id);
    let changed = state.watch.subscribe(id);
    let mut feed = Feed {
        state: state.clone(),
        source: Source::Game { id, user },
        after,
        talk,
        changed,
        stale: false,
        pending: VecDeque::new(),
        quiet_until: tokio::time::Instant::now() + KEEP_ALIVE,
        session: viewer.map(|c| (c.session, c.user_id)),
        checked_at: Instant::now(),
        _open: state.metrics.stream(),
    };
    feed.stale = feed.read().await?;
    Ok(futures_util::stream::unfold(feed, next))
}

/// The notifications of `caller` after `after`, then each new one.
///
/// # Errors
/// `bad_request` (negative `after`).
pub async fn user(
    state: &Context,
    caller: &Caller,
    after: i64,
) -> Result<impl Stream<Item = Result<Bytes, Infallible>> + use<>, Failure> {
    let user = caller.user_id;
    if after < 0 {
        return Err(Failure::bad_request("after must be 0 or more"));
    }
    let changed = state.users.subscribe(user);
    let mut feed = Feed {
        state: state.clone(),
        source: Source::User { id: user },
        after,
        talk: None,
        changed,
        stale: false,
        pending: VecDeque::new(),
        quiet_until: tokio::time::Instant::now() + KEEP_ALIVE,
        session: Some((caller.session, caller.user_id)),
        checked_at: Instant::now(),
        _open: state.metrics.stream(),
    };
    feed.stale = feed.read().await?;
    Ok(futures_util::stream::unfold(feed, next))
}
