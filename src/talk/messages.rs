//! Saying something in a game, and reading what one may read of its talk.

use chrono::{DateTime, Utc};
use diesel_async::AsyncConnection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::{Room, Said, TalkRules, check_audience, check_text, reads};
use crate::auth::Caller;
use crate::auth::limits::retry_after;
use crate::context::Context;
use crate::db::games::{self, LoadedGame};
use crate::db::talk::{self as rows, MessageRow, NewMessage, Reader};
use crate::error::{ErrorCode, Failure};
use crate::games::{status, watchers};
pub use crate::notifications::talk_message::{TalkAuthor, TalkMessage, cursor, seats};

/// Something to say.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"room": "press", "to": [2], "text": "Shall we keep hearts from seat 1?"}))]
pub struct SayRequest {
    /// `table` (default), `press` (to the seats in `to`) or `spectators`.
    #[serde(default = "table")]
    pub room: Room,
    /// With `press`: the seats addressed (other than the author's). A
    /// number that is no seat of the game is `audience_not_a_seat`.
    #[serde(default)]
    #[schema(max_items = 5)]
    pub to: Vec<i64>,
    /// Plain text, 1–1,000 characters; never rendered as markup.
    #[schema(max_length = 1000, example = "Good luck, all.")]
    pub text: String,
}

const fn table() -> Room {
    Room::Table
}

/// A page of talk, oldest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TalkPage {
    pub messages: Vec<TalkMessage>,
    /// Pass as `after` for what is said next (the last message's cursor, or
    /// the `after` given when there is none).
    pub next: Option<String>,
}

/// The most messages one page holds.
pub const MAX_PAGE: i64 = 100;
/// Messages per page unless asked otherwise.
pub const DEFAULT_PAGE: i64 = 50;

/// The pattern of a cursor, as the document declares it.
pub const CURSOR_PATTERN: &str =
    "^[0-9]{1,18}_[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

/// The (time, id) of a cursor.
///
/// # Errors
/// `bad_request`: not a cursor this server gave.
pub fn parse_cursor(text: &str) -> Result<(DateTime<Utc>, Uuid), Failure> {
    let bad = || Failure::bad_request("after is not a cursor this server gave");
    let (micros, id) = text.split_once('_').ok_or_else(bad)?;
    if !(1..=18).contains(&micros.len()) || !micros.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let at = DateTime::from_timestamp_micros(micros.parse().map_err(|_| bad())?).ok_or_else(bad)?;
    Ok((at, id.parse().map_err(|_| bad())?))
}

/// Whether the game is over (finished or abandoned).
#[must_use]
pub fn over(loaded: &LoadedGame) -> bool {
    loaded.game.status == status::FINISHED || loaded.game.status == status::ABANDONED
}

/// A fresh salt for a message's commitment: 16 random bytes, as hex.
fn salt() -> String {
    let mut bytes = [0u8; 16];
    rand::fill(&mut bytes);
    hex::encode(bytes)
}

/// Loads game `id` for `user`, who must be allowed to watch it.
///
/// # Errors
/// `not_found`; database errors.
pub(super) async fn watched(
    conn: &mut crate::db::Conn,
    id: Uuid,
    user: Option<Uuid>,
) -> Result<LoadedGame, Failure> {
    let loaded = games::load(conn, id, None, None)
        .await?
        .ok_or_else(crate::games::no_such_game)?;
    watchers::check(conn, &loaded, user).await?;
    Ok(loaded)
}

