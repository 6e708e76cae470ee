//! Telling a message's readers: a `talk` notification to every user seated
//! at the game who reads it (the table: every other seat; press: the seats
//! addressed), written with the message in one transaction, so it reaches
//! them like every notification — `/v1/me/notifications` and its stream,
//! webhooks and mail (per their `talk` mail preference). Nobody else is
//! told anything, and nobody who muted the author. The spectators' room is
//! read from the game's talk (`GET /v1/games/{id}/talk`) only.

use uuid::Uuid;

use super::Room;
use crate::db::games::LoadedGame;
use crate::db::notifications::{self, Noted};
use crate::db::talk::{self as rows, MessageRow};
use crate::error::Failure;
use crate::notifications::talk_message::TalkMessage;
use crate::notifications::{Note, Notification, rows as note_rows};

/// The users told of `message`: seated readers but its author, less those
/// who muted the author.
///
/// # Errors
/// Database errors.
pub async fn recipients(
    conn: &mut crate::db::Conn,
    loaded: &LoadedGame,
    message: &MessageRow,
) -> Result<Vec<Uuid>, Failure> {
    let room = Room::parse(&message.room).unwrap_or(Room::Spectators);
    let readers: Vec<Uuid> = loaded
        .seats
        .iter()
        .filter(|s| s.user_id != message.author)
        .filter(|s| match room {
            Room::Table => true,
            Room::Press => message.to_seats.contains(&s.seat),
            Room::Spectators => false,
        })
        .map(|s| s.user_id)
        .collect();
    Ok(rows::not_muting(conn, message.author, &readers).await?)
}

/// Writes the `talk` notifications of `message` (inside the caller's
/// transaction); what to announce once it commits.
///
/// # Errors
/// Database errors.
pub async fn tell(
    conn: &mut crate::db::Conn,
    loaded: &LoadedGame,
    message: &MessageRow,
) -> Result<Vec<Noted>, Failure> {
    let users = recipients(conn, loaded, message).await?;
    let shown = TalkMessage::of(message);
    let notes: Vec<Note> = users
        .into_iter()
        .map(|user_id| Note {
            user_id,
            notification: Notification::Talk {
                game_id: loaded.game.id,
                ruleset: loaded.game.ruleset.clone(),
                message: shown.clone(),
            },
        })
        .collect();
    Ok(notifications::insert(
        conn,
        Some(loaded.game.id),
        &note_rows(&notes)?,
        message.created_at,
    )
    .await?)
}
