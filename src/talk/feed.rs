//! Talk in the game's own feed: its long poll (`GET /v1/games/{id}/events`)
//! and its event stream (`GET /v1/games/{id}/stream`) carry, beside the
//! game's events, the messages their reader reads — by the rules and the
//! statement of `GET /v1/games/{id}/talk`: the table; the press of the
//! reader's seat; the spectators' room to a watcher without a seat (to
//! everyone once the game is over); nothing of a user the reader muted.
//!
//! Rules:
//! - Talk comes only when asked for (`talk_after`): a reader who does not
//!   ask gets the game's events exactly as before.
//! - A position in the talk is [`START`] (`0`, before the first message) or
//!   a message's `cursor`; what comes after it is what the reader reads,
//!   oldest first, at most [`MAX_PAGE`] at a time.
//! - A message someone else reads wakes the game's long polls and streams
//!   (as a move does); each reads again, finds nothing for its reader and
//!   goes on waiting: its answer, its time and its keep-alives are those it
//!   would have had without that message. Message ids are random and
//!   positions are times, so nothing counts what a reader was not shown.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::messages::{MAX_PAGE, TalkMessage, TalkPage, parse_cursor, readable, reader};
use crate::context::Context;
use crate::db::talk as rows;
use crate::error::Failure;
use crate::games::events::{self, EventOut, EventsPage, Window};

/// The position before a game's first message.
pub const START: &str = "0";

/// The pattern of a position, as the document declares it.
pub const POSITION_PATTERN: &str =
    "^(0|[0-9]{1,18}_[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$";

/// A page of a game's events as the caller may see them, and, when asked
/// for with `talk_after`, the talk the caller reads after that position.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = EventsPage)]
pub struct FeedPage {
    pub events: Vec<EventOut>,
    /// The game's version when the page was read.
    pub version: i64,
    /// Only with `talk_after`: the messages after it the caller reads
    /// (oldest first, at most 100), and `next`, the position to ask from
    /// next time (`talk_after` itself when nothing new was said).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub talk: Option<TalkPage>,
}

impl FeedPage {
    /// The events alone (no talk asked for).
    #[must_use]
    pub fn without_talk(page: EventsPage) -> Self {
        FeedPage {
            events: page.events,
            version: page.version,
            talk: None,
        }
    }
}

/// The (time, id) after which a position's messages come.
///
/// # Errors
/// `bad_request`: not `0` nor a cursor this server gave.
pub fn position(text: &str) -> Result<(DateTime<Utc>, Uuid), Failure> {
    if text == START {
        return Ok((DateTime::UNIX_EPOCH, Uuid::nil()));
    }
    parse_cursor(text)
        .map_err(|_| Failure::bad_request("talk_after is 0 or a message's cursor this server gave"))
}

/// The events of game `id` in `window` that `viewer` may see, with the
/// messages after `talk_after` that `viewer` reads; a long poll (the
/// window's `wait`) answers once there is either, or at the end of the wait.
///
/// # Errors
/// `not_found`, `bad_request`.
#[tracing::instrument(skip_all, fields(game = %id))]
pub async fn events(
    ctx: &Context,
    viewer: Option<Uuid>,
    id: Uuid,
    window: Window,
    talk_after: &str,
) -> Result<FeedPage, Failure> {
    let after = position(talk_after)?;
    let (page, said) = events::list_with(
        ctx,
        viewer,
        id,
        window,
        async |conn, loaded| {
            let found = rows::list(conn, id, reader(loaded, viewer), Some(after), MAX_PAGE).await?;
            Ok(found
                .iter()
                .filter(|row| readable(loaded, viewer, row))
                .map(TalkMessage::of)
                .collect::<Vec<_>>())
        },
        |said| !said.is_empty(),
    )
    .await?;
    let next = said
        .last()
        .map_or_else(|| talk_after.to_owned(), |m| m.cursor.clone());
    Ok(FeedPage {
        events: page.events,
        version: page.version,
        talk: Some(TalkPage {
            messages: said,
            next: Some(next),
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_a_position_when_read_then_zero_is_the_start_and_a_cursor_its_place() {
        let (at, id) = position(START).unwrap();
        assert_eq!((at.timestamp_micros(), id), (0, Uuid::nil()));
        let id = Uuid::new_v4();
        let given =
            super::super::messages::cursor(DateTime::from_timestamp_micros(17).unwrap(), id);
        assert_eq!(
            position(&given).unwrap(),
            (DateTime::from_timestamp_micros(17).unwrap(), id)
        );
        for bad in ["", "00", "-1_x", "1_not-a-uuid", "1"] {
            assert!(position(bad).is_err(), "{bad}");
        }
    }
}
