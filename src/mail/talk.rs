//! Talk by mail (docs/talk.md): the messages a turn mail lists, and a reply
//! to a talk mail, said as a message.
//!
//! Rules:
//! - A turn mail lists the messages its reader reads that were said since
//!   their last turn mail of that game (or, before any, since the game
//!   began): never their own, never a hidden one, never one by a user they
//!   muted; the newest [`TURN_MAIL_TALK`], saying so when there were more.
//! - A talk mail (one message, sent at once) carries a talk reply address
//!   (`talk+<token>@…`) while the game is played. A reply to it from the
//!   reader's confirmed address is said by the reader: at the table when
//!   the message answered was said at the table; to its author alone, as
//!   press, when it was press (so a private word is never answered in
//!   public by a slip of the reply button).
//! - The reply's text is its plain text without what it quotes, the way a
//!   move by reply is read: lines quoted with `>` are left out, and so is
//!   everything from an attribution (`On … wrote:`), an `Original Message`
//!   rule or a signature (`-- `) on.
//! - A reply is said once (its `Message-ID`, else its bytes), under the
//!   checks and the rate limit of `POST /v1/games/{id}/talk`. A refused one
//!   (too long, muted, over the rate, the game over) is not said, and not
//!   answered.

use chrono::TimeDelta;
use mail_parser::Message;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::token::{REPLY_TTL_DAYS, TalkToken};
use crate::auth::Caller;
use crate::auth::limits::Rule;
use crate::context::Context;
use crate::db::talk::{self as rows, MessageRow, Reader};
use crate::db::{Conn, games, mail};
use crate::error::Failure;
use crate::games::projection::Game;
use crate::talk::Room;
use crate::talk::messages::{SayRequest, say};

/// The most messages one turn mail lists.
pub const TURN_MAIL_TALK: i64 = 10;

/// What a turn mail lists of the talk.
#[derive(Debug, Clone, Default)]
pub struct Heard {
    /// Oldest first.
    pub messages: Vec<MessageRow>,
    /// Whether earlier messages were left out.
    pub more: bool,
}

/// What `user` was told in `game` since their last turn mail of it (see
/// the rules).
///
/// # Errors
/// Database errors.
pub async fn since_last_turn_mail(
    conn: &mut Conn,
    game: &Game,
    user: Uuid,
) -> Result<Heard, Failure> {
    let since = mail::last_turn_mail(conn, user, game.id).await?;
    let reader = Reader {
        user: Some(user),
        seat: game.my_seat.map(i16::from),
        over: game.status != "active",
        press_revealed: game.options["press_revealed_at_end"] == true,
    };
    let mut messages = rows::said_to(conn, game.id, reader, since, TURN_MAIL_TALK + 1).await?;
    let more = messages.len() > usize::try_from(TURN_MAIL_TALK).unwrap_or(usize::MAX);
    if more {
        messages.remove(0);
    }
    Ok(Heard { messages, more })
}

/// The text of a reply to a talk mail: its own lines, without what it
/// quotes and without its signature; `None` when nothing is left.
#[must_use]
pub fn reply_text(text: &str) -> Option<String> {
    let mut kept: Vec<&str> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        let attribution = trimmed.starts_with("On ") && trimmed.ends_with("wrote:");
        let original = trimmed.starts_with("-----") && trimmed.contains("Original Message");
        if attribution || original || line.trim_end_matches('\r') == "-- " || trimmed == "--" {
            break;
        }
        if trimmed.starts_with('>') {
            continue;
        }
        kept.push(line.trim_end());
    }
    let text = kept.join("\n");
    let text = text.trim_matches('\n').to_owned();
    (!text.trim().is_empty()).then_some(text)
}

/// What became of a reply: the game and message said, or why it was not.
pub type Outcome = Result<(Uuid, Uuid), String>;

fn ignored(why: &str) -> Result<Outcome, Failure> {
    Ok(Err(why.to_owned()))
}

/// The key under which a reply is said once: its `Message-ID`, else its bytes.
fn once_key(message_id: Option<&str>, raw: &[u8]) -> String {
    let digest = match message_id {
        Some(id) => Sha256::digest(id.as_bytes()),
        None => Sha256::digest(raw),
    };
    format!("talk-mail:{}", hex::encode(&digest[..24]))
}

/// Says the reply `message` (bytes `raw`), sent to talk token `token_text`
/// (see the rules): the message said, or why the reply was ignored.
///
/// # Errors
/// Database errors (the mail should be delivered again later).
pub async fn receive(
    ctx: &Context,
    secret: &[u8],
    message: &Message<'_>,
    raw: &[u8],
    token_text: &str,
) -> Result<Outcome, Failure> {
    let Ok((token, tag)) = TalkToken::decode(token_text, secret) else {
        return ignored("the reply address holds no valid token");
    };
    let mut conn = ctx.pool.get().await?;
    let Some((user, username)) =
        games::seat_holder(&mut conn, token.game, i16::from(token.seat)).await?
    else {
        return ignored("the reply address's signature does not match");
    };
    if let Err(e) = token.check(&tag, secret, user, crate::record::chain::now()) {
        return ignored(&e.to_string());
    }
    if !super::reply::from_player(&mut conn, message, user).await? {
        return ignored("the sender is not the player's confirmed address");
    }
    let Some(body) = super::reply::plain_text(message) else {
        return ignored("the mail has no plain-text part");
    };
    let Some(text) = reply_text(&body) else {
        return ignored("the reply says nothing but what it quotes");
    };
    let once = [(
        once_key(message.message_id(), raw),
        Rule::Fixed {
            most: 1,
            window: TimeDelta::days(REPLY_TTL_DAYS),
        },
    )];
    let now = crate::record::chain::now();
    if crate::db::throttle::reserve(&mut conn, &once, now)
        .await?
        .is_some()
    {
        return ignored("this reply was said already");
    }
    drop(conn);
    let caller = Caller {
        user_id: user,
        username,
        session: Uuid::nil(),
    };
    let request = SayRequest {
        room: if token.to.is_some() {
            Room::Press
        } else {
            Room::Table
        },
        to: token.to.map(i64::from).into_iter().collect(),
        text,
    };
    match say(ctx, &caller, token.game, request).await {
        Ok(said) => Ok(Ok((token.game, said.id))),
        Err(e) if e.code.is_refusal() => ignored(&format!("not said: {}", e.detail)),
        Err(e) => {
            // Not said: the mail comes again later and may be said then.
            let mut conn = ctx.pool.get().await?;
            let names: Vec<&str> = once.iter().map(|(k, _)| k.as_str()).collect();
            crate::db::throttle::release(&mut conn, &names).await?;
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_a_reply_when_read_then_quotes_attribution_and_signature_are_left_out() {
        let reply = "Sounds good, let us do it.\r\nSecond line.\r\n\r\nOn Mon, 7 Dec 2026, hatstand wrote:\r\n> ann says to you:\r\n> shall we?\r\n";
        assert_eq!(
            reply_text(reply).as_deref(),
            Some("Sounds good, let us do it.\nSecond line.")
        );
        assert_eq!(
            reply_text("> quoted\n\nmine\n-- \nAnn\n").as_deref(),
            Some("mine")
        );
        assert_eq!(
            reply_text("Yes!\n-----Original Message-----\nFrom: x\n").as_deref(),
            Some("Yes!")
        );
        assert_eq!(reply_text("> only a quote\n\n"), None);
        assert_eq!(reply_text("On Mon, x wrote:\n> y\n"), None);
    }
}
