//! Moves by reply: one received mail, read and (when it is a valid move)
//! played through the command path.
//!
//! Rules, in the order they are checked:
//! 1. At most [`MAX_MAIL_BYTES`]; it must parse as a message.
//! 2. Automatic mail (`Auto-Submitted` other than `no`, `Precedence: bulk`,
//!    `junk` or `auto_reply`, `X-Autoreply`) is ignored: no answer goes to
//!    an auto-responder.
//! 3. A recipient (the envelope's, else `To`, `Cc`, `Delivered-To`,
//!    `X-Original-To`) must be a reply address, `play+<token>@...`, whose
//!    token is signed for the user holding its seat, and not expired. (A
//!    reply to a talk mail, `talk+<token>@...`, is said in the game's talk
//!    instead: see [`super::talk`].)
//! 4. `From` must be that user's confirmed address.
//! 5. There must be a `text/plain` part: an HTML-only mail is answered with
//!    how to send a move; a mail with neither is ignored.
//! 6. A mail whose `Message-ID` already moved is ignored: it moves once
//!    (its `Message-ID` is the command's idempotency key).
//! 7. A reply token is answered once a turn (played or refused), whatever
//!    the `Message-ID`: a replayed one is ignored; and a seat gets at most
//!    `--refusal-mails-per-seat` "not accepted" mails a day.
//!
//! A mail failing these is ignored, and nothing is written. One that passes
//! is answered by mail: the move played, or why not (the game is over, with
//! its result; that turn was already played, with the move; the game moved
//! on; a move that is not legal; a doubtful read, with the moves it could
//! mean; no move found) with the game as it is and, when it is still the
//! player's turn, its legal moves and a new reply address. A reply to an
//! older mail of the seat is played when nothing it showed has changed
//! ([`current_version`]).

use mail_parser::MessageParser;
use serde_json::json;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::moves::{move_line, read_move, written};
use super::token::{ReplyToken, talk_token_in, token_in};
use crate::auth::Caller;
use crate::auth::limits::Rule;
use crate::context::Context;
use crate::db::{games, mail};
use crate::error::Failure;
use crate::games::command::{CommandRequest, Precondition, submit_as};

/// The largest mail read, in bytes.
pub const MAX_MAIL_BYTES: usize = 256 * 1024;

/// What became of a received mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Received {
    /// The move was played at this version; a confirmation is queued.
    Moved { game: Uuid, version: i64 },
    /// The mail was valid but its move was not played; the reason is mailed back.
    Refused(String),
    /// Not a mail to act on (and nothing was written).
    Ignored(String),
    /// A reply to a talk mail, said in the game's talk as this message.
    Said { game: Uuid, message: Uuid },
}

fn ignored(why: &str) -> Result<Received, Failure> {
    Ok(Received::Ignored(why.to_owned()))
}

/// Whether the mail says it was sent automatically.
fn automatic(message: &mail_parser::Message<'_>) -> bool {
    let raw = |name: &str| {
        message
            .header_raw(name)
            .map(|v| v.trim().to_ascii_lowercase())
    };
    raw("Auto-Submitted").is_some_and(|v| v != "no")
        || raw("Precedence").is_some_and(|v| matches!(v.as_str(), "bulk" | "junk" | "auto_reply"))
        || raw("X-Autoreply").is_some()
}

/// The reply tokens among the mail's recipients, envelope first, as
/// `token_in` finds them in an address.
fn tokens<'a>(
    message: &'a mail_parser::Message<'a>,
    envelope: &'a [String],
    token_in: fn(&str) -> Option<&str>,
) -> Vec<String> {
    let mut found: Vec<String> = envelope
        .iter()
        .filter_map(|a| token_in(a))
        .map(str::to_owned)
        .collect();
    let headers = message
        .to()
        .into_iter()
        .chain(message.cc())
        .flat_map(|list| list.clone().into_list())
        .filter_map(|addr| addr.address.map(|a| a.to_string()));
    let raw = ["Delivered-To", "X-Original-To"]
        .into_iter()
        .filter_map(|name| message.header_raw(name).map(str::to_owned));
    for address in headers.chain(raw) {
        if let Some(token) = token_in(&address) {
            found.push(token.to_owned());
        }
    }
    found
}

/// The command's idempotency key: from the mail's `Message-ID` (or its
/// bytes, when it has none).
fn idempotency_key(message_id: Option<&str>, raw: &[u8]) -> String {
    let digest = match message_id {
        Some(id) => Sha256::digest(id.as_bytes()),
        None => Sha256::digest(raw),
    };
    format!("mail:{}", hex::encode(&digest[..24]))
}

/// The answer to an HTML-only reply from the player's own address.
const HTML_ONLY: &str = "your mail has no plain-text part, and a move is read only from plain text. Send the move's number as plain text (most mail apps have a \"plain text\" setting), or play on the game's page.";

