//! Writing each kind of mail: the subject, a plain-text body and the same as
//! simple HTML, and the headers every mail carries.
//!
//! Every mail has a `Message-ID` made from its outbox row (the same on every
//! retry, so a receiver can drop a copy sent twice) and `Auto-Submitted:
//! auto-generated` (so that auto-responders do not answer it). A mail about
//! a game the reader plays has a one-click unsubscribe from that kind of
//! mail (`List-Unsubscribe`, `List-Unsubscribe-Post`, RFC 8058). A mail that
//! asks for a move has a `Reply-To` carrying a reply token for the seat at
//! the version the mail shows, and lists the legal moves with their codes.

use std::fmt::Write as _;

use chrono::{Duration, Utc};
use lettre::Message;
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use serde_json::Value;
use uuid::Uuid;

use super::render::{escape, moves, table};
use super::token::{REPLY_TTL_DAYS, ReplyToken, reply_address, unsubscribe_signature};
use crate::db::mail::Claimed;
use crate::games::projection::Game;

/// What every mail needs from the server's settings.
#[derive(Debug, Clone)]
pub struct Letterhead {
    pub from: Mailbox,
    /// The domain of reply addresses and message ids.
    pub domain: String,
    /// The server's public URL, without a trailing slash.
    pub public_url: String,
    /// The key of reply tokens and unsubscribe links.
    pub secret: Vec<u8>,
}

/// A mail to send: the subject and bodies, and its optional headers.
#[derive(Debug, Clone, Default)]
pub struct Draft {
    pub subject: String,
    pub text: String,
    pub html: String,
    /// The reply address (for a move by reply).
    pub reply_to: Option<String>,
    /// The kind of mail a one-click unsubscribe turns off.
    pub unsubscribe: Option<String>,
    /// The message this one answers.
    pub in_reply_to: Option<String>,
}

/// The name players know a ruleset by.
#[must_use]
pub fn ruleset_name(id: &str) -> &str {
    match id {
        "hats" => "Hats",
        "goathead" => "Goathead",
        "top-hats" => "Top Hats",
        "hat-trick" => "Hat Trick",
        other => other,
    }
}

