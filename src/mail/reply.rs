//! What every reply to the server's mail is checked for, whatever it
//! carries (a move, or a message for the table): it comes from the player's
//! confirmed address, and its text is its first plain-text part (a mail
//! with HTML alone is not read).

use mail_parser::{Message, PartType};
use uuid::Uuid;

use crate::db::{Conn, mail};
use crate::error::Failure;

/// Whether `message`'s first `From` is `user`'s confirmed address (compared
/// without case). A player without a confirmed address sends no reply.
///
/// # Errors
/// Database errors.
pub async fn from_player(
    conn: &mut Conn,
    message: &Message<'_>,
    user: Uuid,
) -> Result<bool, Failure> {
    let from = message
        .from()
        .and_then(|f| f.first())
        .and_then(|a| a.address.as_deref())
        .map(str::to_ascii_lowercase);
    let address = mail::address(conn, user).await?;
    let confirmed = address
        .as_ref()
        .filter(|a| a.confirmed_at.is_some())
        .map(|a| a.address.to_ascii_lowercase());
    Ok(from.is_some() && from == confirmed)
}

/// The text of `message`'s first plain-text part.
#[must_use]
pub fn plain_text(message: &Message<'_>) -> Option<String> {
    message.text_bodies().find_map(|part| match &part.body {
        PartType::Text(text) => Some(text.to_string()),
        _ => None,
    })
}
