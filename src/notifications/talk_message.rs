//! A table-talk message as its reader sees it: the one shape the game's
//! talk, its feed, the `talk` notification, turn mails and webhooks carry.
//! Who may read which message is `talk`'s rule; this is only the shape.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::db::talk::MessageRow;
use crate::record::chain::format_time;
use crate::record::talk::Room;

/// Who said a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TalkAuthor {
    pub user_id: Uuid,
    #[schema(example = "ann")]
    pub username: String,
    /// The author's seat (none: a spectator).
    pub seat: Option<u8>,
}

/// A message, as its reader may see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"id": "0b9e1c4a-6f1e-4f57-9a55-3f1d8c0e2a71", "game_id": "6f1e0b9e-1c4a-4f57-9a55-3f1d8c0e2a71", "room": "table", "to": [], "from": {"user_id": "1c4a0b9e-6f1e-4f57-9a55-3f1d8c0e2a71", "username": "ann", "seat": 0}, "text": "Good luck, all.", "hidden": false, "at": "2026-12-07T10:00:00.000000Z", "cursor": "1796637600000000_0b9e1c4a-6f1e-4f57-9a55-3f1d8c0e2a71"}))]
pub struct TalkMessage {
    /// Random: ids say nothing of the messages a reader is not shown.
    pub id: Uuid,
    pub game_id: Uuid,
    pub room: Room,
    /// The seats a press message is addressed to (empty otherwise).
    pub to: Vec<u8>,
    pub from: TalkAuthor,
    /// The text, plain; none once an operator hid the message.
    pub text: Option<String>,
    /// Hidden by an operator after a report.
    pub hidden: bool,
    /// When it was said (RFC 3339, microseconds).
    pub at: String,
    /// The position after this message: `after` for the next page.
    pub cursor: String,
}

impl TalkMessage {
    /// The message of `row` as shown (hidden: without its text).
    #[must_use]
    pub fn of(row: &MessageRow) -> Self {
        TalkMessage {
            id: row.id,
            game_id: row.game_id,
            room: Room::parse(&row.room).unwrap_or(Room::Table),
            to: seats(&row.to_seats),
            from: TalkAuthor {
                user_id: row.author,
                username: row.author_name.clone(),
                seat: row.author_seat.and_then(|s| u8::try_from(s).ok()),
            },
            text: row.hidden_at.is_none().then(|| row.body.clone()),
            hidden: row.hidden_at.is_some(),
            at: format_time(row.created_at),
            cursor: cursor(row.created_at, row.id),
        }
    }
}

/// The seats of a stored list (`int2[]`), as the API numbers them.
#[must_use]
pub fn seats(stored: &[i16]) -> Vec<u8> {
    stored
        .iter()
        .filter_map(|s| u8::try_from(*s).ok())
        .collect()
}

/// A page position: microseconds since 1970, `_`, the message id.
#[must_use]
pub fn cursor(at: DateTime<Utc>, id: Uuid) -> String {
    format!("{}_{id}", at.timestamp_micros())
}