/// The caller says something in game `id`. Nothing is written when it is
/// refused.
///
/// # Errors
/// `not_found` (no game the caller may watch), `talk_not_allowed`,
/// `not_a_player`, `audience_not_a_seat`, `message_too_long`,
/// `bad_request`, `muted` (every addressed seat muted the caller),
/// `limit_reached` (`talk_per_minute` in this game).
#[tracing::instrument(skip_all, fields(game = %id))]
pub async fn say(
    ctx: &Context,
    caller: &Caller,
    id: Uuid,
    request: SayRequest,
) -> Result<TalkMessage, Failure> {
    check_text(&request.text)?;
    let mut conn = ctx.pool.get().await?;
    let loaded = watched(&mut conn, id, Some(caller.user_id)).await?;
    let rules = TalkRules::of(&loaded.game);
    let seat = loaded.seat_of(caller.user_id);
    // A number past any seat reads as 255, which no game has.
    let named: Vec<u8> = request
        .to
        .iter()
        .map(|&s| u8::try_from(s).unwrap_or(u8::MAX))
        .collect();
    let to = check_audience(rules, seat, request.room, &named)?;
    if request.room == Room::Press {
        let addressed: Vec<Uuid> = loaded
            .seats
            .iter()
            .filter(|s| u8::try_from(s.seat).is_ok_and(|n| to.contains(&n)))
            .map(|s| s.user_id)
            .collect();
        if addressed.len() != to.len() {
            return Err(Failure::new(
                ErrorCode::AudienceNotASeat,
                "a seat addressed is not taken yet",
            ));
        }
        if rows::muted_by_all(&mut conn, caller.user_id, &addressed).await? {
            return Err(Failure::new(
                ErrorCode::Muted,
                "every seat you address has muted you",
            ));
        }
    }
    let now = crate::record::chain::now();
    let to_seats: Vec<i16> = to.iter().map(|s| i16::from(*s)).collect();
    let salt = salt();
    let message = NewMessage {
        game_id: id,
        id: Uuid::new_v4(),
        author: caller.user_id,
        author_seat: seat.map(i16::from),
        room: request.room.as_str(),
        to_seats: &to_seats,
        body: &request.text,
        salt: &salt,
        at: now,
    };
    let key = [(
        format!("talk:{id}:{}", caller.user_id),
        ctx.cost_limits.talk,
    )];
    let (row, told) = conn
        .transaction::<_, Failure, _>(async |conn| {
            if let Some(until) = crate::db::throttle::reserve(conn, &key, now).await? {
                return Err(Failure::limit_reached(
                    "you have said as much in this game as you may in a minute",
                    retry_after(until, now),
                ));
            }
            rows::insert(conn, &message).await?;
            let row = rows::find(conn, id, message.id)
                .await?
                .ok_or_else(|| Failure::internal("a message just written is not found"))?;
            let told = super::delivery::tell(conn, &loaded, &row).await?;
            Ok((row, told))
        })
        .await?;
    ctx.announcer.tell(&told);
    // The game's long polls and streams read again (its version unchanged).
    ctx.announcer.announce(id, loaded.game.version, false);
    Ok(TalkMessage::of(&row))
}

/// The talk of game `id` that `viewer` (none: signed out) may read: after
/// `after`, or else the newest; oldest first; at most `limit` (1–100,
/// default 50).
///
/// # Errors
/// `not_found`, `bad_request`.
#[tracing::instrument(skip_all, fields(game = %id))]
pub async fn list(
    ctx: &Context,
    viewer: Option<Uuid>,
    id: Uuid,
    after: Option<&str>,
    limit: Option<i64>,
) -> Result<TalkPage, Failure> {
    let limit = limit.unwrap_or(DEFAULT_PAGE);
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(Failure::bad_request(format!("limit is 1 to {MAX_PAGE}")));
    }
    let after = after.map(parse_cursor).transpose()?;
    let mut conn = ctx.pool.get().await?;
    let loaded = watched(&mut conn, id, viewer).await?;
    let reader = reader(&loaded, viewer);
    let found = rows::list(&mut conn, id, reader, after, limit).await?;
    Ok(page(&loaded, viewer, &found, after))
}

/// Who `viewer` is as a reader of `loaded`'s talk.
#[must_use]
pub fn reader(loaded: &LoadedGame, viewer: Option<Uuid>) -> Reader {
    Reader {
        user: viewer,
        seat: viewer.and_then(|u| loaded.seat_of(u)).map(i16::from),
        over: over(loaded),
        press_revealed: TalkRules::of(&loaded.game).press_revealed_at_end,
    }
}

/// Whether `viewer` reads `row` (the statement already chose so; checked
/// again here, by the rules themselves).
#[must_use]
pub fn readable(loaded: &LoadedGame, viewer: Option<Uuid>, row: &MessageRow) -> bool {
    let to = seats(&row.to_seats);
    let said = Said {
        room: Room::parse(&row.room).unwrap_or(Room::Press),
        author_seat: row.author_seat.and_then(|s| u8::try_from(s).ok()),
        to: &to,
    };
    let seat = viewer.and_then(|u| loaded.seat_of(u));
    reads(TalkRules::of(&loaded.game), said, seat, over(loaded))
}

fn page(
    loaded: &LoadedGame,
    viewer: Option<Uuid>,
    found: &[MessageRow],
    after: Option<(DateTime<Utc>, Uuid)>,
) -> TalkPage {
    let messages: Vec<TalkMessage> = found
        .iter()
        .filter(|row| readable(loaded, viewer, row))
        .map(TalkMessage::of)
        .collect();
    let next = messages
        .last()
        .map(|m| m.cursor.clone())
        .or_else(|| after.map(|(at, id)| cursor(at, id)));
    TalkPage { messages, next }
}