/// The thread a reply belongs to (its `References`, else the message it
/// answers), for the answer's `References`.
fn thread_of(message: &mail_parser::Message<'_>) -> Vec<String> {
    let ids = |value: &mail_parser::HeaderValue<'_>| -> Vec<String> {
        value
            .as_text_list()
            .map(|list| list.iter().map(|id| format!("<{id}>")).collect())
            .or_else(|| value.as_text().map(|id| vec![format!("<{id}>")]))
            .unwrap_or_default()
    };
    let mut thread = ids(message.references());
    if thread.is_empty() {
        thread = ids(message.in_reply_to());
    }
    thread.truncate(20);
    thread
}

/// The version a reply to `token` is played at, or why it is not played.
///
/// A reply to an older mail is played when the game still waits for the
/// seat, the seat has not moved since, and the facts and moves that mail
/// showed are the ones the seat would be shown now (its fingerprint was
/// kept when it was sent): another seat's unrelated move (Top Hats
/// building) loses no turn. A reply after the game ended says so with the
/// result; a reply to a mail whose turn was played says which move was.
async fn current_version(
    conn: &mut crate::db::Conn,
    game: &crate::games::projection::Game,
    user: Uuid,
    token: &ReplyToken,
) -> Result<Result<i64, String>, Failure> {
    let shown = i64::from(token.version);
    if game.status != "active" {
        let result = game.result.as_ref().map_or_else(String::new, |r| {
            format!(
                " {}",
                crate::games::narration::result_text(r, &super::render::table_of(game))
            )
        });
        return Ok(Err(format!("the game is over.{result}")));
    }
    if game.version == shown {
        return Ok(Ok(shown));
    }
    let seat = i16::from(token.seat);
    if let Some((_, command)) =
        crate::db::event_store::first_command_after(conn, game.id, seat, shown).await?
    {
        return Ok(Err(format!(
            "that turn was already played: your move was \"{}\"",
            written(&command)
        )));
    }
    let waits = game.my_seat.is_some_and(|s| game.to_act.contains(&s));
    if waits
        && mail::shown_at(conn, user, game.id, shown)
            .await?
            .is_some_and(|f| f == super::render::fingerprint(game))
    {
        return Ok(Ok(game.version));
    }
    Ok(Err(
        "the game has moved on since that mail; below is the game as it is now".to_owned(),
    ))
}

/// Reads mail `raw` (delivered to the `envelope` recipients, when known)
/// and plays its move.
///
/// # Errors
/// Database errors (the mail should be delivered again later).
pub async fn receive(
    ctx: &Context,
    secret: &[u8],
    raw: &[u8],
    envelope: &[String],
) -> Result<Received, Failure> {
    if raw.len() > MAX_MAIL_BYTES {
        return ignored("the mail is too large");
    }
    let Some(message) = MessageParser::default().parse(raw) else {
        return ignored("not a mail");
    };
    if automatic(&message) {
        return ignored("an automatic mail");
    }
    let Some(token_text) = tokens(&message, envelope, token_in).into_iter().next() else {
        if let Some(talk) = tokens(&message, envelope, talk_token_in).into_iter().next() {
            return Ok(
                match super::talk::receive(ctx, secret, &message, raw, &talk).await? {
                    Ok((game, message)) => Received::Said { game, message },
                    Err(why) => Received::Ignored(why),
                },
            );
        }
        return ignored("not sent to a reply address");
    };
    let Ok((token, tag, legacy)) = ReplyToken::decode(&token_text, secret) else {
        return ignored("the reply address holds no valid token");
    };
    let mut conn = ctx.pool.get().await?;
    let Some(loaded) = games::load(&mut conn, token.game, None, None).await? else {
        return ignored("the reply address's signature does not match");
    };
    let Some(seat) = loaded
        .seats
        .iter()
        .find(|s| s.seat == i16::from(token.seat))
    else {
        return ignored("the reply address's signature does not match");
    };
    let user = seat.user_id;
    if let Err(e) = token.check((&tag, legacy), secret, user, crate::record::chain::now()) {
        return ignored(&e.to_string());
    }
    if !super::reply::from_player(&mut conn, &message, user).await? {
        return ignored("the sender is not the player's confirmed address");
    }
    let key = idempotency_key(message.message_id(), raw);
    let in_reply_to = message.message_id().map(|id| format!("<{id}>"));
    let references = thread_of(&message);
    let payload = |said: &str, error: Option<&str>| json!({"move": said, "error": error, "in_reply_to": in_reply_to, "references": references});
    let Some(text) = super::reply::plain_text(&message) else {
        if message.html_body_count() == 0 {
            return ignored("the mail has no plain-text part");
        }
        let why = HTML_ONLY.to_owned();
        mail::queue_direct(
            &mut conn,
            user,
            "move_refused",
            Some(token.game),
            &payload("", Some(&why)),
        )
        .await?;
        drop(conn);
        ctx.announcer.queued_mail();
        return Ok(Received::Refused(why));
    };
    if games::load(&mut conn, token.game, Some(user), Some(&key))
        .await?
        .is_some_and(|l| l.idempotent.is_some())
    {
        return ignored("this mail has moved already");
    }
    let game = crate::games::read::project_stored(&loaded, Some(user))?;
    let found = match current_version(&mut conn, &game, user, &token).await? {
        Err(why) => Err(why),
        Ok(version) => match move_line(&text) {
            None => Err("the first line of your reply holds no move".to_owned()),
            Some(line) => read_move(line, &game.legal_commands)
                .map(|command| (command.clone(), written(command), version)),
        },
    };
    let (command, said, version) = match found {
        Ok(found) => found,
        Err(why) => {
            let answer = answering(ctx, &tag, (token.game, game.version), token.seat, true);
            if !reserve_answer(&mut conn, &answer).await? {
                return ignored(NOT_ANSWERED);
            }
            let refused = payload("", Some(&why));
            mail::queue_direct(&mut conn, user, "move_refused", Some(token.game), &refused).await?;
            drop(conn);
            ctx.announcer.queued_mail();
            return Ok(Received::Refused(why));
        }
    };
    let once = answering(ctx, &tag, (token.game, game.version), token.seat, false);
    if !reserve_answer(&mut conn, &once).await? {
        return ignored(NOT_ANSWERED);
    }
    drop(conn);
    let caller = Caller {
        user_id: user,
        username: seat.username.clone(),
        session: Uuid::nil(),
    };
    let request = CommandRequest {
        expected_version: Some(version),
        command,
    };
    let precondition = Precondition {
        expected: version,
        via_if_match: false,
    };
    let outcome = submit_as(ctx, &caller, token.game, request, precondition, Some(&key)).await;
    let mut conn = ctx.pool.get().await?;
    if let Err(e) = &outcome
        && !e.code.is_refusal()
    {
        // Not answered: the mail comes again later and may be answered then.
        let names: Vec<&str> = once.iter().map(|(k, _)| k.as_str()).collect();
        crate::db::throttle::release(&mut conn, &names).await?;
    }
    let received = match outcome {
        Ok(outcome) if outcome.replayed => return ignored("this mail has moved already"),
        Ok(outcome) => {
            let accepted = payload(&said, None);
            mail::queue_direct(
                &mut conn,
                user,
                "move_accepted",
                Some(token.game),
                &accepted,
            )
            .await?;
            Received::Moved {
                game: token.game,
                version: outcome.version,
            }
        }
        Err(e) if e.code.is_refusal() => {
            let seat_refusals =
                answering(ctx, &tag, (token.game, game.version), token.seat, true).split_off(1);
            if !reserve_answer(&mut conn, &seat_refusals).await? {
                return ignored(NOT_ANSWERED);
            }
            let why = e.detail.clone();
            let refused = payload(&said, Some(&why));
            mail::queue_direct(&mut conn, user, "move_refused", Some(token.game), &refused).await?;
            Received::Refused(why)
        }
        Err(e) => return Err(e),
    };
    ctx.announcer.queued_mail();
    Ok(received)
}