fn players(game: &Game) -> String {
    game.seats
        .iter()
        .map(|s| s.username.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The link to a game's page in the web client.
fn game_link(head: &Letterhead, id: Uuid) -> String {
    format!("{}/#/games/{id}", head.public_url)
}

impl Draft {
    fn paragraph(&mut self, text: &str) {
        self.text.push_str(text);
        self.text.push_str("\n\n");
        let _ = write!(self.html, "<p>{}</p>", escape(text));
    }

    fn preformatted(&mut self, text: &str) {
        self.text.push_str(text);
        self.text.push('\n');
        let _ = write!(self.html, "<pre>{}</pre>", escape(text));
    }

    fn link(&mut self, label: &str, url: &str) {
        let _ = write!(self.text, "{label}: {url}\n\n");
        let _ = write!(
            self.html,
            "<p><a href=\"{}\">{}</a></p>",
            escape(url),
            escape(label)
        );
    }

    /// The game as `game`'s viewer sees it and, when the game waits for the
    /// viewer, the legal moves and a reply address at this version.
    fn table_and_moves(&mut self, head: &Letterhead, user: Uuid, game: &Game) {
        self.preformatted(&table(game));
        let waits = game.my_seat.is_some_and(|seat| game.to_act.contains(&seat));
        if let (true, Some(seat)) = (waits, game.my_seat) {
            self.paragraph(
                "Your move: reply to this mail with the move's code (or the move written out) on the first line.",
            );
            self.preformatted(&moves(&game.legal_commands));
            let expires = Utc::now() + Duration::days(REPLY_TTL_DAYS);
            let token = ReplyToken::new(game.id, seat, game.version, expires);
            self.reply_to = Some(reply_address(&token, &head.secret, user, &head.domain));
        } else if game.status == "active" {
            let waiting: Vec<&str> = game
                .seats
                .iter()
                .filter(|s| game.to_act.contains(&s.seat))
                .map(|s| s.username.as_str())
                .collect();
            self.paragraph(&format!("The game now waits for {}.", waiting.join(", ")));
        }
        self.link("The game on the web", &game_link(head, game.id));
    }
}

/// The mail of a `your_turn` or `reminder` row, given the game as the
/// reader sees it now; `None` when the game no longer waits for the
/// reader's seat (then the mail is not worth sending).
#[must_use]
pub fn turn(head: &Letterhead, row: &Claimed, game: &Game) -> Option<Draft> {
    let seat = game.my_seat?;
    if game.status != "active" || !game.to_act.contains(&seat) {
        return None;
    }
    if row.kind == "reminder" && Some(game.version) != row.payload["version"].as_i64() {
        return None;
    }
    let mut draft = Draft {
        subject: if row.kind == "reminder" {
            format!(
                "Reminder: your move in {} is due soon",
                ruleset_name(&game.ruleset)
            )
        } else {
            format!(
                "Your turn: {} with {}",
                ruleset_name(&game.ruleset),
                players(game)
            )
        },
        unsubscribe: Some(row.kind.clone()),
        ..Draft::default()
    };
    let deadline = row.payload["deadline"].as_str().map_or_else(
        || "This game has no clock.".to_owned(),
        |d| format!("Move by {d}."),
    );
    draft.paragraph(&format!(
        "Hello {}, it is your turn in {} (move {}). {deadline}",
        row.username,
        ruleset_name(&game.ruleset),
        game.version
    ));
    draft.table_and_moves(head, row.user_id, game);
    Some(draft)
}

/// The answer to a move sent by mail: accepted or not, then the game now.
#[must_use]
pub fn reply(head: &Letterhead, row: &Claimed, game: Option<&Game>) -> Draft {
    let accepted = row.kind == "move_accepted";
    let said = row.payload["move"].as_str().unwrap_or("");
    let mut draft = Draft {
        subject: if accepted {
            format!("Accepted: {said}")
        } else {
            "Your move was not accepted".to_owned()
        },
        in_reply_to: row.payload["in_reply_to"].as_str().map(str::to_owned),
        ..Draft::default()
    };
    if accepted {
        draft.paragraph(&format!("Your move \"{said}\" was played."));
    } else {
        let why = row.payload["error"]
            .as_str()
            .unwrap_or("it could not be read");
        draft.paragraph(&format!("Your mail was not played: {why}"));
    }
    if let Some(game) = game {
        draft.table_and_moves(head, row.user_id, game);
    }
    draft
}

/// An invitation to a private game.
#[must_use]
pub fn invited(head: &Letterhead, row: &Claimed, game: &Game) -> Draft {
    let mut draft = Draft {
        subject: format!(
            "You are invited to a game of {}",
            ruleset_name(&game.ruleset)
        ),
        unsubscribe: Some(row.kind.clone()),
        ..Draft::default()
    };
    draft.paragraph(&format!(
        "Hello {}, you are invited to a {}-player game of {} (at the table: {}).",
        row.username,
        game.players,
        ruleset_name(&game.ruleset),
        players(game)
    ));
    draft.link("Join or decline", &game_link(head, game.id));
    draft
}

/// A game over: its result and where to check it.
#[must_use]
pub fn finished(head: &Letterhead, row: &Claimed, game: &Game) -> Draft {
    let mut draft = Draft {
        subject: format!(
            "Game over: {} with {}",
            ruleset_name(&game.ruleset),
            players(game)
        ),
        unsubscribe: Some(row.kind.clone()),
        ..Draft::default()
    };
    draft.paragraph(&format!(
        "The game of {} is {} after {} moves.",
        ruleset_name(&game.ruleset),
        game.status,
        game.version
    ));
    if let Some(result) = &game.result {
        draft.preformatted(&result_text(result, game));
    }
    draft.link(
        "The audit (every event, the seed, the hash chain)",
        &format!("{}/#/audit/{}", head.public_url, game.id),
    );
    draft
}

/// A result with seat numbers named.
fn result_text(result: &Value, game: &Game) -> String {
    let mut out = String::new();
    let name = |seat: u64| {
        game.seats
            .iter()
            .find(|s| u64::from(s.seat) == seat)
            .map_or_else(|| format!("seat {seat}"), |s| s.username.clone())
    };
    if let Some(winners) = result.get("winners").and_then(Value::as_array) {
        let names: Vec<String> = winners.iter().filter_map(Value::as_u64).map(name).collect();
        let _ = writeln!(out, "Won by: {}", names.join(", "));
    }
    for key in ["scores", "score", "points", "game_points"] {
        if let Some(scores) = result.get(key).and_then(Value::as_array) {
            let shown: Vec<String> = scores
                .iter()
                .enumerate()
                .map(|(i, v)| format!("{} {v}", name(i as u64)))
                .collect();
            let _ = writeln!(out, "Scores: {}", shown.join(", "));
        }
    }
    if out.is_empty() {
        out = result.to_string();
    }
    out
}

/// The code that confirms an address.
#[must_use]
pub fn confirm_address(row: &Claimed) -> Draft {
    let code = row.payload["code"].as_str().unwrap_or("");
    let mut draft = Draft {
        subject: format!("Your hatstand confirmation code: {code}"),
        ..Draft::default()
    };
    draft.paragraph(&format!(
        "Hello {}, to receive hatstand's mails at this address, confirm it with this code (good for 24 hours):",
        row.username
    ));
    draft.preformatted(code);
    draft.paragraph("If you did not ask for this, ignore this mail: nothing more will be sent.");
    draft
}

/// One mail for the due lines of a user's digest.
#[must_use]
pub fn digest(head: &Letterhead, rows: &[&Claimed]) -> Draft {
    let mut draft = Draft {
        subject: format!("Your hatstand digest: {} updates", rows.len()),
        unsubscribe: Some("digest".into()),
        ..Draft::default()
    };
    let mut lines = String::new();
    for row in rows {
        let ruleset = ruleset_name(row.payload["ruleset"].as_str().unwrap_or("?"));
        let what = match row.kind.as_str() {
            "your_turn" => format!("Your turn in {ruleset}"),
            "invited" => format!("Invited to {ruleset}"),
            "game_finished" => format!("{ruleset} is over"),
            other => other.to_owned(),
        };
        let link = row
            .game_id
            .map(|id| game_link(head, id))
            .unwrap_or_default();
        let _ = writeln!(
            lines,
            "- {what} ({}): {link}",
            row.created_at.format("%Y-%m-%d %H:%M UTC")
        );
    }
    draft.paragraph("What happened since your last digest:");
    draft.preformatted(&lines);
    draft
}

/// The message of `draft` to `row`'s user, from outbox row `row`.
///
/// # Errors
/// A message saying what could not be built (a bad address).
pub fn message(head: &Letterhead, row: &Claimed, draft: Draft) -> Result<Message, String> {
    let to = Mailbox::new(
        Some(row.username.clone()),
        row.address
            .parse()
            .map_err(|e| format!("the address: {e}"))?,
    );
    let mut builder = Message::builder()
        .from(head.from.clone())
        .to(to)
        .subject(draft.subject)
        .date_now()
        .message_id(Some(message_id(head, row.user_id, row.id)))
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            "auto-generated".into(),
        ));
    if let Some(reply_to) = draft.reply_to {
        builder = builder.reply_to(
            reply_to
                .parse()
                .map_err(|e| format!("the reply address: {e}"))?,
        );
    }
    if let Some(parent) = draft.in_reply_to {
        builder = builder.in_reply_to(parent.clone()).references(parent);
    }
    if let Some(kind) = draft.unsubscribe {
        let url = format!(
            "{}/v1/email/unsubscribe?user={}&kind={kind}&sig={}",
            head.public_url,
            row.user_id,
            unsubscribe_signature(&head.secret, row.user_id, &kind)
        );
        builder = builder
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe"),
                format!("<{url}>"),
            ))
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                "List-Unsubscribe=One-Click".into(),
            ));
    }
    let html = format!(
        "<!doctype html><html><body style=\"font-family: sans-serif\">{}</body></html>",
        draft.html
    );
    builder
        .multipart(MultiPart::alternative_plain_html(draft.text, html))
        .map_err(|e| format!("the message: {e}"))
}

/// The `Message-ID` of outbox row `id` of `user`: the same on every retry.
#[must_use]
pub fn message_id(head: &Letterhead, user: Uuid, id: i64) -> String {
    format!("<mail.{}.{id}@{}>", user.simple(), head.domain)
}