/// Why a valid reply is dropped unanswered.
const NOT_ANSWERED: &str = "this reply address has been answered already, or its seat has \
                            had as many refusals as it may today";

/// The limits a reply answered by mail counts against: its token, answered
/// at most once while the game is at `version` (a replayed token, whatever
/// its `Message-ID`, gets one answer per turn), and — for a refusal — the
/// "not accepted" mails of its game's seat today (`--refusal-mails-per-seat`).
fn answering(
    ctx: &Context,
    tag: &[u8],
    (game, version): (Uuid, i64),
    seat: u8,
    refusal: bool,
) -> Vec<(String, Rule)> {
    let once = Rule::Fixed {
        most: 1,
        window: chrono::TimeDelta::days(super::token::REPLY_TTL_DAYS),
    };
    let mut keys = vec![(super::token::answer_key(tag, version), once)];
    if refusal {
        keys.push((
            format!("refusals:{game}:{seat}"),
            ctx.cost_limits.refusal_mails,
        ));
    }
    keys
}

/// Reserves `keys` (see [`answering`]); whether the mail may be answered.
async fn reserve_answer(
    conn: &mut crate::db::Conn,
    keys: &[(String, Rule)],
) -> Result<bool, Failure> {
    let now = crate::record::chain::now();
    Ok(crate::db::throttle::reserve(conn, keys, now)
        .await?
        .is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_of_a_mail_is_its_message_id() {
        let a = idempotency_key(Some("x@example.com"), b"one");
        assert_eq!(a, idempotency_key(Some("x@example.com"), b"two"));
        assert_ne!(a, idempotency_key(Some("y@example.com"), b"one"));
        assert_ne!(idempotency_key(None, b"one"), idempotency_key(None, b"two"));
        assert!(a.len() <= 128 && a.starts_with("mail:"));
    }

    #[test]
    fn automatic_mail_is_recognised() {
        let parse = |raw: &'static str| MessageParser::default().parse(raw.as_bytes()).unwrap();
        assert!(automatic(&parse(
            "Auto-Submitted: auto-replied\r\nSubject: away\r\n\r\nI am away\r\n"
        )));
        assert!(automatic(&parse(
            "Precedence: bulk\r\nSubject: x\r\n\r\nx\r\n"
        )));
        assert!(!automatic(&parse(
            "Auto-Submitted: no\r\nSubject: x\r\n\r\nplay H5\r\n"
        )));
        assert!(!automatic(&parse("Subject: x\r\n\r\nplay H5\r\n")));
    }
}
